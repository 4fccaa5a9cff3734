//! Search speed: full tree-search playouts per second from the empty board (and the tree's
//! memory), with the default playout policy, on one thread and on all cores.
//!
//!     cargo bench --bench search                      # 9x9 and 19x19, 1 and 2 threads
//!     cargo bench --bench search -- 9 --seconds 3 --runs 5 --threads 1
//!
//! Each figure is the median of several searches; every search starts from a fresh tree.

use hoshi::coord::Color;
use hoshi::game::Game;
use hoshi::rules::Ruleset;
use hoshi::search::{Budget, Search, SearchConfig};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn main() {
    let mut sizes = Vec::new();
    let mut runs = 3;
    let mut seconds = 2.0;
    let mut threads: Vec<usize> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs),
            "--seconds" => seconds = args.next().and_then(|v| v.parse().ok()).unwrap_or(seconds),
            "--threads" => threads.extend(args.next().and_then(|v| v.parse::<usize>().ok())),
            "--bench" => {}
            other => sizes.extend(other.parse::<usize>().ok()),
        }
    }
    if sizes.is_empty() {
        sizes = vec![9, 19];
    }
    if threads.is_empty() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        threads = if cores > 1 { vec![1, cores] } else { vec![1] };
    }
    println!(
        "tree search from the empty board, French rules, median of {runs} searches of {seconds} s"
    );
    for size in sizes {
        for &t in &threads {
            let mut rates = Vec::new();
            let mut memory = 0;
            let mut nodes = 0;
            for run in 0..runs {
                let game = Game::new(size, Ruleset::FRENCH, 7.5).expect("size 2..25");
                let config = SearchConfig {
                    threads: t,
                    ..SearchConfig::default()
                };
                let mut search = Search::new(config, run as u64);
                let budget = Budget {
                    playouts: None,
                    time: Some(Duration::from_secs_f64(seconds)),
                };
                let result = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
                rates.push(result.playouts as f64 / result.elapsed.as_secs_f64());
                memory = memory.max(result.tree_memory);
                nodes = nodes.max(result.tree_nodes);
            }
            rates.sort_by(f64::total_cmp);
            println!(
                "{size:>2}x{size:<2} {t} thread(s): median {:>8.0} playouts/s (min {:.0}, max {:.0}); tree {} nodes, {:.1} MiB",
                rates[rates.len() / 2],
                rates[0],
                rates[rates.len() - 1],
                nodes,
                memory as f64 / (1 << 20) as f64
            );
        }
    }
}
