//! The `.hnet` file format: the header (magic, version, sizes, heads flags, pooled blocks),
//! its versions, the limits that keep a corrupt header from asking for gigabytes, and the
//! reader that turns the bytes into [`Weights`]. The writer ([`super::writer`]) mirrors it.
//!
//! A file is `HOSHINET`, then little-endian u32 fields (version 1: version, planes, channels,
//! blocks; version 2: then the heads flags, value channels, value hidden; version 3: then
//! the pooled blocks' mask, low and high 32 bits), then every layer's f32 weights and bias in
//! the order of [`Weights::shaped`].

use super::weights::{Block, Layer, ValueWeights};
use super::{NetError, Weights, PLANES};

/// The most channels a weights file may declare: far above any network the engine can afford
/// to run, and low enough that a corrupt header cannot ask for gigabytes.
pub const MAX_CHANNELS: usize = 256;
/// The most residual blocks a weights file may declare (see [`MAX_CHANNELS`]).
pub const MAX_BLOCKS: usize = 40;

/// The most channels a value head's convolution may declare (see [`MAX_CHANNELS`]).
pub const MAX_VALUE_CHANNELS: usize = 256;
/// The most values a value head's hidden layer may declare (see [`MAX_CHANNELS`]).
pub const MAX_VALUE_HIDDEN: usize = 1024;

pub(super) const MAGIC: &[u8; 8] = b"HOSHINET";
/// Version 2 adds the heads flags and the value head's sizes to the header; version 3 the
/// pooled blocks and the score and ownership outputs.
const VERSIONS: std::ops::RangeInclusive<u32> = 1..=3;
/// Version 1: magic, version, planes, channels, blocks.
pub(super) const HEADER_BYTES: usize = 8 + 4 * 4;
/// Version 2: then heads flags, value channels, value hidden.
pub(super) const HEADER_V2_BYTES: usize = HEADER_BYTES + 3 * 4;
/// Version 3: then the pooled blocks' mask, low and high 32 bits.
pub(super) const HEADER_V3_BYTES: usize = HEADER_V2_BYTES + 2 * 4;
/// The heads flags' bit of the value head (version 2's only bit).
pub(super) const VALUE_HEAD: u32 = 1;
/// Version 3's bits of the value head's score and ownership outputs.
pub(super) const SCORE_HEAD: u32 = 2;
pub(super) const OWNERSHIP_HEAD: u32 = 4;

/// What a header declares: the trunk's channels and blocks, the pooled ones (a bit a block),
/// the value head's V and H if any and its outputs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub(super) channels: usize,
    pub(super) blocks: usize,
    pub(super) pooled: u64,
    pub(super) value: Option<(usize, usize)>,
    pub(super) score: bool,
    pub(super) ownership: bool,
    pub(super) header_bytes: usize,
}

impl Shape {
    /// The file's length: the header and the floats after it.
    pub(super) fn file_bytes(&self) -> usize {
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
    /// Reads a `.hnet` file's bytes (version 1 to 3). The header is checked here; the values
    /// are checked by [`Model::from_weights`](super::Model::from_weights).
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
    pub(super) fn shaped(
        shape: Shape,
        layer: &mut impl FnMut(usize, usize, usize, bool) -> Layer,
    ) -> Weights {
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
}

/// A value head's sizes, `flagged` when the heads flags announce one.
pub(super) fn check_value_size(flagged: bool, channels: u32, hidden: u32) -> Result<(), NetError> {
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
        let (version, mut shape) = self.version_1_fields()?;
        if version >= 2 {
            self.version_2_fields(version, &mut shape)?;
        }
        if version == 3 {
            self.version_3_fields(&mut shape)?;
        }
        Ok(shape)
    }

    /// The fields of every version (the version, the planes, the trunk's channels and
    /// blocks), checked; the version and the shape of a policy network of them.
    fn version_1_fields(&mut self) -> Result<(u32, Shape), NetError> {
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
        let shape = Shape {
            channels: channels as usize,
            blocks: blocks as usize,
            pooled: 0,
            value: None,
            score: false,
            ownership: false,
            header_bytes: HEADER_BYTES,
        };
        Ok((version, shape))
    }

    /// Version 2's fields (the heads flags, of which `version` knows its own, and the value
    /// head's sizes), checked, into `shape`.
    fn version_2_fields(&mut self, version: u32, shape: &mut Shape) -> Result<(), NetError> {
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
        Ok(())
    }

    /// Version 3's field (the pooled blocks' mask), checked against `shape`'s blocks, into it.
    fn version_3_fields(&mut self, shape: &mut Shape) -> Result<(), NetError> {
        self.expect_header(HEADER_V3_BYTES)?;
        let [low, high] = [(); 2].map(|_| self.u32());
        let mask = u64::from(low) | u64::from(high) << 32;
        // `version_1_fields` has checked that the blocks fit in a u32.
        let blocks = shape.blocks as u32;
        if blocks < 64 && mask >> blocks != 0 {
            return Err(NetError::PooledBlocks { mask, blocks });
        }
        shape.pooled = mask;
        shape.header_bytes = HEADER_V3_BYTES;
        Ok(())
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
