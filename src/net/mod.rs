//! The learned move predictor and evaluator: a small residual convolutional network trained
//! on strong players' games (see `docs/policy-net.md`, the contract between this module,
//! `hoshi dataset` and the training code in `train/`). [`features`] turns a position into one
//! byte a point; [`model`] reads the weights and turns those bytes into one logit a point and,
//! when the network has a value head, the side to move's probability of winning; an
//! [`Evaluator`] does both for one thread, with buffers it keeps.

pub mod cache;
mod conv;
pub mod features;
pub mod model;

use crate::board::Board;
use crate::coord::{Color, Move};
use cache::Cache;
pub use model::{NetError, PolicyNet, Workspace};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The network hoshi ships with, built into the binary so that `cargo install` gives one
/// self-contained file (`weights/policy.hnet`; docs/policy-net.md says how it was trained).
const EMBEDDED: &[u8] = include_bytes!("../../weights/policy.hnet");

/// A network shared by the threads and searches that use it. A network is loaded once per
/// process (the embedded one, or `--policy-net FILE` at start) and lives as long as the
/// process, so a handle is a plain reference that settings can copy. Two handles are equal
/// when they hold the same network, which is what a change of settings needs to know.
#[derive(Clone, Copy)]
pub struct SharedNet(&'static PolicyNet);

impl SharedNet {
    /// Keeps `net` for the rest of the process. Call it once per network read, not per use.
    pub fn new(net: PolicyNet) -> SharedNet {
        SharedNet(Box::leak(Box::new(net)))
    }

    /// The embedded network, read once per process.
    pub fn embedded() -> SharedNet {
        static NET: OnceLock<SharedNet> = OnceLock::new();
        *NET.get_or_init(|| {
            // The file is part of the build, and a test reads it.
            SharedNet::new(PolicyNet::from_bytes(EMBEDDED).expect("the embedded network reads"))
        })
    }

    pub fn net(&self) -> &'static PolicyNet {
        self.0
    }

    /// Whether the network has a value head ([`Evaluator::evaluate`] then gives a value).
    pub fn has_value(&self) -> bool {
        self.0.has_value()
    }
}

impl PartialEq for SharedNet {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl fmt::Debug for SharedNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "policy network ({} blocks x {} channels",
            self.0.blocks(),
            self.0.channels()
        )?;
        match self.0.value_sizes() {
            Some((v, h)) => write!(f, ", value head {v} x {h})"),
            None => write!(f, ")"),
        }
    }
}

/// One thread's means of asking the network about positions: the input bytes, the logits
/// and the forward pass's workspace, allocated once and reused by every evaluation.
pub struct Evaluator {
    net: SharedNet,
    workspace: Workspace,
    input: Vec<u8>,
    logits: Vec<f32>,
    /// Evaluations kept by position, shared with other evaluators ([`Evaluator::with_cache`]).
    cache: Option<Arc<Cache>>,
}

impl Evaluator {
    pub fn new(net: &SharedNet, max_size: usize) -> Evaluator {
        Evaluator {
            workspace: net.net().workspace(max_size, 1),
            net: *net,
            input: Vec::with_capacity(max_size * max_size),
            logits: Vec::with_capacity(max_size * max_size),
            cache: None,
        }
    }

    /// The evaluator, answering from `cache` what it holds and keeping there what it
    /// computes ([`Evaluator::evaluate_at`]).
    pub fn with_cache(mut self, cache: Arc<Cache>) -> Evaluator {
        self.cache = Some(cache);
        self
    }

    /// [`Evaluator::evaluate`] for several komis at once (`komis`: Black's area komi each),
    /// their values into `values` (one each) when the network has a value head, which it
    /// returns; one forward pass for all, or none when the cache has every one.
    ///
    /// # Panics
    /// If `values` is shorter than `komis`.
    pub fn evaluate_at(
        &mut self,
        board: &Board,
        color: Color,
        recent: &[Move],
        komis: &[f64],
        policy_out: &mut [f32],
        values: &mut [f32],
    ) -> bool {
        let net = self.net.net();
        let has_value = net.has_value();
        // A network without a value head answers the same whatever the komi.
        let mover_komi = |komi: f64| match (has_value, color) {
            (false, _) => 0.0,
            (true, Color::White) => komi as f32,
            (true, Color::Black) => -komi as f32,
        };
        self.encode(board, color, recent);
        if let Some(cache) = &self.cache {
            let mut hits = 0;
            for (&komi, value) in komis.iter().zip(values.iter_mut()) {
                match cache.get(Cache::key(&self.input, mover_komi(komi)), policy_out) {
                    Some(found) => {
                        *value = found.unwrap_or(0.5);
                        hits += 1;
                    }
                    None => break,
                }
            }
            if hits == komis.len() && hits > 0 {
                return has_value;
            }
        }
        let size = board.size();
        if has_value {
            let first = komis.first().map_or(0.0, |&k| mover_komi(k));
            let mut value = [0.0];
            let inputs = [self.input.as_slice()];
            net.forward_value(
                size,
                &inputs,
                &[first],
                &mut self.workspace,
                &mut self.logits,
                &mut value,
            );
            if let Some(slot) = values.first_mut() {
                *slot = value[0];
            }
            for (&komi, value) in komis.iter().zip(values.iter_mut()).skip(1) {
                *value = net.value_again(size, &mut self.workspace, mover_komi(komi));
            }
        } else {
            net.forward(size, &[&self.input], &mut self.workspace, &mut self.logits);
        }
        self.softmax(policy_out);
        if let Some(cache) = &self.cache {
            for (&komi, &value) in komis.iter().zip(values.iter()) {
                let key = Cache::key(&self.input, mover_komi(komi));
                cache.put(key, policy_out, has_value.then_some(value));
            }
        }
        has_value
    }

    /// The network's probability of each point (in its order: `row * size + col`) for
    /// `color` to play on `board`, into `out` (`size²` values), with `recent` the moves before
    /// this position, the most recent first. Points the side to move may not play get 0;
    /// returns false, with every probability 0, when there is no such point.
    pub fn policy(
        &mut self,
        board: &Board,
        color: Color,
        recent: &[Move],
        out: &mut [f32],
    ) -> bool {
        self.encode(board, color, recent);
        let net = self.net.net();
        net.forward(
            board.size(),
            &[&self.input],
            &mut self.workspace,
            &mut self.logits,
        );
        self.softmax(out)
    }

    /// [`Evaluator::policy`] into `policy_out` (all 0 when the side to move has no point to
    /// play), and, when the network has a value head, the probability that `color` wins,
    /// `komi` being Black's area komi (what Black's area lead must exceed). One forward pass
    /// gives both, at the cost of the policy alone and the value head's (a few percent).
    pub fn evaluate(
        &mut self,
        board: &Board,
        color: Color,
        recent: &[Move],
        komi: f64,
        policy_out: &mut [f32],
    ) -> Option<f32> {
        let net = self.net.net();
        if !net.has_value() {
            self.policy(board, color, recent, policy_out);
            return None;
        }
        self.encode(board, color, recent);
        let mover_komi = if color == Color::White { komi } else { -komi };
        let mut value = [0.0];
        net.forward_value(
            board.size(),
            &[&self.input],
            &[mover_komi as f32],
            &mut self.workspace,
            &mut self.logits,
            &mut value,
        );
        self.softmax(policy_out);
        Some(value[0])
    }

    /// The input bytes of the position, sized for its board, and room for its logits.
    fn encode(&mut self, board: &Board, color: Color, recent: &[Move]) {
        let area = board.size() * board.size();
        self.input.resize(area, 0);
        self.logits.resize(area, 0.0);
        features::encode(board, color, recent, &mut self.input);
    }

    /// The probabilities of the playable points from the last logits.
    fn softmax(&self, out: &mut [f32]) -> bool {
        let input = &self.input;
        model::softmax_over(&self.logits, |i| features::is_playable(input[i]), out)
    }
}
