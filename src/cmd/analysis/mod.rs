//! `hoshi analysis`: KataGo's JSON analysis protocol (`docs/Analysis_Engine.md` of
//! lightvector/KataGo, MIT licence, copyright David J. Wu), which KaTrain and the review
//! tools speak: a query a line on stdin, an answer a line on stdout. [`query`] reads a line
//! into a query or an action, every field checked.

pub mod query;

#[cfg(test)]
mod tests;
