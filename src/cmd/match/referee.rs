//! One game between two GTP programs, refereed by hoshi: each program is started for the
//! game and set up, then asked `genmove` in turn; every answer is checked against hoshi's
//! own [`Game`] under the match's rules (superko included) before the opponent is told
//! with `play`. An illegal move, a crash, an answer that is not a move, a refusal of a
//! legal move or of the setup loses the game for that side by forfeit (`B+F`), and a
//! time-out loses it on time (`B+T`), with the reason. With game clocks, a move that takes
//! longer than its player's clock has left (beyond [`LAG_TOLERANCE`]) loses on time too.
//! A game ends by resignation, by two passes in a row, or at the move limit; the last two
//! are counted.
//!
//! Programs are started afresh for every game rather than kept for the whole match (as
//! gogui-twogtp does): a program that crashed or was killed for its silence needs no
//! special care, no state leaks from one game into the next, and each game gets its own
//! stderr log. Starting GNU Go or hoshi takes milliseconds.

use super::counting::{self, Scorer};
use super::program::Program;
use super::settings::MatchSettings;
use super::sync::{self, ProgramError};
use crate::board::Illegal;
use crate::coord::{Color, Geometry, Move, Vertex};
use crate::game::Game;
use crate::player::clock::{Clock, TimeControl, TimeLeft};
use crate::score::GameResult;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A finished game, as the match records it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The moves played, all legal (a forfeited move is not in it).
    pub game: Game,
    pub result: GameResult,
    /// How it ended, in words: `two passes; counted by hoshi`, `White resigned`,
    /// `Black played C3, illegal: ko`, `White did not answer within 1 s on `genmove w``.
    pub reason: String,
    /// Seconds each color spent answering `genmove`, Black's first.
    pub seconds: [f64; 2],
    /// After each move of `game`, what its player's clock had left (`None` without a
    /// clock): SGF's BL/WL.
    pub clock_left: Vec<Option<TimeLeft>>,
    /// What each program's own `final_score` said, Black's first, when the game was
    /// counted and the program has the command.
    pub claims: [Option<String>; 2],
}

/// Plays one game. `commands` are Black's and White's command lines, `clocks` their game
/// clocks (`Unlimited` for none); `open_log` gives the stderr of the program playing a
/// role (`black`, `white`, `referee`).
pub fn play_game(
    settings: &MatchSettings,
    commands: [&[String]; 2],
    clocks: [TimeControl; 2],
    scorer: &Scorer,
    open_log: &dyn Fn(&str) -> Stdio,
) -> Played {
    match Table::open(settings, commands, clocks, open_log) {
        Ok(mut table) => {
            let end = table.play_moves();
            table.finish(end, scorer, open_log)
        }
        Err(loss) => Played {
            game: settings.start.clone(),
            result: loss.result(),
            reason: loss.reason,
            seconds: [0.0; 2],
            clock_left: Vec::new(),
            claims: [None, None],
        },
    }
}

/// Why a side lost without the game being counted.
struct Loss {
    loser: Color,
    on_time: bool,
    reason: String,
}

impl Loss {
    fn failure(loser: Color, failure: ProgramError) -> Loss {
        Loss {
            loser,
            on_time: failure.on_time(),
            reason: format!("{} {failure}", loser.capitalized_name()),
        }
    }

    fn out_of_time(loser: Color, command: &str, used: Duration, available: Duration) -> Loss {
        Loss {
            loser,
            on_time: true,
            reason: format!(
                "{} ran out of time on `{command}`: {:.2} s with {:.2} s left",
                loser.capitalized_name(),
                used.as_secs_f64(),
                available.as_secs_f64()
            ),
        }
    }

    fn illegal(loser: Color, geometry: Geometry, mv: Move, why: Illegal) -> Loss {
        let name = geometry.move_name(mv);
        Loss {
            loser,
            on_time: false,
            reason: format!("{} played {name}, illegal: {why}", loser.capitalized_name()),
        }
    }

    fn result(&self) -> GameResult {
        let winner = self.loser.opponent();
        if self.on_time {
            GameResult::Time { winner }
        } else {
            GameResult::Forfeit { winner }
        }
    }
}

/// How a game that nobody forfeited ended.
enum End {
    Resigned(Color),
    TwoPasses,
    MoveLimit,
}

/// A game in progress: hoshi's record of it and the two programs, Black's first.
struct Table<'a> {
    settings: &'a MatchSettings,
    game: Game,
    programs: [Program; 2],
    seconds: [f64; 2],
    /// Black's and White's game clocks (each used for its own color only).
    clocks: [Clock; 2],
    /// What the mover's clock had left after each move.
    clock_left: Vec<Option<TimeLeft>>,
}

/// How long a move may overrun its clock before it loses on time: the pipes and the
/// scheduling of processes on a busy machine, which the engine cannot see.
pub const LAG_TOLERANCE: Duration = Duration::from_millis(100);

impl<'a> Table<'a> {
    /// Starts and sets up Black's program, then White's.
    fn open(
        settings: &'a MatchSettings,
        commands: [&[String]; 2],
        clocks: [TimeControl; 2],
        open_log: &dyn Fn(&str) -> Stdio,
    ) -> Result<Table<'a>, Loss> {
        let black = seat(settings, Color::Black, commands[0], open_log("black"))?;
        let white = seat(settings, Color::White, commands[1], open_log("white"))?;
        let mut programs = [black, white];
        for (color, program) in [Color::Black, Color::White].into_iter().zip(&mut programs) {
            sync::announce_clock(program, clocks[color.index()])
                .map_err(|failure| Loss::failure(color, failure))?;
        }
        Ok(Table {
            settings,
            game: settings.start.clone(),
            programs,
            seconds: [0.0; 2],
            clocks: clocks.map(Clock::new),
            clock_left: Vec::new(),
        })
    }

    fn geometry(&self) -> Geometry {
        self.game.board().geometry()
    }

    /// Asks for moves in turn until the game ends or a side loses.
    fn play_moves(&mut self) -> Result<End, Loss> {
        loop {
            if self.game.is_over() {
                return Ok(End::TwoPasses);
            }
            if self.game.move_number() >= self.settings.max_moves {
                return Ok(End::MoveLimit);
            }
            let color = self.game.to_move();
            let Some(mv) = self.genmove(color)? else {
                return Ok(End::Resigned(color));
            };
            let geometry = self.geometry();
            self.game
                .play(color, mv)
                .map_err(|why| Loss::illegal(color, geometry, mv, why))?;
            let clock = &self.clocks[color.index()];
            let left = clock.available(color).map(|_| clock.left(color));
            self.clock_left.push(left);
            let opponent = &mut self.programs[color.opponent().index()];
            sync::play(opponent, geometry, color, mv)
                .map_err(|failure| Loss::failure(color.opponent(), failure))?;
        }
    }

    /// `color`'s move, timed and charged to its clock; `None` for a resignation.
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, Loss> {
        let i = color.index();
        let command = format!("genmove {}", color.lowercase_letter());
        let available = self.clocks[i].available(color);
        let limit = available.map_or(self.settings.move_timeout, |time| {
            time.saturating_add(LAG_TOLERANCE)
        });
        let program = &mut self.programs[i];
        if available.is_some() {
            sync::tell_time_left(program, color, self.clocks[i].left(color))
                .map_err(|failure| Loss::failure(color, failure))?;
        }
        let started = Instant::now();
        let answer = sync::require_within(program, &command, limit);
        let used = started.elapsed();
        self.seconds[i] += used.as_secs_f64();
        if let Some(available) = available.filter(|a| used > a.saturating_add(LAG_TOLERANCE)) {
            return Err(Loss::out_of_time(color, &command, used, available));
        }
        self.clocks[i].spend(color, used);
        let answer = answer.map_err(|failure| Loss::failure(color, failure))?;
        read_move(&answer, self.geometry())
            .ok_or_else(|| Loss::failure(color, ProgramError::Unexpected { command, answer }))
    }

    /// The record of the game: the result, counted when nobody resigned or forfeited,
    /// and each program's own view of it. The programs are then told to quit.
    fn finish(
        mut self,
        end: Result<End, Loss>,
        scorer: &Scorer,
        open_log: &dyn Fn(&str) -> Stdio,
    ) -> Played {
        let (result, reason, claims) = match end {
            Err(loss) => (loss.result(), loss.reason, [None, None]),
            Ok(End::Resigned(loser)) => (
                GameResult::Resignation {
                    winner: loser.opponent(),
                },
                format!("{} resigned", loser.capitalized_name()),
                [None, None],
            ),
            Ok(end) => {
                let claims = self.claims();
                let (result, by) = scorer.count(&self.game, self.settings, open_log("referee"));
                (result, format!("{}; {by}", self.ending(&end)), claims)
            }
        };
        let Table {
            game,
            programs,
            seconds,
            clock_left,
            ..
        } = self;
        programs.into_iter().for_each(Program::quit);
        Played {
            game,
            result,
            reason,
            seconds,
            clock_left,
            claims,
        }
    }

    fn ending(&self, end: &End) -> String {
        match end {
            End::MoveLimit => format!("move limit ({}) reached", self.settings.max_moves),
            _ => "two passes".into(),
        }
    }

    fn claims(&mut self) -> [Option<String>; 2] {
        let limit = self.settings.move_timeout;
        self.programs
            .each_mut()
            .map(|program| counting::claim(program, limit))
    }
}

/// Starts the program for `color` and sets up the game.
fn seat(
    settings: &MatchSettings,
    color: Color,
    command: &[String],
    stderr: Stdio,
) -> Result<Program, Loss> {
    let startup = settings.move_timeout.max(super::STARTUP);
    let mut program =
        Program::start(command, stderr, settings.move_timeout, startup).map_err(|fault| {
            let command = "list_commands".into();
            Loss::failure(color, ProgramError::Fault { command, fault })
        })?;
    sync::prepare(&mut program, settings).map_err(|failure| Loss::failure(color, failure))?;
    Ok(program)
}

/// A `genmove` answer: `Some(None)` for `resign`, `Some(Some(move))` for `pass` or a
/// vertex on the board, `None` for anything else.
fn read_move(answer: &str, geometry: Geometry) -> Option<Option<Move>> {
    let mut words = answer.split_whitespace();
    let (Some(word), None) = (words.next(), words.next()) else {
        return None;
    };
    if word.eq_ignore_ascii_case("resign") {
        return Some(None);
    }
    if word.eq_ignore_ascii_case("pass") {
        return Some(Some(Move::Pass));
    }
    let point = Vertex::parse_gtp(word).and_then(|v| geometry.try_point(v))?;
    Some(Some(Move::Play(point)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genmove_answers_are_read_strictly() {
        let g = Geometry::new(5).unwrap();
        assert_eq!(read_move("resign", g), Some(None));
        assert_eq!(read_move("PASS", g), Some(Some(Move::Pass)));
        let c3 = g.parse_point("C3").unwrap();
        assert_eq!(read_move(" c3 ", g), Some(Some(Move::Play(c3))));
        for bad in ["", "F6", "J1", "banana", "C3 D4", "Z99"] {
            assert_eq!(read_move(bad, g), None, "{bad:?}");
        }
    }
}
