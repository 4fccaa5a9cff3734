//! `results.tsv`: one row per finished game, appended as soon as the game ends, which is
//! what makes a match resumable: a new run reads the file and plays only the games whose
//! numbers are not in it. Tab-separated with a header line, so that a spreadsheet, `awk`
//! or pandas read it as it is.
//!
//! Columns: game, black, white, result (`B+3.5`, `W+R`, `B+T`, `W+F`, `0`), reason, moves,
//! black_seconds, white_seconds (time spent in `genmove`), black_final_score,
//! white_final_score (each engine's own count, `-` when it was not asked or has none).

use super::FileError;
use crate::parse;
use crate::score::GameResult;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;

/// The header line.
pub const HEADER: &str = "game\tblack\twhite\tresult\treason\tmoves\tblack_seconds\twhite_seconds\tblack_final_score\twhite_final_score";

/// What the final-score columns hold when there is no claim.
const NO_CLAIM: &str = "-";

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The game's number in the match, from 1.
    pub game: usize,
    /// The players' names.
    pub black: String,
    pub white: String,
    pub result: GameResult,
    pub reason: String,
    pub moves: usize,
    /// Seconds Black and White spent in `genmove`.
    pub seconds: [f64; 2],
    /// Black's and White's own `final_score`, when asked and answered.
    pub claims: [Option<String>; 2],
}

impl Row {
    /// The row as a line of the file, without the line break. Tabs and line breaks inside
    /// names and reasons become spaces, so that a row is always one line of ten columns.
    pub fn to_line(&self) -> String {
        let claim = |c: &Option<String>| c.as_deref().map_or(NO_CLAIM.into(), cell);
        [
            self.game.to_string(),
            cell(&self.black),
            cell(&self.white),
            self.result.to_string(),
            cell(&self.reason),
            self.moves.to_string(),
            format!("{:.3}", self.seconds[0]),
            format!("{:.3}", self.seconds[1]),
            claim(&self.claims[0]),
            claim(&self.claims[1]),
        ]
        .join("\t")
    }

    /// Reads a line written by [`Row::to_line`]. The final-score columns may be missing.
    pub fn parse(line: &str) -> Result<Row, RowError> {
        let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split('\t').collect();
        let [game, black, white, result, reason, moves, black_s, white_s, rest @ ..] =
            fields.as_slice()
        else {
            return Err(RowError::Columns(fields.len()));
        };
        let claim = |i: usize| {
            rest.get(i)
                .filter(|c| **c != NO_CLAIM && !c.is_empty())
                .map(|c| c.to_string())
        };
        Ok(Row {
            game: number(game, "game")?,
            black: black.to_string(),
            white: white.to_string(),
            result: GameResult::parse(result)
                .ok_or_else(|| RowError::Result(result.to_string()))?,
            reason: reason.to_string(),
            moves: number(moves, "moves")?,
            seconds: [seconds(black_s)?, seconds(white_s)?],
            claims: [claim(0), claim(1)],
        })
    }
}

/// A text cell: no tabs, no line breaks.
fn cell(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

/// Why a line is not a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowError {
    /// Fewer columns than a row has.
    Columns(usize),
    /// A column that must be a whole number (its name) and is not.
    Number {
        what: &'static str,
        text: String,
    },
    Result(String),
    Seconds(String),
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::Columns(n) => write!(f, "{n} columns instead of 10"),
            RowError::Number { what, text } => write!(f, "bad {what} {text:?}"),
            RowError::Result(text) => write!(f, "bad result {text:?}"),
            RowError::Seconds(text) => write!(f, "bad seconds {text:?}"),
        }
    }
}

impl std::error::Error for RowError {}

fn number(text: &str, what: &'static str) -> Result<usize, RowError> {
    text.trim().parse().map_err(|_| RowError::Number {
        what,
        text: text.to_string(),
    })
}

/// Seconds spent, as [`parse::seconds`] reads them.
fn seconds(text: &str) -> Result<f64, RowError> {
    parse::seconds(text)
        .map(|time| time.as_secs_f64())
        .map_err(|_| RowError::Seconds(text.to_string()))
}

/// The rows of the file at `path` (none when it does not exist yet), each game once.
/// Lines that cannot be read (a row cut short when a run was killed while writing it)
/// and repeated games are dropped with a warning, and the file is rewritten without them
/// so that the rows appended next start on a clean line.
pub fn load(path: &Path) -> Result<Vec<Row>, FileError> {
    let text = match fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(why) if why.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(why) => return Err(FileError::new("read", path, why)),
    };
    let (rows, dropped) = read_rows(&text);
    if dropped > 0 || !(text.is_empty() || text.ends_with('\n')) {
        log::warn!(
            "{}: dropped {dropped} unreadable or repeated rows",
            path.display()
        );
        rewrite(path, &rows)?;
    }
    Ok(rows)
}

/// The rows of `text` (header skipped), each game number once, and how many lines were
/// dropped.
fn read_rows(text: &str) -> (Vec<Row>, usize) {
    let mut rows: Vec<Row> = Vec::new();
    let mut dropped = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && *l != HEADER)
    {
        match Row::parse(line) {
            Ok(row) if !rows.iter().any(|r| r.game == row.game) => rows.push(row),
            Ok(row) => {
                log::warn!("game {} appears twice; the first row is kept", row.game);
                dropped += 1;
            }
            Err(why) => {
                log::warn!("unreadable row ({why}): {line:?}");
                dropped += 1;
            }
        }
    }
    (rows, dropped)
}

/// Replaces the file with the header and `rows`, through a temporary file renamed over
/// it, so that an interruption leaves either the old file or the new one.
fn rewrite(path: &Path, rows: &[Row]) -> Result<(), FileError> {
    let mut text = format!("{HEADER}\n");
    for row in rows {
        text.push_str(&row.to_line());
        text.push('\n');
    }
    let temporary = path.with_extension("tsv.tmp");
    fs::write(&temporary, text)
        .and_then(|()| fs::rename(&temporary, path))
        .map_err(|why| FileError::new("rewrite", path, why))
}

/// Appends `row` to the file, creating it with its header first if needed, and flushes
/// it to disk at once (an interrupted match loses at most the games being played).
pub fn append(path: &Path, row: &Row) -> Result<(), FileError> {
    let fail = |why| FileError::new("write", path, why);
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(fail)?;
    let empty = file.metadata().map_err(fail)?.len() == 0;
    let mut text = if empty {
        format!("{HEADER}\n")
    } else {
        String::new()
    };
    text.push_str(&row.to_line());
    text.push('\n');
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(fail)
}
