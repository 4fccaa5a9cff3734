//! The subcommands beside GTP, each in the module of its name: `hoshi analysis`
//! ([`analysis`]: KataGo's JSON analysis protocol, in progress: its queries read), `hoshi match`
//! (`r#match`: games between two GTP engines), `hoshi analyze` ([`analyze`]: a game
//! searched move by move, written back as SGF),
//! `hoshi dataset` ([`dataset`]: strong players' games as training positions for the policy
//! network) and `hoshi selfplay` ([`selfplay`]: hoshi's games against itself, with its
//! search's view of each move, for the networks to learn from), and `hoshi calibrate`
//! ([`calibrate`]: the handicap matches that define the ranks).

pub mod analysis;
pub mod analyze;
pub mod calibrate;
pub mod dataset;
pub mod r#match;
pub mod selfplay;
