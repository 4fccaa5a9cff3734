//! Where the search meets Go knowledge: two small interfaces, the way Pachi's prior sources
//! (`uct/prior.c`) and KataGo's `NNEvaluator` meet its search, and the knowledge hoshi
//! plays with behind them.
//!
//! * A [`PriorSource`] gives the moves of a position virtual games before the search has
//!   tried them (progressive bias): the hand-made priors ([`priors`], [`patterns`]) and the
//!   network's ([`network::NetworkPrior`]), each with its own named weights in
//!   [`KnowledgeParams`].
//! * A [`LeafEvaluator`] says who is winning at a leaf of the tree: the playouts
//!   ([`playout`]), the network's value, score and ownership ([`network::NetworkValue`]) or
//!   a mix of the playouts and the value ([`standard::Mix`]).
//!
//! The search sees only these traits and a [`Knowledge`], the factory it is given, which
//! makes one set of them for each search thread ([`ThreadKnowledge`]): it never knows which
//! network or playout policy stands behind them, and its tests run with fakes. The player
//! makes the [`standard::Standard`] knowledge from its settings and hands it to the search,
//! as KataGo's setup makes its evaluators and hands them to `Search`. Networks are reached
//! through `net`'s one interface, whatever their heads or file format.

pub mod network;
pub mod ownership;
pub mod params;
pub mod patterns;
pub mod playout;
pub mod priors;
pub mod standard;

pub use params::{KnowledgeParams, NetPrior, NetValue, PriorWeights};
pub use standard::{NetRole, Standard};

use crate::board::Board;
use crate::coord::{Color, Move};
use crate::game::{Played, Position, Terms};
use ownership::OwnershipMap;
use playout::{Forbidden, MoveRecord};

/// Virtual games for one move: `wins` of `games` (progressive bias).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prior {
    pub wins: f64,
    pub games: f64,
}

/// When a [`PriorSource`] is asked about a node's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// When the node gets its children (cheap knowledge, asked of every node).
    AtExpansion,
    /// Once the node has had this many simulations (and the root at once): costly knowledge
    /// spent where the search has shown it matters. A node is asked once, by the thread
    /// that gets there first, of every late source together at the smallest of their counts.
    After(u32),
}

/// A source of prior knowledge about the moves of a position.
pub trait PriorSource: Send {
    fn timing(&self) -> Timing;

    /// Adds this source's virtual games for each of `moves` (the children of `position`) to
    /// `priors`, index by index. `komi` is what Black's area lead must exceed, as the search
    /// counts it (a source that judges the position judges it by that).
    fn add_priors(
        &mut self,
        position: &Position<'_>,
        komi: f64,
        moves: &[Move],
        priors: &mut [Prior],
    );

    /// The move probabilities behind the last [`PriorSource::add_priors`], by vertex
    /// ([`crate::coord::Geometry::vertex_index`]), if the source is a policy: what analysis
    /// shows as a root move's prior, and what PUCT selection weighs a child's exploration by.
    fn policy(&self) -> Option<&[f32]> {
        None
    }

    /// The probability of passing behind the last [`PriorSource::add_priors`], if the
    /// source is a policy that rates the pass (a network with a pass output): then it is the
    /// pass's policy in the tree, as in Leela Zero and KataGo; otherwise the pass gets none
    /// and the hand-made priors' share ([`PriorWeights::pass_value`]).
    fn pass_policy(&self) -> Option<f32> {
        None
    }

    /// Virtual games for the position itself behind the last [`PriorSource::add_priors`],
    /// its `wins` for the side to move: a source that judges the position as well as its
    /// moves (a network's value) gives the node a prior on its own win rate. None by default.
    fn position_prior(&self) -> Prior {
        Prior::default()
    }
}

/// A leaf of the tree, handed to a [`LeafEvaluator`].
pub struct Leaf<'a> {
    /// The leaf's position. The evaluator may play on it (the playouts play it out); the
    /// search sets it again before the next simulation.
    pub board: &'a mut Board,
    pub to_move: Color,
    /// The moves from the search's root to the leaf, in order (the last one the
    /// opponent's of `to_move`, each before it by the other colour).
    pub line: &'a [Move],
    /// The moves before the search's root, the most recent first.
    pub before_root: &'a [Played],
    /// The boards before the leaf, the most recent first: as many as the knowledge reads
    /// ([`Knowledge::earlier_boards`]), none by default.
    pub earlier: &'a [Board],
    /// The game's rules, komi and handicap.
    pub terms: Terms,
    /// What Black's area lead must exceed: by the real komi (komi and handicap bonus), and
    /// as the tree counts (with dynamic komi's shift).
    pub komi: f64,
    pub search_komi: f64,
    /// Where playouts must not play (the dead-stone judge's searches).
    pub forbidden: &'a Forbidden,
    /// Stones the evaluator played, in order, for the AMAF statistics (empty for one that
    /// plays none).
    pub moves: &'a mut MoveRecord,
    /// The thread's ownership and score sums: an evaluator that knows who owns what at the
    /// end adds it here ([`OwnershipMap::record`] a final board, [`OwnershipMap::record_judgement`]
    /// a judgement).
    pub tally: &'a mut OwnershipMap,
}

impl Leaf<'_> {
    /// The `n` moves before the leaf with their colours, the most recent first.
    pub fn recent(&self, n: usize) -> impl Iterator<Item = Played> + '_ {
        let colors = [self.to_move.opponent(), self.to_move];
        let line = (self.line.iter().rev().enumerate()).map(move |(i, &mv)| Played {
            color: colors[i % 2],
            mv,
        });
        line.chain(self.before_root.iter().copied()).take(n)
    }

    /// The last move before the leaf (a pass if none).
    pub fn last(&self) -> Move {
        match self.line.last() {
            Some(&mv) => mv,
            None => self.before_root.first().map_or(Move::Pass, |p| p.mv),
        }
    }
}

/// What a [`LeafEvaluator`] says of a leaf.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Black's chances of winning by the search's komi, from 0 to 1 (a playout's 0, ½ or 1;
    /// a network's probability): what the tree counts.
    pub black_search: f64,
    /// Black's chances by the real komi: what the search reports.
    pub black_real: f64,
    /// Black's expected final margin, the real komi included, when the evaluator knows one.
    pub black_margin: Option<f64>,
    /// How far the final margin may stray from that (a standard deviation), when the
    /// evaluator knows (a network's score head: KataGo's); a counted board's is 0.
    pub margin_stdev: Option<f64>,
}

impl Evaluation {
    /// The evaluation of a finished board whose area count gives Black `lead` points: won,
    /// drawn or lost outright. Its ownership goes to `tally`.
    pub fn counted(
        board: &Board,
        lead: i32,
        leaf_komi: (f64, f64),
        tally: &mut OwnershipMap,
    ) -> Self {
        let (komi, search_komi) = leaf_komi;
        let margin = f64::from(lead) - komi;
        tally.record(board, margin);
        Evaluation {
            black_search: outcome(f64::from(lead) - search_komi),
            black_real: outcome(margin),
            black_margin: Some(margin),
            margin_stdev: None,
        }
    }
}

/// 1 for a win by `margin` points, ½ for a draw, 0 for a loss.
pub fn outcome(margin: f64) -> f64 {
    match margin.partial_cmp(&0.0) {
        Some(std::cmp::Ordering::Greater) => 1.0,
        Some(std::cmp::Ordering::Less) => 0.0,
        _ => 0.5,
    }
}

/// Judges the leaves of one search thread.
pub trait LeafEvaluator: Send {
    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation;

    /// Readies the evaluator for a search from `root`, whose leaves are counted by
    /// `search_komi`: one whose judgement depends on the root (a score utility centred on
    /// the root's lead) takes it here. Nothing by default.
    fn begin(&mut self, _root: &Position<'_>, _search_komi: f64) {}

    /// Whether the evaluator always says the same of the same leaf (a network, unlike a
    /// playout): a second evaluation would add no evidence, only false confidence, so
    /// the search expands such a leaf at its second visit, as Leela Zero and KataGo do.
    fn is_deterministic(&self) -> bool {
        false
    }
}

/// One search thread's knowledge.
pub struct ThreadKnowledge {
    pub priors: Vec<Box<dyn PriorSource>>,
    pub leaf: Box<dyn LeafEvaluator>,
}

/// What the search is given: it makes each thread's knowledge.
pub trait Knowledge: Send + Sync {
    /// The knowledge of a thread searching boards of `size`, with `seed` for whatever it
    /// draws at random.
    fn for_thread(&self, size: usize, seed: u64) -> ThreadKnowledge;

    /// How many moves before a position its sources read ([`Position::recent`]): the search
    /// keeps that many. Two by default, the last two moves the hand-made priors answer.
    fn history(&self) -> usize {
        2
    }

    /// How many boards before a position its sources read ([`Position::earlier`]): the
    /// search rebuilds that many for each position it asks about. None by default.
    fn earlier_boards(&self) -> usize {
        0
    }
}
