//! KataGo's ladder search, as its ladder input features read it (features 14 to 17 of
//! `NNInputs::fillRowV7`, see [`super::inputs`]).
//!
//! The search is KataGo's (lightvector/KataGo, MIT licence, copyright David J. Wu):
//! `Board::searchIsLadderCaptured` and `Board::searchIsLadderCapturedAttackerFirst2Libs` in
//! `cpp/game/board.cpp`, driven over the board by `iterLadders` in
//! `cpp/neuralnet/nninputs.cpp`. This is hoshi's own reading of it, on hoshi's copy-make board.
//!
//! A network trained on these features expects KataGo's verdicts, not the truth about
//! ladders, so the reader keeps KataGo's rules where a better reader would judge otherwise:
//! * the chase is a full search (every atari, every escape, every counter-capture), but the
//!   chased chain counts as escaped the moment the chaser's atari leaves a ko point (a ladder
//!   that hangs on a ko is not called), while at the very start the chased side may retake
//!   any ko;
//! * the chaser wins at once against a chain whose two liberties are both ko mouths it could
//!   take from (a double ko), and the chased side at once when its extension is sure of three
//!   liberties by a quick bound;
//! * a chase deeper than one and a half times the board's points counts as a capture; after
//!   25,000 moves the search gives up and the chain counts as escaped. A search that gave up
//!   on a chain in atari leaves KataGo's board without its ko point, and every later search
//!   on the same board sees it so: that quirk is kept too.
//!
//! The order the moves are tried in (the chain's liberties as the chain's stones list them)
//! cannot be KataGo's, whose chains keep their stones in another order. A search's verdict
//! does not depend on it, except through the 25,000-move budget and one quick bound that
//! reads the last of the escapes listed (see [`Chase::escapes`]).

use crate::board::{Board, Cell};
use crate::coord::{Color, Point, PointSet};

/// Moves one search may play before it gives up (KataGo's `MAX_LADDER_SEARCH_NODE_BUDGET`).
const MOVE_BUDGET: u32 = 25_000;

/// A chain KataGo's ladder search calls lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaughtChain {
    /// The chain's first stone in KataGo's reading order (top row first, each row from
    /// column A).
    pub stone: Point,
    /// For a chain with two liberties: the ataris that start a ladder capturing it. Empty for
    /// a chain already in atari.
    pub catching_ataris: Vec<Point>,
}

/// The chains of both colours with one or two liberties that KataGo's ladder features call
/// lost on `board`: in atari and unable to escape whoever is to move, or with two liberties
/// and an atari that starts a working ladder. In KataGo's reading order.
pub fn caught_chains(board: &Board) -> Vec<CaughtChain> {
    let mut shared = Reading::of(board);
    let mut solved = PointSet::new();
    let mut caught = Vec::new();
    for stone in super::inputs::plane_points(board.geometry()) {
        let libs = board.liberty_count(stone);
        if !(1..=2).contains(&libs) || !solved.insert(board.chain(stone)) {
            continue;
        }
        if libs == 1 {
            match Chase::new(board, stone).run_from_atari(&shared) {
                Verdict::Caught => caught.push(CaughtChain {
                    stone,
                    catching_ataris: Vec::new(),
                }),
                Verdict::Escapes => {}
                // KataGo's search gives up without putting back the ko point it set aside.
                Verdict::GaveUp => shared.ko = None,
            }
        } else {
            let catching_ataris = catching_ataris(&shared, stone);
            if !catching_ataris.is_empty() {
                caught.push(CaughtChain {
                    stone,
                    catching_ataris,
                });
            }
        }
    }
    caught
}

/// The chaser's ataris on the chain of `stone` (two liberties) after which the chain,
/// to move, is caught. The chase after each starts afresh, with a budget of its own.
fn catching_ataris(shared: &Reading, stone: Point) -> Vec<Point> {
    let Some(chased) = shared.board.color_at(stone) else {
        return Vec::new();
    };
    let chaser = chased.opponent();
    shared
        .board
        .liberties(stone)
        .into_iter()
        .filter(|&atari| {
            if !shared.may_play(chaser, atari) {
                return false;
            }
            let mut after = shared.clone();
            after.play(chaser, atari);
            Chase::new(&shared.board, stone).run_from_atari(&after) == Verdict::Caught
        })
        .collect()
}

/// A board as KataGo's ladder search sees it: hoshi's board, with suicide forbidden (it
/// never helps either side in a ladder) and the ko point forbidden to both colours, as on
/// KataGo's board, which does not know whose turn it is.
#[derive(Clone)]
struct Reading {
    board: Board,
    ko: Option<Point>,
}

impl Reading {
    fn of(board: &Board) -> Reading {
        let mut copy = board.clone();
        copy.set_multi_stone_suicide(false);
        Reading {
            board: copy,
            ko: board.ko().map(|(p, _)| p),
        }
    }

    fn may_play(&self, color: Color, p: Point) -> bool {
        self.ko != Some(p)
            && self.board.cell(p) == Cell::Empty
            && self.board.check_ignoring_ko(color, p).is_ok()
    }

    fn play(&mut self, color: Color, p: Point) {
        self.board.place(color, p);
        self.ko = self.board.ko().map(|(k, _)| k);
    }

    fn copy_from(&mut self, other: &Reading) {
        self.board.copy_from(&other.board);
        self.ko = other.ko;
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Caught,
    Escapes,
    /// The move budget ran out: the chain counts as escaped.
    GaveUp,
}

/// One chase of one chain, the chased side to move first.
struct Chase {
    /// A stone of the chased chain (the chain never leaves the board during a chase: the
    /// chaser wins as soon as it is in atari with the chaser to move).
    prey: Point,
    chased: Color,
    moves: u32,
    /// The depth at which a chase counts as a capture.
    max_depth: usize,
    /// Boards for the levels below, reused. Boxed: a board is 15 KB, and a chase may go
    /// hundreds of levels deep.
    spare: Vec<Box<Reading>>,
}

impl Chase {
    /// A chase of the chain of `prey`, a stone of `board`.
    fn new(board: &Board, prey: Point) -> Chase {
        let size = board.size();
        debug_assert!(board.color_at(prey).is_some());
        Chase {
            prey,
            chased: board.color_at(prey).unwrap_or(Color::Black),
            moves: 0,
            max_depth: size * size * 3 / 2,
            spare: Vec::new(),
        }
    }

    /// The verdict on the chain, in atari on `reading` with its owner to move, who may retake
    /// any ko at this first move.
    fn run_from_atari(&mut self, reading: &Reading) -> Verdict {
        if reading.board.liberty_count(self.prey) != 1 {
            return Verdict::Escapes;
        }
        let mut start = reading.clone();
        start.ko = None;
        self.chased_to_move(&start, 0)
    }

    /// The chased side's turn: it extends on its liberty or captures a chaser chain in atari
    /// next to it.
    fn chased_to_move(&mut self, reading: &Reading, depth: usize) -> Verdict {
        if depth >= self.max_depth {
            return Verdict::Caught;
        }
        let board = &reading.board;
        if board.liberty_count(self.prey) >= 2 || reading.ko.is_some() {
            return Verdict::Escapes;
        }
        let escapes = self.escapes(board);
        let Some(&last) = escapes.last() else {
            return Verdict::Caught;
        };
        let (at_least, at_most) = liberty_bounds(board, last, self.chased);
        if at_least >= 3 {
            return Verdict::Escapes;
        }
        if escapes.len() == 1 && at_most <= 1 {
            return Verdict::Caught;
        }
        for p in escapes {
            match self.try_move(reading, self.chased, p, depth) {
                Some(Verdict::Caught) | None => {}
                Some(verdict) => return verdict,
            }
        }
        Verdict::Caught
    }

    /// The chaser's turn: it takes one of the chain's two liberties.
    fn chaser_to_move(&mut self, reading: &Reading, depth: usize) -> Verdict {
        if depth >= self.max_depth {
            return Verdict::Caught;
        }
        let board = &reading.board;
        match board.liberty_count(self.prey) {
            0 | 1 => return Verdict::Caught,
            2 => {}
            _ => return Verdict::Escapes,
        }
        let Some((a, b)) = board.liberty_pair(self.prey) else {
            return Verdict::Escapes;
        };
        if self.is_double_ko(board, a, b) {
            return Verdict::Caught;
        }
        let Some(ataris) = self.ataris(board, a, b) else {
            return Verdict::Escapes;
        };
        for p in ataris.into_iter().flatten() {
            match self.try_move(reading, self.chased.opponent(), p, depth) {
                Some(Verdict::Escapes) | None => {}
                Some(verdict) => return verdict,
            }
        }
        Verdict::Escapes
    }

    /// Plays `p` for `color` on a copy of `reading` and searches on: `None` when the move
    /// is illegal (it is then skipped).
    fn try_move(
        &mut self,
        reading: &Reading,
        color: Color,
        p: Point,
        depth: usize,
    ) -> Option<Verdict> {
        if !reading.may_play(color, p) {
            return None;
        }
        let mut next = self.spare.pop().unwrap_or_else(|| boxed_copy(reading));
        next.copy_from(reading);
        next.play(color, p);
        self.moves += 1;
        let verdict = if self.moves >= MOVE_BUDGET {
            Verdict::GaveUp
        } else if color == self.chased {
            self.chaser_to_move(&next, depth + 1)
        } else {
            self.chased_to_move(&next, depth + 1)
        };
        self.spare.push(next);
        Some(verdict)
    }

    /// The chased side's candidate moves: the liberties of the chaser chains in atari next
    /// to it, then its own liberty, each once. KataGo's quick bounds read the last of them,
    /// which is the chain's own liberty unless a capture already took that point.
    fn escapes(&self, board: &Board) -> Vec<Point> {
        let g = board.geometry();
        let chaser = Cell::stone(self.chased.opponent());
        let mut moves = Vec::new();
        let mut in_atari = Vec::new();
        for s in board.chain_stones(self.prey) {
            for n in g.neighbours(s) {
                if board.cell(n) == chaser
                    && board.liberty_count(n) == 1
                    && !in_atari.contains(&board.chain(n))
                {
                    in_atari.push(board.chain(n));
                    push_new(&mut moves, board.atari_liberty(n));
                }
            }
        }
        push_new(&mut moves, board.atari_liberty(self.prey));
        moves
    }

    /// Whether both liberties `a` and `b` of the chain are ko mouths where the chaser would
    /// take a ko, the chain gains nothing by filling either, and no chaser stone next to it
    /// is in atari: KataGo then calls the chain lost to the double ko.
    fn is_double_ko(&self, board: &Board, a: Point, b: Point) -> bool {
        let chaser = self.chased.opponent();
        [a, b].into_iter().all(|p| {
            board.empty_neighbours(p) == 0
                && would_take_ko(board, p, chaser)
                && liberties_after(board, p, self.chased) <= 2
        }) && !self.can_capture_next_to_prey(board)
    }

    /// The chaser's ataris worth trying, in KataGo's order, from the two liberties `a` and
    /// `b` of the chain; `None` when the chain escapes whichever it takes.
    fn ataris(&self, board: &Board, a: Point, b: Point) -> Option<[Option<Point>; 2]> {
        let g = board.geometry();
        let (open_a, open_b) = (board.empty_neighbours(a), board.empty_neighbours(b));
        // Apart, a liberty with three empty neighbours is where the chain runs away unless
        // the chaser takes it.
        if !g.neighbours(a).contains(&b) {
            match (open_a >= 3, open_b >= 3) {
                (true, true) => return None,
                (true, false) => return Some([Some(a), None]),
                (false, true) => return Some([Some(b), None]),
                (false, false) => {}
            }
        }
        // First the atari that leaves the chain the fewer liberties on its other side.
        let weight = |p: Point, open: usize| 2 * open + connection_weight(board, p, self.chased);
        if weight(b, open_b) > weight(a, open_a) {
            Some([Some(b), Some(a)])
        } else {
            Some([Some(a), Some(b)])
        }
    }

    fn can_capture_next_to_prey(&self, board: &Board) -> bool {
        let chaser = Cell::stone(self.chased.opponent());
        board.chain_stones(self.prey).any(|s| {
            board
                .geometry()
                .neighbours(s)
                .into_iter()
                .any(|n| board.cell(n) == chaser && board.liberty_count(n) == 1)
        })
    }
}

/// A copy of `reading` on the heap, made out of the recursion's frames (which would
/// otherwise each keep room for a board).
#[inline(never)]
fn boxed_copy(reading: &Reading) -> Box<Reading> {
    Box::new(reading.clone())
}

fn push_new(moves: &mut Vec<Point>, p: Option<Point>) {
    if let Some(p) = p.filter(|p| !moves.contains(p)) {
        moves.push(p);
    }
}

/// KataGo's quick bounds on the liberties of a stone of `color` on the empty point `p`,
/// looking at the four neighbours only: at least one per capturing direction plus the
/// better of its empty neighbours and the best friendly chain's other liberties; at most all
/// of them added, each captured stone counted as a liberty.
fn liberty_bounds(board: &Board, p: Point, color: Color) -> (usize, usize) {
    let (mut open, mut captures, mut captured_stones) = (0, 0, 0);
    let (mut friends_total, mut friends_best) = (0, 0);
    for n in board.geometry().neighbours(p) {
        match board.color_at(n) {
            None if board.cell(n) == Cell::Empty => open += 1,
            None => {}
            Some(c) if c == color => {
                let others = board.liberty_count(n) - 1;
                friends_total += others;
                friends_best = friends_best.max(others);
            }
            Some(_) if board.liberty_count(n) == 1 => {
                captures += 1;
                captured_stones += board.chain_len(n);
            }
            Some(_) => {}
        }
    }
    (
        captures + friends_best.max(open),
        open + captured_stones + friends_total,
    )
}

/// KataGo's guess of how much the chain's neighbours gain from `p` (in half liberties):
/// for each neighbouring chain of `color` with two or more liberties, its liberties less
/// one and a half.
fn connection_weight(board: &Board, p: Point, color: Color) -> usize {
    board
        .geometry()
        .neighbours(p)
        .into_iter()
        .filter(|&n| board.color_at(n) == Some(color) && board.liberty_count(n) > 1)
        .map(|n| 2 * board.liberty_count(n) - 3)
        .sum()
}

/// Whether `color` on the empty point `p` would take a ko: every neighbour an enemy stone
/// or the edge, and exactly one of them in atari (counted by direction), a lone stone.
fn would_take_ko(board: &Board, p: Point, color: Color) -> bool {
    if board.cell(p) != Cell::Empty {
        return false;
    }
    let enemy = Cell::stone(color.opponent());
    let mut taken = None;
    for n in board.geometry().neighbours(p) {
        match board.cell(n) {
            Cell::Border => {}
            c if c != enemy => return false,
            _ if board.liberty_count(n) == 1 => {
                if taken.is_some() {
                    return false;
                }
                taken = Some(n);
            }
            _ => {}
        }
    }
    taken.is_some_and(|n| board.chain_len(n) == 1)
}

/// The exact number of liberties of a stone of `color` on the empty point `p` once it has
/// captured what it captures (KataGo's `getNumLibertiesAfterPlay`).
fn liberties_after(board: &Board, p: Point, color: Color) -> usize {
    let g = board.geometry();
    let enemy = Cell::stone(color.opponent());
    let captured: Vec<Point> = g
        .neighbours(p)
        .into_iter()
        .filter(|&n| board.cell(n) == enemy && board.liberty_count(n) == 1)
        .map(|n| board.chain(n))
        .collect();
    let freed = |q: Point| {
        board.cell(q) == Cell::Empty
            || (board.cell(q) == enemy && captured.contains(&board.chain(q)))
    };
    let mut libs = PointSet::new();
    let mut friends = Vec::new();
    for n in g.neighbours(p) {
        if freed(n) {
            libs.insert(n);
        } else if board.color_at(n) == Some(color) && !friends.contains(&board.chain(n)) {
            friends.push(board.chain(n));
            for s in board.chain_stones(n) {
                for q in g.neighbours(s) {
                    if q != p && freed(q) {
                        libs.insert(q);
                    }
                }
            }
        }
    }
    libs.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_board;

    /// Each caught chain's stone, with its catching ataris sorted, by GTP names.
    fn verdicts(black: &str, white: &str) -> Vec<(String, Vec<String>)> {
        let (board, _) = test_board(9, black, white);
        let g = board.geometry();
        caught_chains(&board)
            .into_iter()
            .map(|c| {
                let mut ataris: Vec<String> =
                    c.catching_ataris.iter().map(|&a| g.name(a)).collect();
                ataris.sort();
                (g.name(c.stone), ataris)
            })
            .collect()
    }

    fn caught(stone: &str, ataris: &[&str]) -> (String, Vec<String>) {
        (
            stone.to_string(),
            ataris.iter().map(|a| a.to_string()).collect(),
        )
    }

    /// White D4 in atari, its liberty E4; extending there runs it up and right.
    const ATARI_BLACK: &str = "C4 D5 D3 E3";

    #[test]
    fn a_chain_in_atari_running_into_the_edge_is_caught() {
        assert_eq!(verdicts(ATARI_BLACK, "D4"), [caught("D4", &[])]);
    }

    #[test]
    fn a_breaker_on_the_ladders_path_saves_it() {
        assert_eq!(verdicts(ATARI_BLACK, "D4 G7"), []);
        assert_eq!(verdicts(ATARI_BLACK, "D4 F7"), []);
    }

    #[test]
    fn a_chain_in_atari_that_can_capture_a_chaser_escapes() {
        // Black C4 is itself in atari (White B4 and C5): White takes it at C3.
        assert_eq!(verdicts(ATARI_BLACK, "D4 B4 C5"), []);
    }

    #[test]
    fn ataris_that_start_a_working_ladder_on_two_liberties() {
        // White D4 has D3 and E4: from D3 the ladder runs up and right, from E4 down and
        // left into the corner; both work on an empty board.
        assert_eq!(verdicts("C4 D5 E3", "D4"), [caught("D4", &["D3", "E4"])]);
        // G7 breaks the first.
        assert_eq!(verdicts("C4 D5 E3", "D4 G7"), [caught("D4", &["E4"])]);
        // B2 breaks the second as well.
        assert_eq!(verdicts("C4 D5 E3", "D4 G7 B2"), []);
    }

    #[test]
    fn every_chain_is_judged_once_and_named_by_its_first_stone_from_the_top() {
        // A two-stone white chain in atari, D4 and D3, whose liberty E4 runs it up and right.
        let found = verdicts("C4 D5 C3 D2 E3", "D4 D3");
        assert_eq!(found, [caught("D4", &[])]);
    }

    /// Random games of several sizes, from the smallest board up: every verdict is about a
    /// chain of one or two liberties, named by its first stone in reading order, with
    /// catching ataris (among its liberties) exactly when it has two; nothing panics.
    #[test]
    fn random_positions_of_every_size() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        for size in [2, 3, 4, 5, 9, 19] {
            for seed in 0..2 {
                let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
                let mut b = Board::new(size).expect("size");
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    let moves: Vec<Point> = b
                        .empty_points()
                        .iter()
                        .copied()
                        .filter(|&p| b.is_sensible(color, p))
                        .collect();
                    match moves.choose(&mut rng) {
                        Some(&p) => {
                            b.place(color, p);
                        }
                        None => b.pass(),
                    }
                    check_verdicts(&b);
                    color = color.opponent();
                }
            }
        }
    }

    fn check_verdicts(b: &Board) {
        let order: Vec<Point> = crate::net::katago::inputs::plane_points(b.geometry()).collect();
        let rank = |p: Point| order.iter().position(|&q| q == p);
        for chain in caught_chains(b) {
            let libs = b.liberties(chain.stone);
            assert!(b
                .chain_stones(chain.stone)
                .all(|s| rank(s) >= rank(chain.stone)));
            match libs.len() {
                1 => assert!(chain.catching_ataris.is_empty()),
                2 => {
                    assert!(!chain.catching_ataris.is_empty());
                    assert!(chain.catching_ataris.iter().all(|a| libs.contains(a)));
                }
                n => panic!("a verdict on a chain of {n} liberties"),
            }
        }
    }
}
