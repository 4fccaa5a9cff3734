//! The arithmetic any network format runs on, whatever its file: the 3×3 convolution by
//! Winograd's transform (`conv.rs`, nearly all of the time of a forward pass) over the
//! register-blocked matrix product (`gemm.rs`, also the 1×1 convolutions and transformers'), the heads'
//! products and softmax ([`linalg`]) and the pooling over the board (`pool.rs`). Each format
//! lays its weights out for them once, when it loads.

pub(crate) mod conv;
pub mod flush;
pub(crate) mod gemm;
pub mod linalg;
pub(crate) mod pool;
