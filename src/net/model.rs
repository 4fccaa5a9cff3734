//! The network's weights and forward pass (see `docs/policy-net.md`).
//!
//! [`INPUT_PLANES`] is the Rust definition of the 19 input planes. [`Weights`] is the `.hnet`
//! file as it stands (PyTorch's layout, version 1 or 2); [`Model`] holds the same weights
//! re-laid out for the convolution kernel (`conv.rs`) and runs the forward pass (the policy,
//! and the value when the file has a value head) for a batch of positions of one board size,
//! in a caller's [`Workspace`] so that an evaluation allocates nothing.

use super::conv::{self, Apply, Conv3};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt;
use std::path::{Path, PathBuf};

/// Input planes a point expands into.
pub const PLANES: usize = 19;
/// The most channels a weights file may declare: far above any network the engine can afford
/// to run, and low enough that a corrupt header cannot ask for gigabytes.
pub const MAX_CHANNELS: usize = 256;
/// The most residual blocks a weights file may declare (see [`MAX_CHANNELS`]).
pub const MAX_BLOCKS: usize = 40;
/// The board sizes the forward pass takes (those of GTP).
pub const SIZES: std::ops::RangeInclusive<usize> = 2..=25;

/// The most channels a value head's convolution may declare (see [`MAX_CHANNELS`]).
pub const MAX_VALUE_CHANNELS: usize = 256;
/// The most values a value head's hidden layer may declare (see [`MAX_CHANNELS`]).
pub const MAX_VALUE_HIDDEN: usize = 1024;

/// The points the score output counts in: the network gives the mover's lead divided by it,
/// so that its usual values are near 1 (the training code's `SCORE_SCALE`).
pub const SCORE_SCALE: f32 = 20.0;

const MAGIC: &[u8; 8] = b"HOSHINET";
/// Version 2 adds the heads flags and the value head's sizes to the header; version 3 the
/// pooled blocks and the score and ownership outputs.
const VERSIONS: std::ops::RangeInclusive<u32> = 1..=3;
/// Version 1: magic, version, planes, channels, blocks.
const HEADER_BYTES: usize = 8 + 4 * 4;
/// Version 2: then heads flags, value channels, value hidden.
const HEADER_V2_BYTES: usize = HEADER_BYTES + 3 * 4;
/// Version 3: then the pooled blocks' mask, low and high 32 bits.
const HEADER_V3_BYTES: usize = HEADER_V2_BYTES + 2 * 4;
/// The heads flags' bit of the value head (version 2's only bit).
const VALUE_HEAD: u32 = 1;
/// Version 3's bits of the value head's score and ownership outputs.
const SCORE_HEAD: u32 = 2;
const OWNERSHIP_HEAD: u32 = 4;

/// The planes of one input byte, 0 or 1 each (the table of `docs/policy-net.md`).
///
/// A byte with both colour bits set (3) is no stone and no empty point: only plane 18 is set.
/// Bits the table leaves 0 for a point's kind (the age of an empty point, the ladder bits of a
/// stone) are ignored, so a malformed byte cannot light planes of the other kind.
pub const fn input_planes(code: u8) -> [f32; PLANES] {
    let mut planes = [0.0; PLANES];
    let liberties = ((code >> 2) & 3) as usize;
    let age = ((code >> 4) & 7) as usize;
    match code & 3 {
        0 => {
            planes[2] = 1.0;
            if code & 0x04 != 0 {
                planes[11] = 1.0;
            }
            if code & 0x08 != 0 {
                planes[12] = 1.0;
            }
            if code & 0x80 != 0 {
                planes[13] = 1.0;
            }
        }
        colour @ (1 | 2) => {
            let own = colour == 1;
            planes[if own { 0 } else { 1 }] = 1.0;
            planes[if own { 3 } else { 7 } + liberties] = 1.0;
            if age >= 1 && age <= 4 {
                planes[13 + age] = 1.0;
            }
        }
        _ => {}
    }
    planes[18] = 1.0;
    planes
}

/// [`input_planes`] of every byte, looked up once a point by the forward pass.
pub static INPUT_PLANES: [[f32; PLANES]; 256] = planes_table();

const fn planes_table() -> [[f32; PLANES]; 256] {
    let mut table = [[0.0; PLANES]; 256];
    let mut code = 0;
    while code < 256 {
        table[code] = input_planes(code as u8);
        code += 1;
    }
    table
}

/// Why a weights file was refused.
#[derive(Debug)]
pub enum NetError {
    /// The file could not be read.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// It does not start with `HOSHINET`.
    BadMagic,
    /// A format version this code does not read (it reads 1 to 3).
    Version(u32),
    /// Input planes other than [`PLANES`].
    Planes(u32),
    /// No channels, or more than [`MAX_CHANNELS`].
    Channels(u32),
    /// More than [`MAX_BLOCKS`] residual blocks.
    Blocks(u32),
    /// Heads flags with a bit the version does not define, or a score or ownership output
    /// without the value head it belongs to.
    Heads(u32),
    /// A version 3 header's pooled blocks beyond the network's blocks.
    PooledBlocks { mask: u64, blocks: u32 },
    /// A value head's sizes out of range: 0 or above [`MAX_VALUE_CHANNELS`] channels, or 0 or
    /// above [`MAX_VALUE_HIDDEN`] hidden values, with the flag; anything but 0 without it.
    ValueSize {
        flagged: bool,
        channels: u32,
        hidden: u32,
    },
    /// The file ends before the tensors its header announces.
    Truncated { expected: usize, found: usize },
    /// The file goes on after them.
    TrailingBytes { expected: usize, found: usize },
    /// A tensor of [`Weights`] has the wrong number of values.
    Shape {
        tensor: String,
        expected: usize,
        found: usize,
    },
    /// A weight is infinite or not a number.
    NonFinite { tensor: String },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            NetError::BadMagic => write!(f, "not a hoshi network (no HOSHINET magic)"),
            NetError::Version(v) => write!(f, "network format version {v}, not 1 or 2"),
            NetError::Planes(p) => write!(f, "network takes {p} input planes, not {PLANES}"),
            NetError::Channels(c) => write!(f, "{c} channels (1 to {MAX_CHANNELS} allowed)"),
            NetError::Blocks(b) => write!(f, "{b} residual blocks (at most {MAX_BLOCKS})"),
            NetError::Heads(flags) => write!(
                f,
                "heads flags {flags:#x}: bit 0 is a value head, and in version 3 bits 1 and 2 \
                 its score and ownership outputs, which need bit 0; no other bit is defined"
            ),
            NetError::PooledBlocks { mask, blocks } => {
                write!(f, "pooled blocks {mask:#x} in a network of {blocks} blocks")
            }
            NetError::ValueSize {
                flagged: true,
                channels,
                hidden,
            } => write!(
                f,
                "value head of {channels} channels and {hidden} hidden values \
                 (1 to {MAX_VALUE_CHANNELS} and 1 to {MAX_VALUE_HIDDEN} allowed)"
            ),
            NetError::ValueSize {
                flagged: false,
                channels,
                hidden,
            } => write!(
                f,
                "no value head in the flags, yet its sizes are {channels} and {hidden}, not 0"
            ),
            NetError::Truncated { expected, found } => {
                write!(
                    f,
                    "network file truncated: {found} bytes, {expected} expected"
                )
            }
            NetError::TrailingBytes { expected, found } => {
                write!(
                    f,
                    "network file too long: {found} bytes, {expected} expected"
                )
            }
            NetError::Shape {
                tensor,
                expected,
                found,
            } => write!(f, "{tensor} has {found} values, {expected} expected"),
            NetError::NonFinite { tensor } => write!(f, "{tensor} holds a non-finite value"),
        }
    }
}

impl std::error::Error for NetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A convolution's weights and bias in PyTorch's layout, batch norm folded in.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// `[out][in][ky][kx]` (`[1][C]` for the head).
    pub weights: Vec<f32>,
    /// `[out]`.
    pub bias: Vec<f32>,
}

/// A residual block's two convolutions and, in a pooled block, the weights `[C][3C]` (no
/// bias) that turn its middle activations' pooling over the board into a bias on each of
/// their channels (KataGo's global pooling: what happens far away reaches every point).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub conv1: Layer,
    pub pool: Option<Layer>,
    pub conv2: Layer,
}

/// The value head's layers (docs/policy-net.md): a 1×1 convolution from the trunk's channels
/// to `conv.bias.len()` (V) channels, then two fully connected layers over the pooled values,
/// and the ownership's 1×1 convolution of the V channels.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueWeights {
    /// `[V][C]`, `[V]`.
    pub conv: Layer,
    /// `[H][3V + 1]`, `[H]`.
    pub fc1: Layer,
    /// `[O][H]`, `[O]`: O is 1 (the value's logit), or 2 with the score output (then the
    /// mover's lead / [`SCORE_SCALE`]).
    pub fc2: Layer,
    /// `[1][V]`, `[1]`: the ownership output, each point's `tanh` of it.
    pub ownership: Option<Layer>,
}

impl ValueWeights {
    /// The channels V and hidden values H it declares (its biases' lengths).
    pub fn sizes(&self) -> (usize, usize) {
        (self.conv.bias.len(), self.fc1.bias.len())
    }

    /// Whether it gives the score lead (a second output of its last layer).
    pub fn has_score(&self) -> bool {
        self.fc2.bias.len() == 2
    }
}

/// The contents of a `.hnet` file, tensor by tensor, as the training code wrote them.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub channels: usize,
    /// 3×3, [`PLANES`] to `channels`.
    pub stem: Layer,
    pub blocks: Vec<Block>,
    /// 1×1, `channels` to 1.
    pub head: Layer,
    /// Version 2 files with the value head's flag.
    pub value: Option<ValueWeights>,
}

/// What a header declares: the trunk's channels and blocks, the pooled ones (a bit a block),
/// the value head's V and H if any and its outputs.
#[derive(Clone, Copy, Debug)]
struct Shape {
    channels: usize,
    blocks: usize,
    pooled: u64,
    value: Option<(usize, usize)>,
    score: bool,
    ownership: bool,
    header_bytes: usize,
}

impl Shape {
    /// The file's length: the header and the floats after it.
    fn file_bytes(&self) -> usize {
        let (c, b) = (self.channels, self.blocks);
        let pools = self.pooled.count_ones() as usize;
        let policy = (c * PLANES * 9 + c) + b * 2 * (c * c * 9 + c) + pools * 3 * c * c + (c + 1);
        let outputs = if self.score { 2 } else { 1 };
        let value = self.value.map_or(0, |(v, h)| {
            (v * c + v)
                + (h * (3 * v + 1) + h)
                + outputs * (h + 1)
                + if self.ownership { v + 1 } else { 0 }
        });
        self.header_bytes + 4 * (policy + value)
    }

    fn pooled(&self, block: usize) -> bool {
        block < 64 && self.pooled >> block & 1 == 1
    }
}

impl Weights {
    /// Reads a `.hnet` file's bytes (version 1 or 2). The header is checked here; the values
    /// are checked by [`Model::from_weights`].
    pub fn parse(bytes: &[u8]) -> Result<Weights, NetError> {
        let mut reader = Reader { bytes, at: 0 };
        let shape = reader.header()?;
        let expected = shape.file_bytes();
        if bytes.len() < expected {
            return Err(NetError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NetError::TrailingBytes {
                expected,
                found: bytes.len(),
            });
        }
        let mut layer = |inputs: usize, kernel: usize, outputs: usize, biased: bool| Layer {
            weights: reader.floats(outputs * inputs * kernel),
            bias: reader.floats(if biased { outputs } else { 0 }),
        };
        Ok(Weights::shaped(shape, &mut layer))
    }

    /// The network's shape, written once: the stem, the blocks, the head, the value head's
    /// layers, each layer made by `layer(inputs, kernel points, outputs, with a bias)` in the
    /// file's order.
    fn shaped(shape: Shape, layer: &mut impl FnMut(usize, usize, usize, bool) -> Layer) -> Weights {
        let channels = shape.channels;
        let stem = layer(PLANES, 9, channels, true);
        let blocks = (0..shape.blocks)
            .map(|i| Block {
                conv1: layer(channels, 9, channels, true),
                pool: shape
                    .pooled(i)
                    .then(|| layer(3 * channels, 1, channels, false)),
                conv2: layer(channels, 9, channels, true),
            })
            .collect();
        let head = layer(channels, 1, 1, true);
        let value = shape.value.map(|(v, h)| ValueWeights {
            conv: layer(channels, 1, v, true),
            fc1: layer(3 * v + 1, 1, h, true),
            fc2: layer(h, 1, if shape.score { 2 } else { 1 }, true),
            ownership: shape.ownership.then(|| layer(v, 1, 1, true)),
        });
        Weights {
            channels,
            stem,
            blocks,
            head,
            value,
        }
    }

    /// The blocks with global pooling, a bit a block.
    pub fn pooled_blocks(&self) -> u64 {
        (self.blocks.iter().enumerate())
            .filter(|(_, block)| block.pool.is_some())
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// The file version that holds these weights: 1 without a value head, 2 with one, 3
    /// with pooled blocks, a score or an ownership output.
    pub fn version(&self) -> u32 {
        let extras = self
            .value
            .as_ref()
            .is_some_and(|v| v.has_score() || v.ownership.is_some());
        if self.pooled_blocks() != 0 || extras {
            3
        } else if self.value.is_some() {
            2
        } else {
            1
        }
    }

    /// The `.hnet` file of these weights, of [`Weights::version`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = self.version();
        let mut fields = vec![version as usize, PLANES, self.channels, self.blocks.len()];
        if version >= 2 {
            fields.extend(match &self.value {
                Some(value) => {
                    let (v, h) = value.sizes();
                    let score = if value.has_score() { SCORE_HEAD } else { 0 };
                    let own = value.ownership.as_ref().map_or(0, |_| OWNERSHIP_HEAD);
                    [(VALUE_HEAD | score | own) as usize, v, h]
                }
                None => [0, 0, 0],
            });
        }
        if version == 3 {
            let mask = self.pooled_blocks();
            fields.extend([(mask & 0xFFFF_FFFF) as usize, (mask >> 32) as usize]);
        }
        let mut bytes = Vec::with_capacity(8 + 4 * fields.len() + 4 * self.value_count());
        bytes.extend_from_slice(MAGIC);
        for field in fields {
            bytes.extend_from_slice(&(field as u32).to_le_bytes());
        }
        for (_, layer, _, _) in self.layers() {
            for value in layer.weights.iter().chain(&layer.bias) {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
        bytes
    }

    /// A policy network of random weights (He's uniform initialisation, so that activations
    /// keep their scale through the blocks): for benchmarks and tests before trained weights
    /// exist.
    pub fn random(channels: usize, blocks: usize, seed: u64) -> Weights {
        Weights::random_shaped(channels, blocks, None, seed)
    }

    /// A network of random weights with every part of version 3: the blocks of `pooled` (a
    /// bit a block) with global pooling, a value head of `value_channels` and `hidden` values
    /// with the score and ownership outputs.
    pub fn random_judge(
        channels: usize,
        blocks: usize,
        pooled: u64,
        value_channels: usize,
        hidden: usize,
        seed: u64,
    ) -> Weights {
        let shape = Shape {
            channels,
            blocks,
            pooled,
            value: Some((value_channels, hidden)),
            score: true,
            ownership: true,
            header_bytes: 0,
        };
        Weights::random_of(shape, seed)
    }

    /// [`Weights::random`] with a value head of `value_channels` and `hidden` values.
    pub fn random_with_value(
        channels: usize,
        blocks: usize,
        value_channels: usize,
        hidden: usize,
        seed: u64,
    ) -> Weights {
        Weights::random_shaped(channels, blocks, Some((value_channels, hidden)), seed)
    }

    fn random_shaped(
        channels: usize,
        blocks: usize,
        value: Option<(usize, usize)>,
        seed: u64,
    ) -> Weights {
        let shape = Shape {
            channels,
            blocks,
            pooled: 0,
            value,
            score: false,
            ownership: false,
            header_bytes: 0,
        };
        Weights::random_of(shape, seed)
    }

    fn random_of(shape: Shape, seed: u64) -> Weights {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut layer = |inputs: usize, kernel: usize, outputs: usize, biased: bool| {
            let reach = (6.0 / (inputs * kernel) as f32).sqrt();
            Layer {
                weights: (0..outputs * inputs * kernel)
                    .map(|_| rng.gen_range(-reach..reach))
                    .collect(),
                bias: (0..if biased { outputs } else { 0 })
                    .map(|_| rng.gen_range(-0.1..0.1))
                    .collect(),
            }
        };
        Weights::shaped(shape, &mut layer)
    }

    /// Every layer in file order, with its name and the lengths its weights and bias must have.
    fn layers(&self) -> Vec<(String, &Layer, usize, usize)> {
        let c = self.channels;
        let mut layers = vec![("stem".to_string(), &self.stem, c * PLANES * 9, c)];
        for (i, block) in self.blocks.iter().enumerate() {
            layers.push((format!("block {i} conv1"), &block.conv1, c * c * 9, c));
            if let Some(pool) = &block.pool {
                layers.push((format!("block {i} pool"), pool, c * 3 * c, 0));
            }
            layers.push((format!("block {i} conv2"), &block.conv2, c * c * 9, c));
        }
        layers.push(("head".to_string(), &self.head, c, 1));
        if let Some(value) = &self.value {
            let (v, h) = value.sizes();
            // A second output is the score; more than two are refused by the shape check.
            let outputs = value.fc2.bias.len().clamp(1, 2);
            layers.push(("value conv".to_string(), &value.conv, v * c, v));
            layers.push(("value fc1".to_string(), &value.fc1, h * (3 * v + 1), h));
            layers.push(("value fc2".to_string(), &value.fc2, outputs * h, outputs));
            if let Some(own) = &value.ownership {
                layers.push(("ownership".to_string(), own, v, 1));
            }
        }
        layers
    }

    fn value_count(&self) -> usize {
        self.layers()
            .iter()
            .map(|(_, layer, _, _)| layer.weights.len() + layer.bias.len())
            .sum()
    }

    /// Refuses absurd sizes, tensors of the wrong length and non-finite values.
    fn check(&self) -> Result<(), NetError> {
        if !(1..=MAX_CHANNELS).contains(&self.channels) {
            return Err(NetError::Channels(clamp_u32(self.channels)));
        }
        if self.blocks.len() > MAX_BLOCKS {
            return Err(NetError::Blocks(clamp_u32(self.blocks.len())));
        }
        if let Some(value) = &self.value {
            let (v, h) = value.sizes();
            check_value_size(true, clamp_u32(v), clamp_u32(h))?;
        }
        for (name, layer, weights, bias) in self.layers() {
            for (part, values, expected) in [
                ("weights", &layer.weights, weights),
                ("bias", &layer.bias, bias),
            ] {
                let tensor = || format!("{name} {part}");
                if values.len() != expected {
                    return Err(NetError::Shape {
                        tensor: tensor(),
                        expected,
                        found: values.len(),
                    });
                }
                if !values.iter().all(|v| v.is_finite()) {
                    return Err(NetError::NonFinite { tensor: tensor() });
                }
            }
        }
        Ok(())
    }
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A value head's sizes, `flagged` when the heads flags announce one.
fn check_value_size(flagged: bool, channels: u32, hidden: u32) -> Result<(), NetError> {
    let fits = if flagged {
        (1..=MAX_VALUE_CHANNELS).contains(&(channels as usize))
            && (1..=MAX_VALUE_HIDDEN).contains(&(hidden as usize))
    } else {
        channels == 0 && hidden == 0
    };
    if fits {
        Ok(())
    } else {
        Err(NetError::ValueSize {
            flagged,
            channels,
            hidden,
        })
    }
}

/// Reads a `.hnet` file front to back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    /// Checks the header; the shape it declares.
    fn header(&mut self) -> Result<Shape, NetError> {
        self.expect_header(HEADER_BYTES)?;
        self.at = MAGIC.len();
        let [version, planes, channels, blocks] = [(); 4].map(|_| self.u32());
        if !VERSIONS.contains(&version) {
            return Err(NetError::Version(version));
        }
        if planes as usize != PLANES {
            return Err(NetError::Planes(planes));
        }
        if channels == 0 || channels as usize > MAX_CHANNELS {
            return Err(NetError::Channels(channels));
        }
        if blocks as usize > MAX_BLOCKS {
            return Err(NetError::Blocks(blocks));
        }
        let mut shape = Shape {
            channels: channels as usize,
            blocks: blocks as usize,
            pooled: 0,
            value: None,
            score: false,
            ownership: false,
            header_bytes: HEADER_BYTES,
        };
        if version >= 2 {
            self.expect_header(HEADER_V2_BYTES)?;
            let [flags, value_channels, hidden] = [(); 3].map(|_| self.u32());
            let known = match version {
                2 => VALUE_HEAD,
                _ => VALUE_HEAD | SCORE_HEAD | OWNERSHIP_HEAD,
            };
            let flagged = flags & VALUE_HEAD != 0;
            if flags & !known != 0 || (!flagged && flags != 0) {
                return Err(NetError::Heads(flags));
            }
            check_value_size(flagged, value_channels, hidden)?;
            shape.header_bytes = HEADER_V2_BYTES;
            shape.value = flagged.then_some((value_channels as usize, hidden as usize));
            shape.score = flags & SCORE_HEAD != 0;
            shape.ownership = flags & OWNERSHIP_HEAD != 0;
        }
        if version == 3 {
            self.expect_header(HEADER_V3_BYTES)?;
            let [low, high] = [(); 2].map(|_| self.u32());
            let mask = u64::from(low) | u64::from(high) << 32;
            if blocks < 64 && mask >> blocks != 0 {
                return Err(NetError::PooledBlocks { mask, blocks });
            }
            shape.pooled = mask;
            shape.header_bytes = HEADER_V3_BYTES;
        }
        Ok(shape)
    }

    /// Whether the file is long enough for a header of `len` bytes and starts with the magic.
    fn expect_header(&self, len: usize) -> Result<(), NetError> {
        if self.bytes.len() >= len {
            return if self.bytes.starts_with(MAGIC) {
                Ok(())
            } else {
                Err(NetError::BadMagic)
            };
        }
        if self.bytes.starts_with(MAGIC) || MAGIC.starts_with(self.bytes) {
            Err(NetError::Truncated {
                expected: len,
                found: self.bytes.len(),
            })
        } else {
            Err(NetError::BadMagic)
        }
    }

    /// The next 4 bytes; the caller has checked that they are there.
    fn u32(&mut self) -> u32 {
        let b = &self.bytes[self.at..self.at + 4];
        self.at += 4;
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// The next `n` floats; the caller has checked that they are there.
    fn floats(&mut self, n: usize) -> Vec<f32> {
        let bytes = &self.bytes[self.at..self.at + 4 * n];
        self.at += 4 * n;
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }
}

/// The `.hnet` network, ready to evaluate positions: the policy, and the value when its
/// file has a value head.
#[derive(Clone, Debug)]
pub struct Model {
    channels: usize,
    stem: Conv3,
    blocks: Vec<ModelBlock>,
    head_weights: Vec<f32>,
    head_bias: f32,
    value: Option<ValueHead>,
}

/// A residual block laid out for the kernel, with its pooling weights `[C][3C]` if pooled.
#[derive(Clone, Debug)]
struct ModelBlock {
    conv1: Conv3,
    pool: Option<Vec<f32>>,
    conv2: Conv3,
}

/// The value head laid out for the forward pass: the 1×1 convolution's weights transposed to
/// `[C][V]`, so that each trunk channel of a point adds itself times a row of V weights to
/// the V outputs (a loop the compiler vectorises, where a dot product per output, an f32
/// sum in order, stays scalar and costs a tenth of the trunk); the two small layers as the
/// file has them.
#[derive(Clone, Debug)]
struct ValueHead {
    conv_t: Vec<f32>,
    conv_bias: Vec<f32>,
    fc1: Layer,
    fc2: Layer,
    ownership: Option<Layer>,
}

impl ValueHead {
    fn new(weights: &ValueWeights, channels: usize) -> ValueHead {
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
    fn sizes(&self) -> (usize, usize) {
        (self.conv_bias.len(), self.fc1.bias.len())
    }

    /// The floats of one position's scratch: one point's V outputs, the 3V + 1 pooled values,
    /// the H hidden ones.
    fn scratch(&self) -> usize {
        let (v, h) = self.sizes();
        4 * v + 1 + h
    }
}

impl Model {
    /// Reads a `.hnet` file.
    pub fn load(path: impl AsRef<Path>) -> Result<Model, NetError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| NetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Model::from_bytes(&bytes)
    }

    /// Reads the bytes of a `.hnet` file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, NetError> {
        Model::from_weights(&Weights::parse(bytes)?)
    }

    /// Checks the weights and lays them out for the kernel.
    pub fn from_weights(weights: &Weights) -> Result<Model, NetError> {
        weights.check()?;
        let c = weights.channels;
        let conv = |layer: &Layer, inputs| Conv3::new(c, inputs, &layer.weights, &layer.bias);
        Ok(Model {
            channels: c,
            stem: conv(&weights.stem, PLANES),
            blocks: weights
                .blocks
                .iter()
                .map(|block| ModelBlock {
                    conv1: conv(&block.conv1, c),
                    pool: block.pool.as_ref().map(|pool| pool.weights.clone()),
                    conv2: conv(&block.conv2, c),
                })
                .collect(),
            head_weights: weights.head.weights.clone(),
            // `check` has made sure that the head has one bias.
            head_bias: weights.head.bias[0],
            value: weights.value.as_ref().map(|value| ValueHead::new(value, c)),
        })
    }

    /// Channels of the stem and of every block.
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Residual blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Whether it has a value head (a version 2 file with the value head's flag), which
    /// [`Model::forward_value`] needs.
    pub fn has_value(&self) -> bool {
        self.value.is_some()
    }

    /// The value head's channels V and hidden values H, if it has one.
    pub fn value_sizes(&self) -> Option<(usize, usize)> {
        self.value.as_ref().map(ValueHead::sizes)
    }

    /// Whether its value head gives the score lead ([`Judgement::score_lead`]).
    pub fn has_score(&self) -> bool {
        self.value.as_ref().is_some_and(|v| v.fc2.bias.len() == 2)
    }

    /// Whether its value head gives each point's ownership ([`Model::judge`]).
    pub fn has_ownership(&self) -> bool {
        self.value.as_ref().is_some_and(|v| v.ownership.is_some())
    }

    /// How many of its blocks pool over the whole board.
    pub fn pooled_blocks(&self) -> usize {
        self.blocks.iter().filter(|b| b.pool.is_some()).count()
    }

    /// Scratch space for batches of up to `max_batch` positions of up to `max_size` (one per
    /// thread). A larger batch or board later makes it grow once.
    pub fn workspace(&self, max_size: usize, max_batch: usize) -> Workspace {
        let mut ws = Workspace {
            path: conv::Path::detect(),
            input: Vec::new(),
            current: Vec::new(),
            middle: Vec::new(),
            next: Vec::new(),
            value: Vec::new(),
            pool: Vec::new(),
            conv: conv::Scratch::default(),
        };
        ws.prepare(max_batch, max_size, self.stem.out_stride());
        ws.value.resize(self.value_scratch(), 0.0);
        ws
    }

    /// The value head's scratch for one position (none without one).
    fn value_scratch(&self) -> usize {
        self.value.as_ref().map_or(0, ValueHead::scratch)
    }

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
        if ws.value.len() < self.value_scratch() {
            ws.value.resize(self.value_scratch(), 0.0);
        }
        let act_len = conv::grid_points(size) * self.stem.out_stride();
        let trunk = ws.current.chunks_exact(act_len);
        for ((act, &komi), value) in trunk.zip(mover_komi).zip(values.iter_mut()) {
            let grid = Grid {
                size,
                stride: self.stem.out_stride(),
                channels: self.channels,
                act,
            };
            *value = judge(head, &grid, komi, &mut ws.value, None).value;
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
    pub fn judge(
        &self,
        size: usize,
        ws: &mut Workspace,
        mover_komi: f32,
        ownership: Option<&mut [f32]>,
    ) -> Judgement {
        let head = self.value.as_ref().expect("judge needs a value head");
        if ws.value.len() < self.value_scratch() {
            ws.value.resize(self.value_scratch(), 0.0);
        }
        let act_len = conv::grid_points(size) * self.stem.out_stride();
        let grid = Grid {
            size,
            stride: self.stem.out_stride(),
            channels: self.channels,
            act: &ws.current[..act_len],
        };
        judge(head, &grid, mover_komi, &mut ws.value, ownership)
    }

    /// Runs the stem and the blocks, leaving each position's last activations in
    /// `ws.current`, and the policy head into `logits`.
    fn trunk_and_policy(
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
        for (bytes, planes) in inputs.iter().zip(input.chunks_exact_mut(in_len)) {
            expand(size, bytes, planes);
        }
        let pass = Pass {
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
        for (out, act) in logits
            .chunks_exact_mut(area)
            .zip(current.chunks_exact(act_len))
        {
            self.head(size, act, stride, out);
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

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
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

/// What the value head says of a position for one komi ([`Model::judge`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The side to move's probability of winning.
    pub value: f32,
    /// The points it leads by (negative: behind), where the head has the score output.
    pub score_lead: Option<f32>,
}

/// The value head on one position (docs/policy-net.md): the 1×1 convolution's ReLU at every
/// point (and there the ownership, if asked), pooled into means, scaled means, maxima and the
/// komi, a hidden layer, the value's logit and the score. `scratch` holds at least
/// [`ValueHead::scratch`] floats.
fn judge(
    head: &ValueHead,
    grid: &Grid,
    mover_komi: f32,
    scratch: &mut [f32],
    mut ownership: Option<&mut [f32]>,
) -> Judgement {
    let (v, h) = head.sizes();
    let (out, rest) = scratch.split_at_mut(v);
    let (pooled, hidden) = rest.split_at_mut(3 * v + 1);
    pooled.fill(0.0);
    if let Some(own) = &ownership {
        assert!(head.ownership.is_some(), "the head has no ownership output");
        assert_eq!(own.len(), grid.size * grid.size, "one ownership a point");
    }
    for (point, act) in grid.points().enumerate() {
        out.copy_from_slice(&head.conv_bias);
        for (&a, row) in act.iter().zip(head.conv_t.chunks_exact(v)) {
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
        if let (Some(own), Some(layer)) = (ownership.as_deref_mut(), &head.ownership) {
            own[point] = (layer.bias[0] + dot(&layer.weights, out)).tanh();
        }
    }
    board_pool_finish(pooled, v, grid.size);
    pooled[3 * v] = mover_komi / 15.0;
    let rows = head.fc1.weights.chunks_exact(3 * v + 1);
    for ((out, row), &bias) in hidden[..h].iter_mut().zip(rows).zip(&head.fc1.bias) {
        *out = (bias + dot(row, pooled)).max(0.0);
    }
    let output =
        |o: usize| head.fc2.bias[o] + dot(&head.fc2.weights[o * h..(o + 1) * h], &hidden[..h]);
    let logit = output(0);
    Judgement {
        value: 1.0 / (1.0 + (-logit).exp()),
        score_lead: (head.fc2.bias.len() == 2).then(|| output(1) * SCORE_SCALE),
    }
}

/// Turns the sums of `pooled`'s first V values into means and writes the second V values,
/// those means scaled by `(size − 14) / 10` (the maxima, the third V, are already there): the
/// pooling the value head and the pooled blocks share.
fn board_pool_finish(pooled: &mut [f32], v: usize, size: usize) {
    let area = (size * size) as f32;
    let scale = (size as f32 - 14.0) / 10.0;
    let (means, scaled) = pooled[..2 * v].split_at_mut(v);
    for (mean, scaled) in means.iter_mut().zip(scaled) {
        *mean /= area;
        *scaled = *mean * scale;
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

/// One forward pass's settings: the kernel, the board size and the batch.
#[derive(Clone, Copy)]
struct Pass {
    path: conv::Path,
    size: usize,
    batch: usize,
}

impl Pass {
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

/// Per-thread scratch space of the forward pass: the padded grids of a batch.
#[derive(Clone, Debug)]
pub struct Workspace {
    /// Which copy of the convolution kernel this processor runs.
    path: conv::Path,
    /// The input planes.
    input: Vec<f32>,
    /// A block's input, then its output.
    current: Vec<f32>,
    /// Between a block's two convolutions.
    middle: Vec<f32>,
    /// A block's output, before it becomes `current`.
    next: Vec<f32>,
    /// The value head's pooled values and hidden layer, for one position at a time.
    value: Vec<f32>,
    /// A pooled block's pooled values and bias, for one position at a time.
    pool: Vec<f32>,
    /// The convolution's transformed inputs and products, for one position at a time.
    conv: conv::Scratch,
}

impl Workspace {
    /// The copy of the convolution kernel in use (`avx2+fma` or `portable`).
    pub fn kernel(&self) -> &'static str {
        self.path.name()
    }

    /// The names of the kernel's copies this processor runs, the fastest (the one a new
    /// workspace runs) first and `portable` last.
    pub fn kernels() -> Vec<&'static str> {
        conv::Path::available()
            .into_iter()
            .map(conv::Path::name)
            .collect()
    }

    /// The same workspace running the copy of the kernel named `name`, one of
    /// [`Workspace::kernels`], to compare the copies; `None` if this processor lacks it.
    pub fn with_kernel(mut self, name: &str) -> Option<Workspace> {
        self.path = conv::Path::available()
            .into_iter()
            .find(|path| path.name() == name)?;
        Some(self)
    }

    /// Room for `batch` grids of `size` (growing if needed), zeroed: the kernels write only
    /// the points on the board, so the borders must start at zero, and a smaller board than
    /// the last one has its border where the last one had stones.
    fn prepare(&mut self, batch: usize, size: usize, stride: usize) {
        let grid = conv::grid_points(size);
        let zero = |buffer: &mut Vec<f32>, len: usize| {
            if buffer.len() < len {
                buffer.resize(len, 0.0);
            }
            buffer[..len].fill(0.0);
        };
        zero(&mut self.input, batch * grid * PLANES);
        for buffer in [&mut self.current, &mut self.middle, &mut self.next] {
            zero(buffer, batch * grid * stride);
        }
    }
}

/// Probabilities from logits: a softmax over the points `allowed` accepts, 0 at the others.
/// Returns false, with every probability 0, when no point is allowed.
///
/// # Panics
/// If `logits` and `out` differ in length.
pub fn softmax_over(logits: &[f32], allowed: impl Fn(usize) -> bool, out: &mut [f32]) -> bool {
    assert_eq!(logits.len(), out.len(), "one probability a logit");
    let max = (0..logits.len())
        .filter(|&p| allowed(p))
        .map(|p| logits[p])
        .fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        out.fill(0.0);
        return false;
    }
    let mut sum = 0.0;
    for (p, (o, &l)) in out.iter_mut().zip(logits).enumerate() {
        *o = if allowed(p) { (l - max).exp() } else { 0.0 };
        sum += *o;
    }
    out.iter_mut().for_each(|o| *o /= sum);
    true
}

#[cfg(test)]
mod tests;
