//! Time control as the controller announces it: the system (`time_settings`,
//! `kgs-time_settings`) and the time each player has left (`time_left`). This module only
//! stores and validates those values; turning them into a budget per move is the search's job.

/// A time system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No limit: the engine uses its own default budget.
    Unlimited,
    /// Sudden death: `main` seconds for the whole game.
    Absolute { main: f64 },
    /// Japanese byo-yomi: after main time, `periods` periods of `period` seconds; a period is
    /// only used up when a move takes longer than it.
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    /// Canadian byo-yomi: after main time, `stones` moves to play in every `period` seconds.
    Canadian { main: f64, period: f64, stones: u32 },
}

impl TimeControl {
    /// The reading of GTP `time_settings main byo_yomi_time byo_yomi_stones` (spec §6.4.1):
    /// no byo-yomi time means sudden death, byo-yomi time with zero stones means no limit.
    pub fn from_gtp(main: f64, period: f64, stones: u32) -> TimeControl {
        if period == 0.0 {
            TimeControl::Absolute { main }
        } else if stones == 0 {
            TimeControl::Unlimited
        } else {
            TimeControl::Canadian {
                main,
                period,
                stones,
            }
        }
    }
}

/// What `time_left` said about one player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLeft {
    /// Seconds left in main time or in the current byo-yomi period (never negative: servers
    /// have been seen to send negative values, which mean "none left").
    pub seconds: f64,
    /// Moves left to play in the current Canadian period, or byo-yomi periods left under
    /// KGS's Japanese byo-yomi; 0 while in main time.
    pub stones: u32,
}

/// Everything known about the time of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub control: TimeControl,
    /// The last `time_left` for Black and for White, if any came.
    pub left: [Option<TimeLeft>; 2],
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            control: TimeControl::Unlimited,
            left: [None; 2],
        }
    }
}

impl Clock {
    /// A new time system: what was known about the time left no longer applies.
    pub fn set_control(&mut self, control: TimeControl) {
        *self = Clock {
            control,
            left: [None; 2],
        };
    }

    pub fn set_left(&mut self, color: crate::coord::Color, seconds: f64, stones: u32) {
        self.left[color.index()] = Some(TimeLeft {
            seconds: seconds.max(0.0),
            stones,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_time_settings_follow_the_spec() {
        assert_eq!(
            TimeControl::from_gtp(600.0, 0.0, 0),
            TimeControl::Absolute { main: 600.0 }
        );
        assert_eq!(TimeControl::from_gtp(0.0, 30.0, 0), TimeControl::Unlimited);
        assert_eq!(
            TimeControl::from_gtp(60.0, 300.0, 25),
            TimeControl::Canadian {
                main: 60.0,
                period: 300.0,
                stones: 25
            }
        );
    }

    #[test]
    fn negative_time_left_means_none() {
        let mut clock = Clock::default();
        clock.set_left(crate::coord::Color::White, -3.0, 0);
        assert_eq!(clock.left[1].map(|t| t.seconds), Some(0.0));
    }
}
