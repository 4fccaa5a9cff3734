//! Capture reading: whether a chain short of liberties is taken when one side or the other
//! plays first, read out move by move.
//!
//! At the end of a game the Monte Carlo judge is blind where only exact reading tells: a
//! capturing race (semeai), where the chain with fewer liberties dies whatever random play
//! does, unless it gains some by capturing a neighbour; a group whose eye space is two
//! points, killed by a throw-in that random play, avoiding self-ataris, never tries. Both
//! are small fights around one chain, which a tiny exhaustive search settles: the attacker
//! fills the chain's liberties (inside its eyes too, when that is legal), the defender
//! extends, fills the liberties of the attacking chains or captures one of them, or plays
//! elsewhere (a pass), until the chain is captured or has so many liberties that it has
//! escaped.
//!
//! The moves are local: the liberties of the chain and of the chains of its group joined to
//! it by shared liberties, of the opposing chains next to it that are short of liberties
//! themselves (the other side of a race), and the capture of any chain in atari next to
//! those. A defence far from the fight (an eye made on the other
//! side of the group) is not seen, and a ko is settled as at the end of a game: without
//! threats, the side that may not retake at once plays elsewhere.

use super::Board;
use crate::coord::{Color, Move, Point, PointSet};
use std::collections::HashMap;

/// Liberties at which the reading of a chain stops: it has escaped if it got them by
/// capturing (it has won any race that started with at most [`READ_LIBERTIES`]), and has
/// left the fight if it got them by extending.
pub const ESCAPE_LIBERTIES: usize = 5;

/// The most liberties of a chain worth reading, and of an opposing chain next to it whose
/// liberties are part of the fight.
pub const READ_LIBERTIES: usize = 4;

/// The most stones whose capture may still leave the capturer one eye only (the straight
/// and bent three, killed by a stone on their middle point): taking more is a win.
const NAKADE_STONES: u16 = 3;

/// Positions one reading may visit before it gives up ([`Fate::Unknown`]): a few
/// milliseconds, enough for races of four liberties a side.
const NODES: u32 = 2_500;

/// The deepest the reading looks, in moves (passes included), deepened two at a time so
/// that a short proof is found before a long line uses up the nodes.
const MAX_DEPTH: u32 = 20;

/// What happens to the chain, in the attacker's order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fate {
    /// It cannot be taken: it reaches [`ESCAPE_LIBERTIES`] by capturing, or the attacker
    /// runs out of moves.
    Escapes,
    /// The reading gave up before proving either.
    Unknown,
    /// It is taken, and the capturing stones cannot be taken back at once (no snapback).
    Captured,
}

/// The outcome of a reading and the first move that gets it (a pass where the side to move
/// has no move, or does best by playing elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub fate: Fate,
    pub first: Move,
}

impl Board {
    /// Reads the fight for the chain on `target` with `to_move` playing first: whether it is
    /// captured against the owner's best local defence, and the move that gets that result.
    /// Deterministic: the same position always gives the same reading.
    pub fn read_capture(&self, target: Point, to_move: Color) -> Reading {
        let Some(defender) = self.color_at(target) else {
            return Reading {
                fate: Fate::Captured,
                first: Move::Pass,
            };
        };
        let mut reader = Reader {
            target,
            defender,
            nodes: NODES,
            proven: HashMap::new(),
            line: vec![self.hash()],
        };
        let mut reading = Reading {
            fate: Fate::Unknown,
            first: Move::Pass,
        };
        for depth in (2..=MAX_DEPTH).step_by(2) {
            let found = reader.search(self, to_move, depth);
            if found.fate != Fate::Unknown {
                return found;
            }
            reading = found;
            if reader.nodes == 0 {
                break;
            }
        }
        reading
    }
}

/// A position in a reading: the stones' hash, the side to move and the ko point.
type Key = (u64, Color, Option<(Point, Color)>);

/// One reading: the chain it is about, the nodes it has left and what it has proven.
struct Reader {
    /// A stone of the chain read; the chain may grow, and is captured once this is empty.
    target: Point,
    defender: Color,
    nodes: u32,
    /// The proven readings (never [`Fate::Unknown`], which depends on the depth left) by
    /// position: the same position comes back by other move orders and in every deepening.
    proven: HashMap<Key, Reading>,
    /// The positions of the line being read, from the root: a move that repeats one is
    /// refused, as positional superko would, so that a ko fight ends instead of cycling.
    line: Vec<u64>,
}

impl Reader {
    /// The best fate `to_move` can get on `board` within `depth` moves, and its first move.
    fn search(&mut self, board: &Board, to_move: Color, depth: u32) -> Reading {
        let attacking = to_move != self.defender;
        let mut best = Reading {
            fate: if attacking {
                Fate::Escapes
            } else {
                Fate::Captured
            },
            first: Move::Pass,
        };
        let key = (board.hash(), to_move, board.ko());
        if let Some(&known) = self.proven.get(&key) {
            return known;
        }
        if depth == 0 || self.nodes == 0 {
            best.fate = Fate::Unknown;
            return best;
        }
        self.nodes -= 1;
        let mut moves: Vec<Move> = fight_moves(board, self.target, attacking)
            .into_iter()
            .map(Move::Play)
            .collect();
        if !attacking {
            moves.push(Move::Pass);
        }
        for mv in moves {
            let mut next = board.clone();
            let captured = match next.play(to_move, mv) {
                Ok(effect) if effect.suicided == 0 => effect.captured,
                _ => continue,
            };
            let repeats = mv != Move::Pass && self.line.contains(&next.hash());
            if repeats {
                continue;
            }
            let fate = match self.settled(&next, to_move, mv, captured) {
                Some(fate) => fate,
                None => {
                    self.line.push(next.hash());
                    let fate = self.search(&next, to_move.opponent(), depth - 1).fate;
                    self.line.pop();
                    fate
                }
            };
            let better = if attacking {
                fate > best.fate
            } else {
                fate < best.fate
            };
            if better {
                best = Reading { fate, first: mv };
            }
            let done = if attacking {
                Fate::Captured
            } else {
                Fate::Escapes
            };
            if best.fate == done {
                break;
            }
        }
        if best.fate != Fate::Unknown {
            self.proven.insert(key, best);
        }
        best
    }

    /// The fate of the chain once `mover` has played `mv`, capturing `captured` stones, if
    /// that settles it: captured (unless the capturing chain can be taken back at once, a
    /// snapback: then unknown), or escaped by capturing attackers: more than
    /// [`NAKADE_STONES`], or enough to reach [`ESCAPE_LIBERTIES`]. A chain that reaches
    /// [`ESCAPE_LIBERTIES`] by extending has left the fight for open ground, which may well
    /// be the opponent's area: that proves nothing either way.
    fn settled(&self, board: &Board, mover: Color, mv: Move, captured: u16) -> Option<Fate> {
        if !board.cell(self.target).is_stone() {
            let retaken = match mv {
                Move::Play(p) if mover != self.defender => can_retake(board, p),
                _ => false,
            };
            return Some(if retaken {
                Fate::Unknown
            } else {
                Fate::Captured
            });
        }
        let many = board.liberty_count(self.target) >= ESCAPE_LIBERTIES;
        if mover == self.defender && (captured > NAKADE_STONES || (many && captured > 0)) {
            Some(Fate::Escapes)
        } else {
            many.then_some(Fate::Unknown)
        }
    }
}

/// Whether the chain on `p`, which just captured, can be captured back at once: it has one
/// liberty and the simple-ko rule does not forbid the owner's opponent to take it.
fn can_retake(board: &Board, p: Point) -> bool {
    let Some(color) = board.color_at(p) else {
        return false;
    };
    board
        .atari_liberty(p)
        .is_some_and(|lib| board.check(color.opponent(), lib).is_ok())
}

/// The moves of the fight around the chain on `target` for its attacker (`attacking`) or
/// its owner: captures first (of any chain in atari next to one of the fighting chains),
/// then the liberties of the fighting chains. Those are the chain's group
/// ([`group_chains`]: its eyes are the group's, and the attacker may have to take another
/// chain first to make one false) and the opposing chains next to it or to its liberties
/// ([`rival_chains`]) that are short of liberties: for the owner, those with at most one liberty more than his chain (the other
/// side of a race, whose liberties he fills); for the attacker, his own with no more than
/// the chain (those in danger, which he saves).
fn fight_moves(board: &Board, target: Point, attacking: bool) -> Vec<Point> {
    let liberties = board.liberty_count(target);
    let short = |n: Point| {
        if attacking {
            board.liberty_count(n) <= liberties
        } else {
            board.liberty_count(n) <= liberties + 1
        }
    };
    let mut fighters = group_chains(board, target);
    fighters.extend(
        rival_chains(board, target)
            .into_iter()
            .filter(|&n| short(n)),
    );
    let mut seen = PointSet::new();
    let mut moves = Vec::new();
    let captures = fighters.iter().flat_map(|&chain| {
        neighbour_chains(board, chain)
            .into_iter()
            .filter_map(|n| board.atari_liberty(n))
    });
    let liberties = fighters.iter().flat_map(|&chain| board.liberties(chain));
    for p in captures.chain(liberties) {
        if seen.insert(p) {
            moves.push(p);
        }
    }
    moves
}

/// The most chains of a group that a reading takes into its fight.
const GROUP_CHAINS: usize = 6;

/// The chain on `target` and the chains of its color short of liberties (at most
/// [`READ_LIBERTIES`]) joined to it through shared liberties, one stone of each, the
/// target's first: the chains that make its eyes together, up to [`GROUP_CHAINS`].
fn group_chains(board: &Board, target: Point) -> Vec<Point> {
    let g = board.geometry();
    let color = board.color_at(target);
    let mut group = vec![target];
    let mut seen = PointSet::new();
    board.chain_stones(target).for_each(|s| {
        seen.insert(s);
    });
    let mut next = 0;
    while next < group.len() && group.len() < GROUP_CHAINS {
        for lib in board.liberties(group[next]) {
            for n in g.neighbours(lib) {
                let joins = board.color_at(n) == color
                    && !seen.contains(n)
                    && board.liberty_count(n) <= READ_LIBERTIES;
                if joins && group.len() < GROUP_CHAINS {
                    board.chain_stones(n).for_each(|s| {
                        seen.insert(s);
                    });
                    group.push(n);
                }
            }
        }
        next += 1;
    }
    group
}

/// One stone of each opposing chain next to the chain on `p` or to one of its liberties
/// (a race partner may share only liberties with it), in board order.
fn rival_chains(board: &Board, p: Point) -> Vec<Point> {
    let g = board.geometry();
    let mut heads = PointSet::new();
    let opponent = board.color_at(p).map(Color::opponent);
    for q in board.chain_stones(p).chain(board.liberties(p)) {
        for n in g.neighbours(q) {
            if board.color_at(n) == opponent {
                heads.insert(board.chain(n));
            }
        }
    }
    heads.iter().collect()
}

/// One stone of each opposing chain next to the chain on `p`, in board order.
fn neighbour_chains(board: &Board, p: Point) -> Vec<Point> {
    let Some(color) = board.color_at(p) else {
        return Vec::new();
    };
    let g = board.geometry();
    let mut heads = PointSet::new();
    for s in board.chain_stones(p) {
        for n in g.neighbours(s) {
            if board.color_at(n) == Some(color.opponent()) {
                heads.insert(board.chain(n));
            }
        }
    }
    heads.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_board as board;

    fn read(b: &Board, target: Point, to_move: Color) -> (Fate, String) {
        let r = b.read_capture(target, to_move);
        (r.fate, b.geometry().move_name(r.first))
    }

    #[test]
    fn a_chain_in_atari_with_nowhere_to_go_is_captured() {
        // White C3 has only D3, where it would have no liberty at all.
        let (b, p) = board(7, "B3 C2 C4 D4 D2 E3", "C3");
        assert_eq!(
            read(&b, p("C3"), Color::Black),
            (Fate::Captured, "D3".into())
        );
        assert_eq!(read(&b, p("C3"), Color::White).0, Fate::Captured);
    }

    #[test]
    fn a_stone_that_runs_into_open_ground_is_left_unknown() {
        // White E5, playing first, extends to five liberties at once: the fight has left
        // for an area that may be anybody's.
        let (b, p) = board(9, "D5", "E5");
        assert_eq!(read(&b, p("E5"), Color::White).0, Fate::Unknown);
    }

    #[test]
    fn a_two_point_eye_in_the_corner_dies_whoever_plays_first() {
        // White A2-C2-C1 has the eye A1-B1 and nothing else: Black throws in at B1, White
        // takes, Black takes the five stones (or White fills his own eye first).
        let (b, p) = board(5, "A3 B3 C3 D3 D2 D1", "A2 B2 C2 C1");
        assert_eq!(read(&b, p("C1"), Color::Black).0, Fate::Captured);
        assert_eq!(
            read(&b, p("C1"), Color::White),
            (Fate::Captured, "pass".into())
        );
    }

    #[test]
    fn two_eyes_cannot_be_taken() {
        // White A2-D2-D1 with the eyes A1 and C1.
        let (b, p) = board(5, "A3 B3 C3 D3 E3 E2 E1", "A2 B2 C2 D2 B1 D1");
        assert_eq!(read(&b, p("B2"), Color::Black).0, Fate::Escapes);
    }

    #[test]
    fn a_snapback_is_not_a_clean_capture() {
        // White C1 and Black B1-B2-C2-D2 are both in atari at D1: Black takes C1 there, but
        // his five stones then have only C1, where White takes them back.
        let (b, p) = board(5, "B1 B2 C2 D2", "A1 A2 A3 B3 C3 D3 E2 E1 C1");
        assert_eq!(
            read(&b, p("C1"), Color::Black),
            (Fate::Unknown, "D1".into())
        );
    }
}
