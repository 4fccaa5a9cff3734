//! Robustness: one engine process is fed thousands of seeded random lines (garbage bytes,
//! control characters, huge numbers, bad vertices, wrong argument counts, and valid commands
//! with random arguments). After every line the engine must answer (unless the line is
//! empty once cleaned, when it must not), with correct framing; after every failing command
//! the position must be what it was before (compared through `showboard`, which shows the
//! stones, captures, move number, player to move, komi, rules and handicap).

use crate::common;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long an answer may take before the engine counts as hung: generous, since a
/// dead-stone judgement on a big board takes a few tenths of a second of CPU, and a test run
/// beside other work may get a small share of the cores.
const PATIENCE: Duration = Duration::from_secs(30);

/// An engine process whose answers a reader thread splits at their empty line.
struct Session {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<String>,
}

impl Session {
    /// An engine searching 10 visits a move: the input is what is under test, not the
    /// moves, and expert's network (KataGo's b6c96) takes some 5 ms a visit.
    fn start(dir: &Path) -> Session {
        let mut child =
            common::spawn_hoshi(&["--seed", "7", "--size", "9", "--playouts", "10"], dir);
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut answer = Vec::new();
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                if line == b"\n" {
                    let text = String::from_utf8_lossy(&answer).into_owned();
                    if sender.send(text).is_err() {
                        return;
                    }
                    answer.clear();
                } else {
                    answer.extend_from_slice(&line);
                }
                line.clear();
            }
        });
        Session {
            child,
            stdin,
            answers,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("engine reads");
        self.stdin.write_all(b"\n").expect("engine reads");
        self.stdin.flush().expect("engine reads");
    }

    fn answer(&self) -> Result<String, String> {
        self.answers
            .recv_timeout(PATIENCE)
            .map_err(|e| format!("no answer ({e})"))
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line.as_bytes());
        self.answer().unwrap_or_else(|e| panic!("`{line}`: {e}"))
    }
}

/// Whether the spec's preprocessing leaves nothing of `line` (no answer is then due).
fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .take_while(|&&b| b != b'#')
        .all(|&b| b == b' ' || b == b'\t' || b < 32 || b == 127)
}

/// The SGF fixtures of the regression tests, by absolute path.
fn fixtures() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests/sgf");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("gtp-tests/sgf")
        .filter_map(|e| e.ok())
        .map(|e| e.path().display().to_string())
        .collect();
    files.sort();
    files.push("/no/such/file.sgf".into());
    files
}

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "final_score",
    "final_status_list",
    "loadsgf",
    "reg_genmove",
    "showboard",
    "kgs-genmove_cleanup",
    "kgs-rules",
    "kgs-time_settings",
    "kgs-game_over",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "gogui-play_sequence",
    "gg-undo",
    "printsgf",
    "cputime",
    "get_komi",
    "is_legal",
    "all_legal",
    "list_stones",
    "captures",
    "color",
    "countlib",
    "findlib",
    "echo",
    "estimate_score",
    "hoshi-rules",
    "hoshi-ownership",
    "hoshi-time_budget",
    "hoshi-time_left",
    "nonsense",
    "PLAY",
    "Genmove",
];

const WORDS: &[&str] = &[
    "b",
    "w",
    "B",
    "WHITE",
    "black",
    "x",
    "pass",
    "PASS",
    "resign",
    "A1",
    "a1",
    "T19",
    "Z25",
    "Z26",
    "I5",
    "J9",
    "k10",
    "A0",
    "A100",
    "0",
    "1",
    "2",
    "3",
    "5",
    "9",
    "13",
    "19",
    "25",
    "26",
    "-1",
    "2147483647",
    "2147483648",
    "99999999999999999999999",
    "1e308",
    "-1e308",
    "6.5",
    "7,5",
    "nan",
    "inf",
    "-0",
    "",
    "alive",
    "dead",
    "seki",
    "japanese",
    "chinese",
    "aga",
    "new_zealand",
    "french",
    "tromp-taylor",
    "ing",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "fischer",
    "\u{e9}",
    "\u{ff}\u{fe}",
    "\u{a0}",
    "((;",
    "]",
];

/// A random on-board-ish vertex for a board of up to 9 lines (the usual size here).
fn vertex(rng: &mut SmallRng) -> String {
    let col = b"ABCDEFGHJ"[rng.gen_range(0..9)] as char;
    format!("{col}{}", rng.gen_range(1..=9))
}

/// A line that mostly makes sense: mostly moves, so that positions grow (captures, kos),
/// and now and then the commands that replace or end them.
fn sensible_line(rng: &mut SmallRng, files: &[String]) -> String {
    let color = ["b", "w"][rng.gen_range(0..2)];
    match rng.gen_range(0..32) {
        0..=17 => format!("play {color} {}", vertex(rng)),
        18 | 19 => format!("genmove {color}"),
        20 => "undo".into(),
        21 => format!(
            "boardsize {}",
            [2, 3, 5, 7, 9, 9, 13, 19, 25][rng.gen_range(0..9)]
        ),
        22 => "clear_board".into(),
        23 => format!("fixed_handicap {}", rng.gen_range(0..11)),
        24 => format!(
            "loadsgf {} {}",
            files[rng.gen_range(0..files.len())],
            rng.gen_range(0..8)
        ),
        25 => {
            ["final_score", "final_status_list dead", "estimate_score"][rng.gen_range(0..3)].into()
        }
        26 | 27 => format!(
            "gogui-play_sequence {color} {} {color} {}",
            vertex(rng),
            vertex(rng)
        ),
        28 => format!("set_free_handicap {} {}", vertex(rng), vertex(rng)),
        29 => format!("gg-undo {}", rng.gen_range(0..4)),
        30 => format!("is_legal {color} {}", vertex(rng)),
        _ => format!(
            "kgs-rules {}",
            ["japanese", "chinese", "aga", "new_zealand"][rng.gen_range(0..4)]
        ),
    }
}

/// A known or unknown command with random words as arguments.
fn random_command(rng: &mut SmallRng) -> String {
    let mut line = String::new();
    if rng.gen_bool(0.2) {
        line.push_str(&format!(
            "{} ",
            rng.gen_range(0..u64::MAX) >> rng.gen_range(0..64)
        ));
    }
    line.push_str(COMMANDS.choose(rng).copied().unwrap_or("name"));
    for _ in 0..rng.gen_range(0..5) {
        line.push(' ');
        line.push_str(WORDS.choose(rng).copied().unwrap_or(""));
    }
    line
}

/// Random bytes (never a line feed), with control characters, `#`, tabs and high bytes.
fn garbage(rng: &mut SmallRng) -> Vec<u8> {
    let length = rng.gen_range(0..40);
    (0..length)
        .map(|_| match rng.gen_range(0..4) {
            0 => rng.gen_range(0..32u8),
            1 => b" \t#=?\r"[rng.gen_range(0..6)],
            2 => rng.gen_range(128..=255u8),
            _ => rng.gen_range(32..127u8),
        })
        .map(|b| if b == b'\n' { b'x' } else { b })
        .collect()
}

/// A line: a sensible command, a random command, garbage, or a command with garbage glued.
fn random_line(rng: &mut SmallRng, files: &[String]) -> Vec<u8> {
    match rng.gen_range(0..10) {
        0..=4 => sensible_line(rng, files).into_bytes(),
        5..=7 => random_command(rng).into_bytes(),
        8 => garbage(rng),
        _ => {
            let mut line = random_command(rng).into_bytes();
            let at = rng.gen_range(0..=line.len());
            line.splice(at..at, garbage(rng));
            line
        }
    }
}

/// Checks an answer's framing; returns whether it is a success.
fn framed_success(answer: &str) -> Result<bool, String> {
    let success = match answer.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return Err(format!("answer without = or ?: {answer:?}")),
    };
    if !answer.ends_with('\n') || answer.trim_end().contains("\n\n") {
        return Err(format!("bad framing: {answer:?}"));
    }
    Ok(success)
}

/// A fresh working directory, so that whatever a random `printsgf FILE` writes lands there.
fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gtp_robustness");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn thousands_of_random_lines_never_break_the_engine() {
    let files = fixtures();
    let mut session = Session::start(&scratch_dir());
    let mut rng = SmallRng::seed_from_u64(20240611);
    let mut position = session.ask("showboard");
    let (mut failures, mut silent) = (0, 0);
    let started = Instant::now();
    for n in 0..5000 {
        let line = random_line(&mut rng, &files);
        let shown = String::from_utf8_lossy(&line).into_owned();
        session.send(&line);
        if is_blank(&line) {
            silent += 1;
            continue;
        }
        let answer = session
            .answer()
            .unwrap_or_else(|e| panic!("line {n} {shown:?}: {e}"));
        let success = framed_success(&answer).unwrap_or_else(|e| panic!("line {n} {shown:?}: {e}"));
        let now = session.ask("showboard");
        if !success {
            failures += 1;
            assert_eq!(
                now, position,
                "line {n} {shown:?} failed ({answer:?}) but changed the position"
            );
        }
        position = now;
    }
    assert_eq!(session.ask("protocol_version"), "= 2\n");
    assert_eq!(session.ask("quit"), "=\n");
    let status = session.child.wait().expect("engine exits");
    assert!(status.success(), "exit status {status}");
    println!(
        "5000 lines ({failures} refused, {silent} blank) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures > 500 && silent > 20,
        "the mix should exercise errors and blank lines"
    );
}

#[test]
fn crlf_control_characters_and_comments_are_harmless() {
    let mut session = Session::start(&scratch_dir());
    session.send(b"1 name\r");
    assert_eq!(session.answer().as_deref(), Ok("=1 hoshi\n"));
    session.send(b"2\x01 pro\x7ftocol_version\x00 # is it 2?\r");
    assert_eq!(session.answer().as_deref(), Ok("=2 2\n"));
    session.send(b"\t\r\x02 # nothing to answer");
    session.send(b"3 play\tb\tD4\r");
    assert_eq!(session.answer().as_deref(), Ok("=3\n"));
    session.send(b"4 list_stones B");
    assert_eq!(session.answer().as_deref(), Ok("=4 D4\n"));
}

#[test]
fn answers_the_first_commands_and_ends_cleanly_with_the_input() {
    let mut session = Session::start(&scratch_dir());
    for line in ["name", "protocol_version", "list_commands"] {
        let answer = session.ask(line);
        assert!(answer.starts_with("= "), "{line}: {answer:?}");
    }
    drop(session.stdin);
    let status = session.child.wait().expect("engine exits");
    assert!(status.success(), "exit status {status}");
}
