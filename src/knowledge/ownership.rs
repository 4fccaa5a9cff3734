//! Who owns what at the end: the one ownership map of the crate, fed by the playouts' final
//! boards and by the judgements of a network with an ownership or score head. The tree
//! search keeps one per thread (a plain array add per point per end, no atomics in the hot
//! loop) and adds it to the search's now and then; `SearchResult` exposes the average as
//! `ownership` and `score_lead`. [`estimate`] fills one from playouts without a tree: the
//! quick estimate behind `estimate_score`, GoGui's ownership board and the dead-stone judge.

use super::playout::{self, Forbidden, PlayoutPolicy};
use crate::board::Board;
use crate::coord::{Color, Geometry, Point};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Ownership and score sums over a number of judged ends: playouts' final boards, and the
/// judgements of an evaluator that knows ownership or a score without playing (a network's
/// heads), each counted as one end.
#[derive(Clone, Debug)]
pub struct OwnershipMap {
    geometry: Geometry,
    /// Per slot: the sum over ends of Black's ownership of the point (a final board gives
    /// +1 for Black's, -1 for White's; a judgement a fraction).
    owned: Vec<f64>,
    /// Per slot: the sum over ends of the square of that ownership (for its spread).
    squares: Vec<f64>,
    /// The ends that said who owns each point.
    owned_ends: u64,
    /// Sum over ends of Black's margin (what the caller counts: komi and handicap bonus
    /// included in the search, the bare area lead in the quick estimate).
    margins: f64,
    /// The ends that gave a margin.
    scored_ends: u64,
}

impl OwnershipMap {
    pub fn new(geometry: Geometry) -> OwnershipMap {
        OwnershipMap {
            geometry,
            owned: vec![0.0; geometry.slots()],
            squares: vec![0.0; geometry.slots()],
            owned_ends: 0,
            margins: 0.0,
            scored_ends: 0,
        }
    }

    /// Adds one counted playout: `end` is its final board (owners as the area count sees
    /// them, [`Board::area_owner`]) and `margin` Black's result.
    #[inline]
    pub fn record(&mut self, end: &Board, margin: f64) {
        for p in self.geometry.points() {
            let owner = match end.area_owner(p) {
                Some(Color::Black) => 1.0,
                Some(Color::White) => -1.0,
                None => continue,
            };
            self.owned[p.index()] += owner;
            self.squares[p.index()] += 1.0;
        }
        self.owned_ends += 1;
        self.add_margin(margin);
    }

    /// Adds one judged end without a final board: Black's ownership of each vertex from -1
    /// to +1 in vertex order ([`Geometry::vertex_index`]), and Black's margin, where the
    /// evaluator knows them.
    pub fn record_judgement(&mut self, black_ownership: Option<&[f32]>, margin: Option<f64>) {
        if let Some(ownership) = black_ownership {
            for (p, &x) in self.geometry.points().zip(ownership) {
                let x = f64::from(x);
                self.owned[p.index()] += x;
                self.squares[p.index()] += x * x;
            }
            self.owned_ends += 1;
        }
        if let Some(margin) = margin {
            self.add_margin(margin);
        }
    }

    fn add_margin(&mut self, margin: f64) {
        self.margins += margin;
        self.scored_ends += 1;
    }

    /// Ends recorded (an evaluator that gives only ownership or only a margin gives it to every
    /// end alike).
    pub fn ends(&self) -> u64 {
        self.owned_ends.max(self.scored_ends)
    }

    /// Forgets every end.
    pub fn clear(&mut self) {
        self.owned.fill(0.0);
        self.squares.fill(0.0);
        self.margins = 0.0;
        self.owned_ends = 0;
        self.scored_ends = 0;
    }

    /// Adds another map's ends to this one.
    pub fn merge(&mut self, other: &OwnershipMap) {
        for (sum, &x) in self.owned.iter_mut().zip(&other.owned) {
            *sum += x;
        }
        for (sum, &x) in self.squares.iter_mut().zip(&other.squares) {
            *sum += x;
        }
        self.margins += other.margins;
        self.owned_ends += other.owned_ends;
        self.scored_ends += other.scored_ends;
    }

    /// Ownership of `p` from -1 (always White's) to +1 (always Black's); 0 without ends.
    pub fn value(&self, p: Point) -> f64 {
        self.owned[p.index()] / self.owned_ends.max(1) as f64
    }

    /// [`OwnershipMap::value`] for every vertex, row-major from the bottom row
    /// (index = row * size + column, row 0 = GTP row 1, column 0 = column A). All zero when
    /// no end said who owns what.
    pub fn ownership(&self) -> Vec<f32> {
        // `Geometry::points` runs row by row from A1: the order asked for.
        let n = self.owned_ends.max(1) as f32;
        self.geometry
            .points()
            .map(|p| self.owned[p.index()] as f32 / n)
            .collect()
    }

    /// How far the ends' ownership of each vertex strays from [`OwnershipMap::ownership`]
    /// (one standard deviation, 0 to 1), in the same order (KataGo's `ownershipStdev`): a
    /// point the ends disagree about is unsettled, though its average may be 0 like a
    /// seki's.
    pub fn ownership_stdev(&self) -> Vec<f32> {
        let n = self.owned_ends.max(1) as f64;
        self.geometry
            .points()
            .map(|p| {
                let mean = self.owned[p.index()] / n;
                let square = self.squares[p.index()] / n;
                (square - mean * mean).max(0.0).sqrt() as f32
            })
            .collect()
    }

    /// Black's average margin; 0 without ends that gave one.
    pub fn score_lead(&self) -> f64 {
        if self.scored_ends == 0 {
            0.0
        } else {
            self.margins / self.scored_ends as f64
        }
    }
}

/// A quick estimate: the ownership map of playouts from a position, and Black's area lead
/// (komi excluded) at the end of each.
pub struct Estimate {
    pub map: OwnershipMap,
    /// Black's area lead at the end of each playout, komi excluded.
    pub leads: Vec<i32>,
}

impl Estimate {
    /// Black's average area lead (komi excluded); 0 without playouts.
    pub fn mean_lead(&self) -> f64 {
        self.map.score_lead()
    }

    /// The empty points of `board` that this estimate gives clearly to one color (beyond
    /// `clear` in absolute ownership), forbidden to the other.
    pub fn clear_areas(&self, board: &Board, clear: f64) -> Forbidden {
        let mut forbidden = Forbidden::default();
        for &p in board.empty_points() {
            let value = self.map.value(p);
            if value > clear {
                forbidden.forbid(Color::White, p);
            } else if value < -clear {
                forbidden.forbid(Color::Black, p);
            }
        }
        forbidden
    }
}

/// Ownership beyond which a point counts as clearly one side's in the second pass of
/// [`estimate`].
pub const CLEAR_OWNERSHIP: f64 = 0.3;

/// Runs `playouts` cautious playouts ([`PlayoutPolicy::CAUTIOUS`]) from `board` with
/// `to_move` to play, in two passes: the first with free play, the second (which gives the
/// answer) forbidding each side the empty points the first found clearly the opponent's,
/// except to capture. The second pass is the one that matters on finished games: in free
/// random play the owner of an area tenukis half the time while the invader keeps adding
/// stones, so that three dead stones in a 30-point area lived in almost half the playouts;
/// once the invader cannot play in the owner's clear area, they die as they would in a
/// game. Deterministic for a given seed.
pub fn estimate(board: &Board, to_move: Color, playouts: u32, seed: u64) -> Estimate {
    let free = run(board, to_move, playouts, seed, &Forbidden::default());
    let forbidden = free.clear_areas(board, CLEAR_OWNERSHIP);
    run(board, to_move, playouts, seed.wrapping_add(1), &forbidden)
}

fn run(board: &Board, to_move: Color, playouts: u32, seed: u64, rule: &Forbidden) -> Estimate {
    let mut estimate = Estimate {
        map: OwnershipMap::new(board.geometry()),
        leads: Vec::with_capacity(playouts as usize),
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut scratch = board.clone();
    let mut record = Vec::new();
    for _ in 0..playouts {
        scratch.copy_from(board);
        record.clear();
        let end = playout::play_out(
            &mut scratch,
            to_move,
            crate::coord::Move::Pass,
            &PlayoutPolicy::CAUTIOUS,
            rule,
            &mut rng,
            &mut record,
        );
        estimate.map.record(&scratch, f64::from(end.black_lead));
        estimate.leads.push(end.black_lead);
    }
    estimate
}
