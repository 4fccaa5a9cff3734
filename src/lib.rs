//! hoshi: a Go engine speaking GTP.
//!
//! Data flows one way: GTP text → game (full rules, history) → board (stones, chains).

pub mod arena; // `hoshi match`: games between two GTP engines, results.tsv, SGF, Elo report
pub mod board; // the copy-make position: chains, liberties, captures, simple ko, hash
pub mod clock; // time control from time_settings / kgs-time_settings / time_left, move budgets
pub mod coord; // colours, vertices (GTP/SGF names), padded points, point sets
pub mod engine; // what GTP talks to: the game, the player, the settings, the clock
pub mod game; // the game record: history, superko, handicap, komi, prisoners, undo
pub mod gtp; // the GTP loop: framing (ids, comments, control characters), commands, answers
pub mod handicap; // fixed handicap tables (GTP §4.1.1) and free placement
pub mod ownership; // Monte Carlo ownership: dead stones, seki, score estimates
pub mod player; // the Player trait behind genmove, strength levels, the random baseline player
pub mod playout; // uniform random playouts that never fill their own eyes
pub mod review; // `hoshi analyze`: every position of a game searched, the SGF annotated for Sabaki
pub mod rules; // the Ruleset value type and its presets (French by default)
pub mod score; // area and territory scoring given dead stones; results like B+3.5
pub mod search; // Monte Carlo tree search with RAVE, priors, heavy playouts, threads
pub mod sgf; // SGF FF[4] reading (main line, setup, handicap) and writing
pub mod signals; // what reaches a thinking engine from outside: new input, GoGui's interrupt
