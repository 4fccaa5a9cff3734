//! Network outputs kept by position, as Leela Zero's `NNCache` keeps them: the search asks
//! about the same position again and again (a leaf's value, then the policy for its
//! children once it expands; transpositions; the next move's search over the same tree), and
//! an answer costs a forward pass of a millisecond or more.
//!
//! The key is a hash of everything a network may read of a position ([`Position`]: the
//! stones, the simple-ko point and the superko bans, the side to move, the moves before it
//! with their colours and the boards before them as far as the network reads them, the
//! rules, the komi and the handicap) and of the komi it is judged by, so a hit gives what an
//! evaluation would. The table is
//! direct-mapped: a fixed number of slots, each behind its own lock (threads rarely meet on
//! one), a new entry replacing the old one in its slot. Its size is fixed when it is made:
//! the slots fill as the search uses them, and then the memory stays what it is.

use super::{Evaluator, Output, Symmetry};
use crate::coord::Move;
use crate::game::{Position, Terms};
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
    /// what `reads` says of the moves and boards before a position.
    pub fn key(position: &Position<'_>, reads: Reads, komi: f64) -> u64 {
        Self::with_komi(&Self::position_hash(position, reads), komi)
    }

    /// The hash of `position` alone, which [`Cache::with_komi`] finishes into a key: a
    /// position judged by two komis is hashed once.
    fn position_hash(position: &Position<'_>, reads: Reads) -> DefaultHasher {
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
        for played in position.recent.iter().take(reads.moves) {
            hasher.write_usize(match played.mv {
                Move::Pass => 0,
                Move::Play(p) => 1 + p.index(),
            });
            hasher.write_usize(played.color.index());
        }
        hasher.write_usize(position.recent.len().min(reads.moves));
        for earlier in position.earlier.iter().take(reads.boards) {
            hasher.write_u64(earlier.hash());
        }
        hasher.write_usize(position.earlier.len().min(reads.boards));
        for p in position.superko_bans {
            hasher.write_usize(p.index());
        }
        hasher.write_usize(position.superko_bans.len());
        hash_terms(&mut hasher, &position.terms);
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

/// What a network reads of the moves and the boards before a position
/// ([`super::Network::history`], [`super::Network::earlier_boards`]): what its outputs'
/// keys take in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    pub moves: usize,
    pub boards: usize,
}

impl Reads {
    /// What `net` reads.
    pub fn of(net: &dyn super::Network) -> Reads {
        Reads {
            moves: net.history(),
            boards: net.earlier_boards(),
        }
    }
}

/// Adds the game's terms to `hasher`: every field of the rules a network could read, the
/// komi and the handicap.
fn hash_terms(hasher: &mut DefaultHasher, terms: &Terms) {
    let rules = &terms.rules;
    hasher.write(rules.name.as_bytes());
    hasher.write_u8(rules.ko as u8);
    hasher.write_u8(rules.scoring as u8);
    hasher.write_u8(u8::from(rules.multi_stone_suicide));
    hasher.write_u8(rules.handicap_bonus as u8);
    hasher.write_u8(u8::from(rules.dead_stone_removal));
    hasher.write_u64(terms.komi.to_bits());
    hasher.write_usize(terms.handicap);
}

/// An evaluator that answers from a [`Cache`] what it holds, and asks the network behind it
/// (keeping the answer) what it does not.
pub struct Cached {
    inner: Box<dyn Evaluator>,
    cache: Arc<Cache>,
    /// What the network reads of the moves and boards before a position.
    reads: Reads,
    /// The symmetry every position is read in, when one is fixed ([`Evaluator::read_in`]):
    /// its outputs are kept apart from the others'.
    fixed: Option<Symmetry>,
    keys: Vec<u64>,
}

impl Cached {
    pub fn new(inner: Box<dyn Evaluator>, cache: Arc<Cache>, reads: Reads) -> Cached {
        Cached {
            inner,
            cache,
            reads,
            fixed: None,
            keys: Vec::with_capacity(2),
        }
    }
}

impl Evaluator for Cached {
    /// From the cache when it has every komi's output; else one evaluation for all of them.
    fn evaluate(&mut self, position: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>) {
        outputs.clear();
        self.keys.clear();
        let mut position_hash = Cache::position_hash(position, self.reads);
        if let Some(symmetry) = self.fixed {
            position_hash.write_u8(1 + symmetry.number());
        }
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

    fn read_in(&mut self, symmetry: Symmetry) -> bool {
        let fixed = self.inner.read_in(symmetry);
        if fixed {
            self.fixed = Some(symmetry);
        }
        fixed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::coord::Color;
    use crate::game::Played;
    use crate::rules::Ruleset;

    fn output(value: f32) -> Arc<Output> {
        Arc::new(Output {
            policy: vec![0.1, 0.2, 0.3, 0.4],
            pass: None,
            value: Some(value),
            score_lead: None,
            ownership: None,
            ..Default::default()
        })
    }

    #[test]
    fn a_stored_output_comes_back_and_a_collision_replaces_it() {
        let cache = Cache::new(4);
        let board = Board::new(9).expect("a board size");
        let position = empty_position(&board, &[]);
        let reads = Reads {
            moves: 7,
            boards: 2,
        };
        let key = Cache::key(&position, reads, 7.5);
        assert_eq!(key, Cache::key(&position, reads, 7.5), "the same key");
        assert_eq!(cache.get(key), None);
        cache.put(key, &output(0.6));
        assert_eq!(cache.get(key).and_then(|o| o.value), Some(0.6));
        // Another key of the same slot replaces the entry.
        let other = key + 4;
        cache.put(other, &output(0.3));
        assert_eq!(cache.get(key), None);
        assert_eq!(cache.get(other).and_then(|o| o.value), Some(0.3));
    }

    /// An empty 9x9 position under French rules, komi 7.5, after `recent`.
    fn empty_position<'a>(board: &'a Board, recent: &'a [Played]) -> Position<'a> {
        Position {
            board,
            to_move: Color::Black,
            recent,
            earlier: &[],
            superko_bans: &[],
            terms: Terms {
                rules: Ruleset::FRENCH,
                komi: 7.5,
                handicap: 0,
            },
        }
    }

    /// Everything a network may read is in the key, the moves and boards as far as it
    /// reads them: a hit never answers for another position.
    #[test]
    fn the_key_takes_in_all_a_network_may_read() {
        let board = Board::new(9).expect("a board size");
        let boards = [board.clone(), Board::new(9).expect("a board size")];
        let mut other_board = board.clone();
        let p = board.geometry().parse_point("E5").expect("a vertex");
        other_board.place(Color::White, p);
        let pass = |color| Played {
            color,
            mv: Move::Pass,
        };
        let recent = [pass(Color::White)];
        let both = [pass(Color::White), pass(Color::Black)];
        let black = [pass(Color::Black)];
        let position = empty_position(&board, &recent);
        let reads = Reads {
            moves: 7,
            boards: 2,
        };
        let key = |position: &Position<'_>, reads| Cache::key(position, reads, 7.5);
        let base = key(&position, reads);
        assert_ne!(
            base,
            Cache::key(&position, reads, -7.5),
            "the komi judged by"
        );
        let turned = [
            Position {
                to_move: Color::White,
                ..position
            },
            empty_position(&board, &both),
            empty_position(&board, &black),
            Position {
                earlier: &[other_board.clone()],
                ..position
            },
            Position {
                superko_bans: &[p],
                ..position
            },
            Position {
                terms: Terms {
                    rules: Ruleset::JAPANESE,
                    ..position.terms
                },
                ..position
            },
            Position {
                terms: Terms {
                    komi: 6.5,
                    ..position.terms
                },
                ..position
            },
            Position {
                terms: Terms {
                    handicap: 2,
                    ..position.terms
                },
                ..position
            },
        ];
        for (i, other) in turned.iter().enumerate() {
            assert_ne!(base, key(other, reads), "change {i} is not in the key");
        }
        let unread = Reads {
            moves: 1,
            boards: 0,
        };
        let longer = empty_position(&board, &both);
        assert_eq!(
            key(&longer, unread),
            key(&position, unread),
            "a move not read"
        );
        let deeper = Position {
            earlier: &boards,
            ..position
        };
        assert_eq!(
            key(&deeper, unread),
            key(&position, unread),
            "a board not read"
        );
    }
}
