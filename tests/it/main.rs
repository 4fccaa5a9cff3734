//! The integration tests, gathered into one test binary: each module was a file of its own
//! under `tests/`, but every test binary links the whole engine with the release profile's
//! fat LTO, so one binary builds several times faster than sixteen.
//!
//! Tests that need GNU Go (their names contain `gnugo`) and the memory soak test (`soak`)
//! are `#[ignore]`d; `.ci/run` runs them by name.
//! The comparisons with KataGo's own answers (`katago`) run on the committed models; KaTrain's
//! b10c384, not committed, is `#[ignore]`d: tests/fixtures/katago/README.md says how to run
//! it.

mod common;

mod analysis;
mod analysis_protocol;
mod arena;
mod clock;
mod dead_stones;
mod french_examples;
mod gnugo_differential;
mod gogui;
mod gtp_regress;
mod gtp_robustness;
mod handicap;
mod katago;
mod long_lines;
mod params;
mod policy_net;
mod random_games;
mod ranks;
mod review;
mod search;
mod selfplay;
mod sgf;
mod soak;
mod superko;
mod value_net;
