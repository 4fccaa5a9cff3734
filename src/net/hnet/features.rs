//! A position as the network sees it: one byte a point, from the side to move's view (see
//! `docs/policy-net.md`, whose table this module writes). `hoshi dataset` writes these bytes
//! for training and the search hands them to the network, so both see exactly the same
//! thing: that is why there is one encoder.

use crate::board::Board;
use crate::coord::{Color, Move, Point};

/// How many past moves the bytes remember (bits 4–6 hold 1 to 7).
pub const HISTORY: usize = 7;

/// Bits of a point's byte.
const OWN: u8 = 1;
const OPPONENT: u8 = 2;
const LIBERTY_SHIFT: u32 = 2;
const ILLEGAL: u8 = 1 << 2;
const LADDER_CAPTURE: u8 = 1 << 3;
const AGE_SHIFT: u32 = 4;
const CAUGHT_ESCAPE: u8 = 1 << 7;

/// The byte of every point of `board` for `color` to move, in point order (row by row from
/// A1, the order of `Geometry::points`), into `out` (`size²` bytes). `recent` are the moves
/// played before this position, the most recent first; passes count as moves.
pub fn encode(board: &Board, color: Color, recent: &[Move], out: &mut [u8]) {
    let geometry = board.geometry();
    let size = geometry.size();
    debug_assert_eq!(out.len(), size * size);
    for (slot, p) in out.iter_mut().zip(geometry.points()) {
        *slot = match board.color_at(p) {
            Some(c) => {
                let liberties = board.liberty_count(p).clamp(1, 4) as u8 - 1;
                let side = if c == color { OWN } else { OPPONENT };
                side | liberties << LIBERTY_SHIFT
            }
            None if board.check(color, p).is_err() => ILLEGAL,
            None => 0,
        };
    }
    let index = |p: Point| geometry.vertex_index(p);
    for (p, _) in board.ladder_captures(color) {
        out[index(p)] |= LADDER_CAPTURE;
    }
    for p in board.caught_escapes(color) {
        out[index(p)] |= CAUGHT_ESCAPE;
    }
    // Oldest first, so that a point played twice shows its latest age.
    for (age, mv) in recent.iter().take(HISTORY).enumerate().rev() {
        if let Move::Play(p) = *mv {
            let i = index(p);
            if board.color_at(p).is_some() {
                out[i] = out[i] & !(7 << AGE_SHIFT) | ((age as u8 + 1) << AGE_SHIFT);
            }
        }
    }
}

/// Whether a point's byte is one the side to move may play: empty and not illegal.
pub fn is_playable(code: u8) -> bool {
    code & (3 | ILLEGAL) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network's index of a point: its vertex order.
    fn point_index(board: &Board, p: Point) -> usize {
        board.geometry().vertex_index(p)
    }
    use crate::coord::Vertex;

    fn board(size: usize, moves: &[(Color, &str)]) -> (Board, Vec<Move>) {
        let mut b = Board::new(size).expect("a board size");
        let g = b.geometry();
        let mut played = Vec::new();
        for &(c, name) in moves {
            let p = g.point(Vertex::parse_gtp(name).expect("a vertex"));
            b.play(c, Move::Play(p)).expect("a legal move");
            played.push(Move::Play(p));
        }
        played.reverse();
        (b, played)
    }

    fn byte(b: &Board, out: &[u8], name: &str) -> u8 {
        let p = b
            .geometry()
            .point(Vertex::parse_gtp(name).expect("a vertex"));
        out[point_index(b, p)]
    }

    #[test]
    fn stones_liberties_and_ages_from_the_movers_view() {
        use Color::*;
        let (b, recent) = board(9, &[(Black, "C3"), (White, "D3"), (Black, "A1")]);
        let mut out = vec![0; 81];
        encode(&b, White, &recent, &mut out);
        // White to move: black stones are the opponent's.
        assert_eq!(
            byte(&b, &out, "A1"),
            OPPONENT | 1 << LIBERTY_SHIFT | 1 << AGE_SHIFT
        );
        assert_eq!(
            byte(&b, &out, "D3"),
            OWN | 2 << LIBERTY_SHIFT | 2 << AGE_SHIFT
        );
        assert_eq!(
            byte(&b, &out, "C3"),
            OPPONENT | 2 << LIBERTY_SHIFT | 3 << AGE_SHIFT
        );
        assert_eq!(byte(&b, &out, "E5"), 0);
        assert_eq!(point_index(&b, b.geometry().point(Vertex::new(1, 2))), 19);
    }

    #[test]
    fn the_ko_point_is_illegal_for_the_mover() {
        use Color::*;
        // Black C1 takes White B1: White may not take back at once.
        let moves = [
            (Black, "A1"),
            (White, "D1"),
            (Black, "B2"),
            (White, "C2"),
            (Black, "J9"),
            (White, "B1"),
            (Black, "C1"),
        ];
        let (b, recent) = board(9, &moves);
        let mut out = vec![0; 81];
        encode(&b, White, &recent, &mut out);
        assert_eq!(byte(&b, &out, "B1"), ILLEGAL);
        for (i, p) in b.geometry().points().enumerate() {
            let illegal = b.color_at(p).is_none() && b.check(White, p).is_err();
            assert_eq!(
                out[i] & 3 == 0 && out[i] & ILLEGAL != 0,
                illegal,
                "point {i}"
            );
        }
    }

    #[test]
    fn ladders_are_marked() {
        // The textbook ladder: White D4 (liberties D5, E4) against C4, D3 and E5.
        let (b, p) = crate::board::test_board(9, "C4 D3 E5", "D4");
        let mut out = vec![0; 81];
        encode(&b, Color::Black, &[], &mut out);
        let atari = b.ladder_atari(p("D4")).expect("a ladder");
        assert_ne!(out[point_index(&b, atari)] & LADDER_CAPTURE, 0);
        let empty_captures = out
            .iter()
            .filter(|&&c| c & 3 == 0 && c & LADDER_CAPTURE != 0);
        assert_eq!(empty_captures.count(), 1);
        // After Black D5, White's run at E4 is caught.
        let (b, p) = crate::board::test_board(9, "C4 D3 E5 D5", "D4");
        encode(&b, Color::White, &[], &mut out);
        assert_eq!(out[point_index(&b, p("E4"))], CAUGHT_ESCAPE);
        assert_eq!(out[point_index(&b, p("D4"))], OWN);
    }
}
