//! The input planes a point's byte ([`super::features`]) expands into: the Rust definition
//! of the table in `docs/policy-net.md`, which the training code's expansion must match.
//! The forward pass looks each byte up in [`INPUT_PLANES`] rather than decoding its bits.

/// Input planes a point expands into.
pub const PLANES: usize = 19;

/// The planes of one input byte, 0 or 1 each (the table of `docs/policy-net.md`).
///
/// A byte with both colour bits set (3) is no stone and no empty point: only plane 18 is set.
/// Bits the table leaves 0 for a point's kind (the age of an empty point, the ladder bits of a
/// stone) are ignored, so a malformed byte cannot light planes of the other kind.
pub const fn input_planes(code: u8) -> [f32; PLANES] {
    let mut planes = [0.0; PLANES];
    let liberties = ((code >> 2) & 3) as usize;
    let age = ((code >> 4) & 7) as usize;
    match code & 3 {
        0 => {
            planes[2] = 1.0;
            if code & 0x04 != 0 {
                planes[11] = 1.0;
            }
            if code & 0x08 != 0 {
                planes[12] = 1.0;
            }
            if code & 0x80 != 0 {
                planes[13] = 1.0;
            }
        }
        colour @ (1 | 2) => {
            let own = colour == 1;
            planes[if own { 0 } else { 1 }] = 1.0;
            planes[if own { 3 } else { 7 } + liberties] = 1.0;
            if age >= 1 && age <= 4 {
                planes[13 + age] = 1.0;
            }
        }
        _ => {}
    }
    planes[18] = 1.0;
    planes
}

/// [`input_planes`] of every byte, looked up once a point by the forward pass.
pub static INPUT_PLANES: [[f32; PLANES]; 256] = planes_table();

const fn planes_table() -> [[f32; PLANES]; 256] {
    let mut table = [[0.0; PLANES]; 256];
    let mut code = 0;
    while code < 256 {
        table[code] = input_planes(code as u8);
        code += 1;
    }
    table
}
