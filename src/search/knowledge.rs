//! Where the search meets Go knowledge: two small interfaces, the way Pachi's prior sources
//! (`uct/prior.c`) and KataGo's `NNEvaluator` meet its search.
//!
//! * A [`PriorSource`] gives the moves of a position virtual games before the search has
//!   tried them (progressive bias): the hand-made priors ([`HandMade`]) and the policy
//!   network's ([`NetworkPrior`]), each with its own named weights in [`Params`].
//! * A [`LeafEvaluator`] says who is winning at a leaf of the tree: the playouts
//!   ([`Playouts`]), the network's value ([`NetworkValue`]) or a mix of the two ([`Mix`]).
//!
//! The search sees only these traits and a [`Knowledge`], the factory it is given, which
//! makes one set of them for each search thread ([`ThreadKnowledge`]): the search never
//! knows which network or playout policy stands behind them, and its tests run with fakes.
//! [`Standard`] is the knowledge [`super::SearchConfig`] describes.

use super::ownership::OwnershipMap;
use super::params::{NetPrior, Params, PriorWeights};
use super::playout::{self, Forbidden, MoveRecord};
use super::priors::Priors;
use crate::board::Board;
use crate::coord::{Color, Move};
use crate::net::cache::Cache;
use crate::net::{features, Evaluator, SharedNet};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::Arc;

/// A position the search asks about.
#[derive(Clone, Copy)]
pub struct Position<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    /// The moves before the position, the most recent first ([`features::HISTORY`] of them,
    /// fewer at the start of a game): what the network sees, and the last two moves the
    /// hand-made priors answer.
    pub recent: &'a [Move],
    /// What Black's area lead must exceed to win (komi and handicap bonus), as the search
    /// counts it.
    pub komi: f64,
}

impl Position<'_> {
    /// The `n`th move before the position (1 the last), a pass if there is none.
    pub fn nth_last(&self, n: usize) -> Move {
        n.checked_sub(1)
            .and_then(|i| self.recent.get(i).copied())
            .unwrap_or(Move::Pass)
    }
}

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
    /// `priors`, index by index.
    fn add_priors(&mut self, position: &Position<'_>, moves: &[Move], priors: &mut [Prior]);

    /// The move probabilities behind the last [`PriorSource::add_priors`], by the network's
    /// point index ([`features::point_index`]), if the source is a policy: what analysis
    /// shows as a root move's prior, and what PUCT selection weighs a child's exploration
    /// by ([`super::params::Puct`]).
    fn policy(&self) -> Option<&[f32]> {
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
    /// The moves from the search's root to the leaf, in order.
    pub line: &'a [Move],
    /// The moves before the search's root, the most recent first.
    pub before_root: &'a [Move],
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
    /// end adds it here ([`OwnershipMap::record`]).
    pub tally: &'a mut OwnershipMap,
}

impl Leaf<'_> {
    /// The `n` moves before the leaf, the most recent first.
    pub fn recent(&self, n: usize) -> impl Iterator<Item = Move> + '_ {
        let line = self.line.iter().rev().copied();
        line.chain(self.before_root.iter().copied()).take(n)
    }

    /// The last move before the leaf (a pass if none).
    pub fn last(&self) -> Move {
        self.recent(1).next().unwrap_or(Move::Pass)
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
}

/// The knowledge of the search as it plays: the hand-made priors (or the even prior alone),
/// the network's prior where it plays (its policy alone under PUCT selection), and the
/// playouts, the network's value or their mix ([`super::params::NetValue`]) at the leaves.
/// Its threads share one cache of network evaluations, which lives as long as this
/// knowledge (the search keeps it from move to move).
pub struct Standard {
    params: Params,
    /// The hand-made priors; without them every move starts with the even prior alone (and
    /// the network is not asked either).
    priors: bool,
    net: Option<SharedNet>,
    cache: Option<Arc<Cache>>,
}

impl Standard {
    pub fn new(params: Params, priors: bool, net: Option<SharedNet>) -> Standard {
        let cache = net.map(|_| Arc::new(Cache::new(params.value.cache)));
        Standard {
            params,
            priors,
            net,
            cache,
        }
    }

    /// The network, if it plays on boards of `size`.
    fn net_for(&self, size: usize) -> Option<SharedNet> {
        self.net
            .filter(|_| self.priors && size >= self.params.net.min_size)
    }

    /// An evaluator of `net` for boards of `size`, sharing the knowledge's cache.
    fn evaluator(&self, net: SharedNet, size: usize) -> Evaluator {
        let evaluator = Evaluator::new(&net, size);
        match &self.cache {
            Some(cache) => evaluator.with_cache(Arc::clone(cache)),
            None => evaluator,
        }
    }
}

impl Knowledge for Standard {
    fn for_thread(&self, size: usize, seed: u64) -> ThreadKnowledge {
        let playouts = Playouts::new(&self.params, seed);
        let net = self.net_for(size);
        let value = net.filter(|n| n.has_value() && self.params.value.mix > 0.0);
        // PUCT steers by the policy alone, which every node needs from its expansion on.
        let puct = net.is_some() && self.params.puct.enabled;
        let mut priors: Vec<Box<dyn PriorSource>> = Vec::new();
        if !puct {
            priors.push(Box::new(HandMade {
                weights: self.params.priors,
                enabled: self.priors,
            }));
        }
        if let Some(net) = net {
            // A network that judges the leaves has evaluated a node's position before it
            // expands: its policy is in the cache, and comes at once.
            let timing = if value.is_some() || puct {
                Timing::AtExpansion
            } else {
                Timing::After(self.params.net.after)
            };
            let mut weights = self.params.net;
            if puct {
                weights.games = 0.0;
            }
            let evaluator = self.evaluator(net, size);
            priors.push(Box::new(NetworkPrior::new(evaluator, timing, weights)));
        }
        let leaf: Box<dyn LeafEvaluator> = match value {
            None => Box::new(playouts),
            Some(net) => {
                let network = NetworkValue::new(self.evaluator(net, size));
                match self.params.value.mix {
                    share if share >= 1.0 => Box::new(network),
                    share => Box::new(Mix {
                        network,
                        playouts,
                        share,
                    }),
                }
            }
        };
        ThreadKnowledge { priors, leaf }
    }
}

/// The hand-made priors ([`Priors`], weights [`PriorWeights`]), or the even prior alone.
pub struct HandMade {
    pub weights: PriorWeights,
    /// Whether the Go knowledge applies: else every move gets the even prior.
    pub enabled: bool,
}

impl PriorSource for HandMade {
    fn timing(&self) -> Timing {
        Timing::AtExpansion
    }

    fn add_priors(&mut self, position: &Position<'_>, moves: &[Move], priors: &mut [Prior]) {
        let w = &self.weights;
        let (board, color) = (position.board, position.to_move);
        let knowledge = self
            .enabled
            .then(|| Priors::new(board, color, position.nth_last(1), position.nth_last(2), w));
        for (&mv, prior) in moves.iter().zip(priors) {
            let (wins, games) = match &knowledge {
                Some(k) => k.of(board, color, mv),
                None => (0.5 * w.even, w.even),
            };
            prior.wins += wins;
            prior.games += games;
        }
    }
}

/// The policy network's prior (Pachi's DCNN prior): a move of probability `p` gets
/// [`NetPrior::games`]`·√p` virtual wins, nothing under [`NetPrior::floor`].
pub struct NetworkPrior {
    evaluator: Evaluator,
    timing: Timing,
    weights: NetPrior,
    probabilities: Vec<f32>,
    /// The side to move's chances in the last position, when the network has a value head.
    value: Option<f32>,
}

impl NetworkPrior {
    pub fn new(evaluator: Evaluator, timing: Timing, weights: NetPrior) -> NetworkPrior {
        NetworkPrior {
            evaluator,
            timing,
            weights,
            probabilities: Vec::new(),
            value: None,
        }
    }
}

impl PriorSource for NetworkPrior {
    fn timing(&self) -> Timing {
        self.timing
    }

    fn add_priors(&mut self, position: &Position<'_>, moves: &[Move], priors: &mut [Prior]) {
        let board = position.board;
        self.probabilities.resize(board.size() * board.size(), 0.0);
        // With the komi the leaves are judged by, so that a leaf's evaluation is the entry.
        let (komi, mut value) = ([position.komi], [0.0]);
        let (color, recent) = (position.to_move, position.recent);
        let probabilities = &mut self.probabilities;
        let has_value =
            self.evaluator
                .evaluate_at(board, color, recent, &komi, probabilities, &mut value);
        self.value = has_value.then_some(value[0]);
        for (&mv, prior) in moves.iter().zip(priors) {
            if let Move::Play(p) = mv {
                let probability = f64::from(self.probabilities[features::point_index(board, p)]);
                if probability >= self.weights.floor && self.weights.games > 0.0 {
                    let games = self.weights.games * probability.sqrt();
                    prior.wins += games;
                    prior.games += games;
                }
            }
        }
    }

    fn policy(&self) -> Option<&[f32]> {
        Some(&self.probabilities)
    }

    fn position_prior(&self) -> Prior {
        let games = self.weights.value_games;
        match self.value {
            Some(value) if games > 0.0 => Prior {
                wins: games * f64::from(value),
                games,
            },
            _ => Prior::default(),
        }
    }
}

/// The playouts ([`playout::play_out`] with [`Params::playout`]): each leaf played out to
/// the end and counted by area.
pub struct Playouts {
    policy: playout::PlayoutPolicy,
    rng: SmallRng,
}

impl Playouts {
    pub fn new(params: &Params, seed: u64) -> Playouts {
        Playouts {
            policy: params.playout,
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl LeafEvaluator for Playouts {
    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation {
        let last = leaf.last();
        let end = playout::play_out(
            leaf.board,
            leaf.to_move,
            last,
            &self.policy,
            leaf.forbidden,
            &mut self.rng,
            leaf.moves,
        );
        Evaluation::counted(
            leaf.board,
            end.black_lead,
            (leaf.komi, leaf.search_komi),
            leaf.tally,
        )
    }
}

/// The network's value at the leaves: its winning chances for the side to move, by both
/// komis (one forward pass; the cache often has it).
pub struct NetworkValue {
    evaluator: Evaluator,
    policy: Vec<f32>,
    recent: Vec<Move>,
}

impl NetworkValue {
    pub fn new(evaluator: Evaluator) -> NetworkValue {
        NetworkValue {
            evaluator,
            policy: Vec::new(),
            recent: Vec::with_capacity(features::HISTORY),
        }
    }
}

impl LeafEvaluator for NetworkValue {
    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation {
        let board = &*leaf.board;
        self.policy.resize(board.size() * board.size(), 0.0);
        self.recent.clear();
        self.recent.extend(leaf.recent(features::HISTORY));
        let both = [leaf.search_komi, leaf.komi];
        let komis = if leaf.search_komi == leaf.komi {
            &both[..1]
        } else {
            &both[..]
        };
        let mut values = [0.5; 2];
        let color = leaf.to_move;
        self.evaluator.evaluate_at(
            board,
            color,
            &self.recent,
            komis,
            &mut self.policy,
            &mut values,
        );
        let real = values[komis.len() - 1];
        let black = |v: f32| match color {
            Color::Black => f64::from(v),
            Color::White => 1.0 - f64::from(v),
        };
        Evaluation {
            black_search: black(values[0]),
            black_real: black(real),
            black_margin: None,
        }
    }

    fn is_deterministic(&self) -> bool {
        true
    }
}

/// The network's value and a playout together (AlphaGo's mix): `share` of the network's,
/// the rest the playout's; the playout's margin, ownership and stones as they are.
pub struct Mix {
    pub network: NetworkValue,
    pub playouts: Playouts,
    pub share: f64,
}

impl LeafEvaluator for Mix {
    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation {
        // The network first: the playout plays on the leaf's board.
        let network = self.network.evaluate(leaf);
        let played = self.playouts.evaluate(leaf);
        let mix = |n: f64, p: f64| self.share * n + (1.0 - self.share) * p;
        Evaluation {
            black_search: mix(network.black_search, played.black_search),
            black_real: mix(network.black_real, played.black_real),
            black_margin: played.black_margin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Evaluator;

    #[test]
    fn the_network_prior_judges_the_position_by_its_value_only_when_asked() {
        let net = SharedNet::embedded();
        let mut board = Board::new(9).expect("a board size");
        let play = |board: &mut Board, color, vertex: &str| {
            let p = board.geometry().parse_point(vertex).expect("a vertex");
            board.place(color, p);
        };
        play(&mut board, Color::Black, "E5");
        play(&mut board, Color::White, "C3");
        let recent = [Move::Pass; 0];
        let position = Position {
            board: &board,
            to_move: Color::Black,
            recent: &recent,
            komi: 7.5,
        };
        let moves: Vec<Move> = board
            .empty_points()
            .iter()
            .map(|&p| Move::Play(p))
            .collect();
        let mut policy = vec![0.0; 81];
        let value = Evaluator::new(&net, 9)
            .evaluate(&board, Color::Black, &recent, 7.5, &mut policy)
            .expect("the embedded network has a value head");
        for games in [0.0, 12.0] {
            let weights = NetPrior {
                value_games: games,
                ..NetPrior::default()
            };
            let evaluator = Evaluator::new(&net, 9);
            let mut source = NetworkPrior::new(evaluator, Timing::After(64), weights);
            let mut priors = vec![Prior::default(); moves.len()];
            source.add_priors(&position, &moves, &mut priors);
            let judged = source.position_prior();
            assert_eq!(judged.games, games);
            assert!((judged.wins - games * f64::from(value)).abs() < 1e-9);
        }
    }
}
