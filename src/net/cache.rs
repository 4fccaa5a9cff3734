//! Network evaluations kept by position, as Leela Zero's `NNCache` keeps them: the search
//! asks about the same position again and again (a leaf's value, then the policy for its
//! children once it expands; transpositions; the next move's search over the same tree), and
//! an answer costs a forward pass of a millisecond or more.
//!
//! The key is a hash of exactly what the network sees (the input bytes, and the komi for the
//! value), so a hit gives what a forward pass would. The table is direct-mapped: a fixed
//! number of slots, each behind its own lock (threads rarely meet on one), a new entry
//! replacing the old one in its slot. Its memory is fixed when it is made.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;
use std::sync::Mutex;

/// One evaluation: the policy over the board's points and, if the network has a value head,
/// the side to move's winning chances for the komi in the key.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub policy: Vec<f32>,
    pub value: Option<f32>,
}

/// A table of evaluations shared by the threads of a search and kept from one search to
/// the next.
pub struct Cache {
    slots: Vec<Mutex<Option<(u64, Entry)>>>,
}

impl Cache {
    /// A table of `slots` evaluations (at least one).
    pub fn new(slots: usize) -> Cache {
        Cache {
            slots: (0..slots.max(1)).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// The slots of the table.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slot: never (it has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The key of the input bytes `input` evaluated with the side to move receiving
    /// `mover_komi` points.
    pub fn key(input: &[u8], mover_komi: f32) -> u64 {
        // A fixed hasher (no per-process random state): the same position always has the
        // same key, so that tests and seeded searches are repeatable.
        let mut hasher = DefaultHasher::new();
        hasher.write(input);
        hasher.write_u32(mover_komi.to_bits());
        hasher.finish()
    }

    /// The evaluation stored under `key`, copied into `policy` (which must be as long as
    /// the stored policy), with its value; `None` when the table does not have it.
    pub fn get(&self, key: u64, policy: &mut [f32]) -> Option<Option<f32>> {
        let slot = self.slot(key).lock().unwrap_or_else(|p| p.into_inner());
        match &*slot {
            Some((k, entry)) if *k == key && entry.policy.len() == policy.len() => {
                policy.copy_from_slice(&entry.policy);
                Some(entry.value)
            }
            _ => None,
        }
    }

    /// Stores an evaluation under `key`, replacing whatever its slot held.
    pub fn put(&self, key: u64, policy: &[f32], value: Option<f32>) {
        let mut slot = self.slot(key).lock().unwrap_or_else(|p| p.into_inner());
        match &mut *slot {
            // Reuse the old entry's memory: no allocation once the table is warm.
            Some((k, entry)) if entry.policy.len() == policy.len() => {
                *k = key;
                entry.policy.copy_from_slice(policy);
                entry.value = value;
            }
            _ => {
                let entry = Entry {
                    policy: policy.to_vec(),
                    value,
                };
                *slot = Some((key, entry));
            }
        }
    }

    fn slot(&self, key: u64) -> &Mutex<Option<(u64, Entry)>> {
        // The low bits pick the slot; `key` is a hash, so they are as good as any.
        &self.slots[(key % self.slots.len() as u64) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_evaluation_comes_back_and_a_collision_replaces_it() {
        let cache = Cache::new(4);
        let input = [1u8, 2, 3, 4];
        let key = Cache::key(&input, 7.5);
        assert_ne!(key, Cache::key(&input, -7.5), "the komi is in the key");
        assert_ne!(key, Cache::key(&[1, 2, 3, 5], 7.5));
        assert_eq!(
            key,
            Cache::key(&input, 7.5),
            "the same position, the same key"
        );
        let mut policy = [0.0; 4];
        assert_eq!(cache.get(key, &mut policy), None);
        cache.put(key, &[0.1, 0.2, 0.3, 0.4], Some(0.6));
        assert_eq!(cache.get(key, &mut policy), Some(Some(0.6)));
        assert_eq!(policy, [0.1, 0.2, 0.3, 0.4]);
        // Another key of the same slot replaces the entry.
        let other = key + 4;
        cache.put(other, &[0.4, 0.3, 0.2, 0.1], None);
        assert_eq!(cache.get(key, &mut policy), None);
        assert_eq!(cache.get(other, &mut policy), Some(None));
        // A board of another size never reads a policy of the wrong length.
        let mut small = [0.0; 2];
        assert_eq!(cache.get(other, &mut small), None);
    }
}
