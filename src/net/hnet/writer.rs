//! Writing a `.hnet` file: the reader's mirror ([`super::format`]), for the tests that check
//! the format round trip and the tools that save weights made or edited in code.

use super::format::{MAGIC, OWNERSHIP_HEAD, SCORE_HEAD, VALUE_HEAD};
use super::{Weights, PLANES};

impl Weights {
    /// The `.hnet` file of these weights, of [`Weights::version`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = self.version();
        let mut fields = vec![version as usize, PLANES, self.channels, self.blocks.len()];
        if version >= 2 {
            fields.extend(match &self.value {
                Some(value) => {
                    let (v, h) = value.sizes();
                    let score = if value.has_score() { SCORE_HEAD } else { 0 };
                    let own = value.ownership.as_ref().map_or(0, |_| OWNERSHIP_HEAD);
                    [(VALUE_HEAD | score | own) as usize, v, h]
                }
                None => [0, 0, 0],
            });
        }
        if version == 3 {
            let mask = self.pooled_blocks();
            fields.extend([(mask & 0xFFFF_FFFF) as usize, (mask >> 32) as usize]);
        }
        let mut bytes = Vec::with_capacity(8 + 4 * fields.len() + 4 * self.value_count());
        bytes.extend_from_slice(MAGIC);
        for field in fields {
            bytes.extend_from_slice(&(field as u32).to_le_bytes());
        }
        for (_, layer, _, _) in self.layers() {
            for value in layer.weights.iter().chain(&layer.bias) {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
        bytes
    }

    /// How many floats the file holds after its header.
    fn value_count(&self) -> usize {
        self.layers()
            .iter()
            .map(|(_, layer, _, _)| layer.weights.len() + layer.bias.len())
            .sum()
    }
}
