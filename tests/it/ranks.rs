//! The rank scale from outside: the weakest rank still saves a big chain in atari on every
//! board, and `hoshi calibrate` plays a link of the chain with the fair handicap, writes
//! its table and resumes without playing a game twice.

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoshi-ranks-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// hoshi's answers to `script` with the given options.
fn gtp(options: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoshi"))
        .args(options)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hoshi runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("the script is sent");
    let output = child.wait_with_output().expect("hoshi answers");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_weakest_rank_saves_its_big_chain_in_atari_on_every_board() {
    // Black's C3 D3 E3 D4 in atari, saved by D5 only; far stones elsewhere.
    for (size, far) in [(9, ["H8", "H2", "D8"]), (19, ["Q16", "Q4", "D16"])] {
        let script = format!(
            "boardsize {size}\nclear_board\nplay b C3\nplay w C2\nplay b D3\nplay w D2\n\
             play b E3\nplay w E2\nplay b D4\nplay w B3\nplay b {}\nplay w F3\nplay b {}\n\
             play w C4\nplay b {}\nplay w E4\ngenmove b\n",
            far[0], far[1], far[2]
        );
        for seed in ["1", "2", "3", "4", "5"] {
            let answers = gtp(&["--rank", "30k", "--seed", seed], &script);
            let last = answers.trim_end().lines().last().unwrap_or("");
            assert_eq!(last, "= D5", "{size}x{size}, seed {seed}: {answers}");
        }
    }
}

#[test]
fn calibration_plays_a_link_with_the_fair_handicap_and_resumes() {
    let out = scratch("calibrate");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_hoshi"))
            .args(["calibrate", "--board", "7", "--link", "30k:18k"])
            .args(["--games", "2", "--parallel", "1"])
            .args(["--hoshi-options", "--policy-net none"])
            .args(["--out", out.to_str().expect("a UTF-8 path")])
            .output()
            .expect("hoshi calibrate runs")
    };
    let first = run();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let table = fs::read_to_string(out.join("calibration.tsv")).expect("the table");
    let row: Vec<&str> = table.lines().nth(1).expect("one row").split('\t').collect();
    // Twelve ranks are two stones on the 9x9 class's table.
    assert_eq!(&row[..6], ["7", "30k", "18k (hoshi)", "2", "0.5", "2"]);
    let match_dir = out.join("7x7-30k-18k");
    let results = fs::read_to_string(match_dir.join("results.tsv")).expect("the games");
    assert_eq!(results.lines().count(), 3, "a header and two games");
    let sgf = fs::read_to_string(match_dir.join("game-0001.sgf")).expect("a record");
    assert!(sgf.contains("HA[2]") && sgf.contains("KM[0.5]"), "{sgf}");
    assert!(sgf.contains("--rank 30k"), "the weaker is Black: {sgf}");
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(
        stdout.contains("| 30k | 7x7 | 18k (hoshi) | 2 | 0.5 | 2 |"),
        "{stdout}"
    );
    // Run again: nothing more to play, the same table.
    let second = run();
    assert!(second.status.success());
    let again = fs::read_to_string(match_dir.join("results.tsv")).expect("the games");
    assert_eq!(again, results);
    assert_eq!(
        fs::read_to_string(out.join("calibration.tsv")).expect("the table"),
        table
    );
    let _ = fs::remove_dir_all(&out);
}

#[test]
fn a_fair_match_gives_the_weaker_rank_black_and_its_handicap() {
    let out = scratch("fair");
    let hoshi = env!("CARGO_BIN_EXE_hoshi");
    let engine = |rank: &str, seed: &str| {
        format!("{hoshi} --rank {rank} --policy-net none --seed {seed}{{game}}")
    };
    let run = |black: &str, white: &str| {
        Command::new(hoshi)
            .args(["match", "--size", "9", "--games", "1", "--handicap", "fair"])
            .args(["--black", black, "--white", white])
            .args(["--out", out.to_str().expect("a UTF-8 path")])
            .output()
            .expect("hoshi match runs")
    };
    // 20k against 8k: twelve ranks, two stones on 9x9, komi 0.5.
    let played = run(&engine("20k", "1"), &engine("8k", "2"));
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let sgf = fs::read_to_string(out.join("game-0001.sgf")).expect("a record");
    assert!(sgf.contains("HA[2]") && sgf.contains("KM[0.5]"), "{sgf}");
    // The stronger as Black is refused, and so is an engine without a rank.
    let refused = run(&engine("8k", "3"), &engine("20k", "4"));
    assert!(!refused.status.success());
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(
        why.contains("the --black engine (8k) is stronger than the --white one (20k)"),
        "{why}"
    );
    let random = format!("{hoshi} --random");
    let unranked = run(&random, &engine("8k", "5"));
    assert!(!unranked.status.success());
    let _ = fs::remove_dir_all(&out);
}
