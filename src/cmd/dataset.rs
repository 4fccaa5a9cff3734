//! `hoshi dataset`: strong players' games turned into the positions the policy network learns
//! from (the file format is in `docs/policy-net.md`). Every game is replayed with hoshi's own
//! rules code, so a move the rules forbid ends its game there, and each position is encoded by
//! [`features::encode`], the encoder the search uses.
//!
//! Games are held out whole: a game's positions are not independent, so splitting by position
//! would let the training see the very games it is measured on. The held-out games are every
//! `held_out_every`-th line of `Kifu.index` (lines 0, 100, 200, …: 510 of the 50,956 games).

use crate::coord::{Color, Geometry, Move, Point, Vertex};
use crate::game::Game;
use crate::net::features;
use crate::rules::Ruleset;
use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The size of the boards the games are played on.
const SIZE: usize = 19;

/// The magic that opens a dataset file.
pub const MAGIC: &[u8; 8] = b"HOSHIDS1";

/// `hoshi dataset`'s command line.
#[derive(clap::Args, Debug)]
pub struct DatasetArgs {
    /// The extracted `go-games/Tom` folder: `Kifu.index` and the game files under `kifu/`.
    #[arg(long)]
    games: PathBuf,
    /// Where to write `train.bin` and `test.bin` (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Hold out every Nth game of the index (from the first) for measuring.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..))]
    held_out_every: u32,
}

/// What stops the command.
#[derive(Debug)]
pub enum DatasetError {
    Io(PathBuf, io::Error),
    /// The index names no game the game files hold.
    NoGames,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Io(path, why) => write!(f, "{}: {why}", path.display()),
            DatasetError::NoGames => f.write_str("no game of the index was found in kifu/"),
        }
    }
}

impl std::error::Error for DatasetError {}

/// Runs `hoshi dataset`.
pub fn command(args: &DatasetArgs) -> ExitCode {
    match build(args) {
        Ok(tally) => {
            log::info!("{tally}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            log::error!("hoshi dataset: {why}");
            ExitCode::FAILURE
        }
    }
}

/// What the replay found, for the log.
#[derive(Debug, Default)]
pub struct Tally {
    pub games: [u64; 2],
    pub positions: [u64; 2],
    /// Games that a move the rules forbid ended early (the positions before it are kept).
    pub cut_short: u64,
    /// Moves by the colour that had just played: the other side passed (a pass is played).
    pub implied_passes: u64,
    /// Index lines with no game in the game files.
    pub missing: u64,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "train: {} games, {} positions; held out: {} games, {} positions; \
             {} games cut short by an illegal move, {} implied passes, {} index lines without a game",
            self.games[0],
            self.positions[0],
            self.games[1],
            self.positions[1],
            self.cut_short,
            self.implied_passes,
            self.missing
        )
    }
}

fn build(args: &DatasetArgs) -> Result<Tally, DatasetError> {
    let games = games(&args.games)?;
    fs::create_dir_all(&args.out).map_err(io_error(&args.out))?;
    let paths = [args.out.join("train.bin"), args.out.join("test.bin")];
    let mut files = Vec::new();
    for path in &paths {
        let file = fs::File::create(path).map_err(io_error(path))?;
        let mut writer = BufWriter::with_capacity(1 << 20, file);
        writer.write_all(&header()).map_err(io_error(path))?;
        files.push(writer);
    }
    let mut tally = Tally {
        missing: games.missing,
        ..Tally::default()
    };
    let mut record = vec![0u8; SIZE * SIZE + 8];
    let mut recent = Vec::with_capacity(features::HISTORY);
    for (line, moves) in &games.games {
        let part = usize::from(is_held_out(*line, args.held_out_every));
        let file = &mut files[part];
        let written = replay(moves, *line, &mut tally, |game, color, p| {
            encode_record(game, color, p, *line, &mut recent, &mut record);
            file.write_all(&record)
        })
        .map_err(io_error(&paths[part]))?;
        tally.games[part] += 1;
        tally.positions[part] += written;
        if (line + 1) % 5000 == 0 {
            log::info!("{} games read", line + 1);
        }
    }
    if tally.games == [0, 0] {
        return Err(DatasetError::NoGames);
    }
    for (file, path) in files.iter_mut().zip(&paths) {
        file.flush().map_err(io_error(path))?;
    }
    Ok(tally)
}

/// Whether the game on line `line` of the index is one of those held out for measuring.
pub fn is_held_out(line: u32, every: u32) -> bool {
    line.is_multiple_of(every)
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> DatasetError {
    let path = path.to_path_buf();
    move |why| DatasetError::Io(path, why)
}

/// The file header: magic, board size, six zero bytes.
fn header() -> [u8; 16] {
    let mut h = [0u8; 16];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&(SIZE as u16).to_le_bytes());
    h
}

/// One record: the position before `color` plays `p` in `game`, the move, its number and
/// the game's index line (see docs/policy-net.md).
fn encode_record(
    game: &Game,
    color: Color,
    p: Point,
    line: u32,
    recent: &mut Vec<Move>,
    record: &mut [u8],
) {
    let points = SIZE * SIZE;
    recent.clear();
    recent.extend(game.recent_moves(features::HISTORY));
    features::encode(game.board(), color, recent, &mut record[..points]);
    let target = features::point_index(game.board(), p) as u16;
    record[points..points + 2].copy_from_slice(&target.to_le_bytes());
    let number = u16::try_from(game.move_number() + 1).unwrap_or(u16::MAX);
    record[points + 2..points + 4].copy_from_slice(&number.to_le_bytes());
    record[points + 4..points + 8].copy_from_slice(&line.to_le_bytes());
}

/// The games of a `go-games/Tom` folder, in the order of its index.
pub struct Games {
    /// Each game's line in `Kifu.index` (from 0) and its moves (`;B[qd];W[dc];...`).
    pub games: Vec<(u32, String)>,
    /// Index lines whose game no file holds.
    pub missing: u64,
}

/// Reads the index and the game files of `dir` (`Kifu.index`, `kifu/`).
pub fn games(dir: &Path) -> Result<Games, DatasetError> {
    let index_path = dir.join("Kifu.index");
    let index = fs::read_to_string(&index_path).map_err(io_error(&index_path))?;
    let mut records = read_records(&dir.join("kifu"))?;
    let mut games = Games {
        games: Vec::new(),
        missing: 0,
    };
    for (line, text) in index.lines().enumerate() {
        let id = text.split('\t').next().unwrap_or_default();
        match records.remove(id) {
            Some(moves) => games.games.push((line as u32, moves)),
            None => games.missing += 1,
        }
    }
    Ok(games)
}

/// The games of every file of `dir`, by ID (one game a line: `ID<TAB>;B[qd];W[dc];...`).
fn read_records(dir: &Path) -> Result<HashMap<String, String>, DatasetError> {
    let mut records = HashMap::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io_error(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let text = fs::read_to_string(&path).map_err(io_error(&path))?;
        for line in text.lines() {
            if let Some((id, moves)) = line.split_once('\t') {
                records.insert(id.trim().to_string(), moves.to_string());
            }
        }
    }
    Ok(records)
}

/// Replays one game's moves (`;B[qd];W[dc];...`) by the French rules, showing `visit` each
/// position before a stone is played: the game so far, the colour to play and its point.
/// A move the rules forbid ends the game there. Returns how many positions it showed.
pub fn replay(
    moves: &str,
    line: u32,
    tally: &mut Tally,
    mut visit: impl FnMut(&Game, Color, Point) -> io::Result<()>,
) -> io::Result<u64> {
    let Some(mut game) = Game::new(SIZE, Ruleset::FRENCH, 7.5) else {
        return Ok(0);
    };
    let mut shown = 0;
    for (number, token) in moves.split(';').filter(|t| !t.is_empty()).enumerate() {
        let Some((color, mv)) = parse_move(token) else {
            tally.cut_short += 1;
            break;
        };
        if color != game.to_move() {
            tally.implied_passes += 1;
            if game.play(game.to_move(), Move::Pass).is_err() {
                tally.cut_short += 1;
                break;
            }
        }
        if let Err(why) = game.check(color, mv) {
            log::warn!(
                "game on index line {line}: move {} {token}: {why}",
                number + 1
            );
            tally.cut_short += 1;
            break;
        }
        if let Move::Play(p) = mv {
            visit(&game, color, p)?;
            shown += 1;
        }
        if game.play(color, mv).is_err() {
            // A second pass ends the game.
            break;
        }
    }
    Ok(shown)
}

/// One SGF move token, `B[qd]` (an empty value or `tt` is a pass), as a colour and a move on
/// the 19×19 board.
fn parse_move(token: &str) -> Option<(Color, Move)> {
    let token = token.trim();
    let color = match token.as_bytes().first()? {
        b'B' => Color::Black,
        b'W' => Color::White,
        _ => return None,
    };
    let value = token.get(1..)?.strip_prefix('[')?.strip_suffix(']')?;
    if value.is_empty() || value == "tt" {
        return Some((color, Move::Pass));
    }
    let vertex = Vertex::parse_sgf(value, SIZE)?;
    let geometry = Geometry::new(SIZE)?;
    Some((color, Move::Play(geometry.point(vertex))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(moves: &str, tally: &mut Tally) -> Vec<Vec<u8>> {
        let mut record = vec![0u8; SIZE * SIZE + 8];
        let mut recent = Vec::new();
        let mut out = Vec::new();
        replay(moves, 7, tally, |game, color, p| {
            encode_record(game, color, p, 7, &mut recent, &mut record);
            out.push(record.clone());
            Ok(())
        })
        .expect("no io");
        out
    }

    #[test]
    fn a_game_becomes_one_record_per_move() {
        let out = records(";B[pd];W[dp];B[pp]", &mut Tally::default());
        assert_eq!(out.len(), 3);
        let points = SIZE * SIZE;
        // Q16 (SGF pd) is column 15, row 15 from the bottom.
        assert_eq!(
            u16::from_le_bytes([out[0][points], out[0][points + 1]]),
            15 * 19 + 15
        );
        // D4 (dp): column 3, row 3.
        assert_eq!(
            u16::from_le_bytes([out[1][points], out[1][points + 1]]),
            3 * 19 + 3
        );
        // In the second position Black's Q16 is the opponent's stone, played one move ago,
        // with four liberties.
        assert_eq!(out[1][15 * 19 + 15], 2 | 3 << 2 | 1 << 4);
        assert_eq!(out[2][15 * 19 + 15], 1 | 3 << 2 | 2 << 4);
        assert_eq!(out[2][points + 2..points + 8], [3, 0, 7, 0, 0, 0]);
    }

    #[test]
    fn an_illegal_move_ends_the_game() {
        let mut tally = Tally::default();
        assert_eq!(records(";B[pd];W[pd];B[pp]", &mut tally).len(), 1);
        assert_eq!(tally.cut_short, 1);
        assert_eq!(records(";B[pd];B[pp];W[zz]", &mut tally).len(), 2);
        assert_eq!((tally.cut_short, tally.implied_passes), (2, 1));
    }

    #[test]
    fn every_hundredth_game_is_held_out() {
        let held: Vec<u32> = (0..1000).filter(|&l| is_held_out(l, 100)).collect();
        assert_eq!(held, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    }
}
