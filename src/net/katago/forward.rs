//! The forward pass of a KataGo [`Model`], as KataGo's CPU backend (`eigenbackend.cpp`)
//! computes it: the input planes through the trunk's blocks, then the policy and value
//! heads, for one position.
//!
//! Activations live on a padded grid as the Winograd kernel wants them
//! ([`crate::net::kernels::conv`]): `(size + 2)²` points, the channels of a point side by
//! side, rounded up to whole 8-float vectors, with a border of zeros. KataGo's networks norm
//! and activate *before* each convolution; every norm writes the board's points only, so the
//! border stays 0, which is what KataGo's mask does for points off a smaller board.

use super::model::{
    Activation, Block, Bottleneck, Conv, GlobalPooling, MatMul, Model, NormAct, PassHead, Residual,
    RmsNorm, Tip, ValueHead,
};
use super::transformer::{self, RopeTable};
#[cfg(target_arch = "x86_64")]
use crate::net::kernels::conv::Fused;
use crate::net::kernels::conv::{self, Apply, Conv3, MulAdd, Path, Plain, Scratch, LANES};
use crate::net::kernels::gemm::{self, Out, Packed, Rows};

/// Floats a point of a grid of `channels` channels takes: whole 8-float vectors.
fn stride(channels: usize) -> usize {
    channels.div_ceil(8) * 8
}

/// The board's points on the padded grid of `size`, row by row (KataGo's `y * size + x`).
pub(super) fn board_points(size: usize) -> impl Iterator<Item = usize> {
    (0..size * size).map(move |i| (i / size + 1) * (size + 2) + i % size + 1)
}

/// A layer of activations on the padded grid.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    pub data: Vec<f32>,
    pub stride: usize,
    /// The channels in use: the lanes beyond them, up to `stride`, stay 0.
    pub channels: usize,
}

impl Grid {
    /// Makes the grid hold `channels` channels on the board of `size`. A grid already of
    /// that shape keeps its values (each writer writes every point of the board it writes);
    /// another is made anew, all 0, so that its border and the lanes beyond its channels
    /// are 0 as the kernels need.
    fn reset(&mut self, size: usize, channels: usize) {
        let (stride, len) = (stride(channels), conv::grid_points(size) * stride(channels));
        if self.stride == stride && self.data.len() == len && self.channels == channels {
            return;
        }
        self.stride = stride;
        self.channels = channels;
        self.data.clear();
        self.data.resize(len, 0.0);
    }

    fn point(&self, at: usize) -> &[f32] {
        &self.data[at * self.stride..(at + 1) * self.stride]
    }

    fn point_mut(&mut self, at: usize) -> &mut [f32] {
        &mut self.data[at * self.stride..(at + 1) * self.stride]
    }
}

/// How a convolution is computed: the 3×3 ones by Winograd, the 1×1 ones (heads,
/// bottlenecks) by the product kernel, the others (the 5×5 first layer) directly.
#[derive(Clone, Debug)]
pub(crate) enum Kernel {
    Winograd(Conv3),
    /// A 1×1 convolution: a matrix product at each point.
    Pointwise(Packed),
    /// Weights `[y][x][in][out]`, the outputs rounded up to whole blocks of
    /// [`DIRECT_BLOCK`] with zeros.
    Direct(Vec<f32>),
}

impl Kernel {
    pub fn of(conv: &Conv) -> Kernel {
        if conv.ky == 3 && conv.kx == 3 {
            let bias = vec![0.0; conv.c_out];
            return Kernel::Winograd(Conv3::new(conv.c_out, conv.c_in, &conv.weights, &bias));
        }
        if conv.ky == 1 && conv.kx == 1 {
            // PyTorch's order, `[out][in]`.
            let c_in = conv.c_in;
            let weight = |i: usize, o: usize| conv.weights[o * c_in + i];
            return Kernel::Pointwise(Packed::new(c_in, conv.c_out, weight));
        }
        let (ky, kx, ci) = (conv.ky, conv.kx, conv.c_in);
        let width = direct_width(conv.c_out);
        let mut weights = vec![0.0; ky * kx * ci * width];
        for (i, &w) in conv.weights.iter().enumerate() {
            let (x, rest) = (i % kx, i / kx);
            let (y, rest) = (rest % ky, rest / ky);
            let (c, o) = (rest % ci, rest / ci);
            weights[((y * kx + x) * ci + c) * width + o] = w;
        }
        Kernel::Direct(weights)
    }
}

/// The grids a workspace keeps: the trunk's blocks use 0 to 3, a bottleneck's inside 7, the
/// policy head 8 to 11, the value head 12 to 14, so that each keeps its shape from one
/// evaluation to the next and is not cleared again.
const GRIDS: usize = 15;

/// One thread's buffers for the forward pass, kept between evaluations.
#[derive(Default)]
pub struct Workspace {
    trunk: Grid,
    /// Grids the blocks and heads use in turn.
    grids: Vec<Grid>,
    scratch: Scratch,
    /// The direct convolution's list of nonzero inputs.
    sparse: Sparse,
    transformer: transformer::Scratch,
    pooled: Vec<f32>,
    dense: Vec<f32>,
    dense2: Vec<f32>,
}

/// What the network says of a position, before post-processing, in the orientation it read
/// the position in: logits and raw values as KataGo's backend hands them to `nneval.cpp`.
#[derive(Clone, Debug, Default)]
pub struct RawOutput {
    /// `[point]`, the first policy channel, row by row.
    pub policy: Vec<f32>,
    /// The optimistic channel (v12+), where there is one.
    pub policy_optimistic: Option<Vec<f32>>,
    /// The pass logits, a channel each.
    pub pass: Vec<f32>,
    /// Win, loss and no-result logits, for the side to move.
    pub value: [f32; 3],
    /// The score outputs (4, or 6 from v9).
    pub scores: Vec<f32>,
    /// `[point]`, before the tanh.
    pub ownership: Vec<f32>,
}

/// The forward pass's context: the model, its prepared kernels and the kernel path.
pub(crate) struct Forward<'a> {
    pub model: &'a Model,
    pub kernels: &'a Kernels,
    pub path: Path,
}

/// Every convolution's prepared kernel, in the order [`Kernels::new`] visits them, and every
/// attention block's rotary tables, in the order the blocks run.
pub struct Kernels {
    kernels: Vec<Kernel>,
    ropes: Vec<Option<RopeTable>>,
    /// The matrix products of each transformer block, laid out for the product kernel:
    /// an attention block's q, k, v and out; a feed-forward block's up, gate and down.
    products: Vec<Vec<Packed>>,
}

impl Kernels {
    pub fn new(model: &Model) -> Kernels {
        let mut kernels = Vec::new();
        visit_convs(model, &mut |conv| kernels.push(Kernel::of(conv)));
        let (mut ropes, mut products) = (Vec::new(), Vec::new());
        let pack = |m: &MatMul| Packed::from_rows(m.c_in, m.c_out, &m.weights);
        visit_transformer(&model.trunk.blocks, &mut |block| match block {
            Block::Attention(b) => {
                ropes.push(RopeTable::new(b));
                products.push([&b.q, &b.k, &b.v, &b.out].map(pack).to_vec());
            }
            Block::FeedForward(b) => {
                let gate = b.gate.iter();
                products.push(
                    [&b.up]
                        .into_iter()
                        .chain(gate)
                        .chain([&b.down])
                        .map(pack)
                        .collect(),
                );
            }
            _ => {}
        });
        Kernels {
            kernels,
            ropes,
            products,
        }
    }
}

/// Calls `f` on every transformer block of `list` (attention and feed-forward), nested ones
/// too, in the order they run.
fn visit_transformer<'m>(list: &'m [Block], f: &mut impl FnMut(&'m Block)) {
    for block in list {
        match block {
            Block::Attention(_) | Block::FeedForward(_) => f(block),
            Block::Bottleneck(b) => visit_transformer(&b.blocks, f),
            _ => {}
        }
    }
}

/// Calls `f` on every convolution of `model`, in the order the forward pass runs them.
fn visit_convs<'m>(model: &'m Model, f: &mut impl FnMut(&'m Conv)) {
    fn blocks<'m>(list: &'m [Block], f: &mut impl FnMut(&'m Conv)) {
        for block in list {
            match block {
                Block::Residual(b) => [&b.first, &b.last].into_iter().for_each(&mut *f),
                Block::GlobalPooling(b) => [&b.regular, &b.pooled, &b.last]
                    .into_iter()
                    .for_each(&mut *f),
                Block::Bottleneck(b) => {
                    f(&b.inward);
                    blocks(&b.blocks, f);
                    f(&b.outward);
                }
                Block::Attention(_) | Block::FeedForward(_) => {}
            }
        }
    }
    f(&model.trunk.initial);
    blocks(&model.trunk.blocks, f);
    let (p, v) = (&model.policy, &model.value);
    [&p.p1, &p.g1, &p.p2, &v.v1, &v.ownership]
        .into_iter()
        .for_each(f);
}

/// A cursor over the prepared kernels and rotary tables, in the order they are used.
struct Next<'k> {
    kernels: std::slice::Iter<'k, Kernel>,
    ropes: std::slice::Iter<'k, Option<RopeTable>>,
    products: std::slice::Iter<'k, Vec<Packed>>,
}

impl Forward<'_> {
    /// Runs the network on one position of board `size`: `spatial` the input planes (plane
    /// after plane, each `size²` row by row), `global` the global inputs, `metadata` the
    /// metadata encoder's inputs where the network has one (it must then be given).
    pub fn run(
        &self,
        size: usize,
        spatial: &[f32],
        global: &[f32],
        metadata: Option<&[f32]>,
        ws: &mut Workspace,
    ) -> RawOutput {
        let mut next = Next {
            kernels: self.kernels.kernels.iter(),
            ropes: self.kernels.ropes.iter(),
            products: self.kernels.products.iter(),
        };
        let model = self.model;
        let trunk = &model.trunk;
        if ws.grids.len() < GRIDS {
            ws.grids.resize_with(GRIDS, Grid::default);
        }
        let mut input = std::mem::take(&mut ws.grids[0]);
        spread_planes(size, spatial, trunk.initial.c_in, &mut input);
        let mut stem = std::mem::take(&mut ws.trunk);
        self.conv(&trunk.initial, &mut next, size, &input, None, &mut stem, ws);
        ws.grids[0] = input;
        // The global inputs become a bias a channel over the whole board.
        ws.dense.resize(trunk.channels, 0.0);
        trunk.global.apply(global, &mut ws.dense);
        add_bias(size, &mut stem, &ws.dense);
        // So does the game's metadata, through its encoder (KataGo's human-imitating networks).
        if let Some(encoder) = &trunk.metadata {
            let metadata = metadata.expect("a network with a metadata encoder is given metadata");
            ws.dense.resize(encoder.first.mul.c_out, 0.0);
            encoder.first.apply(metadata, &mut ws.dense);
            ws.dense2.resize(encoder.second.mul.c_out, 0.0);
            encoder.second.apply(&ws.dense, &mut ws.dense2);
            ws.dense.resize(trunk.channels, 0.0);
            encoder.last.apply(&ws.dense2, &mut ws.dense);
            add_bias(size, &mut stem, &ws.dense);
        }
        ws.trunk = stem;
        self.blocks(&trunk.blocks, &mut next, size, ws);
        let mut tip = std::mem::take(&mut ws.grids[0]);
        match &trunk.tip {
            Tip::Batch(norm) => norm_act(norm, size, &ws.trunk, &mut tip),
            Tip::Rms(norm, activation) => rms_norm(norm, *activation, size, &ws.trunk, &mut tip),
        }
        let mut raw = RawOutput::default();
        self.policy_head(&mut next, size, &tip, ws, &mut raw);
        self.value_head(&mut next, size, &tip, ws, &mut raw);
        ws.grids[0] = tip;
        raw
    }

    /// Runs `list` on `ws.trunk` (a bottleneck's inside runs on its own trunk, swapped in).
    fn blocks(&self, list: &[Block], next: &mut Next<'_>, size: usize, ws: &mut Workspace) {
        for block in list {
            match block {
                Block::Residual(b) => self.residual(b, next, size, ws),
                Block::GlobalPooling(b) => self.global_pooling(b, next, size, ws),
                Block::Bottleneck(b) => self.bottleneck(b, next, size, ws),
                Block::Attention(b) => {
                    let rope = next.ropes.next().expect("a table an attention block");
                    let products = next.products.next().expect("products an attention block");
                    transformer::attention(
                        self.path,
                        b,
                        products,
                        rope.as_ref(),
                        size,
                        &mut ws.trunk,
                        &mut ws.transformer,
                    )
                }
                Block::FeedForward(b) => {
                    let products = next.products.next().expect("products a feed-forward block");
                    transformer::feed_forward(
                        self.path,
                        products,
                        size,
                        &mut ws.trunk,
                        &mut ws.transformer,
                        &b.norm,
                    )
                }
            }
        }
    }

    fn residual(&self, b: &Residual, next: &mut Next<'_>, size: usize, ws: &mut Workspace) {
        let (mut a, mut m) = (
            std::mem::take(&mut ws.grids[1]),
            std::mem::take(&mut ws.grids[2]),
        );
        norm_act(&b.pre, size, &ws.trunk, &mut a);
        self.conv(&b.first, next, size, &a, None, &mut m, ws);
        norm_act(&b.mid, size, &m, &mut a);
        self.add_conv(&b.last, next, size, &a, &mut m, ws);
        ws.grids[1] = a;
        ws.grids[2] = m;
    }

    fn global_pooling(
        &self,
        b: &GlobalPooling,
        next: &mut Next<'_>,
        size: usize,
        ws: &mut Workspace,
    ) {
        let mut a = std::mem::take(&mut ws.grids[1]);
        let mut regular = std::mem::take(&mut ws.grids[2]);
        let mut pooled = std::mem::take(&mut ws.grids[3]);
        norm_act(&b.pre, size, &ws.trunk, &mut a);
        self.conv(&b.regular, next, size, &a, None, &mut regular, ws);
        self.conv(&b.pooled, next, size, &a, None, &mut pooled, ws);
        let sums = (&mut ws.pooled, &mut ws.dense);
        add_pooled_bias(
            &b.pooled_norm,
            &b.to_bias,
            size,
            &pooled,
            &mut a,
            &mut regular,
            sums,
        );
        norm_act(&b.mid, size, &regular, &mut a);
        self.add_conv(&b.last, next, size, &a, &mut regular, ws);
        ws.grids[1] = a;
        ws.grids[2] = regular;
        ws.grids[3] = pooled;
    }

    fn bottleneck(&self, b: &Bottleneck, next: &mut Next<'_>, size: usize, ws: &mut Workspace) {
        let mut a = std::mem::take(&mut ws.grids[1]);
        let mut inner = std::mem::take(&mut ws.grids[7]);
        norm_act(&b.pre, size, &ws.trunk, &mut a);
        self.conv(&b.inward, next, size, &a, None, &mut inner, ws);
        ws.grids[1] = a;
        // The inside runs on its own trunk: swap it in, then back.
        std::mem::swap(&mut ws.trunk, &mut inner);
        self.blocks(&b.blocks, next, size, ws);
        std::mem::swap(&mut ws.trunk, &mut inner);
        let mut a = std::mem::take(&mut ws.grids[1]);
        norm_act(&b.post, size, &inner, &mut a);
        self.add_conv(&b.outward, next, size, &a, &mut inner, ws);
        ws.grids[1] = a;
        ws.grids[7] = inner;
    }

    /// `ws.trunk += conv(input)`, through `spare` (a grid of the trunk's shape to write into).
    fn add_conv(
        &self,
        conv: &Conv,
        next: &mut Next<'_>,
        size: usize,
        input: &Grid,
        spare: &mut Grid,
        ws: &mut Workspace,
    ) {
        let trunk = std::mem::take(&mut ws.trunk);
        self.conv(conv, next, size, input, Some(&trunk), spare, ws);
        ws.trunk = std::mem::replace(spare, trunk);
    }

    /// `out = conv(input) (+ skip)`, on the board's points; `out` is made the right shape.
    #[allow(clippy::too_many_arguments)]
    fn conv(
        &self,
        conv: &Conv,
        next: &mut Next<'_>,
        size: usize,
        input: &Grid,
        skip: Option<&Grid>,
        out: &mut Grid,
        ws: &mut Workspace,
    ) {
        let kernel = next.kernels.next().expect("a kernel a convolution");
        out.reset(size, conv.c_out);
        match kernel {
            Kernel::Winograd(conv3) => conv::apply(
                self.path,
                Apply {
                    conv: conv3,
                    size,
                    input: &input.data,
                    in_stride: input.stride,
                    skip: skip.map(|s| &s.data[..]),
                    out: &mut out.data,
                    relu: false,
                },
                &mut ws.scratch,
            ),
            Kernel::Pointwise(weights) => {
                pointwise(self.path, weights, size, input, out);
                add_skip(skip, out);
            }
            Kernel::Direct(weights) => {
                ws.sparse.of(size, input, conv.c_in);
                direct_conv(self.path, conv, weights, size, &ws.sparse, out);
                add_skip(skip, out);
            }
        }
    }

    fn policy_head(
        &self,
        next: &mut Next<'_>,
        size: usize,
        tip: &Grid,
        ws: &mut Workspace,
        raw: &mut RawOutput,
    ) {
        let head = &self.model.policy;
        let mut p1 = std::mem::take(&mut ws.grids[8]);
        let mut g1 = std::mem::take(&mut ws.grids[9]);
        let mut a = std::mem::take(&mut ws.grids[10]);
        let mut logits = std::mem::take(&mut ws.grids[11]);
        self.conv(&head.p1, next, size, tip, None, &mut p1, ws);
        self.conv(&head.g1, next, size, tip, None, &mut g1, ws);
        let sums = (&mut ws.pooled, &mut ws.dense);
        add_pooled_bias(
            &head.g1_norm,
            &head.to_bias,
            size,
            &g1,
            &mut a,
            &mut p1,
            sums,
        );
        norm_act(&head.p1_norm, size, &p1, &mut a);
        self.conv(&head.p2, next, size, &a, None, &mut logits, ws);
        raw.policy = channel(size, &logits, 0);
        raw.policy_optimistic = (head.channels > 1).then(|| channel(size, &logits, 1));
        raw.pass = vec![0.0; head.channels];
        match &head.pass {
            PassHead::Linear(mul) => mul.apply(&ws.pooled, &mut raw.pass),
            PassHead::Layered { hidden, out } => {
                ws.dense2.resize(hidden.mul.c_out, 0.0);
                hidden.apply(&ws.pooled, &mut ws.dense2);
                out.apply(&ws.dense2, &mut raw.pass);
            }
        }
        ws.grids[8] = p1;
        ws.grids[9] = g1;
        ws.grids[10] = a;
        ws.grids[11] = logits;
    }

    fn value_head(
        &self,
        next: &mut Next<'_>,
        size: usize,
        tip: &Grid,
        ws: &mut Workspace,
        raw: &mut RawOutput,
    ) {
        let head: &ValueHead = &self.model.value;
        let mut v1 = std::mem::take(&mut ws.grids[12]);
        let mut a = std::mem::take(&mut ws.grids[13]);
        let mut ownership = std::mem::take(&mut ws.grids[14]);
        self.conv(&head.v1, next, size, tip, None, &mut v1, ws);
        norm_act(&head.v1_norm, size, &v1, &mut a);
        pool(
            size,
            &a,
            head.v1_norm.scale.len(),
            Pooling::Value,
            &mut ws.pooled,
        );
        ws.dense.resize(head.v2.mul.c_out, 0.0);
        head.v2.apply(&ws.pooled, &mut ws.dense);
        head.v3.apply(&ws.dense, &mut raw.value);
        raw.scores = vec![0.0; head.scores.mul.c_out];
        head.scores.apply(&ws.dense, &mut raw.scores);
        self.conv(&head.ownership, next, size, &a, None, &mut ownership, ws);
        raw.ownership = channel(size, &ownership, 0);
        ws.grids[12] = v1;
        ws.grids[13] = a;
        ws.grids[14] = ownership;
    }
}

/// The input planes (plane after plane, `size²` each) onto a grid, a point's channels side
/// by side.
fn spread_planes(size: usize, planes: &[f32], channels: usize, grid: &mut Grid) {
    grid.reset(size, channels);
    let area = size * size;
    for (i, at) in board_points(size).enumerate() {
        let point = grid.point_mut(at);
        for (c, value) in point.iter_mut().enumerate().take(channels) {
            *value = planes[c * area + i];
        }
    }
}

/// Channel `c` of a grid, row by row.
fn channel(size: usize, grid: &Grid, c: usize) -> Vec<f32> {
    board_points(size)
        .map(|at| grid.data[at * grid.stride + c])
        .collect()
}

/// KataGo's global pooling into a bias: `pooled` normed and activated (into `scratch`),
/// pooled over the board (the values left in `sums.0`, which the policy's pass reads), turned
/// by `to_bias` into a value a channel (`sums.1`) added at every point of `target`.
fn add_pooled_bias(
    norm: &NormAct,
    to_bias: &MatMul,
    size: usize,
    pooled: &Grid,
    scratch: &mut Grid,
    target: &mut Grid,
    sums: (&mut Vec<f32>, &mut Vec<f32>),
) {
    let (values, bias) = sums;
    norm_act(norm, size, pooled, scratch);
    pool(size, scratch, norm.scale.len(), Pooling::Trunk, values);
    bias.resize(to_bias.c_out, 0.0);
    to_bias.apply(values, bias);
    add_bias(size, target, bias);
}

/// Adds `bias` (a value a channel) at every point of the board.
fn add_bias(size: usize, grid: &mut Grid, bias: &[f32]) {
    for at in board_points(size) {
        grid.point_mut(at)
            .iter_mut()
            .zip(bias)
            .for_each(|(x, b)| *x += b);
    }
}

/// `out = activation(scale · input + bias)` on the board's points, 0 off them.
fn norm_act(norm: &NormAct, size: usize, input: &Grid, out: &mut Grid) {
    // One loop a function, so that each is compiled (and vectorised) on its own.
    match norm.activation {
        Activation::Identity => norm_then(norm, size, input, out, |x| x),
        Activation::Relu => norm_then(norm, size, input, out, |x| x.max(0.0)),
        Activation::Mish => norm_then(norm, size, input, out, |x| Activation::Mish.apply(x)),
        Activation::Silu => norm_then(norm, size, input, out, |x| Activation::Silu.apply(x)),
    }
}

fn norm_then(norm: &NormAct, size: usize, input: &Grid, out: &mut Grid, f: impl Fn(f32) -> f32) {
    let channels = norm.scale.len();
    out.reset(size, channels);
    for at in board_points(size) {
        let x = &input.data[at * input.stride..][..channels];
        let y = &mut out.data[at * out.stride..][..channels];
        for (((y, x), s), b) in y.iter_mut().zip(x).zip(&norm.scale).zip(&norm.bias) {
            *y = f(x * s + b);
        }
    }
}

/// The trunk's RMS-normed tip: over the whole board (`spatial`) or a point at a time.
fn rms_norm(norm: &RmsNorm, activation: Activation, size: usize, input: &Grid, out: &mut Grid) {
    let channels = norm.gamma.len();
    out.reset(size, channels);
    let mean_square = |points: &mut dyn Iterator<Item = usize>| {
        let (mut sum, mut count) = (0.0f32, 0usize);
        for at in points {
            sum += input.point(at)[..channels]
                .iter()
                .map(|v| v * v)
                .sum::<f32>();
            count += channels;
        }
        sum / count as f32
    };
    let whole = norm
        .spatial
        .then(|| 1.0 / (mean_square(&mut board_points(size)) + norm.epsilon).sqrt());
    for at in board_points(size) {
        let scale = whole
            .unwrap_or_else(|| 1.0 / (mean_square(&mut std::iter::once(at)) + norm.epsilon).sqrt());
        let x = input.point(at);
        let y = &mut out.data[at * out.stride..at * out.stride + channels];
        for c in 0..channels {
            y[c] = activation.apply(x[c] * scale * norm.gamma[c] + norm.beta[c]);
        }
    }
}

/// `out += skip`, where there is a skip.
fn add_skip(skip: Option<&Grid>, out: &mut Grid) {
    if let Some(skip) = skip {
        out.data
            .iter_mut()
            .zip(&skip.data)
            .for_each(|(o, s)| *o += s);
    }
}

/// A 1×1 convolution: the product kernel on each row of the board (the border, which the
/// grid keeps at 0, left alone).
fn pointwise(path: Path, weights: &Packed, size: usize, input: &Grid, out: &mut Grid) {
    let width = size + 2;
    for y in 1..=size {
        let first = y * width + 1;
        let rows = Rows {
            data: &input.data[first * input.stride..],
            stride: input.stride,
            rows: size,
        };
        let target = Out {
            data: &mut out.data[first * out.stride..],
            stride: out.stride,
        };
        gemm::multiply(path, weights, rows, target);
    }
}

/// Output channels the direct convolution sums at a time: 4 vectors, kept in registers.
const DIRECT_BLOCK: usize = 32;

/// A direct convolution's weights per input channel and tap: its outputs rounded up to whole
/// blocks.
fn direct_width(c_out: usize) -> usize {
    c_out.div_ceil(DIRECT_BLOCK) * DIRECT_BLOCK
}

/// The nonzero inputs of every board point: `entries[starts[i]..starts[i + 1]]` are point
/// `i`'s (row by row) channels and values.
#[derive(Clone, Debug, Default)]
struct Sparse {
    entries: Vec<(usize, f32)>,
    starts: Vec<usize>,
}

impl Sparse {
    fn of(&mut self, size: usize, input: &Grid, channels: usize) {
        self.entries.clear();
        self.starts.clear();
        self.starts.push(0);
        for at in board_points(size) {
            let values = &input.point(at)[..channels];
            let nonzero = values.iter().enumerate().filter(|(_, v)| **v != 0.0);
            self.entries.extend(nonzero.map(|(c, v)| (c, *v)));
            self.starts.push(self.entries.len());
        }
    }

    fn at(&self, i: usize) -> &[(usize, f32)] {
        &self.entries[self.starts[i]..self.starts[i + 1]]
    }
}

/// A convolution computed point by point, the first layer (5×5), from the nonzero inputs
/// `sparse` lists, by the chosen copy.
fn direct_conv(
    path: Path,
    conv: &Conv,
    weights: &[f32],
    size: usize,
    sparse: &Sparse,
    out: &mut Grid,
) {
    match path {
        Path::Portable => direct::<Plain>(conv, weights, size, sparse, out),
        // SAFETY: a `Path` other than `Portable` is only made by `Path::available` after
        // `is_x86_feature_detected!` has confirmed AVX2 and FMA (AVX-512's copy besides), so
        // this processor runs the instructions `direct_avx2_fma` was compiled with.
        #[cfg(target_arch = "x86_64")]
        Path::Avx2Fma(_) | Path::Avx512(_) => unsafe {
            direct_avx2_fma(conv, weights, size, sparse, out)
        },
    }
}

/// The direct convolution compiled for AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn direct_avx2_fma(conv: &Conv, weights: &[f32], size: usize, sparse: &Sparse, out: &mut Grid) {
    direct::<Fused>(conv, weights, size, sparse, out);
}

/// The body of every copy. The inputs are mostly 0 (stones, liberties, ladders as 0 or 1),
/// so each point's nonzero channels are listed once and only they are multiplied; each
/// output point's sums, a block of channels at a time, stay in registers. (A branch on every
/// input at every tap took 6% of b6c96's time in a game's positions.)
#[inline(always)]
fn direct<M: MulAdd>(conv: &Conv, weights: &[f32], size: usize, sparse: &Sparse, out: &mut Grid) {
    let (ky, kx, ci, co) = (conv.ky, conv.kx, conv.c_in, conv.c_out);
    let width = direct_width(co);
    let grid_width = size + 2;
    for i in 0..size * size {
        let (y, x) = (i / size, i % size);
        let at = (y + 1) * grid_width + x + 1;
        // The taps that fall on the board: rows `y + dy - ky / 2` from 0 to size - 1.
        let rows = (ky / 2).saturating_sub(y)..ky.min(size + ky / 2 - y);
        let columns = (kx / 2).saturating_sub(x)..kx.min(size + kx / 2 - x);
        for first in (0..co).step_by(DIRECT_BLOCK) {
            let mut sums = [[0.0f32; LANES]; DIRECT_BLOCK / LANES];
            for dy in rows.clone() {
                for dx in columns.clone() {
                    let from = (y + dy - ky / 2) * size + x + dx - kx / 2;
                    let tap = &weights[(dy * kx + dx) * ci * width..][..ci * width];
                    for &(c, v) in sparse.at(from) {
                        let Some(w) = tap[c * width + first..].first_chunk::<DIRECT_BLOCK>() else {
                            continue;
                        };
                        for (sum, w) in sums.as_flattened_mut().iter_mut().zip(w) {
                            *sum = M::mul_add(v, *w, *sum);
                        }
                    }
                }
            }
            let n = DIRECT_BLOCK.min(co - first);
            out.data[at * out.stride + first..][..n].copy_from_slice(&sums.as_flattened()[..n]);
        }
    }
}

/// Which pooling: the trunk's and policy's [mean, scaled mean, max], or the value head's
/// [mean, scaled mean, mean scaled by the square].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pooling {
    Trunk,
    Value,
}

/// Pools the first `channels` channels of `grid` over the board into `out` (3 × channels),
/// as KataGo does, with `√points` for the board's size.
fn pool(size: usize, grid: &Grid, channels: usize, kind: Pooling, out: &mut Vec<f32>) {
    out.clear();
    out.resize(3 * channels, 0.0);
    // KataGo's maximum starts at -1 (below anything its activations give, and what its
    // padding reads as): a board whose values are all below it pools to -1.
    let mut max = vec![-1.0f32; channels];
    for at in board_points(size) {
        let x = grid.point(at);
        for c in 0..channels {
            out[c] += x[c];
            max[c] = max[c].max(x[c]);
        }
    }
    let points = (size * size) as f32;
    let side = points.sqrt();
    for c in 0..channels {
        let mean = out[c] / points;
        out[c] = mean;
        out[channels + c] = mean * (side - 14.0) * 0.1;
        out[2 * channels + c] = match kind {
            Pooling::Trunk => max[c],
            Pooling::Value => mean * ((side - 14.0) * (side - 14.0) * 0.01 - 0.1),
        };
    }
}
