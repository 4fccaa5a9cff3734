//! hoshi's own network format, `.hnet`, as a [`Network`](crate::net::Network): [`features`]
//! turns a position into one byte a point, [`Model`] turns those bytes into one logit a point
//! and, with a value head, the side to move's winning chances, score lead and ownership
//! (docs/policy-net.md says how it was trained: it is the contract between [`features`], the
//! [`INPUT_PLANES`], the file format, `hoshi dataset` and the training code in `train/`).
//!
//! Each concern has a file: the file format (`format.rs`, its [`NetError`]s in `error.rs`)
//! and its writer (`writer.rs`), the [`Weights`] as the file holds them (`weights.rs`, and
//! random ones for tests and benchmarks in `random.rs`), the [`Model`] laid out for the
//! kernels (`model.rs`), its forward pass (`forward.rs`) and value head (`value.rs`) in a
//! thread's [`Workspace`] (`workspace.rs`), and the [`HnetEvaluator`] (`evaluator.rs`) that
//! reads positions in one of the board's symmetries (`symmetry.rs`). The arithmetic is the
//! format-free kernels' ([`crate::net::kernels`]).

mod error;
mod evaluator;
pub mod features;
mod format;
mod forward;
mod model;
mod planes;
mod random;
mod value;
mod weights;
mod workspace;
mod writer;

pub use error::NetError;
pub use evaluator::HnetEvaluator;
pub use format::{MAX_BLOCKS, MAX_CHANNELS, MAX_VALUE_CHANNELS, MAX_VALUE_HIDDEN};
pub use forward::SIZES;
pub use model::Model;
pub use planes::{input_planes, INPUT_PLANES, PLANES};
pub use value::{ValueOutput, SCORE_SCALE};
pub use weights::{Block, Layer, ValueWeights, Weights};
pub use workspace::Workspace;

/// The network hoshi ships with, built into the binary so that `cargo install` gives one
/// self-contained file (`weights/policy.hnet`).
const EMBEDDED: &[u8] = include_bytes!("../../../weights/policy.hnet");

/// The value networks built in beside it, each for the one board it learnt
/// (`weights/value-9x9.hnet`, `weights/value-13x13.hnet`: docs/policy-net.md).
const EMBEDDED_VALUE_NETWORKS: [(usize, &[u8]); 2] = [
    (9, include_bytes!("../../../weights/value-9x9.hnet")),
    (13, include_bytes!("../../../weights/value-13x13.hnet")),
];

/// The embedded network.
pub fn embedded() -> Model {
    // The file is part of the build, and a test reads it.
    Model::from_bytes(EMBEDDED).expect("the embedded network reads")
}

/// The sizes of the boards that have an embedded value network of their own
/// ([`embedded_value_network`]).
pub fn value_network_sizes() -> impl Iterator<Item = usize> {
    EMBEDDED_VALUE_NETWORKS.iter().map(|&(size, _)| size)
}

/// The embedded value network of `size`×`size` boards, if there is one.
pub fn embedded_value_network(size: usize) -> Option<Model> {
    let (_, bytes) = EMBEDDED_VALUE_NETWORKS.iter().find(|&&(s, _)| s == size)?;
    // The files are part of the build, and a test reads them.
    Some(Model::from_bytes(bytes).expect("an embedded value network reads"))
}

/// Whether `bytes` begin as a `.hnet` file does (its magic, `HOSHINET`): how the setup
/// tells the format by a file's content.
pub fn recognises(bytes: &[u8]) -> bool {
    bytes.starts_with(format::MAGIC)
}

#[cfg(test)]
mod tests;
