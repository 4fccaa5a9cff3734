//! hoshi: a Go engine speaking GTP.
//!
//! The crate is built in layers; each imports only from the layers below it:
//!
//! * core: [`coord`], [`board`], [`rules`], [`game`], [`score`], [`handicap`], [`sgf`] — positions,
//!   rules and game records; no search — and [`parse`], seconds and switches as people write
//!   them.
//! * [`net`]: the policy network, a learned move predictor (input features, weights, forward
//!   pass); the search uses it for priors.
//! * [`search`]: the Monte Carlo tree search (tree, the one playout engine, patterns, priors,
//!   the ownership map, the tuning parameters); it knows nothing of levels, judges, clocks
//!   or GTP.
//! * [`player`]: who chooses a move: the `Player` trait, levels, the MCTS and random players,
//!   the clock and time allocation, the dead-stone judge (it runs searches).
//! * [`engine`]: what a controller talks to: the game, the player, the settings, the clock.
//! * the ways in: [`gtp`] (the protocol loop) and [`cmd`] (`hoshi match`, `hoshi analyze`);
//!   `main.rs` only parses the command line.
//!
//! docs/design.md draws the picture and says where to start reading.

// core
pub mod board; // the copy-make position: chains, liberties, captures, simple ko, hash
pub mod coord; // colors, vertices (GTP/SGF names), padded points, point sets
pub mod game; // the game record: history, superko, handicap, komi, prisoners, undo
pub mod handicap; // fixed handicap tables (GTP §4.1.1) and free placement
pub mod parse; // seconds and on/off switches as people and controllers write them
pub mod rules; // the Ruleset value type and its presets (French by default)
pub mod score; // area and territory scoring given dead stones; results like B+3.5
pub mod sgf; // SGF FF[4] reading (main line, setup, handicap) and writing

pub mod net; // the learned network: input features, weights, forward pass (policy, value)

pub mod search; // Monte Carlo tree search with RAVE, priors, playouts, ownership, threads

pub mod player; // the Player trait, levels, MCTS and random players, clock, dead-stone judge

pub mod engine; // what a controller talks to: the game, the player, the settings, the clock

pub mod cmd; // the subcommands: `hoshi match` (arena) and `hoshi analyze` (review)
pub mod gtp; // the GTP loop: framing, input thread, commands, analysis streams, GoGui
