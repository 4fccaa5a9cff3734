//! The position a search starts from: its fixed facts, its children (legal under the full
//! rules, superko included), and the sums kept for its children alone (score, real-komi
//! results).

use super::expand;
use super::tree::{Stats, Tree, ROOT};
use crate::board::Board;
use crate::coord::{Color, Geometry, Move};
use crate::game::{Game, Position, PositionFacts};
use crate::knowledge::ownership::OwnershipMap;
use crate::knowledge::playout::Forbidden;
use crate::knowledge::{Evaluation, ThreadKnowledge};
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// The fixed facts of the position searched from.
pub(super) struct Root {
    pub board: Board,
    pub to_move: Color,
    pub passes: u32,
    /// Komi plus White's handicap bonus: what Black's area lead must exceed to win.
    pub komi: f64,
    /// What Black's area lead must exceed for a simulation to count as a win in the tree:
    /// [`Root::komi`] plus the search's komi shift (dynamic komi, `Search::set_komi_shift`).
    pub search_komi: f64,
    /// Where the playouts may not play (nowhere, except for the dead-stone judge).
    pub forbidden: Forbidden,
    /// Ownership and score sums of the playouts so far: each thread adds its own every
    /// [`super::SearchParams::tally_flush`] playouts and when it stops, so that a progress report
    /// can read them during the search.
    pub tally: Mutex<OwnershipMap>,
    /// Whether some root moves are banned ([`Root::expand`]): only then does the root's
    /// selection look for bans.
    pub bans: bool,
    /// What the knowledge may read of the position beside its board: the moves before it
    /// (as many as it reads, [`crate::knowledge::Knowledge::history`]), the boards before
    /// them ([`crate::knowledge::Knowledge::earlier_boards`]), the superko bans and the
    /// game's terms. Every leaf shares the terms.
    pub facts: PositionFacts,
    /// How many moves before a position the knowledge reads.
    pub history: usize,
    /// How many boards before a position the knowledge reads.
    pub earlier_boards: usize,
    /// The policy's probabilities for the root's moves, by vertex, when a prior source has
    /// one: what analysis shows as each move's prior.
    pub policy: Option<Vec<f32>>,
    /// The policy's probability of the pass, when it rates the pass.
    pub pass_policy: Option<f32>,
}

impl Root {
    pub fn of(
        game: &Game,
        color: Color,
        forbidden: Forbidden,
        komi_shift: f64,
        (history, earlier_boards): (usize, usize),
    ) -> Root {
        let komi = game.area_komi();
        Root {
            board: game.board().clone(),
            to_move: color,
            facts: PositionFacts::of(game, color, history, earlier_boards),
            history,
            earlier_boards,
            policy: None,
            pass_policy: None,
            passes: game.passes(),
            komi,
            search_komi: komi + komi_shift,
            forbidden,
            tally: Mutex::new(OwnershipMap::new(game.board().geometry())),
            bans: false,
        }
    }

    /// The root as the prior sources see it.
    pub fn position(&self) -> Position<'_> {
        self.facts.position(&self.board, self.to_move)
    }

    /// The last move before the root (a pass if none).
    pub fn last_move(&self) -> Move {
        self.facts
            .recent
            .first()
            .map_or(Move::Pass, |played| played.mv)
    }

    /// Readies the tree's root for the search: its children and their priors, the late
    /// ones at once (unless a kept tree had them), and the policy analysis shows.
    pub fn prepare(&mut self, tree: &Tree, game: &Game, knowledge: &mut ThreadKnowledge) {
        let fresh = !tree.node(ROOT).is_expanded();
        self.bans = self.expand(tree, game, knowledge);
        // The late sources speak at once at the root; a kept root that had them asks them
        // again all the same, for the policy analysis shows, but keeps its priors.
        let apply = tree.node(ROOT).claim_late_priors();
        let komi = self.search_komi;
        let asked = expand::late_priors(&self.position(), komi, tree, ROOT, knowledge, apply);
        // A policy that spoke at expansion shows too, when the root was expanded now.
        let policy = (asked || fresh)
            .then(|| {
                knowledge
                    .priors
                    .iter()
                    .find_map(|s| Some((s.policy()?.to_vec(), s.pass_policy())))
            })
            .flatten();
        (self.policy, self.pass_policy) = policy.map_or((None, None), |(p, pass)| (Some(p), pass));
    }

    /// Bans every root child whose move is not among `moves` (a pass never is): the
    /// search then neither selects nor reports them.
    pub fn limit_to(&mut self, tree: &Tree, moves: &[Move]) {
        for child in tree.node(ROOT).children() {
            let mv = tree.node(child).mv();
            if mv != Move::Pass && !moves.contains(&mv) {
                tree.node(child).ban();
                self.bans = true;
            }
        }
    }

    /// Gives the root its children: every move legal under the full rules (superko
    /// included) that does not fill one of the player's own eyes, and pass. Returns whether
    /// some of them are banned.
    fn expand(&self, tree: &Tree, game: &Game, knowledge: &mut ThreadKnowledge) -> bool {
        if tree.node(ROOT).is_expanded() {
            // A reused root got its children as an inner node, under simple ko only: moves the
            // full rules forbid here (superko) are banned from selection.
            let mut bans = false;
            for child in tree.node(ROOT).children() {
                if !game.is_legal(self.to_move, tree.node(child).mv()) {
                    tree.node(child).ban();
                    bans = true;
                }
            }
            return bans;
        }
        if !tree.try_begin_expansion(ROOT) {
            return false;
        }
        // Filling one's own eye is never the move a player wants: it is left out like in the
        // rest of the tree (a player who has nothing else passes).
        let mut moves: Vec<Move> = game
            .legal_points(self.to_move)
            .into_iter()
            .filter(|&p| !self.board.is_eye(p, self.to_move))
            .map(Move::Play)
            .collect();
        moves.push(Move::Pass);
        let children = expand::with_priors(&self.position(), self.search_komi, &moves, knowledge);
        tree.expand(ROOT, &children);
        false
    }

    /// Adds a thread's own sums to the search's tally and empties them: `part`, and the
    /// per-move sums `moves` that go to `scores` as well.
    pub fn flush_tally(
        &self,
        part: &mut OwnershipMap,
        moves: &mut [OwnershipMap],
        scores: &RootScores,
    ) {
        // A poisoned lock means another thread panicked: the sums are still good.
        let mut total = self.tally.lock().unwrap_or_else(|p| p.into_inner());
        total.merge(part);
        part.clear();
        scores.flush_moves_tally(moves, &mut total);
    }

    /// The ownership and score lead (as [`super::SearchResult::ownership`] and
    /// [`super::SearchResult::score_lead`]) of the ends the threads have added so far: all
    /// of them once the threads have finished.
    pub fn tally_so_far(&self) -> (Vec<f32>, f64) {
        let total = self.tally.lock().unwrap_or_else(|p| p.into_inner());
        (total.ownership(), total.score_lead())
    }

    /// The spread of the ownership of [`Root::tally_so_far`] ([`OwnershipMap::ownership_stdev`]).
    pub fn ownership_stdev_so_far(&self) -> Vec<f32> {
        let total = self.tally.lock().unwrap_or_else(|p| p.into_inner());
        total.ownership_stdev()
    }

    /// The win rate of root child `child` (whose statistics are `stats`) that the search
    /// reports, to analysis as to the player: by the real komi, from the simulations alone
    /// (the priors' virtual games only steer the search).
    pub fn reported_winrate(&self, scores: &RootScores, child: u32, stats: &Stats) -> f64 {
        self.real_winrate(scores, child)
            .unwrap_or_else(|| stats.simulated_value())
    }

    /// The win rate by the real komi of root child `child` for the player to move, from
    /// this search's simulations through it, if any. The tree's own values are not win
    /// rates to report: they answer for the shifted komi of dynamic komi, and weigh the
    /// score lead in where the network gives one (`knowledge::NetValue::score_utility`,
    /// KataGo's score utility, which draws a lost game's value well above its win rate).
    fn real_winrate(&self, scores: &RootScores, child: u32) -> Option<f64> {
        let black = scores.black_winrate(child)?;
        Some(match self.to_move {
            Color::Black => black,
            Color::White => 1.0 - black,
        })
    }
}

/// Black's final margin (komi included) summed over this search's simulations, for each
/// root move: the score lead analysis shows per move (KataGo's `scoreLead`), and with it
/// Black's results by the real komi, the win rates reported when the tree counts with a
/// shifted one (dynamic komi). Kept beside the tree because only the root needs it, and a
/// node has no room to spare.
pub(super) struct RootScores {
    first_child: u32,
    sums: Vec<ChildScore>,
    /// Each root child's ownership sums, when the search was asked for them
    /// ([`super::Search::set_moves_ownership`]: KataGo's `movesOwnership`): the threads add
    /// theirs as they add to the root's tally.
    ownership: Option<Mutex<Vec<OwnershipMap>>>,
}

/// Units of a won game in [`RootScores`]' sums of real-komi results: finer than the
/// tree's [`super::tree::UNITS`] (and rounded to the nearest: a bias of at most 2^-17 a
/// simulation), since 64 bits leave room.
const REAL_UNITS: f64 = 65_536.0;

/// The sums of one root child.
#[derive(Default)]
struct ChildScore {
    simulations: AtomicU32,
    /// Black's results by the real komi, in [`REAL_UNITS`].
    black_units: AtomicU64,
    /// Their squares, in [`REAL_UNITS`]: with the sum, the spread of the results, which the
    /// lower confidence bound of the move's choice reads.
    black_squares: AtomicU64,
    /// The simulations whose evaluation gave a margin, the sum of those margins in
    /// [`MARGIN_UNITS`], and the sum of their expected squares (the margin's square and,
    /// where the evaluator knows its spread, its variance) in [`SQUARE_UNITS`].
    margins: AtomicU32,
    margin_units: AtomicI64,
    square_units: AtomicU64,
}

/// Fixed-point units of a margin's point in [`ChildScore`]'s sums: a network's lead is no
/// multiple of half a point, and a thousandth of a point is finer than any reads it.
const MARGIN_UNITS: f64 = 1024.0;

/// Units of a square point in the sums of squares.
const SQUARE_UNITS: f64 = 64.0;

impl RootScores {
    /// The sums of the root's children; with `moves_ownership`, each child's ownership too,
    /// on a board of `geometry`.
    pub fn new(tree: &Tree, geometry: Geometry, moves_ownership: bool) -> RootScores {
        let children = tree.node(ROOT).children();
        let count = children.len();
        RootScores {
            first_child: children.start,
            sums: children.map(|_| ChildScore::default()).collect(),
            ownership: moves_ownership
                .then(|| Mutex::new(vec![OwnershipMap::new(geometry); count])),
        }
    }

    fn child(&self, child: u32) -> Option<&ChildScore> {
        self.sums.get(child.wrapping_sub(self.first_child) as usize)
    }

    /// The place of root child `child` among the per-move ownership sums, when the search
    /// keeps them.
    pub fn ownership_slot(&self, child: u32) -> Option<usize> {
        self.ownership.as_ref()?;
        let slot = child.wrapping_sub(self.first_child) as usize;
        (slot < self.sums.len()).then_some(slot)
    }

    /// Empty per-move ownership sums for a thread, one a root child (none when the search
    /// keeps none).
    pub fn thread_moves_tally(&self, geometry: Geometry) -> Vec<OwnershipMap> {
        match self.ownership {
            Some(_) => vec![OwnershipMap::new(geometry); self.sums.len()],
            None => Vec::new(),
        }
    }

    /// Adds a thread's per-move sums to the search's (and to the root's `total`, which they
    /// are part of) and empties them.
    pub fn flush_moves_tally(&self, part: &mut [OwnershipMap], total: &mut OwnershipMap) {
        let Some(shared) = &self.ownership else {
            return;
        };
        // A poisoned lock means another thread panicked: the sums are still good.
        let mut shared = shared.lock().unwrap_or_else(|p| p.into_inner());
        for (sums, mine) in shared.iter_mut().zip(part.iter_mut()) {
            if mine.ends() > 0 {
                sums.merge(mine);
                total.merge(mine);
                mine.clear();
            }
        }
    }

    /// Black's ownership of each vertex (as [`super::SearchResult::ownership`]) in this
    /// search's ends through root child `child` that the threads have added so far, when the
    /// search keeps them.
    pub fn moves_ownership(&self, child: u32) -> Option<Vec<f32>> {
        let slot = self.ownership_slot(child)?;
        let shared = self.ownership.as_ref()?;
        let shared = shared.lock().unwrap_or_else(|p| p.into_inner());
        shared.get(slot).map(OwnershipMap::ownership)
    }

    /// Adds a simulation through root child `child` that ended in `evaluation`.
    pub fn add(&self, child: u32, evaluation: &Evaluation) {
        let Some(score) = self.child(child) else {
            return;
        };
        score.simulations.fetch_add(1, Relaxed);
        let black = evaluation.black_real.clamp(0.0, 1.0);
        score
            .black_units
            .fetch_add((black * REAL_UNITS).round() as u64, Relaxed);
        score
            .black_squares
            .fetch_add((black * black * REAL_UNITS).round() as u64, Relaxed);
        if let Some(margin) = evaluation.black_margin {
            let variance = evaluation.margin_stdev.map_or(0.0, |s| s * s);
            score.margins.fetch_add(1, Relaxed);
            score
                .margin_units
                .fetch_add((margin * MARGIN_UNITS).round() as i64, Relaxed);
            score.square_units.fetch_add(
                ((margin * margin + variance) * SQUARE_UNITS).round() as u64,
                Relaxed,
            );
        }
    }

    /// Black's mean margin in the simulations through root child `child` that gave one.
    pub fn black_margin(&self, child: u32) -> Option<f64> {
        let score = self.child(child)?;
        let n = score.margins.load(Relaxed);
        (n > 0).then(|| score.margin_units.load(Relaxed) as f64 / MARGIN_UNITS / f64::from(n))
    }

    /// The standard deviation of the final margin after root child `child`: the spread of
    /// its simulations' margins and of each evaluator's own uncertainty (KataGo's
    /// `scoreStdev`), when a simulation gave a margin.
    pub fn margin_stdev(&self, child: u32) -> Option<f64> {
        let score = self.child(child)?;
        let n = f64::from(score.margins.load(Relaxed));
        let mean = self.black_margin(child)?;
        let squares = score.square_units.load(Relaxed) as f64 / SQUARE_UNITS / n;
        Some((squares - mean * mean).max(0.0).sqrt())
    }

    /// The standard deviation of the results (by the real komi, either side's: they differ
    /// by a sign) of this search's simulations through root child `child`, when there were
    /// at least two.
    pub fn result_spread(&self, child: u32) -> Option<f64> {
        let score = self.child(child)?;
        let n = f64::from(score.simulations.load(Relaxed));
        if n < 2.0 {
            return None;
        }
        let mean = score.black_units.load(Relaxed) as f64 / REAL_UNITS / n;
        let squares = score.black_squares.load(Relaxed) as f64 / REAL_UNITS / n;
        // The sample variance, n − 1 below: two equal results say little about the spread.
        Some(((squares - mean * mean) * n / (n - 1.0)).max(0.0).sqrt())
    }

    /// Black's win rate by the real komi in this search's simulations through root child
    /// `child`, if any.
    fn black_winrate(&self, child: u32) -> Option<f64> {
        let score = self.child(child)?;
        let n = score.simulations.load(Relaxed);
        let units = score.black_units.load(Relaxed) as f64;
        (n > 0).then(|| units / REAL_UNITS / f64::from(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::NewChild;

    #[test]
    fn the_spread_of_a_root_moves_results_is_their_sample_deviation() {
        let geometry = Geometry::new(9).expect("9x9");
        let tree = Tree::new(1 << 20);
        tree.try_begin_expansion(ROOT);
        let children: Vec<NewChild> = geometry
            .points()
            .take(2)
            .map(|p| NewChild {
                mv: Move::Play(p),
                prior_wins: 0.0,
                prior_games: 0.0,
                policy: None,
            })
            .collect();
        tree.expand(ROOT, &children);
        let kids: Vec<u32> = tree.node(ROOT).children().collect();
        let scores = RootScores::new(&tree, geometry, false);
        let result = |black_real| Evaluation {
            black_search: black_real,
            black_real,
            black_margin: None,
            margin_stdev: None,
        };
        scores.add(kids[0], &result(0.25));
        assert_eq!(
            scores.result_spread(kids[0]),
            None,
            "one result has no spread"
        );
        for black in [0.75, 0.5, 0.5] {
            scores.add(kids[0], &result(black));
        }
        // Mean 0.5, squares off it 1/16 + 1/16 + 0 + 0, over 3.
        let spread = scores.result_spread(kids[0]).expect("four results");
        assert!((spread - (1.0f64 / 24.0).sqrt()).abs() < 1e-4, "{spread}");
        scores.add(kids[1], &result(0.6));
        scores.add(kids[1], &result(0.6));
        assert!(scores.result_spread(kids[1]).expect("two results") < 1e-3);
    }
}
