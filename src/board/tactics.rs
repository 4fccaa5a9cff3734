//! Local tactics the playout policy and the tree's priors ask about: what a move would do to
//! liberties (self-atari), which moves capture, which save a chain in atari. All answers come
//! from the board as it is, without playing the move, and allocate nothing.

use super::{Board, Cell};
use crate::coord::{Color, Point};

/// A small set of points with a fixed capacity: enough for "up to N liberties".
#[derive(Clone, Copy)]
pub struct SmallSet<const N: usize> {
    points: [Point; N],
    len: usize,
}

impl<const N: usize> SmallSet<N> {
    pub fn new() -> Self {
        SmallSet {
            points: [Point::NONE; N],
            len: 0,
        }
    }

    /// Adds `p` if absent and there is room; returns whether the set is full.
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        if self.len < N && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
        self.len == N
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Point] {
        &self.points[..self.len]
    }
}

impl<const N: usize> Default for SmallSet<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl Board {
    /// Liberties the chain of a stone of `color` on the empty point `p` would have, counted
    /// up to `LIMIT` (enough to tell atari from safety). Stones it would capture count as
    /// liberties where they touch `p`.
    #[inline]
    pub fn liberties_after<const LIMIT: usize>(&self, color: Color, p: Point) -> usize {
        self.liberties_after_except::<LIMIT>(color, p, Point::NONE)
    }

    /// Like [`Board::liberties_after`], as if `filled` (an empty point) held a stone too:
    /// what the chain would keep after the opponent's reply there, which is how a ladder
    /// reader weighs the attacker's two ataris without playing them.
    #[inline]
    pub fn liberties_after_except<const LIMIT: usize>(
        &self,
        color: Color,
        p: Point,
        filled: Point,
    ) -> usize {
        let g = self.geometry;
        let mut libs = SmallSet::<LIMIT>::new();
        let own = Cell::stone(color);
        for n in g.neighbours(p) {
            let c = self.cell(n);
            let full = if c == Cell::Empty {
                n != filled && libs.insert(n)
            } else if c == own {
                self.add_liberties_except(n, [p, filled], &mut libs)
            } else if c.is_stone() && self.liberty_count(n) == 1 {
                libs.insert(n)
            } else {
                false
            };
            if full {
                return LIMIT;
            }
        }
        libs.len()
    }

    /// Adds the liberties of the chain on `s` other than the points of `except` to `libs`;
    /// returns whether `libs` is full.
    #[inline]
    fn add_liberties_except<const N: usize>(
        &self,
        s: Point,
        except: [Point; 2],
        libs: &mut SmallSet<N>,
    ) -> bool {
        // A chain with as many liberties as the set holds, besides the excepted points,
        // fills it whatever they are.
        let excepted = 1 + usize::from(except[1] != Point::NONE);
        if self.liberty_count(s) >= N + excepted {
            return true;
        }
        for stone in self.chain_stones(s) {
            for n in self.geometry.neighbours(stone) {
                if !except.contains(&n) && self.cell(n) == Cell::Empty && libs.insert(n) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a stone of `color` on `p` would leave its chain in atari (one liberty) without
    /// capturing anything: the move the opponent answers by taking the chain.
    pub fn is_self_atari(&self, color: Color, p: Point) -> bool {
        if self.empty_neighbours(p) >= 2 {
            return false;
        }
        self.liberties_after::<2>(color, p) < 2
    }

    /// Whether a stone of `color` on `p` captures something.
    #[inline]
    pub fn captures(&self, color: Color, p: Point) -> bool {
        let enemy = Cell::stone(color.opponent());
        self.geometry
            .neighbours(p)
            .into_iter()
            .any(|n| self.cell(n) == enemy && self.liberty_count(n) == 1)
    }

    /// Number of stones a stone of `color` on `p` would capture.
    pub fn capture_size(&self, color: Color, p: Point) -> usize {
        let enemy = Cell::stone(color.opponent());
        let mut chains = SmallSet::<4>::new();
        for n in self.geometry.neighbours(p) {
            if self.cell(n) == enemy && self.liberty_count(n) == 1 {
                chains.insert(self.chain(n));
            }
        }
        chains.as_slice().iter().map(|&h| self.chain_len(h)).sum()
    }

    /// Moves that may save the chain on `s` (which is in atari): capturing a neighbouring
    /// enemy chain that is itself in atari, or extending on the last liberty when that gives
    /// three liberties, or two that a ladder cannot take. Calls `found` with each candidate.
    pub fn atari_escapes(&self, s: Point, mut found: impl FnMut(Point)) {
        let Some(color) = self.color_at(s) else {
            return;
        };
        let enemy = Cell::stone(color.opponent());
        let mut seen = SmallSet::<8>::new();
        for stone in self.chain_stones(s) {
            for n in self.geometry.neighbours(stone) {
                if self.cell(n) == enemy && self.liberty_count(n) == 1 {
                    if let Some(lib) = self.atari_liberty(n) {
                        if !seen.as_slice().contains(&lib) {
                            seen.insert(lib);
                            found(lib);
                        }
                    }
                }
            }
        }
        if let Some(lib) = self.atari_liberty(s) {
            if self.check(color, lib).is_ok() {
                let escapes = match self.liberties_after::<3>(color, lib) {
                    0 | 1 => false,
                    2 => !self.escape_is_caught(s),
                    _ => true,
                };
                if escapes {
                    found(lib);
                }
            }
        }
    }

    /// The 3×3 neighbourhood of `p` as a 16-bit code: two bits (a [`Cell`]) for each of the
    /// eight surrounding points, row by row from the north-west, skipping `p` itself.
    #[inline]
    pub fn neighbourhood_code(&self, p: Point) -> u16 {
        let mut code = 0u16;
        for (k, q) in self.geometry.around(p).into_iter().enumerate() {
            code |= (self.cell(q) as u16) << (2 * k);
        }
        code
    }
}

#[cfg(test)]
mod tests {
    use crate::board::test_board as board;
    use crate::coord::Color;

    #[test]
    fn self_atari_and_captures() {
        let (b, p) = board(5, "C1 B2", "B1 A2");
        // White B1 has one liberty, A1; White A2 has two, A1 and A3.
        assert!(b.captures(Color::Black, p("A1")));
        assert_eq!(b.capture_size(Color::Black, p("A1")), 1);
        // Black A1 takes B1 but is left with B1 as its only liberty: a ko-like self-atari.
        assert!(b.is_self_atari(Color::Black, p("A1")));
        // White A1 joins A2 and B1 and keeps only A3.
        assert!(b.is_self_atari(Color::White, p("A1")));
        assert!(!b.is_self_atari(Color::White, p("D4")));
        assert_eq!(b.liberties_after::<8>(Color::Black, p("C3")), 4);
        // C2 joins C1 (D1 left) and B2 (B3 left) and has C3 and D2 of its own.
        assert_eq!(b.liberties_after::<8>(Color::Black, p("C2")), 4);
        assert_eq!(b.liberties_after::<2>(Color::Black, p("C2")), 2);
    }

    #[test]
    fn escapes_from_atari() {
        // Black C3 in atari (D3 last liberty); White C2 is itself in atari (C1).
        let (b, p) = board(5, "C3 B2 D2", "B3 C4 C2");
        assert_eq!(b.liberty_count(p("C2")), 1);
        let mut moves = Vec::new();
        b.atari_escapes(p("C3"), |m| moves.push(b.geometry().name(m)));
        moves.sort();
        assert_eq!(moves, ["C1", "D3"]);
    }

    #[test]
    fn neighbourhood_codes_see_the_edge() {
        let (b, p) = board(5, "B2", "");
        let code = b.neighbourhood_code(p("A1"));
        // North-west, west, south-west, south and south-east are border (3); north-east is
        // Black (1); north and east empty.
        let cells: Vec<u16> = (0..8).map(|k| (code >> (2 * k)) & 3).collect();
        assert_eq!(cells, [3, 0, 1, 3, 0, 3, 3, 3]);
    }
}
