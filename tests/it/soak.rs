//! A soak test of one long-lived engine: the real `hoshi` binary, its search tree capped at
//! 64 MiB, plays 120 games of 9x9 against itself in one process (`clear_board`, then
//! `genmove b` / `genmove w` until two passes, a resignation or 200 moves; expert, with the
//! 9x9 value network built in for the ranks below expert at every leaf, 100 visits a move:
//! expert's own, KataGo's b6c96, evaluates over ten times slower, too slow for 120 games in
//! CI), then analyses the empty board (`lz-analyze`, stopped by the next command) for at
//! least 20 s and until its memory stops growing: the tree is full. Its resident memory
//! (`VmRSS` in `/proc/PID/status`, so Linux only) must stay flat from game 20 to game 120,
//! and under the cap plus a fixed overhead while the analysis fills the tree to the cap.
//!
//! The cache of network outputs (`net_cache`) is bounded but fills as it is used: its
//! default 20,000 outputs, about 8 MiB on 9x9, fill over the first hundred or more games
//! here, which from game 20 to game 120 would read as growth. The engine runs with a
//! cache of [`CACHE_SLOTS`], full before game 20, so that the two readings compare like with
//! like: what grows after that is a leak.
//!
//! It takes minutes of CPU, so a plain `cargo test` ignores it; `.ci/run` runs it by name
//! (`cargo test --release --test it -- --ignored soak`). The budget is fixed (playouts, one
//! thread, a seed): every run plays the same games.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

const GAMES: usize = 120;
const MAX_MOVES: usize = 200;
/// The game after which the first memory reading is taken (the allocator has warmed up).
const EARLY_GAME: usize = 20;
/// The network cache's slots (`--param net_cache`): few enough to be full by
/// [`EARLY_GAME`] (a game of some 70 moves at 100 visits asks for thousands of evaluations),
/// enough for hits to matter.
const CACHE_SLOTS: usize = 2000;
/// `--max-memory`, in MiB.
const CAP_MIB: u64 = 64;
/// What the process may hold besides the tree: code, stacks, game histories, the
/// allocator's free lists, and the old tree while a reused subtree is copied.
const OVERHEAD_MIB: u64 = 32;
/// Analysis lines (one every 10 centiseconds) to read at least: about 20 s.
const ANALYSIS_LINES: usize = 200;
/// Then lines to read until the resident memory has stayed the same for this many lines
/// (the tree is full, or nearly: see the assertions).
const PLATEAU_LINES: usize = 100;
/// Lines after which a tree that still grows fails the test (about 10 minutes).
const MOST_ANALYSIS_LINES: usize = 6000;
/// Only a hung engine takes this long to answer.
const HANG: Duration = Duration::from_secs(120);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Its debug log (stderr), line by line.
    log: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hoshi"))
            .args(["--size", "9", "--max-memory", &CAP_MIB.to_string()])
            .args(["--playouts", "100", "--threads", "1", "--seed", "1"])
            .args(["--param", &format!("net_cache={CACHE_SLOTS}")])
            .args([
                "--net",
                concat!(env!("CARGO_MANIFEST_DIR"), "/weights/value-9x9.hnet"),
            ])
            .env("RUST_LOG", "hoshi=debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hoshi");
        let stdin = child.stdin.take().expect("stdin");
        let lines = crate::common::lines_of(child.stdout.take().expect("stdout"));
        let log = crate::common::lines_of(child.stderr.take().expect("stderr"));
        Engine {
            child,
            stdin,
            lines,
            log,
        }
    }

    /// Reads the log up to the first line that contains `marker`; returns the lines before.
    fn log_until(&self, marker: &str) -> Vec<String> {
        let mut before = Vec::new();
        loop {
            let line = self
                .log
                .recv_timeout(HANG)
                .unwrap_or_else(|e| panic!("no {marker:?} in the log ({e})"));
            if line.contains(marker) {
                return before;
            }
            before.push(line);
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .unwrap_or_else(|e| panic!("cannot send `{line}`: {e}"));
    }

    fn line(&self, after: &str) -> String {
        self.lines
            .recv_timeout(HANG)
            .unwrap_or_else(|e| panic!("no answer to `{after}` ({e})"))
    }

    /// The text of the answer to `command`, which must succeed (`= text`, one line).
    fn ok(&mut self, command: &str) -> String {
        self.send(command);
        let answer = self.line(command);
        assert_eq!(
            self.line(command),
            "",
            "`{command}`: one line, then the empty one"
        );
        match answer.strip_prefix('=') {
            Some(text) => text.trim().to_string(),
            None => panic!("`{command}` answered {answer:?}"),
        }
    }

    /// The resident memory of the process, in KiB.
    fn rss_kib(&self) -> u64 {
        let path = format!("/proc/{}/status", self.child.id());
        let status = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().strip_suffix("kB"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no VmRSS in {path}:\n{status}"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a game ended.
#[derive(Debug, Default)]
struct Endings {
    two_passes: usize,
    resignations: usize,
    move_limit: usize,
}

/// Plays one game of the engine against itself; returns its number of moves.
fn self_play(engine: &mut Engine, endings: &mut Endings) -> usize {
    assert_eq!(engine.ok("clear_board"), "");
    let mut passes = 0;
    for moves in 1..=MAX_MOVES {
        let color = if moves % 2 == 1 { "b" } else { "w" };
        let command = format!("genmove {color}");
        let played = engine.ok(&command).to_ascii_lowercase();
        match played.as_str() {
            "resign" => {
                endings.resignations += 1;
                return moves;
            }
            "pass" => {
                passes += 1;
                if passes == 2 {
                    endings.two_passes += 1;
                    let score = engine.ok("final_score");
                    assert!(
                        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
                        "final_score {score:?}"
                    );
                    return moves;
                }
            }
            vertex => {
                passes = 0;
                let column = vertex.as_bytes()[0];
                let row: usize = vertex[1..]
                    .parse()
                    .unwrap_or_else(|_| panic!("`{command}` played {vertex:?}"));
                assert!(
                    (b'a'..=b'j').contains(&column) && column != b'i' && (1..=9).contains(&row),
                    "`{command}` played {vertex:?}"
                );
            }
        }
    }
    endings.move_limit += 1;
    MAX_MOVES
}

#[test]
#[ignore = "soak: minutes of CPU; .ci/run runs it"]
fn soak_a_hundred_and_twenty_games_and_a_long_analysis_in_a_flat_memory() {
    let mut engine = Engine::start();
    let mut endings = Endings::default();
    let mut moves = 0;
    let mut early = 0;
    for game in 1..=GAMES {
        moves += self_play(&mut engine, &mut endings);
        // What the log said of the games is not needed: keep it from piling up.
        engine.log.try_iter().for_each(drop);
        if game == EARLY_GAME {
            early = engine.rss_kib();
        }
    }
    let late = engine.rss_kib();
    assert_eq!(
        endings.move_limit, 0,
        "every game ends by itself: {endings:?}"
    );

    // One long analysis from the empty board: the tree grows to its cap and stops there,
    // and so does the memory.
    assert_eq!(engine.ok("clear_board"), "");
    engine.send("lz-analyze b 10");
    assert_eq!(engine.line("lz-analyze"), "=");
    let (mut analysing, mut grew_at) = (0, 0);
    let mut lines = 0;
    while lines < ANALYSIS_LINES || lines - grew_at < PLATEAU_LINES {
        assert!(
            lines < MOST_ANALYSIS_LINES,
            "the memory still grows after {lines} analysis lines: {analysing} KiB"
        );
        let line = engine.line("lz-analyze");
        lines += 1;
        assert!(
            line.starts_with("info move "),
            "analysis line {lines}: {line:?}"
        );
        let now = engine.rss_kib();
        if now > analysing {
            (analysing, grew_at) = (now, lines);
        }
    }
    engine.send("name");
    while !engine.line("lz-analyze").is_empty() {}
    assert_eq!(engine.line("name"), "= hoshi");
    assert_eq!(engine.line("name"), "");
    let end = engine.rss_kib();
    // The search logs its tree's size when it ends, before the engine reads the next
    // command (`name`, logged as it comes): the last such line is the analysis's.
    let searched = engine
        .log_until("command: name")
        .into_iter()
        .rev()
        .find(|l| l.contains("search: "))
        .expect("the analysis logged its search");
    let nodes: u64 = searched
        .strip_suffix(" nodes")
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {searched:?}"));
    assert_eq!(engine.ok("quit"), "");
    let status = engine.child.wait().expect("hoshi exits");
    assert!(status.success(), "exit status {status}");

    let mib = |kib: u64| kib as f64 / 1024.0;
    let tree = nodes * hoshi::search::tree::NODE_BYTES as u64;

    // Straight to stderr, which the test harness does not capture: CI logs show the numbers.
    let _ = writeln!(
        std::io::stderr().lock(),
        "soak: {GAMES} games, {moves} moves ({endings:?}); VmRSS after game \
         {EARLY_GAME}: {:.1} MiB, after game {GAMES}: {:.1} MiB, analysing: up to {:.1} MiB, \
         at the end: {:.1} MiB; the analysis ({lines} lines) tree: {nodes} nodes, {:.1} MiB",
        mib(early),
        mib(late),
        mib(analysing),
        mib(end),
        mib(tree / 1024)
    );
    assert!(
        tree <= CAP_MIB << 20,
        "{nodes} nodes: above the {CAP_MIB} MiB cap"
    );
    assert!(
        tree >= (CAP_MIB << 20) / 16 * 15,
        "{nodes} nodes: the analysis did not fill the tree"
    );
    assert!(
        late <= early * 3 / 2 + 4 * 1024,
        "the memory grew from game {EARLY_GAME} to game {GAMES}: {early} KiB, then {late} KiB"
    );
    let ceiling = (CAP_MIB + OVERHEAD_MIB) * 1024;
    for (when, kib) in [("analysing", analysing), ("at the end", end)] {
        assert!(
            kib <= ceiling,
            "{when}: {kib} KiB, above the {CAP_MIB} MiB cap plus {OVERHEAD_MIB} MiB"
        );
    }
}
