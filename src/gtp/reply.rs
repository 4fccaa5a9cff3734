//! What a command answers: its text, or why it failed ([`Failure`], with the spec's own
//! words where it has them). Every command module answers in these terms.

use crate::board::Illegal;
use crate::handicap::HandicapError;
use crate::player::params::ParamError;
use crate::player::rank::RankError;
use std::fmt;

/// Why a command failed. The texts are the spec's own where it has one (§6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    Syntax,
    UnknownCommand,
    UnacceptableSize,
    /// `illegal move`, followed by the reason a player wants to hear.
    Illegal(Illegal),
    CannotUndo,
    CannotLoad,
    Handicap(HandicapError),
    CannotSave,
    EmptyPoint,
    /// A bug inside the engine (a caught panic).
    Internal,
    /// An input line of more than this many bytes, which is not read as a command.
    LineTooLong(usize),
    /// A command that needs the policy network while hoshi plays without one.
    NoNetwork,
    /// A command that needs the network's value while its network has no value head.
    NoValueHead,
    /// A tuning parameter that cannot be set (`hoshi-param`): the controller hears which
    /// key or value was wrong and what the key takes, as `--param` says it.
    Param(ParamError),
    /// A rank hoshi does not play (`hoshi-rank`), with the reason.
    Rank(RankError),
    /// `hoshi-handicap` before the opponent's rank is known.
    NoOpponentRank,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Syntax => f.write_str("syntax error"),
            Failure::UnknownCommand => f.write_str("unknown command"),
            Failure::UnacceptableSize => f.write_str("unacceptable size"),
            Failure::Illegal(why) => write!(f, "illegal move: {why}"),
            Failure::CannotUndo => f.write_str("cannot undo"),
            Failure::CannotLoad => f.write_str("cannot load file"),
            Failure::Handicap(why) => write!(f, "{why}"),
            Failure::CannotSave => f.write_str("cannot save file"),
            Failure::EmptyPoint => f.write_str("vertex must not be empty"),
            Failure::Internal => f.write_str("internal error"),
            Failure::LineTooLong(max) => write!(f, "line too long (more than {max} bytes)"),
            Failure::NoNetwork => f.write_str("no network (--net none)"),
            Failure::NoValueHead => f.write_str("the network has no value head"),
            Failure::Param(why) => write!(f, "{why}"),
            Failure::Rank(why) => write!(f, "{why}"),
            Failure::NoOpponentRank => {
                f.write_str("the opponent's rank is unknown (hoshi-opponent_rank RANK)")
            }
        }
    }
}

impl std::error::Error for Failure {}

/// A command's answer: its text, or why it failed.
pub(super) type Reply = Result<String, Failure>;
