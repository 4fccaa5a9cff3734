//! The `.hnet` network as a [`Network`]: [`features`] turns a position into one byte a
//! point, [`Model`] turns those bytes into one logit a point and, with a value head, the side
//! to move's winning chances (docs/policy-net.md says how it was trained).

use super::{features, model, Evaluator, Heads, Model, Network, Output, Workspace};
use crate::coord::Color;
use crate::game::Position;
use std::sync::Arc;

/// The network hoshi ships with, built into the binary so that `cargo install` gives one
/// self-contained file (`weights/policy.hnet`).
const EMBEDDED: &[u8] = include_bytes!("../../weights/policy.hnet");

/// The judges built in beside it, each for the one board it learnt
/// (`weights/judge-9x9.hnet`, `weights/judge-13x13.hnet`: docs/policy-net.md).
const EMBEDDED_JUDGES: [(usize, &[u8]); 2] = [
    (9, include_bytes!("../../weights/judge-9x9.hnet")),
    (13, include_bytes!("../../weights/judge-13x13.hnet")),
];

/// The embedded network.
pub fn embedded() -> Model {
    // The file is part of the build, and a test reads it.
    Model::from_bytes(EMBEDDED).expect("the embedded network reads")
}

/// The sizes of the boards that have an embedded judge of their own ([`embedded_judge`]).
pub fn judged_sizes() -> impl Iterator<Item = usize> {
    EMBEDDED_JUDGES.iter().map(|&(size, _)| size)
}

/// The embedded judge of `size`×`size` boards, if there is one.
pub fn embedded_judge(size: usize) -> Option<Model> {
    let (_, bytes) = EMBEDDED_JUDGES.iter().find(|&&(s, _)| s == size)?;
    // The files are part of the build, and a test reads them.
    Some(Model::from_bytes(bytes).expect("an embedded judge reads"))
}

impl Network for Model {
    fn describe(&self) -> String {
        let mut trunk = format!("{} blocks x {} channels", self.blocks(), self.channels());
        if self.pooled_blocks() > 0 {
            trunk += &format!(" ({} pooled)", self.pooled_blocks());
        }
        let outputs = [
            (self.has_score(), ", score"),
            (self.has_ownership(), ", ownership"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect::<String>();
        match self.value_sizes() {
            Some((v, h)) => format!("hnet network ({trunk}, value head {v} x {h}{outputs})"),
            None => format!("hnet network ({trunk})"),
        }
    }

    fn heads(&self) -> Heads {
        Heads {
            value: self.has_value(),
            score_lead: self.has_score(),
            ownership: self.has_ownership(),
        }
    }

    fn history(&self) -> usize {
        features::HISTORY
    }

    fn evaluator(&'static self, max_size: usize) -> Box<dyn Evaluator> {
        Box::new(HnetEvaluator {
            model: self,
            workspace: self.workspace(max_size, 1),
            input: Vec::with_capacity(max_size * max_size),
            logits: Vec::with_capacity(max_size * max_size),
        })
    }
}

/// One thread's evaluator of a [`Model`]: the input bytes, the logits and the forward pass's
/// workspace, allocated once and reused by every evaluation.
pub struct HnetEvaluator {
    model: &'static Model,
    workspace: Workspace,
    input: Vec<u8>,
    logits: Vec<f32>,
}

impl Evaluator for HnetEvaluator {
    fn evaluate(&mut self, position: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>) {
        outputs.clear();
        let Some(&first) = komis.first() else {
            return;
        };
        let (model, board) = (self.model, position.board);
        let size = board.size();
        // The network reads the komi its side to move receives.
        let mover_komi = |komi: f64| match position.to_move {
            Color::White => komi as f32,
            Color::Black => -komi as f32,
        };
        self.encode(position);
        let (ws, logits) = (&mut self.workspace, &mut self.logits);
        model.forward(size, &[&self.input], ws, logits);
        // The ownership does not depend on the komi: one map serves every output.
        let mut ownership = model.has_ownership().then(|| vec![0.0; size * size]);
        let first_judgement = model
            .has_value()
            .then(|| model.judge(size, ws, mover_komi(first), ownership.as_deref_mut()));
        let mut policy = vec![0.0; size * size];
        let input = &self.input;
        model::softmax_over(
            &self.logits,
            |i| features::is_playable(input[i]),
            &mut policy,
        );
        for (i, &komi) in komis.iter().enumerate() {
            // The komi enters only the value head's last layers: the trunk serves them all.
            let judgement = match i {
                0 => first_judgement,
                _ => first_judgement.map(|_| model.judge(size, ws, mover_komi(komi), None)),
            };
            let last = i + 1 == komis.len();
            let (policy, ownership) = if last {
                (std::mem::take(&mut policy), ownership.take())
            } else {
                (policy.clone(), ownership.clone())
            };
            outputs.push(Arc::new(Output {
                policy,
                pass: 0.0,
                value: judgement.map(|j| j.value),
                score_lead: judgement.and_then(|j| j.score_lead),
                ownership,
            }));
        }
    }
}

impl HnetEvaluator {
    /// The input bytes of the position, sized for its board, and room for its logits.
    fn encode(&mut self, position: &Position<'_>) {
        let board = position.board;
        let area = board.size() * board.size();
        self.input.resize(area, 0);
        self.logits.resize(area, 0.0);
        features::encode(board, position.to_move, position.recent, &mut self.input);
    }
}
