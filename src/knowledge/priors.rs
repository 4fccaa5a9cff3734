//! Prior knowledge for new tree nodes, as virtual games added to their statistics
//! (progressive bias, the way michi and Pachi do it): every move starts even, and Go
//! knowledge tilts the start. A move with a big prior is explored first and needs many real
//! simulations to be overturned. The weights are [`PriorWeights`], part of the search's
//! parameters.

use super::params::PriorWeights;
use super::patterns;
use super::playout;
use crate::board::Board;
use crate::coord::{Color, Move, Point};

/// Prior knowledge about the moves of one position, computed once per expansion.
pub struct Priors<'w> {
    weights: &'w PriorWeights,
    /// Moves that answer the last move's atari (capture or escape).
    atari_answers: Vec<Point>,
    /// What ladders say about the whole board.
    ladders: Ladders,
    /// Each point's distance to the nearer of the last two moves (see [`cfg_distances`]).
    distances: Vec<u8>,
    /// The vital point of the eye space the last move closed.
    nakade: Option<Point>,
}

impl<'w> Priors<'w> {
    /// Prepares the priors of `color`'s moves on `board`, the last two moves being given,
    /// with the weights `weights`.
    pub fn new(
        board: &Board,
        color: Color,
        last: Move,
        second_last: Move,
        weights: &'w PriorWeights,
    ) -> Priors<'w> {
        let last = match last {
            Move::Play(p) if board.color_at(p).is_some() => Some(p),
            _ => None,
        };
        let atari_answers = last
            .map(|l| {
                playout::atari_answers(board, color, l, true)
                    .as_slice()
                    .to_vec()
            })
            .unwrap_or_default();
        let second_last = match second_last {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        };
        let sources = [last, second_last].into_iter().flatten();
        Priors {
            weights,
            nakade: last.and_then(|l| playout::nakade(board, color, l)),
            atari_answers,
            ladders: Ladders::read(board, color),
            distances: cfg_distances(board, sources, weights.closeness_reach()),
        }
    }

    /// (virtual wins, virtual games) for `color` playing `mv`.
    pub fn of(&self, board: &Board, color: Color, mv: Move) -> (f64, f64) {
        let w = self.weights;
        let Move::Play(p) = mv else {
            // Passing is rarely right while the board is open.
            return (w.pass_value * w.even, w.even);
        };
        let mut wins = 0.5 * w.even;
        let mut games = w.even;
        let mut add = |won: f64, played: f64| {
            wins += won;
            games += played;
        };
        if board.is_eye(p, color) {
            add(0.0, w.own_eye);
        }
        if self.ladders.caught_escapes.contains(&p) {
            // Running out of atari into a ladder only feeds the opponent more stones, however
            // close and well shaped the move looks.
            return (w.caught_escape_value * w.caught_escape, w.caught_escape);
        }
        let captured = board.capture_size(color, p);
        if captured > 0 || self.atari_answers.contains(&p) {
            let weight = if captured > 1 {
                w.capture_many
            } else {
                w.capture_one
            };
            add(weight, weight);
        } else if board.is_self_atari(color, p) {
            add(0.0, w.self_atari);
        }
        for &(_, stones) in self.ladders.captures.iter().filter(|m| m.0 == p) {
            let weight = if stones > 1 {
                w.ladder_capture_many
            } else {
                w.ladder_capture_one
            };
            add(weight, weight);
        }
        if self.nakade == Some(p) {
            add(w.nakade, w.nakade);
        }
        if self.ladders.saves.contains(&p) {
            add(w.ladder_save, w.ladder_save);
        }
        if patterns::matches(board.neighbourhood_code(p)) {
            add(w.pattern, w.pattern);
        }
        if let Some(bonus) = self.closeness(p) {
            add(bonus, bonus);
        }
        match (edge_line(board, p), empty_around(board, p, w.open_radius)) {
            (1 | 2, true) => add(0.0, w.edge_open),
            (3, true) => add(w.third_line_open, w.third_line_open),
            _ => {}
        }
        (wins, games)
    }

    /// Virtual wins for playing close to the last moves (distance 1, 2, 3).
    fn closeness(&self, p: Point) -> Option<f64> {
        self.weights
            .closeness(self.distances.get(p.index()).copied()?)
    }
}

/// The ladders on the board, read once per position: on 19×19 a ladder that works (or
/// does not) decides fights far from the last move, where the playouts rarely look.
#[derive(Default)]
struct Ladders {
    /// Extensions of our chains in atari that a ladder captures.
    caught_escapes: Vec<Point>,
    /// Ataris that capture an opponent chain in a ladder, with the chain's size.
    captures: Vec<(Point, usize)>,
    /// Extensions that give three liberties to one of our chains the opponent could
    /// ladder.
    saves: Vec<Point>,
}

impl Ladders {
    fn read(board: &Board, color: Color) -> Ladders {
        let mut ladders = Ladders {
            caught_escapes: board.caught_escapes(color),
            captures: board.ladder_captures(color),
            saves: Vec::new(),
        };
        for s in board.chains_with_liberties(color, 2) {
            if board.ladder_atari(s).is_some() {
                let mut saves = crate::board::tactics::SmallSet::<8>::new();
                playout::save_from_ladder(board, color, s, &mut saves);
                ladders.saves.extend_from_slice(saves.as_slice());
            }
        }
        ladders
    }
}

/// Distances from the `sources` (moves just played) in the common fate graph, up to
/// `max` (how far the closeness prior reaches), indexed by point (`u8::MAX` beyond): one step to a neighbour, none
/// along a chain, whose stones share one fate. The liberties of a long chain the last move
/// extended are as close to it as its own neighbours: in a capturing race they are the moves
/// that matter, however far from the last stone they lie.
fn cfg_distances(board: &Board, sources: impl Iterator<Item = Point>, max: u8) -> Vec<u8> {
    let g = board.geometry();
    let mut distance = vec![u8::MAX; g.slots()];
    let mut queue = Vec::new();
    let reach = |p: Point, d: u8, distance: &mut [u8], queue: &mut Vec<Point>| {
        if board.color_at(p).is_some() {
            for s in board.chain_stones(p) {
                distance[s.index()] = d;
                queue.push(s);
            }
        } else {
            distance[p.index()] = d;
            queue.push(p);
        }
    };
    for p in sources {
        if distance[p.index()] != 0 {
            reach(p, 0, &mut distance, &mut queue);
        }
    }
    // Breadth first: every point is queued at its final distance, in increasing order.
    let mut next = 0;
    while next < queue.len() {
        let p = queue[next];
        next += 1;
        let d = distance[p.index()];
        if d >= max {
            continue;
        }
        for n in g.neighbours(p) {
            if board.cell(n) != crate::board::Cell::Border && distance[n.index()] > d + 1 {
                reach(n, d + 1, &mut distance, &mut queue);
            }
        }
    }
    distance
}

/// The line a point is on, counted from the nearest edge (1 = first line).
fn edge_line(board: &Board, p: Point) -> usize {
    let v = board.geometry().vertex(p);
    let size = board.size();
    let (c, r) = (v.col as usize, v.row as usize);
    c.min(r).min(size - 1 - c).min(size - 1 - r) + 1
}

/// Whether no stone lies within Manhattan distance `radius` of `p` (an open area).
fn empty_around(board: &Board, p: Point, radius: u32) -> bool {
    // This runs for every move of every new node: the default radius gets its own copy of
    // the loop, with constant bounds the compiler unrolls (as fast as before the radius
    // was a parameter).
    if radius == 2 {
        no_stone_within(board, p, 2)
    } else {
        no_stone_within(board, p, radius.min(board.size() as u32) as i32)
    }
}

#[inline(always)]
fn no_stone_within(board: &Board, p: Point, radius: i32) -> bool {
    let g = board.geometry();
    let v = g.vertex(p);
    let size = board.size() as i32;
    for dy in -radius..=radius {
        for dx in -radius..=radius {
            if dx.abs() + dy.abs() > radius {
                continue;
            }
            let (c, r) = (v.col as i32 + dx, v.row as i32 + dy);
            if (0..size).contains(&c) && (0..size).contains(&r) {
                let q = g.point(crate::coord::Vertex::new(c as usize, r as usize));
                if board.color_at(q).is_some() {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(black: &str, white: &str, color: Color, last: &str, mv: &str) -> f64 {
        let (b, p) = crate::board::test_board(9, black, white);
        let weights = PriorWeights::default();
        let priors = Priors::new(&b, color, Move::Play(p(last)), Move::Pass, &weights);
        let (wins, games) = priors.of(&b, color, Move::Play(p(mv)));
        wins / games
    }

    #[test]
    fn running_into_a_ladder_looks_bad_and_a_broken_ladder_good() {
        // Black D5 ataris White D4; E4 runs into the ladder unless White G2 breaks it.
        let caught = value("C4 D3 E5 D5", "D4", Color::White, "D5", "E4");
        let free = value("C4 D3 E5 D5", "D4 G2", Color::White, "D5", "E4");
        assert!(caught < 0.3, "{caught}");
        assert!(free > 0.6, "{free}");
    }

    #[test]
    fn a_working_ladder_is_worth_starting() {
        let (b, p) = crate::board::test_board(9, "C4 D3 E5", "D4");
        let atari = b.ladder_atari(p("D4")).expect("a ladder");
        let weights = PriorWeights::default();
        let priors = Priors::new(&b, Color::Black, Move::Play(p("E5")), Move::Pass, &weights);
        let with_ladder = priors
            .ladders
            .captures
            .iter()
            .any(|&(q, n)| q == atari && n == 1);
        assert!(with_ladder);
        let (wins, games) = priors.of(&b, Color::Black, Move::Play(atari));
        let (w0, g0) = priors.of(&b, Color::Black, Move::Play(p("G7")));
        assert!(
            wins / games > w0 / g0 + 0.1,
            "{} vs {}",
            wins / games,
            w0 / g0
        );
    }

    #[test]
    fn closeness_follows_chains() {
        // Black's last move E5 extends the chain B5-E5: the liberties at its far end are as
        // close as E5's own neighbours.
        let (b, p) = crate::board::test_board(9, "B5 C5 D5 E5", "");
        let d = cfg_distances(&b, [p("E5")].into_iter(), 3);
        let at = |v: &str| d[p(v).index()];
        assert_eq!(at("E5"), 0);
        assert_eq!(at("B5"), 0);
        assert_eq!(at("F5"), 1);
        assert_eq!(at("A5"), 1);
        assert_eq!(at("B6"), 1);
        assert_eq!(at("F6"), 2);
        assert_eq!(at("G5"), 2);
        assert_eq!(at("H5"), 3);
        assert_eq!(at("J5"), u8::MAX);
        // The prior follows: B4 (a liberty far from E5) is worth as much as F5.
        let weights = PriorWeights::default();
        let priors = Priors::new(&b, Color::White, Move::Play(p("E5")), Move::Pass, &weights);
        assert_eq!(priors.closeness(p("B4")), priors.closeness(p("F5")));
        assert_eq!(priors.closeness(p("H5")), Some(weights.closeness_3));
        assert_eq!(priors.closeness(p("J9")), None);
    }
}
