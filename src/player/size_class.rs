//! The board sizes the levels are calibrated on, and every setting that changes with them,
//! in one table ([`SizeClass::TABLE`]): every other size plays like the nearest calibrated
//! board ([`SizeClass::of`]), so an 11x11 game takes 9x9's playouts and 9x9's thinking time
//! alike, never a mixture of two classes.
//!
//! Not everything that grows with the board is a class. What is a measure rather than a
//! calibration scales continuously, because a formula measured on one board carries to every
//! size without a game played on it: dynamic komi's move counts and point limits scale by the
//! board's area ([`super::dynkomi`]), and a review's playouts by its side
//! ([`crate::cmd::review::default_playouts`]).

use std::time::Duration;

/// One calibrated board and what the levels do on it. The budgets were calibrated against
/// GNU Go 3.8 on each board (docs/benchmarks.md, "Levels on every size").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeClass {
    /// The side of the calibrated board.
    pub size: usize,
    /// Beginner's playouts a move, with the network where [`SizeClass::beginner_network`]
    /// says: enough to beat a random player every game, few enough to lose to GNU Go level
    /// 10 most games.
    pub beginner_playouts: u64,
    /// Whether beginner uses the policy network. On 19x19, 400 playouts without it spread
    /// over the whole board and crawl on the first line (five stones from intermediate lost
    /// all ten games, with nothing left on the board); 50 with it play a beginner's shapes.
    pub beginner_network: bool,
    /// Intermediate's playouts a move: about even with GNU Go level 10, with the network
    /// where [`SizeClass::intermediate_network`] says.
    pub intermediate_playouts: u64,
    /// Whether intermediate uses the policy network. With it, a few hundred playouts (200
    /// to 500) beat GNU Go level 10 in 10 games of 10 on 9x9 and 13x13, so the small boards
    /// search without it; on 19x19 the network's 100 playouts are GNU Go's match, where the
    /// search without it would need tens of thousands.
    pub intermediate_network: bool,
    /// The time expert (and analysis) thinks a move when neither a clock nor `--time` says
    /// otherwise: Sabaki and gogui-twogtp send no clock, and a GUI's user waits for the
    /// move.
    pub expert_time: Duration,
}

impl SizeClass {
    /// The calibrated boards, from the smallest.
    pub const TABLE: [SizeClass; 3] = [
        SizeClass {
            size: 9,
            beginner_playouts: 400,
            beginner_network: false,
            intermediate_playouts: 1_000,
            intermediate_network: false,
            expert_time: Duration::from_secs(1),
        },
        SizeClass {
            size: 13,
            beginner_playouts: 400,
            beginner_network: false,
            intermediate_playouts: 2_000,
            intermediate_network: false,
            expert_time: Duration::from_secs(3),
        },
        SizeClass {
            size: 19,
            beginner_playouts: 50,
            beginner_network: true,
            intermediate_playouts: 100,
            intermediate_network: true,
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
