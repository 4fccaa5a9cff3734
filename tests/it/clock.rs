//! Time handling checked through GTP, on the budget the engine chooses
//! (`hoshi-time_budget`) and the clock it keeps (`hoshi-time_left`), never on wall time:
//! the default budget without any time command, `--time` and `--playouts`, sudden death,
//! Japanese byo-yomi as KGS announces it (the stones of `time_left` count periods),
//! Canadian byo-yomi, `time_left` with negative, zero and fractional seconds, and the
//! engine's own clock running down with real (short) moves when no `time_left` comes.
//! The arithmetic with chosen elapsed times is in `src/clock.rs`'s unit tests.
//!
//! Expected budgets, for reading the numbers below: on 9x9 from the empty board main time
//! is shared among 33 moves to come, weighted 0.5 in the opening, 1.5 in the middle game
//! and 1 in the endgame (40.5 in all), after keeping back 0.5 s of lag and 0.02 s a move.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};

/// A hoshi process spoken to one command at a time.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(args: &[&str]) -> Gtp {
        let mut child = common::spawn_hoshi(args, &std::env::temp_dir());
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Gtp {
            child,
            stdin,
            stdout,
        }
    }

    /// The answer to `line`: `Ok(text)` for `=`, `Err(text)` for `?`.
    fn ask(&mut self, line: &str) -> Result<String, String> {
        writeln!(self.stdin, "{line}").expect("send");
        self.stdin.flush().expect("send");
        let mut answer = String::new();
        loop {
            let mut text = String::new();
            assert!(self.stdout.read_line(&mut text).expect("read") > 0, "EOF");
            if text.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&text);
        }
        let text = answer[1..].trim().to_string();
        if answer.starts_with('=') {
            Ok(text)
        } else {
            Err(text)
        }
    }

    /// The answer to a command that must succeed.
    fn ok(&mut self, line: &str) -> String {
        self.ask(line)
            .unwrap_or_else(|e| panic!("`{line}` failed: {e}"))
    }

    /// Asserts the answers of several commands that must succeed.
    fn expect(&mut self, exchanges: &[(&str, &str)]) {
        for (line, answer) in exchanges {
            assert_eq!(self.ok(line), *answer, "answer to `{line}`");
        }
    }

    /// Plays `color`'s move and checks that it is a move.
    fn genmove(&mut self, color: &str) {
        let mv = self.ok(&format!("genmove {color}"));
        assert!(!mv.is_empty() && mv != "resign", "genmove {color}: {mv}");
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// Every command line reads seconds alike: a decimal number, not negative, finite; a time
/// that must pass (a move's, a time-out) above 0. Each says which option was wrong.
#[test]
fn seconds_are_read_alike_on_every_command_line() {
    let above_0 = "expected a number of seconds above 0";
    let matched = |option: &'static str| ["match", "--black", "a", "--white", "b", option];
    for (args, why) in [
        (vec!["--time=0"], above_0),
        (vec!["--time=-1"], above_0),
        (vec!["--time=inf"], above_0),
        (vec!["--time=soon"], above_0),
        (vec!["analyze", "game.sgf", "--time=0"], above_0),
        (matched("--move-timeout=0").to_vec(), above_0),
        (matched("--clock=-5").to_vec(), "bad clock \"-5\""),
    ] {
        let stderr = common::refused_command_line(&args);
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        let option = args.last().and_then(|a| a.split('=').next()).unwrap_or("");
        assert!(stderr.contains(option), "{args:?}: {stderr}");
    }
}

#[test]
fn without_any_time_command_the_level_decides() {
    let mut hoshi = Gtp::start(&["--threads", "1"]);
    hoshi.expect(&[
        ("boardsize 9", ""),
        ("hoshi-time_budget", "1.000"),
        ("hoshi-time_left", "none"),
        ("boardsize 11", ""),
        ("hoshi-time_budget", "1.000"),
        ("boardsize 12", ""),
        ("hoshi-time_budget", "3.000"),
        ("boardsize 13", ""),
        ("hoshi-time_budget b", "3.000"),
        ("boardsize 16", ""),
        ("hoshi-time_budget", "3.000"),
        ("boardsize 17", ""),
        ("hoshi-time_budget", "6.000"),
        ("boardsize 19", ""),
        ("hoshi-time_budget w", "6.000"),
        // time_left alone, without a system, sets no limit.
        ("time_left b 5 0", ""),
        ("hoshi-time_budget b", "6.000"),
        ("time_settings 0 30 0", ""),
        ("hoshi-time_budget b", "6.000"),
        ("kgs-time_settings none", ""),
        ("hoshi-time_budget b", "6.000"),
    ]);
    let mut fixed = Gtp::start(&["--threads", "1", "--time", "2.5"]);
    fixed.expect(&[("hoshi-time_budget", "2.500")]);
    let mut playouts = Gtp::start(&["--threads", "1", "--playouts", "500"]);
    playouts.expect(&[("hoshi-time_budget", "none")]);
    let mut intermediate = Gtp::start(&["--level", "intermediate"]);
    intermediate.expect(&[("hoshi-time_budget", "none")]);
}

#[test]
fn sudden_death_is_shared_out_and_time_left_wins() {
    let mut hoshi = Gtp::start(&["--threads", "1"]);
    hoshi.expect(&[
        ("boardsize 9", ""),
        ("time_settings 60 0 0", ""),
        ("hoshi-time_left b", "60.000 0"),
        // 58.84 s usable, 0.5 of 40.5 weights.
        ("hoshi-time_budget b", "0.726"),
        ("time_left b 20.5 0", ""),
        ("hoshi-time_left b", "20.500 0"),
        ("hoshi-time_budget b", "0.239"),
        ("hoshi-time_budget w", "0.726"),
        // Negative and zero seconds: nothing left, the move is answered at once.
        ("time_left b -3 0", ""),
        ("hoshi-time_left b", "0.000 0"),
        ("hoshi-time_budget b", "0.000"),
        ("time_left w 0 0", ""),
        ("hoshi-time_budget w", "0.000"),
        // Less than the reserve: nothing to think with either.
        ("time_left w 0.75 0", ""),
        ("hoshi-time_budget w", "0.000"),
        // A new game gives both players their full time again.
        ("clear_board", ""),
        ("hoshi-time_left b", "60.000 0"),
        ("hoshi-time_left w", "60.000 0"),
        // 10 moves played: 27 to come, 20 of them in the middle game (weight 1.5).
        (
            "gogui-play_sequence b E5 w C3 b G7 w C7 b G3 w E3 b E7 w C5 b G5 w D4",
            "",
        ),
        ("hoshi-time_budget b", "2.327"),
    ]);
    // 19x19 with 10 minutes: the opening moves take a little over 1.6 s.
    hoshi.expect(&[
        ("boardsize 19", ""),
        ("time_settings 600 0 0", ""),
        ("hoshi-time_budget b", "1.653"),
    ]);
    // A fixed time per move never outlasts the clock.
    let mut fixed = Gtp::start(&["--threads", "1", "--time", "5"]);
    fixed.expect(&[
        ("time_settings 60 0 0", ""),
        ("hoshi-time_budget b", "5.000"),
        ("time_left b 2 0", ""),
        ("hoshi-time_budget b", "1.500"),
    ]);
}

#[test]
fn kgs_byoyomi_periods_are_the_stones_of_time_left() {
    let mut hoshi = Gtp::start(&["--threads", "1"]);
    hoshi.expect(&[
        ("boardsize 9", ""),
        ("kgs-time_settings byoyomi 0 10 5", ""),
        ("hoshi-time_left b", "10.000 5"),
        // 80% of the period, less 0.5 s.
        ("hoshi-time_budget b", "7.500"),
        ("time_left b 10 2", ""),
        ("hoshi-time_budget b", "7.500"),
        ("time_left b 4.5 1", ""),
        ("hoshi-time_left b", "4.500 1"),
        ("hoshi-time_budget b", "3.100"),
        ("time_left b 0.25 1", ""),
        ("hoshi-time_budget b", "0.000"),
        // In main time, thinking as long as a period costs nothing.
        ("kgs-time_settings byoyomi 60 10 5", ""),
        ("hoshi-time_budget b", "7.500"),
        ("time_left b 3 0", ""),
        ("hoshi-time_budget b", "7.500"),
        ("kgs-time_settings absolute 60", ""),
        ("hoshi-time_budget b", "0.726"),
        // KGS's stones are ignored in sudden death.
        ("time_left b 20.5 3", ""),
        ("hoshi-time_left b", "20.500 0"),
        ("kgs-time_settings canadian 0 60 10", ""),
        ("hoshi-time_budget b", "4.900"),
        ("kgs-time_settings none", ""),
        ("hoshi-time_left b", "none"),
        ("hoshi-time_budget b", "1.000"),
    ]);
    assert_eq!(
        hoshi.ask("kgs-time_settings byoyomi 60 10"),
        Err("syntax error".into())
    );
    assert_eq!(hoshi.ask("hoshi-time_budget x"), Err("syntax error".into()));
}

#[test]
fn canadian_stones_share_the_period() {
    let mut hoshi = Gtp::start(&["--threads", "1"]);
    hoshi.expect(&[
        ("boardsize 9", ""),
        ("time_settings 0 60 10", ""),
        ("hoshi-time_left w", "60.000 10"),
        // 90% of 6 s a stone, less 0.5 s.
        ("hoshi-time_budget w", "4.900"),
        ("time_left w 30 3", ""),
        ("hoshi-time_budget w", "8.500"),
        ("time_left w 30.5 0", ""),
        ("hoshi-time_budget w", "4.900"),
        ("time_settings 600 300 25", ""),
        ("hoshi-time_budget b", "10.300"),
    ]);
}

/// Real moves with a small playout budget, so that each takes milliseconds: the engine
/// charges them to its own clock, which moves from main time into the overtime.
#[test]
fn the_engine_runs_its_own_clock_without_time_left() {
    let mut hoshi = Gtp::start(&["--threads", "1", "--seed", "1", "--playouts", "20"]);
    hoshi.expect(&[
        ("boardsize 9", ""),
        ("kgs-time_settings byoyomi 0.001 5 3", ""),
        ("hoshi-time_left b", "0.001 0"),
    ]);
    // The first move uses up the main time and goes on in the first period, which it
    // does not use up: three periods are left, and the next move has a full one.
    hoshi.genmove("b");
    hoshi.expect(&[
        ("hoshi-time_left b", "5.000 3"),
        ("hoshi-time_left w", "0.001 0"),
    ]);
    hoshi.genmove("w");
    hoshi.genmove("b");
    hoshi.expect(&[
        ("hoshi-time_left w", "5.000 3"),
        ("hoshi-time_left b", "5.000 3"),
    ]);
    // Canadian: the first move takes a stone of the period; the period's last stone
    // brings a new one.
    hoshi.ok("time_settings 0.001 20 2");
    hoshi.genmove("b");
    let left = hoshi.ok("hoshi-time_left b");
    let (seconds, stones) = left.split_once(' ').expect("seconds and stones");
    let seconds: f64 = seconds.parse().expect("seconds");
    assert!(stones == "1" && seconds < 20.0 && seconds > 0.0, "{left}");
    hoshi.genmove("b");
    hoshi.expect(&[("hoshi-time_left b", "20.000 2")]);
    // Sudden death runs down and the budget with it; time_left puts it right.
    hoshi.ok("time_settings 30 0 0");
    hoshi.genmove("b");
    hoshi.genmove("b");
    let left: f64 = hoshi
        .ok("hoshi-time_left b")
        .trim_end_matches(" 0")
        .parse()
        .expect("seconds");
    assert!(left < 30.0, "{left}");
    hoshi.expect(&[("hoshi-time_left w", "30.000 0"), ("time_left b 30 0", "")]);
    // Nearly out: the move is answered at once, and is a move.
    hoshi.ok("time_left b 0.4 0");
    assert_eq!(hoshi.ok("hoshi-time_budget b"), "0.000");
    hoshi.genmove("b");
    // reg_genmove is not a move of the game: it costs no time.
    hoshi.ok("time_left b 12 0");
    hoshi.ok("reg_genmove b");
    hoshi.expect(&[("hoshi-time_left b", "12.000 0")]);
}
