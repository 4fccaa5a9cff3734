//! 3×3 shape patterns (the MoGo set as michi and Pachi use it): good local replies around
//! the last move for the playouts, and a prior for the tree. A pattern is matched against the
//! eight points around a candidate, in all eight orientations and with colors swapped, so the
//! whole set compiles into one table of 65,536 bits indexed by
//! [`Board::neighbourhood_code`](crate::board::Board::neighbourhood_code).
//!
//! Legend: `X`, `O` stones (either color, the other one), `.` empty, `#` off board,
//! `x` anything but X, `o` anything but O, `?` anything. The centre is the candidate point.

use std::sync::OnceLock;

const PATTERNS: [[&str; 3]; 14] = [
    ["XOX", "...", "???"], // hane: enclosing hane
    ["XO.", "...", "?.?"], // hane: non-cutting hane
    ["XO?", "X..", "x.?"], // hane: magari
    [".O.", "X..", "..."], // katatsuke or diagonal attachment
    ["XO?", "O.o", "?o?"], // cut: unprotected cut
    ["XO?", "O.X", "???"], // cut: peeped cut
    ["?X?", "O.O", "ooo"], // cut: de
    ["OX?", "o.O", "???"], // cut: keima cut
    ["X.?", "O.?", "##?"], // edge: chase
    ["OX?", "X.O", "###"], // edge: block a side cut
    ["?X?", "x.O", "###"], // edge: block a side connection
    ["?XO", "x.x", "###"], // edge: sagari
    ["?OX", "X.O", "###"], // edge: cut
    ["?X.", "O.X", "###"], // edge: make an eye
];

/// Cell values as the board encodes them.
const EMPTY: u16 = 0;
const BLACK: u16 = 1;
const WHITE: u16 = 2;
const BORDER: u16 = 3;

/// Whether the neighbourhood `code` around an empty point matches a pattern.
#[inline]
pub fn matches(code: u16) -> bool {
    let table = table();
    table[code as usize / 64] >> (code % 64) & 1 == 1
}

fn table() -> &'static [u64; 1024] {
    static TABLE: OnceLock<Box<[u64; 1024]>> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Box<[u64; 1024]> {
    let mut table = Box::new([0u64; 1024]);
    for pattern in PATTERNS {
        let grid: Vec<Vec<u8>> = pattern.iter().map(|row| row.bytes().collect()).collect();
        for symmetric in symmetries(&grid) {
            for (x, o) in [(BLACK, WHITE), (WHITE, BLACK)] {
                expand(&symmetric, x, o, 0, 0, &mut table);
            }
        }
    }
    table
}

/// The eight rotations and reflections of a 3×3 grid.
fn symmetries(grid: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let rotate = |g: &Vec<Vec<u8>>| -> Vec<Vec<u8>> {
        (0..3)
            .map(|r| (0..3).map(|c| g[2 - c][r]).collect())
            .collect()
    };
    let mirror = |g: &Vec<Vec<u8>>| -> Vec<Vec<u8>> {
        g.iter()
            .map(|row| row.iter().rev().copied().collect())
            .collect()
    };
    let mut out = Vec::new();
    let mut g = grid.to_vec();
    for _ in 0..4 {
        out.push(g.clone());
        out.push(mirror(&g));
        g = rotate(&g);
    }
    out
}

/// Sets the bit of every concrete neighbourhood the grid's wildcards allow, from neighbour
/// number `k` on (`code` holds the neighbours already chosen).
fn expand(grid: &[Vec<u8>], x: u16, o: u16, k: usize, code: u16, table: &mut [u64; 1024]) {
    if k == 8 {
        table[code as usize / 64] |= 1 << (code % 64);
        return;
    }
    // Neighbour k in the order of `neighbourhood_code`: row by row from the north-west,
    // skipping the centre.
    let cell = k + usize::from(k >= 4);
    let symbol = grid[cell / 3][cell % 3];
    let options: &[u16] = match symbol {
        b'X' => &[x],
        b'O' => &[o],
        b'.' => &[EMPTY],
        b'#' => &[BORDER],
        b'x' => &[EMPTY, o, BORDER],
        b'o' => &[EMPTY, x, BORDER],
        _ => &[EMPTY, BLACK, WHITE, BORDER],
    };
    for &value in options {
        expand(grid, x, o, k + 1, code | value << (2 * k), table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::coord::Color;

    #[test]
    fn hane_matches_in_every_orientation_and_color() {
        // Black D4, White D5: a hane at C5 or E5 ("XO." over "..."), seen from the side.
        let g = Board::new(9).unwrap().geometry();
        let p = |v: &str| g.parse_point(v).unwrap();
        for (black, white, candidate) in
            [("D4", "D5", "E5"), ("D4", "D5", "C5"), ("E5", "D5", "D4")]
        {
            let b = Board::from_stones(9, [(p(black), Color::Black), (p(white), Color::White)])
                .unwrap();
            assert!(
                matches(b.neighbourhood_code(p(candidate))),
                "{black} {white} {candidate}"
            );
            let swapped =
                Board::from_stones(9, [(p(black), Color::White), (p(white), Color::Black)])
                    .unwrap();
            assert!(matches(swapped.neighbourhood_code(p(candidate))));
        }
        // Nothing around: no pattern.
        let empty = Board::new(9).unwrap();
        assert!(!matches(empty.neighbourhood_code(p("E5"))));
    }

    #[test]
    fn cuts_match_and_lone_stones_do_not() {
        let (b, p) = crate::board::test_board(9, "D6 F5", "E6 D5");
        // Peeped cut at E5: "XO? / O.X / ???".
        assert!(matches(b.neighbourhood_code(p("E5"))));
        let (b, p) = crate::board::test_board(9, "E6", "");
        assert!(!matches(b.neighbourhood_code(p("E5"))));
        let (b, p) = crate::board::test_board(9, "E6 D5", "");
        assert!(
            !matches(b.neighbourhood_code(p("E5"))),
            "one color alone makes no shape"
        );
    }
}
