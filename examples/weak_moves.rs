//! The moves no player makes without a reason, counted per player in game records: a
//! first-line point with no stone within two lines (what a weak rank must not crawl on), a
//! stone in one of the player's own eyes, and a pass while one of the player's chains is in
//! atari and has a legal move that may save it (a capture or an escape). The check that
//! hoshi's weak ranks are weak the way people are, not like random play, on the records
//! `hoshi calibrate` and `hoshi match` leave.
//!
//!     cargo run --release --example weak_moves -- calibration/ other-games/*.sgf
//!
//! Arguments are SGF files or directories, searched to any depth for `.sgf` files. A player
//! is named by the `--rank R` of its command line (PB, PW) when it has one, else by its
//! name; the counts are per board size and player. `--list` also prints each such move
//! (file, move number, player, move) to stderr, to look at. `--help` lists the options.

use clap::Parser;
use hoshi::coord::{Color, Move};
use hoshi::game::Game;
use hoshi::player::strength;
use hoshi::rules::Ruleset;
use hoshi::sgf::{self, Event};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The moves no player makes without a reason, counted per player in game records.
#[derive(Parser, Debug)]
struct Args {
    /// Also print each such move (file, move number, player, move) to stderr.
    #[arg(long)]
    list: bool,
    /// The games: SGF files, or directories searched to any depth for `.sgf` files.
    #[arg(required = true, value_name = "SGF-FILE-OR-DIR")]
    paths: Vec<PathBuf>,
}

/// What one player did across its games on one board size.
#[derive(Default)]
struct Tally {
    games: usize,
    moves: usize,
    lonely_edge: usize,
    own_eye: usize,
    passes: usize,
    passes_in_atari: usize,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut files = Vec::new();
    for path in &args.paths {
        if let Err(e) = collect(path, &mut files) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let mut tallies: BTreeMap<(usize, String), Tally> = BTreeMap::new();
    let mut unreadable = 0;
    for file in &files {
        if let Err(e) = count_game(file, args.list, &mut tallies) {
            eprintln!("{}: {e}", file.display());
            unreadable += 1;
        }
    }
    println!("size\tplayer\tgames\tmoves\tlonely_edge\town_eye\tpasses\tpasses_in_atari");
    for ((size, player), t) in &tallies {
        println!(
            "{size}\t{player}\t{}\t{}\t{}\t{}\t{}\t{}",
            t.games, t.moves, t.lonely_edge, t.own_eye, t.passes, t.passes_in_atari
        );
    }
    eprintln!(
        "{} games read, {unreadable} skipped",
        files.len() - unreadable
    );
    ExitCode::SUCCESS
}

/// The `.sgf` files under `path` (or `path` itself), sorted.
fn collect(path: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        files.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            collect(&entry, files)?;
        } else if entry.extension().is_some_and(|x| x == "sgf") {
            files.push(entry);
        }
    }
    Ok(())
}

/// Replays one record, adding each move to its player's tally.
fn count_game(
    file: &Path,
    list: bool,
    tallies: &mut BTreeMap<(usize, String), Tally>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let record = sgf::parse(&text).map_err(|e| e.to_string())?;
    let name = |key: &str| {
        let value = record
            .info
            .iter()
            .find(|(k, _)| k == key)
            .map_or("?", |(_, v)| v.as_str());
        player_name(value)
    };
    let names = [name("PB"), name("PW")];
    for player in &names {
        tallies
            .entry((record.size, player.clone()))
            .or_default()
            .games += 1;
    }
    // The position before the first move: the handicap and other setup stones.
    let mut game: Game = record
        .replay(Ruleset::FRENCH, 7.5, Some(1))
        .map_err(|e| e.to_string())?;
    for event in &record.events {
        let Event::Move(color, vertex) = event else {
            continue;
        };
        let number = game.move_number() + 1;
        let mv = vertex.map_or(Move::Pass, |v| Move::Play(game.board().geometry().point(v)));
        let player = &names[usize::from(*color == Color::White)];
        let tally = tallies
            .get_mut(&(record.size, player.clone()))
            .ok_or("no tally")?;
        tally.moves += 1;
        let mut odd = Vec::new();
        match mv {
            Move::Play(p) => {
                if strength::lonely_edge(game.board(), p) {
                    tally.lonely_edge += 1;
                    odd.push("a lonely first-line point");
                }
                if game.board().is_eye(p, *color) {
                    tally.own_eye += 1;
                    odd.push("an own eye");
                }
            }
            Move::Pass => {
                tally.passes += 1;
                if can_save_a_chain(&game, *color) {
                    tally.passes_in_atari += 1;
                    odd.push("a pass with a chain in atari");
                }
            }
        }
        for what in odd.iter().filter(|_| list) {
            let name = game.board().geometry().move_name(mv);
            eprintln!(
                "{}: move {number}, {player}: {name}, {what}",
                file.display()
            );
        }
        game.play(*color, mv)
            .map_err(|e| format!("{mv:?}: {e:?}"))?;
    }
    Ok(())
}

/// The `--rank R` of an engine's command line, else its name.
fn player_name(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "--rank")
        .map_or_else(|| command.to_string(), |w| w[1].to_string())
}

/// Whether one of `color`'s chains is in atari with a legal move that may save it.
fn can_save_a_chain(game: &Game, color: Color) -> bool {
    let board = game.board();
    board.chains_in_atari(color).into_iter().any(|chain| {
        let mut legal = false;
        board.atari_escapes(chain, |p| legal |= game.is_legal(color, Move::Play(p)));
        legal
    })
}
