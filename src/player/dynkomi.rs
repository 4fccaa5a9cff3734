//! Dynamic komi: the komi shift each of the player's searches counts with, so that the
//! search's win rates stay away from 0% and 100% in handicap and one-sided games and its
//! moves still mean something. The knobs and the reasons are in [`DynamicKomi`]; the search
//! applies the shift ([`crate::search::Search::set_komi_shift`]) and reports every win rate
//! by the real komi all the same.

use super::params::DynamicKomi;
use crate::coord::Color;
use crate::game::Game;

/// The board the move counts and point values of [`DynamicKomi`] are given for.
const REFERENCE_AREA: f64 = 361.0;

/// The situational part of dynamic komi, which follows the game from one move to the next:
/// the points each color concedes (positive) or takes (negative).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KomiShift {
    /// Points conceded by Black and by White (by [`Color::index`]).
    conceded: [f64; 2],
    /// The game the concessions belong to: its start and the number of moves played at the
    /// last update. A new game, or a game taken back, starts afresh.
    game: Option<(u64, usize)>,
}

impl KomiShift {
    /// The shift for `color`'s next search in `game`: points added to the komi, positive in
    /// White's favour.
    pub fn for_move(&mut self, game: &Game, color: Color, params: &DynamicKomi) -> f64 {
        self.follow(game);
        if !situational_applies(game, color, params) {
            return handicap_shift(game, color, params);
        }
        in_white_favour(color, self.conceded[color.index()])
    }

    /// Moves `color`'s concession after a search whose best move had win rate
    /// `search_winrate` for him, as the search counted it (with the shift).
    pub fn update(&mut self, game: &Game, color: Color, search_winrate: f64, params: &DynamicKomi) {
        self.follow(game);
        if !situational_applies(game, color, params) {
            return;
        }
        let limit = (params.max * area_scale(game)).floor();
        let conceded = &mut self.conceded[color.index()];
        let mut next = *conceded;
        if search_winrate > params.high {
            next += params.step;
        } else if search_winrate < params.low {
            next -= params.step;
        } else if next > 0.0 && search_winrate < params.settle {
            next = (next - params.drop).max(0.0);
        } else if next < 0.0 && search_winrate > 1.0 - params.settle {
            next = (next + params.drop).min(0.0);
        }
        *conceded = next.clamp(-limit, limit);
    }

    /// Forgets the concessions when `game` is not the one they were made in.
    fn follow(&mut self, game: &Game) {
        let key = (game.start().0.hash(), game.move_number());
        let same_game = self
            .game
            .is_some_and(|(start, moves)| start == key.0 && moves <= key.1);
        if !same_game {
            self.conceded = [0.0; 2];
        }
        self.game = Some(key);
    }
}

/// The handicap part of `color`'s shift in `game` (Pachi's linear dynkomi): as if Black had
/// to win by `stones·value + 0.5` points at move 0, fading linearly to the real komi by the
/// color's move limit; in whole points, 0 in even games.
pub fn handicap_shift(game: &Game, color: Color, params: &DynamicKomi) -> f64 {
    let stones = game.handicap();
    if !params.handicap || stones < 2 {
        return 0.0;
    }
    let (value, moves) = match color {
        Color::White => (params.giving_stone, params.giving_moves),
        Color::Black => (params.taking_stone, params.taking_moves),
    };
    let moves = moves * area_scale(game);
    let played = game.move_number() as f64;
    if played >= moves {
        return 0.0;
    }
    let full = (stones as f64 * value + 0.5 - game.area_komi()).max(0.0);
    (full * (1.0 - played / moves)).round()
}

/// Whether the situational shift plays for `color` in `game`: switched on, no handicap
/// shift left, and the board still open enough (the end of the game is counted with the
/// real komi).
fn situational_applies(game: &Game, color: Color, params: &DynamicKomi) -> bool {
    let board = game.board();
    let points = board.size() * board.size();
    params.situational
        && handicap_shift(game, color, params) == 0.0
        && board.empty_points().len() as f64 >= params.end_share * points as f64
}

/// The board's area over 19x19's. A game's length and its points grow with the area on
/// every board, so the move counts and point limits of [`DynamicKomi`] scale continuously
/// by it rather than by the levels' size classes ([`super::size_class`]): 11x11 fades its
/// handicap shift sooner than 13x13 does, as its games end sooner.
fn area_scale(game: &Game) -> f64 {
    (game.size() * game.size()) as f64 / REFERENCE_AREA
}

/// `points` conceded by `color`, as a komi shift (positive in White's favour).
fn in_white_favour(color: Color, points: f64) -> f64 {
    points * f64::from(color.sign())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::Move;
    use crate::rules::Ruleset;

    fn handicap_game(size: usize, stones: usize) -> Game {
        let mut game = Game::new(size, Ruleset::FRENCH, 0.5).unwrap();
        game.fixed_handicap(stones).unwrap();
        game
    }

    fn pass_moves(game: &mut Game, count: usize) {
        for _ in 0..count {
            let color = game.to_move();
            game.play(color, Move::Pass).unwrap();
        }
    }

    #[test]
    fn the_handicap_shift_starts_at_the_stones_value_and_fades_by_its_move() {
        let params = DynamicKomi::default();
        let mut game = handicap_game(19, 4);
        // French: komi 0.5 and 3 points of handicap bonus.
        assert_eq!(game.area_komi(), 3.5);
        // White gives 4 stones at 8 points: Black "must win by" 32.5, 29 more than 3.5.
        assert_eq!(handicap_shift(&game, Color::White, &params), 29.0);
        // Black takes them at 12 points: 48.5 - 3.5.
        assert_eq!(handicap_shift(&game, Color::Black, &params), 45.0);
        pass_moves(&mut game, 75);
        assert_eq!(handicap_shift(&game, Color::White, &params), 15.0);
        pass_moves(&mut game, 75);
        assert_eq!(handicap_shift(&game, Color::White, &params), 0.0);
        assert_eq!(handicap_shift(&game, Color::Black, &params), 11.0);
        pass_moves(&mut game, 50);
        assert_eq!(handicap_shift(&game, Color::Black, &params), 0.0);
    }

    #[test]
    fn the_handicap_shift_scales_with_the_board_and_can_be_switched_off() {
        let mut params = DynamicKomi::default();
        let mut game = handicap_game(9, 2);
        // 2 stones at 8 points: 16.5 - (0.5 + 1).
        assert_eq!(handicap_shift(&game, Color::White, &params), 15.0);
        // 150 moves on 19x19 are 33.7 on 9x9.
        pass_moves(&mut game, 33);
        assert_eq!(handicap_shift(&game, Color::White, &params), 0.0);
        let game = handicap_game(9, 2);
        params.handicap = false;
        assert_eq!(handicap_shift(&game, Color::White, &params), 0.0);
        let even = Game::new(19, Ruleset::FRENCH, 7.5).unwrap();
        assert_eq!(
            handicap_shift(&even, Color::White, &DynamicKomi::default()),
            0.0
        );
    }

    #[test]
    fn the_situational_shift_follows_the_win_rate_within_its_bounds() {
        let params = DynamicKomi {
            situational: true,
            ..DynamicKomi::default()
        };
        let game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let mut shift = KomiShift::default();
        assert_eq!(shift.for_move(&game, Color::White, &params), 0.0);
        // White winning: concedes a point a move (a shift in Black's favour), at most
        // 20·81/361 = 4.49, so 4.
        for _ in 0..10 {
            shift.update(&game, Color::White, 0.9, &params);
        }
        assert_eq!(shift.for_move(&game, Color::White, &params), -4.0);
        // Black is untouched, and losing he takes points (in his favour: negative).
        assert_eq!(shift.for_move(&game, Color::Black, &params), 0.0);
        shift.update(&game, Color::Black, 0.1, &params);
        assert_eq!(shift.for_move(&game, Color::Black, &params), -1.0);
        // A close game gives the concession back at once, by `drop` points.
        shift.update(&game, Color::White, 0.6, &params);
        assert_eq!(shift.for_move(&game, Color::White, &params), 0.0);
        // Between the zones nothing moves: taking points, from 0.15 to 0.3.
        shift.update(&game, Color::Black, 0.2, &params);
        assert_eq!(shift.for_move(&game, Color::Black, &params), -1.0);
        shift.update(&game, Color::Black, 0.35, &params);
        assert_eq!(shift.for_move(&game, Color::Black, &params), 0.0);
    }

    #[test]
    fn the_situational_shift_is_off_by_default_and_starts_afresh_in_a_new_game() {
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let mut shift = KomiShift::default();
        shift.update(&game, Color::Black, 0.99, &DynamicKomi::default());
        assert_eq!(
            shift.for_move(&game, Color::Black, &DynamicKomi::default()),
            0.0
        );
        let params = DynamicKomi {
            situational: true,
            ..DynamicKomi::default()
        };
        pass_moves(&mut game, 2);
        shift.update(&game, Color::Black, 0.99, &params);
        assert_eq!(shift.for_move(&game, Color::Black, &params), 1.0);
        let fresh = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        assert_eq!(shift.for_move(&fresh, Color::Black, &params), 0.0);
    }
}
