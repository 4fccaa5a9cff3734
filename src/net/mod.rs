//! The learned move predictor: a small residual convolutional network trained on strong
//! players' games (see `docs/policy-net.md`, the contract between this module, `hoshi dataset`
//! and the training code in `train/`). [`features`] turns a position into one byte a point;
//! [`model`] reads the weights and turns those bytes into one logit a point.

mod conv;
pub mod features;
pub mod model;
