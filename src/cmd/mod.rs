//! The subcommands beside GTP: `hoshi match` ([`arena`]: games between two GTP engines),
//! `hoshi analyze` ([`review`]: a game searched move by move, written back as SGF) and
//! `hoshi dataset` ([`dataset`]: strong players' games as training positions for the policy
//! network) and `hoshi selfplay` ([`selfplay`]: hoshi's games against itself, with its
//! search's view of each move, for the networks to learn from), and `hoshi calibrate`
//! ([`calibrate`]: the handicap matches that define the ranks).

pub mod arena;
pub mod calibrate;
pub mod dataset;
pub mod review;
pub mod selfplay;
