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
use crate::net::cache::{Cache, Cached};
use crate::net::{Evaluator, SharedNet};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::Arc;

/// The knowledge of the search as it plays: the hand-made priors, the network's prior where
/// it plays (its policy alone under PUCT selection), and the playouts, the network's
/// judgement or their mix ([`super::NetValue`]) at the leaves. Its threads share one cache of
/// network outputs, which lives as long as this knowledge (the player keeps it from move to
/// move).
pub struct Standard {
    params: KnowledgeParams,
    net: Option<SharedNet>,
    /// Whether the search selects by PUCT where a policy is known: then the policy steers
    /// alone, without virtual games, and the hand-made priors are not asked.
    puct: bool,
    cache: Option<Arc<Cache>>,
}

impl Standard {
    pub fn new(params: KnowledgeParams, net: Option<SharedNet>, puct: bool) -> Standard {
        let cache = net.map(|_| Arc::new(Cache::new(params.value.cache)));
        Standard {
            params,
            net,
            puct,
            cache,
        }
    }

    /// The network, if it plays on boards of `size`.
    fn net_for(&self, size: usize) -> Option<SharedNet> {
        self.net.filter(|_| size >= self.params.net.min_size)
    }

    /// An evaluator of `net` for boards of `size`, sharing the knowledge's cache.
    fn evaluator(&self, net: SharedNet, size: usize) -> Box<dyn Evaluator> {
        let mut evaluator = net.evaluator(size);
        if self.params.value.vary_symmetry {
            evaluator.vary_symmetry();
        }
        match &self.cache {
            Some(cache) => {
                let history = net.network().history();
                Box::new(Cached::new(evaluator, Arc::clone(cache), history))
            }
            None => evaluator,
        }
    }
}

impl Default for Standard {
    /// The default tuning, without a network: the hand-made priors and the playouts.
    fn default() -> Self {
        Standard::new(KnowledgeParams::default(), None, false)
    }
}

impl Knowledge for Standard {
    fn for_thread(&self, size: usize, seed: u64) -> ThreadKnowledge {
        let params = &self.params;
        let playouts = Playouts::new(params.playout, seed);
        let net = self.net_for(size);
        let value = net.filter(|n| n.heads().value && params.value.mix > 0.0);
        // PUCT steers by the policy alone, which every node needs from its expansion on.
        let puct = net.is_some() && self.puct;
        let mut priors: Vec<Box<dyn PriorSource>> = Vec::new();
        if !puct {
            priors.push(Box::new(HandMade {
                weights: params.priors,
            }));
        }
        if let Some(net) = net {
            // A network that judges the leaves has evaluated a node's position before it
            // expands: its policy is in the cache, and comes at once.
            let timing = if value.is_some() || puct {
                Timing::AtExpansion
            } else {
                Timing::After(params.net.after)
            };
            let mut weights = params.net;
            if puct {
                weights.games = 0.0;
            }
            let evaluator = self.evaluator(net, size);
            priors.push(Box::new(NetworkPrior::new(evaluator, timing, weights)));
        }
        let leaf: Box<dyn LeafEvaluator> = match value {
            None => Box::new(playouts),
            Some(net) => {
                let history = net.network().history();
                let network = NetworkValue::new(self.evaluator(net, size), history, params.value);
                match params.value.mix {
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
        let network = self.net.map_or(0, |n| n.network().history());
        network.max(2)
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
        }
    }
}
