//! Keeping a GTP program in step with the game the match referees: the setup every game
//! starts with (board size, rules, komi, handicap, as gogui-twogtp and kgsGtp send them)
//! and the moves. Used for both players and for a GTP referee.

use super::program::{Answer, Fault, Program};
use super::settings::MatchSettings;
use crate::coord::{Color, Geometry, Move, Vertex};
use crate::game::Game;
use crate::player::clock::{TimeControl, TimeLeft};
use crate::rules::Ruleset;
use std::fmt;
use std::time::Duration;

/// Why a program could not go on with the game.
#[derive(Clone, Debug, PartialEq)]
pub enum ProgramError {
    /// It crashed, timed out or wrote garbage while answering `command`.
    Fault { command: String, fault: Fault },
    /// It answered `?` to a command it must accept.
    Refused { command: String, answer: String },
    /// It answered, but not something that makes sense here.
    Unexpected { command: String, answer: String },
}

impl ProgramError {
    /// Whether the failure is a time-out (a loss on time rather than by forfeit).
    pub fn on_time(&self) -> bool {
        matches!(
            self,
            ProgramError::Fault {
                fault: Fault::TimedOut(_),
                ..
            }
        )
    }
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramError::Fault { command, fault } => write!(f, "{fault} on `{command}`"),
            ProgramError::Refused { command, answer } => write!(f, "refused `{command}`: {answer}"),
            ProgramError::Unexpected { command, answer } => {
                write!(f, "answered {answer:?} to `{command}`")
            }
        }
    }
}

impl std::error::Error for ProgramError {}

/// Sends `command`, which must succeed; returns the answer's text.
pub fn require(program: &mut Program, command: &str) -> Result<String, ProgramError> {
    let answer = program.ask(command);
    answered(command, answer)
}

/// Sends `command`, which must succeed within `limit`; returns the answer's text.
pub fn require_within(
    program: &mut Program,
    command: &str,
    limit: Duration,
) -> Result<String, ProgramError> {
    let answer = program.ask_within(command, limit);
    answered(command, answer)
}

/// The text of a successful answer to `command`, or why there is none.
fn answered(command: &str, answer: Result<Answer, Fault>) -> Result<String, ProgramError> {
    match answer {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(answer)) => Err(ProgramError::Refused {
            command: command.into(),
            answer,
        }),
        Err(fault) => Err(ProgramError::Fault {
            command: command.into(),
            fault,
        }),
    }
}

/// Sends `command`, which the program may refuse (the refusal is only logged).
fn offer(program: &mut Program, command: &str) -> Result<(), ProgramError> {
    match require(program, command) {
        Err(ProgramError::Refused { answer, .. }) => {
            log::warn!("the engine refused `{command}`: {answer}");
            Ok(())
        }
        other => other.map(|_| ()),
    }
}

/// The setup of a new game: `boardsize`, `clear_board`, `komi`, the rules if the program
/// has a command for them, and the handicap stones.
pub fn prepare(program: &mut Program, settings: &MatchSettings) -> Result<(), ProgramError> {
    require(program, &format!("boardsize {}", settings.size()))?;
    require(program, "clear_board")?;
    require(program, &format!("komi {}", settings.komi()))?;
    announce_rules(program, settings.rules())?;
    send_handicap(program, settings)
}

/// `time_settings` for the program's clock, when it has one and the program lists the
/// command (a refusal is only logged: the match keeps the clock either way).
pub fn announce_clock(program: &mut Program, control: TimeControl) -> Result<(), ProgramError> {
    match control.to_gtp() {
        Some((main, period, stones)) if program.knows("time_settings") => {
            let (main, period) = (main.as_secs_f64(), period.as_secs_f64());
            offer(program, &format!("time_settings {main} {period} {stones}"))
        }
        _ => Ok(()),
    }
}

/// `time_left` before a move, when the program lists it: whole seconds rounded down, as
/// the spec's integer and as KGS sends them.
pub fn tell_time_left(
    program: &mut Program,
    color: Color,
    left: TimeLeft,
) -> Result<(), ProgramError> {
    if !program.knows("time_left") {
        return Ok(());
    }
    let command = format!(
        "time_left {} {} {}",
        color.lowercase_letter(),
        left.time.as_secs(),
        left.stones
    );
    offer(program, &command)
}

/// Tells the rules through `hoshi-rules` (every preset) or `kgs-rules` (the four KGS
/// knows); a program with neither plays by its own rules, which its command line sets
/// (GNU Go's `--chinese-rules`, Pachi's `-r`), and a refusal is not held against it: the
/// match's referee decides what is legal either way.
fn announce_rules(program: &mut Program, rules: Ruleset) -> Result<(), ProgramError> {
    if program.knows("hoshi-rules") {
        return offer(program, &format!("hoshi-rules {}", rules.name));
    }
    match kgs_name(rules) {
        Some(name) if program.knows("kgs-rules") => offer(program, &format!("kgs-rules {name}")),
        _ => Ok(()),
    }
}

/// The name `kgs-rules` uses for a ruleset, when KGS has it.
fn kgs_name(rules: Ruleset) -> Option<&'static str> {
    [
        (Ruleset::JAPANESE, "japanese"),
        (Ruleset::CHINESE, "chinese"),
        (Ruleset::AGA, "aga"),
        (Ruleset::NEW_ZEALAND, "new_zealand"),
    ]
    .into_iter()
    .find_map(|(known, name)| (known == rules).then_some(name))
}

/// `fixed_handicap n` when the stones are GTP's fixed ones and the program knows the
/// command, else `set_free_handicap` with the stones, as gogui-twogtp does. A program
/// whose fixed stones are not GTP's (Pachi 12.90 puts a third stone at Q4, where the
/// table has D16) is told GTP's on a cleared board, so that both players and the
/// record see one position.
fn send_handicap(program: &mut Program, settings: &MatchSettings) -> Result<(), ProgramError> {
    let stones = &settings.handicap;
    if stones.is_empty() {
        return Ok(());
    }
    if settings.fixed_handicap && program.knows("fixed_handicap") {
        let answer = require(program, &format!("fixed_handicap {}", stones.len()))?;
        if same_points(&answer, stones) {
            return Ok(());
        }
        log::warn!(
            "an engine placed its fixed handicap at {answer:?}, not at GTP's {}: it is given GTP's",
            Vertex::gtp_list(stones)
        );
        require(program, "clear_board")?;
    }
    let command = format!("set_free_handicap {}", Vertex::gtp_list(stones));
    require(program, &command).map(|_| ())
}

/// Whether `answer` names exactly the points of `stones`, in any order.
fn same_points(answer: &str, stones: &[Vertex]) -> bool {
    let mut named: Vec<Option<Vertex>> = answer.split_whitespace().map(Vertex::parse_gtp).collect();
    let mut expected: Vec<Option<Vertex>> = stones.iter().copied().map(Some).collect();
    named.sort();
    expected.sort();
    named == expected
}

/// Tells the program that `color` played `mv`.
pub fn play(
    program: &mut Program,
    geometry: Geometry,
    color: Color,
    mv: Move,
) -> Result<(), ProgramError> {
    let command = format!(
        "play {} {}",
        color.lowercase_letter(),
        geometry.move_name(mv)
    );
    require(program, &command).map(|_| ())
}

/// Plays every move of `game` to the program (after [`prepare`]).
pub fn replay(program: &mut Program, game: &Game) -> Result<(), ProgramError> {
    let geometry = game.board().geometry();
    for turn in game.history() {
        play(program, geometry, turn.color, turn.mv)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kgs_knows_four_rulesets() {
        assert_eq!(kgs_name(Ruleset::NEW_ZEALAND), Some("new_zealand"));
        assert_eq!(kgs_name(Ruleset::JAPANESE), Some("japanese"));
        assert_eq!(kgs_name(Ruleset::FRENCH), None);
        assert_eq!(kgs_name(Ruleset::TROMP_TAYLOR), None);
    }

    #[test]
    fn handicap_answers_are_compared_as_sets() {
        let stones = [Vertex::new(2, 2), Vertex::new(6, 6)];
        assert!(same_points("G7 C3", &stones));
        assert!(same_points("c3\ng7", &stones));
        assert!(!same_points("C3 G7 E5", &stones));
        assert!(!same_points("C3 banana", &stones));
    }
}
