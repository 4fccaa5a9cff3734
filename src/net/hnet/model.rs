//! The `.hnet` network laid out for the kernels ([`Model`]): read from a file or from
//! [`Weights`], checked, its 3×3 convolutions transformed once for the Winograd kernel so
//! that every evaluation starts from them. The forward pass is in [`super::forward`], the
//! value head's in [`super::value`].

use super::value::ValueHead;
use super::weights::Layer;
use super::{NetError, Weights, Workspace, PLANES};
use crate::net::kernels::conv::{self, Conv3};
use std::path::{Path, PathBuf};

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
    /// Reads a `.hnet` file. A value network named by its old name (`judge-9x9.hnet`,
    /// before "judge" came to mean the dead-stone judge alone) that is no longer there is
    /// read from its new name in the same directory, so that the scripts and notes that
    /// name it keep working.
    pub fn load(path: impl AsRef<Path>) -> Result<Model, NetError> {
        let asked = path.as_ref();
        let renamed = renamed_file(asked);
        if let Some(renamed) = &renamed {
            log::warn!(
                "{} is now {}: reading that",
                asked.display(),
                renamed.display()
            );
        }
        let path = renamed.as_deref().unwrap_or(asked);
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

/// The weight files renamed when "judge" came to mean the dead-stone judge alone: the old
/// name, then the new one.
const RENAMED_FILES: [(&str, &str); 4] = [
    ("judge-9x9.hnet", "value-9x9.hnet"),
    ("judge-13x13.hnet", "value-13x13.hnet"),
    ("judge-19x19.hnet", "value-19x19.hnet"),
    ("judge-19x19-6x64.hnet", "value-19x19-6x64.hnet"),
];

/// The file to read for `path` when it names a renamed file by its old name
/// ([`RENAMED_FILES`]), is not there and the new name is; `None` otherwise, the file named
/// being read as it is (a file of the old name that exists wins).
fn renamed_file(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let &(_, new) = RENAMED_FILES.iter().find(|&&(old, _)| old == name)?;
    let renamed = path.with_file_name(new);
    (!path.exists() && renamed.exists()).then_some(renamed)
}
