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
//!
//! hoshi's own games (`hoshi selfplay`'s shards, `selfplay-NNNNN.sgf`, one game a line) make a
//! `train.bin` and `test.bin` of their own, on their own board size (the training tool takes
//! any size: `--data` the folder): the move played is the policy's target, the game's result
//! the value's, and the search's win rate (`HW`) and visits (`HV`) are kept beside them;
//! `games.tsv` names each game's shard and line, which is how `train/label.py`'s labels of the
//! same shards find their records.

use crate::coord::{Color, Geometry, Move, Point, Vertex};
use crate::game::Game;
use crate::net::hnet::features;
use crate::rules::Ruleset;
use crate::sgf;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The size of the boards of the shared games.
const SIZE: usize = 19;

/// The magic that opens a dataset file.
pub const MAGIC: &[u8; 8] = b"HOSHIDS3";

/// The root moves a record keeps of the search's visits, the most visited first (self-play's
/// `HV` lists the ten or so the search looked at; the first eight hold nearly all the visits).
pub const RECORD_VISITS: usize = 8;

/// Bytes of a record after its `SIZE²` input bytes: move, move number, game, side to move,
/// winner, komi, the search's win rate and its [`RECORD_VISITS`] most visited moves.
pub const RECORD_TAIL: usize = 14 + 4 * RECORD_VISITS;

/// The search-value field of a record whose game has no search win rate for the move (the
/// shared games: people played them).
pub const NO_SEARCH_VALUE: u16 = u16::MAX;

/// The point field of an unused visits slot.
pub const NO_VISIT_POINT: u16 = u16::MAX;

/// What the search thought before a self-play move: its win rate for the player to move,
/// encoded as [`encode_search_value`] does, and its most visited root moves as (point index,
/// visits), unused slots `(NO_VISIT_POINT, 0)`. A pass is not among them: the policy has no
/// output for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchNote {
    pub win_rate: u16,
    pub visits: [(u16, u16); RECORD_VISITS],
}

impl Default for SearchNote {
    fn default() -> SearchNote {
        SearchNote {
            win_rate: NO_SEARCH_VALUE,
            visits: [(NO_VISIT_POINT, 0); RECORD_VISITS],
        }
    }
}

/// The komi of the programs' games on the Tygem server (`go-games/AI/*/kifu.index` has no komi
/// column; the Tygem games of the same collection saved as SGF all say `KM[6.5]`), times two.
const AI_KOMI2: i16 = 13;

/// `hoshi dataset`'s command line.
#[derive(clap::Args, Debug)]
pub struct DatasetArgs {
    /// The extracted `go-games/Tom` folder (`Kifu.index` and the game files under `kifu/`:
    /// writes `train.bin` and `test.bin`), `go-games/AI` (folders with `kifu.index` and
    /// `kifu/`: writes `ai.bin`, every game held out), or a folder of `hoshi selfplay`
    /// shards (writes `train.bin` and `test.bin` of the first game's board size).
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
    /// Neither `Kifu.index`, self-play shards, nor any folder with a `kifu.index` and `kifu/`.
    NoIndex(PathBuf),
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Io(path, why) => write!(f, "{}: {why}", path.display()),
            DatasetError::NoGames => f.write_str("no game of the index was found in kifu/"),
            DatasetError::NoIndex(dir) => write!(
                f,
                "{}: no Kifu.index, no selfplay-*.sgf shard, and no folder under it with a \
                 kifu.index and kifu/",
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
    /// Self-play games left out: SGF that does not read, another board size than the first
    /// game's, or stones set up (handicap), which a record cannot replay.
    pub skipped: u64,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "train: {} games, {} positions; held out: {} games, {} positions; \
             {} games cut short by an illegal move, {} implied passes, {} index lines without a game, \
             {} games without a result, {} games skipped",
            self.games[0],
            self.positions[0],
            self.games[1],
            self.positions[1],
            self.cut_short,
            self.implied_passes,
            self.missing,
            self.no_result,
            self.skipped
        )
    }
}

fn build(args: &DatasetArgs) -> Result<Tally, DatasetError> {
    let games = games(&args.games)?;
    fs::create_dir_all(&args.out).map_err(io_error(&args.out))?;
    let names: &[&str] = match games.layout {
        Layout::Tom | Layout::SelfPlay => &["train.bin", "test.bin"],
        Layout::Ai => &["ai.bin"],
    };
    let paths: Vec<PathBuf> = names.iter().map(|name| args.out.join(name)).collect();
    let mut files = Vec::new();
    for path in &paths {
        let file = fs::File::create(path).map_err(io_error(path))?;
        let mut writer = BufWriter::with_capacity(1 << 20, file);
        writer
            .write_all(&header(games.size))
            .map_err(io_error(path))?;
        files.push(writer);
    }
    let mut tally = Tally {
        missing: games.missing,
        skipped: games.skipped,
        ..Tally::default()
    };
    let mut record = vec![0u8; games.size * games.size + RECORD_TAIL];
    let mut recent = Vec::with_capacity(features::HISTORY);
    for game in &games.games {
        let held_out = games.layout == Layout::Ai || is_held_out(game.line, args.held_out_every);
        let part = usize::from(held_out);
        let file_index = part.min(files.len() - 1);
        let file = &mut files[file_index];
        let written = replay(
            games.size,
            &game.moves,
            game.line,
            &mut tally,
            |position, color, p| {
                encode_record(position, color, p, game, &mut recent, &mut record);
                file.write_all(&record)
            },
        )
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
    if games.layout == Layout::SelfPlay {
        write_sources(&games, &args.out.join(SOURCES))?;
    }
    Ok(tally)
}

/// The file beside a self-play dataset that names each game's shard and line.
pub const SOURCES: &str = "games.tsv";

/// Writes [`SOURCES`]: a header, then one line a game, its number in the records (the `game`
/// field) and its source ([`GameRecord::source`]), so that labels of the shards' games
/// (`train/label.py`) find their records.
fn write_sources(games: &Games, path: &Path) -> Result<(), DatasetError> {
    let mut text = String::from("game\tsource\n");
    for game in &games.games {
        text.push_str(&format!("{}\t{}\n", game.line, game.source));
    }
    fs::write(path, text).map_err(io_error(path))
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
fn header(size: usize) -> [u8; 16] {
    let mut h = [0u8; 16];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&(size as u16).to_le_bytes());
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
    let points = position.board().size() * position.board().size();
    recent.clear();
    recent.extend(position.recent_moves(features::HISTORY));
    features::encode(position.board(), color, recent, &mut record[..points]);
    let tail = &mut record[points..points + RECORD_TAIL];
    let target = position.board().geometry().vertex_index(p) as u16;
    tail[0..2].copy_from_slice(&target.to_le_bytes());
    let number = u16::try_from(position.move_number() + 1).unwrap_or(u16::MAX);
    tail[2..4].copy_from_slice(&number.to_le_bytes());
    tail[4..8].copy_from_slice(&game.line.to_le_bytes());
    tail[8] = u8::from(color == Color::White);
    tail[9] = game.outcome.winner as u8;
    tail[10..12].copy_from_slice(&game.outcome.komi2.to_le_bytes());
    let note = game.search.get(position.move_number()).copied();
    let note = note.unwrap_or_default();
    tail[12..14].copy_from_slice(&note.win_rate.to_le_bytes());
    for (slot, (point, visits)) in tail[14..].chunks_exact_mut(4).zip(note.visits) {
        slot[..2].copy_from_slice(&point.to_le_bytes());
        slot[2..].copy_from_slice(&visits.to_le_bytes());
    }
}

/// A win rate in [0, 1] as a record's u16 (steps of 1/65534), or [`NO_SEARCH_VALUE`] for a value
/// that is not a probability.
pub fn encode_search_value(win_rate: f64) -> u16 {
    if (0.0..=1.0).contains(&win_rate) {
        (win_rate * 65534.0).round() as u16
    } else {
        NO_SEARCH_VALUE
    }
}

/// What the search thought of each of a self-play game's moves, from its `HW` and `HV` notes
/// (see [`GameRecord::search`]); a note that cannot be read counts as missing.
fn search_notes(game: &sgf::GameRecord) -> Vec<SearchNote> {
    let moves = game
        .events
        .iter()
        .filter(|e| matches!(e, sgf::Event::Move(..)))
        .count();
    let mut notes = vec![SearchNote::default(); moves];
    for (played, name, value) in &game.notes {
        let Some(note) = played.checked_sub(1).and_then(|at| notes.get_mut(at)) else {
            continue;
        };
        match name.as_str() {
            "HW" => {
                note.win_rate = value
                    .trim()
                    .parse()
                    .map_or(NO_SEARCH_VALUE, encode_search_value)
            }
            "HV" => note.visits = root_visits(value, game.size),
            _ => {}
        }
    }
    notes
}

/// The most visited moves of an `HV` note (`N;pd:410 dd:88 ...`) as (point index, visits), the
/// most visited first; passes (`tt` up to 19x19, an empty point above) and tokens that cannot
/// be read are left out.
fn root_visits(note: &str, size: usize) -> [(u16, u16); RECORD_VISITS] {
    let listed = note.split_once(';').map_or("", |(_, moves)| moves);
    let mut moves: Vec<(u16, u16)> = listed
        .split_whitespace()
        .filter_map(|token| {
            let (vertex, visits) = token.split_once(':')?;
            // A pass (`tt` up to 19x19, empty above) is no point of the board.
            let vertex = Vertex::parse_sgf(vertex, size)?;
            let point = usize::from(vertex.row) * size + usize::from(vertex.col);
            let visits: u64 = visits.parse().ok()?;
            Some((point as u16, visits.min(u64::from(u16::MAX)) as u16))
        })
        .filter(|&(_, visits)| visits > 0)
        .collect();
    moves.sort_by_key(|&(_, visits)| std::cmp::Reverse(visits));
    let mut kept = [(NO_VISIT_POINT, 0); RECORD_VISITS];
    for (slot, mv) in kept.iter_mut().zip(moves) {
        *slot = mv;
    }
    kept
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
    komi2(komi.trim().parse::<f64>().ok()?)
}

/// 7.5 as 15, if it is a whole or half number of points within an i16.
fn komi2(komi: f64) -> Option<i16> {
    let twice = komi * 2.0;
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
    /// `hoshi selfplay`'s shards: `selfplay-NNNNN.sgf`, one SGF game a line.
    SelfPlay,
}

impl Layout {
    /// The columns of an index line's result and komi (none: [`AI_KOMI2`]).
    fn columns(self) -> (usize, Option<usize>) {
        match self {
            Layout::Tom | Layout::SelfPlay => (5, Some(4)),
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
    /// Per move (from the first), what the search thought before it was played: self-play's
    /// `HW` and `HV`. Empty for games without them.
    pub search: Vec<SearchNote>,
    /// A self-play game's shard and line, `selfplay-00003.sgf:17` (the line from 1), as
    /// `train/label.py` names the game it labels: what joins its labels to the records.
    /// Empty for the shared games, which their index numbers.
    pub source: String,
}

/// The games of a `go-games/Tom` or `go-games/AI` folder, in the order of its index, or of a
/// folder of self-play shards, in the order of the shards.
pub struct Games {
    pub layout: Layout,
    /// Their board size.
    pub size: usize,
    pub games: Vec<GameRecord>,
    /// Index lines whose game no file holds.
    pub missing: u64,
    /// Self-play games left out ([`Tally::skipped`]).
    pub skipped: u64,
}

/// Reads the index and the game files of `dir`: `Kifu.index` and `kifu/` ([`Layout::Tom`]),
/// or, without them, every folder under `dir` holding a `kifu.index` and `kifu/`
/// ([`Layout::Ai`], in the order of their paths; a game two folders hold is read once).
pub fn games(dir: &Path) -> Result<Games, DatasetError> {
    let mut games = Games {
        layout: Layout::Tom,
        size: SIZE,
        games: Vec::new(),
        missing: 0,
        skipped: 0,
    };
    if dir.join("Kifu.index").is_file() {
        read_index(dir, "Kifu.index", &mut games, &mut HashSet::new())?;
        return Ok(games);
    }
    let shards = shard_files(dir)?;
    if !shards.is_empty() {
        games.layout = Layout::SelfPlay;
        for shard in shards {
            read_shard(&shard, &mut games)?;
        }
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

/// The self-play shards in `dir` (`selfplay-*.sgf`), sorted.
fn shard_files(dir: &Path) -> Result<Vec<PathBuf>, DatasetError> {
    let mut shards: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io_error(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("selfplay-") && n.ends_with(".sgf"))
        })
        .collect();
    shards.sort();
    Ok(shards)
}

/// Adds the games of one self-play shard to `games`: the first game read sets the board size.
fn read_shard(path: &Path, games: &mut Games) -> Result<(), DatasetError> {
    let text = fs::read_to_string(path).map_err(io_error(path))?;
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game = match sgf::parse(line) {
            Ok(game) => game,
            Err(why) => {
                log::warn!("{} line {}: {why}", path.display(), number + 1);
                games.skipped += 1;
                continue;
            }
        };
        if games.games.is_empty() {
            games.size = game.size;
        }
        let Some(moves) = game_moves(&game).filter(|_| game.size == games.size) else {
            games.skipped += 1;
            continue;
        };
        let result = game.result.as_deref().unwrap_or_default();
        let shard = path.file_name().map(|n| n.to_string_lossy());
        games.games.push(GameRecord {
            line: games.games.len() as u32,
            moves,
            outcome: Outcome::parse(result, game.komi.and_then(komi2)),
            search: search_notes(&game),
            source: format!("{}:{}", shard.unwrap_or_default(), number + 1),
        });
    }
    Ok(())
}

/// A game's moves in the shared games' form (`;B[qd];W[dc];W[]`), unless stones were set up.
fn game_moves(game: &sgf::GameRecord) -> Option<String> {
    let mut moves = String::new();
    for event in &game.events {
        let sgf::Event::Move(color, vertex) = event else {
            return None;
        };
        let letter = if *color == Color::Black { 'B' } else { 'W' };
        let value = vertex.map_or(String::new(), |v| v.to_sgf(game.size));
        moves.push_str(&format!(";{letter}[{value}]"));
    }
    Some(moves)
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
            Layout::Ai | Layout::SelfPlay => games.games.len() as u32,
        };
        match records.remove(id) {
            Some(moves) => games.games.push(GameRecord {
                line,
                moves,
                outcome: games.layout.outcome(&fields),
                search: Vec::new(),
                source: String::new(),
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

/// Replays one game's moves (`;B[qd];W[dc];...`) on a board of `size` by the French rules,
/// showing `visit` each position before a stone is played: the game so far, the colour to
/// play and its point. A move the rules forbid ends the game there. Returns how many
/// positions it showed.
pub fn replay(
    size: usize,
    moves: &str,
    line: u32,
    tally: &mut Tally,
    mut visit: impl FnMut(&Game, Color, Point) -> io::Result<()>,
) -> io::Result<u64> {
    let Some(mut game) = Game::new(size, Ruleset::FRENCH, 7.5) else {
        return Ok(0);
    };
    let mut shown = 0;
    for (number, token) in moves.split(';').filter(|t| !t.is_empty()).enumerate() {
        let Some((color, mv)) = parse_move(token, size) else {
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

/// One SGF move token, `B[qd]` (an empty value or, up to 19×19, `tt` is a pass), as a colour
/// and a move on a board of `size`.
fn parse_move(token: &str, size: usize) -> Option<(Color, Move)> {
    let token = token.trim();
    let color = match token.as_bytes().first()? {
        b'B' => Color::Black,
        b'W' => Color::White,
        _ => return None,
    };
    let value = token.get(1..)?.strip_prefix('[')?.strip_suffix(']')?;
    if value.is_empty() || (value == "tt" && size <= 19) {
        return Some((color, Move::Pass));
    }
    let vertex = Vertex::parse_sgf(value, size)?;
    let geometry = Geometry::new(size)?;
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
            search: Vec::new(),
            source: String::new(),
        };
        let mut record = vec![0u8; SIZE * SIZE + RECORD_TAIL];
        let mut recent = Vec::new();
        let mut out = Vec::new();
        replay(SIZE, moves, 7, tally, |position, color, p| {
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
        // Side to move (Black, White, Black), White won, komi 6.5, no search value nor visits.
        for (record, side) in out.iter().zip([0, 1, 0]) {
            assert_eq!(record[points + 8..points + 14], [side, 2, 13, 0, 255, 255]);
            assert_eq!(
                record[points + 14..],
                [255, 255, 0, 0].repeat(RECORD_VISITS)
            );
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
    fn root_visits_read_the_points_the_most_first() {
        let kept = root_visits("9;aa:1 tt:6 :2", 21);
        // T2 of 21x21 (SGF tt: column 19, row 21 - 1 - 19 = 1), then A21; the pass left out.
        assert_eq!(kept[..3], [(21 + 19, 6), (20 * 21, 1), (NO_VISIT_POINT, 0)]);
        assert_eq!(
            root_visits("4;tt:4", 19),
            [(NO_VISIT_POINT, 0); RECORD_VISITS]
        );
        assert_eq!(
            root_visits("no moves", 9),
            [(NO_VISIT_POINT, 0); RECORD_VISITS]
        );
    }

    /// Self-play shards: 9x9 games (the first game's size), another size and a line that is
    /// not SGF skipped, a pass kept, each game's result and komi, the files of 9x9 records.
    #[test]
    fn self_play_shards_make_a_dataset_of_their_size() {
        let root = std::env::temp_dir().join(format!("hoshi-selfplay-{}", std::process::id()));
        fs::create_dir_all(&root).expect("temp dir");
        let shard = "(;GM[1]SZ[9]KM[7.5]RE[W+R];B[ee]HV[9;dd:2 ee:6 tt:1 zz:1 cc:x]HW[0.52];W[cc];B[]HV[1;tt:1])\n\
                     (;GM[1]SZ[19]KM[7.5]RE[B+R];B[pd])\n\
                     not sgf\n";
        fs::write(root.join("selfplay-00000.sgf"), shard).expect("shard");
        let second = "\n(;GM[1]SZ[9]KM[6]RE[B+2];B[cg];W[gc];B[gg])\n";
        fs::write(root.join("selfplay-00001.sgf"), second).expect("shard");
        fs::write(root.join("notes.txt"), "not a shard").expect("other file");
        let read = games(&root).expect("reads");
        assert_eq!(
            (read.layout, read.size, read.skipped),
            (Layout::SelfPlay, 9, 2)
        );
        let moves: Vec<&str> = read.games.iter().map(|g| g.moves.as_str()).collect();
        assert_eq!(moves, [";B[ee];W[cc];B[]", ";B[cg];W[gc];B[gg]"]);
        let outcomes: Vec<Outcome> = read.games.iter().map(|g| g.outcome).collect();
        let outcome = |winner, komi2| Outcome { winner, komi2 };
        assert_eq!(
            outcomes,
            [outcome(Winner::White, 15), outcome(Winner::Black, 12)]
        );

        let out = root.join("out");
        let args = DatasetArgs {
            games: root.clone(),
            out: out.clone(),
            held_out_every: 2,
        };
        let tally = build(&args).expect("builds");
        let sizes = ["train.bin", "test.bin"].map(|f| fs::read(out.join(f)).expect("written"));
        let sources = fs::read_to_string(out.join(SOURCES)).expect("written");
        fs::remove_dir_all(&root).expect("cleanup");
        assert_eq!(
            sources,
            "game\tsource\n0\tselfplay-00000.sgf:1\n1\tselfplay-00001.sgf:2\n"
        );
        assert_eq!((tally.games, tally.positions), ([1, 1], [3, 2]));
        let record = 81 + RECORD_TAIL;
        assert_eq!(sizes[0].len(), 16 + 3 * record, "the second game trains");
        assert_eq!(sizes[1].len(), 16 + 2 * record, "the first is held out");
        assert_eq!(&sizes[0][..10], b"HOSHIDS3\x09\x00");
        // The second game's first move, C3 (SGF cg): column 2, row 2 of the 9x9 board; no
        // search value.
        let first = &sizes[0][16..16 + record];
        assert_eq!(u16::from_le_bytes([first[81], first[82]]), 2 * 9 + 2);
        assert_eq!(first[81 + 8..81 + 14], [0, 1, 12, 0, 255, 255]);
        assert_eq!(first[81 + 14..], [255, 255, 0, 0].repeat(RECORD_VISITS));
        // The first game's E5 with its HW[0.52], 0.52 * 65534 = 34077.7; C3 without one.
        let search = |at: usize| {
            let tail = &sizes[1][16 + at * record + 81 + 12..];
            u16::from_le_bytes([tail[0], tail[1]])
        };
        assert_eq!((search(0), search(1)), (34078, NO_SEARCH_VALUE));
        // E5's visits, the most first: E5 (row 4, column 4) 6, D6 (row 5, column 3) 2; the
        // pass and the tokens that are not moves left out.
        let visits = &sizes[1][16 + 81 + 14..16 + record];
        let expected = [[40, 0, 6, 0], [48, 0, 2, 0]].concat();
        assert_eq!(visits[..8], expected);
        assert_eq!(visits[8..], [255, 255, 0, 0].repeat(RECORD_VISITS - 2));
    }

    #[test]
    fn every_hundredth_game_is_held_out() {
        let held: Vec<u32> = (0..1000).filter(|&l| is_held_out(l, 100)).collect();
        assert_eq!(held, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    }
}
