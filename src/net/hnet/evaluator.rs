//! The `.hnet` network as a [`Network`]: its description and heads, and the evaluator a
//! thread asks about positions, which encodes them, reads them in a symmetry, runs the
//! forward pass and the value head once a komi, and turns the logits into probabilities.

use super::{features, Model, ValueOutput, Workspace};
use crate::coord::{Color, Move};
use crate::game::Position;
use crate::net::kernels::linalg::softmax_over;
use crate::net::symmetry::Reading;
use crate::net::{Evaluator, Heads, Network, Output, Symmetry};
use std::sync::Arc;

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
            score_stdev: false,
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
            turned: Vec::new(),
            turned_logits: Vec::new(),
            recent: Vec::with_capacity(features::HISTORY),
            reading: Reading::AsItStands,
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
    /// The input and the logits in the symmetry read ([`Evaluator::vary_symmetry`]).
    turned: Vec<u8>,
    turned_logits: Vec<f32>,
    /// The moves the features read, without their colours.
    recent: Vec<Move>,
    /// In which symmetry positions are read.
    reading: Reading,
}

impl Evaluator for HnetEvaluator {
    fn evaluate(&mut self, position: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>) {
        outputs.clear();
        let Some(&first) = komis.first() else {
            return;
        };
        let (model, to_move) = (self.model, position.to_move);
        let size = position.board.size();
        self.encode(position);
        let symmetry = self.reading.of(position);
        self.forward(size, symmetry);
        // The ownership does not depend on the komi: one map serves every output.
        let mut ownership = model.has_ownership().then(|| vec![0.0; size * size]);
        let first_value = model.has_value().then(|| {
            let komi = mover_komi(to_move, first);
            self.first_value(size, symmetry, komi, ownership.as_deref_mut())
        });
        let mut policy = self.policy(size);
        for (i, &komi) in komis.iter().enumerate() {
            // The komi enters only the value head's last layers: the trunk serves them all.
            let value = match i {
                0 => first_value,
                _ => first_value.map(|_| {
                    let ws = &mut self.workspace;
                    model.evaluate_value(size, ws, mover_komi(to_move, komi), None)
                }),
            };
            let last = i + 1 == komis.len();
            let (policy, ownership) = if last {
                (std::mem::take(&mut policy), ownership.take())
            } else {
                (policy.clone(), ownership.clone())
            };
            outputs.push(Arc::new(Output {
                policy,
                pass: None,
                value: value.map(|v| v.value),
                score_lead: value.and_then(|v| v.score_lead),
                ownership,
                ..Default::default()
            }));
        }
    }

    fn vary_symmetry(&mut self) {
        self.reading = Reading::Varied;
    }

    fn read_in(&mut self, symmetry: Symmetry) -> bool {
        self.reading = Reading::Fixed(symmetry);
        true
    }
}

/// The komi the side to move receives, which the network reads: Black's area komi for
/// White, its negation for Black.
pub(super) fn mover_komi(to_move: Color, komi: f64) -> f32 {
    match to_move {
        Color::White => komi as f32,
        Color::Black => -komi as f32,
    }
}

impl HnetEvaluator {
    /// The value head by `mover_komi` on the trunk [`HnetEvaluator::forward`] left, with the
    /// ownership into `ownership` (in the board's own order) where the network has it. A
    /// turned reading's map goes through the turned logits' buffer, free once they are back.
    fn first_value(
        &mut self,
        size: usize,
        symmetry: Symmetry,
        mover_komi: f32,
        ownership: Option<&mut [f32]>,
    ) -> ValueOutput {
        let (model, ws) = (self.model, &mut self.workspace);
        let turned_logits = &mut self.turned_logits;
        match ownership {
            Some(map) if symmetry != Symmetry::IDENTITY => {
                let output = model.evaluate_value(size, ws, mover_komi, Some(turned_logits));
                symmetry.turn_back(size, turned_logits, map);
                output
            }
            map => model.evaluate_value(size, ws, mover_komi, map),
        }
    }

    /// The moves' probabilities from the logits, 0 where the side to move may not play.
    fn policy(&self, size: usize) -> Vec<f32> {
        let mut policy = vec![0.0; size * size];
        let input = &self.input;
        softmax_over(
            &self.logits,
            |i| features::is_playable(input[i]),
            &mut policy,
        );
        policy
    }

    /// The trunk and the policy on the encoded input read in `symmetry`, the logits back in
    /// the board's own order; the workspace keeps the trunk for the value head.
    fn forward(&mut self, size: usize, symmetry: Symmetry) {
        let (model, ws) = (self.model, &mut self.workspace);
        if symmetry == Symmetry::IDENTITY {
            model.forward(size, &[&self.input], ws, &mut self.logits);
            return;
        }
        let area = size * size;
        self.turned.resize(area, 0);
        self.turned_logits.resize(area, 0.0);
        for (i, &code) in self.input.iter().enumerate() {
            self.turned[symmetry.map(size, i)] = code;
        }
        model.forward(size, &[&self.turned], ws, &mut self.turned_logits);
        symmetry.turn_back(size, &self.turned_logits, &mut self.logits);
    }

    /// The input bytes of the position, sized for its board, and room for its logits.
    fn encode(&mut self, position: &Position<'_>) {
        let board = position.board;
        let area = board.size() * board.size();
        self.input.resize(area, 0);
        self.logits.resize(area, 0.0);
        self.recent.clear();
        self.recent
            .extend(position.recent.iter().take(features::HISTORY).map(|p| p.mv));
        features::encode(board, position.to_move, &self.recent, &mut self.input);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::coord::{Move, Vertex};
    use crate::game::Played;
    use crate::net::hnet::embedded_value_network;

    /// Read in its own symmetry, a position gets the network's outputs mapped back onto the
    /// board: the same for every reading, up to what the network learnt differently in each
    /// (the 9x9 value network; White's D4 and E4 in atari, Black to capture them at D5).
    #[test]
    fn a_varied_reading_maps_back_onto_the_board() {
        let net: &'static Model = Box::leak(Box::new(
            embedded_value_network(9).expect("a 9x9 value network"),
        ));
        let mut board = Board::new(9).expect("a board size");
        let g = board.geometry();
        for (color, name) in [
            (Color::Black, "E5"),
            (Color::White, "E4"),
            (Color::Black, "F4"),
            (Color::White, "D4"),
            (Color::Black, "E3"),
            (Color::White, "G7"),
            (Color::Black, "C4"),
            (Color::White, "C7"),
            (Color::Black, "D3"),
            (Color::White, "G3"),
        ] {
            let p = g.point(Vertex::parse_gtp(name).expect("a vertex"));
            board.play(color, Move::Play(p)).expect("a legal move");
        }
        let to_move = Color::Black;
        let capture = g.vertex_index(g.point(Vertex::parse_gtp("D5").expect("a vertex")));
        let mut plain = net.evaluator(9);
        let mut varied = net.evaluator(9);
        varied.vary_symmetry();
        let mut readings = Vec::new();
        // The last move decides the symmetry: try several, so that most readings are turned.
        for last in ["G3", "C7", "G7", "D3"] {
            let last = [Played {
                color: to_move.opponent(),
                mv: Move::Play(g.point(Vertex::parse_gtp(last).expect("a vertex"))),
            }];
            let position = Position::of_stones(&board, to_move, &last);
            let symmetry = Symmetry::of(&position);
            let a = plain.evaluate_one(&position, 7.5);
            let b = varied.evaluate_one(&position, 7.5);
            assert_eq!(b, varied.evaluate_one(&position, 7.5), "read alike again");
            let playable =
                |o: &Output| -> Vec<bool> { o.policy.iter().map(|&p| p > 0.0).collect() };
            assert_eq!(playable(&a), playable(&b), "the same points playable");
            assert!(b.policy[capture] > 0.0, "{symmetry:?}");
            let (va, vb) = (a.value.expect("a value"), b.value.expect("a value"));
            assert!((va - vb).abs() < 0.15, "{va} {vb} in {symmetry:?}");
            // Each reading finds the stones where they are: Black's (the mover's) owned by
            // Black, White's safe ones by White.
            for o in [&a, &b] {
                let own = o.ownership.as_ref().expect("ownership");
                for (name, sign) in [
                    ("E5", 1.0),
                    ("F4", 1.0),
                    ("C4", 1.0),
                    ("C7", -1.0),
                    ("G7", -1.0),
                ] {
                    let i = g.vertex_index(g.point(Vertex::parse_gtp(name).expect("a vertex")));
                    assert!(own[i] * sign > 0.0, "{name}: {} in {symmetry:?}", own[i]);
                }
            }
            readings.push(symmetry);
        }
        assert!(
            readings.iter().any(|&s| s != Symmetry::IDENTITY),
            "{readings:?}"
        );
    }
}
