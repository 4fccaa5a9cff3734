//! Each game of a match as an SGF file: what `crate::sgf::write` gives (size, komi, rules,
//! handicap stones, result, moves), plus, as `sgf::Annotations`, what a match record needs
//! beside it: the players (PB, PW), the date (DT), the game number (GN) and, in the game
//! comment (GC), how the game ended and the time each side spent. SGF's BL/WL are the time
//! *left* on a clock after a move: games with clocks have them on every move (with OB/OW,
//! the stones left in a Canadian period); the time spent goes in the comment either way.

use super::referee::Played;
use super::results::Row;
use crate::sgf::{self, Annotations, Event};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Who played a game, and when.
pub struct Header<'a> {
    pub number: usize,
    pub black: &'a str,
    pub white: &'a str,
    /// `YYYY-MM-DD`.
    pub date: String,
}

/// The game as an SGF file.
pub fn sgf_text(played: &Played, header: &Header) -> String {
    let notes = Annotations {
        root: match_properties(played, header),
        moves: time_left(played),
    };
    sgf::write_annotated(&played.game, Some(played.result), &notes)
}

/// BL/WL (and OB/OW in overtime) for each move whose player had a clock.
fn time_left(played: &Played) -> Vec<Vec<(String, String)>> {
    played
        .game
        .history()
        .iter()
        .zip(&played.clock_left)
        .map(|(turn, left)| {
            left.map_or_else(Vec::new, |left| {
                sgf::time_left(turn.color, left.time.as_secs_f64(), left.stones)
            })
        })
        .collect()
}

/// PB, PW, DT, GN and GC.
fn match_properties(played: &Played, header: &Header) -> Vec<(String, String)> {
    let [black, white] = played.seconds;
    let moves = played.game.move_number();
    let comment = format!(
        "{}. Time used: Black {black:.1} s, White {white:.1} s, in {moves} moves.",
        played.reason
    );
    [
        ("PB", header.black.to_string()),
        ("PW", header.white.to_string()),
        ("DT", header.date.clone()),
        ("GN", header.number.to_string()),
        ("GC", comment),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect()
}

/// The SGF file of game `number` in the match directory `out`.
pub fn sgf_path(out: &Path, number: usize) -> PathBuf {
    out.join(format!("game-{number:04}.sgf"))
}

/// The games of `rows` that repeat an earlier game move for move with the same players
/// in the same colors, each with the earlier game: `(3, 1)` says game 3 is game 1 again.
/// Deterministic engines do that when they are restarted for every game, and repeated
/// games are not the independent trials the confidence interval counts on. Games whose
/// SGF file is missing or unreadable are left out.
pub fn duplicates(out: &Path, rows: &[Row]) -> Vec<(usize, usize)> {
    let mut numbers: Vec<&Row> = rows.iter().collect();
    numbers.sort_by_key(|r| r.game);
    let mut first_of: HashMap<String, usize> = HashMap::new();
    let mut repeats = Vec::new();
    for row in numbers {
        let Some(moves) = move_list(&sgf_path(out, row.game)) else {
            continue;
        };
        let key = format!("{}\t{}\t{moves}", row.black, row.white);
        match first_of.get(&key) {
            Some(&earlier) => repeats.push((row.game, earlier)),
            None => {
                first_of.insert(key, row.game);
            }
        }
    }
    repeats
}

/// The moves of an SGF file, spelled out, when it can be read.
fn move_list(path: &Path) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    let record = sgf::parse(&text).ok()?;
    let events: Vec<String> = record
        .events
        .iter()
        .map(|event| match event {
            Event::Move(color, Some(vertex)) => format!("{}{vertex}", color.letter()),
            Event::Move(color, None) => format!("{}-", color.letter()),
            // Every game of a match starts from the same setup (the handicap).
            Event::Setup { .. } => "setup".into(),
        })
        .collect();
    Some(events.join(" "))
}

/// Today's date (UTC) as SGF's DT writes it.
pub fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date((seconds / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The Gregorian date `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// which counts in 400-year eras of 146,097 days starting on March 1st so that the leap
/// day falls at the end of each year).
pub fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days_since_1970() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(19_782), (2024, 2, 29));
        assert_eq!(civil_date(-1), (1969, 12, 31));
        assert_eq!(today().len(), 10);
    }
}
