//! The knowledge a network gives, through `net`'s one interface: its policy as a prior
//! ([`NetworkPrior`]) and its judgement of the leaves ([`NetworkValue`]: winning chances,
//! and where it has the heads the score lead and ownership).

use super::params::{NetPrior, NetValue};
use super::{Evaluation, Leaf, LeafEvaluator, Position, Prior, PriorSource, Timing};
use crate::coord::{Color, Move};
use crate::game::Played;
use crate::net::{Evaluator, Output};
use std::sync::Arc;

/// The network's prior (Pachi's DCNN prior): a move of probability `p` gets
/// [`NetPrior::games`]`·√p` virtual wins, nothing under [`NetPrior::floor`].
pub struct NetworkPrior {
    evaluator: Box<dyn Evaluator>,
    timing: Timing,
    weights: NetPrior,
    /// The network's output for the last position asked about.
    output: Option<Arc<Output>>,
}

impl NetworkPrior {
    pub fn new(evaluator: Box<dyn Evaluator>, timing: Timing, weights: NetPrior) -> NetworkPrior {
        NetworkPrior {
            evaluator,
            timing,
            weights,
            output: None,
        }
    }
}

impl PriorSource for NetworkPrior {
    fn timing(&self) -> Timing {
        self.timing
    }

    fn add_priors(
        &mut self,
        position: &Position<'_>,
        komi: f64,
        moves: &[Move],
        priors: &mut [Prior],
    ) {
        // With the komi the leaves are judged by, so that a leaf's evaluation is the entry.
        let output = self.evaluator.evaluate_one(position, komi);
        let geometry = position.board.geometry();
        for (&mv, prior) in moves.iter().zip(priors) {
            let probability = match mv {
                Move::Play(p) => output.policy[geometry.vertex_index(p)],
                Move::Pass => output.pass.unwrap_or(0.0),
            };
            let probability = f64::from(probability);
            if probability >= self.weights.floor && self.weights.games > 0.0 {
                let games = self.weights.games * probability.sqrt();
                prior.wins += games;
                prior.games += games;
            }
        }
        self.output = Some(output);
    }

    fn policy(&self) -> Option<&[f32]> {
        self.output.as_deref().map(|o| o.policy.as_slice())
    }

    fn pass_policy(&self) -> Option<f32> {
        self.output.as_deref().and_then(|o| o.pass)
    }

    fn position_prior(&self) -> Prior {
        let games = self.weights.value_games;
        match self.output.as_deref().and_then(|o| o.value) {
            Some(value) if games > 0.0 => Prior {
                wins: games * f64::from(value),
                games,
            },
            _ => Prior::default(),
        }
    }
}

/// The network's judgement at the leaves: its winning chances for the side to move, by both
/// komis (one evaluation; the cache often has it), and where the network has the heads, its
/// score lead and ownership, which go to the search's tally as a playout's final board does.
pub struct NetworkValue {
    evaluator: Box<dyn Evaluator>,
    /// Moves before a position that the network reads.
    history: usize,
    recent: Vec<Played>,
    outputs: Vec<Arc<Output>>,
    /// Black's ownership of each vertex, from the last output that had it.
    black_ownership: Vec<f32>,
    /// How the score lead weighs in what the tree counts ([`NetValue::score_utility`]).
    score: NetValue,
    /// Black's lead around which the dynamic score part is centred
    /// ([`NetValue::dynamic_score_utility`]), set when a search begins.
    centre: f64,
}

impl NetworkValue {
    pub fn new(evaluator: Box<dyn Evaluator>, history: usize, score: NetValue) -> NetworkValue {
        NetworkValue {
            evaluator,
            score,
            history,
            recent: Vec::with_capacity(history),
            outputs: Vec::with_capacity(2),
            black_ownership: Vec::new(),
            centre: 0.0,
        }
    }

    /// The network's chances for Black at `leaf` by the search's komi and by the real one,
    /// nothing added to the leaf's tally (a mix with a playout counts the playout's end).
    pub fn chances(&mut self, leaf: &Leaf<'_>) -> (f64, f64) {
        self.recent.clear();
        self.recent.extend(leaf.recent(self.history));
        let position = Position {
            board: &*leaf.board,
            to_move: leaf.to_move,
            recent: &self.recent,
            earlier: leaf.earlier,
            superko_bans: &[],
            terms: leaf.terms,
        };
        let both = [leaf.search_komi, leaf.komi];
        let komis = if leaf.search_komi == leaf.komi {
            &both[..1]
        } else {
            &both[..]
        };
        self.evaluator.evaluate(&position, komis, &mut self.outputs);
        let black = |output: &Output| {
            let v = f64::from(output.value.unwrap_or(0.5));
            match leaf.to_move {
                Color::Black => v,
                Color::White => 1.0 - v,
            }
        };
        let search = self.outputs.first().map_or(0.5, |o| black(o));
        let real = self.outputs.last().map_or(0.5, |o| black(o));
        let lead = self
            .outputs
            .first()
            .and_then(|o| o.score_lead)
            .map(|lead| f64::from(lead * leaf.to_move.sign()));
        let stdev = self.outputs.first().and_then(|o| o.score_stdev);
        let size = leaf.board.size() as f64;
        let utility = score_utility(
            search,
            lead,
            stdev.map(f64::from),
            &self.score,
            size,
            self.centre,
        );
        (utility, real)
    }
}

/// What the tree counts for Black: the win rate and, where the network gives Black's `lead`
/// (by the search's komi), the score's parts: one centred on 0 ([`NetValue::score_utility`])
/// and one on `centre` ([`NetValue::dynamic_score_utility`]), each the expectation over the
/// final score's spread `stdev` where the network gives it.
fn score_utility(
    black_win: f64,
    lead: Option<f64>,
    stdev: Option<f64>,
    params: &NetValue,
    size: f64,
    centre: f64,
) -> f64 {
    let fixed = params.score_utility.or(NetValue::SCORE_UTILITY);
    let dynamic = params.dynamic_share();
    match lead {
        Some(lead) if fixed + dynamic > 0.0 => {
            let stdev = stdev.unwrap_or(0.0);
            let part = |centre: f64, scale: f64| {
                expected_atan_part(lead - centre, stdev, (scale * size).max(f64::MIN_POSITIVE))
            };
            let total = (fixed + dynamic).max(1.0);
            let (fixed, dynamic) = (fixed / total, dynamic / total);
            let scale = params.score_scale.or(NetValue::SCORE_SCALE);
            (1.0 - fixed - dynamic) * black_win
                + fixed * part(0.0, scale)
                + dynamic * part(centre, params.dynamic_score_scale)
        }
        _ => black_win,
    }
}

/// `E[½ + atan(X / scale)/π]` for `X` normal with mean `mean` and deviation `stdev`: a
/// score's part of the utility over the network's spread of final scores (KataGo's
/// `expectedWhiteScoreValue`, which integrates the same curve into a table). An uncertain
/// lead weighs less than a sure one of the same size. The sum runs over ±6 deviations in
/// steps of at most half a deviation and half the curve's scale, so that the curve, nearly
/// a step where the spread is wide, moves little between two: within 1e-6 of the integral.
fn expected_atan_part(mean: f64, stdev: f64, scale: f64) -> f64 {
    /// Steps each side of the mean at most: a spread 170 times the curve's scale, past any
    /// network's.
    const MAX_STEPS: f64 = 2048.0;
    let at = |x: f64| 0.5 + (x / scale).atan() / std::f64::consts::PI;
    if stdev.is_nan() || stdev <= 0.0 {
        return at(mean);
    }
    let steps = (6.0 / (0.5 * scale / stdev).min(0.5)).ceil().min(MAX_STEPS);
    let step = 6.0 / steps;
    let (mut sum, mut weights) = (at(mean), 1.0);
    for i in 1..=steps as u32 {
        let z = step * f64::from(i);
        let w = (-0.5 * z * z).exp();
        sum += w * (at(mean + stdev * z) + at(mean - stdev * z));
        weights += 2.0 * w;
    }
    sum / weights
}

impl LeafEvaluator for NetworkValue {
    /// Centres the dynamic score part on the network's lead at the root, drawn toward 0 by
    /// [`NetValue::dynamic_score_zero_weight`] (KataGo takes its search's lead; the network's
    /// is one evaluation, which the cache mostly has).
    fn begin(&mut self, root: &Position<'_>, search_komi: f64) {
        self.centre = 0.0;
        if self.score.dynamic_share() <= 0.0 {
            return;
        }
        self.evaluator
            .evaluate(root, &[search_komi], &mut self.outputs);
        if let Some(lead) = self.outputs.first().and_then(|o| o.score_lead) {
            let black = f64::from(lead * root.to_move.sign());
            self.centre = (1.0 - self.score.dynamic_score_zero_weight) * black;
        }
    }

    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation {
        let (black_search, black_real) = self.chances(leaf);
        let mut evaluation = Evaluation {
            black_search,
            black_real,
            black_margin: None,
            margin_stdev: None,
        };
        let Some(output) = self.outputs.last() else {
            return evaluation;
        };
        let for_black = leaf.to_move.sign();
        let margin = output.score_lead.map(|s| f64::from(s * for_black));
        let ownership = output.ownership.as_deref().map(|own| {
            self.black_ownership.clear();
            self.black_ownership
                .extend(own.iter().map(|&x| x * for_black));
            self.black_ownership.as_slice()
        });
        if margin.is_some() || ownership.is_some() {
            leaf.tally.record_judgement(ownership, margin);
        }
        evaluation.black_margin = margin;
        evaluation.margin_stdev = output.score_stdev.map(f64::from);
        evaluation
    }

    fn is_deterministic(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn the_network_prior_judges_the_position_by_its_value_only_when_asked() {
        let net = crate::setup::embedded();
        let mut board = Board::new(9).expect("a board size");
        let play = |board: &mut Board, color, vertex: &str| {
            let p = board.geometry().parse_point(vertex).expect("a vertex");
            board.place(color, p);
        };
        play(&mut board, Color::Black, "E5");
        play(&mut board, Color::White, "C3");
        let position = Position::of_stones(&board, Color::Black, &[]);
        let moves: Vec<Move> = board
            .empty_points()
            .iter()
            .map(|&p| Move::Play(p))
            .collect();
        let value = net
            .evaluator(9)
            .evaluate_one(&position, 7.5)
            .value
            .expect("the embedded network has a value head");
        for games in [0.0, 12.0] {
            let weights = NetPrior {
                value_games: games,
                ..NetPrior::default()
            };
            let mut source = NetworkPrior::new(net.evaluator(9), Timing::After(64), weights);
            let mut priors = vec![Prior::default(); moves.len()];
            source.add_priors(&position, 7.5, &moves, &mut priors);
            let judged = source.position_prior();
            assert_eq!(judged.games, games);
            assert!((judged.wins - games * f64::from(value)).abs() < 1e-9);
        }
    }
}

#[cfg(test)]
mod score_tests {
    use super::*;
    use crate::parse::Auto;

    #[test]
    fn the_score_steers_only_where_given_and_weighs_its_share() {
        let params = NetValue {
            score_utility: Auto(Some(0.2)),
            score_scale: Auto(Some(0.5)),
            ..NetValue::default()
        };
        assert_eq!(score_utility(0.7, None, None, &params, 19.0, 0.0), 0.7);
        // No lead: the score's part is ½.
        assert!(
            (score_utility(0.7, Some(0.0), None, &params, 19.0, 0.0) - (0.8 * 0.7 + 0.1)).abs()
                < 1e-12
        );
        // 9.5 points on 19x19 is atan(1): three quarters.
        let ahead = score_utility(1.0, Some(9.5), None, &params, 19.0, 0.0);
        assert!((ahead - (0.8 + 0.2 * 0.75)).abs() < 1e-12);
        // A game won either way still prefers the larger lead, and stays within 0..1.
        let more = score_utility(1.0, Some(30.0), None, &params, 19.0, 0.0);
        assert!(more > ahead && more < 1.0);
        let behind = score_utility(0.0, Some(-30.0), None, &params, 19.0, 0.0);
        assert!(behind > 0.0 && behind < 0.2 * 0.25);
        let off = NetValue {
            score_utility: Auto(Some(0.0)),
            ..params
        };
        assert_eq!(score_utility(0.3, Some(50.0), None, &off, 9.0, 0.0), 0.3);
    }

    #[test]
    fn the_dynamic_part_is_centred_on_the_root_lead() {
        let params = NetValue {
            score_utility: Auto(Some(0.1)),
            dynamic_score_utility: Auto(Some(0.3)),
            dynamic_score_scale: 0.75,
            ..NetValue::default()
        };
        let fixed = |lead: f64| 0.5 + (lead / 4.5).atan() / std::f64::consts::PI;
        // At the centre the dynamic part is ½, whatever the lead.
        let at = score_utility(1.0, Some(20.0), None, &params, 9.0, 20.0);
        assert!((at - (0.6 + 0.1 * fixed(20.0) + 0.15)).abs() < 1e-12);
        // 6.75 points past a centre of 20 on 9x9 is atan(1): three quarters.
        let past = score_utility(1.0, Some(26.75), None, &params, 9.0, 20.0);
        assert!((past - (0.6 + 0.1 * fixed(26.75) + 0.3 * 0.75)).abs() < 1e-12);
        // Far ahead, a point still weighs: the static part alone barely tells 20 from 21.
        let gain = score_utility(1.0, Some(21.0), None, &params, 9.0, 20.0) - at;
        let static_gain = 0.1 * (fixed(21.0) - fixed(20.0));
        assert!(gain > 10.0 * static_gain, "{gain} against {static_gain}");
        // Shares past 1 are scaled to sum to 1: no win rate left, the result within 0..1.
        let all = NetValue {
            score_utility: Auto(Some(0.8)),
            dynamic_score_utility: Auto(Some(0.8)),
            ..params
        };
        let u = score_utility(0.0, Some(0.0), None, &all, 9.0, 0.0);
        assert!((u - 0.5).abs() < 1e-12);
    }

    /// The expectation over the score's spread agrees with the integral taken the long way
    /// (a fine sum over ±8 deviations), is the curve itself without spread, and is ½ for a
    /// spread around a lead of 0; a spread pulls a lead's part toward ½.
    #[test]
    fn the_score_part_is_its_expectation_over_the_spread() {
        let curve = |x: f64, scale: f64| 0.5 + (x / scale).atan() / std::f64::consts::PI;
        let long_way = |mean: f64, stdev: f64, scale: f64| {
            let steps = 16_000;
            let dx = 16.0 / f64::from(steps);
            (0..=steps)
                .map(|i| -8.0 + dx * f64::from(i))
                .map(|z| {
                    let density = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
                    density * curve(mean + stdev * z, scale) * dx
                })
                .sum::<f64>()
        };
        for (mean, stdev, scale) in [(5.0, 12.0, 14.25), (-20.0, 8.0, 38.0), (3.0, 40.0, 4.5)] {
            let quick = expected_atan_part(mean, stdev, scale);
            let slow = long_way(mean, stdev, scale);
            assert!(
                (quick - slow).abs() < 1e-4,
                "{mean} {stdev} {scale}: {quick} {slow}"
            );
            assert!((quick - 0.5).abs() < (curve(mean, scale) - 0.5).abs());
        }
        assert_eq!(expected_atan_part(7.0, 0.0, 9.5), curve(7.0, 9.5));
        assert!((expected_atan_part(0.0, 30.0, 9.5) - 0.5).abs() < 1e-12);
        // In the utility: the spread given, the score's part is its expectation.
        let params = NetValue {
            score_utility: Auto(Some(0.2)),
            score_scale: Auto(Some(0.5)),
            ..NetValue::default()
        };
        let spread = score_utility(0.6, Some(9.5), Some(10.0), &params, 19.0, 0.0);
        let expected = 0.8 * 0.6 + 0.2 * expected_atan_part(9.5, 10.0, 9.5);
        assert!((spread - expected).abs() < 1e-12);
    }

    /// An evaluator that says the side to move leads by `lead` points at any komi.
    struct Leading {
        lead: f32,
    }

    impl Evaluator for Leading {
        fn evaluate(&mut self, _: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>) {
            outputs.clear();
            outputs.extend(komis.iter().map(|_| {
                Arc::new(Output {
                    policy: Vec::new(),
                    pass: None,
                    value: Some(0.9),
                    score_lead: Some(self.lead),
                    ownership: None,
                    ..Default::default()
                })
            }));
        }
    }

    #[test]
    fn a_search_centres_on_the_root_lead_for_black() {
        let board = crate::board::Board::new(9).expect("a board size");
        let params = NetValue {
            dynamic_score_utility: Auto(Some(0.3)),
            dynamic_score_zero_weight: 0.2,
            ..NetValue::default()
        };
        let mut value = NetworkValue::new(Box::new(Leading { lead: 10.0 }), 0, params);
        let root = |to_move| Position::of_stones(&board, to_move, &[]);
        value.begin(&root(Color::White), 7.5);
        assert!((value.centre - -8.0).abs() < 1e-9, "{}", value.centre);
        value.begin(&root(Color::Black), 7.5);
        assert!((value.centre - 8.0).abs() < 1e-9, "{}", value.centre);
        let off = NetValue {
            dynamic_score_utility: Auto(Some(0.0)),
            ..params
        };
        let mut value = NetworkValue::new(Box::new(Leading { lead: 10.0 }), 0, off);
        value.begin(&root(Color::Black), 7.5);
        assert_eq!(value.centre, 0.0);
    }
}
