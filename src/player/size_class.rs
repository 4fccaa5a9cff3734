//! The board sizes the ranks are calibrated on, and every setting that changes with them,
//! in one table ([`SizeClass::TABLE`]): every other size plays like the nearest calibrated
//! board ([`SizeClass::of`]), so an 11x11 game takes 9x9's ladder of ranks and 9x9's thinking time
//! alike, never a mixture of two classes.
//!
//! Not everything that grows with the board is a class. What is a measure rather than a
//! calibration scales continuously, because a formula measured on one board carries to every
//! size without a game played on it: dynamic komi's move counts and point limits scale by the
//! board's area ([`super::dynkomi`]), and a review's playouts by its side
//! ([`crate::cmd::review::default_playouts`]).

use super::rank::Rank;
use super::strength::{self, Rung};
use std::time::Duration;

/// One calibrated board and what the ranks do on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizeClass {
    /// The side of the calibrated board.
    pub size: usize,
    /// The ladder of ranks on this board, from the weakest: a rank between two rungs takes
    /// its settings part of the way ([`strength::rung_for`]), the top rung is expert's.
    ///
    /// The rungs at 10k and 7k are the levels beginner and intermediate, calibrated
    /// against GNU Go 3.8 (docs/benchmarks.md, "Levels on every size"): beginner beats a
    /// random player every game and loses to GNU Go level 10 most; intermediate is about
    /// even with GNU Go level 10 (rated 7 kyu on KGS). Beginner searches without the
    /// network on 9x9 and 13x13, where a few hundred playouts with it beat GNU Go level
    /// 10; on 19x19, 400 playouts without it spread over the whole board and crawl on the
    /// first line, 50 with it play a beginner's shapes. The rungs below 10k (fewer
    /// playouts, a partial sight) and between 7k and expert are first estimates, placed
    /// by the handicap chain of `hoshi calibrate` as it is played.
    pub rungs: &'static [Rung],
    /// The time expert (and analysis) thinks a move when neither a clock nor `--time` says
    /// otherwise: Sabaki and gogui-twogtp send no clock, and a GUI's user waits for the
    /// move.
    pub expert_time: Duration,
}

/// The top of every ladder: expert at 1 s a move on one thread gives GNU Go level 10 (7
/// kyu) seven stones on 19x19 and wins half (docs/benchmarks.md, "Levels on every size").
pub const EXPERT: Rank = Rank::dan(1);
/// Beginner's rank: two of twenty against intermediate, two of ten against GNU Go level
/// 10, on 19x19.
pub const BEGINNER: Rank = Rank::kyu(10);
/// Intermediate's rank: 11 of 20 against GNU Go level 10 on 19x19.
pub const INTERMEDIATE: Rank = Rank::kyu(7);

const LADDER_9: [Rung; 8] = [
    Rung::counted(Rank::kyu(30), 16, false, 1.0, 0.1),
    Rung::counted(Rank::kyu(20), 50, false, 1.0, 0.3),
    Rung::counted(Rank::kyu(15), 150, false, 1.0, 0.6),
    Rung::counted(BEGINNER, 400, false, 1.0, 1.0),
    Rung::counted(INTERMEDIATE, 1_000, false, 0.3, 1.0),
    Rung::counted(Rank::kyu(4), 4_000, false, 0.1, 1.0),
    Rung::counted(Rank::kyu(1), 12_000, false, 0.0, 1.0),
    Rung::strongest(EXPERT),
];

const LADDER_13: [Rung; 8] = [
    Rung::counted(Rank::kyu(30), 16, false, 1.0, 0.07),
    Rung::counted(Rank::kyu(20), 50, false, 1.0, 0.25),
    Rung::counted(Rank::kyu(15), 150, false, 1.0, 0.6),
    Rung::counted(BEGINNER, 400, false, 1.0, 1.0),
    Rung::counted(INTERMEDIATE, 2_000, false, 0.3, 1.0),
    Rung::counted(Rank::kyu(4), 8_000, false, 0.1, 1.0),
    Rung::counted(Rank::kyu(1), 20_000, false, 0.0, 1.0),
    Rung::strongest(EXPERT),
];

const LADDER_19: [Rung; 8] = [
    Rung::counted(Rank::kyu(30), 8, true, 1.0, 0.05),
    Rung::counted(Rank::kyu(20), 16, true, 1.0, 0.2),
    Rung::counted(Rank::kyu(15), 32, true, 1.0, 0.5),
    Rung::counted(BEGINNER, 50, true, 1.0, 1.0),
    Rung::counted(INTERMEDIATE, 100, true, 0.3, 1.0),
    Rung::counted(Rank::kyu(4), 400, true, 0.1, 1.0),
    Rung::counted(Rank::kyu(1), 3_200, true, 0.0, 1.0),
    Rung::strongest(EXPERT),
];

impl SizeClass {
    /// The calibrated boards, from the smallest.
    pub const TABLE: [SizeClass; 3] = [
        SizeClass {
            size: 9,
            rungs: &LADDER_9,
            expert_time: Duration::from_secs(1),
        },
        SizeClass {
            size: 13,
            rungs: &LADDER_13,
            expert_time: Duration::from_secs(3),
        },
        SizeClass {
            size: 19,
            rungs: &LADDER_19,
            expert_time: Duration::from_secs(6),
        },
    ];

    /// The class of a `size`×`size` board: the nearest calibrated board, the smaller on a
    /// tie (up to 11x11 plays like 9x9, 12x12 to 16x16 like 13x13, 17x17 and up like
    /// 19x19).
    pub fn of(size: usize) -> SizeClass {
        let [smallest, ..] = SizeClass::TABLE;
        SizeClass::TABLE
            .into_iter()
            .min_by_key(|class| class.size.abs_diff(size))
            .unwrap_or(smallest)
    }

    /// What `rank` does on this board.
    pub fn rung(&self, rank: Rank) -> Rung {
        strength::rung_for(self.rungs, rank)
    }

    /// The strongest rank on this board: expert's.
    pub fn strongest(&self) -> Rank {
        self.rungs.last().map_or(EXPERT, |r| r.rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_plays_like_the_nearest_calibrated_board() {
        let sizes = [2, 9, 10, 11, 12, 13, 14, 16, 17, 19, 25];
        let classes = sizes.map(|size| SizeClass::of(size).size);
        assert_eq!(classes, [9, 9, 9, 9, 13, 13, 13, 13, 19, 19, 19]);
        let seconds = sizes.map(|size| SizeClass::of(size).expert_time.as_secs());
        assert_eq!(seconds, [1, 1, 1, 1, 3, 3, 3, 3, 6, 6, 6]);
    }
}
