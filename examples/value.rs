//! How well the network's value and the playouts judge positions of games whose result is
//! known: the held-out 9-dan games that `hoshi dataset` keeps out of training (or the
//! programs' games of `go-games/AI`, none of which the value learnt from), a position every
//! `--every` moves. For each, the network's winning chances for the side to move, and the
//! share of heavy playouts it wins in the same time (the playouts run for as long as the
//! network took on that position). Reported by phase: positions, mean squared error of the
//! chances against the result (1 won, 0 lost), and how often they name the winner (above ½).
//!
//!     cargo run --release --example value -- --games go-games/Tom
//!     cargo run --release --example value -- --games go-games/AI --net other.hnet --max-games 200
//!
//! A folder of `hoshi selfplay` shards works too (`--held-out-every` as given to `hoshi dataset`),
//! on their board size.
//!
//! `--times K` gives the playouts K times the network's time as well (several K: repeat it).
//! `--help` lists the options.

use clap::Parser;
use hoshi::cmd::dataset::{self, Tally, Winner, PHASES};
use hoshi::coord::Color;
use hoshi::game::Game;
use hoshi::game::Position;
use hoshi::knowledge::playout::{self, Forbidden, PlayoutPolicy};
use hoshi::net::hnet::features;
use hoshi::net::Evaluator;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// How well the network's value and the playouts judge positions of games whose result is
/// known.
#[derive(Parser, Debug)]
struct Options {
    /// The games: the Tom server's records (`Kifu.index`), the programs' games of
    /// `go-games/AI`, or a folder of unpacked `hoshi selfplay` shards.
    #[arg(long, value_name = "DIR")]
    games: PathBuf,
    /// The network (a `.hnet` file with a value head) [default: `weights/policy.hnet`, built
    /// into hoshi].
    #[arg(long, value_name = "FILE")]
    net: Option<PathBuf>,
    /// Stop after this many held-out games [default: all of them].
    #[arg(long, value_name = "N")]
    max_games: Option<usize>,
    /// Judge a position every N moves (0 counts as 1).
    #[arg(long, default_value_t = 10, value_name = "N")]
    every: usize,
    /// The games held out: every N-th, as `hoshi dataset --held-out-every` holds them out
    /// (every game of `go-games/AI` is).
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    held_out_every: u32,
    /// Give the playouts K times the network's time as well as once its time; repeat it for
    /// more.
    #[arg(long = "times", value_name = "K")]
    times: Vec<u32>,
}

/// Squared errors and hits of one judge, per phase.
#[derive(Default, Clone, Copy)]
struct Score {
    positions: f64,
    squared: f64,
    named: f64,
    /// Playouts spent (for the playout judges).
    playouts: f64,
}

impl Score {
    fn add(&mut self, chances: f64, won: bool) {
        let target = if won { 1.0 } else { 0.0 };
        self.positions += 1.0;
        self.squared += (chances - target).powi(2);
        // Even chances name nobody: half a hit.
        self.named += match chances.partial_cmp(&0.5) {
            Some(std::cmp::Ordering::Equal) | None => 0.5,
            Some(std::cmp::Ordering::Greater) => f64::from(u8::from(won)),
            Some(std::cmp::Ordering::Less) => f64::from(u8::from(!won)),
        };
    }
}

fn main() -> ExitCode {
    match run(&Options::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("value: {why}");
            ExitCode::FAILURE
        }
    }
}

fn run(o: &Options) -> Result<(), String> {
    let net = match &o.net {
        None => hoshi::setup::embedded(),
        Some(path) => hoshi::setup::load_network(path).map_err(|why| why.to_string())?,
    };
    if !net.heads().value {
        return Err("the network has no value head".into());
    }
    let games = dataset::games(&o.games).map_err(|why| why.to_string())?;
    // Every game of go-games/AI is held out: the value never learnt from them.
    let all = games.layout == dataset::Layout::Ai;
    let held_out = games
        .games
        .iter()
        .filter(|g| g.outcome.winner != Winner::Unknown)
        .filter(|g| all || dataset::is_held_out(g.line, o.held_out_every))
        .take(o.max_games.unwrap_or(usize::MAX));
    // The playouts always get the network's time, then each `--times`.
    let times: Vec<u32> = std::iter::once(1).chain(o.times.iter().copied()).collect();
    let mut judge = Judge {
        evaluator: net.evaluator(games.size),
        recent: Vec::new(),
        rng: SmallRng::seed_from_u64(1),
        moves: Vec::new(),
        scores: vec![[Score::default(); 3]; 1 + times.len()],
        times,
        net_time: Duration::ZERO,
    };
    let mut tally = Tally::default();
    let mut played = 0;
    for record in held_out {
        played += 1;
        let komi = f64::from(record.outcome.komi2) / 2.0;
        let winner = match record.outcome.winner {
            Winner::Black => Color::Black,
            _ => Color::White,
        };
        let _ = dataset::replay(
            games.size,
            &record.moves,
            record.line,
            &mut tally,
            |game, color, _| {
                if game.move_number() % o.every.max(1) == 0 {
                    judge.position(game, color, komi, color == winner);
                }
                Ok(())
            },
        );
    }
    report(&judge, played);
    Ok(())
}

/// The network and the playouts, and what they scored.
struct Judge {
    evaluator: Box<dyn Evaluator>,
    recent: Vec<hoshi::game::Played>,
    rng: SmallRng,
    moves: playout::MoveRecord,
    /// The playouts' time, in multiples of the network's.
    times: Vec<u32>,
    /// Per judge (the network, then the playouts at each of `times`), per phase.
    scores: Vec<[Score; 3]>,
    net_time: Duration,
}

impl Judge {
    /// Judges the position before `color` plays in `game`; `won`: whether `color` won.
    fn position(&mut self, game: &Game, color: Color, komi: f64, won: bool) {
        let phase = dataset::phase_of(game.move_number() + 1);
        self.recent.clear();
        self.recent.extend(game.recent_played(features::HISTORY));
        let board = game.board();
        let started = Instant::now();
        let position = Position::of_stones(board, color, &self.recent);
        let value = [self
            .evaluator
            .evaluate_one(&position, komi)
            .value
            .unwrap_or(0.5)];
        let took = started.elapsed();
        self.net_time += took;
        self.scores[0][phase].add(f64::from(value[0]), won);
        for k in 0..self.times.len() {
            let (chances, playouts) = self.playouts(game, color, komi, took * self.times[k]);
            let score = &mut self.scores[1 + k][phase];
            score.add(chances, won);
            score.playouts += playouts as f64;
        }
    }

    /// The share of heavy playouts from the position that `color` wins by `komi`, played
    /// for `time` (at least one), and how many were played.
    fn playouts(&mut self, game: &Game, color: Color, komi: f64, time: Duration) -> (f64, u64) {
        let policy = PlayoutPolicy::HEAVY;
        let nowhere = Forbidden::default();
        let last = game.nth_last_move(1);
        let (mut won, mut played) = (0.0, 0u64);
        let started = Instant::now();
        while played == 0 || started.elapsed() < time {
            let mut board = game.board().clone();
            self.moves.clear();
            let end = playout::play_out(
                &mut board,
                color,
                last,
                &policy,
                &nowhere,
                &mut self.rng,
                &mut self.moves,
            );
            let black_margin = f64::from(end.black_lead) - komi;
            let margin = if color == Color::Black {
                black_margin
            } else {
                -black_margin
            };
            won += match margin.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            };
            played += 1;
        }
        (won / played as f64, played)
    }
}

fn report(judge: &Judge, games: usize) {
    let positions: f64 = judge.scores[0].iter().map(|s| s.positions).sum();
    println!(
        "{games} games, {positions} positions; the network {:.2} ms a position",
        judge.net_time.as_secs_f64() * 1000.0 / positions.max(1.0)
    );
    println!(
        "judge                        | phase        | positions |   MSE | winner named | playouts"
    );
    let mut names = vec!["value network".to_string()];
    names.extend(
        judge
            .times
            .iter()
            .map(|k| format!("playouts, {k}x the network's time")),
    );
    for (name, scores) in names.iter().zip(&judge.scores) {
        let mut all = Score::default();
        for (score, &(_, _, phase)) in scores.iter().zip(&PHASES) {
            line(name, phase, score);
            all.positions += score.positions;
            all.squared += score.squared;
            all.named += score.named;
            all.playouts += score.playouts;
        }
        line(name, "all", &all);
    }
}

fn line(name: &str, phase: &str, s: &Score) {
    let n = s.positions.max(1.0);
    let playouts = if s.playouts > 0.0 {
        format!("{:.0}", s.playouts / n)
    } else {
        String::new()
    };
    println!(
        "{name:<28} | {phase:<12} | {:>9} | {:.4} | {:>11.1}% | {playouts}",
        s.positions,
        s.squared / n,
        100.0 * s.named / n
    );
}
