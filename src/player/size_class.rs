//! The board sizes the ranks are calibrated on, and every setting that changes with them,
//! in one table ([`SizeClass::TABLE`]): every other size plays like the nearest calibrated
//! board ([`SizeClass::of`]), so an 11x11 game takes 9x9's ladder of ranks and 9x9's thinking time
//! alike, never a mixture of two classes.
//!
//! Not everything that grows with the board is a class. What is a measure rather than a
//! calibration scales continuously, because a formula measured on one board carries to every
//! size without a game played on it: dynamic komi's move counts and point limits scale by the
//! board's area ([`super::dynkomi`]), and a review's playouts by its side
//! (`hoshi analyze`'s `default_playouts`).

use super::rank::Rank;
use super::strength::{self, Rung};
use crate::handicap;
use std::time::Duration;

/// One calibrated board and what the ranks do on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizeClass {
    /// The side of the calibrated board.
    pub size: usize,
    /// The ladder of ranks on this board, from the weakest: a rank between two rungs takes
    /// its settings part of the way ([`strength::rung_for`]), the top rung is expert's,
    /// placed by the handicap it gives the counted rungs on the machine of
    /// docs/benchmarks.md (a faster machine makes expert stronger than its name).
    ///
    /// The rung at 7k is the level intermediate, about even with GNU Go 3.8 level 10
    /// (rated 7 kyu on KGS) on every size (docs/benchmarks.md, "Levels on every size"). The
    /// ranks search without the network on 9x9 and 13x13, where a few hundred playouts with
    /// it beat GNU Go level 10; on 19x19 they search with it, since without it even 400
    /// playouts spread over the whole board and crawl on the first line. The other rungs
    /// are placed by the handicap chain of `hoshi calibrate` (docs/benchmarks.md, "Ranks by
    /// point loss (2026-12-03)").
    pub rungs: &'static [Rung],
    /// The time expert (and analysis) thinks a move when neither a clock nor `--time` says
    /// otherwise: Sabaki and gogui-twogtp send no clock, and a GUI's user waits for the
    /// move.
    pub expert_time: Duration,
    /// Ranks a handicap stone makes up on this board ([`SizeClass::fair_game`]): one on
    /// 19x19, by the definition of a rank; about 2.5 on 13x13 and 6 on 9x9, the estimates
    /// with "wide support" that Wikipedia's "Go handicaps" gives for small boards (fewer
    /// moves leave White fewer chances to catch up, so a stone weighs more).
    pub ranks_per_stone: f64,
}

/// The handicap of a fair game between players some ranks apart ([`SizeClass::fair_game`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FairGame {
    /// Handicap stones for the weaker player, who takes Black (0: none).
    pub stones: usize,
    /// White's komi; `None` for the rules' usual komi (an even game).
    pub komi: Option<f64>,
}

impl FairGame {
    /// Whether the players are even: no stones, the usual komi, colours free.
    pub fn is_even(&self) -> bool {
        self.stones == 0 && self.komi.is_none()
    }

    /// White's komi, `usual` (the rules') in an even game.
    pub fn komi_or(&self, usual: f64) -> f64 {
        self.komi.unwrap_or(usual)
    }
}

/// Beginner's rank: a name for the rung of the ladders at 10k.
pub const BEGINNER: Rank = Rank::kyu(10);
/// Intermediate's rank: 7k, the KGS rating of GNU Go 3.8 level 10, which intermediate plays
/// even on 19x19 (docs/benchmarks.md, "Ranks by point loss (2026-12-03)").
pub const INTERMEDIATE: Rank = Rank::kyu(7);

/// 9x9: every rank up to intermediate searches 1,000 playouts without the network, and
/// the weaker ones give away points a move ([`Rung::point_loss`]) rather than see less or
/// draw at a temperature: a steady loss keeps a head start, so that a stone means on this
/// board what the table says (docs/design.md, "Ranks"). Each rung of 25k to 1k takes one
/// stone (Black, komi 0.5) from the rung six ranks up and wins about half; 30k loses to
/// 25k and beats random moves (docs/benchmarks.md, "Ranks by point loss (2026-12-03)"). 6d
/// is 1k's draw at 3,000 playouts: 1k taking a stone from it is about even. Strength is
/// steep here (1k's wins against its own settings at more playouts fall fast from 2,000 to
/// 6,000), so the dan rungs count playouts set by such probes (docs/benchmarks.md, "Dan links,
/// 13x13's expert, and the anchors at a handicap on 19x19 (2026-12-03)"). 8d is the same
/// draw at 4,000 playouts (2d taking a stone from it, and 1d from 7d, are about even); read
/// toward expert's playouts instead, 7d and 8d were too strong, their weaker rank winning
/// few games (docs/benchmarks.md, "8d rungs on the small boards, 5d:7d on 19x19, and Pachi
/// at the small boards' dan ranks (2026-12-03)"). Expert is beyond the scale: 1k taking two
/// stones, twelve ranks by the table, hardly ever won, so it is named the scale's top, 9d
/// (docs/benchmarks.md, "The top of the scale (2026-12-03)"). It has played with the board's
/// built-in value network since, which beat the expert before it 31 of 40 (docs/benchmarks.md, "The
/// judges as expert's default on 9x9 and 13x13 (2026-12-06)"): further beyond.
const LADDER_9: [Rung; 10] = [
    Rung::counted(Rank::kyu(30), 1_000, false, 0.0, 1.0).losing(8.0),
    Rung::counted(Rank::kyu(25), 1_000, false, 0.0, 1.0).losing(1.8),
    Rung::counted(Rank::kyu(19), 1_000, false, 0.0, 1.0).losing(1.0),
    Rung::counted(Rank::kyu(13), 1_000, false, 0.0, 1.0).losing(0.6),
    Rung::counted(BEGINNER, 1_000, false, 0.0, 1.0).losing(0.3),
    Rung::counted(INTERMEDIATE, 1_000, false, 0.3, 1.0),
    Rung::counted(Rank::kyu(1), 1_200, false, 0.28, 1.0),
    Rung::counted(Rank::dan(6), 3_000, false, 0.28, 1.0),
    Rung::counted(Rank::dan(8), 4_000, false, 0.28, 1.0),
    Rung::strongest(Rank::dan(9), 13_000),
];

/// 13x13: the same kind of ladder at intermediate's 2,000 playouts, a rung each five
/// ranks (two stones by the table), from 27k up to 7k; 1k reads twice as much, and 5d is
/// 1k's draw at 10,000 playouts (1k taking two stones won more than half against 8,000,
/// less against 12,000, and about half against 10,000: docs/benchmarks.md, "Dan links,
/// 13x13's expert, and the anchors at a handicap on 19x19 (2026-12-03)"), and 8d the same
/// draw at 17,000 (3d taking two stones from it is about even; from 8d read toward expert's
/// playouts, it won few games: docs/benchmarks.md, "8d rungs on the small boards, 5d:7d on
/// 19x19, and Pachi at the small boards' dan ranks (2026-12-03)"). Expert is beyond the
/// scale, as on 9x9: 2k taking four stones never won (docs/benchmarks.md, "Dan links,
/// 13x13's expert, and the anchors at a handicap on 19x19 (2026-12-03)"). It is named the
/// top, 9d. It plays with the board's built-in value network, as on 9x9 (docs/benchmarks.md, "The
/// judges as expert's default on 9x9 and 13x13 (2026-12-06)").
const LADDER_13: [Rung; 10] = [
    Rung::counted(Rank::kyu(30), 2_000, false, 0.0, 1.0).losing(8.0),
    Rung::counted(Rank::kyu(27), 2_000, false, 0.0, 1.0).losing(1.85),
    Rung::counted(Rank::kyu(22), 2_000, false, 0.0, 1.0).losing(1.25),
    Rung::counted(Rank::kyu(17), 2_000, false, 0.0, 1.0).losing(0.92),
    Rung::counted(Rank::kyu(12), 2_000, false, 0.0, 1.0).losing(0.47),
    Rung::counted(INTERMEDIATE, 2_000, false, 0.3, 1.0),
    Rung::counted(Rank::kyu(1), 4_000, false, 0.15, 1.0),
    Rung::counted(Rank::dan(5), 10_000, false, 0.15, 1.0),
    Rung::counted(Rank::dan(8), 17_000, false, 0.15, 1.0),
    Rung::strongest(Rank::dan(9), 25_000),
];

/// 19x19: up to beginner 200 playouts with the network, giving away points a move as on
/// the small boards; the weakest ranks also see only some of the moves. 12k takes five
/// stones from intermediate, 21k nine from 12k and 30k nine from 21k, intermediate three
/// from 4k and seven from 1d, each about even (docs/benchmarks.md, "Ranks by point loss
/// (2026-12-03)"). Expert, at its 6 s a move, gives 1d eight stones and still wins most
/// games, so it is 9d, the top of the scale, or a little above; the ranks between read
/// toward its playouts (docs/benchmarks.md, "The top of the scale (2026-12-03)"), and each
/// link of two stones between them is about even: 1d taking two from 3d and 3d from 5d
/// (docs/benchmarks.md, "Dan links, 13x13's expert, and the anchors at a handicap on 19x19
/// (2026-12-03)"), 5d from 7d (docs/benchmarks.md, "8d rungs on the small boards, 5d:7d on
/// 19x19, and Pachi at the small boards' dan ranks (2026-12-03)").
const LADDER_19: [Rung; 8] = [
    Rung::counted(Rank::kyu(30), 200, true, 0.0, 0.55).losing(10.0),
    Rung::counted(Rank::kyu(21), 200, true, 0.0, 1.0).losing(10.0),
    Rung::counted(Rank::kyu(12), 200, true, 0.0, 1.0).losing(4.0),
    Rung::counted(BEGINNER, 200, true, 0.0, 1.0).losing(2.8),
    Rung::counted(INTERMEDIATE, 100, true, 0.3, 1.0),
    Rung::counted(Rank::kyu(4), 400, true, 0.1, 1.0),
    Rung::counted(Rank::dan(1), 1_000, true, 0.0, 1.0),
    Rung::strongest(Rank::dan(9), 20_000),
];

impl SizeClass {
    /// The calibrated boards, from the smallest.
    pub const TABLE: [SizeClass; 3] = [
        SizeClass {
            size: 9,
            rungs: &LADDER_9,
            expert_time: Duration::from_secs(1),
            ranks_per_stone: 6.0,
        },
        SizeClass {
            size: 13,
            rungs: &LADDER_13,
            expert_time: Duration::from_secs(3),
            ranks_per_stone: 2.5,
        },
        SizeClass {
            size: 19,
            rungs: &LADDER_19,
            expert_time: Duration::from_secs(6),
            ranks_per_stone: 1.0,
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

    /// The handicap of a fair game on this board between players `ranks` apart: the
    /// traditional one on 19x19 (the weaker takes Black with as many stones as ranks, komi
    /// 0.5; one rank apart, no stones and komi 0.5; even, the usual komi), on other boards
    /// with the ranks first turned into stones ([`SizeClass::ranks_per_stone`], to the
    /// nearest), never more stones than GTP's fixed handicap places on the board.
    pub fn fair_game(&self, ranks: u32, board_size: usize) -> FairGame {
        let stones = (f64::from(ranks) / self.ranks_per_stone).round() as usize;
        match stones {
            0 => FairGame {
                stones: 0,
                komi: None,
            },
            1 => FairGame {
                stones: 0,
                komi: Some(0.5),
            },
            n => FairGame {
                // Boards too small for handicap stones give the komi alone.
                stones: match handicap::max_fixed(board_size) {
                    0 | 1 => 0,
                    most => n.min(most),
                },
                komi: Some(0.5),
            },
        }
    }

    /// The strongest rank on this board: expert's, the top rung.
    pub fn strongest(&self) -> Rank {
        self.rungs.last().map_or(Rank::STRONGEST, |r| r.rank)
    }

    /// The rank a player who asks for `asked` plays on this board: at most expert's.
    pub fn rank_played(&self, asked: Rank) -> Rank {
        asked.min(self.strongest())
    }

    /// The strongest rank on any board: the most a command line may ask for before the
    /// board is known (each board then plays at most its own [`SizeClass::strongest`]).
    pub fn strongest_anywhere() -> Rank {
        SizeClass::TABLE
            .iter()
            .map(SizeClass::strongest)
            .max()
            .unwrap_or(Rank::STRONGEST)
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

    #[test]
    fn a_fair_game_gives_a_stone_a_rank_on_19x19_and_fewer_on_small_boards() {
        let game = |size: usize, ranks: u32| {
            let fair = SizeClass::of(size).fair_game(ranks, size);
            (fair.stones, fair.komi)
        };
        assert_eq!(game(19, 0), (0, None));
        assert_eq!(game(19, 1), (0, Some(0.5)));
        assert_eq!(game(19, 5), (5, Some(0.5)));
        assert_eq!(game(19, 9), (9, Some(0.5)));
        assert_eq!(game(19, 14), (9, Some(0.5)), "at most nine stones");
        assert_eq!(game(13, 1), (0, None));
        assert_eq!(game(13, 3), (0, Some(0.5)));
        assert_eq!(game(13, 10), (4, Some(0.5)));
        assert_eq!(game(9, 3), (0, Some(0.5)));
        assert_eq!(game(9, 12), (2, Some(0.5)));
        assert_eq!(game(9, 29), (5, Some(0.5)));
        assert_eq!(game(7, 29), (4, Some(0.5)), "7x7 places four at most");
        assert_eq!(game(5, 29), (0, Some(0.5)), "5x5 places none");
    }
}
