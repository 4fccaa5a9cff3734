//! The contract every network format keeps with the interface, checked by each format's
//! tests on its own networks ([`keeps_the_contract`]): the evaluator gives what the
//! format's own forward pass gives; a position read in each of the eight symmetries is the
//! turned board read as it stands, turned back; two komis asked at once are each the one
//! asked alone; the cache answers what the network would. The positions cover the board
//! sizes a search meets (7x7, 9x9, 13x13, 19x19), stones in atari, passes in the history
//! and both sides to move.

use super::cache::{Cache, Cached, Reads};
use super::{Evaluator, Output, SharedNet, Symmetry};
use crate::board::Board;
use crate::coord::{Color, Move, Point, Vertex};
use crate::game::{Played, Position};
use std::sync::Arc;

/// A position of the contract: stones placed (no capture on the way, no ko), the side to
/// move, and the moves before it.
pub struct Case {
    pub board: Board,
    pub to_move: Color,
    pub recent: Vec<Played>,
}

impl Case {
    /// `stones` (GTP vertices) alternately Black's and White's from Black, the last of them
    /// (and `passes` passes after them) as the moves before the position.
    fn new(size: usize, stones: &[&str], passes: usize) -> Case {
        let mut board = Board::new(size).expect("a board size");
        let g = board.geometry();
        let colors = [Color::Black, Color::White];
        let mut recent = Vec::new();
        for (i, vertex) in stones.iter().enumerate() {
            let p = g.parse_point(vertex).expect("a vertex of the board");
            board.place(colors[i % 2], p);
            recent.push(Played {
                color: colors[i % 2],
                mv: Move::Play(p),
            });
        }
        for i in 0..passes {
            recent.push(Played {
                color: colors[(stones.len() + i) % 2],
                mv: Move::Pass,
            });
        }
        recent.reverse();
        let to_move = colors[(stones.len() + passes) % 2];
        Case {
            board,
            to_move,
            recent,
        }
    }

    pub fn position(&self) -> Position<'_> {
        Position::of_stones(&self.board, self.to_move, &self.recent)
    }

    /// The same position turned by `symmetry`: each stone and move from vertex index `i`
    /// to `symmetry.map(size, i)`, the order of play kept.
    fn turned(&self, symmetry: Symmetry) -> Case {
        let size = self.board.size();
        let g = self.board.geometry();
        let turn = |p: Point| {
            let i = symmetry.map(size, g.vertex_index(p));
            let vertex = Vertex {
                col: (i % size) as u8,
                row: (i / size) as u8,
            };
            g.point(vertex)
        };
        let mut board = Board::new(size).expect("a board size");
        for p in g.points() {
            if let Some(color) = self.board.color_at(p) {
                board.place(color, turn(p));
            }
        }
        let recent = (self.recent.iter())
            .map(|played| Played {
                color: played.color,
                mv: match played.mv {
                    Move::Play(p) => Move::Play(turn(p)),
                    Move::Pass => Move::Pass,
                },
            })
            .collect();
        Case {
            board,
            to_move: self.to_move,
            recent,
        }
    }
}

/// The positions every format is checked on.
pub fn cases() -> Vec<Case> {
    vec![
        Case::new(7, &["D4", "C3", "E3"], 1),
        Case::new(9, &[], 0),
        Case::new(9, &["E5", "C3", "D3", "C4", "G7", "D4", "C5"], 0),
        Case::new(13, &["D4", "K10", "K4", "D10", "C3", "G7"], 2),
        Case::new(
            19,
            &["Q16", "D4", "Q4", "D16", "R6", "C14", "O3", "F17", "K10"],
            0,
        ),
    ]
}

/// Whether two outputs agree within `tolerance` in every field.
pub fn assert_close(a: &Output, b: &Output, tolerance: f32, what: &str) {
    let close = |x: f32, y: f32| (x - y).abs() <= tolerance;
    assert_eq!(a.policy.len(), b.policy.len(), "{what}: policy sizes");
    for (i, (&x, &y)) in a.policy.iter().zip(&b.policy).enumerate() {
        assert!(close(x, y), "{what}: policy[{i}] {x} against {y}");
    }
    let same = |x: Option<f32>, y: Option<f32>, field: &str| match (x, y) {
        (Some(x), Some(y)) => assert!(close(x, y), "{what}: {field} {x} against {y}"),
        (x, y) => assert_eq!(x.is_some(), y.is_some(), "{what}: {field} {x:?}, {y:?}"),
    };
    same(a.pass, b.pass, "pass");
    same(a.value, b.value, "value");
    same(a.score_lead, b.score_lead, "score lead");
    match (&a.ownership, &b.ownership) {
        (Some(x), Some(y)) => {
            for (i, (&x, &y)) in x.iter().zip(y).enumerate() {
                assert!(close(x, y), "{what}: ownership[{i}] {x} against {y}");
            }
        }
        (x, y) => assert_eq!(x.is_some(), y.is_some(), "{what}: ownership"),
    }
}

/// The evaluator gives what `own`, the format's own forward pass, gives, by two komis.
fn the_evaluator_is_the_forward_pass(net: SharedNet, own: &dyn Fn(&Position<'_>, f64) -> Output) {
    for (n, case) in cases().iter().enumerate() {
        let position = case.position();
        let mut evaluator = net.evaluator(case.board.size());
        for komi in [7.5, -3.5] {
            let given = evaluator.evaluate_one(&position, komi);
            let what = format!("case {n}, komi {komi}: evaluator against forward pass");
            assert_close(&given, &own(&position, komi), 1e-5, &what);
        }
    }
}

/// Read in each symmetry, a position gives what its turned board gives read as it stands,
/// its maps turned back; the policy sums to 1 with the pass.
fn every_symmetry_reads_the_turned_board(net: SharedNet) {
    for (n, case) in cases().iter().enumerate() {
        let size = case.board.size();
        let mut plain = net.evaluator(size);
        let upright = plain.evaluate_one(&case.position(), 7.5);
        let total: f32 = upright.policy.iter().sum::<f32>() + upright.pass.unwrap_or(0.0);
        assert!(
            (total - 1.0).abs() < 1e-4,
            "case {n}: the policy sums to {total}"
        );
        for symmetry in Symmetry::all() {
            let mut turned_reader = net.evaluator(size);
            if !turned_reader.read_in(symmetry) {
                return;
            }
            let read = turned_reader.evaluate_one(&case.position(), 7.5);
            let turned_case = case.turned(symmetry);
            let turned = plain.evaluate_one(&turned_case.position(), 7.5);
            let back = |map: &[f32]| {
                let mut out = vec![0.0; map.len()];
                symmetry.turn_back(size, map, &mut out);
                out
            };
            let expected = Output {
                policy: back(&turned.policy),
                ownership: turned.ownership.as_deref().map(back),
                ..(*turned).clone()
            };
            let what = format!("case {n}, symmetry {}", symmetry.number());
            assert_close(&read, &expected, 1e-5, &what);
        }
    }
}

/// Two komis asked at once give, each, what that komi alone gives.
fn two_komis_at_once_are_each_alone(net: SharedNet) {
    for (n, case) in cases().iter().enumerate() {
        let position = case.position();
        let mut evaluator = net.evaluator(case.board.size());
        let mut both = Vec::new();
        evaluator.evaluate(&position, &[0.5, 7.5], &mut both);
        assert_eq!(both.len(), 2);
        for (output, komi) in both.iter().zip([0.5, 7.5]) {
            let alone = evaluator.evaluate_one(&position, komi);
            assert_close(output, &alone, 0.0, &format!("case {n}, komi {komi}"));
        }
    }
}

/// The cache answers what the network answers, the first time (from the network) and the
/// second (from the cache), and keeps a fixed symmetry's readings apart.
fn the_cache_answers_as_the_network(net: SharedNet) {
    let reads = Reads::of(net.network());
    for (n, case) in cases().iter().enumerate() {
        let size = case.board.size();
        let position = case.position();
        let direct = net.evaluator(size).evaluate_one(&position, 7.5);
        let cache = Arc::new(Cache::new(64));
        let mut cached = Cached::new(net.evaluator(size), Arc::clone(&cache), reads);
        for time in ["first", "second"] {
            let given = cached.evaluate_one(&position, 7.5);
            assert_close(&given, &direct, 0.0, &format!("case {n}, {time} time"));
        }
        let symmetry = Symmetry::numbered(5).expect("a symmetry");
        let mut fixed = Cached::new(net.evaluator(size), cache, reads);
        let mut reader = net.evaluator(size);
        if fixed.read_in(symmetry) && reader.read_in(symmetry) {
            let given = fixed.evaluate_one(&position, 7.5);
            let what = format!("case {n}, read in a fixed symmetry");
            assert_close(&given, &reader.evaluate_one(&position, 7.5), 0.0, &what);
        }
    }
}

/// Every check of the contract on `net`, whose format computes an output by `own`.
pub fn keeps_the_contract(net: SharedNet, own: &dyn Fn(&Position<'_>, f64) -> Output) {
    the_evaluator_is_the_forward_pass(net, own);
    every_symmetry_reads_the_turned_board(net);
    two_komis_at_once_are_each_alone(net);
    the_cache_answers_as_the_network(net);
}
