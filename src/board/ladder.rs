//! Ladders (shicho): a chain in atari that extends to two liberties, is put back in atari
//! from the side that keeps it running, and so on until it hits the edge or a friendly stone.
//! Playouts that run out of every atari lose the chain in most games and miss the ladders
//! that would capture; on 19×19, where a ladder crosses the board, that decides whole
//! fights, which is why every strong classical engine reads them.
//!
//! The reader is greedy, the way playout-grade readers are: at each step the attacker takes
//! the atari after which the defender's extension keeps the fewest liberties, without
//! backtracking. A defender that can capture an attacker chain touching it is taken to
//! escape. That gets the usual ladders and breakers right for a few microseconds.

use super::{Board, Cell};
use crate::coord::{Color, Point};
use std::cell::RefCell;

thread_local! {
    /// The board a ladder is read on. Playouts hold only `&Board`, and a fresh 15 KB board
    /// per question would cost more than the reading; `copy_from` copies just the slots the
    /// board's size uses.
    static SCRATCH: RefCell<Board> = RefCell::new(Board::new(19).expect("19 is a board size"));
}

impl Board {
    /// Whether the chain on `s`, in atari with its owner to move, is captured by a ladder
    /// if it extends on its last liberty (or cannot extend at all). Counter-captures are
    /// not considered at this first step: the question is about the extension itself.
    pub fn escape_is_caught(&self, s: Point) -> bool {
        let Some(lib) = self.atari_liberty(s) else {
            return false;
        };
        let Some(defender) = self.color_at(s) else {
            return false;
        };
        if self.check(defender, lib).is_err() {
            return true;
        }
        // Cheap answers first: most extensions reach three liberties at once.
        match self.liberties_after::<3>(defender, lib) {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        SCRATCH.with(|scratch| {
            let mut b = scratch.borrow_mut();
            b.copy_from(self);
            b.run_ladder(s, false)
        })
    }

    /// An atari on the chain on `s` (which has two liberties) after which it is lost in a
    /// ladder, played by the chain's opponent; `None` when no atari captures it.
    pub fn ladder_atari(&self, s: Point) -> Option<Point> {
        let defender = self.color_at(s)?;
        if self.liberty_count(s) != 2 {
            return None;
        }
        let (_, atari) = self.ladder_chase(s)?;
        let caught = SCRATCH.with(|scratch| {
            let mut b = scratch.borrow_mut();
            b.copy_from(self);
            b.place(defender.opponent(), atari);
            b.run_ladder(s, true)
        });
        caught.then_some(atari)
    }

    /// The extensions of `color`'s chains in atari that a ladder captures (counting an
    /// extension that captures something as an escape): the moves that only feed the
    /// opponent more stones.
    pub fn caught_escapes(&self, color: Color) -> Vec<Point> {
        self.chains_in_atari(color)
            .into_iter()
            .filter_map(|s| {
                let lib = self.atari_liberty(s)?;
                (self.escape_is_caught(s) && !self.captures(color, lib)).then_some(lib)
            })
            .collect()
    }

    /// The ataris by `color` that capture an opponent chain in a ladder, each with the size
    /// of the chain it catches.
    pub fn ladder_captures(&self, color: Color) -> Vec<(Point, usize)> {
        self.chains_with_liberties(color.opponent(), 2)
            .into_iter()
            .filter_map(|s| Some((self.ladder_atari(s)?, self.chain_len(s))))
            .collect()
    }

    /// Plays the ladder out on this (scratch) board: the chain on `s` is in atari and its
    /// owner to move. Returns whether it is captured.
    fn run_ladder(&mut self, s: Point, mut counter_captures: bool) -> bool {
        let Some(defender) = self.color_at(s) else {
            return false;
        };
        // Each step takes two stones; a ladder cannot run longer than the board is wide
        // twice over, so a longer one is a reading error and counts as an escape.
        for _ in 0..2 * self.size() {
            if counter_captures && self.can_capture_next_to(s) {
                return false;
            }
            counter_captures = true;
            let Some(lib) = self.atari_liberty(s) else {
                return false;
            };
            if self.check(defender, lib).is_err() {
                return true;
            }
            self.place(defender, lib);
            match self.liberty_count(s) {
                0 | 1 => return true,
                2 => {}
                _ => return false,
            }
            let Some((_, atari)) = self.ladder_chase(s) else {
                return false;
            };
            self.place(defender.opponent(), atari);
        }
        false
    }

    /// The attacker's atari on the chain on `s` (two liberties) that leaves its extension
    /// the fewest liberties, if that is two or fewer: the move that keeps a ladder going.
    /// Returns the liberties the extension keeps, with the atari.
    fn ladder_chase(&self, s: Point) -> Option<(usize, Point)> {
        let defender = self.color_at(s)?;
        let attacker = defender.opponent();
        let (a, b) = self.liberty_pair(s)?;
        [(a, b), (b, a)]
            .into_iter()
            .filter(|&(atari, _)| {
                // An atari stone left in atari itself is simply captured.
                self.check(attacker, atari).is_ok()
                    && self.liberties_after::<2>(attacker, atari) >= 2
            })
            .map(|(atari, escape)| {
                let kept = self.liberties_after_except::<3>(defender, escape, atari);
                (kept, atari)
            })
            .min()
            .filter(|&(kept, _)| kept <= 2)
    }

    /// An atari on the chain on `s` (two liberties, no neighbour to capture) after which
    /// it cannot even extend to two liberties: a capture read in one step, without the
    /// copy a ladder needs, cheap enough for every move of a playout.
    pub fn net_atari(&self, s: Point) -> Option<Point> {
        let (a, b) = self.liberty_pair(s)?;
        // An extension with three empty neighbours keeps two liberties whatever the atari:
        // the usual case, answered from the neighbour counts alone.
        if self.empty_neighbours(a) >= 3 && self.empty_neighbours(b) >= 3 {
            return None;
        }
        if self.can_capture_next_to(s) {
            return None;
        }
        self.ladder_chase(s)
            .filter(|&(kept, _)| kept <= 1)
            .map(|(_, atari)| atari)
    }

    /// The two liberties of the chain on `s`, which must have exactly two.
    pub fn liberty_pair(&self, s: Point) -> Option<(Point, Point)> {
        if self.liberty_count(s) != 2 {
            return None;
        }
        let mut first = None;
        for stone in self.chain_stones(s) {
            for n in self.geometry.neighbours(stone) {
                if self.cell(n) != Cell::Empty {
                    continue;
                }
                match first {
                    None => first = Some(n),
                    Some(f) if f != n => return Some((f, n)),
                    Some(_) => {}
                }
            }
        }
        None
    }

    /// Whether a chain of the other color touching the chain on `s` is in atari.
    fn can_capture_next_to(&self, s: Point) -> bool {
        let Some(color) = self.color_at(s) else {
            return false;
        };
        let enemy = Cell::stone(color.opponent());
        self.chain_stones(s).any(|stone| {
            self.geometry
                .neighbours(stone)
                .into_iter()
                .any(|n| self.cell(n) == enemy && self.liberty_count(n) == 1)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::board::test_board as board;
    use crate::board::Board;
    use crate::coord::{Color, Move, Point};

    /// White D4 with two liberties (D5, E4), Black at C4, D3 and E5: the textbook ladder.
    const LADDER_BLACK: &str = "C4 D3 E5";

    #[test]
    fn a_ladder_on_an_empty_board_captures() {
        let (b, p) = board(9, LADDER_BLACK, "D4");
        let atari = b.ladder_atari(p("D4")).expect("a ladder");
        let name = b.geometry().name(atari);
        assert!(name == "D5" || name == "E4", "{name}");
        // After Black's atari at D5, running at E4 is caught.
        let (b, p) = board(9, "C4 D3 E5 D5", "D4");
        assert!(b.escape_is_caught(p("D4")));
    }

    #[test]
    fn a_breaker_saves_the_runner() {
        // A White stone on the diagonal the ladder runs along.
        let (b, p) = board(9, "C4 D3 E5 D5", "D4 G2");
        assert!(!b.escape_is_caught(p("D4")));
        let (b, p) = board(9, "C4 D3 E5 D5", "D4 F3");
        assert!(!b.escape_is_caught(p("D4")));
    }

    #[test]
    fn a_long_ladder_across_the_board() {
        // White K10 (liberties K11 and L10) with Black J10, K9 and L11 around it: the ladder
        // runs down-right or up-left along the diagonal.
        let black = "J10 K9 L11";
        let (b, p) = board(19, black, "K10");
        assert!(b.ladder_atari(p("K10")).is_some());
        // Breakers on both diagonals.
        let (b, p) = board(19, black, "K10 N7 G13");
        assert_eq!(b.ladder_atari(p("K10")), None);
        // Black stones there only help the attacker.
        let (b, p) = board(19, &format!("{black} N7 G13"), "K10");
        assert!(b.ladder_atari(p("K10")).is_some());
        // After Black's atari at K11, White runs down-right: the breaker on that side saves it.
        let (b, p) = board(19, &format!("{black} K11"), "K10 N7");
        assert!(!b.escape_is_caught(p("K10")));
        let (b, p) = board(19, &format!("{black} K11"), "K10 G13");
        assert!(b.escape_is_caught(p("K10")));
    }

    #[test]
    fn a_black_stone_in_the_path_helps_the_attacker() {
        let (b, p) = board(9, "C4 D3 E5 D5 G3", "D4");
        assert!(b.escape_is_caught(p("D4")));
    }

    #[test]
    fn extending_to_three_liberties_escapes() {
        // White D4 in atari at D5 only; extending there gives C5, D6 and E5.
        let (b, p) = board(9, "C4 D3 E4", "D4");
        assert!(!b.escape_is_caught(p("D4")));
    }

    #[test]
    fn a_chaser_in_atari_breaks_the_ladder() {
        // The textbook ladder, but Black D3 is in atari (White C3 and D2; E3 is its last
        // liberty): whichever atari Black plays, White takes D3 and is out.
        let (b, p) = board(9, LADDER_BLACK, "D4 C3 D2");
        assert_eq!(b.liberty_count(p("D3")), 1);
        assert_eq!(b.ladder_atari(p("D4")), None);
    }

    #[test]
    fn liberty_pairs() {
        let (b, p) = board(9, LADDER_BLACK, "D4");
        let (x, y) = b.liberty_pair(p("D4")).expect("two liberties");
        let mut names = [b.geometry().name(x), b.geometry().name(y)];
        names.sort();
        assert_eq!(names, ["D5", "E4"]);
        assert_eq!(b.liberty_pair(p("C4")), None);
    }

    #[test]
    fn running_along_the_edge_into_a_wall() {
        // White A3 in atari at A4; extending there leaves A5 only (Black B4 blocks).
        let (b, p) = board(9, "A2 B3 B4", "A3");
        assert!(b.escape_is_caught(p("A3")));
        // With B4 empty the extension has A5 and B4: Black chases at B4? A5 then runs...
        // and the first line ladder still works: A4 gets caught against the wall at B5.
        let (b, p) = board(9, "A2 B3 B5", "A3");
        assert!(b.escape_is_caught(p("A3")));
    }

    /// Every ladder question on every chain of random games of every size, from the smallest
    /// board to the largest: answers are liberties of the chain asked about, the same when
    /// asked twice (the scratch board leaves nothing behind), and nothing panics.
    /// A uniformly random move that does not fill `color`'s own eye, or a pass.
    fn random_sensible_move(b: &Board, color: Color, rng: &mut impl rand::Rng) -> Move {
        use rand::seq::SliceRandom;
        let moves: Vec<Point> = b
            .empty_points()
            .iter()
            .copied()
            .filter(|&p| b.is_sensible(color, p))
            .collect();
        moves.choose(rng).map_or(Move::Pass, |&p| Move::Play(p))
    }

    #[test]
    fn random_positions_of_every_size() {
        use rand::SeedableRng;
        for size in [2, 3, 4, 5, 9, 13, 19, 25] {
            for seed in 0..3 {
                let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
                let mut b = Board::new(size).expect("size");
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    if let Move::Play(p) = random_sensible_move(&b, color, &mut rng) {
                        b.place(color, p);
                        check_every_chain(&b);
                        assert_eq!(b.nakade_point(p), b.nakade_point(p));
                    } else {
                        b.pass();
                    }
                    color = color.opponent();
                }
            }
        }
    }

    fn check_every_chain(b: &crate::board::Board) {
        for s in b.geometry().points().filter(|&s| b.color_at(s).is_some()) {
            let libs = b.liberties(s);
            let caught = b.escape_is_caught(s);
            assert_eq!(caught, b.escape_is_caught(s));
            if libs.len() != 1 {
                assert!(!caught);
            }
            for atari in [b.ladder_atari(s), b.net_atari(s)].into_iter().flatten() {
                assert_eq!(libs.len(), 2);
                assert!(libs.contains(&atari));
            }
            assert_eq!(b.ladder_atari(s), b.ladder_atari(s));
        }
    }
}
