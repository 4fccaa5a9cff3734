//! When a search stops: its budget of simulations or time, an outside stop, the tree's
//! counting limit, or a best move that the simulations left can no longer overtake.

use super::params::SearchParams;
use super::tree::{Stats, Tree, MAX_VISITS, ROOT};
use super::Budget;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

pub(super) struct Limits<'a> {
    pub budget: Budget,
    /// For how often to check the time and whether the search is settled.
    pub params: &'a SearchParams,
    pub started: Instant,
    pub stop: &'a AtomicBool,
    pub finished: &'a AtomicBool,
    pub visits: &'a AtomicU64,
}

impl Limits<'_> {
    /// Whether to run another simulation (and counts it). The first thread also checks, now
    /// and then, whether the best move can still change.
    pub fn another(&self, tree: &Tree, watcher: bool) -> bool {
        if self.stop.load(Relaxed) || self.finished.load(Relaxed) {
            return false;
        }
        let n = self.visits.fetch_add(1, Relaxed);
        let over = self.budget.visits.is_some_and(|limit| n >= limit)
            || (n.is_multiple_of(self.params.time_check_period)
                && (self
                    .budget
                    .time
                    .is_some_and(|t| self.started.elapsed() >= t)
                    || tree.node(ROOT).visits() >= MAX_VISITS))
            || (watcher
                && n % self.params.settle_check_period == self.params.settle_check_period - 1
                && self.settled(tree, n));
        if over {
            self.finished.store(true, Relaxed);
            self.visits.fetch_sub(1, Relaxed);
        }
        !over
    }

    /// Whether the most simulated root move is so far ahead that the simulations left
    /// cannot let another one catch up (and the game is not so close that the time is
    /// better spent: [`SearchParams::settle_close`]).
    fn settled(&self, tree: &Tree, done: u64) -> bool {
        let mut children: Vec<Stats> = tree
            .node(ROOT)
            .children()
            .map(|c| tree.node(c).stats())
            .collect();
        if children.len() < 2 {
            return children.len() == 1;
        }
        children.sort_unstable_by_key(|s| std::cmp::Reverse(s.playouts()));
        if (children[0].simulated_value() - 0.5).abs() < self.params.settle_close {
            return false;
        }
        let lead = u64::from(children[0].playouts() - children[1].playouts());
        let by_playouts = self.budget.visits.map(|l| l.saturating_sub(done));
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
