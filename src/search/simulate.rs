//! One simulation: descend the tree by selection, expand the leaf once it has earned it,
//! ask the leaf evaluator who is winning there, and back the result up the path (and as
//! AMAF evidence to the siblings whose moves were played later).

use super::expand::{inner_moves, late_priors, with_priors};
use super::params::{Puct, SearchParams};
use super::root::{Root, RootScores};
use super::tree::{Tree, ROOT, UNITS};
use crate::board::Board;
use crate::coord::{Color, Move, SLOTS};
use crate::game::{Played, Position};
use crate::knowledge::ownership::OwnershipMap;
use crate::knowledge::playout::MoveRecord;
use crate::knowledge::{Evaluation, Leaf, ThreadKnowledge, Timing};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Per-thread working memory and knowledge, reused across simulations.
pub(super) struct Scratch {
    board: Board,
    /// For rounding fractional results to the tree's [`UNITS`] (up or down at random, so
    /// that their sum has no bias).
    rng: SmallRng,
    path: Vec<u32>,
    /// The moves along the path, from the root.
    line: Vec<Move>,
    /// For each node of the path, how many stones the simulation had played when it was there.
    starts: Vec<usize>,
    moves: MoveRecord,
    /// AMAF sweep: color of the first stone seen on each point (0 none, 1 black, 2 white).
    first: Box<[u8; SLOTS]>,
    /// This thread's ownership and score sums.
    pub tally: OwnershipMap,
    /// This thread's sums by root child, when the search keeps them
    /// ([`RootScores::thread_moves_tally`]); part of the root's once flushed.
    moves_tally: Vec<OwnershipMap>,
    /// Simulations whose ends went to `moves_tally` since the last flush.
    moves_ends: u32,
    /// When the sums were last flushed ([`SearchParams::tally_flush_ms`]).
    flushed: Instant,
    knowledge: ThreadKnowledge,
    /// Simulations a node needs before the late prior sources speak, if there are any.
    late_after: Option<u32>,
    /// The moves before the node being expanded, the most recent first.
    recent: Vec<Played>,
    /// The boards before the node being expanded or evaluated, the most recent first, as
    /// many as the knowledge reads (none by default).
    earlier: Vec<Board>,
    /// Simulations through a leaf before it expands: [`SearchParams::expand_after`], or at most
    /// 2 (one evaluation, then children) for an evaluator that would only repeat itself.
    expand_after: u32,
}

impl Scratch {
    pub fn new(
        root: &Root,
        scores: &RootScores,
        params: &SearchParams,
        mut knowledge: ThreadKnowledge,
        seed: u64,
    ) -> Scratch {
        knowledge.leaf.begin(&root.position(), root.search_komi);
        let late_after = knowledge
            .priors
            .iter()
            .filter_map(|s| match s.timing() {
                Timing::After(n) => Some(n),
                Timing::AtExpansion => None,
            })
            .min();
        let expand_after = if knowledge.leaf.is_deterministic() {
            params.expand_after.min(2)
        } else {
            params.expand_after
        };
        Scratch {
            board: root.board.clone(),
            rng: SmallRng::seed_from_u64(seed ^ 0x5851_F42D_4C95_7F2D),
            path: Vec::with_capacity(64),
            line: Vec::with_capacity(64),
            starts: Vec::with_capacity(64),
            moves: Vec::with_capacity(4 * root.board.size() * root.board.size()),
            first: Box::new([0; SLOTS]),
            tally: OwnershipMap::new(root.board.geometry()),
            moves_tally: scores.thread_moves_tally(root.board.geometry()),
            moves_ends: 0,
            flushed: Instant::now(),
            knowledge,
            late_after,
            recent: Vec::with_capacity(root.history),
            earlier: Vec::with_capacity(root.earlier_boards),
            expand_after,
        }
    }

    /// Adds this thread's sums to the search's (the root's, and by move where it keeps
    /// them) and empties them.
    pub fn flush(&mut self, root: &Root, scores: &RootScores) {
        root.flush_tally(&mut self.tally, &mut self.moves_tally, scores);
        self.moves_ends = 0;
        self.flushed = Instant::now();
    }

    /// Sets [`Scratch::recent`] and [`Scratch::earlier`] to the moves and the boards
    /// before the current end of the path.
    fn fill_recent(&mut self, root: &Root) {
        self.recent.clear();
        let line = self.line.iter().enumerate().rev().map(|(i, &mv)| Played {
            color: mover(root, i),
            mv,
        });
        let before = line.chain(root.facts.recent.iter().copied());
        self.recent.extend(before.take(root.history));
        self.fill_earlier(root);
    }

    /// Sets [`Scratch::earlier`] to the boards before the current end of the path, when the
    /// knowledge reads any: those the path made, replayed from the root's, then the game's.
    fn fill_earlier(&mut self, root: &Root) {
        self.earlier.clear();
        if root.earlier_boards == 0 {
            return;
        }
        let first = self.line.len().saturating_sub(root.earlier_boards);
        let mut board = root.board.clone();
        for (i, &mv) in self.line.iter().enumerate() {
            if i >= first {
                self.earlier.push(board.clone());
            }
            match mv {
                Move::Play(p) => {
                    board.place(mover(root, i), p);
                }
                Move::Pass => board.pass(),
            }
        }
        self.earlier.reverse();
        let missing = root.earlier_boards - self.earlier.len();
        let before = root.facts.earlier.iter().take(missing).cloned();
        self.earlier.extend(before);
    }

    /// `chances` (from 0 to 1) in the tree's [`UNITS`], rounded up or down at random in
    /// proportion, so that the rounding has no bias: a playout's 0, ½ and 1 are exact.
    fn units(&mut self, chances: f64) -> u32 {
        let exact = chances.clamp(0.0, 1.0) * f64::from(UNITS);
        let whole = exact.floor();
        let up = exact > whole && self.rng.gen::<f64>() < exact - whole;
        (whole as u32 + u32::from(up)).min(UNITS)
    }
}

/// One simulation: descend, expand, evaluate, back up.
pub(super) fn simulate(
    tree: &Tree,
    root: &Root,
    params: &SearchParams,
    scores: &RootScores,
    s: &mut Scratch,
) {
    s.board.copy_from(&root.board);
    s.path.clear();
    s.line.clear();
    s.starts.clear();
    s.moves.clear();
    let mut color = root.to_move;
    let mut last = root.last_move();
    let mut passes = root.passes;
    let mut index = ROOT;
    tree.node(ROOT).add_visit();
    s.path.push(ROOT);
    loop {
        s.starts.push(s.moves.len());
        let node = tree.node(index);
        if !node.is_expanded() && !expand_leaf(tree, index, root, params, color, last, s) {
            break;
        }
        if index != ROOT
            && s.late_after.is_some_and(|after| node.visits() >= after)
            && node.claim_late_priors()
        {
            s.fill_recent(root);
            let position = position_at(root, &s.board, &s.recent, &s.earlier, color);
            let komi = root.search_komi;
            late_priors(&position, komi, tree, index, &mut s.knowledge, true);
        }
        let Some(child) = select(tree, index, params, index == ROOT && root.bans) else {
            break;
        };
        tree.node(child).add_visit();
        s.path.push(child);
        let mv = tree.node(child).mv();
        match mv {
            Move::Play(p) => {
                s.board.place(color, p);
                s.moves.push((p, color));
                passes = 0;
            }
            Move::Pass => {
                s.board.pass();
                passes += 1;
            }
        }
        s.line.push(mv);
        (last, color, index) = (mv, color.opponent(), child);
        if passes >= 2 {
            break;
        }
    }
    let child = s.path.get(1).copied();
    let slot = child.and_then(|c| scores.ownership_slot(c));
    let evaluation = evaluate_leaf(root, color, passes >= 2, slot, s);
    if let Some(child) = child {
        scores.add(child, &evaluation);
    }
    if flush_due(s, params) {
        s.flush(root, scores);
    }
    let black = s.units(evaluation.black_search);
    back_up(tree, root, s, |c| {
        if c == Color::Black {
            black
        } else {
            UNITS - black
        }
    });
}

/// Gives the leaf `index` (the position on the scratch board, `color` to move after `last`)
/// its children, when it has had enough simulations and no other thread is at it. Returns
/// whether it has children now.
/// Whether the thread's sums are due to join the search's: after
/// [`SearchParams::tally_flush`] ends, or [`SearchParams::tally_flush_ms`] since the last
/// flush with at least one end.
fn flush_due(s: &Scratch, params: &SearchParams) -> bool {
    let ends = s.tally.ends() + u64::from(s.moves_ends);
    ends >= params.tally_flush
        || (ends > 0 && s.flushed.elapsed() >= Duration::from_millis(params.tally_flush_ms))
}

fn expand_leaf(
    tree: &Tree,
    index: u32,
    root: &Root,
    params: &SearchParams,
    color: Color,
    last: Move,
    s: &mut Scratch,
) -> bool {
    let ready = tree.node(index).stats().playouts() >= s.expand_after;
    if !(ready && tree.try_begin_expansion(index)) {
        return false;
    }
    let moves = inner_moves(&s.board, color, last, params.pass_empty_share);
    s.fill_recent(root);
    let position = position_at(root, &s.board, &s.recent, &s.earlier, color);
    let children = with_priors(&position, root.search_komi, &moves, &mut s.knowledge);
    tree.expand(index, &children)
}

/// The position `board` inside `root`'s tree with `color` to move after `recent` and
/// `earlier`, as the prior sources see it: the root's terms, no superko bans (the tree
/// plays by simple ko).
fn position_at<'a>(
    root: &'a Root,
    board: &'a Board,
    recent: &'a [Played],
    earlier: &'a [Board],
    color: Color,
) -> Position<'a> {
    Position {
        board,
        to_move: color,
        recent,
        earlier,
        superko_bans: &[],
        terms: root.facts.terms,
    }
}

/// The colour of the `i`th move of a path from `root` (0 the root's move).
fn mover(root: &Root, i: usize) -> Color {
    if i.is_multiple_of(2) {
        root.to_move
    } else {
        root.to_move.opponent()
    }
}

/// The leaf's evaluation: the count of the board when the simulation ended with two
/// passes, else the leaf evaluator's. Its end goes to the thread's sums of the root move
/// `slot` where the search keeps them by move, else to the thread's root sums.
fn evaluate_leaf(
    root: &Root,
    color: Color,
    ended: bool,
    slot: Option<usize>,
    s: &mut Scratch,
) -> Evaluation {
    let komi = (root.komi, root.search_komi);
    if !ended {
        s.fill_earlier(root);
    }
    let tally = match slot.and_then(|i| s.moves_tally.get_mut(i)) {
        Some(tally) => {
            s.moves_ends += 1;
            tally
        }
        None => &mut s.tally,
    };
    if ended {
        return Evaluation::counted(&s.board, s.board.area_lead(), komi, tally);
    }
    let mut leaf = Leaf {
        board: &mut s.board,
        to_move: color,
        line: &s.line,
        before_root: &root.facts.recent,
        earlier: &s.earlier,
        terms: root.facts.terms,
        komi: komi.0,
        search_komi: komi.1,
        forbidden: &root.forbidden,
        moves: &mut s.moves,
        tally,
    };
    s.knowledge.leaf.evaluate(&mut leaf)
}

/// Adds the result to the path, and AMAF evidence to the children of each node on it.
/// `units(c)` is the result for player `c`, in [`UNITS`].
fn back_up(tree: &Tree, root: &Root, s: &mut Scratch, units: impl Fn(Color) -> u32) {
    // The node at depth d holds the move of the player to move at depth d - 1.
    let mover = |depth: usize| {
        if depth % 2 == 1 {
            root.to_move
        } else {
            root.to_move.opponent()
        }
    };
    for (depth, &index) in s.path.iter().enumerate() {
        tree.node(index).add_result(units(mover(depth)));
    }
    // Sweep the moves from the last to the first, so that `first` holds, for each point,
    // the color of the earliest stone played there from the current step on; at each
    // path node's step, credit its children whose move was played first by their mover.
    let mut depth = s.starts.len();
    while depth > 0 && s.starts[depth - 1] >= s.moves.len() {
        depth -= 1;
    }
    for step in (0..s.moves.len()).rev() {
        let (p, c) = s.moves[step];
        s.first[p.index()] = 1 + c.index() as u8;
        while depth > 0 && s.starts[depth - 1] == step {
            depth -= 1;
            let children_mover = mover(depth + 1);
            let code = 1 + children_mover.index() as u8;
            let result = units(children_mover);
            for child in tree.node(s.path[depth]).children() {
                if let Move::Play(q) = tree.node(child).mv() {
                    if s.first[q.index()] == code {
                        tree.node(child).add_amaf(result);
                    }
                }
            }
        }
    }
    for &(p, _) in &s.moves {
        s.first[p.index()] = 0;
    }
}

/// The child of `index` to simulate next: by PUCT where the children have the policy's
/// probabilities and [`SearchParams::puct`] asks for it, else by RAVE. With `bans`, banned
/// children (root moves the full rules forbid, see [`Root::prepare`]) are left out: only
/// root children are ever banned, and rarely (a superko), so the selections elsewhere,
/// which run many times per simulation, do not look.
fn select(tree: &Tree, index: u32, params: &SearchParams, bans: bool) -> Option<u32> {
    // RAVE, the default, pays nothing for the look at the policy.
    let puct = params.puct.enabled.or(false) && {
        let first = tree.node(index).children().start;
        first != 0 && tree.policy(first).is_some()
    };
    match (puct, bans) {
        (true, true) => select_puct::<true>(tree, index, params),
        (true, false) => select_puct::<false>(tree, index, params),
        (false, true) => select_rave::<true>(tree, index, params),
        (false, false) => select_rave::<false>(tree, index, params),
    }
}

/// The child of `index` with the best blend of win rate and AMAF win rate.
fn select_rave<const BANS: bool>(tree: &Tree, index: u32, params: &SearchParams) -> Option<u32> {
    let k = params.rave_equivalence;
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for child in tree.node(index).children() {
        let node = tree.node(child);
        if BANS && node.is_banned() {
            continue;
        }
        let s = node.stats();
        let n = f64::from(s.visits);
        let q = s.value();
        let value = if s.amaf_visits == 0 {
            q
        } else {
            let r = f64::from(s.amaf_visits);
            let beta = r / (r + n + r * n / k);
            (1.0 - beta) * q + beta * (s.amaf_wins / r)
        };
        if value > best_value {
            best_value = value;
            best = Some(child);
        }
    }
    best
}

/// The child of `index` with the best PUCT value ([`super::params::Puct`]): its win rate
/// (the first-play urgency when it has none) plus the policy's exploration bonus.
fn select_puct<const BANS: bool>(tree: &Tree, index: u32, params: &SearchParams) -> Option<u32> {
    let weights = &params.puct;
    let node = tree.node(index).stats();
    // This simulation's own visit is counted already, its result not yet.
    let done = node.visits.saturating_sub(1);
    let node_value = if done == 0 {
        0.5
    } else {
        // The node's wins are its mover's opponent's (who played into it).
        (1.0 - node.wins / f64::from(done)).clamp(0.0, 1.0)
    };
    let children = tree.node(index).children();
    let visited_policy: f64 = children
        .clone()
        .filter(|&c| tree.node(c).visits() > 0)
        .filter_map(|c| tree.policy(c))
        .map(f64::from)
        .sum();
    let fpu_reduction = weights.fpu_reduction.or(Puct::FPU_REDUCTION);
    let first_play = node_value - fpu_reduction * visited_policy.sqrt();
    let exploration = weights.exploration.or(Puct::EXPLORATION);
    let scale = exploration * f64::from(node.visits.max(1)).sqrt();
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for child in children {
        let child_node = tree.node(child);
        if BANS && child_node.is_banned() {
            continue;
        }
        let s = child_node.stats();
        let q = if s.visits == 0 { first_play } else { s.value() };
        let p = f64::from(tree.policy(child).unwrap_or(0.0));
        let value = q + scale * p / (1.0 + f64::from(s.visits));
        if value > best_value {
            best_value = value;
            best = Some(child);
        }
    }
    best
}
