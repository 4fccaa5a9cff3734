//! A `.hnet` network's tensors as the file holds them (PyTorch's layout, batch norm folded
//! in): what the reader ([`super::format`]) gives, the writer ([`super::writer`]) takes and
//! the forward pass ([`super::Model`]) re-lays out for the kernels. Kept apart from both
//! ends so that tests and tools can build or edit weights in code.

use super::format::{check_value_size, MAX_BLOCKS, MAX_CHANNELS};
use super::{NetError, PLANES};

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
    /// mover's lead / [`SCORE_SCALE`](super::SCORE_SCALE)).
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

impl Weights {
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

    /// Every layer in file order, with its name and the lengths its weights and bias must have.
    pub(super) fn layers(&self) -> Vec<(String, &Layer, usize, usize)> {
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

    /// Refuses absurd sizes, tensors of the wrong length and non-finite values: a file's
    /// header has been checked by the reader, but weights made in code (or edited) have not.
    pub(super) fn check(&self) -> Result<(), NetError> {
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
