//! The knowledge hoshi plays with: [`Standard`], made from [`KnowledgeParams`] and a
//! network, its two network-free parts, the hand-made priors ([`HandMade`]) and the
//! playouts ([`Playouts`]), and the mix of a playout and the network's value ([`Mix`]).

use super::network::{NetworkPrior, NetworkValue};
use super::params::{KnowledgeParams, PriorWeights};
use super::playout::{self, PlayoutPolicy};
use super::priors::Priors;
use super::{Evaluation, Knowledge, Leaf, LeafEvaluator, Position, Prior, PriorSource};
use super::{ThreadKnowledge, Timing};
use crate::coord::Move;
use crate::net::cache::{Cache, Cached, Reads};
use crate::net::{Evaluator, SharedNet};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::Arc;

/// What a network does in the [`Standard`] knowledge, as the setup settled it from the
/// knobs and the network's heads (`setup::Tuning`): decided there, followed here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetRole {
    pub net: SharedNet,
    /// Whether its policy steers the search alone (PUCT selection): then it gives no
    /// virtual games and the hand-made priors are not asked.
    pub steers: bool,
    /// Its value's share of a leaf's evaluation ([`super::NetValue::mix`]): 0 leaves the
    /// leaves to the playouts, 1 to the network alone.
    pub value_share: f64,
}

/// The knowledge of the search as it plays: the hand-made priors, the network's prior where
/// it plays (its policy alone where it steers), and the playouts, the network's judgement
/// or their mix at the leaves. Its threads share one cache of network outputs, which the
/// setup keeps for as long as the network reads positions alike.
pub struct Standard {
    params: KnowledgeParams,
    net: Option<NetRole>,
    cache: Option<Arc<Cache>>,
}

impl Standard {
    /// The knowledge of `params`, with `net` in its role, its outputs kept in `cache`.
    pub fn new(
        params: KnowledgeParams,
        net: Option<NetRole>,
        cache: Option<Arc<Cache>>,
    ) -> Standard {
        Standard { params, net, cache }
    }

    /// The cache of the network's outputs, if it keeps one.
    pub fn cache(&self) -> Option<Arc<Cache>> {
        self.cache.clone()
    }

    /// An evaluator of `net` for boards of `size`, sharing the knowledge's cache.
    fn evaluator(&self, net: SharedNet, size: usize) -> Box<dyn Evaluator> {
        let mut evaluator = net.evaluator(size);
        if self.params.value.vary_symmetry {
            evaluator.vary_symmetry();
        }
        match &self.cache {
            Some(cache) => {
                let reads = Reads::of(net.network());
                Box::new(Cached::new(evaluator, Arc::clone(cache), reads))
            }
            None => evaluator,
        }
    }
}

impl Default for Standard {
    /// The default tuning, without a network: the hand-made priors and the playouts.
    fn default() -> Self {
        Standard::new(KnowledgeParams::default(), None, None)
    }
}

impl Knowledge for Standard {
    fn for_thread(&self, size: usize, seed: u64) -> ThreadKnowledge {
        let params = &self.params;
        let playouts = Playouts::new(params.playout, seed);
        let steers = self.net.is_some_and(|r| r.steers);
        let judges = self.net.filter(|r| r.value_share > 0.0);
        let mut priors: Vec<Box<dyn PriorSource>> = Vec::new();
        if !steers {
            priors.push(Box::new(HandMade {
                weights: params.priors,
            }));
        }
        if let Some(role) = self.net {
            // A network that judges the leaves has evaluated a node's position before it
            // expands: its policy is in the cache, and comes at once.
            let timing = if judges.is_some() || steers {
                Timing::AtExpansion
            } else {
                Timing::After(params.net.after)
            };
            let mut weights = params.net;
            if steers {
                weights.games = 0.0;
            }
            let evaluator = self.evaluator(role.net, size);
            priors.push(Box::new(NetworkPrior::new(evaluator, timing, weights)));
        }
        let leaf: Box<dyn LeafEvaluator> = match judges {
            None => Box::new(playouts),
            Some(role) => {
                let history = role.net.network().history();
                let evaluator = self.evaluator(role.net, size);
                let network = NetworkValue::new(evaluator, history, params.value);
                match role.value_share {
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

    fn history(&self) -> usize {
        let network = self.net.map_or(0, |r| r.net.network().history());
        network.max(2)
    }

    fn earlier_boards(&self) -> usize {
        self.net.map_or(0, |r| r.net.network().earlier_boards())
    }
}

/// The hand-made priors ([`Priors`], weights [`PriorWeights`]).
pub struct HandMade {
    pub weights: PriorWeights,
}

impl PriorSource for HandMade {
    fn timing(&self) -> Timing {
        Timing::AtExpansion
    }

    fn add_priors(
        &mut self,
        position: &Position<'_>,
        _: f64,
        moves: &[Move],
        priors: &mut [Prior],
    ) {
        let (board, color) = (position.board, position.to_move);
        let (last, before) = (position.nth_last(1), position.nth_last(2));
        let knowledge = Priors::new(board, color, last, before, &self.weights);
        for (&mv, prior) in moves.iter().zip(priors) {
            let (wins, games) = knowledge.of(board, color, mv);
            prior.wins += wins;
            prior.games += games;
        }
    }
}

/// The playouts ([`playout::play_out`] with [`KnowledgeParams::playout`]): each leaf played
/// out to the end and counted by area.
pub struct Playouts {
    policy: PlayoutPolicy,
    rng: SmallRng,
}

impl Playouts {
    pub fn new(policy: PlayoutPolicy, seed: u64) -> Playouts {
        Playouts {
            policy,
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

/// The network's value and a playout together (AlphaGo's mix): `share` of the network's,
/// the rest the playout's; the playout's margin, ownership and stones as they are.
pub struct Mix {
    pub network: NetworkValue,
    pub playouts: Playouts,
    pub share: f64,
}

impl LeafEvaluator for Mix {
    fn begin(&mut self, root: &Position<'_>, search_komi: f64) {
        self.network.begin(root, search_komi);
    }

    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation {
        // The network first: the playout plays on the leaf's board.
        let (network_search, network_real) = self.network.chances(leaf);
        let played = self.playouts.evaluate(leaf);
        let mix = |n: f64, p: f64| self.share * n + (1.0 - self.share) * p;
        Evaluation {
            black_search: mix(network_search, played.black_search),
            black_real: mix(network_real, played.black_real),
            black_margin: played.black_margin,
            margin_stdev: played.margin_stdev,
        }
    }
}
