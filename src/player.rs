//! The player: what chooses a move for `genmove`, behind the [`Player`] trait so that the
//! protocol code never changes when the player does. The Monte Carlo tree search
//! ([`crate::search::player::MctsPlayer`]) plays; [`RandomPlayer`] is the baseline that
//! benchmarks measure against (`hoshi --random`).

use crate::board::Board;
use crate::clock::Clock;
use crate::coord::{Color, Move, Point};
use crate::game::Game;
use crate::search::{SearchResult, Watch};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt;

/// Playing strength, as the command line offers it. Each level is a documented set of search
/// settings: see [`crate::search::player::LevelSettings::of`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    /// Quick moves for learners: few playouts, a move drawn among the good candidates.
    Beginner,
    /// A club-level opponent, about GNU Go's strength: a moderate number of playouts.
    Intermediate,
    /// Full strength: every thread, all the time the clock allows.
    #[default]
    Expert,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Intermediate, Level::Expert];

    /// The level named `name` (any case).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Expert => "expert",
        })
    }
}

/// Why a move is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `genmove`: the move will be played.
    Play,
    /// `kgs-genmove_cleanup`: the game is being played on to capture dead stones, so the
    /// player must not pass while opponent stones it judges dead are still on the board.
    Cleanup,
    /// `reg_genmove`: a test asks; the answer must depend on the position only (no
    /// randomness carried from earlier calls) and nothing is played.
    Regression,
}

/// What the player decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Move(Move),
    Resign,
}

/// A move generator.
pub trait Player {
    /// The move `color` should play in `game`. It must be legal under the game's full rules
    /// (superko included): a controller forfeits an engine for an illegal move.
    /// `clock` is what the controller said about time; the player keeps within it.
    fn choose(&mut self, game: &Game, color: Color, mode: Mode, clock: &Clock) -> Choice {
        self.choose_watched(game, color, mode, clock, &mut |_| true)
    }

    /// [`Player::choose`] with a watcher that sees the search in progress and may end it
    /// early (GoGui's interrupt, analysis output while choosing).
    fn choose_watched(
        &mut self,
        game: &Game,
        color: Color,
        mode: Mode,
        clock: &Clock,
        watch: Watch<'_>,
    ) -> Choice;

    /// Thinks about `color`'s move in `game` without choosing, until `watch` ends it
    /// (analysis, pondering); the thinking is kept for the next move. `None` for players
    /// that do not search.
    fn analyze(&mut self, _game: &Game, _color: Color, _watch: Watch<'_>) -> Option<SearchResult> {
        None
    }

    /// Whether thinking on the opponent's time helps this player: only when it thinks for a
    /// time rather than a fixed number of playouts (more playouts would make it stronger
    /// than its level).
    fn ponders(&self) -> bool {
        false
    }

    /// Changes the playing strength (players without levels ignore it).
    fn set_level(&mut self, _level: Level) {}

    /// Seconds the player would think on `color`'s next move (what `hoshi-time_budget`
    /// shows); `None` for a player that does not think by time.
    fn time_budget(&self, _game: &Game, _color: Color, _clock: &Clock) -> Option<f64> {
        None
    }
}

/// The baseline player: a random legal move that does not fill one of its own eyes,
/// preferring captures, then saving its own stones in atari, then moves that are not
/// self-atari. It passes when no such move is left, and never resigns.
pub struct RandomPlayer {
    rng: SmallRng,
}

/// Seed of `reg_genmove` answers, mixed with the position so that they are reproducible.
const REGRESSION_SEED: u64 = 0x686f_7368_695f_7265;

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose_watched(
        &mut self,
        game: &Game,
        color: Color,
        mode: Mode,
        _clock: &Clock,
        _watch: Watch<'_>,
    ) -> Choice {
        let mut regression_rng;
        let rng = if mode == Mode::Regression {
            let side = color.index() as u64 + 1;
            regression_rng =
                SmallRng::seed_from_u64(REGRESSION_SEED ^ game.board().hash().wrapping_mul(side));
            &mut regression_rng
        } else {
            &mut self.rng
        };
        Choice::Move(random_sensible_move(game, color, rng))
    }
}

/// How much a move appeals to the random player (higher is better).
fn appeal(board: &Board, color: Color, p: Point) -> u8 {
    let mut after = board.clone();
    let effect = after.place(color, p);
    if effect.captured > 0 {
        return 3;
    }
    let liberties = after.liberty_count(p);
    let rescues = board
        .geometry()
        .neighbours(p)
        .into_iter()
        .any(|n| board.color_at(n) == Some(color) && board.liberty_count(n) == 1);
    match liberties {
        0 | 1 => 0,
        _ if rescues => 2,
        _ => 1,
    }
}

/// A uniformly random choice among the most appealing legal moves that do not fill an eye.
fn random_sensible_move(game: &Game, color: Color, rng: &mut SmallRng) -> Move {
    let board = game.board();
    let mut candidates: Vec<(u8, Point)> = game
        .legal_points(color)
        .into_iter()
        .filter(|&p| !board.is_eye(p, color))
        .map(|p| (appeal(board, color, p), p))
        .collect();
    let Some(best) = candidates.iter().map(|&(a, _)| a).max() else {
        return Move::Pass;
    };
    candidates.retain(|&(a, _)| a == best);
    candidates
        .choose(rng)
        .map_or(Move::Pass, |&(_, p)| Move::Play(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ruleset;

    fn point(game: &Game, name: &str) -> Point {
        game.board().geometry().parse_point(name).unwrap()
    }

    #[test]
    fn takes_a_capture_when_there_is_one() {
        let mut game = Game::new(5, Ruleset::FRENCH, 7.5).unwrap();
        for (c, v) in [
            (Color::Black, "B3"),
            (Color::White, "C3"),
            (Color::Black, "C2"),
            (Color::White, "E5"),
            (Color::Black, "C4"),
        ] {
            game.play(c, Move::Play(point(&game, v))).unwrap();
        }
        let mut player = RandomPlayer::new(1);
        let capture = Choice::Move(Move::Play(point(&game, "D3")));
        for _ in 0..10 {
            assert_eq!(
                player.choose(&game, Color::Black, Mode::Play, &Clock::default()),
                capture
            );
        }
    }

    #[test]
    fn passes_rather_than_fill_its_own_eyes() {
        // 2x2: Black on A1 and B2, two eyes; nothing else to do.
        let mut game = Game::new(2, Ruleset::FRENCH, 7.5).unwrap();
        game.play(Color::Black, Move::Play(point(&game, "A1")))
            .unwrap();
        game.play(Color::Black, Move::Play(point(&game, "B2")))
            .unwrap();
        let mut player = RandomPlayer::new(7);
        assert_eq!(
            player.choose(&game, Color::Black, Mode::Play, &Clock::default()),
            Choice::Move(Move::Pass)
        );
    }

    #[test]
    fn regression_answers_depend_on_the_position_only() {
        let game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let first =
            RandomPlayer::new(1).choose(&game, Color::Black, Mode::Regression, &Clock::default());
        let mut other = RandomPlayer::new(99);
        other.choose(&game, Color::Black, Mode::Play, &Clock::default());
        assert_eq!(
            other.choose(&game, Color::Black, Mode::Regression, &Clock::default()),
            first
        );
    }
}
