//! Where handicap stones go: the fixed star-point table of GTP §4.1.1 (as GoGui, KataGo and
//! GNU Go place them) and a free placement for `place_free_handicap`.

use crate::coord::{Vertex, MAX_SIZE};
use std::fmt;

/// Why a handicap cannot be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapError {
    /// Fewer than 2 stones, or more than the board allows.
    InvalidNumber,
    /// Stones (or moves) are already on the board.
    BoardNotEmpty,
    /// A vertex list with a repeat, a pass, or an off-board point.
    BadVertexList,
}

impl fmt::Display for HandicapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The GTP specification's own error texts.
        f.write_str(match self {
            HandicapError::InvalidNumber => "invalid number of stones",
            HandicapError::BoardNotEmpty => "board not empty",
            HandicapError::BadVertexList => "bad vertex list",
        })
    }
}

impl std::error::Error for HandicapError {}

/// The largest fixed handicap on a board of `size`: 9 on odd sizes from 9×9, 4 on 7×7 and on
/// even sizes from 8×8, none below 7×7.
pub fn max_fixed(size: usize) -> usize {
    match size {
        0..=6 => 0,
        s if s >= 9 && s % 2 == 1 => 9,
        _ => 4,
    }
}

/// The fixed handicap of `stones` stones on a board of `size`, in GoGui's order.
pub fn fixed(size: usize, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
    if stones < 2 || stones > max_fixed(size) || size > MAX_SIZE {
        return Err(HandicapError::InvalidNumber);
    }
    // Corner stones on the 4th line from 13×13 up, on the 3rd line below.
    let line = if size >= 13 { 4 } else { 3 };
    let (lo, hi, mid) = (line - 1, size - line, size / 2);
    let v = Vertex::new;
    let corners = [v(lo, lo), v(hi, hi), v(lo, hi), v(hi, lo)];
    let (left, right, bottom, top, centre) =
        (v(lo, mid), v(hi, mid), v(mid, lo), v(mid, hi), v(mid, mid));
    let mut points = corners[..stones.min(4)].to_vec();
    match stones {
        5 => points.push(centre),
        6 => points.extend([left, right]),
        7 => points.extend([left, right, centre]),
        8 => points.extend([left, right, bottom, top]),
        9 => points.extend([left, right, bottom, top, centre]),
        _ => {}
    }
    Ok(points)
}

/// A free placement of `stones` stones (2 to size²-1) chosen without search: the star
/// points in the usual patterns as far as they go (9 on odd boards from 9×9, as GNU Go's
/// fixed handicap and Pachi place them: the strong choice), then each further stone on the
/// point farthest from the stones already placed, away from the first and second lines
/// while such points remain, and on the fourth then the third line among equally far ones.
/// On 19×19 stones 10 to 13 go on the four 7-7 points (G7, G13, N7, N13), the next ones on
/// the fourth line between the star points; the edge is never chosen while the board has
/// room inside.
pub fn free(size: usize, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
    if stones < 2 || stones >= size * size || size > MAX_SIZE {
        return Err(HandicapError::InvalidNumber);
    }
    let mut points = fixed(size, stones.min(max_fixed(size))).unwrap_or_default();
    while points.len() < stones {
        let free = (0..size)
            .flat_map(|row| (0..size).map(move |col| Vertex::new(col, row)))
            .filter(|c| !points.contains(c));
        let inside: Vec<Vertex> = free.clone().filter(|&c| line(size, c) >= 3).collect();
        let candidates = if inside.is_empty() {
            free.collect()
        } else {
            inside
        };
        let best = candidates.into_iter().max_by_key(|&c| {
            let spread = points.iter().map(|&p| distance(c, p)).min();
            let line_rank = match line(size, c) {
                4 => 2,
                3 => 1,
                _ => 0,
            };
            // Among equals, the first in board order (from A1, row by row).
            let order = usize::from(c.row) * size + usize::from(c.col);
            (
                spread.unwrap_or(usize::MAX),
                line_rank,
                std::cmp::Reverse(order),
            )
        });
        match best {
            Some(c) => points.push(c),
            None => break,
        }
    }
    Ok(points)
}

/// The line of `c` counted from the nearest edge (1 = the edge).
fn line(size: usize, c: Vertex) -> usize {
    let (col, row) = (usize::from(c.col), usize::from(c.row));
    col.min(row).min(size - 1 - col).min(size - 1 - row) + 1
}

fn distance(a: Vertex, b: Vertex) -> usize {
    (a.col as usize).abs_diff(b.col as usize) + (a.row as usize).abs_diff(b.row as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: usize, n: usize) -> String {
        Vertex::gtp_list(&fixed(size, n).unwrap())
    }

    #[test]
    fn the_gtp_tables_for_19_13_and_9() {
        let expected_19 = [
            "D4 Q16",
            "D4 Q16 D16",
            "D4 Q16 D16 Q4",
            "D4 Q16 D16 Q4 K10",
            "D4 Q16 D16 Q4 D10 Q10",
            "D4 Q16 D16 Q4 D10 Q10 K10",
            "D4 Q16 D16 Q4 D10 Q10 K4 K16",
            "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10",
        ];
        let expected_13 = [
            "D4 K10",
            "D4 K10 D10",
            "D4 K10 D10 K4",
            "D4 K10 D10 K4 G7",
            "D4 K10 D10 K4 D7 K7",
            "D4 K10 D10 K4 D7 K7 G7",
            "D4 K10 D10 K4 D7 K7 G4 G10",
            "D4 K10 D10 K4 D7 K7 G4 G10 G7",
        ];
        let expected_9 = [
            "C3 G7",
            "C3 G7 C7",
            "C3 G7 C7 G3",
            "C3 G7 C7 G3 E5",
            "C3 G7 C7 G3 C5 G5",
            "C3 G7 C7 G3 C5 G5 E5",
            "C3 G7 C7 G3 C5 G5 E3 E7",
            "C3 G7 C7 G3 C5 G5 E3 E7 E5",
        ];
        for n in 2..=9 {
            assert_eq!(names(19, n), expected_19[n - 2]);
            assert_eq!(names(13, n), expected_13[n - 2]);
            assert_eq!(names(9, n), expected_9[n - 2]);
        }
    }

    #[test]
    fn small_and_even_boards_take_four_at_most() {
        assert_eq!(names(7, 4), "C3 E5 C5 E3");
        assert_eq!(names(8, 2), "C3 F6");
        assert_eq!(fixed(7, 5), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed(10, 5), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed(6, 2), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed(19, 1), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed(19, 10), Err(HandicapError::InvalidNumber));
    }

    fn free_names(size: usize, n: usize) -> String {
        Vertex::gtp_list(&free(size, n).unwrap())
    }

    #[test]
    fn free_placement_takes_the_star_points_up_to_nine() {
        for size in [9, 13, 19] {
            for n in 2..=9 {
                assert_eq!(free_names(size, n), names(size, n), "{size}x{size}, {n}");
            }
        }
        assert_eq!(free_names(10, 4), "C3 H8 C8 H3");
    }

    #[test]
    fn free_placement_beyond_nine_stays_off_the_edge() {
        let stars = "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10";
        assert_eq!(free_names(19, 13), format!("{stars} G7 N7 G13 N13"));
        assert_eq!(
            free_names(19, 17),
            format!("{stars} G7 N7 G13 N13 G3 N3 C7 R7")
        );
        assert_eq!(free_names(9, 13), "C3 G7 C7 G3 C5 G5 E3 E7 E5 D4 F4 D6 F6");
        assert_eq!(free_names(13, 12), "D4 K10 D10 K4 D7 K7 G4 G10 G7 C3 E3 H3");
    }

    #[test]
    fn free_placement_fills_small_boards_with_distinct_stones() {
        let stones = free(5, 24).unwrap();
        let mut sorted = stones.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 24);
        assert_eq!(free(5, 25), Err(HandicapError::InvalidNumber));
        assert_eq!(free(5, 3).unwrap().len(), 3);
        assert_eq!(free(19, 1), Err(HandicapError::InvalidNumber));
    }
}
