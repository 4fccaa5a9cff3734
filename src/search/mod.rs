//! The player's brain: Monte Carlo tree search with RAVE.
//!
//! Each simulation walks down the tree from the current position choosing moves by a blend
//! of their win rate and their AMAF (all-moves-as-first) win rate, expands a leaf once it has
//! been visited often enough (children start with prior knowledge as virtual games), then
//! plays the game out with the playout policy and counts it. The result is added to every
//! node on the way, and as AMAF evidence to the siblings whose move the simulation played
//! later. Several threads share one tree; a simulation in flight counts as a loss for its
//! nodes until it finishes (virtual loss), which spreads the threads over different lines.
//!
//! The formula (Silver's minimum-MSE schedule, used by Pachi, Fuego and michi):
//! `value = (1 - β)·Q + β·AMAF`, `β = r / (r + n + r·n/K)`, with `n` visits, `r` AMAF
//! visits and `K` the RAVE equivalence; no exploration term: priors and RAVE explore.
//!
//! Every tuning knob (`K`, the expansion threshold, the priors' weights, the playout
//! rules...) is a field of [`Params`].

pub mod ownership;
pub mod params;
pub mod patterns;
pub mod playout;
pub mod priors;
pub mod tree;

use crate::board::Board;
use crate::coord::{Color, Geometry, Move, SLOTS};
use crate::game::Game;
use crate::net::{features, Evaluator, SharedNet};
use crate::rules::Ruleset;
use ownership::OwnershipMap;
pub use params::{DynamicKomi, NetPrior, ParamError, Params, PriorWeights};
use playout::{Forbidden, MoveRecord};
use priors::Priors;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tree::{NewChild, Stats, Tree, ROOT};

/// How the search plays: its tuning ([`Params`]) and its resources.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    pub params: Params,
    /// Whether new nodes get Go knowledge as priors (else only the even prior).
    pub priors: bool,
    /// The policy network whose probabilities join the priors ([`NetPrior`]), if any: only
    /// with `priors`, and on boards of at least [`NetPrior::min_size`].
    pub net: Option<SharedNet>,
    pub threads: usize,
    /// Memory the tree's nodes may use, in bytes.
    pub max_memory: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            params: Params::default(),
            priors: true,
            net: None,
            threads: 1,
            max_memory: 1 << 30,
        }
    }
}

/// When to stop thinking. The search stops at the first limit reached, or earlier when the
/// best move can no longer change.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub playouts: Option<u64>,
    pub time: Option<Duration>,
}

impl Budget {
    /// Thinking time when a budget names no limit at all: a search must end.
    const FALLBACK: Duration = Duration::from_secs(1);

    /// The budget itself, or [`Budget::FALLBACK`] when it has no limit.
    pub fn bounded(self) -> Budget {
        if self.playouts.is_none() && self.time.is_none() {
            Budget {
                playouts: None,
                time: Some(Self::FALLBACK),
            }
        } else {
            self
        }
    }

    /// Half of each limit: a second look at a move must not cost a whole move's time.
    pub fn halved(self) -> Budget {
        Budget {
            playouts: self.playouts.map(|p| (p / 2).max(1)),
            time: self.time.map(|t| t / 2),
        }
    }
}

/// One candidate move at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    /// Simulations played through it (priors excluded).
    pub playouts: u32,
    /// Its win rate for the player to move in the simulations played through it, the
    /// priors' virtual games left out (as in analysis, [`MoveInfo::winrate`]): the network
    /// gives a likely move a hundred virtual wins or more, which outweigh the simulations of
    /// a small budget, so that a lost game would still look won, and never be resigned.
    pub winrate: f64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The most simulated move.
    pub best: Move,
    /// Its win rate for the player to move (as [`Candidate::winrate`]).
    pub winrate: f64,
    /// Its win rate as the tree counts it, with the komi shift of dynamic komi
    /// ([`Search::set_komi_shift`]), priors left out too; `winrate` without a shift.
    pub search_winrate: f64,
    /// Root moves, most simulated first.
    pub candidates: Vec<Candidate>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Simulations run by this search (not counting those reused from the previous tree).
    pub playouts: u64,
    pub elapsed: Duration,
    pub tree_nodes: usize,
    pub tree_memory: usize,
    /// For each vertex, the share of this search's playouts that ended with Black owning it
    /// minus the share with White owning it (area ownership as the count sees it: a stone,
    /// or an empty point touching one color only), in [-1, 1]. Row-major from the bottom:
    /// index = row * size + column, row 0 = the bottom row (GTP row 1), column 0 = column A.
    /// All zero when no playout ran.
    pub ownership: Vec<f32>,
    /// Black's expected final margin over this search's playouts, komi and the handicap
    /// bonus included (positive: Black ahead); 0 when no playout ran. Counted by area, as
    /// the playouts count, whatever the rules (territory scoring differs by the prisoners
    /// and the parity of dame, a point or two in a finished game).
    pub score_lead: f64,
}

/// How often a watched search shows itself to its watcher.
pub const TICK: Duration = Duration::from_millis(5);

/// The watcher of a search: sees its progress about every [`TICK`], returns `false` to end it.
pub type Watch<'a> = &'a mut dyn FnMut(&Progress<'_>) -> bool;

/// A search in progress, as its watcher sees it.
pub struct Progress<'a> {
    tree: &'a Tree,
    params: &'a Params,
    root: &'a Root,
    scores: &'a RootScores,
    game: &'a Game,
    playouts: &'a AtomicU64,
    started: Instant,
}

/// What the search thinks of one root move, for analysis output (Sabaki, Lizzie, GoGui).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    pub mv: Move,
    /// Simulations played through the move (priors excluded).
    pub visits: u32,
    /// Its win rate for the player to move.
    pub winrate: f64,
    /// The move's share of the prior knowledge's wins among the root moves: a policy-like
    /// probability (the root moves' priors add up to 1).
    pub prior: f64,
    /// A lower confidence bound of the win rate ([`Params::lcb_z`] standard errors below).
    pub lcb: f64,
    /// The points by which the player to move is ahead at the end of the simulations
    /// through this move (this search's, komi included; negative: behind).
    pub score_lead: f64,
    /// The most simulated line after the move, starting with it.
    pub pv: Vec<Move>,
}

impl Progress<'_> {
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Simulations run so far by this search.
    pub fn playouts(&self) -> u64 {
        self.playouts.load(Relaxed)
    }

    /// Whether the tree has reached its memory cap (thinking on gains little).
    pub fn tree_full(&self) -> bool {
        self.tree.is_full()
    }

    /// The search's verdict if it stopped now.
    pub fn result(&self) -> SearchResult {
        let mut result = summarize(
            self.tree,
            self.params,
            self.scores,
            self.game,
            self.root,
            self.playouts(),
            self.elapsed(),
        );
        (result.ownership, result.score_lead) = tally_so_far(self.root);
        result
    }

    /// [`SearchResult::ownership`] so far (each thread's last few playouts not yet in).
    pub fn ownership(&self) -> Vec<f32> {
        tally_so_far(self.root).0
    }

    /// The root moves that have been simulated, most simulated first.
    pub fn moves(&self) -> Vec<MoveInfo> {
        move_infos(self.tree, self.params, self.scores, self.game, self.root)
    }

    /// The board searched.
    pub fn geometry(&self) -> Geometry {
        self.game.board().geometry()
    }
}

/// The simulated root moves legal under the full rules, most simulated first.
fn move_infos(
    tree: &Tree,
    params: &Params,
    scores: &RootScores,
    game: &Game,
    root: &Root,
) -> Vec<MoveInfo> {
    let color = root.to_move;
    let for_mover = |margin: f64| {
        if color == Color::Black {
            margin
        } else {
            -margin
        }
    };
    let children: Vec<u32> = tree
        .node(ROOT)
        .children()
        .filter(|&c| game.is_legal(color, tree.node(c).mv()))
        .collect();
    let prior_total: f64 = children
        .iter()
        .map(|&c| tree.node(c).stats().prior_wins)
        .sum();
    let mut infos: Vec<MoveInfo> = children
        .iter()
        .filter_map(|&c| {
            let s = tree.node(c).stats();
            let visits = s.playouts();
            (visits > 0).then(|| {
                let winrate = root.reported_winrate(scores, c, &s);
                let spread = (winrate * (1.0 - winrate) / f64::from(visits)).sqrt();
                MoveInfo {
                    mv: s.mv,
                    visits,
                    winrate,
                    prior: match (&root.policy, s.mv) {
                        (Some(policy), Move::Play(p)) => {
                            f64::from(policy[features::point_index(&root.board, p)])
                        }
                        (Some(_), Move::Pass) => 0.0,
                        (None, _) if prior_total > 0.0 => s.prior_wins / prior_total,
                        (None, _) => 0.0,
                    },
                    lcb: (winrate - params.lcb_z * spread).max(0.0),
                    score_lead: scores.black_margin(c).map_or(0.0, for_mover),
                    pv: line_from(tree, c, params.pv_length),
                }
            })
        })
        .collect();
    infos.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    infos
}

/// Black's final margin (komi included) summed over this search's simulations, for each
/// root move: the score lead analysis shows per move (KataGo's `scoreLead`), and with it
/// Black's results by the real komi, the win rates reported when the tree counts with a
/// shifted one (dynamic komi). Kept beside the tree because only the root needs it, and a
/// node has no room to spare.
struct RootScores {
    first_child: u32,
    /// Per root child: the sum of twice the margin (an integer: komi is a multiple of 0.5),
    /// the number of simulations and Black's results in half points.
    sums: Vec<ChildScore>,
}

#[derive(Default)]
struct ChildScore {
    twice_margin: AtomicI64,
    simulations: AtomicU32,
    black_half_points: AtomicU32,
}

impl RootScores {
    fn new(tree: &Tree) -> RootScores {
        let children = tree.node(ROOT).children();
        RootScores {
            first_child: children.start,
            sums: children.map(|_| ChildScore::default()).collect(),
        }
    }

    fn child(&self, child: u32) -> Option<&ChildScore> {
        self.sums.get(child.wrapping_sub(self.first_child) as usize)
    }

    fn add(&self, child: u32, black_margin: f64) {
        if let Some(score) = self.child(child) {
            score
                .twice_margin
                .fetch_add((2.0 * black_margin).round() as i64, Relaxed);
            score.simulations.fetch_add(1, Relaxed);
            score
                .black_half_points
                .fetch_add(black_half_points(black_margin), Relaxed);
        }
    }

    /// Black's mean margin in the simulations through root child `child`, if any.
    fn black_margin(&self, child: u32) -> Option<f64> {
        let score = self.child(child)?;
        let n = score.simulations.load(Relaxed);
        (n > 0).then(|| score.twice_margin.load(Relaxed) as f64 / 2.0 / f64::from(n))
    }

    /// Black's win rate by the real komi in this search's simulations through root child
    /// `child`, if any.
    fn black_winrate(&self, child: u32) -> Option<f64> {
        let score = self.child(child)?;
        let n = score.simulations.load(Relaxed);
        let half_points = score.black_half_points.load(Relaxed);
        (n > 0).then(|| f64::from(half_points) / 2.0 / f64::from(n))
    }
}

/// The fixed facts of the position searched from.
struct Root {
    board: Board,
    to_move: Color,
    last: Move,
    second_last: Move,
    passes: u32,
    /// Komi plus White's handicap bonus: what Black's area lead must exceed to win.
    komi: f64,
    /// What Black's area lead must exceed for a simulation to count as a win in the tree:
    /// [`Root::komi`] plus the search's komi shift (dynamic komi, [`Search::set_komi_shift`]).
    search_komi: f64,
    /// Where the playouts may not play (nowhere, except for the dead-stone judge).
    forbidden: Forbidden,
    /// Ownership and score sums of the playouts so far: each thread adds its own every
    /// [`Params::tally_flush`] playouts and when it stops, so that a progress report can
    /// read them during the search ([`tally_so_far`]).
    tally: Mutex<OwnershipMap>,
    /// Whether some root moves are banned ([`expand_root`]): only then does the root's
    /// selection look for bans.
    bans: bool,
    /// The moves before the position, the most recent first (as many as the network
    /// sees).
    recent: Vec<Move>,
    /// The network's probabilities for the root's moves, by the network's point index,
    /// when it evaluated the root: what analysis shows as each move's prior.
    policy: Option<Vec<f32>>,
}

impl Root {
    /// The win rate of root child `child` (whose statistics are `stats`) that the search
    /// reports, to analysis as to the player: by the real komi, from the simulations alone
    /// (the priors' virtual games only steer the search).
    fn reported_winrate(&self, scores: &RootScores, child: u32, stats: &Stats) -> f64 {
        self.real_winrate(scores, child)
            .unwrap_or_else(|| stats.simulated_value())
    }

    /// The win rate by the real komi of root child `child` for the player to move, when the
    /// tree counts with another one (its own win rates then answer for the shifted komi),
    /// from this search's simulations through it, if any.
    fn real_winrate(&self, scores: &RootScores, child: u32) -> Option<f64> {
        if self.search_komi == self.komi {
            return None;
        }
        let black = scores.black_winrate(child)?;
        Some(match self.to_move {
            Color::Black => black,
            Color::White => 1.0 - black,
        })
    }
}

/// A search that keeps its tree from one move to the next.
pub struct Search {
    config: SearchConfig,
    tree: Option<Tree>,
    /// The game the tree was built for: its moves and settings, to find the new root.
    tree_game: Option<TreeKey>,
    seed: u64,
    forbidden: Forbidden,
    /// The calling thread's evaluator of the root for the network, kept between searches.
    evaluator: Option<Evaluator>,
    /// Points added to the komi in the tree's count ([`Search::set_komi_shift`]).
    komi_shift: f64,
}

#[derive(Clone, PartialEq)]
struct TreeKey {
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
    fn of(game: &Game, searched_for: Color, komi_shift: f64) -> TreeKey {
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

/// Per-thread working memory, reused across simulations.
struct Scratch {
    board: Board,
    rng: SmallRng,
    path: Vec<u32>,
    /// For each node of the path, how many stones the simulation had played when it was there.
    starts: Vec<usize>,
    moves: MoveRecord,
    /// AMAF sweep: color of the first stone seen on each point (0 none, 1 black, 2 white).
    first: Box<[u8; SLOTS]>,
    /// This thread's ownership and score sums.
    tally: OwnershipMap,
    /// This thread's evaluator for the network's priors at inner nodes, made at its first
    /// use.
    evaluator: Option<Evaluator>,
    /// The network's probabilities, and the moves before the node it evaluates.
    policy: Vec<f32>,
    recent: Vec<Move>,
}

impl Search {
    pub fn new(config: SearchConfig, seed: u64) -> Search {
        Search {
            config,
            tree: None,
            tree_game: None,
            seed,
            forbidden: Forbidden::default(),
            evaluator: None,
            komi_shift: 0.0,
        }
    }

    /// Shifts the komi by `points` (positive: in White's favour) in the tree's count of the
    /// next searches: dynamic komi, which the player sets before each move. The real komi
    /// still decides every win rate, score and ownership the search reports. A kept tree
    /// whose shift differs by more than [`Params::reuse_shift`] is dropped.
    pub fn set_komi_shift(&mut self, points: f64) {
        self.komi_shift = points;
    }

    /// The komi shift of the next searches.
    pub fn komi_shift(&self) -> f64 {
        self.komi_shift
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

    pub fn set_config(&mut self, config: SearchConfig) {
        if config != self.config {
            self.config = config;
            self.forget();
        }
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

    /// Drops the tree (a new game, changed settings).
    pub fn forget(&mut self) {
        self.tree = None;
        self.tree_game = None;
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
        let mut root = root_of(game, color, self.forbidden, self.komi_shift);
        let tree = self.take_tree(game, color);
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        root.bans = expand_root(&tree, game, &root, &self.config);
        root.policy = self.root_policy(&tree, &root);
        let scores = RootScores::new(&tree);

        let playouts = AtomicU64::new(0);
        let finished = AtomicBool::new(false);
        let threads = self.config.threads.max(1);
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (tree, root, config, scores) = (&tree, &root, &self.config, &scores);
                let (playouts, finished) = (&playouts, &finished);
                let seed = self.seed ^ (t as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
                scope.spawn(move || {
                    let mut scratch = Scratch::new(root, seed);
                    let limits = Limits {
                        budget,
                        params: &config.params,
                        started,
                        stop,
                        finished,
                        playouts,
                    };
                    while limits.another(tree, t == 0) {
                        simulate(tree, root, config, scores, &mut scratch);
                    }
                    flush_tally(root, &mut scratch.tally);
                });
            }
            if let Some(watch) = watch {
                let progress = Progress {
                    tree: &tree,
                    params: &self.config.params,
                    root: &root,
                    scores: &scores,
                    game,
                    playouts: &playouts,
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

        let mut result = summarize(
            &tree,
            &self.config.params,
            &scores,
            game,
            &root,
            playouts.load(Relaxed),
            started.elapsed(),
        );
        (result.ownership, result.score_lead) = tally_so_far(&root);
        log::debug!(
            "search: {} playouts in {:.2?}, best {:?} at {:.1}%, {} nodes",
            result.playouts,
            result.elapsed,
            result.best,
            100.0 * result.winrate,
            result.tree_nodes
        );
        self.tree = Some(tree);
        self.tree_game = Some(TreeKey::of(game, color, self.komi_shift));
        result
    }

    /// The network's probabilities for the root's moves, when the network plays here; the
    /// root's children get its prior unless they had it already (a kept tree).
    fn root_policy(&mut self, tree: &Tree, root: &Root) -> Option<Vec<f32>> {
        let net = net_for(&self.config, root.board.size())?;
        let size = root.board.size();
        let evaluator = self
            .evaluator
            .get_or_insert_with(|| Evaluator::new(net, size));
        let mut policy = vec![0.0; size * size];
        evaluator.policy(&root.board, root.to_move, &root.recent, &mut policy);
        if tree.node(ROOT).claim_net_prior() {
            add_net_prior(tree, ROOT, &root.board, &policy, &self.config.params.net);
        }
        Some(policy)
    }

    /// The previous tree re-rooted at the current position when the game continued from
    /// it, else a new tree.
    fn take_tree(&mut self, game: &Game, color: Color) -> Tree {
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

fn root_of(game: &Game, color: Color, forbidden: Forbidden, komi_shift: f64) -> Root {
    let komi = game.area_komi();
    Root {
        board: game.board().clone(),
        to_move: color,
        last: game.nth_last_move(1),
        second_last: game.nth_last_move(2),
        recent: game.recent_moves(features::HISTORY).collect(),
        policy: None,
        passes: game.passes(),
        komi,
        search_komi: komi + komi_shift,
        forbidden,
        tally: Mutex::new(OwnershipMap::new(game.board().geometry())),
        bans: false,
    }
}

/// Gives the root its children: every move legal under the full rules (superko included)
/// that does not fill one of the player's own eyes, and pass. Returns whether some of them
/// are banned.
fn expand_root(tree: &Tree, game: &Game, root: &Root, config: &SearchConfig) -> bool {
    if tree.node(ROOT).is_expanded() {
        // A reused root got its children as an inner node, under simple ko only: moves the
        // full rules forbid here (superko) are banned from selection.
        let mut bans = false;
        for child in tree.node(ROOT).children() {
            if !game.is_legal(root.to_move, tree.node(child).mv()) {
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
        .legal_points(root.to_move)
        .into_iter()
        .filter(|&p| !root.board.is_eye(p, root.to_move))
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    let children = with_priors(
        &root.board,
        root.to_move,
        root.last,
        root.second_last,
        &moves,
        config,
    );
    tree.expand(ROOT, &children);
    false
}

fn with_priors(
    board: &Board,
    color: Color,
    last: Move,
    second_last: Move,
    moves: &[Move],
    config: &SearchConfig,
) -> Vec<NewChild> {
    let weights = &config.params.priors;
    let priors = config
        .priors
        .then(|| Priors::new(board, color, last, second_last, weights));
    moves
        .iter()
        .map(|&mv| {
            let (prior_wins, prior_games) = match &priors {
                Some(p) => p.of(board, color, mv),
                None => (0.5 * weights.even, weights.even),
            };
            NewChild {
                mv,
                prior_wins,
                prior_games,
            }
        })
        .collect()
}

/// The network, if it plays on boards of `size`.
fn net_for(config: &SearchConfig, size: usize) -> Option<&SharedNet> {
    let wanted = config.priors && size >= config.params.net.min_size;
    config.net.as_ref().filter(|_| wanted)
}

/// Gives the children of `index` (the position `board`) the network's prior from its
/// probabilities `policy` ([`NetPrior`]).
fn add_net_prior(tree: &Tree, index: u32, board: &Board, policy: &[f32], weights: &NetPrior) {
    for child in tree.node(index).children() {
        let node = tree.node(child);
        if let Move::Play(p) = node.mv() {
            let probability = f64::from(policy[features::point_index(board, p)]);
            if probability >= 0.001 {
                let games = weights.games * probability.sqrt();
                node.add_prior(games, games);
            }
        }
    }
}

/// The children of an inner node: legal moves (simple ko) that do not fill one of the
/// mover's own eyes, and pass once fewer than `pass_empty_share` of the points are empty
/// (half, by default) or after a pass.
fn inner_moves(board: &Board, color: Color, last: Move, pass_empty_share: f64) -> Vec<Move> {
    let mut moves: Vec<Move> = board
        .empty_points()
        .iter()
        .copied()
        .filter(|&p| board.check(color, p).is_ok() && !board.is_eye(p, color))
        .map(Move::Play)
        .collect();
    let area = (board.size() * board.size()) as f64;
    let empty = board.empty_points().len() as f64;
    if empty < pass_empty_share * area || last == Move::Pass || moves.is_empty() {
        moves.push(Move::Pass);
    }
    moves
}

struct Limits<'a> {
    budget: Budget,
    /// For how often to check the time and whether the search is settled.
    params: &'a Params,
    started: Instant,
    stop: &'a AtomicBool,
    finished: &'a AtomicBool,
    playouts: &'a AtomicU64,
}

impl Limits<'_> {
    /// Whether to run another simulation (and counts it). The first thread also checks, now
    /// and then, whether the best move can still change.
    fn another(&self, tree: &Tree, watcher: bool) -> bool {
        if self.stop.load(Relaxed) || self.finished.load(Relaxed) {
            return false;
        }
        let n = self.playouts.fetch_add(1, Relaxed);
        let over = self.budget.playouts.is_some_and(|limit| n >= limit)
            || (n.is_multiple_of(self.params.time_check_period)
                && self
                    .budget
                    .time
                    .is_some_and(|t| self.started.elapsed() >= t))
            || (watcher
                && n % self.params.settle_check_period == self.params.settle_check_period - 1
                && self.settled(tree, n));
        if over {
            self.finished.store(true, Relaxed);
            self.playouts.fetch_sub(1, Relaxed);
        }
        !over
    }

    /// Whether the most simulated root move is so far ahead that the simulations left
    /// cannot let another one catch up.
    fn settled(&self, tree: &Tree, done: u64) -> bool {
        let mut visits: Vec<u32> = tree
            .node(ROOT)
            .children()
            .map(|c| tree.node(c).stats().playouts())
            .collect();
        if visits.len() < 2 {
            return visits.len() == 1;
        }
        visits.sort_unstable_by(|a, b| b.cmp(a));
        let lead = u64::from(visits[0] - visits[1]);
        let by_playouts = self.budget.playouts.map(|l| l.saturating_sub(done));
        let by_time = self.budget.time.map(|t| {
            let elapsed = self.started.elapsed().as_secs_f64().max(1e-3);
            let rate = done as f64 / elapsed;
            (rate * (t.as_secs_f64() - elapsed).max(0.0)) as u64
        });
        let left = match (by_playouts, by_time) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return false,
        };
        lead > left
    }
}

impl Scratch {
    fn new(root: &Root, seed: u64) -> Scratch {
        Scratch {
            board: root.board.clone(),
            rng: SmallRng::seed_from_u64(seed),
            path: Vec::with_capacity(64),
            starts: Vec::with_capacity(64),
            moves: Vec::with_capacity(4 * root.board.size() * root.board.size()),
            first: Box::new([0; SLOTS]),
            tally: OwnershipMap::new(root.board.geometry()),
            evaluator: None,
            policy: Vec::new(),
            recent: Vec::with_capacity(features::HISTORY),
        }
    }
}

/// One simulation: descend, expand, play out, back up.
fn simulate(tree: &Tree, root: &Root, config: &SearchConfig, scores: &RootScores, s: &mut Scratch) {
    s.board.copy_from(&root.board);
    s.path.clear();
    s.starts.clear();
    s.moves.clear();
    let (mut color, mut last, mut second_last) = (root.to_move, root.last, root.second_last);
    let mut passes = root.passes;
    let mut index = ROOT;
    tree.node(ROOT).add_visit();
    s.path.push(ROOT);
    loop {
        s.starts.push(s.moves.len());
        let node = tree.node(index);
        if !node.is_expanded() {
            let ready = node.stats().playouts() >= config.params.expand_after;
            if !(ready && tree.try_begin_expansion(index)) {
                break;
            }
            let moves = inner_moves(&s.board, color, last, config.params.pass_empty_share);
            let children = with_priors(&s.board, color, last, second_last, &moves, config);
            if !tree.expand(index, &children) {
                break;
            }
        }
        if index != ROOT && node.visits() >= config.params.net.after {
            net_prior_at(tree, index, root, config, color, s);
        }
        let selected = if index == ROOT && root.bans {
            select::<true>(tree, index, config)
        } else {
            select::<false>(tree, index, config)
        };
        let Some(child) = selected else {
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
        (second_last, last, color, index) = (last, mv, color.opponent(), child);
        if passes >= 2 {
            break;
        }
    }
    let lead = if passes >= 2 {
        s.board.area_lead()
    } else {
        playout::play_out(
            &mut s.board,
            color,
            last,
            &config.params.playout,
            &root.forbidden,
            &mut s.rng,
            &mut s.moves,
        )
        .black_lead
    };
    let margin = f64::from(lead) - root.komi;
    if let Some(&child) = s.path.get(1) {
        scores.add(child, margin);
    }
    s.tally.record(&s.board, margin);
    if s.tally.playouts() >= config.params.tally_flush {
        flush_tally(root, &mut s.tally);
    }
    let black = black_half_points(f64::from(lead) - root.search_komi);
    let half_points = |c: Color| if c == Color::Black { black } else { 2 - black };
    back_up(tree, root, s, half_points);
}

/// Black's result of a simulation ending with `margin` points for Black, in half points: 2
/// for a win, 1 for a draw, 0 for a loss.
fn black_half_points(margin: f64) -> u32 {
    match margin.partial_cmp(&0.0) {
        Some(std::cmp::Ordering::Greater) => 2,
        Some(std::cmp::Ordering::Less) => 0,
        _ => 1,
    }
}

/// Gives the inner node `index`, whose position is on the scratch board with `color` to
/// move, the network's prior, if the network plays here and nobody gave it yet.
fn net_prior_at(
    tree: &Tree,
    index: u32,
    root: &Root,
    config: &SearchConfig,
    color: Color,
    s: &mut Scratch,
) {
    let Some(net) = net_for(config, root.board.size()) else {
        return;
    };
    if !tree.node(index).claim_net_prior() {
        return;
    }
    // The moves before this node: the path's, most recent first, then the root's.
    s.recent.clear();
    let path_moves = s.path[1..].iter().rev().map(|&i| tree.node(i).mv());
    s.recent.extend(
        path_moves
            .chain(root.recent.iter().copied())
            .take(features::HISTORY),
    );
    let size = root.board.size();
    let evaluator = s.evaluator.get_or_insert_with(|| Evaluator::new(net, size));
    s.policy.resize(size * size, 0.0);
    evaluator.policy(&s.board, color, &s.recent, &mut s.policy);
    add_net_prior(tree, index, &s.board, &s.policy, &config.params.net);
}

/// Adds the result to the path, and AMAF evidence to the children of each node on it.
fn back_up(tree: &Tree, root: &Root, s: &mut Scratch, half_points: impl Fn(Color) -> u32) {
    // The node at depth d holds the move of the player to move at depth d - 1.
    let mover = |depth: usize| {
        if depth % 2 == 1 {
            root.to_move
        } else {
            root.to_move.opponent()
        }
    };
    for (depth, &index) in s.path.iter().enumerate() {
        tree.node(index).add_result(half_points(mover(depth)));
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
            let result = half_points(children_mover);
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

/// The child of `index` with the best blend of win rate and AMAF win rate. With `BANS`,
/// banned children (root moves the full rules forbid, see [`expand_root`]) are left out:
/// only root children are ever banned, and rarely (a superko), so the selections elsewhere,
/// which run many times per simulation, do not look.
fn select<const BANS: bool>(tree: &Tree, index: u32, config: &SearchConfig) -> Option<u32> {
    let k = config.params.rave_equivalence;
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

fn summarize(
    tree: &Tree,
    params: &Params,
    scores: &RootScores,
    game: &Game,
    root: &Root,
    playouts: u64,
    elapsed: Duration,
) -> SearchResult {
    let color = root.to_move;
    let mut candidates: Vec<Candidate> = tree
        .node(ROOT)
        .children()
        .filter(|&c| game.is_legal(color, tree.node(c).mv()))
        .map(|c| {
            let s = tree.node(c).stats();
            Candidate {
                mv: s.mv,
                playouts: s.playouts(),
                winrate: root.reported_winrate(scores, c, &s),
            }
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.playouts
            .cmp(&a.playouts)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let best = candidates.first().map_or(Move::Pass, |c| c.mv);
    let winrate = candidates.first().map_or(0.5, |c| c.winrate);
    let search_winrate = tree
        .child_with_move(ROOT, best)
        .map_or(winrate, |c| tree.node(c).stats().simulated_value());
    SearchResult {
        best,
        winrate,
        search_winrate,
        pv: principal_variation(tree, params.pv_length),
        candidates,
        playouts,
        elapsed,
        tree_nodes: tree.len(),
        tree_memory: tree.memory(),
        ownership: Vec::new(),
        score_lead: 0.0,
    }
}

/// Adds a thread's own sums to the search's tally and empties them.
fn flush_tally(root: &Root, part: &mut OwnershipMap) {
    // A poisoned lock means another thread panicked: the sums are still good.
    let mut total = root
        .tally
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    total.merge(part);
    part.clear();
}

/// The ownership and score lead (as [`SearchResult::ownership`] and
/// [`SearchResult::score_lead`]) of the playouts the threads have added so far: all of them
/// once the threads have finished.
fn tally_so_far(root: &Root) -> (Vec<f32>, f64) {
    let total = root
        .tally
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    (total.ownership(), total.score_lead())
}

/// The most simulated line from the root, at most `length` moves.
fn principal_variation(tree: &Tree, length: usize) -> Vec<Move> {
    let mut pv = line_from(tree, ROOT, length);
    pv.remove(0);
    pv
}

/// The move of node `start` followed by the most simulated line below it, at most
/// `length` moves after the start.
fn line_from(tree: &Tree, start: u32, length: usize) -> Vec<Move> {
    let mut line = vec![tree.node(start).mv()];
    let mut index = start;
    while let Some(child) = tree
        .node(index)
        .children()
        .max_by_key(|&c| tree.node(c).stats().playouts())
    {
        if tree.node(child).stats().playouts() == 0 || line.len() > length {
            break;
        }
        line.push(tree.node(child).mv());
        index = child;
    }
    line
}
