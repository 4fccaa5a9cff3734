//! The arithmetic any network format runs on, whatever its file: the 3×3 convolution by
//! Winograd's transform (`conv.rs`, nearly all of the time of a forward pass), the heads'
//! products and softmax ([`linalg`]) and the pooling over the board (`pool.rs`). Each format
//! lays its weights out for them once, when it loads.

pub(crate) mod conv;
pub mod flush;
pub mod linalg;
pub(crate) mod pool;
