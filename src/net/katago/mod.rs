//! KataGo's networks (`.bin.gz`, `.bin`, `.txt.gz` model files, versions 8 to 17), read and
//! run in pure Rust. The file format, the layers and the versions are KataGo's
//! (lightvector/KataGo, MIT licence, copyright David J. Wu): `cpp/neuralnet/desc.cpp` and
//! `modelversion.cpp` describe them, `python/export_model_pytorch.py` writes them; the
//! inputs are `NNInputs::fillRowV7`'s. This folder is hoshi's own reading of them.
//!
//! | file | what |
//! |---|---|
//! | [`file`] | gzip, tokens and blocks of floats: the file's lowest layer |
//! | [`model`] | the layers and blocks as the file describes them, checked as read |
//! | [`forward`] | the forward pass on the padded grid |
//! | [`transformer`] | the transformer blocks: attention and feed-forward over the board |
//! | [`network`] | the network behind hoshi's interface: symmetries, post-processing |
//! | [`inputs`] | the 22 spatial and 19 global input features of a position |
//! | [`ladders`] | KataGo's ladder search, as its ladder features read it |
//! | [`metadata`] | the human-imitating networks' game metadata, by KataGo's profiles |
//! | `writer` | (tests) model files written: the reader's inverse, random models |

pub mod file;
pub mod forward;
pub mod inputs;
pub mod ladders;
pub mod metadata;
pub mod model;
pub mod network;
pub mod transformer;
#[cfg(test)]
pub(crate) mod writer;

pub use file::recognises;
pub use network::KataNetwork;

/// KataGo's g170 b6c96 network (model version 8, 6 blocks of 96 channels, from KataGo's
/// repository under its MIT licence, copyright David J. Wu: `weights/LICENSE-KataGo`),
/// built into the binary as expert's network: it beat each of hoshi's own networks on its
/// board at 1 s a move (docs/benchmarks.md).
pub const EMBEDDED: &[u8] = include_bytes!("../../../weights/g170-b6c96.bin.gz");

/// The embedded network, read.
pub fn embedded() -> KataNetwork {
    // The file is part of the build, and a test reads it.
    KataNetwork::from_bytes(EMBEDDED).expect("the embedded KataGo network reads")
}
