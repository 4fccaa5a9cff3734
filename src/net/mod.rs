//! The learned move predictor: a small residual convolutional network trained on strong
//! players' games (see `docs/policy-net.md`, the contract between this module, `hoshi dataset`
//! and the training code in `train/`). [`features`] turns a position into one byte a point;
//! [`model`] reads the weights and turns those bytes into one logit a point; an
//! [`Evaluator`] does both for one thread, with buffers it keeps.

mod conv;
pub mod features;
pub mod model;

use crate::board::Board;
use crate::coord::{Color, Move};
pub use model::{NetError, PolicyNet, Workspace};
use std::fmt;
use std::sync::OnceLock;

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
            "policy network ({} blocks x {} channels)",
            self.0.blocks(),
            self.0.channels()
        )
    }
}

/// One thread's means of asking the network about positions: the input bytes, the logits
/// and the forward pass's workspace, allocated once and reused by every evaluation.
pub struct Evaluator {
    net: SharedNet,
    workspace: Workspace,
    input: Vec<u8>,
    logits: Vec<f32>,
}

impl Evaluator {
    pub fn new(net: &SharedNet, max_size: usize) -> Evaluator {
        Evaluator {
            workspace: net.net().workspace(max_size, 1),
            net: *net,
            input: Vec::with_capacity(max_size * max_size),
            logits: Vec::with_capacity(max_size * max_size),
        }
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
        let area = board.size() * board.size();
        self.input.resize(area, 0);
        self.logits.resize(area, 0.0);
        features::encode(board, color, recent, &mut self.input);
        let net = self.net.net();
        net.forward(
            board.size(),
            &[&self.input],
            &mut self.workspace,
            &mut self.logits,
        );
        let input = &self.input;
        model::softmax_over(&self.logits, |i| features::is_playable(input[i]), out)
    }
}
