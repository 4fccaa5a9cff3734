//! The game metadata KataGo's human-imitating networks (model version 15 with a metadata
//! encoder, "human SL") are told: who plays (ranks), when, under which time control, on which
//! server. KataGo names a few such games by a profile (its `humanSLProfile` setting) and
//! encodes them into 192 inputs (`SGFMetadata::getProfile` and `fillMetadataRow`,
//! `cpp/neuralnet/sgfmetadata.cpp`; lightvector/KataGo, MIT licence, copyright David J. Wu).
//!
//! The profiles: `rank_<R>` (a KGS game of 2020 between two players of rank `R`, `20k` to
//! `9d`), `rank_<B>_<W>` (Black of rank `B`, White of `W`), `preaz_<R>` and `preaz_<B>_<W>`
//! (the same in 2016, before AlphaZero's influence), and `proyear_<Y>` (professionals of year
//! `Y`, 1800 to 2023: GoGoD's records to 2020, Go4Go's after).

use crate::coord::Color;
use std::fmt;

/// The number of inputs (KataGo's `SGFMetadata::METADATA_INPUT_NUM_CHANNELS`).
pub const INPUTS: usize = super::model::METADATA_INPUTS;

/// Where a game comes from (KataGo's `SGFMetadata::SOURCE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Kgs = 2,
    GoGoD = 5,
    Go4Go = 6,
}

/// A game's time control, of those the profiles name: unknown (no time recorded, read as
/// none), or main time then periods of byo-yomi.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeControl {
    known: bool,
    main_seconds: f64,
    period_seconds: f64,
    periods: u32,
}

impl TimeControl {
    const UNKNOWN: TimeControl = TimeControl {
        known: false,
        main_seconds: 0.0,
        period_seconds: 0.0,
        periods: 0,
    };
}

/// The metadata of a game as a profile describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanProfile {
    name: String,
    /// Black's and White's ranks, counted down from the top: 1 for 9 dan (and professionals),
    /// 9 for 1 dan, 10 for 1 kyu, 29 for 20 kyu.
    inverse_ranks: [u32; 2],
    /// Whether the game's ratedness is unknown (the rank profiles: KGS games of either kind).
    ratedness_unknown: bool,
    time: TimeControl,
    /// The game's date: year, month, day.
    date: (i32, u32, u32),
    source: Source,
}

/// A profile name KataGo does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown human profile {:?} (KataGo's humanSLProfile names: rank_5k, rank_3d, \
             rank_1k_2d (Black, then White), preaz_5k, proyear_1990, ...: ranks 20k to 9d, \
             years 1800 to 2023)",
            self.0
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl HumanProfile {
    /// The profile KataGo names `name`.
    pub fn parse(name: &str) -> Result<HumanProfile, UnknownProfile> {
        let unknown = || UnknownProfile(name.to_string());
        if let Some(year) = name.strip_prefix("proyear_") {
            let year: i32 = parse_int(year).ok_or_else(unknown)?;
            let source = match year {
                1800..=2020 => Source::GoGoD,
                2021..=2023 => Source::Go4Go,
                _ => return Err(unknown()),
            };
            return Ok(HumanProfile {
                name: name.to_string(),
                inverse_ranks: [1, 1],
                ratedness_unknown: false,
                time: TimeControl::UNKNOWN,
                date: (year, 6, 1),
                source,
            });
        }
        let (ranks, date) = match (name.strip_prefix("rank_"), name.strip_prefix("preaz_")) {
            (Some(ranks), _) => (ranks, (2020, 3, 1)),
            (_, Some(ranks)) => (ranks, (2016, 9, 1)),
            _ => return Err(unknown()),
        };
        let inverse_ranks = match inverse_rank(ranks) {
            Some(rank) => [rank, rank],
            None => {
                let (black, white) = ranks.split_once('_').ok_or_else(unknown)?;
                [
                    inverse_rank(black).ok_or_else(unknown)?,
                    inverse_rank(white).ok_or_else(unknown)?,
                ]
            }
        };
        Ok(HumanProfile {
            name: name.to_string(),
            inverse_ranks,
            ratedness_unknown: true,
            time: TimeControl {
                known: true,
                main_seconds: 1200.0,
                period_seconds: 30.0,
                periods: 5,
            },
            date,
            source: Source::Kgs,
        })
    }

    /// The name it was parsed from.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The metadata encoder's 192 inputs for `to_move` to play on a board of `area` points,
    /// as KataGo's `fillMetadataRow` writes them: the side to move's features first.
    pub fn inputs(&self, to_move: Color, area: usize) -> [f32; INPUTS] {
        let mut row = [0.0f32; INPUTS];
        let (own, other) = match to_move {
            Color::Black => (0, 1),
            Color::White => (1, 0),
        };
        // Both players human (0, 1), ranked (2, 3), of known rank (4, 5).
        row[0] = 1.0;
        row[1] = 1.0;
        // The ranks, thermometer coded from the top: 34 inputs a player.
        for (player, start) in [(own, 6), (other, 40)] {
            let filled = self.inverse_ranks[player].min(34) as usize;
            row[start..start + filled].fill(1.0);
        }
        row[74] = if self.ratedness_unknown { 0.5 } else { 0.0 };
        // The kind of time control, one-hot from 75: unknown, none, absolute, simple,
        // byo-yomi, Canadian, Fischer.
        let time = self.time;
        row[if time.known { 79 } else { 75 }] = 1.0;
        let main = time.main_seconds.clamp(0.0, 3.0 * 86400.0);
        let period = time.period_seconds.clamp(0.0, 86400.0);
        row[82] = (0.4 * ((main + 60.0).ln() - 6.5)) as f32;
        row[83] = (0.3 * ((period + 1.0).ln() - 3.0)) as f32;
        row[84] = (0.5 * ((f64::from(time.periods.min(50)) + 2.0).ln() - 1.5)) as f32;
        // Canadian moves a period: none in any profile.
        row[85] = (0.25 * (2f64.ln() - 1.5)) as f32;
        row[86] = (0.5 * (area as f64 / 361.0).ln()) as f32;
        // The date as 32 turning phases, periods from a week to about 80000 weeks.
        let days = days_since_1970(self.date) as f64;
        let factor = 80000f64.powf(1.0 / 31.0);
        let mut period = 7.0f64;
        for i in 0..32 {
            let turns = days / period;
            let angle = turns * std::f64::consts::TAU;
            row[87 + 2 * i] = angle.cos() as f32;
            row[88 + 2 * i] = angle.sin() as f32;
            period *= factor;
        }
        row[151 + self.source as usize] = 1.0;
        row
    }
}

/// A decimal integer, as KataGo's `tryStringToInt` reads one (digits, an optional sign).
fn parse_int(text: &str) -> Option<i32> {
    text.trim().parse().ok()
}

/// The rank `text` names (`20k` to `1k`, `1d` to `9d`) counted down from 9 dan (1).
fn inverse_rank(text: &str) -> Option<u32> {
    let (number, kind) = text.split_at(text.len().checked_sub(1)?);
    if number.is_empty() || number.starts_with('0') || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = number.parse().ok()?;
    match kind {
        "d" if (1..=9).contains(&n) => Some(10 - n),
        "k" if (1..=20).contains(&n) => Some(9 + n),
        _ => None,
    }
}

/// Days from 1970-01-01 to `date` in the proleptic Gregorian calendar (KataGo's
/// `SimpleDate::numDaysAfter`).
fn days_since_1970((year, month, day): (i32, u32, u32)) -> i64 {
    // Years from March, so that the leap day ends a year.
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let m = i64::from(month);
    let day_of_year = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146097 + day_of_era - 719468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_as_katago_names_them() {
        let p = HumanProfile::parse("rank_5k").unwrap();
        assert_eq!(p.inverse_ranks, [14, 14]);
        assert_eq!(p.date, (2020, 3, 1));
        assert_eq!(
            HumanProfile::parse("preaz_9d").unwrap().inverse_ranks,
            [1, 1]
        );
        assert_eq!(HumanProfile::parse("preaz_9d").unwrap().date, (2016, 9, 1));
        assert_eq!(
            HumanProfile::parse("rank_20k_1d").unwrap().inverse_ranks,
            [29, 9]
        );
        assert_eq!(
            HumanProfile::parse("proyear_1990").unwrap().source,
            Source::GoGoD
        );
        assert_eq!(
            HumanProfile::parse("proyear_2021").unwrap().source,
            Source::Go4Go
        );
        for bad in [
            "",
            "_",
            "rank_",
            "rank_21k",
            "rank_0d",
            "rank_10d",
            "rank_05k",
            "rank_5k_",
            "rank_5k_3d_1d",
            "proyear_1799",
            "proyear_2024",
            "proyear_x",
            "5k",
            "amateur_5k",
        ] {
            assert!(HumanProfile::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn days_count_as_katagos_dates_do() {
        assert_eq!(days_since_1970((1970, 1, 1)), 0);
        assert_eq!(days_since_1970((1970, 3, 1)), 59);
        assert_eq!(days_since_1970((2000, 3, 1)), 11017);
        assert_eq!(days_since_1970((2020, 3, 1)), 18322);
        assert_eq!(days_since_1970((1969, 12, 31)), -1);
        assert_eq!(days_since_1970((1800, 6, 1)), -61940);
    }

    #[test]
    fn inputs_put_the_side_to_move_first() {
        let p = HumanProfile::parse("rank_20k_1d").unwrap();
        let black = p.inputs(Color::Black, 361);
        let white = p.inputs(Color::White, 361);
        let filled = |row: &[f32; INPUTS], start: usize| {
            row[start..start + 34].iter().filter(|&&v| v == 1.0).count()
        };
        assert_eq!((filled(&black, 6), filled(&black, 40)), (29, 9));
        assert_eq!((filled(&white, 6), filled(&white, 40)), (9, 29));
        assert_eq!(black[86], 0.0);
        assert_eq!(black[79], 1.0);
        assert_eq!(black[74], 0.5);
        assert_eq!(black[151 + 2], 1.0);
        let pro = HumanProfile::parse("proyear_1990")
            .unwrap()
            .inputs(Color::White, 81);
        assert_eq!(pro[75], 1.0);
        assert_eq!(pro[74], 0.0);
        assert_eq!(pro[156], 1.0);
        assert!((pro[86] - (0.5 * (81.0f64 / 361.0).ln()) as f32).abs() < 1e-7);
        // Every input past the sources is 0.
        assert!(pro[167..].iter().all(|&v| v == 0.0));
    }
}
