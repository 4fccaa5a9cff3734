//! `hoshi selfplay`: games hoshi plays against itself, with what its search thought of each
//! move, for the networks to learn from (docs/policy-net.md, "Self-play").
//!
//! Games come in numbered shards, each its own file (`selfplay-NNNNN.sgf`, one game a line)
//! and its own seeds, so that any number of machines play shards side by side (a 16-core
//! machine, GNU parallel, a Slurm array: `--shard $SLURM_ARRAY_TASK_ID`) and the training
//! tool merges what they wrote. A shard resumes where it stopped: its finished games are
//! kept, a game cut off in the middle is played again from its seed.
//!
//! Each game is the engine as it plays (the expert's search at a fixed number of visits, its
//! passing and resigning, its count of the end), except that its first moves are drawn
//! among the good candidates by their visits, so that games differ, and that a share of
//! the games never resigns, so that the training sees how resigned positions really end
//! (Leela Zero and KataGo do both). Each move carries the search's visits of the root moves
//! (`HV`: `N;pd:410 dd:88 ...`, N the visits in all, `tt` a pass, or an empty point over
//! 19x19) and its win rate for the player to move (`HW`); the root carries the shard, game
//! and seed (`HS`).

use crate::coord::{Geometry, Move};
use crate::engine::{Engine, Settings};
use crate::player::{Choice, Level, Mode};
use crate::search::SearchResult;
use crate::sgf::{self, Annotations};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `hoshi selfplay`'s command line (the engine's own options, `--policy-net`, `--param`,
/// `--rules`, apply too).
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The folder of the shards (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// The shard to play: its file and its games' seeds.
    #[arg(long, default_value_t = 0)]
    pub shard: u32,
    /// Games in a shard.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Board size.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub board: u8,
    /// Visits (simulations through the tree) a move.
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u64).range(1..))]
    pub visits: u64,
    /// Komi of every game.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub game_komi: f64,
    /// Moves at the start drawn by their visits [default: a twelfth of the points, 30 on
    /// 19x19, 6 on 9x9].
    #[arg(long)]
    pub opening_moves: Option<usize>,
    /// One game in this many is played to the end without resigning (0: none).
    #[arg(long, default_value_t = 10)]
    pub no_resign_every: u32,
}

/// What stops the command.
#[derive(Debug)]
pub enum SelfplayError {
    Io(PathBuf, io::Error),
}

impl fmt::Display for SelfplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfplayError::Io(path, why) => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for SelfplayError {}

/// Runs `hoshi selfplay` with the engine's `settings` (network, parameters, rules, threads).
pub fn command(args: &SelfplayArgs, settings: &Settings) -> ExitCode {
    match play_shard(args, settings) {
        Ok(played) => {
            log::info!(
                "shard {}: {played} games played, {} in the file",
                args.shard,
                args.games
            );
            ExitCode::SUCCESS
        }
        Err(why) => {
            log::error!("hoshi selfplay: {why}");
            ExitCode::FAILURE
        }
    }
}

/// The file of shard `shard` in `folder`.
pub fn shard_path(folder: &Path, shard: u32) -> PathBuf {
    folder.join(format!("selfplay-{shard:05}.sgf"))
}

/// Plays the games the shard lacks; returns how many.
fn play_shard(args: &SelfplayArgs, settings: &Settings) -> Result<u32, SelfplayError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |why| SelfplayError::Io(path, why)
    };
    fs::create_dir_all(&args.out).map_err(io(&args.out))?;
    let path = shard_path(&args.out, args.shard);
    let done = keep_finished_games(&path).map_err(io(&path))?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io(&path))?;
    let mut played = 0;
    for game in done..args.games {
        let line = play_game(args, settings, game);
        write_game(&mut file, &line).map_err(io(&path))?;
        played += 1;
        log::info!("shard {} game {game}: {}", args.shard, result_of(&line));
    }
    Ok(played)
}

/// The number of finished games in the shard file at `path` (none if it is missing),
/// after cutting off a game that was being written when the last run stopped.
fn keep_finished_games(path: &Path) -> io::Result<u32> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(why) if why.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(why) => return Err(why),
    };
    let finished = text.rfind(")\n").map_or(0, |end| end + 2);
    if finished < text.len() {
        log::warn!("{}: dropping an unfinished game", path.display());
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(finished as u64)?;
    }
    Ok(text[..finished].lines().count() as u32)
}

/// Appends one game's line and makes sure it is on disk before the next game starts.
fn write_game(file: &mut File, line: &str) -> io::Result<()> {
    file.write_all(line.as_bytes())?;
    file.write_all(b"\n")?;
    file.sync_data()
}

/// The seed of game `game` of shard `shard`: distinct for every shard and game.
pub fn game_seed(base: u64, shard: u32, game: u32) -> u64 {
    let mixed = base ^ (u64::from(shard) << 32 | u64::from(game));
    // SplitMix64's finaliser: neighbouring shards and games get unrelated seeds.
    let mut z = mixed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One game of the shard, as a line of SGF.
fn play_game(args: &SelfplayArgs, base: &Settings, game: u32) -> String {
    let size = usize::from(args.board);
    let seed = game_seed(base.seed, args.shard, game);
    let mut settings = base.clone();
    settings.player.rank = Level::Expert.rank();
    settings.size = size;
    settings.komi = Some(args.game_komi);
    settings.player.visits = Some(args.visits);
    settings.player.time = None;
    settings.seed = seed;
    settings.ponder = false;
    settings.player.opening_moves = args.opening_moves.unwrap_or(size * size / 12);
    let resigns = args.no_resign_every == 0 || !game.is_multiple_of(args.no_resign_every);
    if !resigns {
        settings.player.params.player.resign_threshold = 0.0;
    }
    let mut engine = Engine::new(settings);
    let mut notes = Annotations::default();
    notes.root.push(("PB".into(), "hoshi".into()));
    notes.root.push(("PW".into(), "hoshi".into()));
    notes
        .root
        .push(("HS".into(), format!("{}:{game}:{seed}", args.shard)));
    // A game the player would not end: longer than any real one.
    let max_moves = 3 * size * size;
    while engine.result().is_none() && engine.game().move_number() < max_moves {
        let color = engine.game().to_move();
        let choice = engine.genmove(color, Mode::Play);
        if choice == Choice::Resign {
            break;
        }
        let geometry = engine.game().board().geometry();
        notes.moves.push(
            engine
                .last_search()
                .map_or_else(Vec::new, |s| search_notes(s, geometry)),
        );
    }
    let result = engine.result().unwrap_or_else(|| engine.final_score());
    sgf::write_annotated(engine.game(), Some(result), &notes).replace('\n', "")
}

/// The `HV` and `HW` properties of a move from its search.
fn search_notes(result: &SearchResult, geometry: Geometry) -> Vec<(String, String)> {
    let total: u64 = result.candidates.iter().map(|c| u64::from(c.visits)).sum();
    let mut visits = format!("{total};");
    for (i, c) in result
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .enumerate()
    {
        if i > 0 {
            visits.push(' ');
        }
        visits.push_str(&format!("{}:{}", sgf_move(c.mv, geometry), c.visits));
    }
    vec![
        ("HV".into(), visits),
        ("HW".into(), format!("{:.4}", result.winrate)),
    ]
}

/// A move as SGF writes it: a pass `tt` where that is no point (up to 19x19), empty on the
/// larger boards.
fn sgf_move(mv: Move, geometry: Geometry) -> String {
    let size = geometry.size();
    match mv {
        Move::Pass if size <= 19 => "tt".to_string(),
        Move::Pass => String::new(),
        Move::Play(p) => geometry.vertex(p).to_sgf(size),
    }
}

/// The `RE` of a game's line, for the log.
fn result_of(line: &str) -> &str {
    line.split("RE[")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::Vertex;

    #[test]
    fn a_pass_is_tt_only_where_tt_is_no_point() {
        let move_on = |size: usize, mv: Option<Vertex>| {
            let geometry = Geometry::new(size).expect("a size");
            sgf_move(
                mv.map_or(Move::Pass, |v| Move::Play(geometry.point(v))),
                geometry,
            )
        };
        assert_eq!(move_on(19, None), "tt");
        assert_eq!(move_on(21, None), "");
        assert_eq!(move_on(21, Some(Vertex::new(19, 21 - 1 - 19))), "tt");
        assert_eq!(move_on(9, Some(Vertex::new(2, 2))), "cg");
    }
}
