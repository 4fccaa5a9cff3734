//! KataGo's transformer blocks on the trunk (model version 17's transformer networks), as
//! its CPU backend runs them (`eigenbackend.cpp`'s `TransformerAttentionBlock` and
//! `TransformerFFNBlock`, `desc.cpp`'s `computeRopeCosSin`; lightvector/KataGo, MIT licence,
//! copyright David J. Wu). Both are pre-norm residual blocks: an RMS norm a point at a
//! time, then attention over the board's points or a feed-forward layer at each point, added
//! back onto the trunk.
//!
//! The board's points are the sequence; nothing off the board takes part. KataGo may run a
//! board in a larger buffer (its top-left corner; GTP sizes the buffer to the board unless
//! `gtpForceMaxNNSize`, other tools use 19×19) and masks the rest: the norm writes 0 off the
//! board, the softmax leaves out the keys off it, the rows of queries off it are 0 and the
//! residual add is masked. Its rotary embeddings place a point by its column and row (not by
//! its index in the buffer), and the same column and row give the same angles whatever the
//! buffer, so a board smaller than the buffer reads as it does here, where the buffer is the
//! board: nothing depends on the buffer's size (KataGo's two v17 test models give the same
//! answers on 9×9 in either buffer, to 5e-6).
//!
//! Every product (the projections, each head's scores and its mixing of the values) runs on
//! the register-blocked kernel of [`crate::net::kernels::gemm`].

use super::forward::{board_points, Grid};
use super::model::{Attention, Rope, TransformerNorm};
use crate::coord::MAX_SIZE;
use crate::net::kernels::conv::Path;
use crate::net::kernels::gemm::{self, Out, Packed, Rows};
use crate::net::kernels::linalg::exp;

/// The cosines and sines of an attention block's rotary embeddings at every column and row a
/// board may have, `[table][pair][y][x]`: one table for rotations by theta (every head alike),
/// one a key-value head for learnt frequencies.
#[derive(Clone, Debug)]
pub struct RopeTable {
    tables: usize,
    pairs: usize,
    cos: Vec<f32>,
    sin: Vec<f32>,
}

impl RopeTable {
    /// The tables of `block`, `None` for a block without rotary embeddings.
    ///
    /// By theta, KataGo turns the first half of the pairs (rounded down) by the row and the
    /// rest by the column, pair `p` of a half by `1 / theta^(2p / (head size / 2))` a step;
    /// learnt, pair `p` of key-value head `h` turns by `x · fx + y · fy`. A pair is two
    /// neighbouring channels of a head, `2p` and `2p + 1`.
    pub fn new(block: &Attention) -> Option<RopeTable> {
        let pairs = block.q_dim / 2;
        let area = MAX_SIZE * MAX_SIZE;
        let angle: Box<dyn Fn(usize, usize, f32, f32) -> f32> = match &block.rope {
            Rope::None => return None,
            Rope::Theta(theta) => {
                let theta = *theta;
                let half = pairs / 2;
                let dim_half = pairs as f32;
                Box::new(move |_, p, x, y| {
                    let (along, step) = match p < half {
                        true => (y, p),
                        false => (x, p - half),
                    };
                    let frequency = 1.0 / theta.powf((2 * step) as f32 / dim_half);
                    along * frequency
                })
            }
            Rope::Learnt(frequencies) => {
                let frequencies = frequencies.clone();
                Box::new(move |table, p, x, y| {
                    let at = (table * pairs + p) * 2;
                    x * frequencies[at] + y * frequencies[at + 1]
                })
            }
        };
        let tables = match block.rope {
            Rope::Learnt(_) => block.kv_heads,
            _ => 1,
        };
        let mut cos = vec![0.0; tables * pairs * area];
        let mut sin = vec![0.0; tables * pairs * area];
        for table in 0..tables {
            for p in 0..pairs {
                for y in 0..MAX_SIZE {
                    for x in 0..MAX_SIZE {
                        let a = angle(table, p, x as f32, y as f32);
                        let at = ((table * pairs + p) * MAX_SIZE + y) * MAX_SIZE + x;
                        cos[at] = a.cos();
                        sin[at] = a.sin();
                    }
                }
            }
        }
        Some(RopeTable {
            tables,
            pairs,
            cos,
            sin,
        })
    }

    /// Turns the heads of `rows` (a row a point of the board of `size`, `heads` heads of
    /// `head_size` channels each) by their point's angles. Head `h` of `heads` reads table
    /// `h · tables / heads`: the key-value head a query head shares.
    fn rotate(&self, size: usize, rows: &mut [f32], heads: usize, head_size: usize) {
        let width = heads * head_size;
        for (i, row) in rows.chunks_exact_mut(width).enumerate() {
            let (y, x) = (i / size, i % size);
            for h in 0..heads {
                let table = h * self.tables / heads;
                let head = &mut row[h * head_size..][..2 * self.pairs];
                for (p, pair) in head.chunks_exact_mut(2).enumerate() {
                    let at = ((table * self.pairs + p) * MAX_SIZE + y) * MAX_SIZE + x;
                    let (c, s) = (self.cos[at], self.sin[at]);
                    let (a, b) = (pair[0], pair[1]);
                    pair[0] = a * c - b * s;
                    pair[1] = a * s + b * c;
                }
            }
        }
    }
}

/// The buffers the transformer blocks use, kept between evaluations: the board's points a
/// row each.
#[derive(Default)]
pub struct Scratch {
    normed: Vec<f32>,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    /// One key-value head's keys, `q_dim × points`, laid out for the product kernel.
    keys: Packed,
    /// Its values, `points × v_dim`, likewise.
    values: Packed,
    /// One head's weights, `points × points`: a query's scores, then its softmax.
    scores: Vec<f32>,
    mixed: Vec<f32>,
    hidden: Vec<f32>,
    gate: Vec<f32>,
    out: Vec<f32>,
}

/// `trunk += attention(norm(trunk))` on the board of `size`, by the kernel `path`;
/// `products` are the block's q, k, v and out laid out for the product kernel.
pub(crate) fn attention(
    path: Path,
    block: &Attention,
    products: &[Packed],
    rope: Option<&RopeTable>,
    size: usize,
    trunk: &mut Grid,
    s: &mut Scratch,
) {
    let [q, k, v, out] = products else {
        panic!("an attention block has four matrix products");
    };
    let points = size * size;
    rms_norm(&block.norm, size, trunk, &mut s.normed);
    project(path, q, &s.normed, points, &mut s.q);
    project(path, k, &s.normed, points, &mut s.k);
    project(path, v, &s.normed, points, &mut s.v);
    if let Some(rope) = rope {
        rope.rotate(size, &mut s.q, block.heads, block.q_dim);
        rope.rotate(size, &mut s.k, block.kv_heads, block.q_dim);
    }
    mix_heads(path, block, points, s);
    project(path, out, &s.mixed, points, &mut s.out);
    add_rows(size, &s.out, trunk);
}

/// `trunk += down(silu(up(norm(trunk))) · gate(norm(trunk)))` on the board of `size`, by
/// the kernel `path`: the SwiGLU feed-forward block, the only kind KataGo runs (its backends
/// refuse the plain one, whose activation the file does not name); `products` are its up,
/// gate and down laid out for the product kernel.
pub(crate) fn feed_forward(
    path: Path,
    products: &[Packed],
    size: usize,
    trunk: &mut Grid,
    s: &mut Scratch,
    norm: &TransformerNorm,
) {
    let [up, gate, down] = products else {
        panic!("feed-forward blocks without a gate are refused when the network is read");
    };
    let points = size * size;
    rms_norm(norm, size, trunk, &mut s.normed);
    project(path, up, &s.normed, points, &mut s.hidden);
    project(path, gate, &s.normed, points, &mut s.gate);
    for (h, g) in s.hidden.iter_mut().zip(&s.gate) {
        *h = *h / (1.0 + exp(-*h)) * g;
    }
    project(path, down, &s.hidden, points, &mut s.out);
    add_rows(size, &s.out, trunk);
}

/// The attention proper, head by head: the scores of every query against every key (a
/// product of the head's queries and keys), a softmax over each query's row, and the values
/// mixed by them (a product of the weights and the head's values), into `s.mixed`.
fn mix_heads(path: Path, block: &Attention, points: usize, s: &mut Scratch) {
    let (heads, kv_heads, qd, vd) = (block.heads, block.kv_heads, block.q_dim, block.v_dim);
    let scale = 1.0 / (qd as f32).sqrt();
    let group = heads / kv_heads;
    let (q_width, k_width, v_width) = (heads * qd, kv_heads * qd, kv_heads * vd);
    s.mixed.clear();
    s.mixed.resize(points * heads * vd, 0.0);
    s.scores.resize(points * points, 0.0);
    for h in 0..heads {
        let kv = h / group;
        if h % group == 0 {
            let k = &s.k;
            s.keys
                .refill(qd, points, |d, j| k[j * k_width + kv * qd + d]);
            let v = &s.v;
            s.values
                .refill(points, vd, |j, c| v[j * v_width + kv * vd + c]);
        }
        let queries = Rows {
            data: &s.q[h * qd..],
            stride: q_width,
            rows: points,
        };
        let scores = Out {
            data: &mut s.scores,
            stride: points,
        };
        gemm::multiply(path, &s.keys, queries, scores);
        softmax_rows(path, &mut s.scores, points, scale);
        let weights = Rows {
            data: &s.scores,
            stride: points,
            rows: points,
        };
        let mixed = Out {
            data: &mut s.mixed[h * vd..],
            stride: heads * vd,
        };
        gemm::multiply(path, &s.values, weights, mixed);
    }
}

/// KataGo's softmax of each query's scores (rows of `points`), scaled, by the kernel `path`.
fn softmax_rows(path: Path, scores: &mut [f32], points: usize, scale: f32) {
    match path {
        Path::Portable => scores
            .chunks_exact_mut(points)
            .for_each(|row| softmax(row, scale)),
        // SAFETY: a path other than the portable one is only made after the processor was
        // found to have AVX2 and FMA (`Path::available`).
        #[cfg(target_arch = "x86_64")]
        Path::Avx2Fma(_) | Path::Avx512(_) => unsafe { softmax_rows_avx2(scores, points, scale) },
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn softmax_rows_avx2(scores: &mut [f32], points: usize, scale: f32) {
    scores
        .chunks_exact_mut(points)
        .for_each(|row| softmax(row, scale));
}

/// KataGo's softmax of one query's scores, scaled (its maximum starts at -1e30), eight
/// lanes at a time so that it vectorizes.
#[inline(always)]
fn softmax(scores: &mut [f32], scale: f32) {
    let (chunks, rest) = scores.as_chunks_mut::<8>();
    let mut lanes = [-1e30f32; 8];
    for chunk in chunks.iter_mut() {
        for (a, m) in chunk.iter_mut().zip(&mut lanes) {
            *a *= scale;
            *m = if *a > *m { *a } else { *m };
        }
    }
    let mut max = lanes.into_iter().fold(-1e30f32, f32::max);
    for a in rest.iter_mut() {
        *a *= scale;
        max = max.max(*a);
    }
    let mut sums = [0.0f32; 8];
    for chunk in chunks.iter_mut() {
        for (a, sum) in chunk.iter_mut().zip(&mut sums) {
            *a = exp(*a - max);
            *sum += *a;
        }
    }
    let mut sum: f32 = sums.iter().sum();
    for a in rest.iter_mut() {
        *a = exp(*a - max);
        sum += *a;
    }
    let inverse = 1.0 / sum;
    scores.iter_mut().for_each(|a| *a *= inverse);
}

/// The RMS norm of a transformer block at each point of the board: `x / rms(x) · weight`,
/// the points a row each.
fn rms_norm(norm: &TransformerNorm, size: usize, grid: &Grid, out: &mut Vec<f32>) {
    let channels = norm.weight.len();
    out.clear();
    for at in board_points(size) {
        let x = &grid.data[at * grid.stride..][..channels];
        let sum: f32 = x.iter().map(|v| v * v).sum();
        let scale = 1.0 / (sum / channels as f32 + norm.epsilon).sqrt();
        out.extend(x.iter().zip(&norm.weight).map(|(v, w)| v * scale * w));
    }
}

/// `out = input · W`, `rows` rows of the weights' inputs each, by the product kernel.
fn project(path: Path, w: &Packed, input: &[f32], rows: usize, out: &mut Vec<f32>) {
    out.clear();
    out.resize(rows * w.c_out, 0.0);
    let input = Rows {
        data: input,
        stride: w.c_in,
        rows,
    };
    let target = Out {
        data: out,
        stride: w.c_out,
    };
    gemm::multiply(path, w, input, target);
}

/// Adds `rows` (a row a point of the board) onto the grid's points.
fn add_rows(size: usize, rows: &[f32], grid: &mut Grid) {
    let channels = rows.len() / (size * size);
    for (at, row) in board_points(size).zip(rows.chunks_exact(channels)) {
        grid.data[at * grid.stride..][..channels]
            .iter_mut()
            .zip(row)
            .for_each(|(t, r)| *t += r);
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::MatMul;
    use super::*;

    fn attention_block(rope: Rope, q_dim: usize, kv_heads: usize) -> Attention {
        let mul = |c_in: usize, c_out: usize| MatMul {
            name: "m".into(),
            c_in,
            c_out,
            weights: vec![0.0; c_in * c_out],
        };
        Attention {
            name: "a".into(),
            heads: 2 * kv_heads,
            kv_heads,
            q_dim,
            v_dim: 4,
            norm: TransformerNorm {
                name: "n".into(),
                epsilon: 1e-6,
                weight: vec![1.0; 8],
            },
            q: mul(8, 2 * kv_heads * q_dim),
            k: mul(8, kv_heads * q_dim),
            v: mul(8, kv_heads * 4),
            out: mul(2 * kv_heads * 4, 8),
            rope,
        }
    }

    #[test]
    fn theta_rope_turns_the_first_half_of_the_pairs_by_row_the_rest_by_column() {
        // Head size 8: 4 pairs, 2 by row and 2 by column, frequencies 1 and 1/theta^(2/4).
        let table = RopeTable::new(&attention_block(Rope::Theta(100.0), 8, 1)).unwrap();
        let at = |p: usize, x: usize, y: usize| (p * MAX_SIZE + y) * MAX_SIZE + x;
        let slow = 1.0f32 / 100f32.powf(0.5);
        assert_eq!(table.cos[at(0, 5, 3)], 3.0f32.cos());
        assert_eq!(table.sin[at(1, 5, 3)], (3.0 * slow).sin());
        assert_eq!(table.cos[at(2, 5, 3)], 5.0f32.cos());
        assert_eq!(table.sin[at(3, 5, 3)], (5.0 * slow).sin());
        assert!(RopeTable::new(&attention_block(Rope::None, 8, 1)).is_none());
    }

    #[test]
    fn learnt_rope_gives_query_heads_their_key_value_heads_frequencies() {
        // 2 kv heads, 4 query heads, head size 2 (one pair): kv head h turns by x·(h+1).
        let freqs = vec![1.0, 0.0, 2.0, 0.0];
        let table = RopeTable::new(&attention_block(Rope::Learnt(freqs), 2, 2)).unwrap();
        // A board of size 2: point 0 at (0, 0), point 1 at column 1 of the top row; every
        // head of both points (1, 0) before turning.
        let mut rows = [1.0, 0.0].repeat(8);
        table.rotate(2, &mut rows, 4, 2);
        let rows = &rows[8..];
        let turned: Vec<(f32, f32)> = rows.chunks(2).map(|c| (c[0], c[1])).collect();
        assert_eq!(turned[0], (1f32.cos(), 1f32.sin()));
        assert_eq!(turned[1], (1f32.cos(), 1f32.sin()));
        assert_eq!(turned[2], (2f32.cos(), 2f32.sin()));
        assert_eq!(turned[3], (2f32.cos(), 2f32.sin()));
    }
}

#[cfg(test)]
mod paths {
    use super::super::forward::{Forward, Kernels, Workspace};
    use super::super::writer::random::{self, BlockSpec, RopeSpec, Spec};
    use crate::net::kernels::conv::Path;

    #[test]
    fn every_kernel_path_gives_the_same_outputs() {
        let attention = |rope, v_dim| BlockSpec::Attention {
            heads: 4,
            kv_heads: 2,
            q_dim: 8,
            v_dim,
            rope,
        };
        let spec = Spec {
            blocks: vec![
                attention(RopeSpec::Theta(100.0), 8),
                BlockSpec::FeedForward {
                    hidden: 40,
                    gated: true,
                },
                attention(RopeSpec::Learnt, 4),
                attention(RopeSpec::None, 36),
            ],
            rms_tip: Some(false),
            ..Spec::plain(17)
        };
        let model = random::model(&spec, 5);
        let kernels = Kernels::new(&model);
        for size in [7, 19] {
            let spatial: Vec<f32> = (0..22 * size * size)
                .map(|i| ((i * 7919) % 13) as f32 / 13.0)
                .collect();
            let global = [0.25f32; 19];
            let run = |path| {
                let forward = Forward {
                    model: &model,
                    kernels: &kernels,
                    path,
                };
                forward.run(size, &spatial, &global, None, &mut Workspace::default())
            };
            let portable = run(Path::Portable);
            for path in Path::available() {
                let raw = run(path);
                let pairs = (raw.policy.iter().zip(&portable.policy))
                    .chain(raw.ownership.iter().zip(&portable.ownership))
                    .chain(raw.value.iter().zip(&portable.value))
                    .chain(raw.scores.iter().zip(&portable.scores));
                for (a, b) in pairs {
                    assert!((a - b).abs() < 1e-4, "{}: {a} against {b}", path.name());
                }
            }
        }
    }
}
