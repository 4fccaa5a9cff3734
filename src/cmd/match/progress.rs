//! The progress line written to stderr after every game: how many games are done, the
//! game's result, the score so far and an estimate of the time left.

use super::results::Row;
use super::stats::Tally;
use std::time::{Duration, Instant};

/// Where the match stands, for the progress line.
pub struct MatchProgress {
    started: Instant,
    /// Games of the match, and games already in results.tsv when this run started.
    total: usize,
    done_before: usize,
    /// Games finished by this run.
    done_now: usize,
}

impl MatchProgress {
    pub fn new(total: usize, done_before: usize) -> MatchProgress {
        MatchProgress {
            started: Instant::now(),
            total,
            done_before,
            done_now: 0,
        }
    }

    /// Counts `row` as done and describes it: `[7/20] game 7: gnugo (B) vs hoshi (W):
    /// B+R, White resigned | gnugo 4, hoshi 3 | 0:42 elapsed, about 1:20 left`.
    pub fn record(&mut self, row: &Row, tally: &Tally) -> String {
        self.done_now += 1;
        let done = self.done_before + self.done_now;
        let elapsed = self.started.elapsed();
        format!(
            "[{done}/{}] game {}: {} (B) vs {} (W): {}, {} | {} | {} elapsed, about {} left",
            self.total,
            row.game,
            row.black,
            row.white,
            row.result,
            row.reason,
            tally.score_line(),
            duration_text(elapsed),
            duration_text(self.time_to_finish(elapsed, done)),
        )
    }

    /// The games left at this run's pace (games finished per second of this run, which
    /// accounts for games played in parallel).
    fn time_to_finish(&self, elapsed: Duration, done: usize) -> Duration {
        let per_game = elapsed.as_secs_f64() / self.done_now.max(1) as f64;
        let left = per_game * self.total.saturating_sub(done) as f64;
        Duration::try_from_secs_f64(left).unwrap_or(Duration::MAX)
    }
}

/// A duration as `m:ss` or `h:mm:ss`.
pub fn duration_text(duration: Duration) -> String {
    let seconds = duration.as_secs();
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::GameResult;

    #[test]
    fn the_line_counts_resumed_games_and_gives_the_score() {
        let players = ["gnugo".to_string(), "hoshi".to_string()];
        let row = Row {
            game: 4,
            black: "hoshi".into(),
            white: "gnugo".into(),
            result: GameResult::parse("W+R").unwrap(),
            reason: "Black resigned".into(),
            moves: 50,
            seconds: [1.0, 2.0],
            claims: [None, None],
        };
        let tally = Tally::new(&players, std::slice::from_ref(&row), false);
        let mut progress = MatchProgress::new(10, 3);
        let line = progress.record(&row, &tally);
        assert!(
            line.starts_with(
                "[4/10] game 4: hoshi (B) vs gnugo (W): W+R, Black resigned | gnugo 1, hoshi 0 | "
            ),
            "{line}"
        );
        assert!(line.ends_with(" left"), "{line}");
    }

    #[test]
    fn clocks_read_as_minutes_or_hours() {
        assert_eq!(duration_text(Duration::from_secs(5)), "0:05");
        assert_eq!(duration_text(Duration::from_secs(125)), "2:05");
        assert_eq!(duration_text(Duration::from_secs(3 * 3600 + 61)), "3:01:01");
    }
}
