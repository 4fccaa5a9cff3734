//! A KataGo model's layers as its file describes them (KataGo's `desc.cpp`): the trunk of
//! residual blocks (ordinary, global pooling, nested bottleneck, transformer attention and
//! feed-forward), the policy head with its pass output and the value head with its scores
//! and ownership, each checked for shapes that fit as the file is read. Batch norms are
//! merged into one scale and bias a channel as they are read; everything else is kept as
//! the file gives it, for [`super::forward`] to lay out for its kernels.

use super::file::{error, unpack, ModelError, Tokens};

/// The model versions read: 8 (the g170 networks of 2020) to 17 (transformer trunks).
pub const VERSIONS: std::ops::RangeInclusive<u32> = 8..=17;

/// Bounds on what a file may claim, far above any published network, so that a damaged
/// header is refused before it asks for memory.
const MAX_CHANNELS: usize = 8192;
const MAX_BLOCKS: usize = 1024;
const MAX_KERNEL: usize = 15;

/// An activation function, named in the file from version 11 (ReLU before).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    Identity,
    Relu,
    Mish,
    Silu,
}

impl Activation {
    /// The function at `x`, as KataGo's CPU backend computes it.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Identity => x,
            Activation::Relu => x.max(0.0),
            Activation::Mish => {
                let softplus = if x < 20.0 { x.exp().ln_1p() } else { x };
                x * softplus.tanh()
            }
            Activation::Silu => x / (1.0 + (-x).exp()),
        }
    }

    fn read(t: &mut Tokens<'_>, version: u32) -> Result<Activation, ModelError> {
        let name = t.word("activation")?;
        if version < 11 {
            return Ok(Activation::Relu);
        }
        match t.word(name)? {
            "ACTIVATION_IDENTITY" => Ok(Activation::Identity),
            "ACTIVATION_RELU" => Ok(Activation::Relu),
            "ACTIVATION_MISH" => Ok(Activation::Mish),
            "ACTIVATION_SILU" => Ok(Activation::Silu),
            other => Err(error(name, format!("unknown activation {other}"))),
        }
    }
}

/// A convolution without bias.
#[derive(Clone, Debug)]
pub struct Conv {
    pub name: String,
    pub ky: usize,
    pub kx: usize,
    pub c_in: usize,
    pub c_out: usize,
    /// `[out][in][y][x]`.
    pub weights: Vec<f32>,
}

impl Conv {
    fn read(t: &mut Tokens<'_>) -> Result<Conv, ModelError> {
        let name = t.word("convolution")?.to_string();
        let ky = t.count(&name, MAX_KERNEL)?;
        let kx = t.count(&name, MAX_KERNEL)?;
        let c_in = t.count(&name, MAX_CHANNELS)?;
        let c_out = t.count(&name, MAX_CHANNELS)?;
        let (dy, dx) = (t.count(&name, 8)?, t.count(&name, 8)?);
        if ky % 2 == 0 || kx % 2 == 0 {
            return Err(error(&name, format!("even kernel {ky}x{kx}")));
        }
        if (dy, dx) != (1, 1) {
            return Err(error(&name, format!("dilation {dy}x{dx}: only 1 is read")));
        }
        // The file's order is y, x, in, out.
        let file = t.floats(&name, ky * kx * c_in * c_out)?;
        let mut weights = vec![0.0; file.len()];
        for (i, w) in file.into_iter().enumerate() {
            let (o, rest) = (i % c_out, i / c_out);
            let (c, rest) = (rest % c_in, rest / c_in);
            let (x, y) = (rest % kx, rest / kx);
            weights[((o * c_in + c) * ky + y) * kx + x] = w;
        }
        Ok(Conv {
            name,
            ky,
            kx,
            c_in,
            c_out,
            weights,
        })
    }
}

/// A batch norm merged into a scale and a bias a channel, with the activation after it.
#[derive(Clone, Debug)]
pub struct NormAct {
    pub name: String,
    pub scale: Vec<f32>,
    pub bias: Vec<f32>,
    pub activation: Activation,
}

impl NormAct {
    fn channels(&self) -> usize {
        self.scale.len()
    }

    /// A batch norm and the activation layer that follows it in the file.
    fn read(t: &mut Tokens<'_>, version: u32) -> Result<NormAct, ModelError> {
        let name = t.word("batch norm")?.to_string();
        let channels = t.count(&name, MAX_CHANNELS)?;
        let epsilon: f32 = t.number(&name)?;
        if !(epsilon > 0.0 && epsilon.is_finite()) {
            return Err(error(&name, format!("epsilon {epsilon} is not positive")));
        }
        let (has_scale, has_bias) = (t.flag(&name)?, t.flag(&name)?);
        let mean = t.floats(&name, channels)?;
        let variance = t.floats(&name, channels)?;
        let gamma = match has_scale {
            true => t.floats(&name, channels)?,
            false => vec![1.0; channels],
        };
        let beta = match has_bias {
            true => t.floats(&name, channels)?,
            false => vec![0.0; channels],
        };
        let scale: Vec<f32> = (0..channels)
            .map(|c| gamma[c] / (variance[c] + epsilon).sqrt())
            .collect();
        let bias = (0..channels)
            .map(|c| beta[c] - scale[c] * mean[c])
            .collect();
        let activation = Activation::read(t, version)?;
        Ok(NormAct {
            name,
            scale,
            bias,
            activation,
        })
    }
}

/// A fully connected layer without bias.
#[derive(Clone, Debug)]
pub struct MatMul {
    pub name: String,
    pub c_in: usize,
    pub c_out: usize,
    /// `[in][out]`, as the file gives it.
    pub weights: Vec<f32>,
}

impl MatMul {
    fn read(t: &mut Tokens<'_>) -> Result<MatMul, ModelError> {
        let name = t.word("matrix product")?.to_string();
        let c_in = t.count(&name, MAX_CHANNELS * 3)?;
        let c_out = t.count(&name, MAX_CHANNELS * 3)?;
        let weights = t.floats(&name, c_in * c_out)?;
        Ok(MatMul {
            name,
            c_in,
            c_out,
            weights,
        })
    }

    /// `out = input · W`, `input` of `c_in` values, `out` of `c_out`.
    pub fn apply(&self, input: &[f32], out: &mut [f32]) {
        out[..self.c_out].fill(0.0);
        for (x, row) in input.iter().zip(self.weights.chunks_exact(self.c_out)) {
            for (o, w) in out.iter_mut().zip(row) {
                *o += x * w;
            }
        }
    }
}

/// A bias added to a fully connected layer's outputs.
fn read_bias(t: &mut Tokens<'_>) -> Result<(String, Vec<f32>), ModelError> {
    let name = t.word("bias")?.to_string();
    let channels = t.count(&name, MAX_CHANNELS * 3)?;
    let values = t.floats(&name, channels)?;
    Ok((name, values))
}

/// A fully connected layer with its bias and activation (the metadata encoder, the value
/// head, v15's pass output).
#[derive(Clone, Debug)]
pub struct Dense {
    pub mul: MatMul,
    pub bias: Vec<f32>,
    pub activation: Activation,
}

impl Dense {
    fn read(t: &mut Tokens<'_>, version: u32, activated: bool) -> Result<Dense, ModelError> {
        let mul = MatMul::read(t)?;
        let (name, bias) = read_bias(t)?;
        expect(
            &name,
            "channels",
            bias.len(),
            "the product's outputs",
            mul.c_out,
        )?;
        let activation = match activated {
            true => Activation::read(t, version)?,
            false => Activation::Identity,
        };
        Ok(Dense {
            mul,
            bias,
            activation,
        })
    }

    pub fn apply(&self, input: &[f32], out: &mut [f32]) {
        self.mul.apply(input, out);
        for (o, b) in out.iter_mut().zip(&self.bias) {
            *o = self.activation.apply(*o + b);
        }
    }
}

/// Refuses a file whose `a` (of `at`) is not `b`.
fn expect(at: &str, a: &str, av: usize, b: &str, bv: usize) -> Result<(), ModelError> {
    if av == bv {
        Ok(())
    } else {
        Err(error(at, format!("{a} ({av}) != {b} ({bv})")))
    }
}

/// An RMS norm with a bias, spatial (over the whole board) or a point at a time: the trunk's
/// tip in RMS-normed trunks.
#[derive(Clone, Debug)]
pub struct RmsNorm {
    pub name: String,
    pub epsilon: f32,
    pub spatial: bool,
    pub gamma: Vec<f32>,
    pub beta: Vec<f32>,
}

impl RmsNorm {
    fn read(t: &mut Tokens<'_>) -> Result<RmsNorm, ModelError> {
        let name = t.word("RMS norm")?.to_string();
        let channels = t.count(&name, MAX_CHANNELS)?;
        let epsilon = read_epsilon(t, &name)?;
        let spatial = t.flag(&name)?;
        if t.number::<i64>(&name)? != 0 {
            return Err(error(&name, "grouped RMS norms are not read"));
        }
        let gamma = t.floats(&name, channels)?;
        let beta = t.floats(&name, channels)?;
        Ok(RmsNorm {
            name,
            epsilon,
            spatial,
            gamma,
            beta,
        })
    }
}

fn read_epsilon(t: &mut Tokens<'_>, name: &str) -> Result<f32, ModelError> {
    let epsilon: f32 = t.number(name)?;
    if !(epsilon > 0.0 && epsilon <= 1.0) {
        return Err(error(name, format!("epsilon {epsilon} not in (0, 1]")));
    }
    Ok(epsilon)
}

/// The RMS norm of a transformer block: a weight a channel, no bias, a point at a time.
#[derive(Clone, Debug)]
pub struct TransformerNorm {
    pub name: String,
    pub epsilon: f32,
    pub weight: Vec<f32>,
}

impl TransformerNorm {
    fn read(t: &mut Tokens<'_>) -> Result<TransformerNorm, ModelError> {
        let name = t.word("transformer norm")?.to_string();
        let channels = t.count(&name, MAX_CHANNELS)?;
        let epsilon = read_epsilon(t, &name)?;
        let weight = t.floats(&name, channels)?;
        Ok(TransformerNorm {
            name,
            epsilon,
            weight,
        })
    }
}

/// How an attention block places its points: rotary embeddings (RoPE) by a fixed theta or
/// by learnt frequencies, or not at all.
#[derive(Clone, Debug)]
pub enum Rope {
    None,
    /// Fixed frequencies from `theta`: the first half of the pairs by row, the rest by column.
    Theta(f32),
    /// Learnt frequencies `[kv head][pair][x, y]`.
    Learnt(Vec<f32>),
}

/// Multi-head self-attention over the board's points, with grouped keys and values.
#[derive(Clone, Debug)]
pub struct Attention {
    pub name: String,
    pub heads: usize,
    pub kv_heads: usize,
    pub q_dim: usize,
    pub v_dim: usize,
    pub norm: TransformerNorm,
    pub q: MatMul,
    pub k: MatMul,
    pub v: MatMul,
    pub out: MatMul,
    pub rope: Rope,
}

impl Attention {
    fn read(t: &mut Tokens<'_>) -> Result<Attention, ModelError> {
        let name = t.word("attention block")?.to_string();
        let heads = t.count(&name, 1024)?;
        let kv_heads = t.count(&name, 1024)?;
        let q_dim = t.count(&name, MAX_CHANNELS)?;
        let v_dim = t.count(&name, MAX_CHANNELS)?;
        let (use_rope, learnt) = (t.flag(&name)?, t.flag(&name)?);
        if heads % kv_heads != 0 {
            return Err(error(&name, "heads not a multiple of key-value heads"));
        }
        if use_rope && q_dim % 2 != 0 {
            return Err(error(&name, format!("odd head size {q_dim} with RoPE")));
        }
        let norm = TransformerNorm::read(t)?;
        let q = MatMul::read(t)?;
        let k = MatMul::read(t)?;
        let v = MatMul::read(t)?;
        let out = MatMul::read(t)?;
        expect(
            &name,
            "q outputs",
            q.c_out,
            "heads × head size",
            heads * q_dim,
        )?;
        expect(
            &name,
            "k outputs",
            k.c_out,
            "kv heads × head size",
            kv_heads * q_dim,
        )?;
        expect(
            &name,
            "v outputs",
            v.c_out,
            "kv heads × value size",
            kv_heads * v_dim,
        )?;
        expect(
            &name,
            "out inputs",
            out.c_in,
            "heads × value size",
            heads * v_dim,
        )?;
        expect(&name, "k inputs", k.c_in, "q inputs", q.c_in)?;
        expect(&name, "v inputs", v.c_in, "q inputs", q.c_in)?;
        expect(
            &name,
            "norm channels",
            norm.weight.len(),
            "q inputs",
            q.c_in,
        )?;
        let rope = match (use_rope, learnt) {
            (false, _) => Rope::None,
            (true, false) => {
                t.word(&name)?;
                let theta: f32 = t.number(&name)?;
                if !(theta > 0.0 && theta.is_finite()) {
                    return Err(error(&name, "RoPE theta not positive"));
                }
                Rope::Theta(theta)
            }
            (true, true) => {
                let at = t.word(&name)?.to_string();
                expect(
                    &at,
                    "kv heads",
                    t.count(&at, 1024)?,
                    "the block's",
                    kv_heads,
                )?;
                expect(
                    &at,
                    "pairs",
                    t.count(&at, MAX_CHANNELS)?,
                    "head size / 2",
                    q_dim / 2,
                )?;
                expect(&at, "last dimension", t.count(&at, 2)?, "2", 2)?;
                Rope::Learnt(t.floats(&at, kv_heads * q_dim)?)
            }
        };
        Ok(Attention {
            name,
            heads,
            kv_heads,
            q_dim,
            v_dim,
            norm,
            q,
            k,
            v,
            out,
            rope,
        })
    }
}

/// A transformer's feed-forward block, plain or gated (SwiGLU).
#[derive(Clone, Debug)]
pub struct FeedForward {
    pub name: String,
    pub norm: TransformerNorm,
    pub up: MatMul,
    /// The gate of SwiGLU, where the block has one.
    pub gate: Option<MatMul>,
    pub down: MatMul,
}

impl FeedForward {
    fn read(t: &mut Tokens<'_>) -> Result<FeedForward, ModelError> {
        let name = t.word("feed-forward block")?.to_string();
        let channels = t.count(&name, MAX_CHANNELS)?;
        let hidden = t.count(&name, MAX_CHANNELS * 8)?;
        let gated = t.flag(&name)?;
        let norm = TransformerNorm::read(t)?;
        let up = MatMul::read(t)?;
        let gate = gated.then(|| MatMul::read(t)).transpose()?;
        let down = MatMul::read(t)?;
        expect(
            &name,
            "norm channels",
            norm.weight.len(),
            "channels",
            channels,
        )?;
        expect(&name, "up inputs", up.c_in, "channels", channels)?;
        expect(&name, "up outputs", up.c_out, "hidden channels", hidden)?;
        if let Some(gate) = &gate {
            expect(&name, "gate inputs", gate.c_in, "channels", channels)?;
            expect(&name, "gate outputs", gate.c_out, "hidden channels", hidden)?;
        }
        expect(&name, "down inputs", down.c_in, "hidden channels", hidden)?;
        expect(&name, "down outputs", down.c_out, "channels", channels)?;
        Ok(FeedForward {
            name,
            norm,
            up,
            gate,
            down,
        })
    }
}

/// An ordinary residual block: norm, activation, convolution, twice.
#[derive(Clone, Debug)]
pub struct Residual {
    pub name: String,
    pub pre: NormAct,
    pub first: Conv,
    pub mid: NormAct,
    pub last: Conv,
}

/// A residual block whose middle takes a bias from the board's pooled values.
#[derive(Clone, Debug)]
pub struct GlobalPooling {
    pub name: String,
    pub pre: NormAct,
    pub regular: Conv,
    pub pooled: Conv,
    pub pooled_norm: NormAct,
    pub to_bias: MatMul,
    pub mid: NormAct,
    pub last: Conv,
}

/// A bottleneck: a 1×1 convolution into fewer channels, blocks of its own there, a 1×1 out.
#[derive(Clone, Debug)]
pub struct Bottleneck {
    pub name: String,
    pub pre: NormAct,
    pub inward: Conv,
    pub blocks: Vec<Block>,
    pub post: NormAct,
    pub outward: Conv,
}

/// One block of a trunk (or of a bottleneck's inside).
#[derive(Clone, Debug)]
pub enum Block {
    Residual(Residual),
    GlobalPooling(GlobalPooling),
    Bottleneck(Bottleneck),
    Attention(Attention),
    FeedForward(FeedForward),
}

impl Block {
    /// `count` blocks on `channels` channels.
    fn read_stack(
        t: &mut Tokens<'_>,
        version: u32,
        count: usize,
        channels: usize,
    ) -> Result<Vec<Block>, ModelError> {
        (0..count)
            .map(|_| Block::read(t, version, channels))
            .collect()
    }

    fn read(t: &mut Tokens<'_>, version: u32, channels: usize) -> Result<Block, ModelError> {
        let kind = t.word("block kind")?;
        let block = match kind {
            "ordinary_block" => Block::Residual(read_residual(t, version)?),
            "gpool_block" => Block::GlobalPooling(read_global_pooling(t, version)?),
            "nested_bottleneck_block" => Block::Bottleneck(read_bottleneck(t, version)?),
            "transformer_attention_block" => Block::Attention(Attention::read(t)?),
            "transformer_ffn_block" => Block::FeedForward(FeedForward::read(t)?),
            other => return Err(error("trunk", format!("unknown block kind {other}"))),
        };
        let (c_in, c_out) = block.channels();
        expect(
            block.name(),
            "input channels",
            c_in,
            "the trunk's",
            channels,
        )?;
        expect(
            block.name(),
            "output channels",
            c_out,
            "the trunk's",
            channels,
        )?;
        Ok(block)
    }

    pub fn name(&self) -> &str {
        match self {
            Block::Residual(b) => &b.name,
            Block::GlobalPooling(b) => &b.name,
            Block::Bottleneck(b) => &b.name,
            Block::Attention(b) => &b.name,
            Block::FeedForward(b) => &b.name,
        }
    }

    /// The channels the block takes and gives.
    fn channels(&self) -> (usize, usize) {
        match self {
            Block::Residual(b) => (b.pre.channels(), b.last.c_out),
            Block::GlobalPooling(b) => (b.pre.channels(), b.last.c_out),
            Block::Bottleneck(b) => (b.pre.channels(), b.outward.c_out),
            Block::Attention(b) => (b.q.c_in, b.out.c_out),
            Block::FeedForward(b) => (b.up.c_in, b.down.c_out),
        }
    }

    /// Whether any block, nested ones too, is a transformer's.
    pub fn is_transformer(&self) -> bool {
        match self {
            Block::Attention(_) | Block::FeedForward(_) => true,
            Block::Bottleneck(b) => b.blocks.iter().any(Block::is_transformer),
            _ => false,
        }
    }
}

fn read_residual(t: &mut Tokens<'_>, version: u32) -> Result<Residual, ModelError> {
    let name = t.word("residual block")?.to_string();
    let pre = NormAct::read(t, version)?;
    let first = Conv::read(t)?;
    let mid = NormAct::read(t, version)?;
    let last = Conv::read(t)?;
    expect(
        &name,
        "pre norm channels",
        pre.channels(),
        "first conv's inputs",
        first.c_in,
    )?;
    expect(
        &name,
        "mid norm channels",
        mid.channels(),
        "first conv's outputs",
        first.c_out,
    )?;
    expect(
        &name,
        "mid norm channels",
        mid.channels(),
        "last conv's inputs",
        last.c_in,
    )?;
    Ok(Residual {
        name,
        pre,
        first,
        mid,
        last,
    })
}

fn read_global_pooling(t: &mut Tokens<'_>, version: u32) -> Result<GlobalPooling, ModelError> {
    let name = t.word("global pooling block")?.to_string();
    let pre = NormAct::read(t, version)?;
    let regular = Conv::read(t)?;
    let pooled = Conv::read(t)?;
    let pooled_norm = NormAct::read(t, version)?;
    let to_bias = MatMul::read(t)?;
    let mid = NormAct::read(t, version)?;
    let last = Conv::read(t)?;
    let n = &name;
    expect(
        n,
        "pre norm channels",
        pre.channels(),
        "regular conv's inputs",
        regular.c_in,
    )?;
    expect(
        n,
        "pre norm channels",
        pre.channels(),
        "pooled conv's inputs",
        pooled.c_in,
    )?;
    let pooled_channels = pooled_norm.channels();
    expect(
        n,
        "pooled norm channels",
        pooled_channels,
        "pooled conv's",
        pooled.c_out,
    )?;
    expect(
        n,
        "bias inputs",
        to_bias.c_in,
        "3 × pooled",
        3 * pooled_channels,
    )?;
    expect(
        n,
        "mid norm channels",
        mid.channels(),
        "regular conv's",
        regular.c_out,
    )?;
    expect(
        n,
        "mid norm channels",
        mid.channels(),
        "bias outputs",
        to_bias.c_out,
    )?;
    expect(
        n,
        "mid norm channels",
        mid.channels(),
        "last conv's inputs",
        last.c_in,
    )?;
    Ok(GlobalPooling {
        name,
        pre,
        regular,
        pooled,
        pooled_norm,
        to_bias,
        mid,
        last,
    })
}

fn read_bottleneck(t: &mut Tokens<'_>, version: u32) -> Result<Bottleneck, ModelError> {
    let name = t.word("bottleneck block")?.to_string();
    let count = t.count(&name, MAX_BLOCKS)?;
    let pre = NormAct::read(t, version)?;
    let inward = Conv::read(t)?;
    let blocks = Block::read_stack(t, version, count, inward.c_out)?;
    let post = NormAct::read(t, version)?;
    let outward = Conv::read(t)?;
    expect(
        &name,
        "pre norm channels",
        pre.channels(),
        "inward conv's",
        inward.c_in,
    )?;
    expect(
        &name,
        "post norm channels",
        post.channels(),
        "inward conv's",
        inward.c_out,
    )?;
    expect(
        &name,
        "post norm channels",
        post.channels(),
        "outward conv's",
        outward.c_in,
    )?;
    Ok(Bottleneck {
        name,
        pre,
        inward,
        blocks,
        post,
        outward,
    })
}

/// The network's last norm before the heads.
#[derive(Clone, Debug)]
pub enum Tip {
    Batch(NormAct),
    Rms(RmsNorm, Activation),
}

/// The metadata encoder of the human-imitating networks (v15): the game's metadata (ranks,
/// date, time controls, ...) into a bias for the trunk.
#[derive(Clone, Debug)]
pub struct MetadataEncoder {
    pub first: Dense,
    pub second: Dense,
    pub last: MatMul,
}

/// The inputs the metadata encoder takes (KataGo's `SGFMetadata::METADATA_INPUT_NUM_CHANNELS`).
pub const METADATA_INPUTS: usize = 192;

#[derive(Clone, Debug)]
pub struct Trunk {
    pub channels: usize,
    pub initial: Conv,
    pub global: MatMul,
    pub metadata: Option<MetadataEncoder>,
    pub blocks: Vec<Block>,
    pub tip: Tip,
}

impl Trunk {
    fn read(t: &mut Tokens<'_>, version: u32, metadata: bool) -> Result<Trunk, ModelError> {
        let name = t.word("trunk")?.to_string();
        let count = t.count(&name, MAX_BLOCKS)?;
        let channels = t.count(&name, MAX_CHANNELS)?;
        // The mid, regular, dilated (0 where none) and pooled channel counts: each block
        // has its own.
        for _ in 0..4 {
            t.number::<u32>(&name)?;
        }
        let rms = version >= 15 && {
            let kind: i64 = t.number(&name)?;
            for _ in 0..5 {
                t.reserved(&name)?;
            }
            match kind {
                0 => false,
                1 => true,
                _ => return Err(error(&name, format!("unknown trunk norm kind {kind}"))),
            }
        };
        let initial = Conv::read(t)?;
        expect(
            &name,
            "initial conv outputs",
            initial.c_out,
            "channels",
            channels,
        )?;
        let global = MatMul::read(t)?;
        expect(
            &name,
            "global inputs' outputs",
            global.c_out,
            "channels",
            channels,
        )?;
        let metadata = match metadata {
            true => Some(read_metadata(t, version, channels)?),
            false => None,
        };
        let blocks = Block::read_stack(t, version, count, channels)?;
        let tip = match rms {
            false => Tip::Batch(NormAct::read(t, version)?),
            true => {
                let norm = RmsNorm::read(t)?;
                Tip::Rms(norm, Activation::read(t, version)?)
            }
        };
        let tip_channels = match &tip {
            Tip::Batch(n) => n.channels(),
            Tip::Rms(n, _) => n.gamma.len(),
        };
        expect(&name, "tip channels", tip_channels, "channels", channels)?;
        Ok(Trunk {
            channels,
            initial,
            global,
            metadata,
            blocks,
            tip,
        })
    }
}

fn read_metadata(
    t: &mut Tokens<'_>,
    version: u32,
    channels: usize,
) -> Result<MetadataEncoder, ModelError> {
    let name = t.word("metadata encoder")?.to_string();
    let inputs = t.count(&name, MAX_CHANNELS)?;
    expect(&name, "inputs", inputs, "KataGo's", METADATA_INPUTS)?;
    let first = Dense::read(t, version, true)?;
    let second = Dense::read(t, version, true)?;
    let last = MatMul::read(t)?;
    expect(&name, "first inputs", first.mul.c_in, "inputs", inputs)?;
    expect(
        &name,
        "second inputs",
        second.mul.c_in,
        "first outputs",
        first.mul.c_out,
    )?;
    expect(
        &name,
        "last inputs",
        last.c_in,
        "second outputs",
        second.mul.c_out,
    )?;
    expect(
        &name,
        "last outputs",
        last.c_out,
        "trunk channels",
        channels,
    )?;
    Ok(MetadataEncoder {
        first,
        second,
        last,
    })
}

/// How the policy head rates the pass: straight from the pooled values, or (v15) through a
/// layer of its own.
#[derive(Clone, Debug)]
pub enum PassHead {
    Linear(MatMul),
    Layered { hidden: Dense, out: MatMul },
}

#[derive(Clone, Debug)]
pub struct PolicyHead {
    /// Policy channels: 1; 2 from v12 (the second optimistic); 4 in v16 (and some v17).
    pub channels: usize,
    pub p1: Conv,
    pub g1: Conv,
    pub g1_norm: NormAct,
    pub to_bias: MatMul,
    pub p1_norm: NormAct,
    pub p2: Conv,
    pub pass: PassHead,
}

impl PolicyHead {
    fn read(t: &mut Tokens<'_>, version: u32) -> Result<PolicyHead, ModelError> {
        let name = t.word("policy head")?.to_string();
        let channels = match version {
            17.. => match t.number::<i64>(&name)? {
                c @ (2 | 4) => c as usize,
                c => return Err(error(&name, format!("{c} policy channels, not 2 or 4"))),
            },
            16 => 4,
            12..=15 => 2,
            _ => 1,
        };
        if version >= 17 {
            for _ in 0..3 {
                t.reserved(&name)?;
            }
        }
        let p1 = Conv::read(t)?;
        let g1 = Conv::read(t)?;
        let g1_norm = NormAct::read(t, version)?;
        let to_bias = MatMul::read(t)?;
        let p1_norm = NormAct::read(t, version)?;
        let p2 = Conv::read(t)?;
        let pass = match version {
            15.. => PassHead::Layered {
                hidden: Dense::read(t, version, true)?,
                out: MatMul::read(t)?,
            },
            _ => PassHead::Linear(MatMul::read(t)?),
        };
        let n = &name;
        let pooled = g1_norm.channels();
        expect(
            n,
            "p1 norm channels",
            p1_norm.channels(),
            "p1 outputs",
            p1.c_out,
        )?;
        expect(n, "g1 norm channels", pooled, "g1 outputs", g1.c_out)?;
        expect(
            n,
            "bias inputs",
            to_bias.c_in,
            "3 × g1 channels",
            3 * pooled,
        )?;
        expect(n, "bias outputs", to_bias.c_out, "p1 channels", p1.c_out)?;
        expect(n, "p2 inputs", p2.c_in, "p1 channels", p1.c_out)?;
        expect(n, "p2 outputs", p2.c_out, "policy channels", channels)?;
        match &pass {
            PassHead::Linear(m) => {
                expect(n, "pass inputs", m.c_in, "3 × g1 channels", 3 * pooled)?;
                expect(n, "pass outputs", m.c_out, "policy channels", channels)?;
            }
            PassHead::Layered { hidden, out } => {
                expect(
                    n,
                    "pass inputs",
                    hidden.mul.c_in,
                    "3 × g1 channels",
                    3 * pooled,
                )?;
                expect(n, "pass hidden", hidden.mul.c_out, "p1 channels", p1.c_out)?;
                expect(
                    n,
                    "pass out inputs",
                    out.c_in,
                    "pass hidden",
                    hidden.mul.c_out,
                )?;
                expect(n, "pass outputs", out.c_out, "policy channels", channels)?;
            }
        }
        Ok(PolicyHead {
            channels,
            p1,
            g1,
            g1_norm,
            to_bias,
            p1_norm,
            p2,
            pass,
        })
    }
}

#[derive(Clone, Debug)]
pub struct ValueHead {
    pub v1: Conv,
    pub v1_norm: NormAct,
    pub v2: Dense,
    /// Win, loss and no-result logits.
    pub v3: Dense,
    /// Score mean, its spread, lead, variance of the time left and (v9+) the short-term
    /// errors, before post-processing.
    pub scores: Dense,
    pub ownership: Conv,
}

impl ValueHead {
    fn read(t: &mut Tokens<'_>, version: u32) -> Result<ValueHead, ModelError> {
        let name = t.word("value head")?.to_string();
        if version >= 17 {
            for _ in 0..3 {
                t.reserved(&name)?;
            }
        }
        let v1 = Conv::read(t)?;
        let v1_norm = NormAct::read(t, version)?;
        let v2 = Dense::read(t, version, true)?;
        let v3 = Dense::read(t, version, false)?;
        let scores = Dense::read(t, version, false)?;
        let ownership = Conv::read(t)?;
        let n = &name;
        let pooled = v1_norm.channels();
        expect(n, "v1 norm channels", pooled, "v1 outputs", v1.c_out)?;
        expect(n, "v2 inputs", v2.mul.c_in, "3 × v1 channels", 3 * pooled)?;
        expect(n, "v3 inputs", v3.mul.c_in, "v2 outputs", v2.mul.c_out)?;
        expect(n, "v3 outputs", v3.mul.c_out, "win, loss, no result", 3)?;
        expect(
            n,
            "score inputs",
            scores.mul.c_in,
            "v2 outputs",
            v2.mul.c_out,
        )?;
        let score_outputs = if version >= 9 { 6 } else { 4 };
        expect(
            n,
            "score outputs",
            scores.mul.c_out,
            "the version's",
            score_outputs,
        )?;
        expect(
            n,
            "ownership inputs",
            ownership.c_in,
            "v1 outputs",
            v1.c_out,
        )?;
        expect(n, "ownership outputs", ownership.c_out, "one", 1)?;
        Ok(ValueHead {
            v1,
            v1_norm,
            v2,
            v3,
            scores,
            ownership,
        })
    }
}

/// How the value head's raw outputs become scores (KataGo's `ModelPostProcessParams`): in
/// the header from v13, fixed before.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PostProcess {
    pub score_mean: f32,
    pub score_stdev: f32,
    pub lead: f32,
    pub variance_time: f32,
    pub shortterm_value_error: f32,
    pub shortterm_score_error: f32,
}

impl Default for PostProcess {
    fn default() -> Self {
        PostProcess {
            score_mean: 20.0,
            score_stdev: 20.0,
            lead: 20.0,
            variance_time: 40.0,
            shortterm_value_error: 0.25,
            shortterm_score_error: 30.0,
        }
    }
}

impl PostProcess {
    fn read(t: &mut Tokens<'_>) -> Result<PostProcess, ModelError> {
        let mut next = |what: &str| -> Result<f32, ModelError> {
            let v: f32 = t.number(what)?;
            match v > 0.0 && v.is_finite() {
                true => Ok(v),
                false => Err(error(what, format!("{v} is not positive"))),
            }
        };
        next("td score multiplier")?;
        Ok(PostProcess {
            score_mean: next("score mean multiplier")?,
            score_stdev: next("score stdev multiplier")?,
            lead: next("lead multiplier")?,
            variance_time: next("variance time multiplier")?,
            shortterm_value_error: next("short-term value error multiplier")?,
            shortterm_score_error: next("short-term score error multiplier")?,
        })
    }
}

/// A KataGo network as its file describes it.
#[derive(Clone, Debug)]
pub struct Model {
    pub name: String,
    pub version: u32,
    pub post: PostProcess,
    /// Whether the network was trained with pass-alive areas computed as if suicide were
    /// legal (v15+ header).
    pub pass_alive_under_suicide_rules: bool,
    pub trunk: Trunk,
    pub policy: PolicyHead,
    pub value: ValueHead,
}

impl Model {
    /// Reads a model file's bytes, gzipped or not, binary or text.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let unpacked = unpack(bytes)?;
        let mut t = Tokens::new(&unpacked);
        let model = Model::read(&mut t)?;
        if !t.at_end() {
            return Err(error(&model.name, "the file goes on after the value head"));
        }
        Ok(model)
    }

    fn read(t: &mut Tokens<'_>) -> Result<Model, ModelError> {
        let name = t.word("model name")?.to_string();
        let version: u32 = t.number("model version")?;
        if !VERSIONS.contains(&version) {
            return Err(error(
                &name,
                format!(
                    "model version {version}; this reader reads {} to {}",
                    VERSIONS.start(),
                    VERSIONS.end()
                ),
            ));
        }
        let spatial = t.count("input channels", MAX_CHANNELS)?;
        let global = t.count("global input channels", MAX_CHANNELS)?;
        expect(&name, "input channels", spatial, "input version 7's", 22)?;
        expect(&name, "global inputs", global, "input version 7's", 19)?;
        let post = match version {
            13.. => PostProcess::read(t)?,
            _ => PostProcess::default(),
        };
        let (metadata, suicide) = match version {
            15.. => read_options(t, &name)?,
            _ => (false, false),
        };
        let trunk = Trunk::read(t, version, metadata)?;
        expect(
            &name,
            "initial conv inputs",
            trunk.initial.c_in,
            "inputs",
            spatial,
        )?;
        expect(
            &name,
            "global product inputs",
            trunk.global.c_in,
            "global inputs",
            global,
        )?;
        let policy = PolicyHead::read(t, version)?;
        let value = ValueHead::read(t, version)?;
        let c = trunk.channels;
        expect(
            &name,
            "policy p1 inputs",
            policy.p1.c_in,
            "trunk channels",
            c,
        )?;
        expect(
            &name,
            "policy g1 inputs",
            policy.g1.c_in,
            "trunk channels",
            c,
        )?;
        expect(&name, "value v1 inputs", value.v1.c_in, "trunk channels", c)?;
        Ok(Model {
            name,
            version,
            post,
            pass_alive_under_suicide_rules: suicide,
            trunk,
            policy,
            value,
        })
    }

    /// Whether any block is a transformer's.
    pub fn has_transformer(&self) -> bool {
        self.trunk.blocks.iter().any(Block::is_transformer)
    }

    /// Multiply-adds of one evaluation on a board of `points` points, roughly (the
    /// convolutions and products), for the log.
    pub fn weights(&self) -> usize {
        fn block(b: &Block) -> usize {
            match b {
                Block::Residual(r) => r.first.weights.len() + r.last.weights.len(),
                Block::GlobalPooling(g) => {
                    g.regular.weights.len() + g.pooled.weights.len() + g.last.weights.len()
                }
                Block::Bottleneck(b) => {
                    b.inward.weights.len()
                        + b.outward.weights.len()
                        + b.blocks.iter().map(block).sum::<usize>()
                }
                Block::Attention(a) => {
                    a.q.weights.len() + a.k.weights.len() + a.v.weights.len() + a.out.weights.len()
                }
                Block::FeedForward(f) => {
                    f.up.weights.len()
                        + f.gate.as_ref().map_or(0, |g| g.weights.len())
                        + f.down.weights.len()
                }
            }
        }
        self.trunk.blocks.iter().map(block).sum()
    }
}

/// The v15+ header's options: whether a metadata encoder follows, the pass-alive preference
/// and six reserved integers.
fn read_options(t: &mut Tokens<'_>, name: &str) -> Result<(bool, bool), ModelError> {
    let metadata = match t.number::<i64>(name)? {
        0 => false,
        1 => true,
        v => {
            return Err(error(
                name,
                format!("metadata encoder version {v}, not 0 or 1"),
            ))
        }
    };
    let suicide = t.flag(name)?;
    for _ in 0..6 {
        t.reserved(name)?;
    }
    Ok((metadata, suicide))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    /// The g170 b6c96 network (model version 8), unpacked once.
    fn b6c96() -> &'static [u8] {
        static UNPACKED: OnceLock<Vec<u8>> = OnceLock::new();
        UNPACKED.get_or_init(|| {
            let packed = crate::net::katago::EMBEDDED;
            unpack(packed).expect("the b6c96 model unpacks")
        })
    }

    /// `b6c96` with the first `from` replaced by `to` (in the text before the first float
    /// block that holds it).
    fn altered(from: &[u8], to: &[u8]) -> Vec<u8> {
        let bytes = b6c96();
        let at = bytes
            .windows(from.len())
            .position(|w| w == from)
            .expect("the text to alter");
        [&bytes[..at], to, &bytes[at + from.len()..]].concat()
    }

    fn refusal(bytes: &[u8]) -> String {
        Model::from_bytes(bytes)
            .expect_err("a damaged model")
            .to_string()
    }

    #[test]
    fn the_b6c96_model_reads_whole() {
        let model = Model::from_bytes(b6c96()).expect("b6c96 reads");
        assert_eq!(model.name, "g170-b6c96-s175395328-d26788732");
        assert_eq!(model.version, 8);
        assert_eq!(model.trunk.channels, 96);
        assert_eq!(model.trunk.blocks.len(), 6);
        let pooled = model
            .trunk
            .blocks
            .iter()
            .filter(|b| matches!(b, Block::GlobalPooling(_)));
        assert_eq!(pooled.count(), 2);
        assert_eq!((model.trunk.initial.ky, model.trunk.initial.kx), (5, 5));
        assert_eq!(model.policy.channels, 1);
        assert_eq!(model.value.scores.mul.c_out, 4);
        assert_eq!(model.post, PostProcess::default());
        assert!(!model.has_transformer());
        // The gzipped file reads alike.
        let packed = crate::net::katago::EMBEDDED;
        assert_eq!(Model::from_bytes(packed).expect("packed").name, model.name);
    }

    #[test]
    fn damaged_files_are_refused_with_what_is_wrong() {
        let bytes = b6c96();
        assert_eq!(
            refusal(&bytes[..bytes.len() / 2]),
            "rconv3/w2: the file ends within its 55296 floats",
            "truncated"
        );
        let packed = crate::net::katago::EMBEDDED;
        assert!(refusal(&packed[..packed.len() / 2]).starts_with("gzip: cannot unpack"));
        assert_eq!(
            refusal(&altered(b"\n8\n22\n19\n", b"\n18\n22\n19\n")),
            "g170-b6c96-s175395328-d26788732: model version 18; this reader reads 8 to 17"
        );
        assert_eq!(
            refusal(&altered(b"conv1\n5\n5\n22\n96\n", b"conv1\n5\n5\n22\n95\n")),
            "trunk: initial conv outputs (95) != channels (96)"
        );
        assert_eq!(
            refusal(&altered(b"conv1\n5\n5\n", b"conv1\n4\n5\n")),
            "conv1: even kernel 4x5"
        );
        let mut nan = b6c96().to_vec();
        let first = nan
            .windows(5)
            .position(|w| w == b"@BIN@")
            .expect("a float block");
        nan[first + 5..first + 9].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(refusal(&nan), "conv1: a weight is infinite or not a number");
        let mut longer = b6c96().to_vec();
        longer.extend(b"\nmore");
        assert!(refusal(&longer).ends_with("the file goes on after the value head"));
        assert!(refusal(b"hello world").contains("model version"));
    }
}
