//! The `.hnet` network laid out for the kernels ([`Model`]): read from a file's bytes or from
//! [`Weights`], checked, its 3×3 convolutions transformed once for the Winograd kernel so
//! that every evaluation starts from them. The forward pass is in [`super::forward`], the
//! value head's in [`super::value`].

use super::value::ValueHead;
use super::weights::Layer;
use super::{NetError, Weights, Workspace, PLANES};
use crate::net::kernels::conv::{self, Conv3};

/// The `.hnet` network, ready to evaluate positions: the policy, and the value when its
/// file has a value head.
#[derive(Clone, Debug)]
pub struct Model {
    pub(super) channels: usize,
    pub(super) stem: Conv3,
    pub(super) blocks: Vec<ModelBlock>,
    pub(super) head_weights: Vec<f32>,
    pub(super) head_bias: f32,
    pub(super) value: Option<ValueHead>,
}

/// A residual block laid out for the kernel, with its pooling weights `[C][3C]` if pooled.
#[derive(Clone, Debug)]
pub(super) struct ModelBlock {
    pub(super) conv1: Conv3,
    pub(super) pool: Option<Vec<f32>>,
    pub(super) conv2: Conv3,
}

impl Model {
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

    /// Whether its value head gives the score lead ([`ValueOutput::score_lead`](super::ValueOutput::score_lead)).
    pub fn has_score(&self) -> bool {
        self.value.as_ref().is_some_and(ValueHead::has_score)
    }

    /// Whether its value head gives each point's ownership ([`Model::evaluate_value`]).
    pub fn has_ownership(&self) -> bool {
        self.value.as_ref().is_some_and(ValueHead::has_ownership)
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
}
