//! hoshi: a Go engine speaking GTP.
//!
//! The crate is built in layers; each imports only from the layers below it:
//!
//! * core: [`coord`], [`board`], [`rules`], [`game`], [`score`], [`handicap`], [`sgf`] — positions,
//!   rules and game records; no search — and [`parse`], seconds and switches as people write
//!   them.
//! * [`net`]: one interface to a learned network (an evaluator per thread, one output a
//!   position: policy, value, score lead, ownership; a cache of whole outputs), and the
//!   `.hnet` network behind it.
//! * [`knowledge`]: where the search meets Go knowledge: the prior-source and
//!   leaf-evaluator interfaces, and what stands behind them: the hand-made priors, patterns,
//!   playouts, the ownership map, the network-backed sources.
//! * [`search`]: the Monte Carlo tree search (tree, simulation, selection, limits, reuse,
//!   report); it is given its knowledge and names no network; it knows nothing of levels,
//!   judges, clocks or GTP.
//! * [`setup`]: settings to what plays, in one place: which network on which board (a file
//!   read by its content), the knobs left to the network settled, the knowledge and the
//!   search's settings built; the player, the subcommands and the benches ask it.
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

pub mod net; // one interface to a network (outputs, cache) and the .hnet network

pub mod knowledge; // what the search knows of Go: priors, playouts, network-backed sources

pub mod search; // Monte Carlo tree search with RAVE or PUCT, threads, tree reuse

pub mod setup; // settings -> what plays: the network, the settled knobs, the knowledge

pub mod player; // the Player trait, levels, MCTS and random players, clock, dead-stone judge

pub mod engine; // what a controller talks to: the game, the player, the settings, the clock

pub mod cmd; // the subcommands: `hoshi match`, `analyze`, `dataset`, `selfplay`, `calibrate`
pub mod gtp; // the GTP loop: framing, input thread, commands, analysis streams, GoGui
