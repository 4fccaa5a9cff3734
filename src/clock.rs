//! Time control as the controller announces it: the system (`time_settings`,
//! `kgs-time_settings`) and the time each player has left (`time_left`), and the thinking
//! time a move may take under it.

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

/// Seconds kept back on every move for network lag and process start-up.
pub const LAG: f64 = 0.5;

/// Share of the remaining time a move may take at most, so that a long search can never
/// spend everything at once.
const MAX_SHARE: f64 = 0.25;

impl Clock {
    /// Seconds `color` may think on its next move, on a board of `area` points of which
    /// `empties` are empty; `None` when there is no limit (or nothing known about one).
    ///
    /// Main time is shared among the moves still to come, estimated as half the empty
    /// points beyond a fifth of the board, never fewer than a tenth of the board: early
    /// moves get less than the middle game, where the game is decided, and the endgame
    /// keeps a reserve. In byo-yomi a move takes 80% of its period (Japanese) or its share
    /// of the period's stones (Canadian). Always less [`LAG`], never below zero.
    pub fn budget(&self, color: crate::coord::Color, area: usize, empties: usize) -> Option<f64> {
        let left = self.left[color.index()];
        let in_main = left.is_none_or(|l| l.stones == 0);
        let main_share = |main: f64| {
            let t = left.map_or(main, |l| l.seconds);
            let moves = ((empties as f64 - area as f64 / 5.0) / 2.0)
                .max(area as f64 / 10.0)
                .max(1.0);
            (t / moves).min(t * MAX_SHARE)
        };
        let seconds = match self.control {
            TimeControl::Unlimited => return None,
            TimeControl::Absolute { main } => main_share(main),
            TimeControl::Byoyomi { main, period, .. } => {
                let overtime = 0.8 * period;
                if in_main && left.map_or(main, |l| l.seconds) > 0.0 {
                    main_share(main).max(overtime)
                } else {
                    overtime
                }
            }
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => {
                let overtime = match left {
                    Some(l) if !in_main => 0.9 * l.seconds / f64::from(l.stones.max(1)),
                    _ => 0.9 * period / f64::from(stones.max(1)),
                };
                if in_main && left.map_or(main, |l| l.seconds) > 0.0 {
                    main_share(main).max(overtime)
                } else {
                    overtime
                }
            }
        };
        Some((seconds - LAG).max(0.0))
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

    fn clock(control: TimeControl, left: Option<(f64, u32)>) -> Clock {
        let mut clock = Clock::default();
        clock.set_control(control);
        if let Some((seconds, stones)) = left {
            clock.set_left(crate::coord::Color::Black, seconds, stones);
        }
        clock
    }

    fn budget(clock: &Clock, empties: usize) -> Option<f64> {
        clock.budget(crate::coord::Color::Black, 81, empties)
    }

    #[test]
    fn sudden_death_is_shared_among_the_moves_to_come() {
        // 60 s for a 9x9 game: (81 - 16.2) / 2 = 32.4 moves to come on the empty board.
        let c = clock(TimeControl::Absolute { main: 60.0 }, None);
        let first = budget(&c, 81).unwrap();
        assert!((first - (60.0 / 32.4 - LAG)).abs() < 1e-9, "{first}");
        // Late in the game, fewer moves to come but never fewer than 8.1.
        let c = clock(TimeControl::Absolute { main: 60.0 }, Some((20.0, 0)));
        assert!((budget(&c, 10).unwrap() - (20.0 / 8.1 - LAG)).abs() < 1e-9);
        // A quarter of what is left at most, and nothing below zero.
        let c = clock(TimeControl::Absolute { main: 60.0 }, Some((0.3, 0)));
        assert_eq!(budget(&c, 81), Some(0.0));
        let c = clock(TimeControl::Absolute { main: 60.0 }, Some((-4.0, 0)));
        assert_eq!(budget(&c, 81), Some(0.0));
        assert_eq!(budget(&Clock::default(), 81), None);
    }

    #[test]
    fn byoyomi_periods_protect_and_canadian_stones_share() {
        let japanese = TimeControl::Byoyomi {
            main: 0.0,
            period: 10.0,
            periods: 5,
        };
        // KGS: in byo-yomi, time_left gives the period's seconds and the periods left.
        let c = clock(japanese, Some((10.0, 5)));
        assert_eq!(budget(&c, 50), Some(8.0 - LAG));
        let canadian = TimeControl::Canadian {
            main: 0.0,
            period: 300.0,
            stones: 25,
        };
        let c = clock(canadian, Some((120.0, 10)));
        assert!((budget(&c, 50).unwrap() - (0.9 * 12.0 - LAG)).abs() < 1e-9);
        // Still in main time: at least what the byo-yomi would give.
        let c = clock(
            TimeControl::Canadian {
                main: 30.0,
                period: 300.0,
                stones: 25,
            },
            Some((30.0, 0)),
        );
        assert!((budget(&c, 81).unwrap() - (0.9 * 12.0 - LAG)).abs() < 1e-9);
        // Fractional time left.
        let c = clock(TimeControl::Absolute { main: 100.0 }, Some((95.5, 0)));
        assert!((budget(&c, 81).unwrap() - (95.5 / 32.4 - LAG)).abs() < 1e-9);
    }
}
