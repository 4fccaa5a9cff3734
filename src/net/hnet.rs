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

/// The embedded network.
pub fn embedded() -> Model {
    // The file is part of the build, and a test reads it.
    Model::from_bytes(EMBEDDED).expect("the embedded network reads")
}

impl Network for Model {
    fn describe(&self) -> String {
        let trunk = format!("{} blocks x {} channels", self.blocks(), self.channels());
        match self.value_sizes() {
            Some((v, h)) => format!("hnet network ({trunk}, value head {v} x {h})"),
            None => format!("hnet network ({trunk})"),
        }
    }

    fn heads(&self) -> Heads {
        Heads {
            value: self.has_value(),
            ..Heads::default()
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
        let first_value = if model.has_value() {
            let mut value = [0.0];
            let komi = [mover_komi(first)];
            model.forward_value(size, &[&self.input], &komi, ws, logits, &mut value);
            Some(value[0])
        } else {
            model.forward(size, &[&self.input], ws, logits);
            None
        };
        let mut policy = vec![0.0; size * size];
        let input = &self.input;
        model::softmax_over(
            &self.logits,
            |i| features::is_playable(input[i]),
            &mut policy,
        );
        let output = |policy: Vec<f32>, value: Option<f32>| {
            Arc::new(Output {
                policy,
                pass: 0.0,
                value,
                score_lead: None,
                ownership: None,
            })
        };
        for (i, &komi) in komis.iter().enumerate() {
            // The komi enters only the value head's last layers: the trunk serves them all.
            let value = match i {
                0 => first_value,
                _ => first_value.map(|_| model.value_again(size, ws, mover_komi(komi))),
            };
            let last = i + 1 == komis.len();
            let policy = if last {
                std::mem::take(&mut policy)
            } else {
                policy.clone()
            };
            outputs.push(output(policy, value));
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
