//! The player's brain: Monte Carlo tree search with RAVE.
//!
//! Each simulation walks down the tree from the current position choosing moves by a blend
//! of their win rate and their AMAF (all-moves-as-first) win rate, expands a leaf once it has
//! been visited often enough (children start with prior knowledge as virtual games), then
//! asks the leaf evaluator who is winning there (the playouts play the game out and count
//! it). The result is added to every node on the way, and as AMAF evidence to the siblings
//! whose move the simulation played later. Several threads share one tree; a simulation in
//! flight counts as a loss for its nodes until it finishes (virtual loss), which spreads the
//! threads over different lines.
//!
//! The formula (Silver's minimum-MSE schedule, used by Pachi, Fuego and michi):
//! `value = (1 - β)·Q + β·AMAF`, `β = r / (r + n + r·n/K)`, with `n` visits, `r` AMAF
//! visits and `K` the RAVE equivalence; no exploration term: priors and RAVE explore.
//!
//! The search meets Go knowledge only through `knowledge`'s interfaces (prior sources and
//! a leaf evaluator, made per thread by the [`Knowledge`] it is given): it never knows which
//! network or playout policy stands behind them. One [`Search`] type is written in several
//! files by concern, as KataGo's `search.h` is:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the API: settings, budget, results, progress, [`Search`]'s entry points |
//! | `simulate.rs` | one simulation: descend, expand, evaluate the leaf, back up; selection |
//! | `expand.rs` | a node's children and what the prior sources say of them |
//! | `root.rs` | the position searched from, its children and their score sums |
//! | `limits.rs` | when to stop: budget, time, an outside stop, a settled best move |
//! | `reuse.rs` | keeping the tree from one move to the next |
//! | `report.rs` | what the search found: root moves, lines, ownership |
//!
//! Every tuning knob of the search (`K`, the expansion threshold, PUCT's constants...) is a
//! field of [`SearchParams`].

mod expand;
mod limits;
pub mod params;
mod report;
mod reuse;
mod root;
mod simulate;
pub mod tree;

#[cfg(test)]
mod tests;

use crate::coord::{Color, Geometry, Move};
use crate::game::Game;
use crate::knowledge::playout::Forbidden;
use crate::knowledge::{Knowledge, ThreadKnowledge};
use limits::Limits;
pub use params::{Puct, SearchParams};
use reuse::TreeKey;
use root::{Root, RootScores};
use simulate::Scratch;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tree::{Tree, ROOT};

/// How the search plays: its tuning ([`SearchParams`]) and its resources. What it knows of
/// Go is given apart ([`Search::new`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    pub params: SearchParams,
    pub threads: usize,
    /// Memory the tree's nodes may use, in bytes.
    pub max_memory: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            params: SearchParams::default(),
            threads: 1,
            max_memory: 1 << 30,
        }
    }
}

/// When to stop thinking. The search stops at the first limit reached, or earlier when the
/// best move can no longer change.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub visits: Option<u64>,
    pub time: Option<Duration>,
}

impl Budget {
    /// Thinking time when a budget names no limit at all: a search must end.
    const FALLBACK: Duration = Duration::from_secs(1);

    /// The budget itself, or [`Budget::FALLBACK`] when it has no limit.
    pub fn bounded(self) -> Budget {
        if self.visits.is_none() && self.time.is_none() {
            Budget {
                visits: None,
                time: Some(Self::FALLBACK),
            }
        } else {
            self
        }
    }

    /// Half of each limit: a second look at a move must not cost a whole move's time.
    pub fn halved(self) -> Budget {
        Budget {
            visits: self.visits.map(|p| (p / 2).max(1)),
            time: self.time.map(|t| t / 2),
        }
    }
}

/// What the search thinks of one root move: for the player's decisions and for analysis
/// output (Sabaki, Lizzie, GoGui) alike.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: Move,
    /// Simulations played through the move (priors excluded).
    pub visits: u32,
    /// Its win rate for the player to move in the simulations played through it, by the
    /// real komi, the priors' virtual games left out: the network gives a likely move a
    /// hundred virtual wins or more, which outweigh the simulations of a small budget, so
    /// that a lost game would still look won, and never be resigned.
    pub winrate: f64,
    /// The move's share of the prior knowledge: the policy network's probability when it
    /// evaluated the root, else its share of the priors' wins among the root moves (the
    /// root moves' priors add up to 1).
    pub prior: f64,
    /// A lower confidence bound of the win rate ([`SearchParams::lcb_z`] standard errors below).
    pub lcb: f64,
    /// The points by which the player to move is ahead at the end of the simulations
    /// through this move (this search's, komi included; negative: behind); 0 when no
    /// evaluation gave a score.
    pub score_lead: f64,
    /// How far the final score may stray from `score_lead` (one standard deviation): the
    /// spread of the simulations' scores and of the evaluator's own uncertainty (KataGo's
    /// `scoreStdev`); 0 when no evaluation gave a score.
    pub score_stdev: f64,
    /// The most simulated line after the move, starting with it.
    pub pv: Vec<Move>,
    /// The simulations through each move of [`MoveInfo::pv`] (KataGo's `pvVisits`).
    pub pv_visits: Vec<u32>,
    /// Black's ownership of each vertex (as [`SearchResult::ownership`]) over this search's
    /// ends through the move, when the search keeps it by move
    /// ([`Search::set_moves_ownership`]: KataGo's `movesOwnership`).
    pub ownership: Option<Vec<f32>>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play: the most simulated, or the best by its lower confidence bound
    /// ([`SearchParams::lcb_choice_z`]).
    pub best: Move,
    /// Its win rate for the player to move (as [`MoveInfo::winrate`]).
    pub winrate: f64,
    /// Its win rate as the tree counts it, with the komi shift of dynamic komi
    /// ([`Search::set_komi_shift`]), priors left out too; `winrate` without a shift.
    pub search_winrate: f64,
    /// Every root move legal under the full rules, `best` first, then the most simulated
    /// first (those never simulated too, last).
    pub candidates: Vec<MoveInfo>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Simulations run by this search (not counting those reused from the previous tree).
    pub visits: u64,
    pub elapsed: Duration,
    pub tree_nodes: usize,
    pub tree_memory: usize,
    /// For each vertex, Black's ownership averaged over this search's judged ends, in
    /// [-1, 1]: a playout's final board counts +1 where Black owns the point and -1 where
    /// White does (area ownership as the count sees it: a stone, or an empty point touching
    /// one color only); a leaf evaluator with an ownership head counts its fractions.
    /// Row-major from the bottom: index = row * size + column, row 0 = the bottom row (GTP
    /// row 1), column 0 = column A. All zero when no end said who owns what.
    pub ownership: Vec<f32>,
    /// How far the ends' ownership of each vertex strays from `ownership` (one standard
    /// deviation, in the same order; KataGo's `ownershipStdev`).
    pub ownership_stdev: Vec<f32>,
    /// Black's expected final margin over this search's ends that gave one (a playout's
    /// count, or a leaf evaluator's score lead), komi and the handicap bonus included
    /// (positive: Black ahead); 0 when none did. Counted by area, as the playouts count,
    /// whatever the rules (territory scoring differs by the prisoners and the parity of
    /// dame, a point or two in a finished game).
    pub score_lead: f64,
}

/// KataGo's ownership order and sign (`kata-analyze`, the analysis protocol): rows from the top (A19, B19, ... T1), +1 for a point
/// the analysed color will own. `ownership` is the search's, rows from the bottom and +1
/// for Black.
pub fn rows_from_top(ownership: &[f32], size: usize, color: Color) -> Vec<f32> {
    let sign = color.sign();
    (0..size)
        .rev()
        .flat_map(|row| (0..size).map(move |col| row * size + col))
        .map(|i| sign * ownership.get(i).copied().unwrap_or(0.0))
        .collect()
}

/// How often a watched search shows itself to its watcher.
pub const TICK: Duration = Duration::from_millis(5);

/// The watcher of a search: sees its progress about every [`TICK`], returns `false` to end it.
pub type Watch<'a> = &'a mut dyn FnMut(&Progress<'_>) -> bool;

/// A search in progress, as its watcher sees it.
pub struct Progress<'a> {
    tree: &'a Tree,
    params: &'a SearchParams,
    root: &'a Root,
    scores: &'a RootScores,
    game: &'a Game,
    visits: &'a AtomicU64,
    started: Instant,
}

impl Progress<'_> {
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Simulations run so far by this search.
    pub fn visits(&self) -> u64 {
        self.visits.load(Relaxed)
    }

    /// Whether the tree has reached its memory cap (thinking on gains little).
    pub fn tree_full(&self) -> bool {
        self.tree.is_full()
    }

    /// The search's verdict if it stopped now.
    pub fn result(&self) -> SearchResult {
        report::summarize(self.report(), self.visits(), self.elapsed())
    }

    /// [`SearchResult::ownership`] so far (each thread's last few playouts not yet in).
    pub fn ownership(&self) -> Vec<f32> {
        self.root.tally_so_far().0
    }

    /// The root moves that have been simulated, most simulated first.
    pub fn moves(&self) -> Vec<MoveInfo> {
        let mut moves = report::root_moves(self.report());
        moves.retain(|m| m.visits > 0);
        moves
    }

    /// The board searched.
    pub fn geometry(&self) -> Geometry {
        self.game.board().geometry()
    }

    fn report(&self) -> report::Report<'_> {
        report::Report {
            tree: self.tree,
            params: self.params,
            scores: self.scores,
            game: self.game,
            root: self.root,
        }
    }
}

/// A search that keeps its tree from one move to the next.
pub struct Search {
    config: SearchConfig,
    /// What the threads' knowledge is made by (with whatever it keeps from one search to
    /// the next: a cache of network outputs).
    knowledge: Arc<dyn Knowledge>,
    tree: Option<Tree>,
    /// The game the tree was built for: its moves and settings, to find the new root.
    tree_game: Option<TreeKey>,
    seed: u64,
    forbidden: Forbidden,
    /// The calling thread's knowledge, which gives the root its priors, kept between
    /// searches (a network's buffers), with the board size it was made for.
    root_knowledge: Option<(usize, ThreadKnowledge)>,
    /// Points added to the komi in the tree's count ([`Search::set_komi_shift`]).
    komi_shift: f64,
    /// The root moves the searches may choose, when not all ([`Search::set_root_moves`]).
    root_moves: Option<Vec<Move>>,
    /// Whether the searches keep each root move's ownership ([`Search::set_moves_ownership`]).
    moves_ownership: bool,
}

impl Search {
    /// A search with `config`'s tuning and resources and `knowledge`'s priors and leaf
    /// evaluations.
    pub fn new(config: SearchConfig, knowledge: Arc<dyn Knowledge>, seed: u64) -> Search {
        Search {
            knowledge,
            config,
            tree: None,
            tree_game: None,
            seed,
            forbidden: Forbidden::default(),
            root_knowledge: None,
            komi_shift: 0.0,
            root_moves: None,
            moves_ownership: false,
        }
    }

    /// Whether the next searches keep, for each root move, the ownership of the ends
    /// reached through it ([`MoveInfo::ownership`]; KataGo's `movesOwnership`): sums
    /// of a board's size for every root move and thread, so only analysis that shows them
    /// asks.
    pub fn set_moves_ownership(&mut self, on: bool) {
        self.moves_ownership = on;
    }

    /// Searches with `knowledge` from now on; drops the tree when it is other knowledge
    /// than the search had (the tree's statistics came from the old one).
    pub fn set_knowledge(&mut self, knowledge: Arc<dyn Knowledge>) {
        if !Arc::ptr_eq(&self.knowledge, &knowledge) {
            self.knowledge = knowledge;
            self.forget();
        }
    }

    /// Shifts the komi by `points` (positive: in White's favour) in the tree's count of the
    /// next searches: dynamic komi, which the player sets before each move. The real komi
    /// still decides every win rate, score and ownership the search reports. A kept tree
    /// whose shift differs by more than [`SearchParams::reuse_shift`] is dropped.
    pub fn set_komi_shift(&mut self, points: f64) {
        self.komi_shift = points;
    }

    /// The komi shift of the next searches.
    pub fn komi_shift(&self) -> f64 {
        self.komi_shift
    }

    /// Limits the root of the next searches to `moves` (with the pass, always), or lifts
    /// the limit with `None`: the moves a weaker player sees (the levels below expert draw
    /// them, as KaTrain's rank strategy shows its network only some of the legal moves).
    /// The others stay in the tree, banned from selection and left out of the result, so
    /// a kept tree loses nothing.
    pub fn set_root_moves(&mut self, moves: Option<Vec<Move>>) {
        self.root_moves = moves;
    }

    /// Keeps the playouts (not the tree) off the given points: the dead-stone judge's
    /// searches use it, see [`Forbidden`]. Drops the tree, whose statistics came from
    /// other playouts.
    pub fn set_forbidden(&mut self, forbidden: Forbidden) {
        self.forbidden = forbidden;
        self.forget();
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the tuning or resources (`hoshi-param`, analysis on more threads than a
    /// rank's moves). The kept tree stays: its nodes hold counts and priors that no knob
    /// nor thread count makes wrong, and the next search copies what it keeps into a tree
    /// of the new memory bound. Other knowledge drops it ([`Search::set_knowledge`]).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// Simulations (priors excluded) through the node the kept tree reaches from its root
    /// along `line`, if it has one: a look into the tree for tests and debugging. The root
    /// is the position of the last search.
    pub fn line_playouts(&self, line: &[Move]) -> Option<u32> {
        let tree = self.tree.as_ref()?;
        let mut index = ROOT;
        for &mv in line {
            index = tree.child_with_move(index, mv)?;
        }
        Some(tree.node(index).stats().playouts())
    }

    /// Drops the tree, so that the next search starts from a new one (the knowledge and
    /// its cache of network outputs stay).
    pub fn drop_tree(&mut self) {
        self.tree = None;
        self.tree_game = None;
    }

    /// Drops the tree (a new game, changed settings) and the knowledge made for it.
    pub fn forget(&mut self) {
        self.drop_tree();
        self.root_knowledge = None;
    }

    /// Searches `game` for `color`'s move within `budget`; `stop` ends it early from outside.
    pub fn run(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        stop: &AtomicBool,
    ) -> SearchResult {
        self.search(game, color, budget.bounded(), stop, None)
    }

    /// Like [`Search::run`], but `watch` sees the search about every [`TICK`] from the
    /// calling thread (to stream analysis, to stop on new input) and ends it by returning
    /// `false`. A budget without limits runs until `watch` ends it (pondering, analysis).
    pub fn run_watched(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        watch: Watch<'_>,
    ) -> SearchResult {
        self.search(game, color, budget, &AtomicBool::new(false), Some(watch))
    }

    fn search(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        stop: &AtomicBool,
        watch: Option<Watch<'_>>,
    ) -> SearchResult {
        let started = Instant::now();
        let knowledge = Arc::clone(&self.knowledge);
        let reads = (knowledge.history(), knowledge.earlier_boards());
        let mut root = Root::of(game, color, self.forbidden, self.komi_shift, reads);
        let tree = self.take_tree(game, color);
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let size = game.size();
        if self.root_knowledge.as_ref().is_none_or(|(s, _)| *s != size) {
            let made = knowledge.for_thread(size, self.seed);
            self.root_knowledge = Some((size, made));
        }
        if let Some((_, root_knowledge)) = &mut self.root_knowledge {
            root.prepare(&tree, game, root_knowledge);
        }
        if let Some(moves) = &self.root_moves {
            root.limit_to(&tree, moves);
        }
        let scores = RootScores::new(&tree, game.board().geometry(), self.moves_ownership);

        let visits = AtomicU64::new(0);
        let finished = AtomicBool::new(false);
        let threads = self.config.threads.max(1);
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (tree, root, params, scores) = (&tree, &root, &self.config.params, &scores);
                let (visits, finished, knowledge) = (&visits, &finished, &knowledge);
                let seed = self.seed ^ (t as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
                scope.spawn(move || {
                    let knowledge = knowledge.for_thread(size, seed);
                    let mut scratch = Scratch::new(root, scores, params, knowledge, seed);
                    let limits = Limits {
                        budget,
                        params,
                        started,
                        stop,
                        finished,
                        visits,
                    };
                    while limits.another(tree, t == 0) {
                        simulate::simulate(tree, root, params, scores, &mut scratch);
                    }
                    scratch.flush(root, scores);
                });
            }
            if let Some(watch) = watch {
                let progress = Progress {
                    tree: &tree,
                    params: &self.config.params,
                    root: &root,
                    scores: &scores,
                    game,
                    visits: &visits,
                    started,
                };
                while !finished.load(Relaxed) && !stop.load(Relaxed) {
                    std::thread::sleep(TICK);
                    if !watch(&progress) {
                        finished.store(true, Relaxed);
                    }
                }
            }
        });

        let report = report::Report {
            tree: &tree,
            params: &self.config.params,
            scores: &scores,
            game,
            root: &root,
        };
        let result = report::summarize(report, visits.load(Relaxed), started.elapsed());
        log::debug!(
            "search: {} visits in {:.2?}, best {:?} at {:.1}%, {} nodes",
            result.visits,
            result.elapsed,
            result.best,
            100.0 * result.winrate,
            result.tree_nodes
        );
        self.tree = Some(tree);
        self.tree_game = Some(TreeKey::of(game, color, self.komi_shift));
        result
    }
}
