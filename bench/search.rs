//! Speed suite: the board's random playouts per second, the tree search's playouts per
//! second from fixed positions (empty board, middle game, endgame) with the tree's memory, on
//! one thread and on all cores, each the median of several runs; optionally the time another
//! GTP engine takes per move from the same positions, measured side by side.
//!
//!     cargo bench --bench search                                  # 9x9 and 19x19
//!     cargo bench --bench search -- 9 --seconds 1 --runs 5
//!     cargo bench --bench search -- 9 --engine "/usr/games/gnugo --mode gtp --level 10"
//!     cargo bench --bench search -- 19 --net on          # with the policy network only (off, both)
//!     cargo bench --bench search -- 19 --net on --param value_mix=1 --param puct=1   # the value
//!     cargo bench --bench search -- 19 --net weights/value-19x19.hnet     # a value network: its value at every leaf, PUCT
//!
//! The middle-game and endgame positions are games played by the playout policy from a fixed
//! seed (30 and 60 moves on 9x9, 120 and 250 on 19x19), so they are the same on every run.

use hoshi::board::Board;
use hoshi::coord::{Color, Move};
use hoshi::game::Game;
use hoshi::knowledge::playout::{self, light_playout, Forbidden, PlayoutPolicy};
use hoshi::net::SharedNet;
use hoshi::rules::Ruleset;
use hoshi::search::{Budget, Search, SearchConfig};
use hoshi::setup::{self, Advice, NetChoice, Workshop};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

struct Options {
    sizes: Vec<usize>,
    runs: usize,
    seconds: f64,
    threads: Vec<usize>,
    engine: Option<String>,
    /// The policy network's settings to measure: without it, with it, or both.
    nets: Vec<bool>,
    /// The network when it is on: a `.hnet` file's (`--net FILE`), or the built-in one.
    net: Option<SharedNet>,
    /// The search's parameters (`--param KEY=VALUE`, as the engine takes them).
    params: hoshi::player::Params,
}

fn options() -> Options {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut o = Options {
        sizes: Vec::new(),
        runs: 3,
        seconds: 1.0,
        threads: Vec::new(),
        engine: None,
        nets: vec![false, true],
        net: None,
        params: hoshi::player::Params::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => o.runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(o.runs),
            "--seconds" => {
                o.seconds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(o.seconds)
            }
            "--threads" => o
                .threads
                .extend(args.next().and_then(|v| v.parse::<usize>().ok())),
            "--engine" => o.engine = args.next(),
            "--net" => {
                o.nets = match args.next().as_deref() {
                    Some("off") => vec![false],
                    Some("on") => vec![true],
                    Some("both") | None => vec![false, true],
                    Some(path) => match setup::load_network(path.as_ref()) {
                        Ok(net) => {
                            o.net = Some(net);
                            vec![true]
                        }
                        Err(e) => {
                            eprintln!("--net: {e}");
                            std::process::exit(2);
                        }
                    },
                }
            }
            "--param" => {
                let text = args.next().unwrap_or_default();
                let (key, value) = text.split_once('=').unwrap_or((&text, ""));
                if let Err(e) = o.params.set(key, value) {
                    eprintln!("--param {text}: {e}");
                    std::process::exit(2);
                }
            }
            "--bench" => {}
            other => o.sizes.extend(other.parse::<usize>().ok()),
        }
    }
    if o.sizes.is_empty() {
        o.sizes = vec![9, 19];
    }
    if o.threads.is_empty() {
        o.threads = if cores > 1 { vec![1, cores] } else { vec![1] };
    }
    o
}

fn main() {
    let o = options();
    println!(
        "speed suite: median of {} runs; searches of {} s; French rules, komi 7.5",
        o.runs, o.seconds
    );
    for &size in &o.sizes {
        board_speed(size, &o);
        for (name, moves) in positions(size) {
            let game = replay(size, &moves);
            for &t in &o.threads {
                for &net in &o.nets {
                    search_speed(&game, name, t, net, &o);
                }
            }
            if let Some(engine) = &o.engine {
                engine_speed(engine, &game, name, &o);
            }
        }
    }
}

fn median(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    (
        values[values.len() / 2],
        values[0],
        values[values.len() - 1],
    )
}

/// Random playouts per second from the empty board, one thread per run, and with every
/// thread playing its own playouts at once.
fn board_speed(size: usize, o: &Options) {
    let Some(empty) = Board::new(size) else {
        return;
    };
    for &threads in &o.threads {
        let rates: Vec<f64> = (0..o.runs)
            .map(|run| {
                std::thread::scope(|scope| {
                    let handles: Vec<_> = (0..threads)
                        .map(|t| {
                            let empty = &empty;
                            scope.spawn(move || {
                                random_playouts(empty, o.seconds, (run * 16 + t) as u64)
                            })
                        })
                        .collect();
                    handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
                })
            })
            .collect();
        let (mid, lo, hi) = median(rates);
        println!("{size:>2}x{size:<2} board, random playouts, {threads} thread(s): {mid:>9.0}/s (min {lo:.0}, max {hi:.0})");
    }
}

fn random_playouts(empty: &Board, seconds: f64, seed: u64) -> f64 {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut board = empty.clone();
    let mut record = Vec::new();
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < seconds {
        for _ in 0..32 {
            board.copy_from(empty);
            std::hint::black_box(light_playout(
                &mut board,
                Color::Black,
                &mut rng,
                &mut record,
            ));
        }
        n += 32;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// The fixed positions of a size: names and the moves that lead there.
fn positions(size: usize) -> Vec<(&'static str, Vec<Move>)> {
    let (middle, end) = if size <= 9 {
        (30, 60)
    } else {
        (size * size / 3, size * size * 2 / 3)
    };
    let game = policy_game(size, end);
    vec![
        ("empty board", Vec::new()),
        ("middle game", game[..middle.min(game.len())].to_vec()),
        ("endgame", game),
    ]
}

/// A game of `moves` moves played by the playout policy from a fixed seed (legal under the
/// full rules: each move is checked by the game).
fn policy_game(size: usize, moves: usize) -> Vec<Move> {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut game = Game::new(size, Ruleset::FRENCH, 7.5).expect("size 2..25");
    let mut played = Vec::new();
    let mut last = Move::Pass;
    while played.len() < moves {
        let color = game.to_move();
        let nowhere = Forbidden::default();
        let mut mv = playout::choose(
            game.board(),
            color,
            last,
            &PlayoutPolicy::HEAVY,
            &nowhere,
            &mut rng,
        );
        if game.play(color, mv).is_err() {
            mv = Move::Pass;
            let _ = game.play(color, mv);
        }
        if mv == Move::Pass && last == Move::Pass {
            break;
        }
        played.push(mv);
        last = mv;
    }
    played
}

fn replay(size: usize, moves: &[Move]) -> Game {
    let mut game = Game::new(size, Ruleset::FRENCH, 7.5).expect("size 2..25");
    for &mv in moves {
        let color = game.to_move();
        if game.play(color, mv).is_err() {
            break;
        }
    }
    game
}

/// Search playouts per second from `game`, with the network (`--net`) or without it
/// (on boards smaller than its `net_min_size` both are the same search).
fn search_speed(game: &Game, name: &str, threads: usize, net: bool, o: &Options) {
    let mut memory = 0;
    let rates: Vec<f64> = (0..o.runs)
        .map(|run| {
            let nets = match net {
                true => NetChoice::Given(o.net.unwrap_or_else(setup::embedded)),
                false => NetChoice::Off,
            };
            let kit = Workshop::new(nets, o.params.tuning()).kit(game.size(), Advice::Strongest);
            let config = kit.config(threads, SearchConfig::default().max_memory);
            let mut search = Search::new(config, kit.knowledge, run as u64);
            let budget = Budget {
                visits: None,
                time: Some(Duration::from_secs_f64(o.seconds)),
            };
            let result = search.run(game, game.to_move(), budget, &AtomicBool::new(false));
            memory = memory.max(result.tree_memory);
            result.visits as f64 / result.elapsed.as_secs_f64()
        })
        .collect();
    let (mid, lo, hi) = median(rates);
    let size = game.size();
    println!(
        "{size:>2}x{size:<2} search, {name:<11}, {threads} thread(s), {:<10}: {mid:>9.0} playouts/s (min {lo:.0}, max {hi:.0}); tree {:.1} MiB",
        if net { "network" } else { "no network" },
        memory as f64 / f64::from(1 << 20)
    );
}

/// Seconds another GTP engine takes for `genmove` from the same position.
fn engine_speed(command: &str, game: &Game, name: &str, o: &Options) {
    let times: Vec<f64> = (0..o.runs)
        .filter_map(|_| engine_genmove(command, game))
        .collect();
    let size = game.size();
    if times.is_empty() {
        println!("{size:>2}x{size:<2} {command}: no answer");
        return;
    }
    let (mid, lo, hi) = median(times);
    println!(
        "{size:>2}x{size:<2} {command}, {name:<11}: {mid:.3} s/move (min {lo:.3}, max {hi:.3})"
    );
}

fn engine_genmove(command: &str, game: &Game) -> Option<f64> {
    let mut words = command.split_whitespace();
    let mut child = Command::new(words.next()?)
        .args(words)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let mut stdout = BufReader::new(child.stdout.take()?);
    let mut ask = |line: &str| -> Option<String> {
        writeln!(stdin, "{line}").ok()?;
        stdin.flush().ok()?;
        let mut answer = String::new();
        loop {
            let mut l = String::new();
            if stdout.read_line(&mut l).ok()? == 0 {
                return None;
            }
            if l.trim().is_empty() && !answer.is_empty() {
                return Some(answer);
            }
            answer.push_str(&l);
        }
    };
    ask(&format!("boardsize {}", game.size()))?;
    ask("clear_board")?;
    ask(&format!("komi {}", game.komi()))?;
    for turn in game.history() {
        let vertex = match turn.mv {
            Move::Play(p) => game.board().geometry().name(p),
            Move::Pass => "pass".into(),
        };
        ask(&format!("play {} {vertex}", turn.color.letter()))?;
    }
    let start = Instant::now();
    ask(&format!("genmove {}", game.to_move().letter()))?;
    let seconds = start.elapsed().as_secs_f64();
    let _ = ask("quit");
    let _ = child.wait();
    Some(seconds)
}
