//! hoshi: a Go engine speaking GTP.
//!
//! Data flows one way: GTP text → game (full rules, history) → board (stones, chains).

pub mod board; // the copy-make position: chains, liberties, captures, simple ko, hash
pub mod coord; // colours, vertices (GTP/SGF names), padded points, point sets
pub mod game; // the game record: history, superko, handicap, komi, prisoners, undo
pub mod handicap; // fixed handicap tables (GTP §4.1.1) and free placement
pub mod playout; // uniform random playouts that never fill their own eyes
pub mod rules; // the Ruleset value type and its presets (French by default)
pub mod score; // area and territory scoring given dead stones; results like B+3.5
