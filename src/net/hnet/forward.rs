//! The forward pass of a [`Model`]: the input bytes expanded into planes on a padded grid,
//! the stem and the residual blocks (with their global pooling) by the Winograd kernel, and
//! the policy's 1×1 head, for a batch of positions of one board size in a caller's
//! [`Workspace`], so that an evaluation allocates nothing.

use super::{Model, Workspace, INPUT_PLANES, PLANES};
use crate::net::kernels::conv::{self, Apply, Conv3};
use crate::net::kernels::linalg::dot;
use crate::net::kernels::pool::board_pool_finish;

/// The board sizes the forward pass takes (those of GTP).
pub const SIZES: std::ops::RangeInclusive<usize> = 2..=25;

impl Model {
    /// The logits of a batch of positions of board size `size`: `inputs` holds one slice of
    /// `size²` input bytes per position, in point order; `logits` gets `size²` logits per
    /// position, in the same order. The value head, if any, is not run.
    ///
    /// # Panics
    /// If `size` is not in [`SIZES`], or an input or `logits` has the wrong length: the
    /// caller's mistakes, not the data's.
    pub fn forward(&self, size: usize, inputs: &[&[u8]], ws: &mut Workspace, logits: &mut [f32]) {
        self.trunk_and_policy(size, inputs, ws, logits);
    }

    /// Runs the stem and the blocks, leaving each position's last activations in
    /// `ws.current`, and the policy head into `logits`.
    pub(super) fn trunk_and_policy(
        &self,
        size: usize,
        inputs: &[&[u8]],
        ws: &mut Workspace,
        logits: &mut [f32],
    ) {
        let area = size * size;
        assert!(SIZES.contains(&size), "board size {size}");
        assert!(
            inputs.iter().all(|i| i.len() == area),
            "inputs of {area} bytes"
        );
        assert_eq!(logits.len(), inputs.len() * area, "logits for the batch");
        let batch = inputs.len();
        let stride = self.stem.out_stride();
        ws.prepare(batch, size, stride);
        let grid = conv::grid_points(size);
        let (in_len, act_len) = (grid * PLANES, grid * stride);
        for (bytes, planes) in inputs.iter().zip(ws.input.chunks_exact_mut(in_len)) {
            expand(size, bytes, planes);
        }
        self.trunk(size, batch, ws);
        for (out, act) in logits
            .chunks_exact_mut(area)
            .zip(ws.current.chunks_exact(act_len))
        {
            self.head(size, act, stride, out);
        }
    }

    /// The stem and the blocks on the `batch` expanded inputs in `ws.input`, the last
    /// activations into `ws.current`.
    fn trunk(&self, size: usize, batch: usize, ws: &mut Workspace) {
        let stride = self.stem.out_stride();
        let act_len = conv::grid_points(size) * stride;
        let Workspace {
            path,
            input,
            current,
            middle,
            next,
            pool: pool_scratch,
            conv: scratch,
            ..
        } = ws;
        let pass = ForwardPass {
            path: *path,
            size,
            batch,
        };
        pass.layer(&self.stem, (input, PLANES), None, current, scratch);
        for block in &self.blocks {
            pass.layer(&block.conv1, (current, stride), None, middle, scratch);
            if let Some(pool) = &block.pool {
                for act in middle.chunks_exact_mut(act_len).take(batch) {
                    pool_bias(pool, size, stride, self.channels, act, pool_scratch);
                }
            }
            pass.layer(&block.conv2, (middle, stride), Some(current), next, scratch);
            std::mem::swap(current, next);
        }
    }

    /// The 1×1 head: one logit a point.
    fn head(&self, size: usize, act: &[f32], stride: usize, logits: &mut [f32]) {
        let width = size + 2;
        for (point, logit) in logits.iter_mut().enumerate() {
            let at = ((point / size + 1) * width + point % size + 1) * stride;
            *logit = self.head_bias + dot(&act[at..at + self.channels], &self.head_weights);
        }
    }
}

/// A pooled block's bias: pools the middle activations `act` (one position's padded grid,
/// `stride` floats a point, the first `channels` real and all ≥ 0 after the ReLU) over the
/// board into means, scaled means and maxima, multiplies them by `pool` (`[C][3C]`) and adds
/// the result to each point's channels, with a ReLU again (the training code's
/// `relu(y + pool(board_pool(y)))`). The border stays zero for the next convolution.
fn pool_bias(
    pool: &[f32],
    size: usize,
    stride: usize,
    channels: usize,
    act: &mut [f32],
    scratch: &mut Vec<f32>,
) {
    let c = channels;
    scratch.clear();
    scratch.resize(4 * c, 0.0);
    let (pooled, bias) = scratch.split_at_mut(3 * c);
    let width = size + 2;
    let at = |point: usize| ((point / size + 1) * width + point % size + 1) * stride;
    for point in 0..size * size {
        let x = &act[at(point)..at(point) + c];
        let (sums, rest) = pooled.split_at_mut(2 * c);
        for ((&x, sum), max) in x.iter().zip(&mut sums[..c]).zip(&mut rest[..c]) {
            *sum += x;
            *max = max.max(x);
        }
    }
    board_pool_finish(pooled, c, size);
    for (b, row) in bias.iter_mut().zip(pool.chunks_exact(3 * c)) {
        *b = dot(row, pooled);
    }
    for point in 0..size * size {
        let x = &mut act[at(point)..at(point) + c];
        x.iter_mut()
            .zip(&*bias)
            .for_each(|(x, b)| *x = (*x + b).max(0.0));
    }
}

/// One forward pass's settings: the kernel, the board size and the batch (named so as not to
/// be taken for the move).
#[derive(Clone, Copy)]
struct ForwardPass {
    path: conv::Path,
    size: usize,
    batch: usize,
}

impl ForwardPass {
    /// One convolution of every position's grid in `from` (`in_stride` floats a point) into
    /// `out`, adding the grids of `skip` if any.
    fn layer(
        self,
        conv: &Conv3,
        (from, in_stride): (&[f32], usize),
        skip: Option<&[f32]>,
        out: &mut [f32],
        scratch: &mut conv::Scratch,
    ) {
        let grid = conv::grid_points(self.size);
        let (in_len, out_len) = (grid * in_stride, grid * conv.out_stride());
        for b in 0..self.batch {
            let outputs = b * out_len..(b + 1) * out_len;
            conv::apply(
                self.path,
                Apply {
                    conv,
                    size: self.size,
                    input: &from[b * in_len..(b + 1) * in_len],
                    in_stride,
                    skip: skip.map(|s| &s[outputs.clone()]),
                    out: &mut out[outputs],
                    relu: true,
                },
                scratch,
            );
        }
    }
}

/// Writes the planes of a position's bytes into the interior of a padded grid, `PLANES`
/// floats a point; the border stays zero.
fn expand(size: usize, bytes: &[u8], grid: &mut [f32]) {
    let width = size + 2;
    for (row, line) in bytes.chunks_exact(size).enumerate() {
        let start = ((row + 1) * width + 1) * PLANES;
        let points = grid[start..start + size * PLANES].chunks_exact_mut(PLANES);
        for (point, &code) in points.zip(line) {
            point.copy_from_slice(&INPUT_PLANES[usize::from(code)]);
        }
    }
}
