//! Small products over slices of floats, and the softmax that turns a policy's logits into
//! probabilities: the arithmetic of a network's heads, whatever its format.

/// The dot product of `a` and `b` (to the shorter's length), summed in order: the 1×1
/// convolutions and fully connected layers of a head.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Probabilities from logits: a softmax over the points `allowed` accepts, 0 at the others.
/// Returns false, with every probability 0, when no point is allowed.
///
/// # Panics
/// If `logits` and `out` differ in length.
pub fn softmax_over(logits: &[f32], allowed: impl Fn(usize) -> bool, out: &mut [f32]) -> bool {
    assert_eq!(logits.len(), out.len(), "one probability a logit");
    let max = (0..logits.len())
        .filter(|&p| allowed(p))
        .map(|p| logits[p])
        .fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        out.fill(0.0);
        return false;
    }
    let mut sum = 0.0;
    for (p, (o, &l)) in out.iter_mut().zip(logits).enumerate() {
        *o = if allowed(p) { (l - max).exp() } else { 0.0 };
        sum += *o;
    }
    out.iter_mut().for_each(|o| *o /= sum);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_over_allowed_points() {
        let logits = [1.0, 2.0, 3.0, 1000.0];
        let mut out = [9.0; 4];
        assert!(softmax_over(&logits, |p| p < 3, &mut out));
        let e = [(-2.0f32).exp(), (-1.0f32).exp(), 1.0];
        let sum: f32 = e.iter().sum();
        let expected = [e[0] / sum, e[1] / sum, e[2] / sum, 0.0];
        for (&found, &expected) in out.iter().zip(&expected) {
            assert!(
                (found - expected).abs() <= 1e-4,
                "{found} against {expected}"
            );
        }
        assert!(!softmax_over(&logits, |_| false, &mut out));
        assert_eq!(out, [0.0; 4]);
    }
}
