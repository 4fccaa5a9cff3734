//! Move prediction on the held-out 9-dan games (the games `hoshi dataset` keeps out of
//! training): how often the policy network, the hand-made priors and the playout policy name
//! the move the player chose first (top-1) or among their first five (top-5), overall and by
//! phase of the game.
//!
//!     cargo run --release --example predict -- --games go-games/Tom
//!     cargo run --release --example predict -- --games go-games/Tom --net other.hnet --max-games 100
//!     cargo run --release --example predict -- --games go-games/Tom --max-games 50 --rank 30k --rank 10k
//!
//! `--games` is the folder of the Tom server's records (`Kifu.index`; docs/policy-net.md,
//! "Dataset file"), `--help` lists the options.
//!
//! With `--rank R` (repeatable) the player at that rank (`hoshi --rank R`, one thread, the
//! network given) chooses a move in each position too, as it would in a game (its sight,
//! playouts and temperature): its top-1 agreement with the strong player should fall as the
//! rank falls, if weak ranks are weak the way people are and not at random. Top-5 means
//! nothing for one chosen move and is not shown for them.
//!
//! Each predictor ranks the legal moves: the network by probability, the priors by their
//! virtual wins (what analysis shows as `prior`), the playout policy by how often it picks a
//! move in `--samples` draws. Ties are broken at random in expectation: a hit shared with
//! `t` other moves at the cut counts as the share of the cut it fills.

use clap::Parser;
use hoshi::cmd::dataset::{self, Tally, PHASES};
use hoshi::coord::{Color, Move, Point};
use hoshi::game::Game;
use hoshi::game::Position;
use hoshi::knowledge::playout::{self, Forbidden, PlayoutPolicy};
use hoshi::knowledge::priors::Priors;
use hoshi::knowledge::PriorWeights;
use hoshi::net::hnet::features;
use hoshi::player::clock::Clock;
use hoshi::player::PlayerSettings;
use hoshi::player::{Choice, MctsPlayer, Mode, Player, Rank};
use hoshi::setup::NetChoice;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

/// Move prediction on the held-out 9-dan games: the network, the hand-made priors, the
/// playout policy and hoshi's ranks.
#[derive(Parser, Debug)]
struct Options {
    /// The folder of the Tom server's records (`Kifu.index`), as `hoshi dataset` reads it.
    #[arg(long, value_name = "DIR")]
    games: PathBuf,
    /// The network (a `.hnet` file) [default: `weights/policy.hnet`, built into hoshi].
    #[arg(long, value_name = "FILE")]
    net: Option<PathBuf>,
    /// Stop after this many held-out games [default: all of them].
    #[arg(long, value_name = "N")]
    max_games: Option<usize>,
    /// Draws of the playout policy a position.
    #[arg(long, default_value_t = 64, value_name = "N")]
    samples: usize,
    /// The games held out: every N-th line of the index, as `hoshi dataset` holds them out.
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    held_out_every: u32,
    /// A rank (`30k` to `9d`) whose player chooses a move in each position too (one
    /// thread, the network given); repeat it for more.
    #[arg(long = "rank", value_name = "RANK")]
    ranks: Vec<Rank>,
}

/// Top-1 and top-5 hits of one predictor, per phase.
#[derive(Default, Clone, Copy)]
struct Hits {
    positions: f64,
    top1: f64,
    top5: f64,
}

impl Hits {
    fn add(&mut self, scores: &[(Point, f64)], played: Point) {
        let Some(&(_, mine)) = scores.iter().find(|s| s.0 == played) else {
            self.positions += 1.0;
            return;
        };
        let higher = scores.iter().filter(|s| s.1 > mine).count() as f64;
        let equal = scores.iter().filter(|s| s.1 == mine).count() as f64;
        let within = |k: f64| ((k - higher) / equal).clamp(0.0, 1.0);
        self.positions += 1.0;
        self.top1 += within(1.0);
        self.top5 += within(5.0);
    }
}

fn main() -> ExitCode {
    let o = Options::parse();
    let net = match &o.net {
        None => hoshi::setup::embedded(),
        Some(path) => match hoshi::setup::load_network(path) {
            Ok(net) => net,
            Err(why) => {
                eprintln!("predict: {why}");
                return ExitCode::FAILURE;
            }
        },
    };
    let games = match dataset::games(&o.games) {
        Ok(g) => g,
        Err(why) => {
            eprintln!("predict: {why}");
            return ExitCode::FAILURE;
        }
    };
    let held_out = games
        .games
        .iter()
        .filter(|game| dataset::is_held_out(game.line, o.held_out_every))
        .take(o.max_games.unwrap_or(usize::MAX));
    let size = games.size;
    let mut evaluator = net.evaluator(size);
    let weights = PriorWeights::default();
    let mut rng = SmallRng::seed_from_u64(1);
    let names: Vec<String> = o.ranks.iter().map(|r| format!("rank {r}")).collect();
    let mut hits: HashMap<&str, [Hits; 3]> = HashMap::new();
    let mut recent = Vec::new();
    let mut tally = Tally::default();
    let mut played_games = 0;
    let setup = PlayerSettings {
        net: NetChoice::Given(net),
        ..PlayerSettings::default()
    };
    let mut players: Vec<MctsPlayer> = o
        .ranks
        .iter()
        .map(|&rank| MctsPlayer::new(PlayerSettings { rank, ..setup }, 1))
        .collect();
    let clock = Clock::default();
    for record in held_out {
        played_games += 1;
        let _ = dataset::replay(
            size,
            &record.moves,
            record.line,
            &mut tally,
            |game, color, played| {
                let phase = dataset::phase_of(game.move_number() + 1);
                let legal = game.legal_points(color);
                recent.clear();
                recent.extend(game.recent_played(features::HISTORY));
                let board = game.board();
                let position = Position::of_stones(board, color, &recent);
                let probabilities = &evaluator.evaluate_one(&position, 7.5).policy;
                let by_net: Vec<(Point, f64)> = legal
                    .iter()
                    .map(|&p| {
                        (
                            p,
                            f64::from(probabilities[board.geometry().vertex_index(p)]),
                        )
                    })
                    .collect();
                hits.entry("policy network").or_default()[phase].add(&by_net, played);
                let by_priors = prior_scores(game, color, &legal, &weights);
                hits.entry("hand-made priors").or_default()[phase].add(&by_priors, played);
                let by_playouts = playout_scores(game, color, &legal, o.samples, &mut rng);
                hits.entry("playout policy").or_default()[phase].add(&by_playouts, played);
                for (player, name) in players.iter_mut().zip(&names) {
                    let chosen = match player.choose(game, color, Mode::Play, &clock) {
                        Choice::Move(Move::Play(p)) => Some(p),
                        _ => None,
                    };
                    let scores: Vec<(Point, f64)> = legal
                        .iter()
                        .map(|&p| (p, f64::from(u8::from(Some(p) == chosen))))
                        .collect();
                    hits.entry(name.as_str()).or_default()[phase].add(&scores, played);
                }
                Ok(())
            },
        );
    }
    report(&hits, &names, played_games);
    ExitCode::SUCCESS
}

/// The priors' virtual wins of each legal move.
fn prior_scores(game: &Game, color: Color, legal: &[Point], w: &PriorWeights) -> Vec<(Point, f64)> {
    let board = game.board();
    let (last, second_last) = (game.nth_last_move(1), game.nth_last_move(2));
    let priors = Priors::new(board, color, last, second_last, w);
    legal
        .iter()
        .map(|&p| (p, priors.of(board, color, Move::Play(p)).0))
        .collect()
}

/// How often the playout policy picks each legal move in `samples` draws.
fn playout_scores(
    game: &Game,
    color: Color,
    legal: &[Point],
    samples: usize,
    rng: &mut SmallRng,
) -> Vec<(Point, f64)> {
    let last = game.nth_last_move(1);
    let mut counts: HashMap<Point, f64> = HashMap::new();
    for _ in 0..samples {
        let mv = playout::choose(
            game.board(),
            color,
            last,
            &PlayoutPolicy::HEAVY,
            &Forbidden::default(),
            rng,
        );
        if let Move::Play(p) = mv {
            *counts.entry(p).or_default() += 1.0;
        }
    }
    legal
        .iter()
        .map(|&p| (p, counts.get(&p).copied().unwrap_or(0.0)))
        .collect()
}

fn report(hits: &HashMap<&str, [Hits; 3]>, ranks: &[String], games: usize) {
    println!("{games} held-out games");
    println!(
        "{:<18} {:>9} {:>7} {:>7}   top-1 by phase",
        "predictor", "positions", "top-1", "top-5"
    );
    let fixed = ["policy network", "hand-made priors", "playout policy"];
    for name in fixed.into_iter().chain(ranks.iter().map(String::as_str)) {
        let Some(phases) = hits.get(name) else {
            continue;
        };
        let total = phases.iter().fold(Hits::default(), |a, h| Hits {
            positions: a.positions + h.positions,
            top1: a.top1 + h.top1,
            top5: a.top5 + h.top5,
        });
        let share = |x: f64, n: f64| 100.0 * x / n.max(1.0);
        let by_phase: Vec<String> = phases
            .iter()
            .zip(PHASES)
            .map(|(h, (_, _, label))| format!("{label} {:.1}%", share(h.top1, h.positions)))
            .collect();
        let top5 = if ranks.iter().any(|r| r == name) {
            "-".to_string()
        } else {
            format!("{:.1}%", share(total.top5, total.positions))
        };
        println!(
            "{:<18} {:>9} {:>6.1}% {:>7}   {}",
            name,
            total.positions,
            share(total.top1, total.positions),
            top5,
            by_phase.join(", ")
        );
    }
}
