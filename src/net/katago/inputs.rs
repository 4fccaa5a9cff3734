//! KataGo's input features (`NNInputs::fillRowV7`).

use crate::game::Position;

pub const SPATIAL: usize = 22;
pub const GLOBAL: usize = 19;

/// What the evaluator chooses beside the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct InputOptions {
    pub pass_alive_under_suicide_rules: bool,
    pub playout_doubling_advantage: f32,
}

/// Fills KataGo's input features of `position` (temporary: stones only).
pub fn fill(
    position: &Position<'_>,
    komi: f64,
    _options: &InputOptions,
    spatial: &mut [f32],
    global: &mut [f32; GLOBAL],
) {
    let board = position.board;
    let size = board.size();
    let g = board.geometry();
    spatial.fill(0.0);
    global.fill(0.0);
    for p in g.points() {
        let v = g.vertex(p);
        let i = (size - 1 - v.row as usize) * size + v.col as usize;
        spatial[i] = 1.0;
        match board.color_at(p) {
            Some(c) if c == position.to_move => spatial[size * size + i] = 1.0,
            Some(_) => spatial[2 * size * size + i] = 1.0,
            None => {}
        }
    }
    let self_komi = match position.to_move {
        crate::coord::Color::White => komi,
        crate::coord::Color::Black => -komi,
    };
    global[5] = self_komi as f32 / 20.0;
}
