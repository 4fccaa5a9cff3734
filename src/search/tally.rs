//! What the search's playouts say about the end of the game: who owned each point when
//! each playout was counted, and Black's margin. Each thread keeps its own tally (a plain
//! array add per point per playout, no atomics in the hot loop) and adds it to the search's
//! now and then; `SearchResult` exposes the average as `ownership` and `score_lead`, for the
//! dead-stone judgement and for analysis output.

use crate::board::Board;
use crate::coord::{Color, Geometry};

/// Per-thread ownership and score sums.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    geometry: Geometry,
    /// Per slot: playouts that ended with Black owning the point minus those with White.
    owned: Vec<i32>,
    /// Sum over playouts of Black's margin (komi and handicap bonus included).
    margins: f64,
    playouts: u64,
}

impl Tally {
    pub(crate) fn new(geometry: Geometry) -> Tally {
        Tally {
            geometry,
            owned: vec![0; geometry.slots()],
            margins: 0.0,
            playouts: 0,
        }
    }

    /// Adds one counted playout: `end` is its final board (owners as the area count sees
    /// them, [`Board::area_owner`]) and `margin` Black's result with komi.
    #[inline]
    pub(crate) fn record(&mut self, end: &Board, margin: f64) {
        for p in self.geometry.points() {
            match end.area_owner(p) {
                Some(Color::Black) => self.owned[p.index()] += 1,
                Some(Color::White) => self.owned[p.index()] -= 1,
                None => {}
            }
        }
        self.margins += margin;
        self.playouts += 1;
    }

    /// Playouts recorded.
    pub(crate) fn playouts(&self) -> u64 {
        self.playouts
    }

    /// Forgets every playout.
    pub(crate) fn clear(&mut self) {
        self.owned.fill(0);
        self.margins = 0.0;
        self.playouts = 0;
    }

    /// Adds another thread's tally to this one.
    pub(crate) fn merge(&mut self, other: &Tally) {
        for (sum, &x) in self.owned.iter_mut().zip(&other.owned) {
            *sum += x;
        }
        self.margins += other.margins;
        self.playouts += other.playouts;
    }

    /// Black's share minus White's for every vertex, row-major from the bottom row
    /// (index = row * size + column, row 0 = GTP row 1, column 0 = column A). All zero when
    /// no playout was counted.
    pub(crate) fn ownership(&self) -> Vec<f32> {
        // `Geometry::points` runs row by row from A1: the order asked for.
        let n = self.playouts.max(1) as f32;
        self.geometry
            .points()
            .map(|p| self.owned[p.index()] as f32 / n)
            .collect()
    }

    /// Black's average margin, komi and handicap bonus included; 0 without playouts.
    pub(crate) fn score_lead(&self) -> f64 {
        if self.playouts == 0 {
            0.0
        } else {
            self.margins / self.playouts as f64
        }
    }
}
