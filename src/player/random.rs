//! The baseline player of benchmarks (`hoshi --random`).

use super::clock::Clock;
use super::{Choice, Mode, Player, REGRESSION_SEED};
use crate::board::Board;
use crate::coord::{Color, Move, Point};
use crate::game::Game;
use crate::search::Watch;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The baseline player: a random legal move that does not fill one of its own eyes,
/// preferring captures, then saving its own stones in atari, then moves that are not
/// self-atari. It passes when no such move is left, and never resigns.
pub struct RandomPlayer {
    rng: SmallRng,
}

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
