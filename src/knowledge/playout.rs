//! Playouts: how a position is played out to the end and counted. There is one loop,
//! [`play_out`], and one move choice, [`choose`], with a [`PlayoutPolicy`] saying how heavy
//! the play is: [`PlayoutPolicy::LIGHT`] is uniform random play that never fills its own eyes
//! (the board benchmark), [`PlayoutPolicy::HEAVY`] the tree search's simulations, and
//! [`PlayoutPolicy::CAUTIOUS`] the quick ownership estimate of the dead-stone judge.
//!
//! Uniform random moves make poor judges; a few local rules in the MoGo tradition make the
//! playouts play like Go while keeping them fast:
//! 1. answer the last move's ataris: capture a chain it left in atari, save our chains it
//!    put in atari (by capturing a neighbour, or extending when a ladder cannot follow);
//! 2. local tactics around the last move: an atari on its chain that the chain cannot
//!    escape even by one step, or saving our chain it left with two liberties from such an
//!    atari (full ladders are read for the tree's priors and for escapes, not here: reading
//!    one after most moves of every playout would cost a third of the playouts);
//! 3. kill an eye space the last move closed: play the vital point of a small area (nakade);
//! 4. play a good 3×3 shape next to the last move;
//! 5. otherwise a random move, never filling one of our own eyes and, most of the time, not
//!    putting our own chain in atari.
//!
//! Each rule fires with a probability below 1: some randomness keeps the playouts from
//! repeating one mistake in every simulation.

use super::patterns;
use crate::board::tactics::SmallSet;
use crate::board::Board;
use crate::coord::{Color, Move, Point, PointSet};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore};

/// How heavy the playouts are. Probabilities are in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutPolicy {
    /// Chance of looking for atari answers around the last move.
    pub atari: f64,
    /// Whether the atari answers include saving our own chains (else only captures).
    pub escapes: bool,
    /// Chance of looking for two-liberty tactics (ladders) around the last move.
    pub tactics: f64,
    /// Chance of playing the vital point of a small eye space next to the last move.
    pub nakade: f64,
    /// Chance of looking for 3×3 patterns around the last move.
    pub pattern: f64,
    /// Chance of refusing a random move that puts one of our chains of two or more stones in
    /// atari.
    pub self_atari: f64,
    /// Chance of refusing a random move that puts a lone new stone in atari: lower than
    /// `self_atari` in the search's playouts, because a lone stone's self-atari can be a
    /// useful throw-in.
    pub lone_self_atari: f64,
    /// Moves a playout may last, per point of the board ([`PlayoutPolicy::max_moves`]):
    /// 3 is far beyond a real game (captures refill the board), yet a bound against a cycle
    /// of captures.
    pub moves_per_point: usize,
}

impl PlayoutPolicy {
    /// The tree search's playouts. Each rule fires with a probability below 1, so that the
    /// playouts do not repeat one mistake in every simulation; a lone stone's self-atari is
    /// refused half as often as a chain's.
    pub const HEAVY: PlayoutPolicy = PlayoutPolicy {
        atari: 0.9,
        escapes: true,
        tactics: 0.9,
        nakade: 0.8,
        pattern: 0.9,
        self_atari: 0.9,
        lone_self_atari: 0.45,
        moves_per_point: 3,
    };

    /// Uniform random moves that do not fill own eyes: the board benchmark, and the
    /// baseline of Monte Carlo Go.
    pub const LIGHT: PlayoutPolicy = PlayoutPolicy {
        atari: 0.0,
        escapes: false,
        tactics: 0.0,
        nakade: 0.0,
        pattern: 0.0,
        self_atari: 0.0,
        lone_self_atari: 0.0,
        moves_per_point: 3,
    };

    /// The quick ownership estimate's playouts ([`super::ownership::estimate`]): each side
    /// always captures what the last move left in atari and never puts its own stones in
    /// atari, but reads nothing else. Uniform play throws away big walls by filling their
    /// last liberties itself; this play keeps clear-cut territory clear, and is blind to
    /// what needs reading, which the judge's tree searches supply.
    pub const CAUTIOUS: PlayoutPolicy = PlayoutPolicy {
        atari: 1.0,
        escapes: false,
        tactics: 0.0,
        nakade: 0.0,
        pattern: 0.0,
        self_atari: 1.0,
        lone_self_atari: 1.0,
        moves_per_point: 3,
    };

    /// Moves a playout may last on a board of `size`.
    pub fn max_moves(&self, size: usize) -> usize {
        self.moves_per_point * size * size
    }
}

/// Empty points where each color may not play in a playout, except to capture or to save
/// a chain in atari. The dead-stone judge forbids each side the points its quick estimate
/// found clearly the opponent's: in free play the owner of a big area tenukis half the time
/// while the invader keeps adding stones, so that dead stones live in many playouts; once
/// the invader cannot wander in, they die as they would in a game. The normal search
/// forbids nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forbidden {
    points: [PointSet; 2],
    /// Whether any point is forbidden: when none is (every search but the judge's), the
    /// random move's scan skips the lookup.
    any: bool,
}

impl Forbidden {
    /// Forbids `color` to play on `p`.
    pub fn forbid(&mut self, color: Color, p: Point) {
        self.points[color.index()].insert(p);
        self.any = true;
    }

    #[inline]
    pub fn allows(&self, color: Color, p: Point) -> bool {
        !(self.any && self.points[color.index()].contains(p))
    }
}

/// The moves of one simulation, in order, for the AMAF statistics.
pub type MoveRecord = Vec<(Point, Color)>;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Moves played (passes included).
    pub moves: usize,
    /// Black's area minus White's area on the final board (komi not included).
    pub black_lead: i32,
}

/// Plays `board` out from `to_move` (the opponent's last move being `last`) until two
/// passes in a row or [`PlayoutPolicy::max_moves`], recording every stone played and never playing where
/// `forbidden` says (except atari answers); then counts the final board by area.
///
/// Always inlined, so that a caller with a constant policy (the board benchmark's
/// [`PlayoutPolicy::LIGHT`]) gets the loop with the rules it does not use folded away, as
/// fast as a loop written for uniform random play alone.
#[inline(always)]
pub fn play_out(
    board: &mut Board,
    to_move: Color,
    last: Move,
    config: &PlayoutPolicy,
    forbidden: &Forbidden,
    rng: &mut SmallRng,
    record: &mut MoveRecord,
) -> PlayoutEnd {
    let max_moves = config.max_moves(board.size());
    let mut color = to_move;
    let mut last = last;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < max_moves {
        let mv = choose(board, color, last, config, forbidden, rng);
        match mv {
            Move::Play(p) => {
                board.place(color, p);
                record.push((p, color));
                passes = 0;
            }
            Move::Pass => {
                board.pass();
                passes += 1;
            }
        }
        last = mv;
        moves += 1;
        color = color.opponent();
    }
    PlayoutEnd {
        moves,
        black_lead: board.area_lead(),
    }
}

/// One uniform random playout ([`PlayoutPolicy::LIGHT`], nothing forbidden) from `board`
/// with `to_move` to play: the board's speed, as the benchmarks measure it.
pub fn light_playout(
    board: &mut Board,
    to_move: Color,
    rng: &mut SmallRng,
    record: &mut MoveRecord,
) -> PlayoutEnd {
    record.clear();
    let nowhere = Forbidden::default();
    play_out(
        board,
        to_move,
        Move::Pass,
        &PlayoutPolicy::LIGHT,
        &nowhere,
        rng,
        record,
    )
}

/// The policy's move for `color`.
#[inline(always)]
pub fn choose(
    board: &Board,
    color: Color,
    last: Move,
    config: &PlayoutPolicy,
    forbidden: &Forbidden,
    rng: &mut SmallRng,
) -> Move {
    if let Move::Play(last) = last {
        if board.color_at(last).is_some() {
            if config.atari > 0.0 && rng.gen_bool(config.atari) {
                if let Some(p) = pick(&atari_answers(board, color, last, config.escapes), rng) {
                    return Move::Play(p);
                }
            }
            if config.tactics > 0.0 && rng.gen_bool(config.tactics) {
                if let Some(p) = pick(&two_liberty_moves(board, color, last), rng) {
                    if forbidden.allows(color, p) {
                        return Move::Play(p);
                    }
                }
            }
            if config.nakade > 0.0 && rng.gen_bool(config.nakade) {
                if let Some(p) = nakade(board, color, last) {
                    if forbidden.allows(color, p) {
                        return Move::Play(p);
                    }
                }
            }
            if config.pattern > 0.0 && rng.gen_bool(config.pattern) {
                if let Some(p) = pick(&pattern_moves(board, color, last), rng) {
                    if forbidden.allows(color, p) {
                        return Move::Play(p);
                    }
                }
            }
        }
    }
    random_move(board, color, config, forbidden, rng)
}

fn pick<const N: usize>(set: &SmallSet<N>, rng: &mut SmallRng) -> Option<Point> {
    let moves = set.as_slice();
    (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len())])
}

/// Captures of chains in atari next to the last move, and (with `escapes`) escapes of our
/// chains it put in atari.
pub fn atari_answers(board: &Board, color: Color, last: Point, escapes: bool) -> SmallSet<8> {
    let mut answers = SmallSet::new();
    let g = board.geometry();
    let mut consider = |p: Point| {
        if board.check(color, p).is_ok() {
            answers.insert(p);
        }
    };
    // The last move's own chain, left in atari.
    if let Some(p) = board.atari_liberty(last) {
        consider(p);
    }
    if !escapes {
        return answers;
    }
    // Our chains around it, put in atari.
    let mut seen = SmallSet::<4>::new();
    for n in g.neighbours(last) {
        if board.color_at(n) == Some(color) && board.liberty_count(n) == 1 {
            let head = board.chain(n);
            if !seen.as_slice().contains(&head) {
                seen.insert(head);
                board.atari_escapes(n, &mut consider);
            }
        }
    }
    answers
}

/// Two-liberty tactics around the last move: an atari after which its chain cannot
/// extend to two liberties, and moves that give three liberties to one of our chains it left
/// with two when the opponent has such an atari next.
pub fn two_liberty_moves(board: &Board, color: Color, last: Point) -> SmallSet<8> {
    let mut moves = SmallSet::new();
    if let Some(atari) = board.net_atari(last) {
        moves.insert(atari);
    }
    let g = board.geometry();
    let mut seen = SmallSet::<4>::new();
    for n in g.neighbours(last) {
        if board.color_at(n) != Some(color) || board.liberty_count(n) != 2 {
            continue;
        }
        let head = board.chain(n);
        if seen.as_slice().contains(&head) {
            continue;
        }
        seen.insert(head);
        if board.net_atari(n).is_some() {
            save_from_ladder(board, color, n, &mut moves);
        }
    }
    moves
}

/// Adds the liberties of our chain on `s` (two liberties) whose extension gives it three.
pub fn save_from_ladder(board: &Board, color: Color, s: Point, moves: &mut SmallSet<8>) {
    if let Some((a, b)) = board.liberty_pair(s) {
        for lib in [a, b] {
            if board.check(color, lib).is_ok() && board.liberties_after::<3>(color, lib) >= 3 {
                moves.insert(lib);
            }
        }
    }
}

/// The vital point of the small eye space the last move (the opponent's) closed, if we may
/// play there: the attacker's nakade. A vital stone is often a self-atari on purpose.
pub fn nakade(board: &Board, color: Color, last: Point) -> Option<Point> {
    board
        .nakade_point(last)
        .filter(|&p| board.check(color, p).is_ok())
}

/// Empty points around the last move where a 3×3 pattern matches, that are legal, not our
/// own eyes and not self-atari.
pub fn pattern_moves(board: &Board, color: Color, last: Point) -> SmallSet<8> {
    let mut moves = SmallSet::new();
    let g = board.geometry();
    let around = g.neighbours(last).into_iter().chain(g.diagonals(last));
    for p in around {
        if board.cell(p) == crate::board::Cell::Empty
            && patterns::matches(board.neighbourhood_code(p))
            && board.is_sensible(color, p)
            && !board.is_self_atari(color, p)
        {
            moves.insert(p);
        }
    }
    moves
}

/// A random move that does not fill our own eye nor play where forbidden, refusing most
/// self-ataris; `Pass` when nothing is left.
fn random_move(
    board: &Board,
    color: Color,
    config: &PlayoutPolicy,
    forbidden: &Forbidden,
    rng: &mut SmallRng,
) -> Move {
    let empties = board.empty_points();
    let n = empties.len();
    if n == 0 {
        return Move::Pass;
    }
    // A random start by multiply-and-shift (Lemire): uniform enough for playouts (the bias
    // is under n / 2^32) and a third of `gen_range`'s cost, which rejects and retries.
    let mut i = ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize;
    for _ in 0..n {
        let p = empties[i];
        if forbidden.allows(color, p)
            && board.is_sensible(color, p)
            && !refuse_self_atari(board, color, p, config, rng)
        {
            return Move::Play(p);
        }
        i += 1;
        if i == n {
            i = 0;
        }
    }
    Move::Pass
}

fn refuse_self_atari(
    board: &Board,
    color: Color,
    p: Point,
    config: &PlayoutPolicy,
    rng: &mut SmallRng,
) -> bool {
    if (config.self_atari == 0.0 && config.lone_self_atari == 0.0) || !board.is_self_atari(color, p)
    {
        return false;
    }
    let joins_chain = board.neighbours_of(p, color) > 0;
    let chance = if joins_chain {
        config.self_atari
    } else {
        config.lone_self_atari
    };
    rng.gen_bool(chance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn board(black: &str, white: &str) -> (Board, impl Fn(&str) -> Point) {
        crate::board::test_board(9, black, white)
    }

    /// The points of `set` by name, sorted.
    fn names(b: &Board, set: SmallSet<8>) -> Vec<String> {
        let mut v: Vec<String> = set
            .as_slice()
            .iter()
            .map(|&q| b.geometry().name(q))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn answers_an_atari_by_capturing_or_escaping() {
        // White E5 puts Black E4 in atari (E3 left): Black escapes at E3.
        let (b, p) = board("E4", "D4 F4 E5");
        assert_eq!(
            names(&b, atari_answers(&b, Color::Black, p("E5"), true)),
            ["E3"]
        );
        // Same, but White E5 is itself in atari (E6 left): capturing it is offered too.
        let (b, p) = board("E4 D5 F5", "D4 F4 E5");
        assert_eq!(
            names(&b, atari_answers(&b, Color::Black, p("E5"), true)),
            ["E3", "E6"]
        );
        // An escape that stays in atari is not offered: E3 is closed by White D3 F3 E2.
        let (b, p) = board("E4", "D4 F4 E5 D3 F3 E2");
        assert!(atari_answers(&b, Color::Black, p("E5"), true).is_empty());
    }

    #[test]
    fn two_liberty_tactics() {
        // White's last move D4 has two liberties; after Black E4, D5 leaves it one.
        let (b, p) = board("C4 D3 E5 D6", "D4");
        assert_eq!(
            names(&b, two_liberty_moves(&b, Color::Black, p("D4"))),
            ["E4"]
        );
        // Black's last move D3 made that threat: White extends at E4 to three liberties
        // (D5 would leave two).
        assert_eq!(
            names(&b, two_liberty_moves(&b, Color::White, p("D3"))),
            ["E4"]
        );
        // A textbook ladder takes more than one step: the playouts leave it to the tree.
        let (b, p) = board("C4 D3 E5", "D4");
        assert!(two_liberty_moves(&b, Color::Black, p("D4")).is_empty());
        // But running out of atari into the ladder is no answer to the atari.
        let (b, p) = board("C4 D3 E5 D5", "D4");
        assert!(atari_answers(&b, Color::White, p("D5"), true).is_empty());
        let (b, p) = board("C4 D3 E5 D5", "D4 G2");
        assert_eq!(
            names(&b, atari_answers(&b, Color::White, p("D5"), true)),
            ["E4"]
        );
    }

    #[test]
    fn playouts_kill_a_straight_three() {
        // White's last move C2 closes the eye space B1 C1 D1: Black takes its middle.
        let (b, p) = board("", "A1 A2 B2 C2 D2 E2 E1 C3");
        assert_eq!(nakade(&b, Color::Black, p("C2")), Some(p("C1")));
        let mut rng = SmallRng::seed_from_u64(3);
        let config = PlayoutPolicy {
            nakade: 1.0,
            ..PlayoutPolicy::LIGHT
        };
        let mv = choose(
            &b,
            Color::Black,
            Move::Play(p("C2")),
            &config,
            &Forbidden::default(),
            &mut rng,
        );
        assert_eq!(mv, Move::Play(p("C1")));
    }

    #[test]
    fn heavy_playouts_finish_and_capture_what_hangs() {
        // White's last move C3 leaves it in atari: Black captures at once.
        let (b, p) = board("B3 C4 D3", "C3");
        let mut rng = SmallRng::seed_from_u64(1);
        let mut captured = 0;
        for _ in 0..100 {
            if choose(
                &b,
                Color::Black,
                Move::Play(p("C3")),
                &PlayoutPolicy::HEAVY,
                &Forbidden::default(),
                &mut rng,
            ) == Move::Play(p("C2"))
            {
                captured += 1;
            }
        }
        assert!(captured >= 80, "captured {captured} times in 100");
        let mut record = Vec::new();
        let mut board = Board::new(9).unwrap();
        play_out(
            &mut board,
            Color::Black,
            Move::Pass,
            &PlayoutPolicy::HEAVY,
            &Forbidden::default(),
            &mut rng,
            &mut record,
        );
        assert!(record.len() > 40);
        board.verify().unwrap();
    }
}
