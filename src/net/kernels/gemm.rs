//! The register-blocked matrix product that the heavy layers of every network format run on:
//! the 36 products of a Winograd convolution ([`super::conv`]), the 1×1 convolutions, and
//! the projections of KataGo's transformer blocks. One kernel for all of them, so that each
//! gain in it is a gain everywhere.
//!
//! The product is `out = input · W`: `input` a matrix of rows (the tiles of a convolution,
//! the points of a board) by `c_in` columns, `W` the layer's `c_in × c_out` weights. The
//! weights are laid out once, when the network loads ([`Packed`]), in blocks of [`COLUMNS`]
//! vectors of 8 output channels, each block's vectors for one input channel side by side:
//! the kernel then reads them in order. For `R` rows and one block at a time it keeps the
//! `R × COLUMNS` vectors of sums in registers, broadcasts one input value of each row and
//! multiplies it against the block's weight vectors, so that each weight vector it loads
//! serves `R` multiply-adds. The body is plain Rust over 8-float arrays, written once and
//! inlined into three copies, chosen at run time by [`Path`]: a portable one (SSE2 on the
//! default x86-64 target), one compiled for AVX2 and FMA, and one for AVX-512 (where LLVM
//! joins two 8-float vectors into one 16-float register).

#[cfg(target_arch = "x86_64")]
use super::conv::Fused;
use super::conv::{Lanes, MulAdd, Path, Plain, LANES};

/// Output vectors (32 channels) the product computes at a time. The packed weights are laid
/// out for it, so every copy of the kernel uses the same. Measured on the 6 × 64 value
/// network, 19×19, AVX2 (rows × vectors a step): 2 × 4 and 4 × 2 run alike, 4 × 1 or 6 × 1
/// at 80%, 6 × 2 (spilling registers) at 75%; on KataGo's b6c96, 4 × 3 spills and runs at
/// 88% of 2 × 4 (docs/benchmarks.md).
pub(crate) const COLUMNS: usize = 4;

/// Rows the AVX2 copy multiplies at a time: in column order, 3 × 4 accumulators, the 3 rows'
/// inputs and one weight vector take all 16 of its registers, and each step's 7 loads serve
/// 12 fused multiply-adds. Against 2 rows in row order (8 multiply-adds for 6 loads) it ran
/// the 6 × 64 judge 9% faster and b6c96 2% (docs/benchmarks.md).
#[cfg(target_arch = "x86_64")]
pub(crate) const AVX2_ROWS: usize = 3;

/// The most rows a step takes in column order (weight vector by weight vector, each used by
/// every row before the next is loaded). With more rows (the AVX-512 copy's 8) it goes row by
/// row, so that LLVM can join a row's two 8-float vectors into one 16-float register.
const COLUMN_ORDER_ROWS: usize = 3;

/// Rows the AVX-512 copy multiplies at a time: 8 × 2 accumulators of 16 floats and 2 weight
/// registers take 18 of its 32 (12 rows measured no faster).
#[cfg(target_arch = "x86_64")]
pub(crate) const AVX512_ROWS: usize = 8;

/// Rows the portable copy multiplies at a time: an 8-float vector is two of SSE2's 16
/// registers, so one row's 4 vectors of sums take 8 and the weights the rest.
pub(crate) const PORTABLE_ROWS: usize = 1;

/// The most rows a kernel multiplies at a time (the remainder's kernels go up to one less).
const MAX_ROWS: usize = 8;

/// A layer's weights, `c_in × c_out`, laid out for the kernel: block after block of up to
/// [`COLUMNS`] output vectors; within a block `[c_in][vector]`. The output channels are
/// rounded up to whole vectors with zero weights.
#[derive(Clone, Debug, Default)]
pub(crate) struct Packed {
    /// Input channels: the values of an input row the product reads.
    pub c_in: usize,
    /// Output channels: the values of an output row the product writes.
    pub c_out: usize,
    /// Output vectors, `c_out` rounded up.
    vectors: usize,
    weights: Vec<Lanes>,
}

impl Packed {
    /// Lays out the weights `weight(i, o)` of input channel `i` and output channel `o`.
    pub(crate) fn new(c_in: usize, c_out: usize, weight: impl Fn(usize, usize) -> f32) -> Packed {
        let mut packed = Packed::default();
        packed.refill(c_in, c_out, weight);
        packed
    }

    /// Lays out new weights in the same memory: for matrices made during a forward pass (an
    /// attention head's keys and values), which then allocates nothing once it has run.
    pub(crate) fn refill(
        &mut self,
        c_in: usize,
        c_out: usize,
        weight: impl Fn(usize, usize) -> f32,
    ) {
        let vectors = c_out.div_ceil(LANES);
        self.weights.clear();
        for first in (0..vectors).step_by(COLUMNS) {
            for i in 0..c_in {
                for v in first..vectors.min(first + COLUMNS) {
                    self.weights.push(std::array::from_fn(|l| {
                        let o = v * LANES + l;
                        if o < c_out {
                            weight(i, o)
                        } else {
                            0.0
                        }
                    }));
                }
            }
        }
        (self.c_in, self.c_out, self.vectors) = (c_in, c_out, vectors);
    }

    /// Lays out weights given row by row, `[in][out]` (a matrix product's file order).
    pub(crate) fn from_rows(c_in: usize, c_out: usize, weights: &[f32]) -> Packed {
        assert_eq!(weights.len(), c_in * c_out, "weights of a matrix product");
        Packed::new(c_in, c_out, |i, o| weights[i * c_out + o])
    }
}

/// The input matrix: `rows` rows, `stride` floats apart, each starting with its `c_in` values.
pub(crate) struct Rows<'a> {
    pub data: &'a [f32],
    pub stride: usize,
    pub rows: usize,
}

/// Where the product goes: row `r`'s `c_out` values at `data[r * stride..]`; the floats
/// between them are left as they were.
pub(crate) struct Out<'a> {
    pub data: &'a mut [f32],
    pub stride: usize,
}

/// `out = input · w`, by the chosen copy of the kernel.
///
/// # Panics
/// If a row is narrower than the weights' inputs or outputs, or a matrix too short for its
/// rows.
pub(crate) fn multiply(path: Path, w: &Packed, input: Rows<'_>, out: Out<'_>) {
    match path {
        Path::Portable => product::<Plain, PORTABLE_ROWS>(w, input, out),
        // SAFETY: a `Detected` is only made by `Path::available` after
        // `is_x86_feature_detected!` has confirmed AVX2 and FMA, so this processor runs the
        // instructions `multiply_avx2_fma` was compiled with.
        #[cfg(target_arch = "x86_64")]
        Path::Avx2Fma(_) => unsafe { multiply_avx2_fma(w, input, out) },
        // SAFETY: as above, `Path::available` made this one only after confirming AVX-512 F
        // besides AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        Path::Avx512(_) => unsafe { multiply_avx512(w, input, out) },
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn multiply_avx2_fma(w: &Packed, input: Rows<'_>, out: Out<'_>) {
    product::<Fused, AVX2_ROWS>(w, input, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn multiply_avx512(w: &Packed, input: Rows<'_>, out: Out<'_>) {
    product::<Fused, AVX512_ROWS>(w, input, out);
}

/// `out = input · w`, `R` rows at a time: the body every copy of the kernel inlines (the
/// Winograd convolution calls it inside its own compiled copies).
///
/// # Panics
/// As [`multiply`].
#[inline(always)]
pub(crate) fn product<M: MulAdd, const R: usize>(w: &Packed, input: Rows<'_>, mut out: Out<'_>) {
    if input.rows == 0 {
        return;
    }
    assert!(
        input.stride >= w.c_in,
        "input rows narrower than the weights"
    );
    assert!(
        out.stride >= w.c_out,
        "output rows narrower than the weights"
    );
    let last = input.rows - 1;
    assert!(
        input.data.len() >= last * input.stride + w.c_in,
        "input matrix too short"
    );
    assert!(
        out.data.len() >= last * out.stride + w.c_out,
        "output matrix too short"
    );
    let mut rest = &w.weights[..];
    for first in (0..w.vectors).step_by(COLUMNS) {
        let columns = COLUMNS.min(w.vectors - first);
        let (here, after) = rest.split_at(w.c_in * columns);
        rest = after;
        let target = Block {
            first,
            width: (columns * LANES).min(w.c_out - first * LANES),
        };
        match columns {
            4 => column_block::<M, R, 4>(&input, here, &mut out, target),
            3 => column_block::<M, R, 3>(&input, here, &mut out, target),
            2 => column_block::<M, R, 2>(&input, here, &mut out, target),
            _ => column_block::<M, R, 1>(&input, here, &mut out, target),
        }
    }
}

/// A block of output vectors: from vector `first`, `width` floats of each row.
#[derive(Clone, Copy)]
struct Block {
    first: usize,
    width: usize,
}

/// The products of one block of `C` output vectors, `R` rows at a time, then the rest.
#[inline(always)]
fn column_block<M: MulAdd, const R: usize, const C: usize>(
    input: &Rows<'_>,
    weights: &[Lanes],
    out: &mut Out<'_>,
    block: Block,
) {
    const { assert!(R <= MAX_ROWS, "the kernel writes out at most MAX_ROWS rows") };
    let (weights, _) = weights.as_chunks::<C>();
    let mut row = 0;
    while row + R <= input.rows {
        rows::<M, R, C>(input, weights, row, out, block);
        row += R;
    }
    match input.rows - row {
        0 => {}
        1 => rows::<M, 1, C>(input, weights, row, out, block),
        2 => rows::<M, 2, C>(input, weights, row, out, block),
        3 => rows::<M, 3, C>(input, weights, row, out, block),
        4 => rows::<M, 4, C>(input, weights, row, out, block),
        5 => rows::<M, 5, C>(input, weights, row, out, block),
        6 => rows::<M, 6, C>(input, weights, row, out, block),
        _ => rows::<M, 7, C>(input, weights, row, out, block),
    }
}

/// `R` rows' products with a block of `C` output vectors, starting at row `first_row`.
#[inline(always)]
fn rows<M: MulAdd, const R: usize, const C: usize>(
    input: &Rows<'_>,
    weights: &[[Lanes; C]],
    first_row: usize,
    out: &mut Out<'_>,
    block: Block,
) {
    let c_in = weights.len();
    let mut acc = [[[0.0; LANES]; C]; R];
    // Every row slice and the weights are `c_in` long, so the loop below needs no bounds
    // checks.
    let inputs: [&[f32]; R] = std::array::from_fn(|r| {
        let from = (first_row + r) * input.stride;
        &input.data[from..from + c_in]
    });
    // An index, not `weights.iter().enumerate()`: with the iterator LLVM lays the loop out
    // worse, and b6c96 ran at 85% of this speed.
    #[allow(clippy::needless_range_loop)]
    for k in 0..c_in {
        let w = &weights[k];
        if R <= COLUMN_ORDER_ROWS {
            // Weight vector by weight vector: each is loaded once and serves every row.
            let a: [f32; R] = std::array::from_fn(|r| inputs[r][k]);
            column_step::<M, R, C>(&mut acc, &a, 0, w);
            column_step::<M, R, C>(&mut acc, &a, 1, w);
            column_step::<M, R, C>(&mut acc, &a, 2, w);
            column_step::<M, R, C>(&mut acc, &a, 3, w);
        } else {
            // Row by row, written out one by one: LLVM leaves a loop over them rolled (its
            // body is large before vectorization), and the sums then live in memory.
            row_step::<M, R, C>(&mut acc, &inputs, 0, k, w);
            row_step::<M, R, C>(&mut acc, &inputs, 1, k, w);
            row_step::<M, R, C>(&mut acc, &inputs, 2, k, w);
            row_step::<M, R, C>(&mut acc, &inputs, 3, k, w);
            row_step::<M, R, C>(&mut acc, &inputs, 4, k, w);
            row_step::<M, R, C>(&mut acc, &inputs, 5, k, w);
            row_step::<M, R, C>(&mut acc, &inputs, 6, k, w);
            row_step::<M, R, C>(&mut acc, &inputs, 7, k, w);
        }
    }
    for (r, sums) in acc.iter().enumerate() {
        let from = (first_row + r) * out.stride + block.first * LANES;
        if block.width == C * LANES {
            // Vector by vector: a copy of a length known here, where one of `block.width`
            // floats is a call to `memcpy` (1.7% of a 19x19 search with b6c96).
            for (c, lanes) in sums.iter().enumerate() {
                if let Some(to) = out.data[from + c * LANES..].first_chunk_mut::<LANES>() {
                    *to = *lanes;
                }
            }
        } else {
            out.data[from..from + block.width].copy_from_slice(&sums.as_flattened()[..block.width]);
        }
    }
}

/// Input `k` of row `r` (if the block has one) times its weights, added to its sums.
#[inline(always)]
fn row_step<M: MulAdd, const R: usize, const C: usize>(
    acc: &mut [[Lanes; C]; R],
    inputs: &[&[f32]; R],
    r: usize,
    k: usize,
    w: &[Lanes; C],
) {
    if r < R {
        let a = inputs[r][k];
        for c in 0..C {
            for l in 0..LANES {
                acc[r][c][l] = M::mul_add(a, w[c][l], acc[r][c][l]);
            }
        }
    }
}

/// Weight vector `c` (if the block has one) times input `k` of every row, added to their
/// sums.
#[inline(always)]
fn column_step<M: MulAdd, const R: usize, const C: usize>(
    acc: &mut [[Lanes; C]; R],
    a: &[f32; R],
    c: usize,
    w: &[Lanes; C],
) {
    if c < C {
        let w = w[c];
        for r in 0..R {
            for l in 0..LANES {
                acc[r][c][l] = M::mul_add(a[r], w[l], acc[r][c][l]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every copy of the kernel, every number of rows up to past two full steps of the widest,
    /// and output widths that end in a partial vector or a partial block, against the plain
    /// sum.
    #[test]
    fn every_path_gives_the_plain_product() {
        for (c_in, c_out) in [(1, 1), (3, 8), (7, 13), (22, 40), (9, 96), (16, 200)] {
            let w: Vec<f32> = (0..c_in * c_out)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) / 25.0)
                .collect();
            let packed = Packed::from_rows(c_in, c_out, &w);
            for rows in [1, 2, 5, 8, 17, 25] {
                let stride = c_in + 3;
                let input: Vec<f32> = (0..rows * stride)
                    .map(|i| ((i * 53 % 97) as f32 - 48.0) / 16.0)
                    .collect();
                let expected: Vec<f32> = (0..rows * c_out)
                    .map(|x| {
                        let (r, o) = (x / c_out, x % c_out);
                        (0..c_in)
                            .map(|i| input[r * stride + i] as f64 * w[i * c_out + o] as f64)
                            .sum::<f64>() as f32
                    })
                    .collect();
                for path in Path::available() {
                    let out_stride = c_out + 5;
                    let mut out = vec![f32::NAN; rows * out_stride];
                    let rows_in = Rows {
                        data: &input,
                        stride,
                        rows,
                    };
                    let target = Out {
                        data: &mut out,
                        stride: out_stride,
                    };
                    multiply(path, &packed, rows_in, target);
                    for r in 0..rows {
                        for o in 0..c_out {
                            let (got, want) = (out[r * out_stride + o], expected[r * c_out + o]);
                            assert!(
                                (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                                "{} {c_in}x{c_out}, {rows} rows, [{r}][{o}]: {got} != {want}",
                                path.name()
                            );
                        }
                        // What lies between the rows is left alone.
                        assert!(out[r * out_stride + c_out..][..5]
                            .iter()
                            .all(|v| v.is_nan()));
                    }
                }
            }
        }
    }
}
