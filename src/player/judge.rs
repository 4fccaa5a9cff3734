//! The dead-stone judge: which stones are dead and which are in seki at the end of a game,
//! for `final_status_list`, `final_score`, the player's decision to pass and the cleanup
//! moves of `kgs-genmove_cleanup` ([`judge`], [`life_and_death`]).
//!
//! Three tools, each covering another's blind spot. The quick Monte Carlo estimate
//! ([`crate::knowledge::ownership::estimate`]) plays cautious playouts (they capture a chain
//! the last move left in atari and never put their own chain in atari) and keeps invaders
//! out of areas that are clearly the opponent's: it is right on clear-cut territory and
//! blind to anything that needs reading, such as a dead shape whose killing moves are
//! self-ataris. The tree searches of [`judge`] read those, with their playouts kept out of
//! the areas the quick estimate found clear. Where a chain short of liberties is in a race
//! or has a small eye space, exact capture reading ([`Board::read_capture`]) settles what
//! both get wrong, such as a race won by taking a neighbour and gaining a liberty, and its
//! proofs override them ([`read_fights`]). Everything is deterministic (fixed seeds, one
//! thread, an exhaustive reading) so that the same position is always judged the same way.

use super::params::Params;
use crate::board::capture::{Fate, READ_LIBERTIES};
use crate::board::Board;
use crate::coord::{Color, Move, Point, PointSet};
use crate::game::Game;
use crate::knowledge::ownership::{self, CLEAR_OWNERSHIP};
use crate::knowledge::playout::Forbidden;
use crate::net::SharedNet;
use crate::score::Status;
use crate::search::{Budget, Search, SearchConfig};
use crate::setup;
use std::sync::atomic::AtomicBool;

/// Fixed seed of the judgement, so that tests and repeated queries agree.
pub const JUDGE_SEED: u64 = 0x0005_eed0_f0ed;

/// The dead stones and the stones in seki at the end of `game`, judged with the budgets of
/// `params` ([`super::params::PlayerParams::judge_playouts`], [`super::params::PlayerParams::judge_search_playouts`]; the referee of a
/// match keeps the defaults). Rules without dead-stone removal (Tromp-Taylor) have neither:
/// every stone on the board is alive.
///
/// Stones are judged as a strong player judges them when the game ends: alive if they
/// cannot be captured even when the opponent plays first and plays to gain, dead if he can
/// take them. This is also the Japanese rules' test (J89, art. 7 and the confirmation
/// phase), and it settles an unresolved ko: a group that still needs to win a ko to live is
/// dead, since on a finished board nobody has ko threats left and the side that takes the
/// ko first then connects.
///
/// The judgement averages the ownership of two tree searches ([`attacked_ownership`]),
/// one for each color moving first and having to end at least one point better than the
/// quick Monte Carlo estimate of the score ([`ownership::estimate`]) while the other only
/// has to keep it. The search plays to win, not to maximise the score: in a decided game it
/// would play anything, hence a komi that makes the next point decide. The side that must
/// gain tries every way to take stones (and so kills what the estimate wrongly let live);
/// the side that must keep answers every attempt (and so kills what the estimate rightly
/// counted dead, when the other tries to save it). The tree reads what the playouts alone
/// get wrong: a dead shape in a corner that random play, which avoids self-ataris, never
/// kills; a group alive only by ko; a sacrifice that breaks a false seki.
///
/// With a network that has an ownership head, its ownership of the position enters the
/// verdict at the weight [`super::params::PlayerParams::judge_net`] ([`net_ownership`]).
pub fn judge(game: &Game, params: &Params, net: Option<SharedNet>) -> Status {
    if !game.rules().dead_stone_removal {
        return Status::default();
    }
    life_and_death(game, params, net)
}

/// The dead stones and seki as [`judge`] finds them, whatever the rules do with them: under
/// Tromp-Taylor nothing is removed at the count, but `kgs-genmove_cleanup` must still know
/// which stones to capture before passing.
pub fn life_and_death(game: &Game, params: &Params, net: Option<SharedNet>) -> Status {
    let board = game.board();
    let learnt = net
        .filter(|_| params.player.judge_net > 0.0)
        .and_then(|n| net_ownership(game, n));
    let weight = if learnt.is_some() {
        params.player.judge_net.min(1.0)
    } else {
        0.0
    };
    let searched = if weight < 1.0 {
        searched_ownership(game, params)
    } else {
        Vec::new()
    };
    let g = board.geometry();
    let value = |p: Point| {
        let i = g.vertex_index(p);
        let search = searched.get(i).copied().unwrap_or(0.0);
        let net = learnt
            .as_ref()
            .and_then(|o| o.get(i))
            .copied()
            .unwrap_or(0.0);
        (1.0 - weight) * search + weight * f64::from(net)
    };
    chain_verdicts(board, value, &Reading::of(board))
}

/// The ownership (vertex order, from -1, White's, to +1, Black's) that the two searches of
/// [`attacked_ownership`] find on average.
fn searched_ownership(game: &Game, params: &Params) -> Vec<f64> {
    let board = game.board();
    let quick = ownership::estimate(
        board,
        game.to_move(),
        params.player.judge_playouts,
        JUDGE_SEED,
    );
    let lead = quick.mean_lead();
    log::debug!("judge: quick lead {lead:.1}");
    let clear = quick.clear_areas(board, CLEAR_OWNERSHIP);
    let playouts = params.player.judge_search_playouts;
    let searches = [Color::Black, Color::White]
        .map(|c| attacked_ownership(game, c, lead.round(), clear, playouts));
    // Both are row-major, which is vertex order.
    let [first, second] = searches;
    first
        .iter()
        .zip(&second)
        .map(|(a, b)| f64::from(a + b) / 2.0)
        .collect()
}

/// The network's ownership of `game`'s position from Black's side (vertex order), if it
/// has an ownership head. A network judges the whole board at once, far from any group it
/// reads a shape as a strong player does, where the searches' playouts may miss a dead
/// shape or a living one; but it was trained on positions before the end, with the
/// players' own moves, and may misjudge what they never left on the board.
pub fn net_ownership(game: &Game, net: SharedNet) -> Option<Vec<f32>> {
    if !net.heads().ownership {
        return None;
    }
    let output = net.evaluate_game(game);
    let sign = game.to_move().sign();
    output
        .ownership
        .as_ref()
        .map(|o| o.iter().map(|&x| sign * x).collect())
}

/// The ownership (row-major, as [`crate::search::SearchResult::ownership`]) found by a
/// deterministic search (one thread, fixed seed, `playouts`) of the position with
/// `attacker` to move and a komi such that he wins only by ending at least one point better
/// than Black's area lead `lead`. The position is searched without its history (two passes
/// already played would end every line at once) and without handicap (the komi already
/// says what each side must reach).
pub fn attacked_ownership(
    game: &Game,
    attacker: Color,
    lead: f64,
    clear: Forbidden,
    playouts: u64,
) -> Vec<f32> {
    let board = game.board();
    let komi = match attacker {
        Color::Black => lead + 0.5,
        Color::White => lead - 0.5,
    };
    let unknown = vec![0.0; game.size() * game.size()];
    let Some(mut fresh) = Game::new(game.size(), game.rules(), komi) else {
        return unknown;
    };
    let stones = board
        .geometry()
        .points()
        .filter_map(|p| board.color_at(p).map(|c| (p, c)));
    if !fresh.set_position(stones, attacker) {
        return unknown;
    }
    let budget = Budget {
        visits: Some(playouts),
        time: None,
    };
    // The default knowledge, without the network: the verdict must not change with the
    // playing settings.
    let kit = setup::judge_kit();
    let config = kit.config(1, SearchConfig::default().max_memory);
    let mut search = Search::new(config, kit.knowledge, JUDGE_SEED);
    search.set_forbidden(clear);
    search
        .run(&fresh, attacker, budget, &AtomicBool::new(false))
        .ownership
}

/// The dead stones and those in seki. Where reading settles a chain's fight ([`Reading`]),
/// its verdict stands. Every other chain is judged as one, by its ownership from its own
/// side averaged over its stones (`value(p)` is from -1, White's, to +1, Black's): dead when
/// that average is negative, except next to a sure seki liberty (random play breaks a seki
/// at once, as the first to fill a shared liberty loses, so the playouts' verdict on a real
/// seki is a coin toss). Then the chains around each seki liberty are in seki if it is sure,
/// or if none of them is dead (a candidate seki the ownership confirms).
fn chain_verdicts(board: &Board, value: impl Fn(Point) -> f64, read: &Reading) -> Status {
    let g = board.geometry();
    let liberties = seki_liberties(board);
    let mut sure = PointSet::new();
    for &(p, _) in liberties.iter().filter(|&&(_, is_sure)| is_sure) {
        for n in g
            .neighbours(p)
            .into_iter()
            .filter(|&n| board.cell(n).is_stone())
        {
            insert_chain(board, n, &mut sure);
        }
    }
    let mut status = Status::default();
    for p in g.points() {
        let Some(color) = board.color_at(p) else {
            continue;
        };
        if board.chain(p) != p {
            continue;
        }
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        let (sum, count) = board
            .chain_stones(p)
            .fold((0.0, 0), |(sum, n), s| (sum + sign * value(s), n + 1));
        let kept = sum / f64::from(count);
        log::debug!("chain {}: {count} stones, kept {kept:.2}", g.name(p));
        let dead = if read.dead.contains(p) {
            true
        } else if read.alive.contains(p) {
            false
        } else {
            kept < 0.0 && !sure.contains(p)
        };
        if dead {
            insert_chain(board, p, &mut status.dead);
        }
    }
    for (p, is_sure) in liberties {
        let chains = g
            .neighbours(p)
            .into_iter()
            .filter(|&n| board.cell(n).is_stone());
        if is_sure || chains.clone().all(|n| !status.dead.contains(n)) {
            chains.for_each(|n| insert_chain(board, n, &mut status.seki));
        }
    }
    status
}

/// A chain's fight as reading finds it ([`Board::read_capture`]), for the chains with at
/// most [`READ_LIBERTIES`] whose reading proves something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fight {
    /// A stone of the chain.
    pub chain: Point,
    pub verdict: Verdict,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Captured even when its owner plays first.
    Dead,
    /// Captured when the opponent plays first (with `attack`), saved when the owner does
    /// (with `defence`), in a race with an opposing chain that is short of liberties too:
    /// whoever plays first wins it.
    Open { attack: Point, defence: Move },
    /// Not captured even when the opponent plays first.
    Holds,
}

/// The fights of every chain on `board` short of liberties, in board order. Deterministic.
pub fn read_fights(board: &Board) -> Vec<Fight> {
    let g = board.geometry();
    g.points()
        .filter(|&p| board.cell(p).is_stone() && board.chain(p) == p)
        .filter(|&p| board.liberty_count(p) <= READ_LIBERTIES)
        .filter_map(|p| read_fight(board, p).map(|verdict| Fight { chain: p, verdict }))
        .inspect(|f| log::debug!("fight of {}: {:?}", g.name(f.chain), f.verdict))
        .collect()
}

/// The verdict of reading on the chain on `p`, if it proves one.
fn read_fight(board: &Board, p: Point) -> Option<Verdict> {
    let owner = board.color_at(p)?;
    let attacked = board.read_capture(p, owner.opponent());
    match (attacked.fate, attacked.first) {
        (Fate::Escapes, _) => Some(Verdict::Holds),
        (Fate::Captured, Move::Play(attack)) => {
            let defended = board.read_capture(p, owner);
            match defended.fate {
                Fate::Captured => Some(Verdict::Dead),
                Fate::Escapes if in_race(board, p) => Some(Verdict::Open {
                    attack,
                    defence: defended.first,
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether the chain on `p` touches an opposing chain that is short of liberties too.
fn in_race(board: &Board, p: Point) -> bool {
    let g = board.geometry();
    let opponent = board.color_at(p).map(Color::opponent);
    board.chain_stones(p).any(|s| {
        g.neighbours(s)
            .into_iter()
            .any(|n| board.color_at(n) == opponent && board.liberty_count(n) <= READ_LIBERTIES)
    })
}

/// The move `color` (to move in `game`) must play rather than pass: while a race on the
/// board goes to whoever plays first ([`Verdict::Open`]), passing gives it away, and
/// playing it costs nothing under area scoring. The move of the largest such chain, the
/// attack on an opposing chain or the defence of his own; `None` when no race is open.
pub fn race_move(game: &Game, color: Color) -> Option<Move> {
    let board = game.board();
    read_fights(board)
        .into_iter()
        .filter_map(|fight| match fight.verdict {
            Verdict::Open { attack, defence } => {
                let own = board.color_at(fight.chain) == Some(color);
                let mv = if own { defence } else { Move::Play(attack) };
                Some((board.chain_len(fight.chain), mv))
            }
            _ => None,
        })
        .filter(|&(_, mv)| mv != Move::Pass && game.is_legal(color, mv))
        .max_by_key(|&(stones, _)| stones)
        .map(|(_, mv)| mv)
}

/// What reading settles for the count: the chains it proves dead, and those it proves
/// alive (they hold even when the opponent plays first: the winners of a race, both sides
/// of a seki, a group whose eyes the attacker may not fill), whatever the playouts say.
#[derive(Default)]
struct Reading {
    dead: PointSet,
    alive: PointSet,
}

impl Reading {
    fn of(board: &Board) -> Reading {
        let mut reading = Reading::default();
        for fight in read_fights(board) {
            match fight.verdict {
                Verdict::Dead => insert_chain(board, fight.chain, &mut reading.dead),
                Verdict::Holds => insert_chain(board, fight.chain, &mut reading.alive),
                Verdict::Open { .. } => {}
            }
        }
        reading
    }
}

fn insert_chain(board: &Board, p: Point, set: &mut PointSet) {
    board.chain_stones(p).for_each(|s| {
        set.insert(s);
    });
}

/// A chain of this many stones or fewer, given up by filling a shared liberty, may leave
/// the capturer a dead eye shape (up to the straight and bent three): such a sacrifice can
/// kill, as in a ring around two stones that share its last two liberties, so a seki that
/// relies on nobody making it is only a candidate the ownership must confirm.
const NAKADE_STONES: usize = 3;

/// The seki liberties: empty points next to both colors that neither player can fill
/// without putting his own chain in atari (or committing suicide), each with whether the
/// seki is sure (neither side can fill it with a small, possibly killing, sacrifice). Dame
/// between safe groups is not seki, since filling it costs nothing; a dead chain next to a
/// safe group is not either, since the safe side fills at no risk. Under area scoring seki
/// stones count like live ones; under territory scoring their eyes count for nobody.
fn seki_liberties(board: &Board) -> Vec<(Point, bool)> {
    board
        .geometry()
        .points()
        .filter_map(|p| seki_liberty(board, p).map(|sure| (p, sure)))
        .collect()
}

/// If `p` is an empty point next to both colors that both would only fill at the price
/// of their own chain: whether the seki is sure (neither price is a small sacrifice).
fn seki_liberty(board: &Board, p: Point) -> Option<bool> {
    if board.cell(p).is_stone() {
        return None;
    }
    let g = board.geometry();
    let mut sure = true;
    for color in [Color::Black, Color::White] {
        if !g
            .neighbours(p)
            .iter()
            .any(|&n| board.color_at(n) == Some(color))
        {
            return None;
        }
        sure &= stones_given_by_filling(board, p, color)? > NAKADE_STONES;
    }
    Some(sure)
}

/// The stones `color` would leave in atari by filling `p` (`usize::MAX` when it may not
/// play there at all), or `None` when filling is safe.
fn stones_given_by_filling(board: &Board, p: Point, color: Color) -> Option<usize> {
    let mut after = board.clone();
    if board.check(color, p).is_err() || after.play(color, Move::Play(p)).is_err() {
        return Some(usize::MAX);
    }
    (after.liberty_count(p) <= 1).then(|| after.chain_len(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ruleset;

    /// A game on a board drawn as rows from the top (`X` black, `O` white).
    pub(crate) fn game_from_rows(rows: &[&str], rules: Ruleset, to_move: Color) -> Game {
        let size = rows.len();
        let mut game = Game::new(size, rules, 7.5).unwrap();
        let g = game.board().geometry();
        let stones = rows.iter().enumerate().flat_map(|(r, line)| {
            line.chars()
                .filter(|c| !c.is_whitespace())
                .enumerate()
                .filter_map(move |(col, ch)| {
                    let v = crate::coord::Vertex::new(col, size - 1 - r);
                    match ch {
                        'X' => Some((g.point(v), Color::Black)),
                        'O' => Some((g.point(v), Color::White)),
                        _ => None,
                    }
                })
        });
        assert!(game.set_position(stones, to_move));
        game
    }

    fn names(game: &Game, set: &PointSet) -> Vec<String> {
        let g = game.board().geometry();
        let mut v: Vec<String> = set.iter().map(|p| g.name(p)).collect();
        v.sort();
        v
    }

    /// White's B4 in Black's area and Black's H7 in White's, both dead, `to_move` to play.
    fn two_lone_stones(to_move: Color) -> Game {
        game_from_rows(
            &[
                ". . . X O . . . .",
                ". . . X O . . . .",
                ". . . X O . . X .",
                ". . . X O . . . .",
                ". . . X O . . . .",
                ". O . X O . . . .",
                ". . . X O . . . .",
                ". . . X O . . . .",
                ". . . X O . . . .",
            ],
            Ruleset::FRENCH,
            to_move,
        )
    }

    #[test]
    fn a_lone_stone_in_territory_is_dead() {
        let game = two_lone_stones(Color::Black);
        let status = judge(&game, &Params::default(), None);
        assert_eq!(names(&game, &status.dead), ["B4", "H7"]);
        assert!(status.seki.is_empty());
        assert_eq!(game.score(&status).result().to_string(), "W+16.5");
    }

    #[test]
    fn dead_groups_die_and_a_living_invasion_lives() {
        // White B4-C4-C3 and Black G6-H6-H7 are dead; White's corner group A1-D4 has four
        // eyes inside Black's side and lives.
        let game = game_from_rows(
            &[
                ". . . X O . . . .",
                ". . . X O . . . .",
                ". . . X O O O X .",
                ". . . X X O X X .",
                "X X X X X O O . .",
                "O O O O X O . . .",
                ". O . O X O . . .",
                "O O O O X O . . .",
                ". O . O X O . . .",
            ],
            Ruleset::FRENCH,
            Color::Black,
        );
        let status = judge(&game, &Params::default(), None);
        assert_eq!(names(&game, &status.dead), ["G6", "H6", "H7"]);
        let game = game_from_rows(
            &[
                ". . . X O . . . .",
                ". . . X O . . . .",
                ". . . X O O O X .",
                ". . . X X O X X .",
                ". . . . X O O . .",
                ". O O . X O . . .",
                ". . O . X O . . .",
                ". . . . X O . . .",
                ". . . . X O . . .",
            ],
            Ruleset::FRENCH,
            Color::Black,
        );
        let status = judge(&game, &Params::default(), None);
        assert_eq!(
            names(&game, &status.dead),
            ["B4", "C3", "C4", "G6", "H6", "H7"]
        );
        assert_eq!(game.score(&status).result().to_string(), "W+4.5");
    }

    #[test]
    fn the_ffg_counting_example_is_won_by_white_by_four_and_a_half() {
        // Black E1-E6 and D6-D9, White F1-F7 and E7-E9: 42 points to 39 + 7.5.
        let game = game_from_rows(
            &[
                ". . . X O . . . .",
                ". . . X O . . . .",
                ". . . X O O . . .",
                ". . . X X O . . .",
                ". . . . X O . . .",
                ". . . . X O . . .",
                ". . . . X O . . .",
                ". . . . X O . . .",
                ". . . . X O . . .",
            ],
            Ruleset::FRENCH,
            Color::Black,
        );
        let status = judge(&game, &Params::default(), None);
        assert!(status.dead.is_empty() && status.seki.is_empty());
        let score = game.score(&status);
        assert_eq!((score.black(), score.white()), (42.0, 46.5));
        assert_eq!(score.result().to_string(), "W+4.5");
    }

    #[test]
    fn tromp_taylor_removes_nothing() {
        let game = game_from_rows(
            &[
                ". . X O .",
                ". . X O .",
                ". . X O X",
                ". . X O .",
                ". . X O .",
            ],
            Ruleset::TROMP_TAYLOR,
            Color::Black,
        );
        assert!(judge(&game, &Params::default(), None).dead.is_empty());
    }

    #[test]
    fn a_ring_around_two_stones_is_dead_not_in_seki() {
        // White's ring B1-E3 and Black's C2-D2 share C1 and D1, and neither can fill one
        // without being captured; but Black's fill is a sacrifice that kills: Black C1,
        // White D1 takes three stones, Black C2 on the vital point of the bent three left.
        // So the ring is dead (GNU Go 3.8 agrees) and nothing is in seki.
        let game = game_from_rows(
            &[
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                "X X X X X X . . .",
                "X O O O O X . . .",
                "X O X X O X . . .",
                "X O . . O X . . .",
            ],
            Ruleset::JAPANESE,
            Color::White,
        );
        let status = judge(&game, &Params::default(), None);
        assert_eq!(
            names(&game, &status.dead),
            ["B1", "B2", "B3", "C3", "D3", "E1", "E2", "E3"]
        );
        assert!(status.seki.is_empty());
        // Japanese count: all 67 points not holding a Black stone, and 8 prisoners.
        let score = game.score(&status);
        assert_eq!((score.territory, score.prisoners), ([67, 0], [8, 0]));
        assert_eq!(score.result().to_string(), "B+67.5");
    }

    /// A network that says the same of every position: `black_ownership` (vertex order,
    /// Black's side), turned to the side to move's as a network answers.
    struct FixedOwnership {
        black_ownership: Vec<f32>,
        has_ownership: bool,
    }

    impl crate::net::Network for FixedOwnership {
        fn describe(&self) -> String {
            "fixed ownership".into()
        }

        fn heads(&self) -> crate::net::Heads {
            crate::net::Heads {
                ownership: self.has_ownership,
                ..Default::default()
            }
        }

        fn history(&self) -> usize {
            0
        }

        fn evaluator(&'static self, _: usize) -> Box<dyn crate::net::Evaluator> {
            Box::new(self)
        }
    }

    impl crate::net::Evaluator for &'static FixedOwnership {
        fn evaluate(
            &mut self,
            position: &crate::game::Position<'_>,
            komis: &[f64],
            outputs: &mut Vec<std::sync::Arc<crate::net::Output>>,
        ) {
            let sign = position.to_move.sign();
            let ownership: Vec<f32> = self.black_ownership.iter().map(|&o| sign * o).collect();
            let n = self.black_ownership.len();
            outputs.clear();
            outputs.extend(komis.iter().map(|_| {
                std::sync::Arc::new(crate::net::Output {
                    policy: vec![0.0; n],
                    pass: None,
                    value: None,
                    score_lead: None,
                    ownership: Some(ownership.clone()),
                    ..Default::default()
                })
            }));
        }
    }

    /// The board of [`two_lone_stones`] with `to_move`, and a network
    /// that counts Black's H7 stone, dead in White's area, as alive and owning its point.
    fn a_network_that_saves_h7(to_move: Color, has_ownership: bool) -> (Game, SharedNet) {
        let game = two_lone_stones(to_move);
        let g = game.board().geometry();
        let h7 = g.vertex_index(g.point(crate::coord::Vertex::new(7, 6)));
        let mut black_ownership: Vec<f32> = (0..81)
            .map(|i| if i % 9 < 4 { 1.0 } else { -1.0 })
            .collect();
        black_ownership[h7] = 1.0;
        let net = SharedNet::new(FixedOwnership {
            black_ownership,
            has_ownership,
        });
        (game, net)
    }

    fn with_judge_net(weight: f64) -> Params {
        let mut params = Params::default();
        params.player.judge_net = weight;
        params
    }

    #[test]
    fn the_networks_ownership_decides_at_full_weight() {
        for to_move in [Color::Black, Color::White] {
            let (game, net) = a_network_that_saves_h7(to_move, true);
            let status = judge(&game, &with_judge_net(1.0), Some(net));
            assert_eq!(names(&game, &status.dead), ["B4"], "{to_move:?} to move");
            // Where the network and the searches agree, so does their mix: White's B4 in
            // Black's area is dead.
            let status = judge(&game, &with_judge_net(0.5), Some(net));
            assert!(names(&game, &status.dead).contains(&"B4".to_string()));
        }
    }

    #[test]
    fn the_searches_decide_without_an_ownership_head_or_weight() {
        let (game, net) = a_network_that_saves_h7(Color::Black, true);
        let status = judge(&game, &with_judge_net(0.0), Some(net));
        assert_eq!(names(&game, &status.dead), ["B4", "H7"]);
        let (game, net) = a_network_that_saves_h7(Color::Black, false);
        let status = judge(&game, &with_judge_net(1.0), Some(net));
        assert_eq!(names(&game, &status.dead), ["B4", "H7"]);
    }
}
