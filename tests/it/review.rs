//! `hoshi analyze`: the binary reviews a short 9x9 game with one blunder (Black leaves two
//! stones in atari and plays the 1-1 point; White captures), and the annotated file it
//! writes reads back with the same game, a win rate and a comment on every move, the
//! blunder flagged; bad input fails with a message and writes nothing.

use hoshi::coord::Color;
use hoshi::sgf::{self, Event};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Twelve moves; move 11 (B A9) leaves D5-E5 in atari, and move 12 (W F5) takes them.
const BLUNDER_GAME: &str = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Alice]PW[Bob \\] Smith]\
DT[2026-11-29]RE[W+R]C[A friendly game]\n;B[de];W[df];B[ee];W[ef];B[gf];W[dd];B[gd];W[ed]\
;B[cc];W[ce];B[aa]C[Black: \"safe \\]\"];W[fe])";

/// The blunder, counted from 1.
const BLUNDER: usize = 11;

/// A scratch directory of this test's own, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoshi-review-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn analyze(args: &[&str]) -> Output {
    analyze_with(&[], args)
}

/// `hoshi OPTIONS analyze ARGS`: the engine's options (`--net`) come before the subcommand.
fn analyze_with(options: &[&str], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hoshi"))
        .args(options)
        .arg("analyze")
        .args(args)
        .output()
        .expect("hoshi runs")
}

/// Reviews `game` (written to `dir/game.sgf`) cheaply and reproducibly, with the playouts
/// judging (`--net none`: the review's mistake threshold was set for their verdicts);
/// returns the annotated text.
fn review(dir: &Path, game: &str, playouts: &str) -> String {
    review_with(dir, game, playouts, "none")
}

/// The same with the network `net` (`builtin`: hoshi's own for the board).
fn review_with(dir: &Path, game: &str, playouts: &str, net: &str) -> String {
    let input = dir.join("game.sgf");
    fs::write(&input, game).expect("game written");
    let args = [input.to_str().expect("path"), "--visits", playouts];
    let args = [&args[..], &["--threads", "1", "--seed", "1"]].concat();
    let options = if net == "builtin" {
        vec![]
    } else {
        vec!["--net", net]
    };
    let out = analyze_with(&options, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "hoshi analyze failed:\n{stderr}");
    assert!(out.stdout.is_empty(), "stdout is not for progress");
    assert!(
        stderr.contains("game-hoshi.sgf"),
        "no final line:\n{stderr}"
    );
    assert_eq!(
        fs::read_to_string(&input).expect("input"),
        game,
        "input changed"
    );
    fs::read_to_string(dir.join("game-hoshi.sgf")).expect("annotated file beside the game")
}

/// The nodes of the main line of a file without variations, each as its properties (first
/// value each), read by hand: `sgf::parse` keeps only what a game needs.
fn nodes(text: &str) -> Vec<Vec<(String, String)>> {
    let mut nodes: Vec<Vec<(String, String)>> = Vec::new();
    let mut name = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ';' => nodes.push(Vec::new()),
            'A'..='Z' => name.push(c),
            '[' => {
                let mut value = String::new();
                while let Some(v) = chars.next() {
                    match v {
                        ']' => break,
                        '\\' => value.extend(chars.next()),
                        _ => value.push(v),
                    }
                }
                if !name.is_empty() {
                    let node = nodes.last_mut().expect("a property outside a node");
                    node.push((std::mem::take(&mut name), value));
                }
            }
            _ => {}
        }
    }
    nodes
}

fn property<'a>(node: &'a [(String, String)], name: &str) -> Option<&'a str> {
    node.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn moves(text: &str) -> Vec<Event> {
    let record = sgf::parse(text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    record
        .events
        .into_iter()
        .filter(|e| matches!(e, Event::Move(..)))
        .collect()
}

#[test]
fn every_move_gets_a_win_rate_and_a_comment_and_the_blunder_is_flagged() {
    let dir = scratch("blunder");
    let text = review(&dir, BLUNDER_GAME, "2000");

    assert_eq!(
        moves(&text),
        moves(BLUNDER_GAME),
        "not the same game:\n{text}"
    );
    let record = sgf::parse(&text).expect("annotated SGF");
    assert_eq!((record.size, record.komi), (9, Some(7.0)));
    assert_eq!(record.rules.as_deref(), Some("Chinese"));
    for (name, value) in [
        ("PB", "Alice"),
        ("PW", "Bob ] Smith"),
        ("DT", "2026-11-29"),
        ("RE", "W+R"),
    ] {
        assert!(
            record.info.contains(&(name.into(), value.into())),
            "{name} lost:\n{text}"
        );
    }

    let nodes = nodes(&text);
    assert_eq!(nodes.len(), 13, "{text}");
    for (number, node) in nodes.iter().enumerate().skip(1) {
        let winrate: f64 = property(node, "SBKV")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("move {number}: no SBKV"));
        assert!((0.0..=100.0).contains(&winrate), "move {number}: {winrate}");
        let comment = property(node, "C").unwrap_or_else(|| panic!("move {number}: no C"));
        assert!(
            comment.starts_with("Black ") && comment.contains("hoshi: "),
            "move {number}: {comment}"
        );
    }

    let blunder = &nodes[BLUNDER];
    assert_eq!(property(blunder, "B"), Some("aa"));
    assert_eq!(property(blunder, "BM"), Some("1"), "{blunder:?}");
    let comment = property(blunder, "C").unwrap_or_default();
    assert!(comment.contains("Mistake: Black loses"), "{comment}");
    assert!(
        comment.ends_with("\n\nBlack: \"safe ]\""),
        "own comment lost: {comment}"
    );
    // hoshi would have saved the stones (F5) rather than play the 1-1 point.
    assert!(comment.contains("hoshi: F5"), "{comment}");
    // The capture that follows is no mistake.
    assert_eq!(property(&nodes[BLUNDER + 1], "BM"), None);

    // The root sums up: the blunder is Black's largest loss.
    let summary = property(&nodes[0], "C").expect("root comment");
    assert!(summary.contains("2000 visits a position"), "{summary}");
    let black = summary
        .lines()
        .find(|l| l.starts_with("Black: "))
        .expect("Black's line");
    assert!(
        black.contains(&format!("largest losses: move {BLUNDER} A9 ")),
        "{summary}"
    );
    assert!(
        property(&nodes[0], "SBKV").is_some(),
        "start position's win rate"
    );
    fs::remove_dir_all(&dir).ok();
}

/// The built-in 9x9 value network reviews the same game with its value at every leaf: it counts the
/// 1-1 point as a loss of ground, after which White leads by more than the two stones. Black
/// was far behind already, so the win rate lost is small; the points lost flag it.
#[test]
fn the_value_network_sees_the_blunder_too() {
    let dir = scratch("value-network");
    let text = review_with(&dir, BLUNDER_GAME, "1000", "builtin");
    let nodes = nodes(&text);
    assert_eq!(nodes.len(), 13, "{text}");
    let comment = property(&nodes[BLUNDER], "C").unwrap_or_default();
    let number_after = |marker: &str, end: char| -> f64 {
        comment
            .split(marker)
            .nth(1)
            .and_then(|rest| rest.split(end).next())
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("no {marker:?} in {comment}"))
    };
    assert!(number_after("played A9 (", '%') < -2.0, "{comment}");
    assert!(number_after("· W+", ' ') > 10.0, "{comment}");
    assert_eq!(property(&nodes[BLUNDER], "BM"), Some("1"), "{comment}");
    assert!(number_after("% and ", ' ') > 6.0, "{comment}");
    let summary = property(&nodes[0], "C").expect("root comment");
    assert!(summary.contains(" or 6 points."), "{summary}");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_same_seed_gives_the_same_win_rates() {
    let win_rates = |name: &str| -> Vec<String> {
        let dir = scratch(name);
        let text = review(&dir, BLUNDER_GAME, "500");
        fs::remove_dir_all(&dir).ok();
        nodes(&text)
            .iter()
            .filter_map(|n| property(n, "SBKV").map(String::from))
            .collect()
    };
    let first = win_rates("seed-a");
    assert_eq!(first.len(), 13);
    assert_eq!(first, win_rates("seed-b"));
}

#[test]
fn handicap_stones_and_the_turn_carry_over() {
    let dir = scratch("handicap");
    let game = "(;SZ[9]KM[0.5]HA[2]AB[cc][gg];W[ee];B[ce];W[ge])";
    let text = review(&dir, game, "200");
    let record = sgf::parse(&text).expect("annotated SGF");
    assert_eq!(record.handicap, 2);
    let replayed = record
        .replay(hoshi::rules::Ruleset::FRENCH, 0.5, None)
        .expect("replays");
    assert_eq!(replayed.handicap_stones().len(), 2);
    assert_eq!(replayed.to_move(), Color::Black);
    assert_eq!(moves(&text), moves(game));
    assert!(nodes(&text)
        .iter()
        .skip(1)
        .all(|n| property(n, "SBKV").is_some()));
    fs::remove_dir_all(&dir).ok();
}

/// Runs `hoshi analyze` on `input` expecting a failure that says `why` on stderr and writes
/// no annotated file in `dir`.
fn refused(dir: &Path, input: &Path, extra: &[&str], why: &str) {
    let mut args = vec![input.to_str().expect("path")];
    args.extend(extra);
    let out = analyze(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "accepted {input:?}");
    assert!(stderr.contains(why), "{input:?}: no `{why}` in:\n{stderr}");
    assert!(out.stdout.is_empty());
    let files: Vec<PathBuf> = fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with("-hoshi.sgf"))
        .collect();
    assert!(files.is_empty(), "wrote {files:?}");
}

#[test]
fn bad_input_fails_with_a_message_and_writes_nothing() {
    let dir = scratch("bad");
    refused(&dir, &dir.join("missing.sgf"), &[], "cannot read");
    for (name, text, why) in [
        ("garbage.sgf", "this is no game at all", "not SGF"),
        ("cut.sgf", "(;SZ[9];B[ee];W[", "not SGF"),
        ("big.sgf", "(;SZ[42];B[aa])", "bad value"),
        ("illegal.sgf", "(;SZ[9];B[ee];W[ee])", "illegal"),
    ] {
        let input = dir.join(name);
        fs::write(&input, text).expect("written");
        refused(&dir, &input, &["--playouts", "10"], why);
        assert_eq!(fs::read_to_string(&input).expect("input"), text);
    }
    // The game's own file is never the output.
    let input = dir.join("game.sgf");
    fs::write(&input, BLUNDER_GAME).expect("written");
    let same = input.to_str().expect("path");
    refused(&dir, &input, &["--out", same], "the game itself");
    let nowhere = dir.join("no-such-dir").join("out.sgf");
    let nowhere = nowhere.to_str().expect("path");
    refused(&dir, &input, &["--out", nowhere], "no such directory");
    assert_eq!(fs::read_to_string(&input).expect("input"), BLUNDER_GAME);
    fs::remove_dir_all(&dir).ok();
}
