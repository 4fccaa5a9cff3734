//! The `.hnet` network as a [`Network`]: [`features`] turns a position into one byte a
//! point, [`Model`] turns those bytes into one logit a point and, with a value head, the side
//! to move's winning chances (docs/policy-net.md says how it was trained).

use super::{features, model, Evaluator, Heads, Model, Network, Output, Workspace};
use crate::coord::{Color, Move};
use crate::game::{Played, Position};
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

/// Whether `bytes` begin as a `.hnet` file does (its magic, `HOSHINET`).
pub fn recognises(bytes: &[u8]) -> bool {
    bytes.starts_with(b"HOSHINET")
}

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
            turned: Vec::new(),
            turned_logits: Vec::new(),
            recent: Vec::with_capacity(features::HISTORY),
            vary: false,
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
    /// Whether positions are read in a symmetry of their own.
    vary: bool,
}

/// One of the 8 symmetries of the square (the network learnt all of them: `train/train.py`
/// draws one for every sample): bit 0 mirrors the columns, bit 1 the rows, bit 2 then swaps
/// rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Symmetry(u8);

impl Symmetry {
    /// The one that leaves the board as it is.
    const IDENTITY: Symmetry = Symmetry(0);

    /// All eight.
    #[cfg(test)]
    fn all() -> impl Iterator<Item = Symmetry> {
        (0..8).map(Symmetry)
    }

    /// Where the point at `index` (row by row, `size` a row) goes.
    fn map(self, size: usize, index: usize) -> usize {
        let (mut row, mut col) = (index / size, index % size);
        if self.0 & 1 != 0 {
            col = size - 1 - col;
        }
        if self.0 & 2 != 0 {
            row = size - 1 - row;
        }
        if self.0 & 4 != 0 {
            std::mem::swap(&mut row, &mut col);
        }
        row * size + col
    }

    /// A map read in this symmetry (`turned`), back in the board's own order into `out`.
    fn turn_back<T: Copy>(self, size: usize, turned: &[T], out: &mut [T]) {
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = turned[self.map(size, i)];
        }
    }

    /// The symmetry `position` is read in: one of the 8 by its stones, the side to move and
    /// the last move, so that a position is always read alike and positions' readings vary.
    fn of(position: &Position<'_>) -> Symmetry {
        let mut hash = position.board.hash() ^ position.to_move.index() as u64;
        if let Some(Played {
            mv: Move::Play(p), ..
        }) = position.recent.first()
        {
            hash ^= (p.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        // The top bits of a multiplicative hash are its best mixed.
        Symmetry((hash.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 61) as u8)
    }
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
        let symmetry = if self.vary {
            Symmetry::of(position)
        } else {
            Symmetry::IDENTITY
        };
        self.forward(size, symmetry);
        let ws = &mut self.workspace;
        // The ownership does not depend on the komi: one map serves every output. A turned
        // reading's map goes through the turned logits' buffer, free once they are back.
        let mut ownership = model.has_ownership().then(|| vec![0.0; size * size]);
        let turned_logits = &mut self.turned_logits;
        let first_judgement = model.has_value().then(|| match ownership.as_deref_mut() {
            Some(map) if symmetry != Symmetry::IDENTITY => {
                let judgement = model.judge(size, ws, mover_komi(first), Some(turned_logits));
                symmetry.turn_back(size, turned_logits, map);
                judgement
            }
            map => model.judge(size, ws, mover_komi(first), map),
        });
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
                pass: None,
                value: judgement.map(|j| j.value),
                score_lead: judgement.and_then(|j| j.score_lead),
                ownership,
            }));
        }
    }

    fn vary_symmetry(&mut self) {
        self.vary = true;
    }
}

impl HnetEvaluator {
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
    use crate::coord::Vertex;

    #[test]
    fn the_eight_symmetries_are_the_squares_own() {
        let size = 5;
        let images: Vec<Vec<usize>> = Symmetry::all()
            .map(|s| (0..size * size).map(|i| s.map(size, i)).collect())
            .collect();
        for image in &images {
            let mut sorted = image.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                (0..size * size).collect::<Vec<_>>(),
                "a permutation"
            );
            // A corner stays a corner, the centre stays put.
            assert!([0, 4, 20, 24].contains(&image[0]), "{image:?}");
            assert_eq!(image[12], 12);
        }
        let distinct: std::collections::HashSet<_> = images.iter().collect();
        assert_eq!(distinct.len(), 8);
        assert_eq!(images[0], (0..size * size).collect::<Vec<_>>());
    }

    /// Read in its own symmetry, a position gets the network's judgement mapped back onto the
    /// board: the same for every reading, up to what the network learnt differently in each
    /// (the 9x9 judge; White's D4 and E4 in atari, Black to capture them at D5).
    #[test]
    fn a_varied_reading_maps_back_onto_the_board() {
        let net: &'static Model = Box::leak(Box::new(embedded_judge(9).expect("a 9x9 judge")));
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
