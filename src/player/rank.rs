//! Ranks as Go players name them: 30 kyu (a first game) up through 1 kyu, then 1 dan, 2 dan
//! and on. One rank is one handicap stone between players of the same club: the scale the
//! settings of the player's strengths are laid out on ([`super::strength`]).

use std::fmt;
use std::str::FromStr;

/// A rank: `30k` … `1k`, `1d` … `9d`. Ordered from the weakest; the difference between two
/// ranks is the number of ranks (stones, on 19x19) between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(i32);

impl Rank {
    /// The weakest rank: someone who has just learned the rules.
    pub const WEAKEST: Rank = Rank::kyu(30);
    /// The strongest rank the scale names (an amateur 9 dan); the player's own strongest
    /// depends on the board ([`super::size_class::SizeClass::strongest`]).
    pub const STRONGEST: Rank = Rank::dan(9);

    /// `k` kyu (1 to 30).
    pub const fn kyu(k: i32) -> Rank {
        Rank(1 - k)
    }

    /// `d` dan (1 to 9).
    pub const fn dan(d: i32) -> Rank {
        Rank(d)
    }

    /// How many ranks `self` is above `other` (negative when below).
    pub fn above(self, other: Rank) -> i32 {
        self.0 - other.0
    }

    /// The rank `n` ranks above (below, for a negative `n`), kept within the scale.
    pub fn plus(self, n: i32) -> Rank {
        Rank((self.0 + n).clamp(Rank::WEAKEST.0, Rank::STRONGEST.0))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 1 {
            write!(f, "{}d", self.0)
        } else {
            write!(f, "{}k", 1 - self.0)
        }
    }
}

/// Why a text is not a rank hoshi plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RankError {
    /// Not a rank at all.
    NotARank(String),
    /// A rank above the strongest hoshi plays.
    TooStrong { asked: Rank, strongest: Rank },
}

impl fmt::Display for RankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankError::NotARank(text) => write!(
                f,
                "not a rank: {text:?} (30k to 1k, then 1d to 9d, e.g. 12k or 2d)"
            ),
            RankError::TooStrong { asked, strongest } => write!(
                f,
                "{asked} is stronger than hoshi plays: its strongest rank is {strongest} (expert)"
            ),
        }
    }
}

impl std::error::Error for RankError {}

impl Rank {
    /// The rank, if it is not above `strongest`.
    pub fn at_most(self, strongest: Rank) -> Result<Rank, RankError> {
        if self > strongest {
            Err(RankError::TooStrong {
                asked: self,
                strongest,
            })
        } else {
            Ok(self)
        }
    }
}

impl FromStr for Rank {
    type Err = RankError;

    /// `12k`, `12kyu`, `1d`, `1dan`, any case.
    fn from_str(text: &str) -> Result<Rank, RankError> {
        let error = || RankError::NotARank(text.to_string());
        let lower = text.trim().to_ascii_lowercase();
        let digits = lower.chars().take_while(char::is_ascii_digit).count();
        let (number, unit) = lower.split_at(digits);
        let n: i32 = number.parse().map_err(|_| error())?;
        match unit {
            "k" | "kyu" if (1..=30).contains(&n) => Ok(Rank::kyu(n)),
            "d" | "dan" if (1..=9).contains(&n) => Ok(Rank::dan(n)),
            _ => Err(error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_read_and_print_as_players_write_them() {
        for (text, shown) in [
            ("30k", "30k"),
            ("12K", "12k"),
            ("7kyu", "7k"),
            ("1k", "1k"),
            ("1d", "1d"),
            ("3Dan", "3d"),
            ("9d", "9d"),
        ] {
            let rank: Rank = text.parse().expect(text);
            assert_eq!(rank.to_string(), shown);
        }
        for bad in ["", "k", "0k", "31k", "10d", "5p", "-3k", "5 k", "1.5k"] {
            assert!(bad.parse::<Rank>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn one_kyu_and_one_dan_are_one_rank_apart() {
        assert_eq!(Rank::dan(1).above(Rank::kyu(1)), 1);
        assert_eq!(Rank::kyu(7).above(Rank::kyu(12)), 5);
        assert_eq!(Rank::kyu(12).above(Rank::kyu(7)), -5);
        assert_eq!(Rank::dan(2).above(Rank::kyu(5)), 6);
        assert!(Rank::kyu(30) < Rank::kyu(1) && Rank::kyu(1) < Rank::dan(1));
        assert_eq!(Rank::kyu(3).plus(3), Rank::dan(1));
        assert_eq!(Rank::kyu(28).plus(-5), Rank::WEAKEST);
    }

    #[test]
    fn a_rank_above_the_strongest_is_refused_with_the_strongest_named() {
        assert_eq!(Rank::kyu(3).at_most(Rank::dan(1)), Ok(Rank::kyu(3)));
        assert_eq!(Rank::dan(1).at_most(Rank::dan(1)), Ok(Rank::dan(1)));
        let refused = Rank::dan(3).at_most(Rank::dan(1)).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "3d is stronger than hoshi plays: its strongest rank is 1d (expert)"
        );
        let unread = "7x".parse::<Rank>().unwrap_err();
        assert_eq!(
            unread.to_string(),
            "not a rank: \"7x\" (30k to 1k, then 1d to 9d, e.g. 12k or 2d)"
        );
    }
}
