//! Pooling over the whole board, so that what happens far away reaches every point: the
//! means, the means scaled by the board's size, and the maxima of a layer's channels, as
//! KataGo's global pooling computes them.

/// Turns the sums of `pooled`'s first V values into means and writes the second V values,
/// those means scaled by `(size − 14) / 10` (KataGo's global pooling) (the maxima, the third V, are already there): the
/// pooling the value head and the pooled blocks share.
pub(crate) fn board_pool_finish(pooled: &mut [f32], v: usize, size: usize) {
    let area = (size * size) as f32;
    let scale = (size as f32 - 14.0) / 10.0;
    let (means, scaled) = pooled[..2 * v].split_at_mut(v);
    for (mean, scaled) in means.iter_mut().zip(scaled) {
        *mean /= area;
        *scaled = *mean * scale;
    }
}
