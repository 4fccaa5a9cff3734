//! The value head's forward pass (docs/policy-net.md): from the trunk's last activations, a
//! 1×1 convolution pooled over the board with the komi, two small fully connected layers,
//! and out come the side to move's winning chances, its score lead and each point's
//! ownership. The komi enters only after the pooling, so that one trunk serves every komi
//! a search counts with ([`Model::evaluate_value`]).

use super::weights::{Layer, ValueWeights};
use super::{Model, Workspace};
use crate::net::kernels::conv;
use crate::net::kernels::linalg::dot;
use crate::net::kernels::pool::board_pool_finish;

/// The points the score output counts in: the network gives the mover's lead divided by it,
/// so that its usual values are near 1 (the training code's `SCORE_SCALE`).
pub const SCORE_SCALE: f32 = 20.0;

/// What the value head says of a position for one komi ([`Model::evaluate_value`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueOutput {
    /// The side to move's probability of winning.
    pub value: f32,
    /// The points it leads by (negative: behind), where the head has the score output.
    pub score_lead: Option<f32>,
}

/// The value head laid out for the forward pass: the 1×1 convolution's weights transposed to
/// `[C][V]`, so that each trunk channel of a point adds itself times a row of V weights to
/// the V outputs (a loop the compiler vectorises, where a dot product per output, an f32
/// sum in order, stays scalar and costs a tenth of the trunk); the two small layers as the
/// file has them.
#[derive(Clone, Debug)]
pub(super) struct ValueHead {
    conv_t: Vec<f32>,
    conv_bias: Vec<f32>,
    fc1: Layer,
    fc2: Layer,
    ownership: Option<Layer>,
}

impl ValueHead {
    pub(super) fn new(weights: &ValueWeights, channels: usize) -> ValueHead {
        let v = weights.conv.bias.len();
        let conv_t = (0..channels * v)
            .map(|at| weights.conv.weights[(at % v) * channels + at / v])
            .collect();
        ValueHead {
            conv_t,
            conv_bias: weights.conv.bias.clone(),
            fc1: weights.fc1.clone(),
            fc2: weights.fc2.clone(),
            ownership: weights.ownership.clone(),
        }
    }

    /// V and H.
    pub(super) fn sizes(&self) -> (usize, usize) {
        (self.conv_bias.len(), self.fc1.bias.len())
    }

    /// Whether it gives the score lead (a second output of its last layer).
    pub(super) fn has_score(&self) -> bool {
        self.fc2.bias.len() == 2
    }

    /// Whether it gives each point's ownership.
    pub(super) fn has_ownership(&self) -> bool {
        self.ownership.is_some()
    }

    /// The floats of one position's scratch: one point's V outputs, the 3V + 1 pooled values,
    /// the H hidden ones.
    fn scratch(&self) -> usize {
        let (v, h) = self.sizes();
        4 * v + 1 + h
    }

    /// The value head on one position (docs/policy-net.md): the 1×1 convolution's ReLU at
    /// every point (and there the ownership, if asked), pooled into means, scaled means,
    /// maxima and the komi, a hidden layer, the value's logit and the score. `scratch` holds
    /// at least [`ValueHead::scratch`] floats.
    fn evaluate(
        &self,
        grid: &Grid,
        mover_komi: f32,
        scratch: &mut [f32],
        ownership: Option<&mut [f32]>,
    ) -> ValueOutput {
        let (v, h) = self.sizes();
        let (out, rest) = scratch.split_at_mut(v);
        let (pooled, hidden) = rest.split_at_mut(3 * v + 1);
        self.pool(grid, out, pooled, ownership);
        pooled[3 * v] = mover_komi / 15.0;
        self.outputs(pooled, &mut hidden[..h])
    }

    /// The 1×1 convolution's ReLU at every point of `grid` (one point's V values at a time in
    /// `out`), pooled into the first 3V values of `pooled` (zeroed first): means, means scaled
    /// by the board's size, maxima; and each point's ownership into `ownership` if asked.
    fn pool(
        &self,
        grid: &Grid,
        out: &mut [f32],
        pooled: &mut [f32],
        mut ownership: Option<&mut [f32]>,
    ) {
        let v = out.len();
        pooled.fill(0.0);
        if let Some(own) = &ownership {
            assert!(self.ownership.is_some(), "the head has no ownership output");
            assert_eq!(own.len(), grid.size * grid.size, "one ownership a point");
        }
        for (point, act) in grid.points().enumerate() {
            out.copy_from_slice(&self.conv_bias);
            for (&a, row) in act.iter().zip(self.conv_t.chunks_exact(v)) {
                // After the trunk's ReLU about half the channels are 0.
                if a != 0.0 {
                    out.iter_mut().zip(row).for_each(|(o, &w)| *o += a * w);
                }
            }
            out.iter_mut().for_each(|x| *x = x.max(0.0));
            let (sums, rest) = pooled.split_at_mut(2 * v);
            for ((&x, sum), max) in out.iter().zip(&mut sums[..v]).zip(&mut rest[..v]) {
                *sum += x;
                *max = max.max(x);
            }
            if let (Some(own), Some(layer)) = (ownership.as_deref_mut(), &self.ownership) {
                own[point] = (layer.bias[0] + dot(&layer.weights, out)).tanh();
            }
        }
        board_pool_finish(pooled, v, grid.size);
    }

    /// The hidden layer (H values into `hidden`) over the pooled values and the komi, then
    /// the value's logit and the score.
    fn outputs(&self, pooled: &[f32], hidden: &mut [f32]) -> ValueOutput {
        let h = hidden.len();
        let rows = self.fc1.weights.chunks_exact(pooled.len());
        for ((out, row), &bias) in hidden.iter_mut().zip(rows).zip(&self.fc1.bias) {
            *out = (bias + dot(row, pooled)).max(0.0);
        }
        let output =
            |o: usize| self.fc2.bias[o] + dot(&self.fc2.weights[o * h..(o + 1) * h], hidden);
        let logit = output(0);
        ValueOutput {
            value: 1.0 / (1.0 + (-logit).exp()),
            score_lead: self.has_score().then(|| output(1) * SCORE_SCALE),
        }
    }
}

impl Model {
    /// The value head's scratch for one position (none without one).
    pub(super) fn value_scratch(&self) -> usize {
        self.value.as_ref().map_or(0, ValueHead::scratch)
    }

    /// [`Model::forward`] and the value: `mover_komi` holds, for each position, the komi
    /// its side to move receives (Black's area komi when White is to move, its negation when
    /// Black is), and `values` gets each position's probability that the side to move wins.
    ///
    /// # Panics
    /// As [`Model::forward`], and if the network has no value head
    /// ([`Model::has_value`]) or `mover_komi` or `values` is not one value a position.
    pub fn forward_value(
        &self,
        size: usize,
        inputs: &[&[u8]],
        mover_komi: &[f32],
        ws: &mut Workspace,
        logits: &mut [f32],
        values: &mut [f32],
    ) {
        let head = self
            .value
            .as_ref()
            .expect("forward_value needs a value head");
        assert_eq!(mover_komi.len(), inputs.len(), "one komi a position");
        assert_eq!(values.len(), inputs.len(), "one value a position");
        self.trunk_and_policy(size, inputs, ws, logits);
        self.grow_value_scratch(ws);
        let act_len = conv::grid_points(size) * self.stem.out_stride();
        let trunk = ws.current.chunks_exact(act_len);
        for ((act, &komi), value) in trunk.zip(mover_komi).zip(values.iter_mut()) {
            let grid = self.grid(size, act);
            *value = head.evaluate(&grid, komi, &mut ws.value, None).value;
        }
    }

    /// The value head on the trunk of the first position of the last [`Model::forward`] or
    /// [`Model::forward_value`] with `ws`, for the komi `mover_komi` (as there). The komi
    /// enters only the head's last layers, so that a search counting with two komis (dynamic
    /// komi's and the real one) pays one trunk for both. It gives the value,
    /// the score lead where the head has the output, and into `ownership` (`size²` values,
    /// in point order) each point's ownership, from −1 (the opponent's) to +1 (the mover's),
    /// where the head has the output (it does not depend on the komi: ask it once).
    ///
    /// # Panics
    /// If the network has no value head, `ws` has not run a forward pass on a board of
    /// `size`, or `ownership` is given with another length or to a head without the output.
    pub fn evaluate_value(
        &self,
        size: usize,
        ws: &mut Workspace,
        mover_komi: f32,
        ownership: Option<&mut [f32]>,
    ) -> ValueOutput {
        let head = self
            .value
            .as_ref()
            .expect("evaluate_value needs a value head");
        self.grow_value_scratch(ws);
        let act_len = conv::grid_points(size) * self.stem.out_stride();
        let grid = self.grid(size, &ws.current[..act_len]);
        head.evaluate(&grid, mover_komi, &mut ws.value, ownership)
    }

    /// Room in `ws` for the value head of this network, which a workspace made for another
    /// may lack.
    fn grow_value_scratch(&self, ws: &mut Workspace) {
        if ws.value.len() < self.value_scratch() {
            ws.value.resize(self.value_scratch(), 0.0);
        }
    }

    /// One position's last activations `act` on a board of `size`, as the trunk laid them.
    fn grid<'a>(&self, size: usize, act: &'a [f32]) -> Grid<'a> {
        Grid {
            size,
            stride: self.stem.out_stride(),
            channels: self.channels,
            act,
        }
    }
}

/// One position's last activations: a padded grid of `size`, `stride` floats a point, of
/// which the first `channels` are the trunk's.
struct Grid<'a> {
    size: usize,
    stride: usize,
    channels: usize,
    act: &'a [f32],
}

impl Grid<'_> {
    /// The trunk's channels at each point of the board, in point order.
    fn points(&self) -> impl Iterator<Item = &[f32]> + '_ {
        let width = self.size + 2;
        (0..self.size * self.size).map(move |point| {
            let at = ((point / self.size + 1) * width + point % self.size + 1) * self.stride;
            &self.act[at..at + self.channels]
        })
    }
}
