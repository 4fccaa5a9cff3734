//! The eight symmetries of the square, in which an evaluator may read a position (Leela
//! Zero's and KataGo's random symmetry, [`crate::net::Evaluator::vary_symmetry`]; KataGo's
//! `kata-raw-nn SYMMETRY`, [`crate::net::Evaluator::read_in`]): any format that reads a
//! board as a grid reads it in these.

use crate::coord::Move;
use crate::game::{Played, Position};

/// One of the 8 symmetries of the square (networks learn all of them: hoshi's
/// `train/train.py` and KataGo's training draw one for every sample): bit 0 mirrors the
/// columns, bit 1 the rows, bit 2 then swaps rows and columns (KataGo numbers them alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

impl Symmetry {
    /// The one that leaves the board as it is.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All eight, by their numbers 0 to 7.
    pub fn all() -> impl Iterator<Item = Symmetry> {
        (0..8).map(Symmetry)
    }

    /// Its number, 0 to 7.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The symmetry numbered `n` (0 to 7), as `kata-raw-nn` names them.
    pub fn numbered(n: u8) -> Option<Symmetry> {
        (n < 8).then_some(Symmetry(n))
    }

    /// Where the point at `index` (row by row, `size` a row) goes.
    pub fn map(self, size: usize, index: usize) -> usize {
        let (mut row, mut col) = (index / size, index % size);
        if self.0 & 1 != 0 {
            col = size - 1 - col;
        }
        if self.0 & 2 != 0 {
            row = size - 1 - row;
        }
        if self.0 & 4 != 0 {
            std::mem::swap(&mut row, &mut col);
        }
        row * size + col
    }

    /// A map read in this symmetry (`turned`), back in the board's own order into `out`.
    pub fn turn_back<T: Copy>(self, size: usize, turned: &[T], out: &mut [T]) {
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = turned[self.map(size, i)];
        }
    }

    /// The symmetry `position` is read in: one of the 8 by its stones, the side to move and
    /// the last move, so that a position is always read alike and positions' readings vary.
    pub fn of(position: &Position<'_>) -> Symmetry {
        let mut hash = position.board.hash() ^ position.to_move.index() as u64;
        if let Some(Played {
            mv: Move::Play(p), ..
        }) = position.recent.first()
        {
            hash ^= (p.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        // The top bits of a multiplicative hash are its best mixed.
        Symmetry((hash.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 61) as u8)
    }
}

/// In which symmetry an evaluator reads positions: every format's evaluator keeps one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reading {
    AsItStands,
    /// Each in one of its own ([`crate::net::Evaluator::vary_symmetry`]).
    Varied,
    /// Every one in this one ([`crate::net::Evaluator::read_in`]).
    Fixed(Symmetry),
}

impl Reading {
    /// The symmetry `position` is read in.
    pub fn of(self, position: &Position<'_>) -> Symmetry {
        match self {
            Reading::AsItStands => Symmetry::IDENTITY,
            Reading::Varied => Symmetry::of(position),
            Reading::Fixed(symmetry) => symmetry,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_symmetries_are_the_squares_own() {
        let size = 5;
        let images: Vec<Vec<usize>> = Symmetry::all()
            .map(|s| (0..size * size).map(|i| s.map(size, i)).collect())
            .collect();
        for image in &images {
            let mut sorted = image.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                (0..size * size).collect::<Vec<_>>(),
                "a permutation"
            );
            // A corner stays a corner, the centre stays put.
            assert!([0, 4, 20, 24].contains(&image[0]), "{image:?}");
            assert_eq!(image[12], 12);
        }
        let distinct: std::collections::HashSet<_> = images.iter().collect();
        assert_eq!(distinct.len(), 8);
        assert_eq!(images[0], (0..size * size).collect::<Vec<_>>());
    }
}
