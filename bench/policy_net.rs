//! Speed of the network's forward pass: evaluations per second on one thread, for batches of
//! 1 and 8 positions, each the median of several runs, of the policy alone and, when the
//! network has a value head, of the policy and the value.
//!
//!     cargo bench --bench policy_net                          # 9x9, 13x13, 19x19
//!     cargo bench --bench policy_net -- 19 --seconds 2 --runs 5
//!     cargo bench --bench policy_net -- --net weights.hnet --batch 16
//!
//! Without `--net` it runs a network of random weights of 6 blocks and 32 channels with a
//! value head of 32 × 64 (change them with `--blocks`, `--channels`, `--value-channels`, 0 for
//! none, and `--value-hidden`); `--kernel NAME` runs another copy of the convolution than
//! the fastest this processor has (`avx512`, `avx2+fma`, or `portable`, compiled for any
//! x86-64): the speed depends only on the shape. The positions are random input bytes, which
//! cost the same as real ones.

use hoshi::net::hnet::{Model, Weights, Workspace};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

struct Options {
    sizes: Vec<usize>,
    batches: Vec<usize>,
    runs: usize,
    seconds: f64,
    net: Option<String>,
    channels: usize,
    blocks: usize,
    value_channels: usize,
    value_hidden: usize,
    kernel: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        sizes: Vec::new(),
        batches: Vec::new(),
        runs: 3,
        seconds: 1.0,
        net: None,
        channels: 32,
        blocks: 6,
        value_channels: 32,
        value_hidden: 64,
        kernel: None,
    };
    let mut args = std::env::args().skip(1);
    let number = |args: &mut dyn Iterator<Item = String>, default: usize| {
        args.next().and_then(|v| v.parse().ok()).unwrap_or(default)
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => o.runs = number(&mut args, o.runs).max(1),
            "--seconds" => {
                o.seconds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(o.seconds)
            }
            "--batch" => o.batches.push(number(&mut args, 1).max(1)),
            "--net" => o.net = args.next(),
            "--channels" => o.channels = number(&mut args, o.channels),
            "--blocks" => o.blocks = number(&mut args, o.blocks),
            "--value-channels" => o.value_channels = number(&mut args, o.value_channels),
            "--value-hidden" => o.value_hidden = number(&mut args, o.value_hidden).max(1),
            "--kernel" => o.kernel = args.next(),
            "--bench" => {}
            other => o.sizes.extend(other.parse::<usize>().ok()),
        }
    }
    if o.sizes.is_empty() {
        o.sizes = vec![9, 13, 19];
    }
    if o.batches.is_empty() {
        o.batches = vec![1, 8];
    }
    o
}

fn main() {
    let o = options();
    let loaded = match &o.net {
        Some(path) => match hoshi::setup::read_network_file(path.as_ref()) {
            Ok(bytes) => Model::from_bytes(&bytes),
            Err(e) => {
                eprintln!("policy_net bench: {e}");
                std::process::exit(1);
            }
        },
        None if o.value_channels == 0 => {
            Model::from_weights(&Weights::random(o.channels, o.blocks, 2026))
        }
        None => Model::from_weights(&Weights::random_with_value(
            o.channels,
            o.blocks,
            o.value_channels,
            o.value_hidden,
            2026,
        )),
    };
    let net = match loaded {
        Ok(net) => net,
        Err(e) => {
            eprintln!("policy_net bench: {e}");
            std::process::exit(1);
        }
    };
    let origin = o.net.as_deref().unwrap_or("random weights");
    let kernel = workspace(&net, 2, 1, &o).kernel();
    let value = net
        .value_sizes()
        .map_or("no value head".to_string(), |(v, h)| {
            format!("value head {v} x {h}")
        });
    println!(
        "network ({origin}): {} blocks x {} channels, {value}; {kernel} kernel; one thread; median of {} runs of {} s",
        net.blocks(),
        net.channels(),
        o.runs,
        o.seconds
    );
    for &size in &o.sizes {
        for &batch in &o.batches {
            speed(&net, size, batch, &o);
        }
    }
}

/// Evaluations per second of batches of `batch` positions of `size`, the policy alone and,
/// with a value head, the policy and the value. The runs of the two alternate, so that a
/// change in the machine's load falls on both alike.
fn speed(net: &Model, size: usize, batch: usize, o: &Options) {
    let mut rng = SmallRng::seed_from_u64(size as u64);
    let positions: Vec<Vec<u8>> = (0..batch)
        .map(|_| (0..size * size).map(|_| rng.gen()).collect())
        .collect();
    let inputs: Vec<&[u8]> = positions.iter().map(Vec::as_slice).collect();
    let mut logits = vec![0.0; batch * size * size];
    let (komi, mut values) = (vec![7.5; batch], vec![0.0; batch]);
    let mut ws = workspace(net, size, batch, o);
    let modes: &[bool] = if net.has_value() {
        &[false, true]
    } else {
        &[false]
    };
    let mut rates = vec![Vec::new(); modes.len()];
    for _ in 0..o.runs {
        for (&value, rates) in modes.iter().zip(&mut rates) {
            let start = Instant::now();
            let mut evaluations = 0;
            while start.elapsed().as_secs_f64() < o.seconds {
                if value {
                    net.forward_value(size, &inputs, &komi, &mut ws, &mut logits, &mut values);
                } else {
                    net.forward(size, &inputs, &mut ws, &mut logits);
                }
                std::hint::black_box((&mut logits, &mut values));
                evaluations += batch;
            }
            rates.push(evaluations as f64 / start.elapsed().as_secs_f64());
        }
    }
    for (&value, rates) in modes.iter().zip(rates) {
        let (mid, lo, hi) = median(rates);
        let what = if value { "policy+value" } else { "policy" };
        println!(
            "{size:>2}x{size:<2} batch {batch:>2} {what:<12}: {mid:>8.0} evaluations/s (min {lo:.0}, max {hi:.0}); {:.3} ms each",
            1000.0 / mid
        );
    }
}

fn workspace(net: &Model, size: usize, batch: usize, o: &Options) -> Workspace {
    let ws = net.workspace(size, batch);
    match &o.kernel {
        None => ws,
        Some(name) => ws.with_kernel(name).unwrap_or_else(|| {
            eprintln!(
                "no kernel {name} here; this processor runs {:?}",
                Workspace::kernels()
            );
            std::process::exit(2)
        }),
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
