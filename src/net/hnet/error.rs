//! Why a `.hnet` file or a set of [`super::Weights`] was refused: one error type for the
//! reader and the checks, so that `--net FILE` reports what is wrong with the file.

use super::format::{MAX_BLOCKS, MAX_CHANNELS, MAX_VALUE_CHANNELS, MAX_VALUE_HIDDEN};
use super::PLANES;
use std::fmt;

/// Why a weights file was refused.
#[derive(Debug)]
pub enum NetError {
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
    /// A tensor of [`Weights`](super::Weights) has the wrong number of values.
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
            NetError::BadMagic => write!(f, "not a hoshi network (no HOSHINET magic)"),
            NetError::Version(v) => write!(f, "network format version {v}, not 1 to 3"),
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

impl std::error::Error for NetError {}
