//! Learned judgement of positions behind one interface, the way KataGo's `NNEvaluator`
//! returns an `NNOutput`: a [`Network`] makes an [`Evaluator`] per thread, which returns one
//! [`Output`] for a [`Position`] (its moves' probabilities by vertex and the pass's, and,
//! where the network has the heads, the side to move's winning chances, score lead and
//! ownership). What uses a network (the knowledge layer, `hoshi-policy`, the dead-stone
//! judge) sees only this; [`cache`] keeps whole outputs for any network (Leela Zero's
//! `NNCache`), [`kernels`] the arithmetic any format may use.
//!
//! Each file format lives in a folder of its own, with its reader, its features and its
//! forward pass; nothing here names one. The setup (`crate::setup`) tells a file's format by
//! its content and hands the network on as a [`SharedNet`].

pub mod cache;
#[cfg(test)]
pub(crate) mod contract;
pub mod hnet;
pub mod katago;
pub mod kernels;
pub mod symmetry;

pub use symmetry::Symmetry;

use crate::game::{Game, Position, PositionFacts};
use std::fmt;
use std::sync::Arc;

/// What a network said of a position, for the side to move. Maps over the board are in
/// vertex order ([`crate::coord::Geometry::vertex_index`]: row by row from A1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    /// The probability of a move on each vertex, 0 where the side to move may not play;
    /// with [`Output::pass`] they add up to 1 (to 0 when nothing at all may be played).
    pub policy: Vec<f32>,
    /// The probability of passing, where the network rates the pass (KataGo's networks
    /// do; `.hnet` does not: `None`, and its policy sums to 1 alone).
    pub pass: Option<f32>,
    /// The side to move's chances of winning, from 0 to 1, by the komi asked.
    pub value: Option<f32>,
    /// The points by which the side to move is expected to lead at the end, counted by
    /// area with the komi asked (negative: behind).
    pub score_lead: Option<f32>,
    /// Who owns each vertex at the end, from -1 (the opponent) to +1 (the side to move).
    pub ownership: Option<Vec<f32>>,
    /// How far the final score may stray from the expected one (one standard deviation,
    /// in points), where the network says.
    pub score_stdev: Option<f32>,
    /// The value head's other outputs, where the network has them (KataGo's).
    pub details: Option<ValueDetails>,
}

/// What KataGo's value head says beside the winning chances and the lead, for the side to
/// move: what `kata-raw-nn` prints and the analysis tools read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ValueDetails {
    /// The chances of a win, a loss and a game without result (a long cycle under simple
    /// ko), adding up to 1.
    pub win: f32,
    pub loss: f32,
    pub no_result: f32,
    /// The expected final score as the network's self-play games ended (KataGo's
    /// "selfplay" score: the lead a strong player would keep, not the points on the board).
    pub score_mean: f32,
    /// The expected square of that score (mean² + stdev²).
    pub score_mean_square: f32,
    /// How many moves the game has left, by the variance they bring.
    pub var_time_left: f32,
    /// The errors the network expects of its own value and score in a few moves' time.
    pub shortterm_winloss_error: f32,
    pub shortterm_score_error: f32,
}

/// The heads a network has beside its policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heads {
    pub value: bool,
    pub score_lead: bool,
    pub ownership: bool,
    /// The final score's spread ([`Output::score_stdev`]): KataGo's networks have it, and
    /// the search weighs their score as KataGo does (`setup::Tuning::settled`).
    pub score_stdev: bool,
}

/// A network: made once, shared by every thread through [`SharedNet`].
pub trait Network: Send + Sync {
    /// The network in a few words, for the log and `hoshi --help`'s users.
    fn describe(&self) -> String;

    /// The outputs it has beside the policy.
    fn heads(&self) -> Heads;

    /// How many moves before a position it reads (its history planes): the caller passes
    /// at least these in [`Position::recent`], and the cache keys by them.
    fn history(&self) -> usize;

    /// How many boards before a position it reads ([`Position::earlier`]: KataGo's ladder
    /// features read the boards one and two moves back); none by default.
    fn earlier_boards(&self) -> usize {
        0
    }

    /// An evaluator for one thread, for boards up to `max_size` (a larger one later makes
    /// its buffers grow once).
    fn evaluator(&'static self, max_size: usize) -> Box<dyn Evaluator>;
}

/// One thread's means of asking a network about positions, with the buffers it keeps.
pub trait Evaluator: Send {
    /// The network's judgement of `position` for each of `komis` (Black's area komi: what
    /// Black's area lead must exceed), in order, into `outputs` (emptied first; one output
    /// a komi). A network whose komi enters only its last layers runs its trunk once for
    /// all of them: a search counting with two komis (dynamic komi's and the real one) pays
    /// one evaluation.
    fn evaluate(&mut self, position: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>);

    /// From now on, read each position in one of the board's eight symmetries, chosen by
    /// the position (Leela Zero's and KataGo's random symmetry): a network's errors differ
    /// between the eight readings, so varying them keeps one misjudged shape from skewing
    /// every position it appears in. A position is always read alike, so searches stay
    /// repeatable. A network without symmetric readings keeps reading positions as they
    /// stand.
    fn vary_symmetry(&mut self) {}

    /// From now on, read every position in `symmetry` and turn the maps back onto the board
    /// (KataGo's `kata-raw-nn SYMMETRY`, the contract tests of every format). `false`, and
    /// nothing changed, for a network that reads positions only as they stand.
    fn read_in(&mut self, _symmetry: Symmetry) -> bool {
        false
    }

    /// From now on, mix into the policy the network's optimistic one by `optimism`, from 0
    /// (the plain policy) to 1 (the optimistic alone): KataGo's networks from version 12
    /// have a second policy, trained on the moves that turned out better than expected,
    /// which KataGo's search mixes in (its `policyOptimism`, `rootPolicyOptimism`). `false`,
    /// and nothing changed, for a network without one.
    fn set_policy_optimism(&mut self, _optimism: f32) -> bool {
        false
    }

    /// [`Evaluator::evaluate`] by one komi.
    fn evaluate_one(&mut self, position: &Position<'_>, komi: f64) -> Arc<Output> {
        let mut outputs = Vec::with_capacity(1);
        self.evaluate(position, &[komi], &mut outputs);
        outputs.swap_remove(0)
    }
}

/// A network shared by the threads and searches that use it. A network is loaded once per
/// process (the embedded one, or `--net FILE` at start) and lives as long as the process,
/// so a handle is a plain reference that settings can copy. Two handles are equal when they
/// hold the same network, which is what a change of settings needs to know.
#[derive(Clone, Copy)]
pub struct SharedNet(&'static dyn Network);

impl SharedNet {
    /// Keeps `net` for the rest of the process. Call it once per network read, not per use.
    pub fn new(net: impl Network + 'static) -> SharedNet {
        SharedNet(Box::leak(Box::new(net)))
    }

    pub fn network(&self) -> &'static dyn Network {
        self.0
    }

    pub fn heads(&self) -> Heads {
        self.0.heads()
    }

    /// A new evaluator for one thread ([`Network::evaluator`]).
    pub fn evaluator(&self, max_size: usize) -> Box<dyn Evaluator> {
        self.0.evaluator(max_size)
    }

    /// What the network says of `game`'s position as it stands, its last moves read as
    /// history, by the game's area komi (komi and handicap bonus): one evaluation with an
    /// evaluator of its own, for a question asked once (`hoshi-evaluate`, the dead-stone
    /// judge), not for the search.
    pub fn evaluate_game(&self, game: &Game) -> Arc<Output> {
        let net = self.0;
        let facts = PositionFacts::of(game, game.to_move(), net.history(), net.earlier_boards());
        let position = facts.position(game.board(), game.to_move());
        self.evaluator(game.size())
            .evaluate_one(&position, game.area_komi())
    }
}

impl PartialEq for SharedNet {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::addr_eq(self.0, other.0)
    }
}

impl fmt::Debug for SharedNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.describe())
    }
}
