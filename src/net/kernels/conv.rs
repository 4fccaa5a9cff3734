//! The 3×3 convolution that takes nearly all of the forward pass's time, by Winograd's minimal
//! filtering F(4×4, 3×3) (Lavin and Gray, "Fast Algorithms for Convolutional Neural
//! Networks", 2016), as Leela Zero's and KataGo's OpenCL backends compute it.
//!
//! Activations live on a padded grid: `(size + 2)²` points, row by row, with the channels of a
//! point side by side (NHWC) and a border of zeros all round. Every grid's channel count is
//! rounded up to a whole number of 8-lane vectors; the extra channels have zero weights and
//! bias and stay 0.
//!
//! The board is cut into tiles of 4×4 output points (a 19×19 board into 5×5 tiles, whose
//! last row and column hang over the edge), each computed from the 6×6 input patch around
//! it. Each input channel's patch is transformed, `Bᵀ d B` (additions and small multiples);
//! for each of the 36 transformed points, the transformed inputs of every tile (a matrix of
//! tiles × input channels) are multiplied by that point's transformed weights (input ×
//! output channels, `G g Gᵀ`, made once when the network loads); and the products of a tile
//! are transformed back, `Aᵀ m A`, into its 16 outputs. That is 36 multiply-adds per tile and
//! pair of channels where a direct convolution spends 16 × 9 = 144: a quarter, less the
//! tiles' overhang (19×19 points cost 20×20).
//!
//! The matrix products take nearly all of the rest of the time: they are [`gemm`]'s
//! register-blocked kernel, inlined with the transforms into three copies of the whole
//! convolution (portable, AVX2 and FMA, AVX-512), chosen at run time by [`Path::detect`].

use super::gemm::{self, Out, Packed, Rows, PORTABLE_ROWS};
#[cfg(target_arch = "x86_64")]
use super::gemm::{AVX2_ROWS, AVX512_ROWS};

/// Floats in one vector: an AVX2 register.
pub(crate) const LANES: usize = 8;

/// One vector of channels.
pub(crate) type Lanes = [f32; LANES];

/// Output points along each side of a tile.
const TILE: usize = 4;

/// Input points along each side of a tile's patch: its outputs and one more either side.
const PATCH: usize = TILE + 2;

/// Transformed points of a patch: one matrix product each.
const POINTS: usize = PATCH * PATCH;

/// `Bᵀ` applied to six values, for the lanes of a vector: the input transform along one
/// direction.
#[inline(always)]
fn input_transform(x: &[Lanes; PATCH]) -> [Lanes; PATCH] {
    let mut y = [[0.0; LANES]; PATCH];
    for l in 0..LANES {
        let [x0, x1, x2, x3, x4, x5] = [x[0][l], x[1][l], x[2][l], x[3][l], x[4][l], x[5][l]];
        y[0][l] = 4.0 * x0 - 5.0 * x2 + x4;
        y[1][l] = x3 + x4 - 4.0 * (x1 + x2);
        y[2][l] = x4 - x3 + 4.0 * (x1 - x2);
        y[3][l] = x4 - x2 + 2.0 * (x3 - x1);
        y[4][l] = x4 - x2 + 2.0 * (x1 - x3);
        y[5][l] = 4.0 * x1 - 5.0 * x3 + x5;
    }
    y
}

/// `Aᵀ` applied to six products, for the lanes of a vector: the output transform along one
/// direction.
#[inline(always)]
fn output_transform(m: &[Lanes; PATCH]) -> [Lanes; TILE] {
    let mut y = [[0.0; LANES]; TILE];
    for l in 0..LANES {
        let (sum12, diff12) = (m[1][l] + m[2][l], m[1][l] - m[2][l]);
        let (sum34, diff34) = (m[3][l] + m[4][l], m[3][l] - m[4][l]);
        y[0][l] = m[0][l] + sum12 + sum34;
        y[1][l] = diff12 + 2.0 * diff34;
        y[2][l] = sum12 + 4.0 * sum34;
        y[3][l] = diff12 + 8.0 * diff34 + m[5][l];
    }
    y
}

/// `G`, the weight transform along one direction (exact in `f64`, rounded once).
const G: [[f64; 3]; PATCH] = [
    [1.0 / 4.0, 0.0, 0.0],
    [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
    [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
    [0.0, 0.0, 1.0],
];

/// `G g Gᵀ` of one 3×3 kernel `g` (row by row), in point order.
fn transform_kernel(g: &[f32]) -> [f32; POINTS] {
    let along_rows: [[f64; 3]; PATCH] = std::array::from_fn(|a| {
        std::array::from_fn(|kx| (0..3).map(|ky| G[a][ky] * f64::from(g[ky * 3 + kx])).sum())
    });
    std::array::from_fn(|point| {
        let (a, b) = (point / PATCH, point % PATCH);
        (0..3).map(|kx| along_rows[a][kx] * G[b][kx]).sum::<f64>() as f32
    })
}

/// Which copy of the kernel runs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Path {
    /// Plain Rust, compiled for the build's target (SSE2 on the default x86-64 target).
    Portable,
    /// Compiled for AVX2 and FMA. Only [`Path::available`] can make one, so holding it proves
    /// that the processor has both.
    #[cfg(target_arch = "x86_64")]
    Avx2Fma(Detected),
    /// Compiled for AVX-512 (F) as well as AVX2 and FMA, made only by
    /// [`Path::available`] likewise.
    #[cfg(target_arch = "x86_64")]
    Avx512(Detected),
}

/// Proof that AVX2 and FMA were detected: its field is private, so no code outside this
/// module can make one without asking the processor.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detected(());

impl Path {
    /// The fastest copy this processor runs.
    pub(crate) fn detect() -> Path {
        Path::available()[0]
    }

    /// Every copy this processor runs, the fastest first.
    pub(crate) fn available() -> Vec<Path> {
        let mut paths = Vec::new();
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            if is_x86_feature_detected!("avx512f") {
                paths.push(Path::Avx512(Detected(())));
            }
            paths.push(Path::Avx2Fma(Detected(())));
        }
        paths.push(Path::Portable);
        paths
    }

    /// The copy's name, for benchmarks and logs.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Path::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Path::Avx2Fma(_) => "avx2+fma",
            #[cfg(target_arch = "x86_64")]
            Path::Avx512(_) => "avx512",
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

/// Tiles along each side of a board of `size`.
fn tiles_across(size: usize) -> usize {
    size.div_ceil(TILE)
}

/// A 3×3 convolution with bias, its weights transformed and laid out for the kernel.
#[derive(Clone, Debug)]
pub(crate) struct Conv3 {
    /// Input channels.
    c_in: usize,
    /// Output vectors (output channels rounded up to whole vectors).
    vectors: usize,
    /// For each transformed point, its input × output channels' weights, for the product.
    points: Vec<Packed>,
    /// The bias, one vector after another; the padding lanes are 0.
    bias: Vec<Lanes>,
}

impl Conv3 {
    /// Transforms PyTorch's weights `w[out][in][ky][kx]` and lays them out with `bias[out]`
    /// for the kernel.
    ///
    /// # Panics
    /// If the slices' lengths do not match the channel counts (the caller has checked them).
    pub(crate) fn new(c_out: usize, c_in: usize, w: &[f32], bias: &[f32]) -> Conv3 {
        assert_eq!(w.len(), c_out * c_in * 9, "weights of a 3x3 convolution");
        assert_eq!(bias.len(), c_out, "bias of a 3x3 convolution");
        let vectors = vectors(c_out);
        let kernels: Vec<[f32; POINTS]> = w.chunks_exact(9).map(transform_kernel).collect();
        // The products fill whole vectors: the padding channels' weights are 0.
        let points = (0..POINTS)
            .map(|point| {
                Packed::new(c_in, vectors * LANES, |i, o| {
                    if o < c_out {
                        kernels[o * c_in + i][point]
                    } else {
                        0.0
                    }
                })
            })
            .collect();
        let bias = (0..vectors)
            .map(|v| std::array::from_fn(|l| bias.get(v * LANES + l).copied().unwrap_or(0.0)))
            .collect();
        Conv3 {
            c_in,
            vectors,
            points,
            bias,
        }
    }

    /// Channels of an output grid point: the output channels rounded up to whole vectors.
    pub(crate) fn out_stride(&self) -> usize {
        self.vectors * LANES
    }
}

/// The transformed inputs and the products of one convolution, kept between calls so that
/// the forward pass allocates nothing once it has run on the largest board.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// `[point][tile][input vector]`: each point's matrix, a tile a row.
    inputs: Vec<Lanes>,
    /// `[point][tile][output vector]`.
    products: Vec<Lanes>,
}

/// One application of a convolution to one padded grid:
/// `out = relu(conv(input) + bias + skip)` (without the ReLU where `relu` is false), at every
/// point on the board. The border of `out` is left as it was (zero).
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
    /// Whether negative sums become 0 (`.hnet`'s convolutions end in a ReLU; KataGo's
    /// networks normalise and activate before a convolution, not after it).
    pub relu: bool,
}

/// Runs one convolution with the chosen copy of the kernel.
///
/// # Panics
/// If a grid is smaller than the board's padded grid.
pub(crate) fn apply(path: Path, job: Apply<'_>, scratch: &mut Scratch) {
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
    let tiles = tiles_across(job.size).pow(2);
    let grow = |buffer: &mut Vec<Lanes>, len: usize| {
        if buffer.len() < len {
            buffer.resize(len, [0.0; LANES]);
        }
    };
    grow(&mut scratch.inputs, POINTS * tiles * vectors(job.conv.c_in));
    grow(&mut scratch.products, POINTS * tiles * job.conv.vectors);
    match path {
        Path::Portable => run::<Plain, PORTABLE_ROWS>(job, scratch),
        // SAFETY: a `Detected` is only made by `Path::available` after
        // `is_x86_feature_detected!` has confirmed both AVX2 and FMA, so this processor runs
        // the instructions `run_avx2_fma` was compiled with.
        #[cfg(target_arch = "x86_64")]
        Path::Avx2Fma(_) => unsafe { run_avx2_fma(job, scratch) },
        // SAFETY: as above, `Path::available` made this one only after confirming AVX-512 F
        // besides AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        Path::Avx512(_) => unsafe { run_avx512(job, scratch) },
    }
}

/// The kernel compiled for AVX2 and FMA: the same source as the portable copy, with fused
/// multiply-adds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn run_avx2_fma(job: Apply<'_>, scratch: &mut Scratch) {
    run::<Fused, AVX2_ROWS>(job, scratch);
}

/// The kernel compiled for AVX-512: the same source again, in 16-float registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn run_avx512(job: Apply<'_>, scratch: &mut Scratch) {
    run::<Fused, AVX512_ROWS>(job, scratch);
}

/// How the kernel multiplies and adds (the product kernel's copies too).
pub(crate) trait MulAdd {
    /// `a * b + c`.
    fn mul_add(a: f32, b: f32, c: f32) -> f32;
}

/// A multiply then an add: what every x86-64 processor has.
pub(crate) struct Plain;

impl MulAdd for Plain {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a * b + c
    }
}

/// A fused multiply-add: one instruction where FMA is enabled (a slow library call where it
/// is not, so only the FMA copy uses it).
#[cfg(target_arch = "x86_64")]
pub(crate) struct Fused;

#[cfg(target_arch = "x86_64")]
impl MulAdd for Fused {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
}

/// The three steps: transform the inputs, multiply, transform the products back.
#[inline(always)]
fn run<M: MulAdd, const R: usize>(job: Apply<'_>, scratch: &mut Scratch) {
    let Scratch { inputs, products } = scratch;
    transform_inputs(&job, inputs);
    multiply::<M, R>(job.conv, tiles_across(job.size).pow(2), inputs, products);
    transform_products(job, products);
}

/// Writes each input vector's transformed patch of each tile into `inputs`, laid out as
/// [`Scratch::inputs`]. The patches of the last row and column of tiles reach past the
/// padded grid; what lies there counts as zero.
#[inline(always)]
fn transform_inputs(job: &Apply<'_>, inputs: &mut [Lanes]) {
    let (across, width) = (tiles_across(job.size), job.size + 2);
    let (tiles, c_in) = (across * across, job.conv.c_in);
    let in_vectors = vectors(c_in);
    // Made once, not for every patch: zeroing them each time cost 4% of a forward pass. Only
    // a patch that reaches past the grid, or a vector of fewer lanes, leaves some unwritten,
    // and those are zeroed first.
    let mut columns = [[[0.0; LANES]; PATCH]; PATCH];
    let mut rows = [[[0.0; LANES]; PATCH]; PATCH];
    for tile in 0..tiles {
        let (top, left) = (tile / across * TILE, tile % across * TILE);
        let whole_patch = top + PATCH <= width && left + PATCH <= width;
        for vector in 0..in_vectors {
            let first = vector * LANES;
            let lanes = LANES.min(c_in - first);
            // Column by column, so that each column's transform reads its six points in a row.
            if !whole_patch || lanes < LANES {
                columns = [[[0.0; LANES]; PATCH]; PATCH];
            }
            for (i, row) in (top..width.min(top + PATCH)).enumerate() {
                for (j, column) in (left..width.min(left + PATCH)).enumerate() {
                    let from = (row * width + column) * job.in_stride + first;
                    let point = &mut columns[j][i];
                    match job.input[from..].first_chunk::<LANES>() {
                        Some(whole) if lanes == LANES => *point = *whole,
                        _ => point[..lanes].copy_from_slice(&job.input[from..from + lanes]),
                    }
                }
            }
            for (j, column) in columns.iter().enumerate() {
                let transformed = input_transform(column);
                for (row, lanes) in rows.iter_mut().zip(transformed) {
                    row[j] = lanes;
                }
            }
            for (a, row) in rows.iter().enumerate() {
                for (b, lanes) in input_transform(row).into_iter().enumerate() {
                    inputs[((a * PATCH + b) * tiles + tile) * in_vectors + vector] = lanes;
                }
            }
        }
    }
}

/// The 36 matrix products: for each transformed point, its tiles × input channels times
/// input × output channels, into `products`, laid out as [`Scratch::products`].
#[inline(always)]
fn multiply<M: MulAdd, const R: usize>(
    conv: &Conv3,
    tiles: usize,
    inputs: &[Lanes],
    products: &mut [Lanes],
) {
    let (in_vectors, vectors) = (vectors(conv.c_in), conv.vectors);
    let point_inputs = inputs.chunks_exact(tiles * in_vectors);
    let point_products = products.chunks_exact_mut(tiles * vectors);
    for ((weights, inputs), products) in conv.points.iter().zip(point_inputs).zip(point_products) {
        let input = Rows {
            data: inputs.as_flattened(),
            stride: in_vectors * LANES,
            rows: tiles,
        };
        let out = Out {
            data: products.as_flattened_mut(),
            stride: vectors * LANES,
        };
        gemm::product::<M, R>(weights, input, out);
    }
}

/// Transforms each tile's products back into its outputs and writes those on the board,
/// with the bias and the residual, through the ReLU.
#[inline(always)]
fn transform_products(job: Apply<'_>, products: &[Lanes]) {
    let Apply {
        conv,
        size,
        skip,
        out,
        relu,
        ..
    } = job;
    let (across, width, stride) = (tiles_across(size), size + 2, conv.out_stride());
    let tiles = across * across;
    // Made once, as the inputs' (every value is written before it is read).
    let mut rows = [[[0.0; LANES]; PATCH]; TILE];
    let mut column = [[0.0; LANES]; PATCH];
    for tile in 0..tiles {
        let (top, left) = (tile / across * TILE, tile % across * TILE);
        for (vector, bias) in conv.bias.iter().enumerate() {
            // Column by column first, as the inputs.
            for b in 0..PATCH {
                for (a, lanes) in column.iter_mut().enumerate() {
                    *lanes = products[((a * PATCH + b) * tiles + tile) * conv.vectors + vector];
                }
                for (row, lanes) in rows.iter_mut().zip(output_transform(&column)) {
                    row[b] = lanes;
                }
            }
            for (i, row) in rows.iter().enumerate().take(size - top) {
                let outputs = output_transform(row);
                for (j, sums) in outputs.iter().enumerate().take(size - left) {
                    let at = ((top + i + 1) * width + left + j + 1) * stride + vector * LANES;
                    let mut total: Lanes = std::array::from_fn(|l| sums[l] + bias[l]);
                    if let Some(skip) = skip.and_then(|s| s[at..].first_chunk::<LANES>()) {
                        total.iter_mut().zip(skip).for_each(|(t, s)| *t += s);
                    }
                    if let Some(out) = out[at..].first_chunk_mut::<LANES>() {
                        *out = if relu {
                            total.map(|t| t.max(0.0))
                        } else {
                            total
                        };
                    }
                }
            }
        }
    }
}
