//! Values as people and controllers write them: a number of seconds ([`seconds`]), a
//! switch ([`on_off`]) and a knob left to the network until set ([`Auto`]). Each is read in one place, so that `--time`, `hoshi analyze --time`,
//! `hoshi match --clock` and `--move-timeout`, GTP's `time_settings` and `results.tsv`
//! accept the same seconds, and `--param`, `hoshi-param` and GoGui's check boxes the same
//! switches. Each caller says in its own words where the value was wrong.

use std::fmt;
use std::time::Duration;

/// A number of seconds: a decimal number (`30`, `1.5`, `.25`, also with an exponent,
/// `1e3`: the syntax of GTP's `float`), not negative and finite (`inf` and `NaN` are not
/// times); blanks around it are ignored. One too long for a [`Duration`] (a controller may
/// announce 1e300 seconds) means no end, [`Duration::MAX`]. 0 is a time: `time_settings`'s
/// byo-yomi of 0 s means none; [`positive_seconds`] is for a time that must pass.
pub fn seconds(text: &str) -> Result<Duration, BadSeconds> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(duration(s)),
        _ => Err(BadSeconds { zero_allowed: true }),
    }
}

/// [`seconds`] above 0: a time that must pass, such as a move's time or a time-out.
pub fn positive_seconds(text: &str) -> Result<Duration, BadSeconds> {
    match seconds(text) {
        Ok(time) if !time.is_zero() => Ok(time),
        _ => Err(BadSeconds {
            zero_allowed: false,
        }),
    }
}

/// A text that is not the number of seconds asked for: [`seconds`] or [`positive_seconds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadSeconds {
    /// Whether 0 would have done ([`seconds`]) or the time must pass ([`positive_seconds`]).
    pub zero_allowed: bool,
}

impl fmt::Display for BadSeconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.zero_allowed {
            "expected a number of seconds, 0 or more"
        } else {
            "expected a number of seconds above 0"
        })
    }
}

impl std::error::Error for BadSeconds {}

/// A number of seconds as a duration, for the edges where times come as numbers (GTP's
/// `time_left`, a clock's arithmetic): negative ones (servers have been seen to send them)
/// and NaN mean none, absurdly long ones mean no end, [`Duration::MAX`].
pub fn duration(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds).unwrap_or(if seconds > 0.0 {
        Duration::MAX
    } else {
        Duration::ZERO
    })
}

/// A switch: `1`, `true` or `on` is on, `0`, `false` or `off` is off, in any case (GoGui's
/// check boxes send 1 and 0, KataGo-style options say true and false, people say on and
/// off); blanks around it are ignored. `None` for anything else.
pub fn on_off(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    }
}

/// A knob left to the network until it is set (`auto` on the command line and in
/// `hoshi-param`): the knob is declared once, in the parameters of the layer that reads it,
/// and the setup settles it for the network it plays with (`setup::Tuning::settled`). The
/// layer reads the value set, else the setup's settlement, else `T`'s meaning without a
/// network ([`Auto::or`]).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Auto<T>(pub Option<T>);

impl<T: Copy> Auto<T> {
    /// The value set, else `auto`'s.
    pub fn or(self, auto: T) -> T {
        self.0.unwrap_or(auto)
    }

    /// The knob as set, or `auto` settled to `value`.
    pub fn settled(self, value: T) -> Auto<T> {
        Auto(Some(self.or(value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_decimal_finite_and_not_negative() {
        let ms = Duration::from_millis;
        assert_eq!(seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(seconds("1.5"), Ok(ms(1500)));
        assert_eq!(seconds(" .25 "), Ok(ms(250)));
        assert_eq!(seconds("1e3"), Ok(Duration::from_secs(1000)));
        assert_eq!(seconds("0"), Ok(Duration::ZERO));
        assert_eq!(seconds("1e300"), Ok(Duration::MAX));
        let bad = Err(BadSeconds { zero_allowed: true });
        for text in ["-1", "-0.5", "inf", "NaN", "soon", "1m", "", "1,5"] {
            assert_eq!(seconds(text), bad, "{text:?}");
        }
        assert_eq!(positive_seconds("0.001"), Ok(ms(1)));
        let bad = Err(BadSeconds {
            zero_allowed: false,
        });
        for text in ["0", "-1", "inf", "soon"] {
            assert_eq!(positive_seconds(text), bad, "{text:?}");
        }
        assert_eq!(
            seconds("x").map_err(|e| e.to_string()),
            Err("expected a number of seconds, 0 or more".to_string())
        );
        assert_eq!(
            positive_seconds("0").map_err(|e| e.to_string()),
            Err("expected a number of seconds above 0".to_string())
        );
    }

    #[test]
    fn numbers_of_seconds_saturate() {
        assert_eq!(duration(-3.0), Duration::ZERO);
        assert_eq!(duration(f64::NAN), Duration::ZERO);
        assert_eq!(duration(1e300), Duration::MAX);
        assert_eq!(duration(0.5), Duration::from_millis(500));
    }

    #[test]
    fn switches_read_in_any_case() {
        for on in ["1", "true", "on", "TRUE", "On", " on "] {
            assert_eq!(on_off(on), Some(true), "{on:?}");
        }
        for off in ["0", "false", "off", "False", "OFF"] {
            assert_eq!(on_off(off), Some(false), "{off:?}");
        }
        for neither in ["yes", "2", "", "o"] {
            assert_eq!(on_off(neither), None, "{neither:?}");
        }
    }
}
