//! Rulesets as a small value type: what repetition is forbidden, how the game is scored,
//! whether suicide is allowed and what White gets for handicap stones. Named presets cover
//! the rules players meet; French (FFG) is the default.

use std::fmt;

/// Which repeated positions a move may not create.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate recapture of a single-stone ko is forbidden; longer cycles
    /// (triple ko, sending-two-returning-one) are allowed.
    Simple,
    /// No move may recreate any earlier board position (whoever is to move).
    Positional,
    /// No move may recreate an earlier position with the same player to move.
    Situational,
    /// French rule (FFG): a player may not, by placing a stone, recreate a position that he
    /// himself produced earlier by placing a stone. Passes produce nothing.
    NaturalSituational,
}

/// How the points are counted at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones on the board plus empty points surrounded by one color only.
    Area,
    /// Surrounded empty points plus prisoners (dead stones count as prisoners); eyes in seki
    /// count for nobody.
    Territory,
}

/// The points White's area gets for a handicap of N stones (area scoring only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapBonus {
    None,
    /// N - 1: French, AGA (the stones Black placed beyond the first move he would have had).
    NMinusOne,
    /// N: Chinese.
    N,
}

impl HandicapBonus {
    /// The bonus for `stones` handicap stones.
    pub fn points(self, stones: usize) -> f64 {
        match (self, stones) {
            (_, 0) | (HandicapBonus::None, _) => 0.0,
            (HandicapBonus::NMinusOne, n) => (n - 1) as f64,
            (HandicapBonus::N, n) => n as f64,
        }
    }
}

/// A complete ruleset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ruleset {
    /// The preset's name as the command line and `kgs-rules` spell it.
    pub name: &'static str,
    pub ko: KoRule,
    pub scoring: Scoring,
    /// Whether a move that leaves its own chain (of two or more stones) without liberties is
    /// allowed, removing that chain. One-stone suicide is refused under every ruleset.
    pub multi_stone_suicide: bool,
    pub handicap_bonus: HandicapBonus,
    /// Komi used when nobody sets one, in komi's usual units (points, halves allowed).
    pub default_komi: f64,
    /// Whether dead stones are removed by agreement after two passes. When false
    /// (Tromp-Taylor), every stone on the board at the end counts as alive.
    pub dead_stone_removal: bool,
}

impl Ruleset {
    /// French rules (FFG, 1994): area scoring, no suicide, the natural situational
    /// repetition rule, komi 7.5, White's area + N-1 in handicap games.
    pub const FRENCH: Ruleset = Ruleset {
        name: "french",
        ko: KoRule::NaturalSituational,
        scoring: Scoring::Area,
        multi_stone_suicide: false,
        handicap_bonus: HandicapBonus::NMinusOne,
        default_komi: 7.5,
        dead_stone_removal: true,
    };

    /// Chinese rules: area scoring, whole-board repetition forbidden (as written, and as
    /// servers implement it), White + N in handicap games.
    pub const CHINESE: Ruleset = Ruleset {
        name: "chinese",
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        multi_stone_suicide: false,
        handicap_bonus: HandicapBonus::N,
        default_komi: 7.5,
        dead_stone_removal: true,
    };

    /// Japanese rules: territory scoring, simple ko only, no handicap bonus.
    pub const JAPANESE: Ruleset = Ruleset {
        name: "japanese",
        ko: KoRule::Simple,
        scoring: Scoring::Territory,
        multi_stone_suicide: false,
        handicap_bonus: HandicapBonus::None,
        default_komi: 6.5,
        dead_stone_removal: true,
    };

    /// AGA rules: area scoring (equal to territory thanks to pass stones), situational
    /// superko, White + N-1 in handicap games.
    pub const AGA: Ruleset = Ruleset {
        name: "aga",
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        multi_stone_suicide: false,
        handicap_bonus: HandicapBonus::NMinusOne,
        default_komi: 7.5,
        dead_stone_removal: true,
    };

    /// New Zealand rules: area scoring, situational superko, multi-stone suicide allowed.
    pub const NEW_ZEALAND: Ruleset = Ruleset {
        name: "new-zealand",
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        multi_stone_suicide: true,
        handicap_bonus: HandicapBonus::None,
        default_komi: 7.0,
        dead_stone_removal: true,
    };

    /// Tromp-Taylor rules: area scoring with every stone on the board alive, positional
    /// superko, suicide allowed.
    pub const TROMP_TAYLOR: Ruleset = Ruleset {
        name: "tromp-taylor",
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        multi_stone_suicide: true,
        handicap_bonus: HandicapBonus::None,
        default_komi: 7.5,
        dead_stone_removal: false,
    };

    /// CGOS, the computer Go server: Tromp-Taylor counting (every stone left on the board
    /// is alive) with positional superko, but suicide forbidden.
    pub const CGOS: Ruleset = Ruleset {
        name: "cgos",
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        multi_stone_suicide: false,
        handicap_bonus: HandicapBonus::None,
        default_komi: 7.5,
        dead_stone_removal: false,
    };

    /// Every preset, French first.
    pub const PRESETS: [Ruleset; 7] = [
        Ruleset::FRENCH,
        Ruleset::CHINESE,
        Ruleset::JAPANESE,
        Ruleset::AGA,
        Ruleset::NEW_ZEALAND,
        Ruleset::TROMP_TAYLOR,
        Ruleset::CGOS,
    ];

    /// A preset by name, case-insensitive; also accepts the spellings KGS (`new_zealand`) and
    /// others use (`ffg`, `tt`, `korean`).
    pub fn from_name(name: &str) -> Option<Ruleset> {
        let name = name.to_ascii_lowercase().replace('_', "-");
        let canonical = match name.as_str() {
            "ffg" | "fr" => "french",
            "nz" => "new-zealand",
            "tt" | "tromptaylor" => "tromp-taylor",
            "korean" => "japanese",
            other => other,
        };
        Ruleset::PRESETS.into_iter().find(|r| r.name == canonical)
    }
}

impl Default for Ruleset {
    fn default() -> Self {
        Ruleset::FRENCH
    }
}

/// Reading a preset's name (the command line's `--rules`), with an error that lists them.
impl std::str::FromStr for Ruleset {
    type Err = UnknownRules;

    fn from_str(name: &str) -> Result<Ruleset, UnknownRules> {
        Ruleset::from_name(name).ok_or(UnknownRules)
    }
}

/// A name that is none of the presets'; its text lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownRules;

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Ruleset::PRESETS.iter().map(|r| r.name).collect();
        write!(f, "unknown rules; use one of {}", names.join(", "))
    }
}

impl std::error::Error for UnknownRules {}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_found_by_their_names() {
        for r in Ruleset::PRESETS {
            assert_eq!(Ruleset::from_name(r.name), Some(r));
        }
        assert_eq!(
            Ruleset::from_name("New_Zealand"),
            Some(Ruleset::NEW_ZEALAND)
        );
        assert_eq!(Ruleset::from_name("FFG"), Some(Ruleset::FRENCH));
        assert_eq!(Ruleset::from_name("ing"), None);
        assert_eq!(Ruleset::default(), Ruleset::FRENCH);
        assert_eq!(
            "ing".parse::<Ruleset>().map_err(|e| e.to_string()),
            Err(
                "unknown rules; use one of french, chinese, japanese, aga, new-zealand, \
                 tromp-taylor, cgos"
                    .to_string()
            )
        );
    }

    #[test]
    fn handicap_bonus_follows_the_rules() {
        assert_eq!(Ruleset::FRENCH.handicap_bonus.points(4), 3.0);
        assert_eq!(Ruleset::CHINESE.handicap_bonus.points(4), 4.0);
        assert_eq!(Ruleset::JAPANESE.handicap_bonus.points(4), 0.0);
        assert_eq!(Ruleset::FRENCH.handicap_bonus.points(0), 0.0);
    }
}
