//! A thread's scratch space for the forward pass ([`Workspace`]): the padded grids of a
//! batch and the kernels' buffers, kept between evaluations so that one allocates nothing,
//! and the choice of the convolution kernel's copy this processor runs.

use super::PLANES;
use crate::net::kernels::conv;

/// Per-thread scratch space of the forward pass: the padded grids of a batch.
#[derive(Clone, Debug)]
pub struct Workspace {
    /// Which copy of the convolution kernel this processor runs.
    pub(super) path: conv::Path,
    /// The input planes.
    pub(super) input: Vec<f32>,
    /// A block's input, then its output.
    pub(super) current: Vec<f32>,
    /// Between a block's two convolutions.
    pub(super) middle: Vec<f32>,
    /// A block's output, before it becomes `current`.
    pub(super) next: Vec<f32>,
    /// The value head's pooled values and hidden layer, for one position at a time.
    pub(super) value: Vec<f32>,
    /// A pooled block's pooled values and bias, for one position at a time.
    pub(super) pool: Vec<f32>,
    /// The convolution's transformed inputs and products, for one position at a time.
    pub(super) conv: conv::Scratch,
}

impl Workspace {
    /// The copy of the convolution kernel in use (`avx2+fma` or `portable`).
    pub fn kernel(&self) -> &'static str {
        self.path.name()
    }

    /// The names of the kernel's copies this processor runs, the fastest (the one a new
    /// workspace runs) first and `portable` last.
    pub fn kernels() -> Vec<&'static str> {
        conv::Path::available()
            .into_iter()
            .map(conv::Path::name)
            .collect()
    }

    /// The same workspace running the copy of the kernel named `name`, one of
    /// [`Workspace::kernels`], to compare the copies; `None` if this processor lacks it.
    pub fn with_kernel(mut self, name: &str) -> Option<Workspace> {
        self.path = conv::Path::available()
            .into_iter()
            .find(|path| path.name() == name)?;
        Some(self)
    }

    /// Room for `batch` grids of `size` (growing if needed), zeroed: the kernels write only
    /// the points on the board, so the borders must start at zero, and a smaller board than
    /// the last one has its border where the last one had stones.
    pub(super) fn prepare(&mut self, batch: usize, size: usize, stride: usize) {
        let grid = conv::grid_points(size);
        let zero = |buffer: &mut Vec<f32>, len: usize| {
            if buffer.len() < len {
                buffer.resize(len, 0.0);
            }
            buffer[..len].fill(0.0);
        };
        zero(&mut self.input, batch * grid * PLANES);
        for buffer in [&mut self.current, &mut self.middle, &mut self.next] {
            zero(buffer, batch * grid * stride);
        }
    }
}
