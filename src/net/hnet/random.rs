//! Random weights of any shape: for benchmarks and tests (the unit tests, `tests/it`,
//! `bench/policy_net.rs`) that need a network of a given size without a trained file. Not
//! behind `cfg(test)`, so that the integration tests and benchmarks reach them.

use super::format::Shape;
use super::weights::Layer;
use super::Weights;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

impl Weights {
    /// A policy network of random weights (He's uniform initialisation, so that activations
    /// keep their scale through the blocks): for benchmarks and tests before trained weights
    /// exist.
    pub fn random(channels: usize, blocks: usize, seed: u64) -> Weights {
        Weights::random_shaped(channels, blocks, None, seed)
    }

    /// A network of random weights with every part of version 3: the blocks of `pooled` (a
    /// bit a block) with global pooling, a value head of `value_channels` and `hidden` values
    /// with the score and ownership outputs.
    pub fn random_value_network(
        channels: usize,
        blocks: usize,
        pooled: u64,
        value_channels: usize,
        hidden: usize,
        seed: u64,
    ) -> Weights {
        let shape = Shape {
            channels,
            blocks,
            pooled,
            value: Some((value_channels, hidden)),
            score: true,
            ownership: true,
            header_bytes: 0,
        };
        Weights::random_of(shape, seed)
    }

    /// [`Weights::random`] with a value head of `value_channels` and `hidden` values.
    pub fn random_with_value(
        channels: usize,
        blocks: usize,
        value_channels: usize,
        hidden: usize,
        seed: u64,
    ) -> Weights {
        Weights::random_shaped(channels, blocks, Some((value_channels, hidden)), seed)
    }

    fn random_shaped(
        channels: usize,
        blocks: usize,
        value: Option<(usize, usize)>,
        seed: u64,
    ) -> Weights {
        let shape = Shape {
            channels,
            blocks,
            pooled: 0,
            value,
            score: false,
            ownership: false,
            header_bytes: 0,
        };
        Weights::random_of(shape, seed)
    }

    fn random_of(shape: Shape, seed: u64) -> Weights {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut layer = |inputs: usize, kernel: usize, outputs: usize, biased: bool| {
            let reach = (6.0 / (inputs * kernel) as f32).sqrt();
            Layer {
                weights: (0..outputs * inputs * kernel)
                    .map(|_| rng.gen_range(-reach..reach))
                    .collect(),
                bias: (0..if biased { outputs } else { 0 })
                    .map(|_| rng.gen_range(-0.1..0.1))
                    .collect(),
            }
        };
        Weights::shaped(shape, &mut layer)
    }
}
