//! Tree reuse: the tree of the last search, re-rooted at the position of the next one when
//! the game went on along moves the tree has.

use super::tree::{Tree, ROOT};
use super::Search;
use crate::coord::{Color, Move};
use crate::game::Game;
use crate::rules::Ruleset;

/// What a tree was built for: the game's start, settings and moves, and who it searched for.
#[derive(Clone, PartialEq)]
pub(super) struct TreeKey {
    start_hash: u64,
    size: usize,
    komi: f64,
    /// The komi shift the tree's statistics were counted with.
    komi_shift: f64,
    rules: Ruleset,
    moves: Vec<(Color, Move)>,
    /// The player the tree's root was searched for.
    to_move: Color,
}

impl TreeKey {
    pub fn of(game: &Game, searched_for: Color, komi_shift: f64) -> TreeKey {
        let (start, to_move) = game.start();
        TreeKey {
            start_hash: start.hash() ^ to_move.index() as u64,
            size: game.size(),
            komi: game.komi(),
            komi_shift,
            rules: game.rules(),
            moves: game.history().iter().map(|t| (t.color, t.mv)).collect(),
            to_move: searched_for,
        }
    }
}

impl Search {
    /// The previous tree re-rooted at the current position when the game continued from
    /// it, else a new tree.
    pub(super) fn take_tree(&mut self, game: &Game, color: Color) -> Tree {
        let key = TreeKey::of(game, color, self.komi_shift);
        let tolerance = self.config.params.reuse_shift;
        let reused = match (self.tree.take(), self.tree_game.take()) {
            (Some(tree), Some(old)) => descend(&tree, &old, &key, tolerance)
                .map(|index| tree.subtree(index, self.config.max_memory)),
            _ => None,
        };
        reused.unwrap_or_else(|| Tree::new(self.config.max_memory))
    }
}

/// The node of `tree` (built for `old`) that is the position of `new`, if `new` continues
/// `old` along moves the tree has, with the player `new` searches for to play there, and
/// the komi shifts differ by `shift_tolerance` points at most.
fn descend(tree: &Tree, old: &TreeKey, new: &TreeKey, shift_tolerance: f64) -> Option<u32> {
    let same_game = old.start_hash == new.start_hash
        && old.size == new.size
        && old.komi == new.komi
        && (old.komi_shift - new.komi_shift).abs() <= shift_tolerance
        && old.rules == new.rules
        && new.moves.starts_with(&old.moves);
    if !same_game {
        return None;
    }
    // The tree alternates colors from the player it was searched for: the moves since
    // must follow that alternation, and lead to `color` to play.
    let added = &new.moves[old.moves.len()..];
    let mut expected = old.to_move;
    let mut index = ROOT;
    for &(mover, mv) in added {
        if mover != expected {
            return None;
        }
        index = tree.child_with_move(index, mv)?;
        expected = expected.opponent();
    }
    (expected == new.to_move).then_some(index)
}
