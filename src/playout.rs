//! Uniform random playouts: from a position, both sides play uniformly random legal moves
//! that do not fill their own eyes until both pass, then the board is counted by area. This is
//! the board's speed benchmark and the baseline of the Monte Carlo player.

use crate::board::{Board, Cell};
use crate::coord::{Color, Move};
use rand::RngCore;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Moves played (passes included).
    pub moves: usize,
    /// Black's area minus White's area on the final board (komi not included).
    pub black_lead: i32,
}

/// Picks a uniformly random empty point where `color` may play without filling its own eye,
/// or `Pass` when there is none. Starting at a random slot of the empty list and scanning on
/// is uniform enough for playouts and needs no allocation.
#[inline]
pub fn random_move(board: &Board, color: Color, rng: &mut impl RngCore) -> Move {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return Move::Pass;
    }
    let start = ((rng.next_u32() as u64 * n as u64) >> 32) as usize;
    let (tail, head) = empties.split_at(start);
    head.iter()
        .chain(tail)
        .copied()
        .find(|&p| !board.is_eye(p, color) && board.check(color, p).is_ok())
        .map_or(Move::Pass, Move::Play)
}

/// Plays random moves on `board` from `to_move` until two passes in a row (or `max_moves`),
/// and returns the area difference on the final board.
pub fn play_out(
    board: &mut Board,
    to_move: Color,
    max_moves: usize,
    rng: &mut impl RngCore,
) -> PlayoutEnd {
    let mut color = to_move;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        match random_move(board, color, rng) {
            Move::Play(p) => {
                board.place(color, p);
                passes = 0;
            }
            Move::Pass => {
                board.pass();
                passes += 1;
            }
        }
        moves += 1;
        color = color.opponent();
    }
    PlayoutEnd {
        moves,
        black_lead: area_lead(board),
    }
}

/// Black's area minus White's: stones, plus empty points whose neighbours are all of one
/// colour. Exact once a playout has filled everything but eyes.
pub fn area_lead(board: &Board) -> i32 {
    let g = board.geometry();
    let mut lead = board.stones(Color::Black) as i32 - board.stones(Color::White) as i32;
    for &p in board.empty_points() {
        let mut seen = [false; 4];
        for n in g.neighbours(p) {
            seen[board.cell(n) as usize] = true;
        }
        match (seen[Cell::Black as usize], seen[Cell::White as usize]) {
            (true, false) => lead += 1,
            (false, true) => lead -= 1,
            _ => {}
        }
    }
    lead
}
