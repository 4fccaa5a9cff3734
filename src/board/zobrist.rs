//! Zobrist keys: one random 64-bit key per (color, point), fixed at compile time so that
//! hashes are identical from run to run (tests and logs can quote them).

use crate::coord::{Color, Point, SLOTS};

/// splitmix64: a tiny, well-mixed generator, good enough to fill a key table.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; SLOTS]; 2] {
    let mut keys = [[0u64; SLOTS]; 2];
    let mut state = 0x686F_7368_695F_676Fu64; // "hoshi_go"
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < SLOTS {
            let (next, key) = splitmix64(state);
            state = next;
            keys[color][i] = key;
            i += 1;
        }
        color += 1;
    }
    keys
}

static KEYS: [[u64; SLOTS]; 2] = make_keys();

/// The key of a stone of `color` on `p`.
#[inline]
pub fn stone_key(color: Color, p: Point) -> u64 {
    KEYS[color.index()][p.index()]
}

/// Key mixed into a position hash to say which player is to move (situational superko).
pub const TO_MOVE_WHITE: u64 = 0x5748_4954_455F_544Fu64;
