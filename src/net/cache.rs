//! Network outputs kept by position, as Leela Zero's `NNCache` keeps them: the search asks
//! about the same position again and again (a leaf's value, then the policy for its
//! children once it expands; transpositions; the next move's search over the same tree), and
//! an answer costs a forward pass of a millisecond or more.
//!
//! The key is a hash of what any network may read of a position (the stones, the simple-ko
//! point, the suicide rule, the side to move, the moves before it as far as the network
//! reads them) and of the komi, so a hit gives what an evaluation would. The table is
//! direct-mapped: a fixed number of slots, each behind its own lock (threads rarely meet on
//! one), a new entry replacing the old one in its slot. Its size is fixed when it is made:
//! the slots fill as the search uses them, and then the memory stays what it is.

use super::{Evaluator, Output};
use crate::coord::Move;
use crate::game::Position;
use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;
use std::sync::{Arc, Mutex};

/// One slot of the table: the key of the output it holds, and the output.
type Slot = Mutex<Option<(u64, Arc<Output>)>>;

/// A table of whole outputs shared by the threads of a search and kept from one search to
/// the next.
pub struct Cache {
    slots: Vec<Slot>,
}

impl Cache {
    /// A table of `slots` outputs (at least one).
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

    /// The key of `position` judged by Black's area komi `komi`, for a network that reads
    /// `history` moves before a position.
    pub fn key(position: &Position<'_>, history: usize, komi: f64) -> u64 {
        Self::with_komi(&Self::position_hash(position, history), komi)
    }

    /// The hash of `position` alone, which [`Cache::with_komi`] finishes into a key: a
    /// position judged by two komis is hashed once.
    fn position_hash(position: &Position<'_>, history: usize) -> DefaultHasher {
        // A fixed hasher (no per-process random state): the same position always has the
        // same key, so that tests and seeded searches are repeatable.
        let board = position.board;
        let mut hasher = DefaultHasher::new();
        hasher.write_u64(board.hash());
        hasher.write_usize(board.size());
        hasher.write_u8(u8::from(board.multi_stone_suicide()));
        let ko = board.ko().map_or(0, |(p, c)| 1 + p.index() * 2 + c.index());
        hasher.write_usize(ko);
        hasher.write_usize(position.to_move.index());
        for &mv in position.recent.iter().take(history) {
            hasher.write_usize(match mv {
                Move::Pass => 0,
                Move::Play(p) => 1 + p.index(),
            });
        }
        hasher.write_usize(position.recent.len().min(history));
        hasher
    }

    fn with_komi(position_hash: &DefaultHasher, komi: f64) -> u64 {
        let mut hasher = position_hash.clone();
        hasher.write_u64(komi.to_bits());
        hasher.finish()
    }

    /// The output stored under `key`, if the table has it.
    pub fn get(&self, key: u64) -> Option<Arc<Output>> {
        let slot = self.slot(key).lock().unwrap_or_else(|p| p.into_inner());
        match &*slot {
            Some((k, output)) if *k == key => Some(Arc::clone(output)),
            _ => None,
        }
    }

    /// Stores an output under `key`, replacing whatever its slot held.
    pub fn put(&self, key: u64, output: &Arc<Output>) {
        let mut slot = self.slot(key).lock().unwrap_or_else(|p| p.into_inner());
        *slot = Some((key, Arc::clone(output)));
    }

    fn slot(&self, key: u64) -> &Slot {
        // The low bits pick the slot; `key` is a hash, so they are as good as any.
        &self.slots[(key % self.slots.len() as u64) as usize]
    }
}

/// An evaluator that answers from a [`Cache`] what it holds, and asks the network behind it
/// (keeping the answer) what it does not.
pub struct Cached {
    inner: Box<dyn Evaluator>,
    cache: Arc<Cache>,
    /// Moves before a position that the network reads ([`super::Network::history`]).
    history: usize,
    keys: Vec<u64>,
}

impl Cached {
    pub fn new(inner: Box<dyn Evaluator>, cache: Arc<Cache>, history: usize) -> Cached {
        Cached {
            inner,
            cache,
            history,
            keys: Vec::with_capacity(2),
        }
    }
}

impl Evaluator for Cached {
    /// From the cache when it has every komi's output; else one evaluation for all of them.
    fn evaluate(&mut self, position: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>) {
        outputs.clear();
        self.keys.clear();
        let position_hash = Cache::position_hash(position, self.history);
        let keys = komis.iter().map(|&k| Cache::with_komi(&position_hash, k));
        self.keys.extend(keys);
        for &key in &self.keys {
            match self.cache.get(key) {
                Some(found) => outputs.push(found),
                None => break,
            }
        }
        if outputs.len() == komis.len() {
            return;
        }
        self.inner.evaluate(position, komis, outputs);
        for (&key, output) in self.keys.iter().zip(outputs.iter()) {
            self.cache.put(key, output);
        }
    }

    fn vary_symmetry(&mut self) {
        self.inner.vary_symmetry();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::coord::Color;

    fn output(value: f32) -> Arc<Output> {
        Arc::new(Output {
            policy: vec![0.1, 0.2, 0.3, 0.4],
            pass: 0.0,
            value: Some(value),
            score_lead: None,
            ownership: None,
        })
    }

    #[test]
    fn a_stored_output_comes_back_and_a_collision_replaces_it() {
        let cache = Cache::new(4);
        let board = Board::new(9).expect("a board size");
        let recent = [Move::Pass];
        let position = Position {
            board: &board,
            to_move: Color::Black,
            recent: &recent,
        };
        let key = Cache::key(&position, 7, 7.5);
        assert_ne!(
            key,
            Cache::key(&position, 7, -7.5),
            "the komi is in the key"
        );
        let white = Position {
            to_move: Color::White,
            ..position
        };
        assert_ne!(key, Cache::key(&white, 7, 7.5), "the side to move is");
        let longer = [Move::Pass, Move::Pass];
        let history = Position {
            recent: &longer,
            ..position
        };
        assert_ne!(key, Cache::key(&history, 7, 7.5), "the history is");
        assert_eq!(key, Cache::key(&history, 1, 7.5), "as far as it is read");
        assert_eq!(
            key,
            Cache::key(&position, 7, 7.5),
            "the same position, the same key"
        );
        assert_eq!(cache.get(key), None);
        cache.put(key, &output(0.6));
        assert_eq!(cache.get(key).and_then(|o| o.value), Some(0.6));
        // Another key of the same slot replaces the entry.
        let other = key + 4;
        cache.put(other, &output(0.3));
        assert_eq!(cache.get(key), None);
        assert_eq!(cache.get(other).and_then(|o| o.value), Some(0.3));
    }
}
