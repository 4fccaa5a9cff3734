//! Time control: the system the controller announces (`time_settings`,
//! `kgs-time_settings`), each player's clock as the engine reckons it from the time its
//! own moves take (corrected by `time_left` whenever one comes), and the thinking time a
//! move may take under it.
//!
//! The engine keeps its own clock because many controllers announce a time system and
//! then never say what is left (gogui-twogtp, Sabaki's initial commands): an engine that
//! only listened to `time_left` would think as if its main time were always full and lose
//! on time. [`Clock`] is a plain value: the engine passes in the seconds each move took,
//! so tests can feed it any elapsed times they like.

use crate::coord::Color;
use std::fmt;

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
        if period > 0.0 && stones == 0 {
            TimeControl::Unlimited
        } else {
            TimeControl::canadian(main, period, stones)
        }
    }

    /// Japanese byo-yomi; without periods (or with empty ones) it is sudden death.
    pub fn byoyomi(main: f64, period: f64, periods: u32) -> TimeControl {
        if period > 0.0 && periods > 0 {
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            }
        } else {
            TimeControl::Absolute { main }
        }
    }

    /// Canadian byo-yomi; without a period (or stones to play in it) it is sudden death.
    pub fn canadian(main: f64, period: f64, stones: u32) -> TimeControl {
        if period > 0.0 && stones > 0 {
            TimeControl::Canadian {
                main,
                period,
                stones,
            }
        } else {
            TimeControl::Absolute { main }
        }
    }

    /// The arguments of GTP `time_settings` for this system (main time, byo-yomi time,
    /// stones), which knows only Canadian byo-yomi: Japanese byo-yomi is told as a
    /// Canadian period of one stone. `None` without a limit.
    pub fn to_gtp(self) -> Option<(f64, f64, u32)> {
        match self {
            TimeControl::Unlimited => None,
            TimeControl::Absolute { main } => Some((main, 0.0, 0)),
            TimeControl::Byoyomi { main, period, .. } => Some((main, period, 1)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => Some((main, period, stones)),
        }
    }

    /// The overtime after main time: the period's seconds and its count (Japanese periods,
    /// or Canadian stones); `None` for systems without one.
    fn overtime(self) -> Option<(f64, u32)> {
        match self {
            TimeControl::Byoyomi {
                period, periods, ..
            } => Some((period, periods)),
            TimeControl::Canadian { period, stones, .. } => Some((period, stones)),
            TimeControl::Unlimited | TimeControl::Absolute { .. } => None,
        }
    }

    /// What a player has at the start of a game: the main time, or straight away the first
    /// period when there is no main time.
    fn start(self) -> TimeLeft {
        let main = match self {
            TimeControl::Unlimited => return TimeLeft::MAIN_OUT,
            TimeControl::Absolute { main }
            | TimeControl::Byoyomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        };
        match self.overtime() {
            Some((period, count)) if main <= 0.0 => TimeLeft {
                seconds: period,
                stones: count,
            },
            _ => TimeLeft {
                seconds: main,
                stones: 0,
            },
        }
    }

    /// The clock of a player who had `left` and took `used` seconds for a move. Main time
    /// that runs out during the move passes into the overtime with what remains of the move.
    fn after(self, left: TimeLeft, used: f64) -> TimeLeft {
        if self == TimeControl::Unlimited {
            return left;
        }
        let Some((period, count)) = self.overtime() else {
            return TimeLeft {
                seconds: (left.seconds - used).max(0.0),
                stones: 0,
            };
        };
        if left.in_main() {
            if used <= left.seconds {
                return TimeLeft {
                    seconds: left.seconds - used,
                    stones: 0,
                };
            }
            let overtime = TimeLeft {
                seconds: period,
                stones: count,
            };
            return self.after(overtime, used - left.seconds);
        }
        match self {
            TimeControl::Byoyomi { .. } => {
                // Every full period the move took is lost; the next move starts a fresh
                // one. The last period is never given up in the reckoning: a controller
                // that lets the game go on is the judge of a loss on time.
                let lost = (used / left.seconds.max(f64::MIN_POSITIVE)).floor();
                let kept = (f64::from(left.stones) - lost).max(1.0) as u32;
                TimeLeft {
                    seconds: period,
                    stones: kept,
                }
            }
            _ if left.stones <= 1 => TimeLeft {
                seconds: period,
                stones: count,
            },
            _ => TimeLeft {
                seconds: (left.seconds - used).max(0.0),
                stones: left.stones - 1,
            },
        }
    }
}

/// One player's clock, in `time_left`'s terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLeft {
    /// Seconds left in main time or in the current byo-yomi period (never negative: servers
    /// have been seen to send negative values, which mean "none left").
    pub seconds: f64,
    /// Moves left to play in the current Canadian period, or byo-yomi periods left under
    /// KGS's Japanese byo-yomi; 0 while in main time.
    pub stones: u32,
}

impl TimeLeft {
    const MAIN_OUT: TimeLeft = TimeLeft {
        seconds: 0.0,
        stones: 0,
    };

    fn in_main(self) -> bool {
        self.stones == 0
    }
}

/// As `hoshi-time_left` answers it: seconds (to the millisecond) and stones.
impl fmt::Display for TimeLeft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3} {}", self.seconds, self.stones)
    }
}

/// The time system and both players' clocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    /// Black's and White's clocks: the engine's own reckoning, replaced by `time_left`
    /// whenever one comes (the controller's clock is the one that counts).
    left: [TimeLeft; 2],
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new(TimeControl::Unlimited)
    }
}

/// Seconds of every main time kept back for lag (network, process scheduling) that the
/// engine cannot see: a move never plans to use them.
pub const LAG: f64 = 0.5;

/// Seconds kept back for each move still to come, for the engine's own work around the
/// search (answering, starting threads, re-rooting the tree): when main time is nearly
/// gone moves are answered at once, and these cover them.
pub const PER_MOVE: f64 = 0.02;

/// Share of a byo-yomi period a move takes: the rest absorbs lag and the engine's work.
const PERIOD_SHARE: f64 = 0.8;

/// Share of a Canadian period's time per stone a move takes.
const CANADIAN_SHARE: f64 = 0.9;

/// Share of the usable time a move may take at most, so that a long search can never
/// spend everything at once.
const MAX_SHARE: f64 = 0.25;

/// The longest a move plans to think whatever the clock: an hour, long after the search
/// tree has filled its memory, so that absurd clocks (`time_settings 1e300 0 0`) still
/// get answers.
pub const MAX_MOVE: f64 = 3600.0;

impl Clock {
    /// A clock under `control` at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.start(); 2],
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// What `color` has left, as far as the engine knows.
    pub fn left(&self, color: Color) -> TimeLeft {
        self.left[color.index()]
    }

    /// A new time system: both players start it afresh.
    pub fn set_control(&mut self, control: TimeControl) {
        *self = Clock::new(control);
    }

    /// A new game under the same system: full time for both players.
    pub fn restart(&mut self) {
        self.set_control(self.control);
    }

    /// `time_left`: the controller's word replaces the engine's reckoning. Negative times
    /// count as none left; stones mean nothing in a system without overtime.
    pub fn set_left(&mut self, color: Color, seconds: f64, stones: u32) {
        let stones = if self.control.overtime().is_some() {
            stones
        } else {
            0
        };
        self.left[color.index()] = TimeLeft {
            seconds: seconds.max(0.0),
            stones,
        };
    }

    /// Charges `color` for a move that took `seconds`.
    pub fn spend(&mut self, color: Color, seconds: f64) {
        let used = if seconds.is_finite() {
            seconds.max(0.0)
        } else {
            0.0
        };
        let left = &mut self.left[color.index()];
        *left = self.control.after(*left, used);
    }

    /// Seconds `color` may think on its next move, on a board of `area` points of which
    /// `empties` are empty; `None` when there is no limit.
    ///
    /// In main time a move takes its share of what is left (see [`main_share`]), or what
    /// the overtime would give it when that is more (thinking into the overtime costs
    /// nothing then). In Japanese byo-yomi a move takes 80% of its period less [`LAG`], in
    /// Canadian 90% of its share of the period's stones less [`LAG`], so that no period is
    /// ever lost to thinking.
    pub fn budget(&self, color: Color, area: usize, empties: usize) -> Option<f64> {
        if self.control == TimeControl::Unlimited {
            return None;
        }
        let left = self.left(color);
        let overtime = self.overtime_budget(left);
        let seconds = if left.in_main() && left.seconds > 0.0 {
            main_share(left.seconds, area, empties).max(overtime.unwrap_or(0.0))
        } else {
            overtime.unwrap_or(0.0)
        };
        Some(seconds.min(MAX_MOVE))
    }

    /// What a move in overtime may take, for the period `left` is in (or the first one,
    /// while in main time); `None` without overtime.
    fn overtime_budget(&self, left: TimeLeft) -> Option<f64> {
        let (period, count) = self.control.overtime()?;
        let (seconds, stones) = if left.in_main() {
            (period, count)
        } else {
            (left.seconds, left.stones)
        };
        let share = match self.control {
            TimeControl::Byoyomi { .. } => PERIOD_SHARE * seconds,
            _ => CANADIAN_SHARE * seconds / f64::from(stones.max(1)),
        };
        Some((share - LAG).max(0.0))
    }

    /// The longest `color`'s next move may take before its time is up (the flag falls):
    /// main time and every overtime period that is left; `None` when there is no limit.
    pub fn available(&self, color: Color) -> Option<f64> {
        let left = self.left(color);
        let (period, count) = match self.control {
            TimeControl::Unlimited => return None,
            TimeControl::Absolute { .. } => return Some(left.seconds),
            TimeControl::Byoyomi {
                period, periods, ..
            } => (period, periods),
            // A Canadian period ends only when its stones are played: one move may take it
            // all.
            TimeControl::Canadian { period, .. } => (period, 1),
        };
        Some(if left.in_main() {
            left.seconds + period * f64::from(count)
        } else if matches!(self.control, TimeControl::Byoyomi { .. }) {
            left.seconds + period * f64::from(left.stones.saturating_sub(1))
        } else {
            left.seconds
        })
    }

    /// The longest `color`'s next move may take without losing on time (or a byo-yomi
    /// period): a ceiling for budgets set on the command line (`--time`). `None` when
    /// there is no limit.
    pub fn ceiling(&self, color: Color, area: usize, empties: usize) -> Option<f64> {
        let left = self.left(color);
        let main = if left.in_main() {
            (left.seconds - LAG).max(0.0)
        } else {
            0.0
        };
        let budget = self.budget(color, area, empties)?;
        Some(budget.max(main + self.overtime_budget(left).unwrap_or(0.0)))
    }
}

/// Moves `color` still has to play, estimated from the empty points: half of those beyond
/// a fifth of the board (the rest stays empty or is filled by captures), never fewer than
/// a tenth of the board, so that the endgame always keeps a reserve.
pub fn moves_to_come(area: usize, empties: usize) -> usize {
    let (area, empties) = (area as f64, empties as f64);
    ((empties - area / 5.0) / 2.0)
        .max(area / 10.0)
        .max(1.0)
        .ceil() as usize
}

/// How much thought a move deserves at a stage of the game, by the share of the board
/// still empty: the middle game, where games are decided, gets three times the opening
/// (known shapes, little to read) and half again the endgame (small, local fights).
fn weight(empty_share: f64) -> f64 {
    if empty_share > 0.9 {
        0.5
    } else if empty_share > 0.4 {
        1.5
    } else {
        1.0
    }
}

/// A move's share of the `seconds` of main time left, on a board of `area` points of which
/// `empties` are empty: what is left once [`LAG`] and [`PER_MOVE`] for every move to
/// come are kept back, shared among the moves to come in proportion to their
/// [`weight`] (each of them is expected to fill two points, with the opponent's reply),
/// and never more than [`MAX_SHARE`] of it.
pub fn main_share(seconds: f64, area: usize, empties: usize) -> f64 {
    let moves = moves_to_come(area, empties);
    let usable = seconds - LAG - PER_MOVE * moves as f64;
    if usable <= 0.0 {
        return 0.0;
    }
    let stage = |move_ahead: usize| {
        let empty = empties.saturating_sub(2 * move_ahead);
        weight(empty as f64 / area.max(1) as f64)
    };
    let total: f64 = (0..moves).map(stage).sum();
    (usable * stage(0) / total).min(usable * MAX_SHARE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn close(actual: Option<f64>, expected: f64) -> bool {
        actual.is_some_and(|a| (a - expected).abs() < 1e-9)
    }

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
        assert_eq!(
            TimeControl::byoyomi(60.0, 30.0, 0),
            TimeControl::Absolute { main: 60.0 }
        );
    }

    #[test]
    fn the_board_tells_the_moves_to_come_and_their_weights() {
        // 9x9: (81 - 16.2) / 2 = 32.4 moves, rounded up; at least 8.1, rounded up.
        assert_eq!(moves_to_come(81, 81), 33);
        assert_eq!(moves_to_come(81, 10), 9);
        assert_eq!(moves_to_come(361, 361), 145);
        // 9x9 from the empty board: 5 opening moves (81..73 empty), 20 middle-game moves
        // (71..33), 8 endgame moves: weights 2.5 + 30 + 8 = 40.5.
        let usable = 60.0 - LAG - PER_MOVE * 33.0;
        assert!((main_share(60.0, 81, 81) - usable * 0.5 / 40.5).abs() < 1e-9);
        // The middle game gets three times as much.
        let usable = 60.0 - LAG - PER_MOVE * 23.0;
        let middle = main_share(60.0, 81, 61);
        assert!((middle - usable * 1.5 / (15.0 * 1.5 + 8.0)).abs() < 1e-9);
        // Nothing to share once the reserve is reached.
        assert_eq!(main_share(1.0, 81, 81), 0.0);
        // A quarter of the usable time at most.
        assert!((main_share(100.0, 4, 1) - (100.0 - LAG - PER_MOVE) * MAX_SHARE).abs() < 1e-9);
    }

    #[test]
    fn negative_time_left_means_none() {
        let mut clock = Clock::new(TimeControl::Absolute { main: 60.0 });
        clock.set_left(White, -3.0, 0);
        assert_eq!(clock.left(White).seconds, 0.0);
        assert_eq!(clock.budget(White, 81, 81), Some(0.0));
        assert_eq!(clock.left(Black).seconds, 60.0);
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(Clock::default().budget(Black, 81, 81), None);
        assert_eq!(Clock::default().ceiling(Black, 81, 81), None);
    }

    #[test]
    fn sudden_death_runs_down_with_the_moves() {
        let mut clock = Clock::new(TimeControl::Absolute { main: 10.0 });
        clock.spend(Black, 2.5);
        clock.spend(Black, 0.25);
        assert_eq!(clock.left(Black).to_string(), "7.250 0");
        assert_eq!(clock.left(White).to_string(), "10.000 0");
        assert!(close(clock.budget(Black, 81, 81), main_share(7.25, 81, 81)));
        clock.spend(Black, 9.0);
        assert_eq!(clock.left(Black).to_string(), "0.000 0");
        assert_eq!(clock.budget(Black, 81, 81), Some(0.0));
        // The controller's word wins, fractions included.
        clock.set_left(Black, 3.75, 4);
        assert_eq!(clock.left(Black).to_string(), "3.750 0");
        clock.restart();
        assert_eq!(clock.left(Black).to_string(), "10.000 0");
    }

    #[test]
    fn main_time_runs_into_japanese_periods() {
        let mut clock = Clock::new(TimeControl::byoyomi(5.0, 10.0, 3));
        // In main time with 5 s left: the overtime's 7.5 s is more than the share.
        assert!(close(clock.budget(Black, 81, 81), 7.5));
        clock.spend(Black, 7.0);
        assert_eq!(clock.left(Black).to_string(), "10.000 3");
        clock.spend(Black, 9.9);
        assert_eq!(clock.left(Black).to_string(), "10.000 3");
        clock.spend(Black, 10.5);
        assert_eq!(clock.left(Black).to_string(), "10.000 2");
        clock.spend(Black, 25.0);
        assert_eq!(
            clock.left(Black).to_string(),
            "10.000 1",
            "the last period stays"
        );
        assert!(close(clock.budget(Black, 81, 30), 7.5));
        // KGS: time_left in byo-yomi gives the period's seconds and the periods left.
        clock.set_left(Black, 4.0, 2);
        assert!(close(clock.budget(Black, 81, 30), 0.8 * 4.0 - LAG));
        clock.set_left(Black, 0.4, 1);
        assert_eq!(clock.budget(Black, 81, 30), Some(0.0));
        // Main time left is a plain share when it is the larger.
        clock.set_left(Black, 3000.0, 0);
        assert!(close(
            clock.budget(Black, 81, 81),
            main_share(3000.0, 81, 81)
        ));
    }

    #[test]
    fn no_main_time_starts_in_the_overtime() {
        let clock = Clock::new(TimeControl::byoyomi(0.0, 30.0, 5));
        assert_eq!(clock.left(White).to_string(), "30.000 5");
        assert!(close(clock.budget(White, 361, 300), 23.5));
        let clock = Clock::new(TimeControl::canadian(0.0, 60.0, 10));
        assert_eq!(clock.left(White).to_string(), "60.000 10");
        assert!(close(clock.budget(White, 361, 300), 0.9 * 6.0 - LAG));
    }

    #[test]
    fn canadian_periods_count_their_stones() {
        let mut clock = Clock::new(TimeControl::canadian(1.0, 20.0, 3));
        clock.spend(White, 3.0);
        assert_eq!(clock.left(White).to_string(), "18.000 2");
        assert!(close(clock.budget(White, 81, 50), 0.9 * 9.0 - LAG));
        clock.spend(White, 5.5);
        assert_eq!(clock.left(White).to_string(), "12.500 1");
        clock.spend(White, 30.0);
        assert_eq!(clock.left(White).to_string(), "20.000 3", "a new period");
        clock.set_left(White, 120.0, 10);
        assert!(close(clock.budget(White, 81, 50), 0.9 * 12.0 - LAG));
        // Overrun seconds count as none.
        clock.set_left(White, 2.0, 3);
        clock.spend(White, 2.5);
        assert_eq!(clock.left(White).to_string(), "0.000 2");
        assert_eq!(clock.budget(White, 81, 50), Some(0.0));
    }

    #[test]
    fn the_ceiling_is_all_the_time_that_does_not_lose() {
        let clock = Clock::new(TimeControl::Absolute { main: 10.0 });
        assert!(close(clock.ceiling(Black, 81, 81), 9.5));
        let clock = Clock::new(TimeControl::byoyomi(10.0, 30.0, 3));
        assert!(close(clock.ceiling(Black, 81, 81), 9.5 + 23.5));
        let mut clock = Clock::new(TimeControl::Absolute { main: 10.0 });
        clock.spend(Black, 10.0);
        assert_eq!(clock.ceiling(Black, 81, 81), Some(0.0));
    }

    #[test]
    fn the_flag_falls_when_every_period_is_gone() {
        let mut clock = Clock::new(TimeControl::byoyomi(10.0, 5.0, 3));
        assert_eq!(clock.available(Black), Some(25.0));
        clock.spend(Black, 12.0);
        assert_eq!(clock.available(Black), Some(15.0));
        let mut clock = Clock::new(TimeControl::canadian(10.0, 30.0, 5));
        assert_eq!(clock.available(White), Some(40.0));
        clock.spend(White, 12.0);
        assert_eq!(clock.available(White), Some(28.0));
        let clock = Clock::new(TimeControl::Absolute { main: 7.5 });
        assert_eq!(clock.available(White), Some(7.5));
        assert_eq!(Clock::default().available(White), None);
        assert_eq!(
            TimeControl::byoyomi(60.0, 10.0, 3).to_gtp(),
            Some((60.0, 10.0, 1))
        );
    }

    #[test]
    fn absurd_clocks_still_get_answers() {
        let clock = Clock::new(TimeControl::Absolute { main: 1e300 });
        assert_eq!(clock.budget(Black, 81, 81), Some(MAX_MOVE));
        let clock = Clock::new(TimeControl::byoyomi(0.0, 1e300, 1));
        assert_eq!(clock.budget(Black, 81, 81), Some(MAX_MOVE));
    }

    #[test]
    fn strange_elapsed_times_cost_nothing() {
        let mut clock = Clock::new(TimeControl::Absolute { main: 10.0 });
        clock.spend(Black, f64::NAN);
        clock.spend(Black, -4.0);
        clock.spend(Black, f64::INFINITY);
        assert_eq!(clock.left(Black).to_string(), "10.000 0");
    }
}
