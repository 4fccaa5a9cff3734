//! A KataGo model as a [`Network`]: the evaluator a thread asks about positions fills
//! KataGo's inputs, reads them in a symmetry, runs the forward pass and post-processes the
//! outputs as KataGo's `NNEvaluator` does (softmax over the legal moves and the pass;
//! softmax of win, loss and no result; scores scaled by the file's multipliers; ownership
//! through a tanh), for the side to move.

use super::file::ModelError;
use super::forward::{Forward, Kernels, RawOutput, Workspace};
use super::inputs::{self, plane_index, plane_point, InputOptions, GLOBAL, SPATIAL};
use super::metadata::HumanProfile;
use super::model::{Block, Model, PostProcess};
use crate::game::Position;
use crate::net::kernels::conv::Path;
use crate::net::kernels::flush::FlushToZero;
use crate::net::symmetry::Reading;
use crate::net::{Evaluator, Heads, Network, Output, Symmetry, ValueDetails};
use crate::rules::{KoRule, Scoring};
use std::sync::Arc;

/// A KataGo network, read and laid out for the forward pass.
pub struct KataNetwork {
    model: Model,
    kernels: Kernels,
    path: Path,
    /// The game metadata a human-imitating network is told ([`KataNetwork::with_profile`]).
    profile: Option<HumanProfile>,
}

impl KataNetwork {
    /// Reads a model file's bytes (gzipped or not) into a network this code runs. A
    /// human-imitating network (one with a metadata encoder) is refused: it needs a profile,
    /// as KataGo's does ([`KataNetwork::from_bytes_with_profile`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<KataNetwork, ModelError> {
        KataNetwork::from_bytes_with_profile(bytes, None)
    }

    /// Reads a model file's bytes, with the profile (KataGo's `humanSLProfile`: `rank_5k`,
    /// `preaz_1d`, `proyear_1990`, ... [`super::metadata`]) that a human-imitating network
    /// plays as. KataGo has no default profile and stops at the first evaluation without one;
    /// hoshi refuses such a network without one when it is read. A network without a
    /// metadata encoder ignores the profile, as KataGo does (the name is still checked).
    pub fn from_bytes_with_profile(
        bytes: &[u8],
        profile: Option<&str>,
    ) -> Result<KataNetwork, ModelError> {
        let model = Model::from_bytes(bytes)?;
        if let Some(block) = model.trunk.blocks.iter().find_map(plain_feed_forward) {
            return Err(super::file::error(
                block,
                "a feed-forward block without SwiGLU: KataGo runs none (its backends refuse \
                 them) and the file does not name its activation",
            ));
        }
        let kernels = Kernels::new(&model);
        let net = KataNetwork {
            model,
            kernels,
            path: Path::detect(),
            profile: None,
        };
        match profile {
            Some(name) => net.with_profile(name),
            None if net.needs_profile() => Err(super::file::error(
                &net.model.name,
                "a human-imitating network (it has a metadata encoder) plays as a profile, \
                 which none was given (KataGo's humanSLProfile: rank_5k, preaz_1d, \
                 proyear_1990, ...)",
            )),
            None => Ok(net),
        }
    }

    /// The network playing as the profile KataGo names `name` (its `humanSLProfile`), in
    /// place of the one it had. An unknown name is refused.
    pub fn with_profile(mut self, name: &str) -> Result<KataNetwork, ModelError> {
        let profile = HumanProfile::parse(name)
            .map_err(|e| super::file::error(&self.model.name, e.to_string()))?;
        self.profile = Some(profile);
        Ok(self)
    }

    /// The profile the network plays as, where it was given one.
    pub fn profile(&self) -> Option<&HumanProfile> {
        self.profile.as_ref()
    }

    /// Whether the network is told the game's metadata: a human-imitating network, which
    /// needs a profile.
    pub fn needs_profile(&self) -> bool {
        self.model.trunk.metadata.is_some()
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The metadata encoder's inputs for `to_move` on a board of `area` points, for a
    /// network that has an encoder.
    fn metadata(&self, to_move: crate::coord::Color, area: usize) -> Option<[f32; 192]> {
        match (&self.model.trunk.metadata, &self.profile) {
            (Some(_), Some(profile)) => Some(profile.inputs(to_move, area)),
            (Some(_), None) => unreachable!("a network with a metadata encoder has a profile"),
            (None, _) => None,
        }
    }

    fn options(&self) -> InputOptions {
        InputOptions {
            pass_alive_under_suicide_rules: self.model.pass_alive_under_suicide_rules,
            playout_doubling_advantage: 0.0,
        }
    }
}

impl Network for KataNetwork {
    fn describe(&self) -> String {
        let trunk = &self.model.trunk;
        let kinds: Vec<&str> = trunk
            .blocks
            .iter()
            .map(|b| match b {
                Block::Residual(_) => "residual",
                Block::GlobalPooling(_) => "pooled",
                Block::Bottleneck(_) => "bottleneck",
                Block::Attention(_) => "attention",
                Block::FeedForward(_) => "feed-forward",
            })
            .collect();
        let pooled = kinds.iter().filter(|k| **k == "pooled").count();
        let nested = kinds.iter().filter(|k| **k == "bottleneck").count();
        let mut shape = format!("{} blocks x {} channels", kinds.len(), trunk.channels);
        let attention = kinds.iter().filter(|k| **k == "attention").count();
        if nested > 0 {
            shape += &format!(", {nested} nested bottlenecks");
        } else if attention > 0 {
            shape += &format!(", {attention} attention");
        } else if pooled > 0 {
            shape += &format!(", {pooled} pooled");
        }
        if let (Some(profile), true) = (&self.profile, self.needs_profile()) {
            shape += &format!(", as {}", profile.name());
        }
        format!(
            "KataGo network {} (model version {}, {shape})",
            self.model.name, self.model.version
        )
    }

    fn heads(&self) -> Heads {
        Heads {
            value: true,
            score_lead: true,
            ownership: true,
            score_stdev: true,
        }
    }

    fn history(&self) -> usize {
        5
    }

    fn earlier_boards(&self) -> usize {
        2
    }

    fn evaluator(&'static self, max_size: usize) -> Box<dyn Evaluator> {
        let area = max_size * max_size;
        Box::new(KataEvaluator {
            net: self,
            workspace: Workspace::default(),
            spatial: Vec::with_capacity(SPATIAL * area),
            turned: Vec::with_capacity(SPATIAL * area),
            global: [0.0; GLOBAL],
            reading: Reading::AsItStands,
            optimism: if self.needs_profile() {
                0.0
            } else {
                DEFAULT_POLICY_OPTIMISM
            },
        })
    }
}

/// The name of a feed-forward block without a gate, at any depth of `block`.
fn plain_feed_forward(block: &Block) -> Option<&str> {
    match block {
        Block::FeedForward(f) if f.gate.is_none() => Some(&f.name),
        Block::Bottleneck(b) => b.blocks.iter().find_map(plain_feed_forward),
        _ => None,
    }
}

/// One thread's evaluator of a [`KataNetwork`].
pub struct KataEvaluator {
    net: &'static KataNetwork,
    workspace: Workspace,
    spatial: Vec<f32>,
    turned: Vec<f32>,
    global: [f32; GLOBAL],
    reading: Reading,
    /// How much of the optimistic policy is mixed in ([`Evaluator::set_policy_optimism`]).
    optimism: f32,
}

/// The optimistic policy's share until told otherwise: KataGo's search's inside its tree
/// (`policyOptimism`; 0.2 at the root).
pub const DEFAULT_POLICY_OPTIMISM: f32 = 1.0;

impl Evaluator for KataEvaluator {
    fn evaluate(&mut self, position: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>) {
        outputs.clear();
        let symmetry = self.reading.of(position);
        let _flush = FlushToZero::new();
        // The komi is an input: a whole evaluation a komi.
        for &komi in komis {
            let raw = self.run(position, komi, symmetry);
            let output = self.net.post_process(position, &raw);
            outputs.push(Arc::new(output));
        }
    }

    fn vary_symmetry(&mut self) {
        self.reading = Reading::Varied;
    }

    fn read_in(&mut self, symmetry: Symmetry) -> bool {
        self.reading = Reading::Fixed(symmetry);
        true
    }

    /// KataGo mixes the optimistic policy of networks that have one (v12 on), human-imitating
    /// ones aside (its `NNEvaluator` sets their optimism to 0).
    fn set_policy_optimism(&mut self, optimism: f32) -> bool {
        let model = &self.net.model;
        if model.policy.channels < 2 || self.net.needs_profile() {
            return false;
        }
        self.optimism = optimism;
        true
    }
}

impl KataEvaluator {
    /// The raw outputs for `position` by `komi`, read in `symmetry`, turned back onto the
    /// board (KataGo's orientation: row by row from the top).
    fn run(&mut self, position: &Position<'_>, komi: f64, symmetry: Symmetry) -> RawOutput {
        let size = position.board.size();
        let area = size * size;
        self.spatial.resize(SPATIAL * area, 0.0);
        let options = self.net.options();
        inputs::fill(
            position,
            komi,
            &options,
            &mut self.spatial,
            &mut self.global,
        );
        let metadata = self.net.metadata(position.to_move, area);
        let metadata = metadata.as_ref().map(|m| &m[..]);
        let forward = Forward {
            model: &self.net.model,
            kernels: &self.net.kernels,
            path: self.net.path,
        };
        if symmetry == Symmetry::IDENTITY {
            let mut raw = forward.run(
                size,
                &self.spatial,
                &self.global,
                metadata,
                &mut self.workspace,
            );
            mix_optimism(&mut raw, self.optimism);
            return raw;
        }
        let sym = symmetry.number();
        self.turned.resize(SPATIAL * area, 0.0);
        for (plane, turned) in self
            .spatial
            .chunks_exact(area)
            .zip(self.turned.chunks_exact_mut(area))
        {
            for (i, &v) in plane.iter().enumerate() {
                turned[katago_symmetry(size, sym, false, i)] = v;
            }
        }
        let mut raw = forward.run(
            size,
            &self.turned,
            &self.global,
            metadata,
            &mut self.workspace,
        );
        mix_optimism(&mut raw, self.optimism);
        let back = |map: &mut Vec<f32>| {
            let mut out = vec![0.0; map.len()];
            for (i, &v) in map.iter().enumerate() {
                out[katago_symmetry(size, sym, true, i)] = v;
            }
            *map = out;
        };
        back(&mut raw.policy);
        if let Some(optimistic) = &mut raw.policy_optimistic {
            back(optimistic);
        }
        back(&mut raw.ownership);
        raw
    }
}

/// The policy logits moved `optimism` of the way to the optimistic ones, the pass's too, as
/// KataGo's backends do before the softmax (`p + (optimistic - p) · optimism`).
fn mix_optimism(raw: &mut RawOutput, optimism: f32) {
    let Some(optimistic) = raw.policy_optimistic.as_ref().filter(|_| optimism != 0.0) else {
        return;
    };
    for (p, o) in raw.policy.iter_mut().zip(optimistic) {
        *p += (o - *p) * optimism;
    }
    raw.pass[0] += (raw.pass[1] - raw.pass[0]) * optimism;
}

/// Where KataGo's symmetry `sym` sends the point at `index` (row by row, `size` a row):
/// its `copyInputsWithSymmetry` (`reverse` false) and `copyOutputsWithSymmetry` (`reverse`
/// true), which turn the planes in and the maps back. Bit 0 mirrors the rows, bit 1 the
/// columns, bit 2 transposes; going in, a transpose swaps which mirror applies, so that
/// the way back undoes the way in.
fn katago_symmetry(size: usize, sym: u8, reverse: bool, index: usize) -> usize {
    let transpose = sym & 4 != 0;
    let (mut flip_x, mut flip_y) = (sym & 2 != 0, sym & 1 != 0);
    if transpose && !reverse {
        std::mem::swap(&mut flip_x, &mut flip_y);
    }
    let (h, w) = (index / size, index % size);
    let flip = |on: bool, v: usize| if on { size - 1 - v } else { v };
    if transpose {
        flip(flip_y, w) * size + flip(flip_x, h)
    } else {
        flip(flip_y, h) * size + flip(flip_x, w)
    }
}

/// KataGo's `softPlus`, in doubles as it computes it.
fn softplus(x: f64) -> f64 {
    if x > 40.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

impl KataNetwork {
    /// Turns raw outputs into probabilities and scores for the side to move, in hoshi's
    /// vertex order, as KataGo's `NNEvaluator::evaluate` does.
    fn post_process(&self, position: &Position<'_>, raw: &RawOutput) -> Output {
        let board = position.board;
        let geometry = board.geometry();
        let size = board.size();
        let legal = |i: usize| {
            let p = plane_point(geometry, i);
            board.check(position.to_move, p).is_ok() && !position.superko_bans.contains(&p)
        };
        // The policy (the optimistic one already mixed in): a softmax over the legal moves
        // and the pass.
        let (logits, pass_logit) = (&raw.policy, raw.pass[0]);
        let max = (0..size * size)
            .filter(|&i| legal(i))
            .map(|i| logits[i])
            .fold(pass_logit, f32::max);
        let mut policy = vec![0.0f32; size * size];
        let mut sum = 0.0f32;
        for i in (0..size * size).filter(|&i| legal(i)) {
            let vertex = geometry.vertex_index(plane_point(geometry, i));
            policy[vertex] = (logits[i] - max).exp();
            sum += policy[vertex];
        }
        let pass = (pass_logit - max).exp();
        sum += pass;
        policy.iter_mut().for_each(|p| *p /= sum);
        let details = self.value_details(position, raw);
        // `Geometry::points` runs in vertex order.
        let ownership = geometry
            .points()
            .map(|p| raw.ownership[plane_index(geometry, p)].tanh())
            .collect();
        Output {
            policy,
            pass: Some(pass / sum),
            value: Some(details.win + details.no_result / 2.0),
            score_lead: Some(lead(&self.model.post, raw, details.no_result)),
            ownership: Some(ownership),
            score_stdev: Some(
                (details.score_mean_square - details.score_mean * details.score_mean)
                    .max(0.0)
                    .sqrt(),
            ),
            details: Some(details),
        }
    }

    /// The value head's outputs for the side to move, as KataGo post-processes them.
    fn value_details(&self, position: &Position<'_>, raw: &RawOutput) -> ValueDetails {
        let post = &self.model.post;
        let rules = position.terms.rules;
        // Without simple ko a cycle ends nothing: no game is without result.
        let results_possible = rules.ko == KoRule::Simple || rules.scoring == Scoring::Territory;
        let [win, loss, mut no_result] = raw.value.map(f64::from);
        if !results_possible {
            no_result -= 100_000.0;
        }
        let max = win.max(loss).max(no_result);
        let (w, l, mut n) = (
            (win - max).exp(),
            (loss - max).exp(),
            (no_result - max).exp(),
        );
        if !results_possible {
            n = 0.0;
        }
        let sum = w + l + n;
        let (w, l, n) = (w / sum, l / sum, n / sum);
        let s = |i: usize| f64::from(raw.scores[i]);
        let score_mean = s(0) * f64::from(post.score_mean);
        let stdev = softplus(s(1)) * f64::from(post.score_stdev);
        let score_mean_square = score_mean * score_mean + stdev * stdev;
        // Version 8 has the output, but KataGo reads it from version 9 on.
        let var_time_left = match self.model.version {
            9.. => softplus(s(3)) * f64::from(post.variance_time),
            _ => -1.0,
        };
        let (winloss_error, score_error) = self.shortterm_errors(raw);
        ValueDetails {
            win: w as f32,
            loss: l as f32,
            no_result: n as f32,
            score_mean: (score_mean * (1.0 - n)) as f32,
            score_mean_square: (score_mean_square * (1.0 - n)) as f32,
            var_time_left: var_time_left as f32,
            shortterm_winloss_error: winloss_error,
            shortterm_score_error: score_error,
        }
    }

    /// The short-term errors (v9+; -1 before, as KataGo prints them), by the version's
    /// formula.
    fn shortterm_errors(&self, raw: &RawOutput) -> (f32, f32) {
        let post = &self.model.post;
        if self.model.version < 9 {
            return (-1.0, -1.0);
        }
        let (wl, sc) = (f64::from(raw.scores[4]), f64::from(raw.scores[5]));
        let (value_mult, score_mult) = (
            f64::from(post.shortterm_value_error),
            f64::from(post.shortterm_score_error),
        );
        let (wl, sc) = match self.model.version {
            14.. => {
                let (a, b) = (softplus(wl * 0.5), softplus(sc * 0.5));
                ((a * a * value_mult).sqrt(), (b * b * score_mult).sqrt())
            }
            10.. => (
                (softplus(wl) * value_mult).sqrt(),
                (softplus(sc) * score_mult).sqrt(),
            ),
            _ => (softplus(wl), softplus(sc) * 10.0),
        };
        (wl as f32, sc as f32)
    }
}

/// The lead for the side to move, scaled, and counted 0 in games without result.
fn lead(post: &PostProcess, raw: &RawOutput, no_result: f32) -> f32 {
    (f64::from(raw.scores[2]) * f64::from(post.lead) * (1.0 - f64::from(no_result))) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn katagos_symmetries_go_back_the_way_they_came() {
        for size in [1, 4, 5] {
            for sym in 0..8u8 {
                let mut seen = vec![false; size * size];
                for i in 0..size * size {
                    let there = katago_symmetry(size, sym, false, i);
                    assert!(!seen[there], "a permutation");
                    seen[there] = true;
                }
            }
        }
        // Turned in and back, every point comes home: the network's output at the turned
        // point belongs to the point the input came from.
        for size in [3, 5] {
            for sym in 0..8u8 {
                for i in 0..size * size {
                    let turned = katago_symmetry(size, sym, false, i);
                    assert_eq!(katago_symmetry(size, sym, true, turned), i, "{sym}, {i}");
                }
            }
        }
    }
}
