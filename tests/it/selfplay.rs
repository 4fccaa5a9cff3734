//! `hoshi selfplay`: a shard of games on a small board, each a line of SGF that replays
//! under the rules with the search's visits on every searched move; a shard cut off in the
//! middle of a game resumes, keeping its finished games and playing the rest.

use hoshi::rules::Ruleset;
use hoshi::sgf;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoshi-selfplay-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Plays shard 3 of `games` games on 5x5 into `dir`; returns the shard's text.
fn selfplay(dir: &Path, games: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_hoshi"))
        .args([
            "--seed",
            "11",
            "--threads",
            "1",
            "--policy-net",
            "none",
            "selfplay",
        ])
        .args(["--out", dir.to_str().expect("a UTF-8 path")])
        .args([
            "--shard", "3", "--games", games, "--board", "5", "--visits", "60",
        ])
        .output()
        .expect("hoshi runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stdout.is_empty(), "stdout is for GTP only");
    fs::read_to_string(dir.join("selfplay-00003.sgf")).expect("the shard's file")
}

/// Checks one game's line: it replays, its result is there, and every move the search
/// chose carries visits that add up to their total and include the move played.
fn check_game(line: &str) {
    let record = sgf::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let game = record
        .replay(Ruleset::FRENCH, 7.5, None)
        .unwrap_or_else(|e| panic!("{e}: {line}"));
    assert!(game.move_number() > 0, "{line}");
    assert!(record.result.is_some(), "{line}");
    let size = record.size;
    let visits: Vec<&(usize, String, String)> = record
        .notes
        .iter()
        .filter(|(_, name, _)| name == "HV")
        .collect();
    assert!(!visits.is_empty(), "{line}");
    for (moves, _, value) in visits {
        let (total, counts) = value.split_once(';').expect("N;moves");
        let total: u64 = total.parse().expect("a total");
        let counts: Vec<(&str, u64)> = counts
            .split(' ')
            .map(|m| {
                let (point, n) = m.split_once(':').expect("point:visits");
                (point, n.parse().expect("visits"))
            })
            .collect();
        assert_eq!(counts.iter().map(|c| c.1).sum::<u64>(), total, "{value}");
        // The move of this node (the `moves`th) is among the searched ones.
        let played = game.history()[moves - 1].mv;
        let name = match played {
            hoshi::coord::Move::Pass => "tt".to_string(),
            hoshi::coord::Move::Play(p) => game.board().geometry().vertex(p).to_sgf(size),
        };
        assert!(counts.iter().any(|c| c.0 == name), "{name} not in {value}");
    }
}

#[test]
fn a_shard_is_games_with_visits_and_resumes_after_a_cut() {
    let dir = scratch("resume");
    let two = selfplay(&dir, "2");
    let lines: Vec<&str> = two.lines().collect();
    assert_eq!(lines.len(), 2);
    lines.iter().for_each(|l| check_game(l));
    assert_ne!(lines[0], lines[1], "each game its own seed");

    // A run stopped in the middle of writing a game: the partial line is dropped, the
    // finished games are kept as they were, and the shard is completed.
    let shard = dir.join("selfplay-00003.sgf");
    fs::write(&shard, format!("{two}(;FF[4]GM[1]SZ[5];B[cc]")).expect("a cut shard");
    let three = selfplay(&dir, "3");
    let again: Vec<&str> = three.lines().collect();
    assert_eq!(again.len(), 3);
    assert_eq!(&again[..2], &lines[..], "finished games untouched");
    check_game(again[2]);

    // A finished shard plays nothing more.
    assert_eq!(selfplay(&dir, "3"), three);
}
