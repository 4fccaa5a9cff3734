//! Counting a finished game: by hoshi's own scorer, or by a GTP referee program such as
//! GNU Go that is given the moves and asked `final_score`.

use super::program::Program;
use super::sync::{self, ProgramError};
use super::MatchSettings;
use crate::game::Game;
use crate::player::judge;
use crate::player::Params;
use crate::score::GameResult;
use std::process::Stdio;
use std::time::Duration;

/// Who counts the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scorer {
    /// hoshi itself: the Monte Carlo dead-stone judge, then the ruleset's count. This is
    /// exactly what hoshi answers to GTP `final_score`.
    Hoshi,
    /// A GTP program (its command line) given the setup and the moves, then asked
    /// `final_score`; if it fails, hoshi counts instead and the reason says so.
    Referee(Vec<String>),
}

impl Scorer {
    /// The result of `game` and who counted it. `stderr` receives a referee's log.
    pub fn count(
        &self,
        game: &Game,
        settings: &MatchSettings,
        stderr: Stdio,
    ) -> (GameResult, String) {
        match self {
            Scorer::Hoshi => (hoshi_count(game), "counted by hoshi".into()),
            Scorer::Referee(command) => match referee_count(command, game, settings, stderr) {
                Ok(result) => (result, "counted by the referee".into()),
                Err(why) => (
                    hoshi_count(game),
                    format!("counted by hoshi, the referee {why}"),
                ),
            },
        }
    }
}

/// hoshi's count: dead stones as its judge sees them (with its default budgets: a referee
/// is the same for every match), then the ruleset's scoring.
pub fn hoshi_count(game: &Game) -> GameResult {
    game.score(&judge::judge(game, &Params::default(), None))
        .result()
}

/// Starts the referee, replays the game to it and reads its `final_score`.
fn referee_count(
    command: &[String],
    game: &Game,
    settings: &MatchSettings,
    stderr: Stdio,
) -> Result<GameResult, ProgramError> {
    let startup = settings.move_timeout.max(super::STARTUP);
    let mut referee =
        Program::start(command, stderr, settings.move_timeout, startup).map_err(|fault| {
            ProgramError::Fault {
                command: "list_commands".into(),
                fault,
            }
        })?;
    sync::prepare(&mut referee, settings)?;
    sync::replay(&mut referee, game)?;
    let answer = sync::require(&mut referee, "final_score")?;
    referee.quit();
    GameResult::parse(&answer).ok_or(ProgramError::Unexpected {
        command: "final_score".into(),
        answer,
    })
}

/// What a player says the result is (its own `final_score`), when it has the command and
/// answers in time; a failure here costs nothing, the game being over.
pub fn claim(program: &mut Program, limit: Duration) -> Option<String> {
    if !program.knows("final_score") {
        return None;
    }
    match program.ask_within("final_score", limit) {
        Ok(Ok(text)) => Some(text.split_whitespace().collect::<Vec<_>>().join(" ")),
        _ => None,
    }
}
