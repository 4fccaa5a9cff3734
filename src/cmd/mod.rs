//! The subcommands beside GTP: `hoshi match` ([`arena`]: games between two GTP engines)
//! and `hoshi analyze` ([`review`]: a game searched move by move, written back as SGF).

pub mod arena;
pub mod review;
