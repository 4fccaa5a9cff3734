//! What the player does at each rank: the rungs of each board's ladder
//! ([`super::size_class::SizeClass::rungs`]) and the settings of a rank between them, and
//! the moves a player of limited sight sees ([`seen_moves`]).
//!
//! A rank is weakened the ways people are weak, not by noise alone. Fewer playouts read
//! less; a temperature draws among the moves the search liked instead of taking the best;
//! and below 10 kyu the player does not see every move: each turn it looks at a random
//! share of the legal moves (its *sight*), as KaTrain's rank strategy shows its network M of
//! N legal moves, and so misses a cut, a ladder breaker or the biggest point the way a weak
//! player does. It still sees what nobody misses: an atari of one of its own big chains
//! (the moves that save it) and a big enemy chain in atari (the capture), and it does not
//! look at first-line points far from every stone, so that a weak rank never fills its
//! own eyes (no rank's search does) nor crawls on the edge for no reason.

use super::rank::Rank;
use crate::board::Board;
use crate::coord::{Color, Move, Point};
use crate::game::Game;
use crate::search::{MoveInfo, SearchResult};
use crate::setup::Advice;
use rand::Rng;

/// One calibrated strength on a board's ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rung {
    pub rank: Rank,
    /// Whether the rung thinks for its size class's expert time with every thread (the
    /// strongest) rather than a number of playouts ([`Rung::playouts`]).
    pub timed: bool,
    /// Playouts a move: a counted rung's own; for the timed one, about what its time buys
    /// on one thread of the machine its rank was measured on (docs/benchmarks.md says
    /// which). The ranks between the rung below and this one read toward it, so that the
    /// ranks just under expert read nearly as much as it does.
    pub reads: u64,
    /// Whether the search takes a network's advice ([`Rung::advice`] says which).
    pub network: bool,
    /// Above 0, the move is drawn among the search's candidates with probability
    /// proportional to playouts^(1/temperature) rather than the most simulated taken.
    pub temperature: f64,
    /// The share of the legal moves the player sees each turn (1: all), see
    /// [`seen_moves`].
    pub sight: f64,
    /// Above 0, the move is the one that gives away about this many points by the search's
    /// count ([`losing_move`]) rather than the best or a draw at the temperature.
    pub point_loss: f64,
}

impl Rung {
    /// The network the rung plays with: none, the network the ranks were calibrated with,
    /// or for the strongest (timed) rung the strongest hoshi has.
    pub fn advice(&self) -> Advice {
        match (self.network, self.timed) {
            (false, _) => Advice::Off,
            (true, false) => Advice::Calibrated,
            (true, true) => Advice::Strongest,
        }
    }

    /// Playouts a move; `None` for the timed rung.
    pub fn playouts(&self) -> Option<u64> {
        (!self.timed).then_some(self.reads)
    }

    /// A rung that searches a number of playouts.
    pub const fn counted(
        rank: Rank,
        playouts: u64,
        network: bool,
        temperature: f64,
        sight: f64,
    ) -> Rung {
        Rung {
            rank,
            timed: false,
            reads: playouts,
            network,
            temperature,
            sight,
            point_loss: 0.0,
        }
    }

    /// This rung giving away `points` a move ([`Rung::point_loss`]).
    pub const fn losing(self, points: f64) -> Rung {
        Rung {
            point_loss: points,
            ..self
        }
    }

    /// The strongest rung: the whole time, every thread, the network, the best move. Its
    /// time reads about `reads` playouts a move on one thread ([`Rung::reads`]).
    pub const fn strongest(rank: Rank, reads: u64) -> Rung {
        Rung {
            rank,
            timed: true,
            reads,
            network: true,
            temperature: 0.0,
            sight: 1.0,
            point_loss: 0.0,
        }
    }
}

/// The settings of `rank` on a ladder (rungs from the weakest, at least one): those of the
/// highest rung at or below it (the lowest, below every rung; the highest, above), with
/// playouts, temperature, sight and point loss taken part of the way to the next rung when
/// the lower one counts its playouts: playouts geometrically toward the next rung's
/// [`Rung::reads`], since strength grows with their logarithm, the others linearly. Whether
/// the network advises is the lower rung's.
pub fn rung_for(rungs: &[Rung], rank: Rank) -> Rung {
    let below = rungs.iter().rposition(|r| r.rank <= rank).unwrap_or(0);
    let Some(&low) = rungs.get(below) else {
        return Rung::strongest(rank, 0);
    };
    let mut rung = Rung { rank, ..low };
    let (Some(&high), false) = (rungs.get(below + 1), low.timed) else {
        return rung;
    };
    let t = f64::from(rank.above(low.rank).max(0)) / f64::from(high.rank.above(low.rank));
    let (a, b) = (low.reads.max(1) as f64, high.reads.max(1) as f64);
    rung.reads = (a.ln() + t * (b.ln() - a.ln())).exp().round() as u64;
    rung.temperature = low.temperature + t * (high.temperature - low.temperature);
    rung.sight = low.sight + t * (high.sight - low.sight);
    rung.point_loss = low.point_loss + t * (high.point_loss - low.point_loss);
    rung
}

/// The moves a player who sees `sight` of the legal moves looks at this turn, for
/// [`crate::search::Search::set_root_moves`]: each legal move with that chance, except
/// first-line points with no stone within two lines; then, always, the moves that save
/// one of `color`'s chains of at least `big_chain` stones from an atari and those that
/// capture such an enemy chain; at least one move when any is legal. `None` when the
/// player sees everything.
pub fn seen_moves(
    game: &Game,
    color: Color,
    sight: f64,
    big_chain: usize,
    rng: &mut impl Rng,
) -> Option<Vec<Move>> {
    if sight >= 1.0 {
        return None;
    }
    let board = game.board();
    let legal: Vec<Point> = game
        .legal_points(color)
        .into_iter()
        .filter(|&p| !board.is_eye(p, color))
        .collect();
    let mut seen: Vec<Point> = legal
        .iter()
        .copied()
        .filter(|&p| !lonely_edge(board, p) && rng.gen_bool(sight.clamp(0.0, 1.0)))
        .collect();
    for p in must_see(board, color, big_chain) {
        if legal.contains(&p) && !seen.contains(&p) {
            seen.push(p);
        }
    }
    if seen.is_empty() {
        let sensible: Vec<Point> = legal
            .iter()
            .copied()
            .filter(|&p| !lonely_edge(board, p))
            .collect();
        let pool = if sensible.is_empty() {
            &legal
        } else {
            &sensible
        };
        if !pool.is_empty() {
            seen.push(pool[rng.gen_range(0..pool.len())]);
        }
    }
    Some(seen.into_iter().map(Move::Play).collect())
}

/// The moves a rank that does not always play its best may play: those the search played
/// through at least 1/`share` as often as its best one, a pass only when it is the best,
/// and a first-line point far from every stone on `board` only when it is the best (a weak
/// player's slack move is not a crawl on an empty edge). The best move first.
pub fn candidates<'a>(
    result: &'a SearchResult,
    share: u32,
    board: &'a Board,
) -> impl Iterator<Item = &'a MoveInfo> {
    let (best, floor) = result.candidates.first().map_or((None, 1), |c| {
        (Some(c.mv), (c.visits / share.max(1)).max(1))
    });
    result.candidates.iter().filter(move |c| {
        let sensible = Some(c.mv) == best
            || match c.mv {
                Move::Pass => false,
                Move::Play(p) => !lonely_edge(board, p),
            };
        c.visits >= floor && sensible
    })
}

/// The move that gives away about `loss` points by the search's count: among the
/// [`candidates`], the one whose score falls short of the best move's by the nearest to
/// `loss`. A player who loses a steady few points a move keeps a head start as a person
/// does, where one who blunders at random throws a handicap away with a group; so a
/// handicap stone is worth to it what it is worth between people. `None` without a
/// candidate.
pub fn losing_move(result: &SearchResult, loss: f64, share: u32, board: &Board) -> Option<Move> {
    let best = result.candidates.first()?;
    candidates(result, share, board)
        .map(|c| {
            (
                c.mv,
                ((best.score_lead - c.score_lead).max(0.0) - loss).abs(),
            )
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(mv, _)| mv)
}

/// The moves that save one of `color`'s chains of at least `big_chain` stones from an
/// atari, if it has such a chain that can be saved: a move every rank sees and, when the
/// search finds one the best, plays rather than drawing at a temperature.
pub fn saving_moves(board: &Board, color: Color, big_chain: usize) -> Option<Vec<Point>> {
    let mut points = Vec::new();
    for chain in board.chains_in_atari(color) {
        if board.chain_len(chain) >= big_chain {
            board.atari_escapes(chain, |p| points.push(p));
        }
    }
    (!points.is_empty()).then_some(points)
}

/// The moves no player misses: saving one of `color`'s chains of at least `big_chain`
/// stones from an atari, and capturing an enemy chain of that size in atari.
fn must_see(board: &Board, color: Color, big_chain: usize) -> Vec<Point> {
    let mut points = saving_moves(board, color, big_chain).unwrap_or_default();
    for chain in board.chains_in_atari(color.opponent()) {
        if board.chain_len(chain) >= big_chain {
            points.extend(board.atari_liberty(chain));
        }
    }
    points
}

/// Whether `p` is on the first line with no stone within two lines of it (Manhattan
/// distance 2): a point no one plays without a reason.
pub fn lonely_edge(board: &Board, p: Point) -> bool {
    let geometry = board.geometry();
    let v = geometry.vertex(p);
    let last = (board.size() - 1) as u8;
    let on_edge = v.col == 0 || v.row == 0 || v.col == last || v.row == last;
    on_edge
        && !geometry.points().any(|q| {
            let w = geometry.vertex(q);
            v.col.abs_diff(w.col) + v.row.abs_diff(w.row) <= 2 && board.color_at(q).is_some()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ruleset;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    const LADDER: [Rung; 4] = [
        Rung::counted(Rank::kyu(30), 10, false, 1.0, 0.1).losing(4.0),
        Rung::counted(Rank::kyu(20), 1_000, false, 0.0, 0.5),
        Rung::counted(Rank::kyu(10), 100, true, 0.0, 1.0),
        Rung::strongest(Rank::dan(1), 10_000),
    ];

    #[test]
    fn a_rank_between_rungs_takes_its_settings_part_of_the_way() {
        assert_eq!(rung_for(&LADDER, Rank::kyu(30)), LADDER[0]);
        assert_eq!(rung_for(&LADDER, Rank::kyu(20)), LADDER[1]);
        let middle = rung_for(&LADDER, Rank::kyu(25));
        assert_eq!(middle.playouts(), Some(100), "geometric: sqrt(10 * 1000)");
        assert_eq!(
            (middle.temperature, middle.sight),
            (0.5, 0.30000000000000004)
        );
        assert_eq!(middle.point_loss, 2.0, "linear");
        assert_eq!(middle.rank, Rank::kyu(25));
        // The network is the lower rung's; the playouts go part of the way all the same.
        let mixed = rung_for(&LADDER, Rank::kyu(15));
        assert_eq!((mixed.playouts(), mixed.network), (Some(316), false));
        // Under the strongest, toward what its time reads.
        let under = rung_for(&LADDER, Rank::kyu(1));
        assert_eq!((under.playouts(), under.network), (Some(6_310), true));
        assert_eq!(rung_for(&LADDER, Rank::dan(1)).playouts(), None);
        assert_eq!(rung_for(&LADDER, Rank::dan(5)).playouts(), None);
    }

    /// A search's result whose candidates are (move, visits, score lead), most visited
    /// first.
    fn result_of(candidates: &[(Move, u32, f64)]) -> SearchResult {
        let infos: Vec<crate::search::MoveInfo> = candidates
            .iter()
            .map(|&(mv, visits, score_lead)| crate::search::MoveInfo {
                mv,
                visits,
                winrate: 0.5,
                prior: 0.0,
                lcb: 0.0,
                score_lead,
                score_stdev: 0.0,
                pv: vec![mv],
                pv_visits: vec![visits],
                ownership: None,
            })
            .collect();
        SearchResult {
            best: infos[0].mv,
            winrate: 0.5,
            search_winrate: 0.5,
            pv: vec![infos[0].mv],
            candidates: infos,
            visits: 1_000,
            elapsed: std::time::Duration::ZERO,
            tree_nodes: 0,
            tree_memory: 0,
            ownership: Vec::new(),
            ownership_stdev: Vec::new(),
            score_lead: candidates[0].2,
        }
    }

    #[test]
    fn a_losing_move_gives_away_about_its_points_among_moves_the_search_liked() {
        let g = crate::coord::Geometry::new(9).expect("a size");
        let at = |v: &str| Move::Play(g.parse_point(v).expect("a vertex"));
        let result = result_of(&[
            (at("E5"), 500, 6.0),
            (at("C3"), 200, 5.5),
            (at("G7"), 100, 3.9),
            (at("D4"), 60, 7.0),
            (at("A1"), 20, -30.0), // under a tenth of the best one's visits: never
            (Move::Pass, 60, 0.0), // a pass the search did not prefer: never
            (at("E1"), 300, 4.0),  // a first-line point far from every stone: never
        ]);
        // A1 is near the stone on B2; E1 is three lines or more from every stone.
        let game = game_with(9, &[(Color::Black, "B2"), (Color::White, "F5")]);
        let board = game.board();
        assert_eq!(losing_move(&result, 0.01, 10, board), Some(at("E5")));
        assert_eq!(losing_move(&result, 0.4, 10, board), Some(at("C3")));
        assert_eq!(losing_move(&result, 2.0, 10, board), Some(at("G7")));
        assert_eq!(losing_move(&result, 50.0, 10, board), Some(at("G7")));
        // A wider pool takes in the blunder.
        assert_eq!(losing_move(&result, 50.0, 100, board), Some(at("A1")));
        // The lonely edge point is played only as the best move.
        let edge_best = result_of(&[(at("E1"), 500, 6.0), (at("C3"), 400, 5.0)]);
        assert_eq!(losing_move(&edge_best, 0.0, 10, board), Some(at("E1")));
        // A better score than the best move's loses nothing.
        let ahead = result_of(&[(at("E5"), 500, 6.0), (at("D4"), 400, 9.0)]);
        assert_eq!(losing_move(&ahead, 0.0, 10, board), Some(at("E5")));
        let pass = result_of(&[(Move::Pass, 500, 6.0), (at("D4"), 400, 4.0)]);
        assert_eq!(losing_move(&pass, 0.1, 10, board), Some(Move::Pass));
    }

    fn game_with(size: usize, stones: &[(Color, &str)]) -> Game {
        let mut game = Game::new(size, Ruleset::FRENCH, 7.5).expect("a size");
        let g = game.board().geometry();
        for &(color, vertex) in stones {
            let p = g.parse_point(vertex).expect("a vertex");
            game.play(color, Move::Play(p)).expect("a legal move");
        }
        game
    }

    /// A 9x9 game where Black's four stones C3 D3 E3 D4 are in atari (White C2 D2 E2 B3
    /// F3 C4 E4), saved by D5 only, then the moves `after`.
    fn atari_shape(after: &[(Color, &str)]) -> Game {
        let shape = [
            (Color::Black, "C3"),
            (Color::White, "C2"),
            (Color::Black, "D3"),
            (Color::White, "D2"),
            (Color::Black, "E3"),
            (Color::White, "E2"),
            (Color::Black, "D4"),
            (Color::White, "B3"),
            (Color::Black, "J9"),
            (Color::White, "F3"),
            (Color::Black, "H9"),
            (Color::White, "C4"),
            (Color::Black, "G9"),
            (Color::White, "E4"),
        ];
        let moves: Vec<(Color, &str)> = shape.iter().chain(after).copied().collect();
        game_with(9, &moves)
    }

    fn names(game: &Game, moves: &[Move]) -> Vec<String> {
        let g = game.board().geometry();
        let mut names: Vec<String> = moves.iter().map(|&mv| g.move_name(mv)).collect();
        names.sort();
        names
    }

    #[test]
    fn full_sight_sees_everything_and_a_little_sight_a_little() {
        let game = game_with(19, &[(Color::Black, "Q16"), (Color::White, "D4")]);
        let mut rng = SmallRng::seed_from_u64(3);
        assert_eq!(seen_moves(&game, Color::Black, 1.0, 3, &mut rng), None);
        let counts: Vec<usize> = (0..200)
            .map(|_| {
                seen_moves(&game, Color::Black, 0.1, 3, &mut rng)
                    .expect("limited")
                    .len()
            })
            .collect();
        let mean = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
        // 359 legal points, the 72 of the first line all far from both stones.
        assert!((mean - 28.7).abs() < 2.0, "mean {mean}");
        assert!(counts.iter().all(|&n| n >= 1));
    }

    #[test]
    fn nobody_misses_the_atari_of_a_big_chain_nor_looks_at_a_lonely_edge() {
        let game = atari_shape(&[]);
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..50 {
            let seen = seen_moves(&game, Color::Black, 0.0, 3, &mut rng).expect("limited");
            assert_eq!(names(&game, &seen), ["D5"]);
        }
        // With a bigger threshold the chain is not big enough to be seen by everyone.
        let seen = seen_moves(&game, Color::Black, 0.0, 5, &mut rng).expect("limited");
        assert_eq!(seen.len(), 1, "one move all the same");
        // First-line points far from every stone are never seen; those near one are.
        for _ in 0..50 {
            let seen = seen_moves(&game, Color::White, 0.9, 3, &mut rng).expect("limited");
            let names = names(&game, &seen);
            assert!(!names.contains(&"J1".to_string()), "{names:?}");
            assert!(!names.contains(&"A5".to_string()), "{names:?}");
            assert!(names.contains(&"D5".to_string()), "the capture: {names:?}");
        }
        let near: usize = (0..200)
            .filter(|_| {
                let seen = seen_moves(&game, Color::White, 0.9, 3, &mut rng).expect("limited");
                names(&game, &seen).contains(&"C1".to_string())
            })
            .count();
        assert!(near > 150, "C1, near C2, seen {near} times of 200");
    }

    #[test]
    fn the_capture_of_a_big_enemy_chain_in_atari_is_always_seen() {
        // The same shape, White to play: D5 takes four stones.
        let game = atari_shape(&[(Color::Black, "A9")]);
        let mut rng = SmallRng::seed_from_u64(9);
        for _ in 0..50 {
            let seen = seen_moves(&game, Color::White, 0.0, 3, &mut rng).expect("limited");
            assert_eq!(names(&game, &seen), ["D5"]);
        }
    }
}
