//! Time control: the system the controller announces (`time_settings`,
//! `kgs-time_settings`), each player's clock as the engine reckons it from the time its
//! own moves take (corrected by `time_left` whenever one comes), and the thinking time a
//! move may take under it.
//!
//! The engine keeps its own clock because many controllers announce a time system and
//! then never say what is left (gogui-twogtp, Sabaki's initial commands): an engine that
//! only listened to `time_left` would think as if its main time were always full and lose
//! on time. [`Clock`] is a plain value: the engine passes in the time each move took,
//! so tests can feed it any elapsed times they like.
//!
//! Times are [`Duration`]s throughout; GTP's and the command line's numbers of seconds
//! become durations where they are read (see [`duration`]) and numbers again where they
//! are written.

use crate::coord::Color;
use crate::parse::duration;
use std::fmt;
use std::time::Duration;

/// A time system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No limit: the engine uses its own default budget.
    Unlimited,
    /// Sudden death: `main` for the whole game.
    Absolute { main: Duration },
    /// Japanese byo-yomi: after main time, `periods` periods of `period`; a period is only
    /// used up when a move takes longer than it.
    Byoyomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// Canadian byo-yomi: after main time, `stones` moves to play in every `period`.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
}

impl TimeControl {
    /// The reading of GTP `time_settings main byo_yomi_time byo_yomi_stones` (spec §6.4.1):
    /// no byo-yomi time means sudden death, byo-yomi time with zero stones means no limit.
    pub fn from_gtp(main: Duration, period: Duration, stones: u32) -> TimeControl {
        if !period.is_zero() && stones == 0 {
            TimeControl::Unlimited
        } else {
            TimeControl::canadian(main, period, stones)
        }
    }

    /// Japanese byo-yomi; without periods (or with empty ones) it is sudden death.
    pub fn byoyomi(main: Duration, period: Duration, periods: u32) -> TimeControl {
        if !period.is_zero() && periods > 0 {
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
    pub fn canadian(main: Duration, period: Duration, stones: u32) -> TimeControl {
        if !period.is_zero() && stones > 0 {
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
    pub fn to_gtp(self) -> Option<(Duration, Duration, u32)> {
        match self {
            TimeControl::Unlimited => None,
            TimeControl::Absolute { main } => Some((main, Duration::ZERO, 0)),
            TimeControl::Byoyomi { main, period, .. } => Some((main, period, 1)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => Some((main, period, stones)),
        }
    }

    /// The overtime after main time: the period and its count (Japanese periods, or
    /// Canadian stones); `None` for systems without one.
    fn overtime(self) -> Option<(Duration, u32)> {
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
            Some((period, count)) if main.is_zero() => TimeLeft {
                time: period,
                stones: count,
            },
            _ => TimeLeft {
                time: main,
                stones: 0,
            },
        }
    }

    /// The clock of a player who had `left` and took `used` for a move. Main time that
    /// runs out during the move passes into the overtime with what remains of the move.
    fn after(self, left: TimeLeft, used: Duration) -> TimeLeft {
        if self == TimeControl::Unlimited {
            return left;
        }
        let Some((period, count)) = self.overtime() else {
            return TimeLeft {
                time: left.time.saturating_sub(used),
                stones: 0,
            };
        };
        if left.in_main() {
            if used <= left.time {
                return TimeLeft {
                    time: left.time - used,
                    stones: 0,
                };
            }
            let overtime = TimeLeft {
                time: period,
                stones: count,
            };
            return self.after(overtime, used - left.time);
        }
        match self {
            TimeControl::Byoyomi { .. } => {
                // Every full period the move took is lost; the next move starts a fresh
                // one. The last period is never given up in the reckoning: a controller
                // that lets the game go on is the judge of a loss on time.
                let lost = used.as_nanos() / left.time.as_nanos().max(1);
                let kept = u128::from(left.stones).saturating_sub(lost).max(1);
                TimeLeft {
                    time: period,
                    stones: u32::try_from(kept).unwrap_or(1),
                }
            }
            _ if left.stones <= 1 => TimeLeft {
                time: period,
                stones: count,
            },
            _ => TimeLeft {
                time: left.time.saturating_sub(used),
                stones: left.stones - 1,
            },
        }
    }
}

/// One player's clock, in `time_left`'s terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Time left in main time or in the current byo-yomi period (never negative: servers
    /// have been seen to send negative values, which mean "none left").
    pub time: Duration,
    /// Moves left to play in the current Canadian period, or byo-yomi periods left under
    /// KGS's Japanese byo-yomi; 0 while in main time.
    pub stones: u32,
}

impl TimeLeft {
    const MAIN_OUT: TimeLeft = TimeLeft {
        time: Duration::ZERO,
        stones: 0,
    };

    fn in_main(self) -> bool {
        self.stones == 0
    }
}

/// As `hoshi-time_left` answers it: seconds (to the millisecond) and stones.
impl fmt::Display for TimeLeft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3} {}", self.time.as_secs_f64(), self.stones)
    }
}

/// The time system and both players' clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// Time of every main time kept back for lag (network, process scheduling) that the
/// engine cannot see: a move never plans to use it.
pub const LAG: Duration = Duration::from_millis(500);

/// Time kept back for each move still to come, for the engine's own work around the
/// search (answering, starting threads, re-rooting the tree): when main time is nearly
/// gone moves are answered at once, and this covers them.
pub const PER_MOVE: Duration = Duration::from_millis(20);

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
pub const MAX_MOVE: Duration = Duration::from_secs(3600);

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

    /// `time_left`: the controller's word replaces the engine's reckoning (negative times,
    /// which count as none left, are zero by now: see [`duration`]); stones mean nothing in
    /// a system without overtime.
    pub fn set_left(&mut self, color: Color, time: Duration, stones: u32) {
        let stones = if self.control.overtime().is_some() {
            stones
        } else {
            0
        };
        self.left[color.index()] = TimeLeft { time, stones };
    }

    /// Charges `color` for a move that took `used`.
    pub fn spend(&mut self, color: Color, used: Duration) {
        let left = &mut self.left[color.index()];
        *left = self.control.after(*left, used);
    }

    /// The time `color` may think on its next move, on a board of `area` points of which
    /// `empties` are empty; `None` when there is no limit.
    ///
    /// In main time a move takes its share of what is left (see [`main_share`]), or what
    /// the overtime would give it when that is more (thinking into the overtime costs
    /// nothing then). In Japanese byo-yomi a move takes 80% of its period less [`LAG`], in
    /// Canadian 90% of its share of the period's stones less [`LAG`], so that no period is
    /// ever lost to thinking. Never more than [`MAX_MOVE`].
    pub fn budget(&self, color: Color, area: usize, empties: usize) -> Option<Duration> {
        if self.control == TimeControl::Unlimited {
            return None;
        }
        let left = self.left(color);
        let overtime = self.overtime_budget(left).unwrap_or(Duration::ZERO);
        let time = if left.in_main() && !left.time.is_zero() {
            main_share(left.time, area, empties).max(overtime)
        } else {
            overtime
        };
        Some(time.min(MAX_MOVE))
    }

    /// What a move in overtime may take, for the period `left` is in (or the first one,
    /// while in main time); `None` without overtime.
    fn overtime_budget(&self, left: TimeLeft) -> Option<Duration> {
        let (period, count) = self.control.overtime()?;
        let (time, stones) = if left.in_main() {
            (period, count)
        } else {
            (left.time, left.stones)
        };
        let seconds = time.as_secs_f64();
        let share = match self.control {
            TimeControl::Byoyomi { .. } => PERIOD_SHARE * seconds,
            _ => CANADIAN_SHARE * seconds / f64::from(stones.max(1)),
        };
        Some(duration(share).saturating_sub(LAG))
    }

    /// The longest `color`'s next move may take before its time is up (the flag falls):
    /// main time and every overtime period that is left; `None` when there is no limit.
    pub fn available(&self, color: Color) -> Option<Duration> {
        let left = self.left(color);
        let (period, count) = match self.control {
            TimeControl::Unlimited => return None,
            TimeControl::Absolute { .. } => return Some(left.time),
            TimeControl::Byoyomi {
                period, periods, ..
            } => (period, periods),
            // A Canadian period ends only when its stones are played: one move may take it
            // all.
            TimeControl::Canadian { period, .. } => (period, 1),
        };
        let periods = if left.in_main() {
            count
        } else if matches!(self.control, TimeControl::Byoyomi { .. }) {
            left.stones.saturating_sub(1)
        } else {
            0
        };
        Some(left.time.saturating_add(period.saturating_mul(periods)))
    }

    /// The longest `color`'s next move may take without losing on time (or a byo-yomi
    /// period): a ceiling for budgets set on the command line (`--time`). `None` when
    /// there is no limit.
    pub fn ceiling(&self, color: Color, area: usize, empties: usize) -> Option<Duration> {
        let left = self.left(color);
        let main = if left.in_main() {
            left.time.saturating_sub(LAG)
        } else {
            Duration::ZERO
        };
        let budget = self.budget(color, area, empties)?;
        let overtime = self.overtime_budget(left).unwrap_or(Duration::ZERO);
        Some(budget.max(main.saturating_add(overtime)))
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

/// A move's share of the main time `left`, on a board of `area` points of which
/// `empties` are empty: what is left once [`LAG`] and [`PER_MOVE`] for every move to
/// come are kept back, shared among the moves to come in proportion to their
/// [`weight`] (each of them is expected to fill two points, with the opponent's reply),
/// and never more than [`MAX_SHARE`] of it.
pub fn main_share(left: Duration, area: usize, empties: usize) -> Duration {
    let moves = moves_to_come(area, empties);
    let reserve = PER_MOVE.saturating_mul(u32::try_from(moves).unwrap_or(u32::MAX));
    let usable = left.saturating_sub(LAG).saturating_sub(reserve);
    if usable.is_zero() {
        return Duration::ZERO;
    }
    let stage = |move_ahead: usize| {
        let empty = empties.saturating_sub(2 * move_ahead);
        weight(empty as f64 / area.max(1) as f64)
    };
    let total: f64 = (0..moves).map(stage).sum();
    let usable = usable.as_secs_f64();
    duration(usable * stage(0) / total).min(duration(usable * MAX_SHARE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    /// `seconds` as a duration, read as GTP's numbers are.
    fn s(seconds: f64) -> Duration {
        duration(seconds)
    }

    const NONE: Option<Duration> = Some(Duration::ZERO);

    /// Whether a time is `expected` seconds, to the nanosecond (durations round to it).
    fn close(actual: Option<Duration>, expected: f64) -> bool {
        actual.is_some_and(|a| (a.as_secs_f64() - expected).abs() < 1e-8)
    }

    #[test]
    fn gtp_time_settings_follow_the_spec() {
        assert_eq!(
            TimeControl::from_gtp(s(600.0), s(0.0), 0),
            TimeControl::Absolute { main: s(600.0) }
        );
        assert_eq!(
            TimeControl::from_gtp(s(0.0), s(30.0), 0),
            TimeControl::Unlimited
        );
        assert_eq!(
            TimeControl::from_gtp(s(60.0), s(300.0), 25),
            TimeControl::Canadian {
                main: s(60.0),
                period: s(300.0),
                stones: 25
            }
        );
        assert_eq!(
            TimeControl::byoyomi(s(60.0), s(30.0), 0),
            TimeControl::Absolute { main: s(60.0) }
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
        let (lag, per_move) = (LAG.as_secs_f64(), PER_MOVE.as_secs_f64());
        let usable = 60.0 - lag - per_move * 33.0;
        assert!(close(
            Some(main_share(s(60.0), 81, 81)),
            usable * 0.5 / 40.5
        ));
        // The middle game gets three times as much.
        let usable = 60.0 - lag - per_move * 23.0;
        let middle = main_share(s(60.0), 81, 61);
        assert!(close(Some(middle), usable * 1.5 / (15.0 * 1.5 + 8.0)));
        // Nothing to share once the reserve is reached.
        assert_eq!(main_share(s(1.0), 81, 81), Duration::ZERO);
        // A quarter of the usable time at most.
        let most = (100.0 - lag - per_move) * MAX_SHARE;
        assert!(close(Some(main_share(s(100.0), 4, 1)), most));
    }

    #[test]
    fn negative_time_left_means_none() {
        let mut clock = Clock::new(TimeControl::Absolute { main: s(60.0) });
        clock.set_left(White, s(-3.0), 0);
        assert_eq!(clock.left(White).time, Duration::ZERO);
        assert_eq!(clock.budget(White, 81, 81), NONE);
        assert_eq!(clock.left(Black).time, s(60.0));
        assert_eq!(s(f64::NAN), Duration::ZERO);
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(Clock::default().budget(Black, 81, 81), None);
        assert_eq!(Clock::default().ceiling(Black, 81, 81), None);
    }

    #[test]
    fn sudden_death_runs_down_with_the_moves() {
        let mut clock = Clock::new(TimeControl::Absolute { main: s(10.0) });
        clock.spend(Black, s(2.5));
        clock.spend(Black, s(0.25));
        assert_eq!(clock.left(Black).to_string(), "7.250 0");
        assert_eq!(clock.left(White).to_string(), "10.000 0");
        assert!(close(
            clock.budget(Black, 81, 81),
            main_share(s(7.25), 81, 81).as_secs_f64()
        ));
        clock.spend(Black, s(9.0));
        assert_eq!(clock.left(Black).to_string(), "0.000 0");
        assert_eq!(clock.budget(Black, 81, 81), NONE);
        // The controller's word wins, fractions included.
        clock.set_left(Black, s(3.75), 4);
        assert_eq!(clock.left(Black).to_string(), "3.750 0");
        clock.restart();
        assert_eq!(clock.left(Black).to_string(), "10.000 0");
    }

    #[test]
    fn main_time_runs_into_japanese_periods() {
        let mut clock = Clock::new(TimeControl::byoyomi(s(5.0), s(10.0), 3));
        // In main time with 5 s left: the overtime's 7.5 s is more than the share.
        assert!(close(clock.budget(Black, 81, 81), 7.5));
        clock.spend(Black, s(7.0));
        assert_eq!(clock.left(Black).to_string(), "10.000 3");
        clock.spend(Black, s(9.9));
        assert_eq!(clock.left(Black).to_string(), "10.000 3");
        clock.spend(Black, s(10.5));
        assert_eq!(clock.left(Black).to_string(), "10.000 2");
        clock.spend(Black, s(25.0));
        assert_eq!(
            clock.left(Black).to_string(),
            "10.000 1",
            "the last period stays"
        );
        assert!(close(clock.budget(Black, 81, 30), 7.5));
        // KGS: time_left in byo-yomi gives the period's seconds and the periods left.
        clock.set_left(Black, s(4.0), 2);
        assert!(close(clock.budget(Black, 81, 30), 0.8 * 4.0 - 0.5));
        clock.set_left(Black, s(0.4), 1);
        assert_eq!(clock.budget(Black, 81, 30), NONE);
        // Main time left is a plain share when it is the larger.
        clock.set_left(Black, s(3000.0), 0);
        assert!(close(
            clock.budget(Black, 81, 81),
            main_share(s(3000.0), 81, 81).as_secs_f64()
        ));
    }

    #[test]
    fn no_main_time_starts_in_the_overtime() {
        let clock = Clock::new(TimeControl::byoyomi(s(0.0), s(30.0), 5));
        assert_eq!(clock.left(White).to_string(), "30.000 5");
        assert!(close(clock.budget(White, 361, 300), 23.5));
        let clock = Clock::new(TimeControl::canadian(s(0.0), s(60.0), 10));
        assert_eq!(clock.left(White).to_string(), "60.000 10");
        assert!(close(clock.budget(White, 361, 300), 0.9 * 6.0 - 0.5));
    }

    #[test]
    fn canadian_periods_count_their_stones() {
        let mut clock = Clock::new(TimeControl::canadian(s(1.0), s(20.0), 3));
        clock.spend(White, s(3.0));
        assert_eq!(clock.left(White).to_string(), "18.000 2");
        assert!(close(clock.budget(White, 81, 50), 0.9 * 9.0 - 0.5));
        clock.spend(White, s(5.5));
        assert_eq!(clock.left(White).to_string(), "12.500 1");
        clock.spend(White, s(30.0));
        assert_eq!(clock.left(White).to_string(), "20.000 3", "a new period");
        clock.set_left(White, s(120.0), 10);
        assert!(close(clock.budget(White, 81, 50), 0.9 * 12.0 - 0.5));
        // Overrun seconds count as none.
        clock.set_left(White, s(2.0), 3);
        clock.spend(White, s(2.5));
        assert_eq!(clock.left(White).to_string(), "0.000 2");
        assert_eq!(clock.budget(White, 81, 50), NONE);
    }

    #[test]
    fn the_ceiling_is_all_the_time_that_does_not_lose() {
        let clock = Clock::new(TimeControl::Absolute { main: s(10.0) });
        assert!(close(clock.ceiling(Black, 81, 81), 9.5));
        let clock = Clock::new(TimeControl::byoyomi(s(10.0), s(30.0), 3));
        assert!(close(clock.ceiling(Black, 81, 81), 9.5 + 23.5));
        let mut clock = Clock::new(TimeControl::Absolute { main: s(10.0) });
        clock.spend(Black, s(10.0));
        assert_eq!(clock.ceiling(Black, 81, 81), NONE);
    }

    #[test]
    fn the_flag_falls_when_every_period_is_gone() {
        let mut clock = Clock::new(TimeControl::byoyomi(s(10.0), s(5.0), 3));
        assert_eq!(clock.available(Black), Some(s(25.0)));
        clock.spend(Black, s(12.0));
        assert_eq!(clock.available(Black), Some(s(15.0)));
        let mut clock = Clock::new(TimeControl::canadian(s(10.0), s(30.0), 5));
        assert_eq!(clock.available(White), Some(s(40.0)));
        clock.spend(White, s(12.0));
        assert_eq!(clock.available(White), Some(s(28.0)));
        let clock = Clock::new(TimeControl::Absolute { main: s(7.5) });
        assert_eq!(clock.available(White), Some(s(7.5)));
        assert_eq!(Clock::default().available(White), None);
        assert_eq!(
            TimeControl::byoyomi(s(60.0), s(10.0), 3).to_gtp(),
            Some((s(60.0), s(10.0), 1))
        );
    }

    #[test]
    fn absurd_clocks_still_get_answers() {
        let clock = Clock::new(TimeControl::Absolute { main: s(1e300) });
        assert_eq!(clock.budget(Black, 81, 81), Some(MAX_MOVE));
        let clock = Clock::new(TimeControl::byoyomi(s(0.0), s(1e300), 1));
        assert_eq!(clock.budget(Black, 81, 81), Some(MAX_MOVE));
    }

    #[test]
    fn absurd_times_left_mean_no_end_and_absurd_moves_use_everything() {
        let mut clock = Clock::new(TimeControl::byoyomi(s(10.0), s(5.0), 3));
        clock.spend(Black, Duration::MAX);
        assert_eq!(
            clock.left(Black).to_string(),
            "5.000 1",
            "the last period stays"
        );
        clock.set_left(Black, s(1e300), 0);
        assert_eq!(clock.left(Black).time, Duration::MAX);
        assert_eq!(clock.available(Black), Some(Duration::MAX));
        assert_eq!(clock.budget(Black, 81, 81), Some(MAX_MOVE));
        assert_eq!(clock.ceiling(Black, 81, 81), Some(Duration::MAX));
        let mut clock = Clock::new(TimeControl::canadian(s(10.0), s(20.0), 3));
        clock.spend(White, Duration::MAX);
        assert_eq!(clock.left(White).to_string(), "0.000 2");
        let mut clock = Clock::new(TimeControl::Absolute { main: s(10.0) });
        clock.spend(Black, Duration::MAX);
        assert_eq!(clock.left(Black).to_string(), "0.000 0");
    }
}
