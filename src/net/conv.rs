//! The 3×3 convolution that takes nearly all of the forward pass's time.
//!
//! Activations live on a padded grid: `(size + 2)²` points, row by row, with the channels of a
//! point side by side (NHWC) and a border of zeros all round, so a kernel tap never asks
//! whether its neighbour is on the board. Every grid's channel count is rounded up to a whole
//! number of 8-lane vectors; the extra channels have zero weights and bias and stay 0.
//!
//! For each output point the kernel broadcasts each of the 9 × `c_in` inputs it reads against a
//! vector of output channels' weights. It computes `P` neighbouring points of a row at once so
//! that each weight vector it loads serves `P` multiply-adds, and a tile of up to [`TILE`]
//! vectors (32 channels) at a time, so that the accumulators fit in registers. The body is
//! plain Rust over 8-float arrays, written once and inlined into two copies: a portable one
//! (SSE2 on the default x86-64 target) and, where the processor has them, one compiled for
//! AVX2 and FMA, chosen at run time by [`Path::detect`].

/// Floats in one vector: an AVX2 register.
pub(crate) const LANES: usize = 8;

/// One vector of output channels.
pub(crate) type Lanes = [f32; LANES];

/// Output vectors the kernel computes at a time: 32 channels, 4 AVX2 registers a point.
const TILE: usize = 4;

/// Points of a row the AVX2 copy computes at a time: 2 × 4 accumulators, 4 weight vectors
/// and the broadcast inputs fit in the 16 registers. With 3 points (12 accumulators) two of
/// them spill to the stack, and the loop runs at half the speed.
#[cfg(target_arch = "x86_64")]
const AVX2_POINTS: usize = 2;

/// Points the portable copy computes at a time: SSE2 has 16 four-lane registers, which one
/// point's 4 × 8 accumulators already half fill (2 points spill, and run 20% slower).
const PORTABLE_POINTS: usize = 1;

/// Which copy of the kernel runs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Path {
    /// Plain Rust, compiled for the build's target (SSE2 on the default x86-64 target).
    Portable,
    /// Compiled for AVX2 and FMA. Only [`Path::detect`] can make one, so holding it proves
    /// that the processor has both.
    #[cfg(target_arch = "x86_64")]
    Avx2Fma(Detected),
}

/// Proof that AVX2 and FMA were detected: its field is private, so no code outside this
/// module can make one without asking the processor.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detected(());

impl Path {
    /// The fastest copy this processor runs.
    pub(crate) fn detect() -> Path {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            return Path::Avx2Fma(Detected(()));
        }
        Path::Portable
    }

    /// The copy's name, for benchmarks and logs.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Path::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Path::Avx2Fma(_) => "avx2+fma",
        }
    }
}

/// Vectors needed for `channels` channels.
pub(crate) fn vectors(channels: usize) -> usize {
    channels.div_ceil(LANES)
}

/// Points in the padded grid of a board of `size`.
pub(crate) fn grid_points(size: usize) -> usize {
    (size + 2) * (size + 2)
}

/// A 3×3 convolution with bias, its weights laid out for the kernel.
#[derive(Clone, Debug)]
pub(crate) struct Conv3 {
    /// Input channels the kernel reads at each tap.
    c_in: usize,
    /// Output vectors (output channels rounded up to whole vectors).
    vectors: usize,
    /// Tile after tile of up to [`TILE`] output vectors; within a tile, `[tap][c_in][vector]`,
    /// so the kernel reads its weights in order.
    weights: Vec<Lanes>,
    /// The bias, one vector after another; the padding lanes are 0.
    bias: Vec<Lanes>,
}

impl Conv3 {
    /// Lays out PyTorch's weights `w[out][in][ky][kx]` and `bias[out]` for the kernel.
    ///
    /// # Panics
    /// If the slices' lengths do not match the channel counts (the caller has checked them).
    pub(crate) fn new(c_out: usize, c_in: usize, w: &[f32], bias: &[f32]) -> Conv3 {
        assert_eq!(w.len(), c_out * c_in * 9, "weights of a 3x3 convolution");
        assert_eq!(bias.len(), c_out, "bias of a 3x3 convolution");
        let vectors = vectors(c_out);
        let weight = |o: usize, i: usize, tap: usize| {
            if o < c_out {
                w[(o * c_in + i) * 9 + tap]
            } else {
                0.0
            }
        };
        let mut weights = Vec::with_capacity(9 * c_in * vectors);
        for first in (0..vectors).step_by(TILE) {
            let width = TILE.min(vectors - first);
            for tap in 0..9 {
                for i in 0..c_in {
                    for v in first..first + width {
                        weights.push(std::array::from_fn(|l| weight(v * LANES + l, i, tap)));
                    }
                }
            }
        }
        let bias = (0..vectors)
            .map(|v| std::array::from_fn(|l| bias.get(v * LANES + l).copied().unwrap_or(0.0)))
            .collect();
        Conv3 {
            c_in,
            vectors,
            weights,
            bias,
        }
    }

    /// Channels of an output grid point: the output channels rounded up to whole vectors.
    pub(crate) fn out_stride(&self) -> usize {
        self.vectors * LANES
    }
}

/// One application of a convolution to one padded grid:
/// `out = relu(conv(input) + bias + skip)`, at every point on the board. The border of `out`
/// is left as it was (zero).
pub(crate) struct Apply<'a> {
    pub conv: &'a Conv3,
    pub size: usize,
    /// The input grid, `in_stride` floats a point (at least `conv.c_in`).
    pub input: &'a [f32],
    pub in_stride: usize,
    /// The residual to add before the ReLU, laid out as `out`.
    pub skip: Option<&'a [f32]>,
    /// The output grid, [`Conv3::out_stride`] floats a point.
    pub out: &'a mut [f32],
}

/// Runs one convolution with the chosen copy of the kernel.
///
/// # Panics
/// If a grid is smaller than the board's padded grid.
pub(crate) fn apply(path: Path, job: Apply<'_>) {
    let points = grid_points(job.size);
    assert!(job.in_stride >= job.conv.c_in, "input grid too narrow");
    assert!(
        job.input.len() >= points * job.in_stride,
        "input grid too small"
    );
    assert!(
        job.out.len() >= points * job.conv.out_stride(),
        "output grid too small"
    );
    if let Some(skip) = job.skip {
        assert!(
            skip.len() >= points * job.conv.out_stride(),
            "skip grid too small"
        );
    }
    match path {
        Path::Portable => run::<Plain, PORTABLE_POINTS>(job),
        // SAFETY: a `Detected` is only made by `Path::detect` after
        // `is_x86_feature_detected!` has confirmed both AVX2 and FMA, so this processor runs
        // the instructions `run_avx2_fma` was compiled with.
        #[cfg(target_arch = "x86_64")]
        Path::Avx2Fma(_) => unsafe { run_avx2_fma(job) },
    }
}

/// The kernel compiled for AVX2 and FMA: the same source as the portable copy, with fused
/// multiply-adds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn run_avx2_fma(job: Apply<'_>) {
    run::<Fused, AVX2_POINTS>(job);
}

/// How the kernel multiplies and adds.
trait MulAdd {
    /// `a * b + c`.
    fn mul_add(a: f32, b: f32, c: f32) -> f32;
}

/// A multiply then an add: what every x86-64 processor has.
struct Plain;

impl MulAdd for Plain {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a * b + c
    }
}

/// A fused multiply-add: one instruction where FMA is enabled (a slow library call where it
/// is not, so only the FMA copy uses it).
#[cfg(target_arch = "x86_64")]
struct Fused;

#[cfg(target_arch = "x86_64")]
impl MulAdd for Fused {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
}

/// Every row, `P` points at a time (the rest one by one), every tile of output vectors.
#[inline(always)]
fn run<M: MulAdd, const P: usize>(job: Apply<'_>) {
    let Apply {
        conv,
        size,
        input,
        in_stride,
        skip,
        out,
    } = job;
    let width = size + 2;
    let taps: [usize; 9] = std::array::from_fn(|t| (t / 3) * width + t % 3);
    let grid = Grid {
        input,
        in_stride,
        c_in: conv.c_in,
        taps,
    };
    let mut weights = conv.weights.as_slice();
    for first in (0..conv.vectors).step_by(TILE) {
        let tile = TILE.min(conv.vectors - first);
        let (here, rest) = weights.split_at(9 * conv.c_in * tile);
        weights = rest;
        let target = Target {
            out: &mut *out,
            skip,
            stride: conv.out_stride(),
            first,
        };
        let bias = &conv.bias[first..first + tile];
        match tile {
            4 => rows::<M, P, 4>(&grid, here, bias, target, size),
            3 => rows::<M, P, 3>(&grid, here, bias, target, size),
            2 => rows::<M, P, 2>(&grid, here, bias, target, size),
            _ => rows::<M, P, 1>(&grid, here, bias, target, size),
        }
    }
}

/// What the kernel reads: the input grid and the offsets of the 9 taps from a point's
/// upper-left neighbour (`ky * width + kx`).
struct Grid<'a> {
    input: &'a [f32],
    in_stride: usize,
    c_in: usize,
    taps: [usize; 9],
}

/// Where the kernel writes: `out` and the optional residual, `stride` floats a point, this
/// tile starting at vector `first`.
struct Target<'a> {
    out: &'a mut [f32],
    skip: Option<&'a [f32]>,
    stride: usize,
    first: usize,
}

/// One tile of `V` output vectors at every point on the board.
#[inline(always)]
fn rows<M: MulAdd, const P: usize, const V: usize>(
    grid: &Grid<'_>,
    weights: &[Lanes],
    bias: &[Lanes],
    mut target: Target<'_>,
    size: usize,
) {
    let (weights, _) = weights.as_chunks::<V>();
    let Ok(bias) = <&[Lanes; V]>::try_from(bias) else {
        unreachable!("the tile's bias has V vectors");
    };
    let width = size + 2;
    for row in 1..=size {
        let start = row * width + 1;
        let mut col = 0;
        while col + P <= size {
            let acc = tile::<M, P, V>(grid, weights, bias, start + col - width - 1);
            store(&mut target, start + col, &acc);
            col += P;
        }
        while col < size {
            let acc = tile::<M, 1, V>(grid, weights, bias, start + col - width - 1);
            store(&mut target, start + col, &acc);
            col += 1;
        }
    }
}

/// The sums for `P` neighbouring points of a row and `V` output vectors; `corner` is the grid
/// index of the first point's upper-left neighbour. `weights` is `[tap][c_in]` of `V` vectors.
#[inline(always)]
fn tile<M: MulAdd, const P: usize, const V: usize>(
    grid: &Grid<'_>,
    weights: &[[Lanes; V]],
    bias: &[Lanes; V],
    corner: usize,
) -> [[Lanes; V]; P] {
    const { assert!(P <= 4, "the loop below writes out 4 points") };
    let mut acc = [*bias; P];
    let c_in = grid.c_in;
    for (&tap, w_tap) in grid.taps.iter().zip(weights.chunks_exact(c_in)) {
        let at = |j: usize| {
            let from = (corner + tap + j) * grid.in_stride;
            &grid.input[from..from + w_tap.len()]
        };
        let inputs: [&[f32]; P] = std::array::from_fn(at);
        for (i, w) in w_tap.iter().enumerate() {
            // The points written out one by one: LLVM leaves a loop over them rolled (its
            // body is large before vectorization), and the accumulators then live in memory.
            point::<M, P, V>(&mut acc, &inputs, 0, i, w);
            point::<M, P, V>(&mut acc, &inputs, 1, i, w);
            point::<M, P, V>(&mut acc, &inputs, 2, i, w);
            point::<M, P, V>(&mut acc, &inputs, 3, i, w);
        }
    }
    acc
}

/// Input `i` of point `j` (if the tile has one) times its weights, added to its sums.
#[inline(always)]
fn point<M: MulAdd, const P: usize, const V: usize>(
    acc: &mut [[Lanes; V]; P],
    inputs: &[&[f32]; P],
    j: usize,
    i: usize,
    w: &[Lanes; V],
) {
    if j < P {
        let a = inputs[j][i];
        for v in 0..V {
            for l in 0..LANES {
                acc[j][v][l] = M::mul_add(a, w[v][l], acc[j][v][l]);
            }
        }
    }
}

/// Writes `P` points' sums, plus the residual, through the ReLU.
#[inline(always)]
fn store<const P: usize, const V: usize>(
    target: &mut Target<'_>,
    point: usize,
    acc: &[[Lanes; V]; P],
) {
    for (j, sums) in acc.iter().enumerate() {
        let from = (point + j) * target.stride + target.first * LANES;
        let out = &mut target.out[from..from + V * LANES];
        let skip = target.skip.map(|s| &s[from..from + V * LANES]);
        for (v, lanes) in sums.iter().enumerate() {
            for (l, &sum) in lanes.iter().enumerate() {
                let k = v * LANES + l;
                let total = sum + skip.map_or(0.0, |s| s[k]);
                out[k] = total.max(0.0);
            }
        }
    }
}
