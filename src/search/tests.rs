//! The search without Go knowledge: fake prior sources and leaf evaluators whose answers are
//! known, so that what the tree does with them (backing up, steering, reporting, counting
//! with a shifted komi) is checked exactly, as KataGo's search tests run without a network.

use super::root::Root;
use super::{Budget, MoveInfo, Search, SearchConfig, SearchResult};
use crate::coord::{Color, Move, Point};
use crate::game::{Game, Position};
use crate::knowledge::{
    Evaluation, Knowledge, Leaf, LeafEvaluator, Prior, PriorSource, ThreadKnowledge, Timing,
};
use crate::rules::Ruleset;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// A leaf evaluator that answers by a rule of the leaf.
struct Rule(fn(&Leaf<'_>) -> Evaluation);

impl LeafEvaluator for Rule {
    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation {
        (self.0)(leaf)
    }
}

/// A prior source that gives one point all of its games as wins, and counts how often it
/// was asked.
struct Favourite {
    point: Point,
    games: f64,
    timing: Timing,
    asked: Arc<AtomicUsize>,
    policy: Vec<f32>,
}

impl PriorSource for Favourite {
    fn timing(&self) -> Timing {
        self.timing
    }

    fn add_priors(
        &mut self,
        position: &Position<'_>,
        _: f64,
        moves: &[Move],
        priors: &mut [Prior],
    ) {
        self.asked.fetch_add(1, Relaxed);
        let size = position.board.size();
        self.policy = vec![0.0; size * size];
        for (&mv, prior) in moves.iter().zip(priors) {
            if mv == Move::Play(self.point) {
                prior.wins += self.games;
                prior.games += self.games;
                self.policy[position.board.geometry().vertex_index(self.point)] = 1.0;
            }
        }
    }

    fn policy(&self) -> Option<&[f32]> {
        Some(&self.policy)
    }
}

/// Knowledge made of a leaf rule and, optionally, a favourite move.
struct Fake {
    rule: fn(&Leaf<'_>) -> Evaluation,
    favourite: Option<(Point, f64, Timing)>,
    asked: Arc<AtomicUsize>,
}

impl Knowledge for Fake {
    fn for_thread(&self, _size: usize, _seed: u64) -> ThreadKnowledge {
        let priors: Vec<Box<dyn PriorSource>> = self
            .favourite
            .iter()
            .map(|&(point, games, timing)| {
                Box::new(Favourite {
                    point,
                    games,
                    timing,
                    asked: Arc::clone(&self.asked),
                    policy: Vec::new(),
                }) as Box<dyn PriorSource>
            })
            .collect();
        ThreadKnowledge {
            priors,
            leaf: Box::new(Rule(self.rule)),
        }
    }
}

fn fake(rule: fn(&Leaf<'_>) -> Evaluation) -> Fake {
    Fake {
        rule,
        favourite: None,
        asked: Arc::new(AtomicUsize::new(0)),
    }
}

/// Black's chances `black` by both komis, no score.
fn even_komi(black: f64) -> Evaluation {
    Evaluation {
        black_search: black,
        black_real: black,
        black_margin: None,
        margin_stdev: None,
    }
}

fn game(size: usize) -> Game {
    Game::new(size, Ruleset::FRENCH, 7.5).expect("a board size the rules take")
}

fn point(game: &Game, vertex: &str) -> Point {
    game.board()
        .geometry()
        .parse_point(vertex)
        .expect("a vertex of the board")
}

fn search_with(
    knowledge: Fake,
    game: &Game,
    playouts: u64,
    threads: usize,
) -> (Search, SearchResult) {
    let config = SearchConfig {
        threads,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, Arc::new(knowledge), 7);
    let budget = Budget {
        visits: Some(playouts),
        time: None,
    };
    let result = search.run(game, Color::Black, budget, &AtomicBool::new(false));
    (search, result)
}

fn find(result: &SearchResult, mv: Move) -> &MoveInfo {
    result
        .candidates
        .iter()
        .find(|c| c.mv == mv)
        .expect("a root move")
}

#[test]
fn a_fractional_value_backs_up_exactly_when_it_is_a_whole_number_of_units() {
    let game = game(5);
    // No node below the root expands: every simulation evaluates a root move's position.
    let mut config = SearchConfig::default();
    config.params.expand_after = u32::MAX;
    let mut search = Search::new(config, Arc::new(fake(|_| even_komi(0.75))), 7);
    let budget = Budget {
        visits: Some(600),
        time: None,
    };
    let result = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    // The search may stop early once its best move cannot be caught.
    assert!(result.visits > 256 && result.visits <= 600);
    let visits: u32 = result.candidates.iter().map(|c| c.visits).sum();
    assert_eq!(
        u64::from(visits),
        result.visits,
        "every simulation went through one root move"
    );
    for c in result.candidates.iter().filter(|c| c.visits > 0) {
        assert_eq!(c.winrate, 0.75, "{:?}", c.mv);
    }
    assert_eq!(result.winrate, 0.75);
    assert_eq!(result.score_lead, 0.0, "no evaluation gave a score");
    assert!(result.ownership.iter().all(|&o| o == 0.0));
}

#[test]
fn other_fractions_round_without_bias() {
    let game = game(5);
    // 0.3 is 4.8 units: each result is rounded to 4 or 5, 5 four times in five.
    let (_, result) = search_with(fake(|_| even_komi(0.3)), &game, 20_000, 1);
    let (visits, wins) = result.candidates.iter().fold((0.0, 0.0), |(v, w), c| {
        (v + f64::from(c.visits), w + f64::from(c.visits) * c.winrate)
    });
    let mean = wins / visits;
    assert!((mean - 0.3).abs() < 0.005, "mean {mean}");
}

/// Black wins whenever the line starts at C3, and loses three times in four otherwise.
fn c3_wins(leaf: &Leaf<'_>) -> Evaluation {
    let c3 = Move::Play(leaf.board.geometry().parse_point("C3").expect("C3"));
    even_komi(if leaf.line.first() == Some(&c3) {
        1.0
    } else {
        0.25
    })
}

#[test]
fn the_search_finds_the_one_move_its_evaluator_rewards() {
    let game = game(5);
    for threads in [1, 2] {
        let (_, result) = search_with(fake(c3_wins), &game, 3_000, threads);
        assert_eq!(
            result.best,
            Move::Play(point(&game, "C3")),
            "{threads} threads"
        );
        assert_eq!(result.winrate, 1.0);
        for other in result.candidates.iter().skip(1).filter(|c| c.visits > 0) {
            assert!(other.winrate <= 0.25, "{other:?}");
        }
    }
}

#[test]
fn the_evaluators_margin_is_the_score_lead_and_the_real_komi_is_reported() {
    let game = game(5);
    let rule = |_: &Leaf<'_>| Evaluation {
        black_search: 0.875,
        black_real: 0.2,
        black_margin: Some(-3.5),
        margin_stdev: Some(2.0),
    };
    let config = SearchConfig::default();
    let mut search = Search::new(config, Arc::new(fake(rule)), 7);
    search.set_komi_shift(-10.0);
    let budget = Budget {
        visits: Some(500),
        time: None,
    };
    let result = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    assert_eq!(
        result.search_winrate, 0.875,
        "the tree counts by the shifted komi"
    );
    assert!(
        (result.winrate - 0.2).abs() < 1e-4,
        "the report by the real one"
    );
    let best = find(&result, result.best);
    assert_eq!(best.score_lead, -3.5);
    // Every simulation ends at -3.5: the spread is the evaluator's own.
    assert!(
        (best.score_stdev - 2.0).abs() < 0.01,
        "{}",
        best.score_stdev
    );
    // Without a shift the tree may still count something else than the win rate (the score
    // utility weighs the lead in): the report is the real win rate all the same.
    search.set_komi_shift(0.0);
    search.forget();
    let result = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    assert_eq!(result.search_winrate, 0.875);
    assert!((result.winrate - 0.2).abs() < 1e-4, "{}", result.winrate);
}

#[test]
fn a_prior_source_steers_the_first_simulations_and_shows_as_the_prior() {
    let game = game(5);
    let d4 = point(&game, "D4");
    let knowledge = Fake {
        favourite: Some((d4, 100.0, Timing::AtExpansion)),
        ..fake(|_| even_komi(0.5))
    };
    let (_, result) = search_with(knowledge, &game, 50, 1);
    let favourite = find(&result, Move::Play(d4));
    assert_eq!(
        favourite.visits, 50,
        "a 100% prior of 100 games draws every simulation"
    );
    assert_eq!(
        favourite.winrate, 0.5,
        "the report leaves the prior's wins out"
    );
    assert_eq!(favourite.prior, 1.0, "the policy of the source");
    assert_eq!(find(&result, Move::Pass).prior, 0.0);
}

#[test]
fn a_late_source_speaks_once_at_the_root_and_a_kept_tree_keeps_its_priors() {
    let game = game(5);
    let d4 = point(&game, "D4");
    let asked = Arc::new(AtomicUsize::new(0));
    let knowledge = Fake {
        rule: |_| even_komi(0.5),
        favourite: Some((d4, 40.0, Timing::After(u32::MAX))),
        asked: Arc::clone(&asked),
    };
    let (mut search, result) = search_with(knowledge, &game, 200, 1);
    assert_eq!(asked.load(Relaxed), 1, "no inner node reaches the count");
    assert_eq!(find(&result, Move::Play(d4)).prior, 1.0);
    assert!(find(&result, Move::Play(d4)).visits > 100);
    let prior_visits = |search: &Search| {
        let tree = search.tree.as_ref().expect("a kept tree");
        let child = tree.child_with_move(super::tree::ROOT, Move::Play(d4));
        tree.node(child.expect("D4 is a root move"))
            .stats()
            .prior_visits
    };
    assert_eq!(prior_visits(&search), 40);

    // The same position again: the tree is kept, its root already had the late priors; the
    // source is asked again (for the policy analysis shows) but its prior is not added twice.
    let budget = Budget {
        visits: Some(1),
        time: None,
    };
    let again = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    assert_eq!(asked.load(Relaxed), 2);
    assert_eq!(find(&again, Move::Play(d4)).prior, 1.0);
    assert_eq!(prior_visits(&search), 40);
    assert!(
        find(&again, Move::Play(d4)).visits > 100,
        "the tree was kept"
    );
}

/// A late source that judges positions, not moves: lost for the side to move when Black
/// has a stone on C3, won otherwise.
struct C3Verdict {
    games: f64,
    lost: bool,
}

impl PriorSource for C3Verdict {
    fn timing(&self) -> Timing {
        Timing::After(16)
    }

    fn add_priors(&mut self, position: &Position<'_>, _: f64, _: &[Move], _: &mut [Prior]) {
        let board = position.board;
        let c3 = board.geometry().parse_point("C3").expect("C3");
        self.lost = board.color_at(c3) == Some(Color::Black);
    }

    fn position_prior(&self) -> Prior {
        let wins = if self.lost { 0.0 } else { self.games };
        Prior {
            wins,
            games: self.games,
        }
    }
}

struct Judged(f64);

impl Knowledge for Judged {
    fn for_thread(&self, _size: usize, _seed: u64) -> ThreadKnowledge {
        ThreadKnowledge {
            priors: vec![Box::new(C3Verdict {
                games: self.0,
                lost: false,
            })],
            leaf: Box::new(Rule(|_| even_komi(0.5))),
        }
    }
}

#[test]
fn a_late_sources_judgement_of_a_position_is_its_nodes_prior() {
    let game = game(5);
    let c3 = Move::Play(point(&game, "C3"));
    let mut search = Search::new(SearchConfig::default(), Arc::new(Judged(200.0)), 7);
    let budget = Budget {
        visits: Some(3_000),
        time: None,
    };
    let result = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    assert_eq!(
        result.best, c3,
        "the verdict's 200 games outweigh the even playouts"
    );
    // Two passes end a few lines deep in the tree, counted on the board: not quite 0.5.
    let shown = find(&result, c3).winrate;
    assert!(
        (shown - 0.5).abs() < 0.05,
        "the report leaves them out: {shown}"
    );
    let tree = search.tree.as_ref().expect("a kept tree");
    let node = tree
        .child_with_move(super::tree::ROOT, c3)
        .expect("a root move");
    let stats = tree.node(node).stats();
    assert_eq!(
        (stats.prior_visits, stats.prior_wins),
        (200, 200.0),
        "Black, who played C3, wins the games White to move loses"
    );
    let root = tree.node(super::tree::ROOT).stats();
    assert_eq!(
        root.prior_visits, 0,
        "the root's own win rate steers nothing"
    );
}

/// A policy without virtual games: `share` for one point, the rest spread evenly over the
/// other moves.
struct Policy {
    point: Point,
    share: f32,
    /// The pass's probability, if the policy rates the pass.
    pass: Option<f32>,
    policy: Vec<f32>,
}

impl PriorSource for Policy {
    fn timing(&self) -> Timing {
        Timing::AtExpansion
    }

    fn add_priors(&mut self, position: &Position<'_>, _: f64, moves: &[Move], _: &mut [Prior]) {
        let board = position.board;
        let others = moves.len().saturating_sub(2).max(1) as f32;
        let rest = 1.0 - self.share - self.pass.unwrap_or(0.0);
        self.policy = vec![0.0; board.size() * board.size()];
        for &mv in moves {
            if let Move::Play(p) = mv {
                let index = board.geometry().vertex_index(p);
                self.policy[index] = if p == self.point {
                    self.share
                } else {
                    rest / others
                };
            }
        }
    }

    fn policy(&self) -> Option<&[f32]> {
        Some(&self.policy)
    }

    fn pass_policy(&self) -> Option<f32> {
        self.pass
    }
}

/// Knowledge made of a leaf rule and a [`Policy`] favouring `point`.
struct WithPolicy {
    rule: fn(&Leaf<'_>) -> Evaluation,
    point: Point,
    share: f32,
    pass: Option<f32>,
}

impl Knowledge for WithPolicy {
    fn for_thread(&self, _size: usize, _seed: u64) -> ThreadKnowledge {
        ThreadKnowledge {
            priors: vec![Box::new(Policy {
                point: self.point,
                share: self.share,
                pass: self.pass,
                policy: Vec::new(),
            })],
            leaf: Box::new(Rule(self.rule)),
        }
    }
}

fn search_puct(knowledge: WithPolicy, game: &Game, playouts: u64, threads: usize) -> SearchResult {
    let mut config = SearchConfig {
        threads,
        ..SearchConfig::default()
    };
    config.params.puct.enabled = crate::parse::Auto(Some(true));
    let mut search = Search::new(config, Arc::new(knowledge), 7);
    let budget = Budget {
        visits: Some(playouts),
        time: None,
    };
    search.run(game, Color::Black, budget, &AtomicBool::new(false))
}

#[test]
fn puct_tries_the_policys_move_first_and_leaves_it_when_the_evaluator_disagrees() {
    let game = game(5);
    let (c3, d4) = (point(&game, "C3"), point(&game, "D4"));
    // The evaluator rewards C3; the policy wants D4.
    let knowledge = |point| WithPolicy {
        rule: c3_wins,
        point,
        share: 0.5,
        pass: None,
    };
    let early = search_puct(knowledge(d4), &game, 20, 1);
    assert_eq!(early.best, Move::Play(d4), "the policy leads at first");
    assert_eq!(find(&early, Move::Play(d4)).prior, 0.5);
    for threads in [1, 2] {
        let result = search_puct(knowledge(d4), &game, 3_000, threads);
        assert_eq!(result.best, Move::Play(c3), "{threads} threads");
        assert!(find(&result, Move::Play(d4)).visits > 20);
        assert_eq!(find(&result, Move::Play(c3)).winrate, 1.0);
    }
    // Where the policy and the evaluator agree, the search hardly looks elsewhere.
    let agreed = search_puct(knowledge(c3), &game, 1_000, 1);
    let share = f64::from(find(&agreed, Move::Play(c3)).visits) / agreed.visits as f64;
    assert!(share > 0.9, "{share} of {} simulations", agreed.visits);
}

/// A policy that rates the pass steers the pass as it steers a move, as in Leela Zero and
/// KataGo: its probability is the pass's prior in the tree and in analysis. One that does
/// not rate it gives the pass none.
#[test]
fn a_policy_that_rates_the_pass_gives_the_pass_its_prior() {
    let game = game(5);
    let d4 = point(&game, "D4");
    let knowledge = |pass| WithPolicy {
        rule: c3_wins,
        point: d4,
        share: 0.2,
        pass,
    };
    // The first simulation goes where the policy points.
    let rated = search_puct(knowledge(Some(0.7)), &game, 1, 1);
    let pass = find(&rated, Move::Pass);
    assert!((pass.prior - 0.7).abs() < 1e-4, "{pass:?}");
    assert_eq!((pass.visits, find(&rated, Move::Play(d4)).visits), (1, 0));
    let unrated = search_puct(knowledge(None), &game, 1, 1);
    let pass = find(&unrated, Move::Pass);
    assert_eq!(pass.prior, 0.0);
    assert_eq!((pass.visits, find(&unrated, Move::Play(d4)).visits), (0, 1));
}

#[test]
fn a_root_limited_to_some_moves_chooses_and_reports_only_those() {
    let game = game(5);
    let seen: Vec<Move> = ["B2", "D4"]
        .iter()
        .map(|v| Move::Play(point(&game, v)))
        .collect();
    let config = SearchConfig {
        threads: 1,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, Arc::new(fake(c3_wins)), 7);
    let budget = Budget {
        visits: Some(2_000),
        time: None,
    };
    // C3 is the move the evaluator rewards, and it is not seen.
    search.set_root_moves(Some(seen.clone()));
    let limited = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    let reported: Vec<Move> = limited.candidates.iter().map(|c| c.mv).collect();
    assert_eq!(reported.len(), 3, "{reported:?}");
    assert!(reported
        .iter()
        .all(|mv| seen.contains(mv) || *mv == Move::Pass));
    assert!(seen.contains(&limited.best), "{:?}", limited.best);
    assert_eq!(limited.pv.first(), Some(&limited.best));
    // The same tree, searched again without the limit, finds C3.
    search.set_root_moves(None);
    let free = search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    assert_eq!(free.best, Move::Play(point(&game, "C3")));
    assert_eq!(free.candidates.len(), 25 + 1);
}

/// A leaf evaluator that notes where its searches began (the root's stones, the side to
/// move and the search's komi) and answers ½ at every leaf, having begun.
struct Begun {
    roots: Arc<std::sync::Mutex<Vec<(usize, Color, f64)>>>,
    begun: bool,
}

impl LeafEvaluator for Begun {
    fn begin(&mut self, root: &Position<'_>, search_komi: f64) {
        let stones = root.board.stones(Color::Black) + root.board.stones(Color::White);
        let mut roots = self.roots.lock().expect("no thread panicked");
        roots.push((stones, root.to_move, search_komi));
        self.begun = true;
    }

    fn evaluate(&mut self, _: &mut Leaf<'_>) -> Evaluation {
        assert!(self.begun, "a leaf before the search began");
        even_komi(0.5)
    }
}

struct Beginning(Arc<std::sync::Mutex<Vec<(usize, Color, f64)>>>);

impl Knowledge for Beginning {
    fn for_thread(&self, _size: usize, _seed: u64) -> ThreadKnowledge {
        let roots = Arc::clone(&self.0);
        ThreadKnowledge {
            priors: Vec::new(),
            leaf: Box::new(Begun {
                roots,
                begun: false,
            }),
        }
    }
}

#[test]
fn every_thread_s_leaf_evaluator_begins_at_the_root_by_the_search_komi() {
    let mut game = game(7);
    let d4 = point(&game, "D4");
    game.play(Color::Black, Move::Play(d4))
        .expect("a legal move");
    let roots = Arc::new(std::sync::Mutex::new(Vec::new()));
    let config = SearchConfig {
        threads: 2,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, Arc::new(Beginning(Arc::clone(&roots))), 7);
    search.set_komi_shift(2.0);
    let budget = Budget {
        visits: Some(200),
        time: None,
    };
    search.run(&game, Color::White, budget, &AtomicBool::new(false));
    let roots = roots.lock().expect("no thread panicked");
    assert_eq!(roots.len(), 2, "one beginning a search thread");
    for &root in roots.iter() {
        assert_eq!(root, (1, Color::White, 9.5));
    }
}

/// Knowledge that reads three moves and two boards back, and checks at every position it is
/// handed, at the root, at expansion and at the leaves, that they are the game's: each
/// earlier board with the move played on it gives the next one, every move has the colour
/// of its turn, and the terms are the game's.
struct Reader {
    terms: crate::game::Terms,
    checked: Arc<AtomicUsize>,
}

/// Checks `position` against what it follows from; returns whether it could be checked
/// back (it had two earlier boards).
fn follows(position: &Position<'_>, terms: crate::game::Terms) -> bool {
    assert_eq!(position.terms, terms);
    let colors = [position.to_move.opponent(), position.to_move];
    for (i, played) in position.recent.iter().enumerate() {
        assert_eq!(played.color, colors[i % 2], "{:?}", position.recent);
    }
    assert!(position.earlier.len() <= 2);
    let later = std::iter::once(position.board).chain(position.earlier.iter());
    for ((before, after), played) in position.earlier.iter().zip(later).zip(position.recent) {
        let mut replayed = before.clone();
        if let Move::Play(p) = played.mv {
            replayed.place(played.color, p);
        }
        assert!(replayed.same_stones(after), "{:?}", position.recent);
    }
    position.earlier.len() == 2
}

impl PriorSource for Reader {
    fn timing(&self) -> Timing {
        Timing::AtExpansion
    }

    fn add_priors(&mut self, position: &Position<'_>, _: f64, _: &[Move], _: &mut [Prior]) {
        if follows(position, self.terms) {
            self.checked.fetch_add(1, Relaxed);
        }
    }
}

impl LeafEvaluator for Reader {
    fn evaluate(&mut self, leaf: &mut Leaf<'_>) -> Evaluation {
        let recent: Vec<_> = leaf.recent(3).collect();
        let position = Position {
            board: leaf.board,
            to_move: leaf.to_move,
            recent: &recent,
            earlier: leaf.earlier,
            superko_bans: &[],
            terms: leaf.terms,
        };
        if follows(&position, self.terms) {
            self.checked.fetch_add(1, Relaxed);
        }
        even_komi(0.5)
    }
}

struct Reading(crate::game::Terms, Arc<AtomicUsize>);

impl Knowledge for Reading {
    fn for_thread(&self, _size: usize, _seed: u64) -> ThreadKnowledge {
        let reader = || Reader {
            terms: self.0,
            checked: Arc::clone(&self.1),
        };
        ThreadKnowledge {
            priors: vec![Box::new(reader())],
            leaf: Box::new(reader()),
        }
    }

    fn history(&self) -> usize {
        3
    }

    fn earlier_boards(&self) -> usize {
        2
    }
}

/// The search hands its knowledge the position a network reads, at the root and deep in
/// the tree: the moves with their colours, the boards they were played on, the terms; and
/// at the root the superko bans.
#[test]
fn the_knowledge_is_handed_whole_positions_at_every_depth() {
    let mut game = Game::new(7, Ruleset::CHINESE, 5.5).expect("a board size");
    game.fixed_handicap(2).expect("two stones on 7x7");
    game.play(Color::White, Move::Play(point(&game, "D4")))
        .unwrap();
    let checked = Arc::new(AtomicUsize::new(0));
    let knowledge = Reading(game.terms(), Arc::clone(&checked));
    let root = Root::of(&game, Color::Black, Default::default(), 0.0, (3, 2));
    assert_eq!(root.facts.earlier.len(), 1, "one move since the handicap");
    assert_eq!(root.facts.terms.handicap, 2);
    let config = SearchConfig {
        threads: 2,
        ..SearchConfig::default()
    };
    let mut search = Search::new(config, Arc::new(knowledge), 3);
    let budget = Budget {
        visits: Some(500),
        time: None,
    };
    search.run(&game, Color::Black, budget, &AtomicBool::new(false));
    assert!(
        checked.load(Relaxed) > 100,
        "{} checked",
        checked.load(Relaxed)
    );
}
