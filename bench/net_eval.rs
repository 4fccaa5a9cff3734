//! Speed of a whole network evaluation as the search asks for one: the input features, the
//! forward pass and the post-processing of one position on one thread (batch 1), for any
//! network file hoshi reads (`.hnet` or a KataGo model), the median of several runs.
//!
//!     cargo bench --bench net_eval -- --net /path/to/model.bin.gz            # 19x19
//!     cargo bench --bench net_eval -- --net model.bin.gz 9 19 --seconds 3 --runs 5
//!
//! The positions are those of a game's opening (a fixed sequence of moves), read in varied
//! symmetries as the search reads them; no cache.

use hoshi::coord::{Color, Move, Vertex};
use hoshi::game::{Game, PositionFacts};
use hoshi::rules::Ruleset;
use hoshi::setup::load_network;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut net = None;
    let (mut sizes, mut seconds, mut runs) = (Vec::new(), 2.0, 3);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--net" => net = args.next().map(PathBuf::from),
            "--seconds" => seconds = args.next().and_then(|v| v.parse().ok()).unwrap_or(seconds),
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs),
            "--bench" => {}
            other => sizes.extend(other.parse::<usize>().ok()),
        }
    }
    let Some(file) = net else {
        eprintln!("usage: net_eval --net FILE [SIZES] [--seconds S] [--runs N]");
        std::process::exit(2);
    };
    if sizes.is_empty() {
        sizes.push(19);
    }
    let net = match load_network(&file) {
        Ok(net) => net,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!("{}", net.network().describe());
    for size in sizes {
        let games = openings(size);
        let mut evaluator = net.evaluator(size);
        evaluator.vary_symmetry();
        let network = net.network();
        let mut rates = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let mut count = 0usize;
            while start.elapsed().as_secs_f64() < seconds {
                let game = &games[count % games.len()];
                let to_move = game.to_move();
                let facts =
                    PositionFacts::of(game, to_move, network.history(), network.earlier_boards());
                let position = facts.position(game.board(), to_move);
                std::hint::black_box(evaluator.evaluate_one(&position, game.area_komi()));
                count += 1;
            }
            rates.push(count as f64 / start.elapsed().as_secs_f64());
        }
        rates.sort_by(f64::total_cmp);
        println!(
            "{size}x{size}: {:.1} evaluations/s (median of {runs}: {})",
            rates[rates.len() / 2],
            rates
                .iter()
                .map(|r| format!("{r:.1}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// The positions of an opening on a board of `size`: moves spiralling out from the centre,
/// each position one move further.
fn openings(size: usize) -> Vec<Game> {
    let mut game = Game::new(size, Ruleset::FRENCH, 7.5).expect("a board size hoshi plays");
    let mut games = Vec::new();
    let (c, mut color) = ((size / 2) as i64, Color::Black);
    for step in 0..(size * size / 3) as i64 {
        let (dx, dy) = ((step * 7) % (2 * c + 1) - c, (step * 11) % (2 * c + 1) - c);
        let v = Vertex::new((c + dx) as usize, (c + dy) as usize);
        let mv = Move::Play(game.board().geometry().point(v));
        if game.play(color, mv).is_ok() {
            games.push(game.clone());
            color = color.opponent();
        }
    }
    games
}
