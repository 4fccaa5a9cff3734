//! Uniform random playouts: from a position, both sides play uniformly random legal moves
//! that do not fill their own eyes until both pass, then the board is counted by area. This is
//! the board's speed benchmark and the baseline of the Monte Carlo player.

use crate::board::Board;
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
    let mut i = ((rng.next_u32() as u64 * n as u64) >> 32) as usize;
    for _ in 0..n {
        let p = empties[i];
        if board.is_sensible(color, p) {
            return Move::Play(p);
        }
        i += 1;
        if i == n {
            i = 0;
        }
    }
    Move::Pass
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
    let mut lead = board.stones(Color::Black) as i32 - board.stones(Color::White) as i32;
    for &p in board.empty_points() {
        match board.area_owner(p) {
            Some(Color::Black) => lead += 1,
            Some(Color::White) => lead -= 1,
            None => {}
        }
    }
    lead
}
