//! Small products over slices of floats, and the softmax that turns a policy's logits into
//! probabilities: the arithmetic of a network's heads, whatever its format.

/// The dot product of `a` and `b` (to the shorter's length), summed in order: the 1×1
/// convolutions and fully connected layers of a head.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `eˣ` without a library call, so that loops over many values vectorize (the attention's
/// softmaxes over the board, 361 × 361 a head on 19×19, and SwiGLU's gates): Cephes'
/// `expf` (Moshier), `x = n·ln 2 + r` and a degree-5 polynomial in `r`, within 2e-7 of
/// `f32::exp` relatively over the range where neither overflows or underflows. Below −87
/// it gives about 1e-38 rather than 0, and above 88 the largest power it has.
#[inline(always)]
pub(crate) fn exp(x: f32) -> f32 {
    // 1.5 · 2²³: adding it rounds to the nearest integer (SSE2 has no rounding instruction).
    const ROUND: f32 = 12_582_912.0;
    let x = x.clamp(-87.3, 88.3);
    let n = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    // ln 2 in two parts, so that `n · ln 2` is exact in the first.
    let r = x - n * 0.693_359_4 + n * 2.121_944_4e-4;
    let p = 1.987_569_1e-4;
    let p = p * r + 1.398_199_9e-3;
    let p = p * r + 8.333_452e-3;
    let p = p * r + 4.166_579_6e-2;
    let p = p * r + 1.666_666_5e-1;
    let p = p * r + 0.5;
    let e = p * r * r + r + 1.0;
    e * f32::from_bits(((n as i32 + 127) as u32) << 23)
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
    fn exp_agrees_with_the_library() {
        let mut worst = 0.0f64;
        for i in -87_000..=88_000 {
            let x = i as f32 / 1000.0 + 0.000_37;
            let (found, expected) = (f64::from(exp(x)), f64::from(x).exp());
            worst = worst.max((found - expected).abs() / expected);
        }
        assert!(worst < 2e-7, "relative error {worst}");
        assert_eq!(exp(0.0), 1.0);
        assert!(exp(-1e30) < 1e-37 && exp(-1e30) >= 0.0);
        assert!(exp(1e30).is_finite());
    }

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
