//! Board speed: uniform random playouts (legal moves, never filling own eyes, to the end of
//! the game) per second from the empty board, on one thread, for 9×9, 13×13 and 19×19.
//!
//!     cargo bench --bench playouts               # 5 runs of 1 s per size
//!     cargo bench --bench playouts -- 9 19 --runs 7 --seconds 2
//!
//! Each run counts the playouts finished in a fixed time; the median run is reported, with
//! the spread, because these machines are shared and noisy.

use hoshi::board::Board;
use hoshi::coord::Color;
use hoshi::knowledge::playout::light_playout;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::{Duration, Instant};

fn main() {
    let mut sizes = Vec::new();
    let mut runs = 5;
    let mut seconds = 1.0;
    let mut count = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs),
            "--seconds" => seconds = args.next().and_then(|v| v.parse().ok()).unwrap_or(seconds),
            "--count" => count = args.next().and_then(|v| v.parse().ok()),
            "--bench" => {}
            other => {
                if let Ok(size) = other.parse::<usize>() {
                    sizes.push(size);
                }
            }
        }
    }
    if sizes.is_empty() {
        sizes = vec![9, 13, 19];
    }
    if let Some(n) = count {
        // A fixed amount of work, for instruction counts (valgrind --tool=callgrind), which
        // stay comparable when the machine is busy.
        for size in sizes {
            if let Some(empty) = Board::new(size) {
                let (moves, checksum) = fixed_work(&empty, n);
                println!("{size}x{size}: {n} playouts, {moves} moves, checksum {checksum}");
            }
        }
        return;
    }
    println!("random playouts per second, 1 thread, median of {runs} runs of {seconds} s");
    for size in sizes {
        let Some(empty) = Board::new(size) else {
            eprintln!("skipping size {size}: boards go from 2 to 25");
            continue;
        };
        let mut rates = Vec::new();
        let mut moves_per_playout = 0.0;
        for run in 0..runs {
            let (rate, moves) = measure(&empty, Duration::from_secs_f64(seconds), run as u64);
            rates.push(rate);
            moves_per_playout = moves;
        }
        rates.sort_by(f64::total_cmp);
        println!(
            "{size:>2}x{size:<2}  median {:>9.0} playouts/s   (min {:.0}, max {:.0}; {:.1} moves per playout)",
            rates[rates.len() / 2],
            rates[0],
            rates[rates.len() - 1],
            moves_per_playout
        );
    }
}

/// Playouts per second during `duration`, and the mean number of moves per playout.
fn measure(empty: &Board, duration: Duration, seed: u64) -> (f64, f64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut board = empty.clone();
    let mut record = Vec::new();
    let start = Instant::now();
    let mut playouts = 0u64;
    let mut moves = 0u64;
    let mut checksum = 0i64;
    while start.elapsed() < duration {
        for _ in 0..64 {
            board.copy_from(empty);
            let end = light_playout(&mut board, Color::Black, &mut rng, &mut record);
            moves += end.moves as u64;
            checksum += end.black_lead as i64;
        }
        playouts += 64;
    }
    std::hint::black_box(checksum);
    let elapsed = start.elapsed().as_secs_f64();
    (playouts as f64 / elapsed, moves as f64 / playouts as f64)
}

/// Exactly `n` playouts from seed 0: total moves and the sum of the results.
fn fixed_work(empty: &Board, n: usize) -> (u64, i64) {
    let mut rng = SmallRng::seed_from_u64(0);
    let mut board = empty.clone();
    let mut record = Vec::new();
    let (mut moves, mut checksum) = (0u64, 0i64);
    for _ in 0..n {
        board.copy_from(empty);
        let end = light_playout(&mut board, Color::Black, &mut rng, &mut record);
        moves += end.moves as u64;
        checksum += end.black_lead as i64;
    }
    (moves, checksum)
}
