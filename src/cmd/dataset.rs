//! `hoshi dataset`: strong players' games turned into the positions the policy and value
//! heads learn from (the file format is in `docs/policy-net.md`). Every game is replayed with
//! hoshi's own rules code, so a move the rules forbid ends its game there, and each position is
//! encoded by [`features::encode`], the encoder the search uses.
//!
//! Games are held out whole: a game's positions are not independent, so splitting by position
//! would let the training see the very games it is measured on. The held-out games are every
//! `held_out_every`-th line of `Kifu.index` (lines 0, 100, 200, …: 510 of the 50,956 games).
//! The programs' games (`go-games/AI`) are another kind of player altogether, so all of them
//! go to a file of their own that measures, never trains (`ai.bin`).

use crate::coord::{Color, Geometry, Move, Point, Vertex};
use crate::game::Game;
use crate::net::features;
use crate::rules::Ruleset;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The size of the boards the games are played on.
const SIZE: usize = 19;

/// The magic that opens a dataset file.
pub const MAGIC: &[u8; 8] = b"HOSHIDS2";

/// Bytes of a record after its `SIZE²` input bytes: move, move number, game, side to move,
/// winner, komi.
pub const RECORD_TAIL: usize = 12;

/// The komi of the programs' games on the Tygem server (`go-games/AI/*/kifu.index` has no komi
/// column; the Tygem games of the same collection saved as SGF all say `KM[6.5]`), times two.
const AI_KOMI2: i16 = 13;

/// `hoshi dataset`'s command line.
#[derive(clap::Args, Debug)]
pub struct DatasetArgs {
    /// The extracted `go-games/Tom` folder (`Kifu.index` and the game files under `kifu/`:
    /// writes `train.bin` and `test.bin`), or `go-games/AI` (folders with `kifu.index` and
    /// `kifu/`: writes `ai.bin`, every game held out).
    #[arg(long)]
    games: PathBuf,
    /// Where to write the dataset files (created if missing).
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
    /// Neither `Kifu.index` nor any folder with a `kifu.index` and `kifu/`.
    NoIndex(PathBuf),
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Io(path, why) => write!(f, "{}: {why}", path.display()),
            DatasetError::NoGames => f.write_str("no game of the index was found in kifu/"),
            DatasetError::NoIndex(dir) => write!(
                f,
                "{}: no Kifu.index, and no folder under it with a kifu.index and kifu/",
                dir.display()
            ),
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
    /// Games whose winner or komi the index does not give (their records say winner 0).
    pub no_result: u64,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "train: {} games, {} positions; held out: {} games, {} positions; \
             {} games cut short by an illegal move, {} implied passes, {} index lines without a game, \
             {} games without a result",
            self.games[0],
            self.positions[0],
            self.games[1],
            self.positions[1],
            self.cut_short,
            self.implied_passes,
            self.missing,
            self.no_result
        )
    }
}

fn build(args: &DatasetArgs) -> Result<Tally, DatasetError> {
    let games = games(&args.games)?;
    fs::create_dir_all(&args.out).map_err(io_error(&args.out))?;
    let names: &[&str] = match games.layout {
        Layout::Tom => &["train.bin", "test.bin"],
        Layout::Ai => &["ai.bin"],
    };
    let paths: Vec<PathBuf> = names.iter().map(|name| args.out.join(name)).collect();
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
    let mut record = vec![0u8; SIZE * SIZE + RECORD_TAIL];
    let mut recent = Vec::with_capacity(features::HISTORY);
    for game in &games.games {
        let held_out = games.layout == Layout::Ai || is_held_out(game.line, args.held_out_every);
        let part = usize::from(held_out);
        let file_index = part.min(files.len() - 1);
        let file = &mut files[file_index];
        let written = replay(&game.moves, game.line, &mut tally, |position, color, p| {
            encode_record(position, color, p, game, &mut recent, &mut record);
            file.write_all(&record)
        })
        .map_err(io_error(&paths[file_index]))?;
        tally.games[part] += 1;
        tally.positions[part] += written;
        tally.no_result += u64::from(game.outcome.winner == Winner::Unknown);
        if (game.line + 1) % 5000 == 0 {
            log::info!("{} games read", game.line + 1);
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

/// The phases of a game that move prediction and the value are measured by (as the training
/// tool's `--evaluate` reports them): moves 1–50, 51–150, 151 on.
pub const PHASES: [(usize, usize, &str); 3] = [
    (1, 50, "moves 1-50"),
    (51, 150, "moves 51-150"),
    (151, usize::MAX, "moves 151+"),
];

/// The phase (an index of [`PHASES`]) of move `number`, counted from 1.
pub fn phase_of(number: usize) -> usize {
    PHASES
        .iter()
        .position(|&(from, to, _)| (from..=to).contains(&number))
        .unwrap_or(PHASES.len() - 1)
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

/// One record: the position before `color` plays `p` in `game`, the move, its number, the
/// game's index line, the side to move and the game's outcome (see docs/policy-net.md).
fn encode_record(
    position: &Game,
    color: Color,
    p: Point,
    game: &GameRecord,
    recent: &mut Vec<Move>,
    record: &mut [u8],
) {
    let points = SIZE * SIZE;
    recent.clear();
    recent.extend(position.recent_moves(features::HISTORY));
    features::encode(position.board(), color, recent, &mut record[..points]);
    let tail = &mut record[points..points + RECORD_TAIL];
    let target = features::point_index(position.board(), p) as u16;
    tail[0..2].copy_from_slice(&target.to_le_bytes());
    let number = u16::try_from(position.move_number() + 1).unwrap_or(u16::MAX);
    tail[2..4].copy_from_slice(&number.to_le_bytes());
    tail[4..8].copy_from_slice(&game.line.to_le_bytes());
    tail[8] = u8::from(color == Color::White);
    tail[9] = game.outcome.winner as u8;
    tail[10..12].copy_from_slice(&game.outcome.komi2.to_le_bytes());
}

/// Who won a game, as a record stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Winner {
    /// Not given, a draw, or a result that cannot be read (no value is learnt from it).
    #[default]
    Unknown = 0,
    Black = 1,
    White = 2,
}

/// What the value head learns from a game: who won, against which komi.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Winner,
    /// Black's komi times two (what Black's area lead must exceed).
    pub komi2: i16,
}

impl Outcome {
    /// From an index's result (`B+0.5`, `W+Resign`, `B+Time`, …) and Black's komi times two:
    /// a result that is neither Black's nor White's win, or no komi, gives
    /// [`Winner::Unknown`].
    pub fn parse(result: &str, komi2: Option<i16>) -> Outcome {
        let Some(komi2) = komi2 else {
            return Outcome::default();
        };
        let winner = match result.trim().get(..2) {
            Some("B+") => Winner::Black,
            Some("W+") => Winner::White,
            _ => Winner::Unknown,
        };
        Outcome { winner, komi2 }
    }
}

/// `7.5` as 15: a komi of whole or half points within an i16.
pub fn parse_komi2(komi: &str) -> Option<i16> {
    let twice = komi.trim().parse::<f64>().ok()? * 2.0;
    let whole = twice.round();
    if (twice - whole).abs() > 1e-9 || whole.abs() > f64::from(i16::MAX) {
        return None;
    }
    Some(whole as i16)
}

/// Which collection a `--games` folder holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `go-games/Tom`: `Kifu.index` (ID, date, Black, White, komi, result, moves, time) and
    /// `kifu/`.
    Tom,
    /// `go-games/AI`: folders each with a `kifu.index` (ID, date, Black's two names and a
    /// number, White's, result, moves, time: no komi) and `kifu/`.
    Ai,
}

impl Layout {
    /// The columns of an index line's result and komi (none: [`AI_KOMI2`]).
    fn columns(self) -> (usize, Option<usize>) {
        match self {
            Layout::Tom => (5, Some(4)),
            Layout::Ai => (8, None),
        }
    }

    fn outcome(self, fields: &[&str]) -> Outcome {
        let (result, komi) = self.columns();
        let komi2 = match komi {
            Some(column) => fields.get(column).and_then(|k| parse_komi2(k)),
            None => Some(AI_KOMI2),
        };
        Outcome::parse(fields.get(result).copied().unwrap_or_default(), komi2)
    }
}

/// One game of the index that the game files hold.
pub struct GameRecord {
    /// Its line in `Kifu.index` (from 0); for `go-games/AI`, its number among the games read.
    pub line: u32,
    /// Its moves, `;B[qd];W[dc];...`.
    pub moves: String,
    pub outcome: Outcome,
}

/// The games of a `go-games/Tom` or `go-games/AI` folder, in the order of its index.
pub struct Games {
    pub layout: Layout,
    pub games: Vec<GameRecord>,
    /// Index lines whose game no file holds.
    pub missing: u64,
}

/// Reads the index and the game files of `dir`: `Kifu.index` and `kifu/` ([`Layout::Tom`]),
/// or, without them, every folder under `dir` holding a `kifu.index` and `kifu/`
/// ([`Layout::Ai`], in the order of their paths; a game two folders hold is read once).
pub fn games(dir: &Path) -> Result<Games, DatasetError> {
    let mut games = Games {
        layout: Layout::Tom,
        games: Vec::new(),
        missing: 0,
    };
    if dir.join("Kifu.index").is_file() {
        read_index(dir, "Kifu.index", &mut games, &mut HashSet::new())?;
        return Ok(games);
    }
    games.layout = Layout::Ai;
    let mut folders = Vec::new();
    index_folders(dir, &mut folders)?;
    if folders.is_empty() {
        return Err(DatasetError::NoIndex(dir.to_path_buf()));
    }
    let mut seen = HashSet::new();
    for folder in folders {
        read_index(&folder, "kifu.index", &mut games, &mut seen)?;
    }
    Ok(games)
}

/// The folders under `dir` (itself included) with a `kifu.index` and a `kifu/`, sorted.
fn index_folders(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), DatasetError> {
    if dir.join("kifu.index").is_file() && dir.join("kifu").is_dir() {
        found.push(dir.to_path_buf());
    }
    let mut children: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io_error(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != "kifu"))
        .collect();
    children.sort();
    for child in children {
        index_folders(&child, found)?;
    }
    Ok(())
}

/// Adds the games of `dir/index` found in `dir/kifu/` to `games`, skipping IDs in `seen`.
fn read_index(
    dir: &Path,
    index: &str,
    games: &mut Games,
    seen: &mut HashSet<String>,
) -> Result<(), DatasetError> {
    let index_path = dir.join(index);
    let index = fs::read_to_string(&index_path).map_err(io_error(&index_path))?;
    let mut records = read_records(&dir.join("kifu"))?;
    for (number, text) in index.lines().enumerate() {
        let fields: Vec<&str> = text.split('\t').collect();
        let id = fields[0].trim();
        if !seen.insert(id.to_string()) {
            continue;
        }
        let line = match games.layout {
            Layout::Tom => number as u32,
            Layout::Ai => games.games.len() as u32,
        };
        match records.remove(id) {
            Some(moves) => games.games.push(GameRecord {
                line,
                moves,
                outcome: games.layout.outcome(&fields),
            }),
            None => games.missing += 1,
        }
    }
    Ok(())
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
        let game = GameRecord {
            line: 7,
            moves: moves.to_string(),
            outcome: Outcome {
                winner: Winner::White,
                komi2: 13,
            },
        };
        let mut record = vec![0u8; SIZE * SIZE + RECORD_TAIL];
        let mut recent = Vec::new();
        let mut out = Vec::new();
        replay(moves, 7, tally, |position, color, p| {
            encode_record(position, color, p, &game, &mut recent, &mut record);
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
        // Side to move (Black, White, Black), White won, komi 6.5.
        for (record, side) in out.iter().zip([0, 1, 0]) {
            assert_eq!(record[points + 8..], [side, 2, 13, 0]);
        }
    }

    #[test]
    fn results_and_komi_of_the_index() {
        let outcome = |result, komi| Outcome::parse(result, parse_komi2(komi));
        let black = |komi2| Outcome {
            winner: Winner::Black,
            komi2,
        };
        assert_eq!(outcome("B+0.5", "6.5"), black(13));
        assert_eq!(outcome("B+Resign", "7.5"), black(15));
        assert_eq!(outcome("W+Time", "7.5").winner, Winner::White);
        assert_eq!(outcome("W+R", "-3").komi2, -6);
        assert_eq!(outcome("Draw", "7.5").winner, Winner::Unknown);
        assert_eq!(outcome("0", "7.5").winner, Winner::Unknown);
        assert_eq!(outcome("B+1", "7.25"), Outcome::default());
        assert_eq!(outcome("B+1", "seven"), Outcome::default());
        let tom = "354460\t2003.09.25 20:21\tA\tB\t6.5\tW+1.5\t314\t30/3 20m";
        let fields: Vec<&str> = tom.split('\t').collect();
        assert_eq!(
            Layout::Tom.outcome(&fields),
            Outcome {
                winner: Winner::White,
                komi2: 13
            }
        );
        let ai =
            "959841163\tC2017.07.03 19:45\ta\tb\t0\tCGI(P)\tcgi(P)\t0\tB+Resign\t173\t30/3 10m";
        let fields: Vec<&str> = ai.split('\t').collect();
        assert_eq!(Layout::Ai.outcome(&fields), black(13));
        assert_eq!(Layout::Ai.outcome(&fields[..3]).winner, Winner::Unknown);
    }

    /// A `go-games/AI`-like tree: two folders whose indexes share a game, read once.
    #[test]
    fn the_programs_games_are_read_from_every_folder() {
        let root = std::env::temp_dir().join(format!("hoshi-ai-games-{}", std::process::id()));
        let write = |folder: &str, index: &str, kifu: &str| {
            let dir = root.join(folder);
            fs::create_dir_all(dir.join("kifu")).expect("temp dir");
            fs::write(dir.join("kifu.index"), index).expect("index");
            fs::write(dir.join("kifu").join("2017-07"), kifu).expect("kifu");
        };
        let line = |id: &str, result: &str| format!("{id}\td\ta\tb\t0\tc\td\t0\t{result}\t3\tt\n");
        write(
            "A",
            &(line("1", "B+Resign") + &line("2", "W+0.5")),
            "1\t;B[pd];W[dp]\n2\t;B[dd]\n",
        );
        write(
            "B/TYGEM",
            &(line("2", "W+0.5") + &line("3", "W+Time") + &line("4", "B+1.5")),
            "2\t;B[dd]\n3\t;B[qq]\n",
        );
        let games = games(&root).expect("reads");
        fs::remove_dir_all(&root).expect("cleanup");
        assert_eq!(games.layout, Layout::Ai);
        let read: Vec<(u32, &str, Winner)> = games
            .games
            .iter()
            .map(|g| (g.line, g.moves.as_str(), g.outcome.winner))
            .collect();
        assert_eq!(
            read,
            [
                (0, ";B[pd];W[dp]", Winner::Black),
                (1, ";B[dd]", Winner::White),
                (2, ";B[qq]", Winner::White)
            ]
        );
        assert_eq!(games.missing, 1);
        assert!(games.games.iter().all(|g| g.outcome.komi2 == AI_KOMI2));
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
