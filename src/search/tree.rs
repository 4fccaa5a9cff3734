//! The search tree: nodes in a chunked arena shared by all search threads.
//!
//! Every field of a [`Node`] is an atomic, so threads read and update statistics without
//! locks (relaxed counters: an occasional lost race costs one sample, not correctness). A node
//! is expanded by exactly one thread: it wins a compare-and-swap on `state`, writes the
//! children into a freshly allocated block, then publishes the block with release stores;
//! readers load it with acquire. Children of a node are contiguous, which keeps selection
//! cache-friendly.
//!
//! Memory is allocated in chunks as the tree grows, and never beyond the capacity fixed at
//! creation from the memory cap: when the arena is full, leaves simply stop expanding.

use crate::coord::{Move, Point};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering::*};
use std::sync::OnceLock;

/// Nodes per arena chunk.
const CHUNK: usize = 1 << 15;

/// One move of the tree with its statistics, from the point of view of the player who made
/// the move. Wins are counted in [`UNITS`] a game (a win is `UNITS`, a draw half of it), so
/// that they stay integers an atomic add can sum, yet a leaf evaluator's fractional value (a
/// network's 0.63) backs up as what it is.
#[derive(Default)]
pub struct Node {
    /// The move's point, or 0 for a pass.
    mv: AtomicU16,
    /// Simulations through this node (prior games and virtual losses of running ones
    /// included).
    visits: AtomicU32,
    /// Wins of those simulations, in [`UNITS`] a game.
    wins: AtomicU32,
    /// AMAF (all-moves-as-first) simulations and their wins in [`UNITS`]: simulations from the
    /// parent in which this move was played later by the same player.
    amaf_visits: AtomicU32,
    amaf_wins: AtomicU32,
    /// Visits that came from priors, not from simulations (subtracted when reporting).
    prior_visits: AtomicU32,
    /// Half-point wins that came from priors (kept apart for analysis output; fits in the
    /// node's padding).
    prior_wins: AtomicU16,
    /// Index of the first child (0: not expanded yet).
    first_child: AtomicU32,
    child_count: AtomicU16,
    /// 0 leaf, 1 being expanded, 2 expanded.
    state: AtomicU8,
    /// [`BANNED`] and [`LATE_PRIORS`] (the node's last spare byte).
    flags: AtomicU8,
}

// 32 bytes, checked when compiling: a 64-byte cache line holds two nodes, and the memory cap
// (`--max-memory`, turned into a number of nodes with this size and the two bytes of policy
// kept beside each, [`NODE_BYTES`]) is sized on it. A new field must fit in the padding.
const _: () = assert!(std::mem::size_of::<Node>() == 32);

/// Units of a won game in a node's win counts. 16 keeps a fractional value to 1/16 (the
/// search rounds it at random up or down, so that no bias builds up: the sum stays exact on
/// average), and leaves room for 2^28 games at a node before the count overflows
/// ([`MAX_VISITS`]).
pub const UNITS: u32 = 16;

/// The most simulations a search runs through the root: the win counts of a node hold
/// `UNITS` times its games in 32 bits, and this keeps them well clear of overflowing (at
/// 50,000 simulations a second, about 45 minutes of analysis of one position).
pub const MAX_VISITS: u32 = 1 << 27;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// A root move the full rules forbid (superko): selection never picks it.
const BANNED: u8 = 1;

/// The node's children have had the policy network's prior (given once per node).
const LATE_PRIORS: u8 = 2;

/// [`Tree::policy`]'s mark for a child that has no probability (no source gave a policy).
const NO_POLICY: u16 = u16::MAX;

/// A probability in a child's 16 bits of policy: steps of 1/65,534 (a move the network gives
/// 0.001% still has one), [`NO_POLICY`] left for none.
fn encode_policy(policy: Option<f32>) -> u16 {
    match policy {
        Some(p) => (p.clamp(0.0, 1.0) * f32::from(NO_POLICY - 1)).round() as u16,
        None => NO_POLICY,
    }
}

/// Bytes a node takes: the [`Node`] and its policy beside it (what the memory cap counts).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + std::mem::size_of::<AtomicU16>();

/// Statistics of a node, read at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub mv: Move,
    pub visits: u32,
    pub wins: f64,
    pub amaf_visits: u32,
    pub amaf_wins: f64,
    pub prior_visits: u32,
    /// Wins (in games) the priors gave.
    pub prior_wins: f64,
}

impl Stats {
    /// Win rate for the player who made the move (0.5 when nothing is known).
    pub fn value(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / f64::from(self.visits)
        }
    }

    /// Win rate of the simulations actually played through the node, without the priors'
    /// virtual games (what analysis shows: the priors only steer the search); the prior
    /// value when no simulation has run yet.
    pub fn simulated_value(&self) -> f64 {
        let playouts = self.playouts();
        if playouts == 0 {
            return self.value();
        }
        ((self.wins - self.prior_wins) / f64::from(playouts)).clamp(0.0, 1.0)
    }

    /// Simulations actually played through the node.
    pub fn playouts(&self) -> u32 {
        self.visits.saturating_sub(self.prior_visits)
    }
}

/// What a new child starts with.
#[derive(Clone, Copy, Debug)]
pub struct NewChild {
    pub mv: Move,
    /// Prior knowledge as virtual games: wins (in games, may be fractional) and games.
    pub prior_wins: f64,
    pub prior_games: f64,
    /// The policy's probability of the move, when a prior source gives one: what PUCT
    /// selection weighs its exploration by.
    pub policy: Option<f32>,
}

/// Games from a count in [`UNITS`].
fn games(units: u32) -> f64 {
    f64::from(units) / f64::from(UNITS)
}

/// Virtual games and wins as the tree counts them: whole games, and wins in half games (what
/// [`Node::prior_wins`] keeps, so that taking the priors out again is exact), no more
/// than the games; the wins in [`UNITS`] and in half games.
fn virtual_games(wins: f64, games: f64) -> (u32, u32, u32) {
    let games = games.round().max(0.0) as u32;
    let halves = (2.0 * wins).round().clamp(0.0, 2.0 * f64::from(games)) as u32;
    (games, halves * UNITS / 2, halves)
}

/// Half games as [`Node::prior_wins`] keeps them (saturating: only analysis reads them).
fn saturating_halves(halves: u32) -> u16 {
    halves.min(u32::from(u16::MAX)) as u16
}

fn encode(mv: Move) -> u16 {
    match mv {
        Move::Play(p) => p.index() as u16,
        Move::Pass => 0,
    }
}

fn decode(code: u16) -> Move {
    if code == 0 {
        Move::Pass
    } else {
        // Only `encode` makes codes, so this is a point it was given.
        Move::Play(Point::from_index(code.into()))
    }
}

impl Node {
    pub fn stats(&self) -> Stats {
        Stats {
            mv: decode(self.mv.load(Relaxed)),
            visits: self.visits.load(Relaxed),
            wins: games(self.wins.load(Relaxed)),
            amaf_visits: self.amaf_visits.load(Relaxed),
            amaf_wins: games(self.amaf_wins.load(Relaxed)),
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: f64::from(self.prior_wins.load(Relaxed)) / 2.0,
        }
    }

    pub fn mv(&self) -> Move {
        decode(self.mv.load(Relaxed))
    }

    /// Counts a simulation going through (before its result is known: a virtual loss that
    /// steers other threads elsewhere meanwhile).
    #[inline]
    pub fn add_visit(&self) {
        self.visits.fetch_add(1, Relaxed);
    }

    /// Adds a simulation's result, in [`UNITS`] (`UNITS` a win, 0 a loss).
    #[inline]
    pub fn add_result(&self, units: u32) {
        self.wins.fetch_add(units, Relaxed);
    }

    /// Adds an AMAF simulation's result, in [`UNITS`].
    #[inline]
    pub fn add_amaf(&self, units: u32) {
        self.amaf_visits.fetch_add(1, Relaxed);
        self.amaf_wins.fetch_add(units, Relaxed);
    }

    /// Bans the move from selection (a root move the full rules forbid); its statistics
    /// stay as they are. A copy of the node ([`Tree::subtree`]) is not banned: whether a
    /// move is forbidden depends on the position it is played from.
    pub fn ban(&self) {
        self.flags.fetch_or(BANNED, Relaxed);
    }

    /// Whether the move is banned from selection.
    #[inline]
    pub fn is_banned(&self) -> bool {
        self.flags.load(Relaxed) & BANNED != 0
    }

    /// Claims the right to give the children the policy network's prior: only the first
    /// caller gets `true`, so the network evaluates a position once.
    pub fn claim_late_priors(&self) -> bool {
        // Read before writing: every simulation through a node that had the prior asks again,
        // and a plain load keeps the shared cache line clean.
        self.flags.load(Relaxed) & LATE_PRIORS == 0
            && self.flags.fetch_or(LATE_PRIORS, Relaxed) & LATE_PRIORS == 0
    }

    /// Simulations through the node, priors included (one load, for the hot path).
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Adds prior knowledge that came after the node was made (the network's, evaluated
    /// once the parent had earned it): `wins` of `games` virtual simulations.
    pub fn add_prior(&self, wins: f64, games: f64) {
        let (games, units, halves) = virtual_games(wins, games);
        self.visits.fetch_add(games, Relaxed);
        self.wins.fetch_add(units, Relaxed);
        self.prior_visits.fetch_add(games, Relaxed);
        let old = self.prior_wins.load(Relaxed);
        let new = old.saturating_add(saturating_halves(halves));
        // A lost race here only misreports the prior's share in analysis output.
        self.prior_wins.store(new, Relaxed);
    }

    pub fn is_expanded(&self) -> bool {
        self.state.load(Acquire) == EXPANDED
    }

    /// The children's index range (empty when not expanded).
    pub fn children(&self) -> std::ops::Range<u32> {
        let first = self.first_child.load(Acquire);
        if first == 0 {
            return 0..0;
        }
        let count = u32::from(self.child_count.load(Acquire));
        first..first + count
    }

    fn reset(&self, child: &NewChild) {
        let (games, units, halves) = virtual_games(child.prior_wins, child.prior_games);
        self.mv.store(encode(child.mv), Relaxed);
        self.visits.store(games, Relaxed);
        self.wins.store(units, Relaxed);
        self.prior_visits.store(games, Relaxed);
        self.prior_wins.store(saturating_halves(halves), Relaxed);
        self.amaf_visits.store(0, Relaxed);
        self.amaf_wins.store(0, Relaxed);
        self.child_count.store(0, Relaxed);
        self.first_child.store(0, Relaxed);
        self.state.store(LEAF, Relaxed);
        self.flags.store(0, Relaxed);
    }

    fn copy_stats_from(&self, other: &Node) {
        self.mv.store(other.mv.load(Relaxed), Relaxed);
        self.visits.store(other.visits.load(Relaxed), Relaxed);
        self.wins.store(other.wins.load(Relaxed), Relaxed);
        self.prior_visits
            .store(other.prior_visits.load(Relaxed), Relaxed);
        self.prior_wins
            .store(other.prior_wins.load(Relaxed), Relaxed);
        self.amaf_visits
            .store(other.amaf_visits.load(Relaxed), Relaxed);
        self.amaf_wins.store(other.amaf_wins.load(Relaxed), Relaxed);
        // The network's prior stays given; a ban depends on the position it was made in.
        self.flags
            .store(other.flags.load(Relaxed) & LATE_PRIORS, Relaxed);
    }
}

/// [`CHUNK`] nodes, and their moves' probabilities beside them (kept apart: a [`Node`] has
/// no room left, and only PUCT selection reads them).
struct Chunk {
    nodes: Box<[Node]>,
    policy: Box<[AtomicU16]>,
}

impl Chunk {
    fn new() -> Chunk {
        Chunk {
            nodes: (0..CHUNK).map(|_| Node::default()).collect(),
            policy: (0..CHUNK).map(|_| AtomicU16::new(NO_POLICY)).collect(),
        }
    }
}

/// The arena of nodes. Index 0 is a dummy (so that 0 can mean "no children"); the root is 1.
pub struct Tree {
    chunks: Vec<OnceLock<Chunk>>,
    next: AtomicU32,
    capacity: u32,
}

/// Index of the root node.
pub const ROOT: u32 = 1;

impl Tree {
    /// A tree that never uses more than `max_bytes` for its nodes (at least one chunk).
    pub fn new(max_bytes: usize) -> Tree {
        let per_chunk = CHUNK * NODE_BYTES;
        let chunks = (max_bytes / per_chunk).clamp(1, (u32::MAX as usize) / CHUNK - 1);
        let tree = Tree {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            next: AtomicU32::new(ROOT + 1),
            capacity: (chunks * CHUNK) as u32,
        };
        tree.node(ROOT).reset(&NewChild {
            mv: Move::Pass,
            prior_wins: 0.0,
            prior_games: 0.0,
            policy: None,
        });
        tree
    }

    /// Bytes of node memory allocated so far.
    pub fn memory(&self) -> usize {
        let allocated = self.chunks.iter().filter(|c| c.get().is_some()).count();
        allocated * CHUNK * NODE_BYTES
    }

    /// Bytes the tree may use at most.
    pub fn max_memory(&self) -> usize {
        self.capacity as usize * NODE_BYTES
    }

    /// Number of nodes in use.
    pub fn len(&self) -> usize {
        (self.next.load(Relaxed).min(self.capacity) - 1) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_full(&self) -> bool {
        self.next.load(Relaxed) >= self.capacity
    }

    #[inline]
    fn chunk(&self, index: u32) -> (&Chunk, usize) {
        let (chunk, offset) = (index as usize / CHUNK, index as usize % CHUNK);
        (self.chunks[chunk].get_or_init(Chunk::new), offset)
    }

    #[inline]
    pub fn node(&self, index: u32) -> &Node {
        let (chunk, offset) = self.chunk(index);
        &chunk.nodes[offset]
    }

    /// The policy's probability of node `index`'s move, if a source gave one.
    #[inline]
    pub fn policy(&self, index: u32) -> Option<f32> {
        let (chunk, offset) = self.chunk(index);
        match chunk.policy[offset].load(Relaxed) {
            NO_POLICY => None,
            code => Some(f32::from(code) / f32::from(NO_POLICY - 1)),
        }
    }

    fn set_policy(&self, index: u32, code: u16) {
        let (chunk, offset) = self.chunk(index);
        chunk.policy[offset].store(code, Relaxed);
    }

    fn policy_code(&self, index: u32) -> u16 {
        let (chunk, offset) = self.chunk(index);
        chunk.policy[offset].load(Relaxed)
    }

    /// Reserves `count` consecutive nodes; `None` when the arena is full.
    fn allocate(&self, count: u32) -> Option<u32> {
        let start = self.next.fetch_add(count, Relaxed);
        if u64::from(start) + u64::from(count) > u64::from(self.capacity) {
            return None;
        }
        Some(start)
    }

    /// Claims the right to expand `index`. Only one caller ever gets `true`.
    pub fn try_begin_expansion(&self, index: u32) -> bool {
        self.node(index)
            .state
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_ok()
    }

    /// Gives node `index` (claimed with [`Tree::try_begin_expansion`]) its children. When the
    /// arena is full the node stays a leaf for good. Returns whether children were added.
    pub fn expand(&self, index: u32, children: &[NewChild]) -> bool {
        let node = self.node(index);
        let count = children.len().min(u16::MAX as usize) as u32;
        let Some(first) = (count > 0).then(|| self.allocate(count)).flatten() else {
            // Full (or no move): leave the node marked expanding so nobody retries.
            return false;
        };
        for (k, child) in children.iter().take(count as usize).enumerate() {
            self.node(first + k as u32).reset(child);
            self.set_policy(first + k as u32, encode_policy(child.policy));
        }
        node.child_count.store(count as u16, Release);
        node.first_child.store(first, Release);
        node.state.store(EXPANDED, Release);
        true
    }

    /// The child of `index` that plays `mv`, if expanded.
    pub fn child_with_move(&self, index: u32, mv: Move) -> Option<u32> {
        self.node(index)
            .children()
            .find(|&c| self.node(c).mv() == mv)
    }

    /// A new tree holding a copy of the subtree under `index` (which becomes the root), as
    /// far as `max_bytes` allows: tree reuse after the moves played since the last search.
    pub fn subtree(&self, index: u32, max_bytes: usize) -> Tree {
        let new = Tree::new(max_bytes);
        new.node(ROOT).copy_stats_from(self.node(index));
        let mut stack = vec![(index, ROOT)];
        while let Some((from, to)) = stack.pop() {
            let source = self.node(from);
            if !source.is_expanded() {
                continue;
            }
            let range = source.children();
            let count = range.end - range.start;
            let Some(first) = new.allocate(count) else {
                continue;
            };
            for (k, c) in range.enumerate() {
                let target = first + k as u32;
                new.node(target).copy_stats_from(self.node(c));
                new.node(target).state.store(LEAF, Relaxed);
                new.set_policy(target, self.policy_code(c));
                stack.push((c, target));
            }
            let dest = new.node(to);
            dest.child_count.store(count as u16, Release);
            dest.first_child.store(first, Release);
            dest.state.store(EXPANDED, Release);
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::Geometry;

    /// The `n`th point of a 19x19 board.
    fn point(n: usize) -> Point {
        Geometry::new(19).unwrap().points().nth(n).unwrap()
    }

    fn child(n: usize) -> NewChild {
        NewChild {
            mv: Move::Play(point(n)),
            prior_wins: 5.0,
            prior_games: 10.0,
            policy: None,
        }
    }

    #[test]
    fn expansion_happens_once_and_children_are_contiguous() {
        let tree = Tree::new(1 << 20);
        assert!(tree.try_begin_expansion(ROOT));
        assert!(!tree.try_begin_expansion(ROOT));
        assert!(tree.expand(ROOT, &[child(12), child(13), child(14)]));
        let kids: Vec<u32> = tree.node(ROOT).children().collect();
        assert_eq!(kids.len(), 3);
        assert_eq!(tree.node(kids[1]).mv(), Move::Play(point(13)));
        let stats = tree.node(kids[0]).stats();
        assert_eq!((stats.visits, stats.wins, stats.playouts()), (10, 5.0, 0));
        assert_eq!(
            tree.child_with_move(ROOT, Move::Play(point(14))),
            Some(kids[2])
        );
    }

    #[test]
    fn analysis_win_rates_leave_the_priors_out() {
        let tree = Tree::new(1 << 20);
        tree.try_begin_expansion(ROOT);
        tree.expand(
            ROOT,
            &[NewChild {
                mv: Move::Play(point(12)),
                prior_wins: 9.0,
                prior_games: 10.0,
                policy: None,
            }],
        );
        let node = tree.node(tree.node(ROOT).children().start);
        assert_eq!(node.stats().simulated_value(), 0.9, "only the prior so far");
        for units in [UNITS, 0] {
            node.add_visit();
            node.add_result(units);
        }
        let stats = node.stats();
        assert!((stats.value() - 10.0 / 12.0).abs() < 1e-9);
        assert_eq!(stats.simulated_value(), 0.5);
    }

    #[test]
    fn a_ban_is_a_flag_that_copies_do_not_keep() {
        let tree = Tree::new(1 << 20);
        tree.try_begin_expansion(ROOT);
        tree.expand(ROOT, &[child(12), child(13)]);
        let banned = tree.node(ROOT).children().start;
        let before = tree.node(banned).stats();
        tree.node(banned).ban();
        assert!(tree.node(banned).is_banned());
        assert!(!tree.node(banned + 1).is_banned());
        assert_eq!(tree.node(banned).stats(), before, "statistics untouched");
        let copy = tree.subtree(ROOT, 1 << 20);
        let first = copy.node(ROOT).children().start;
        assert!(!copy.node(first).is_banned());
        assert_eq!(copy.node(first).stats(), before);
    }

    #[test]
    fn the_memory_cap_is_never_exceeded() {
        let max = 3 * CHUNK * NODE_BYTES;
        let tree = Tree::new(max);
        let mut index = ROOT;
        let children: Vec<NewChild> = (1..=300).map(child).collect();
        let mut expanded = 0;
        while tree.try_begin_expansion(index) && tree.expand(index, &children) {
            expanded += 1;
            index = tree.node(index).children().start;
        }
        assert!(tree.is_full());
        assert!(expanded >= 3 * CHUNK / 300 - 1);
        assert!(tree.memory() <= max, "{} > {max}", tree.memory());
        assert!(tree.max_memory() <= max);
    }

    #[test]
    fn the_policy_is_kept_beside_the_nodes_and_in_copies() {
        let tree = Tree::new(1 << 20);
        tree.try_begin_expansion(ROOT);
        let with = |n, policy| NewChild { policy, ..child(n) };
        tree.expand(ROOT, &[with(1, Some(0.25)), with(2, Some(1e-9)), child(3)]);
        let first = tree.node(ROOT).children().start;
        // Kept to 1/65,534.
        let near = |p: Option<f32>, q: f32| p.is_some_and(|p| (p - q).abs() < 1e-4);
        assert!(near(tree.policy(first), 0.25));
        assert_eq!(tree.policy(first + 1), Some(0.0));
        assert_eq!(tree.policy(first + 2), None);
        assert_eq!(tree.policy(ROOT), None);
        let copy = tree.subtree(ROOT, 1 << 20);
        let start = copy.node(ROOT).children().start;
        assert_eq!(copy.policy(start), tree.policy(first));
        assert_eq!(copy.policy(start + 2), None);
    }

    #[test]
    fn subtrees_keep_statistics() {
        let tree = Tree::new(1 << 20);
        tree.try_begin_expansion(ROOT);
        tree.expand(ROOT, &[child(12), child(13)]);
        let c = tree.node(ROOT).children().start + 1;
        tree.try_begin_expansion(c);
        tree.expand(c, &[child(20)]);
        tree.node(c).add_visit();
        tree.node(c).add_result(UNITS);
        let sub = tree.subtree(c, 1 << 20);
        let root = sub.node(ROOT).stats();
        assert_eq!((root.visits, root.wins), (11, 6.0));
        let grandchild = sub.node(ROOT).children().start;
        assert_eq!(sub.node(grandchild).mv(), Move::Play(point(20)));
        assert!(!sub.node(grandchild).is_expanded());
        assert_eq!(sub.len(), 2);
    }

    #[test]
    fn the_network_prior_is_given_once_and_survives_reuse() {
        let tree = Tree::new(1 << 20);
        assert!(tree.try_begin_expansion(ROOT));
        assert!(tree.expand(ROOT, &[child(0), child(1)]));
        let first = tree.node(ROOT).children().start;
        assert!(tree.node(first).claim_late_priors());
        assert!(!tree.node(first).claim_late_priors());
        tree.node(first).add_prior(30.0, 30.0);
        let s = tree.node(first).stats();
        assert_eq!(
            (s.visits, s.wins, s.prior_visits, s.prior_wins),
            (40, 35.0, 40, 35.0)
        );
        assert_eq!(s.playouts(), 0);
        tree.node(first).ban();
        // A kept tree remembers that the network has spoken, not the ban.
        let kept = tree.subtree(ROOT, 1 << 20);
        let copy = kept.node(kept.node(ROOT).children().start);
        assert!(!copy.is_banned());
        assert!(!copy.claim_late_priors());
        assert!(kept
            .node(kept.node(ROOT).children().start + 1)
            .claim_late_priors());
    }
}
