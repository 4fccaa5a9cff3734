//! The search's tuning knobs, named in one place, the way michi (`RAVE_EQUIV`,
//! `EXPAND_VISITS`...), Pachi (`uct` parameters) and Leela Zero (`cfg_*`) name theirs:
//! [`SearchParams`], with PUCT's in [`Puct`]. The knowledge's knobs (priors, playouts, the
//! network's part) are `knowledge::KnowledgeParams`, the player's `player::PlayerParams`;
//! `player::Params` joins the three in the one table that `--param` and GTP `hoshi-param`
//! read and list by name.
//!
//! Structural constants that are not a matter of tuning stay where they are used: the tree's
//! chunk size and node states, the board's limits.

use crate::parse::Auto;

/// How the search descends, expands, stops and reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// RAVE equivalence `K` of Silver's minimum-MSE schedule
    /// `β = r / (r + n + r·n/K)`: how many real visits a node needs before its own win rate
    /// weighs as much as its AMAF one. 3000 is michi's `RAVE_EQUIV` and in Pachi's range;
    /// AMAF evidence is plentiful but biased, so it leads only while a node is young.
    pub rave_equivalence: f64,
    /// Real simulations through a leaf before it gets children (michi's `EXPAND_VISITS`
    /// is 8 too): expanding at once would spend the tree's memory and the priors' work on
    /// leaves that are never visited again.
    pub expand_after: u32,
    /// Standard errors below the win rate for the lower confidence bound analysis shows
    /// (`lcb` of `lz-analyze`): about 97.7% one-sided confidence at 2.
    pub lcb_z: f64,
    /// The move played is the one whose win rate is highest less this many standard errors
    /// (its simulations' own spread, not `lcb_z`'s binomial one), among the moves simulated
    /// at least [`SearchParams::lcb_choice_share`] as often as the most simulated (Leela
    /// Zero's and KataGo's choice by lower confidence bound): a move the search came to late
    /// but that holds up well can be played before it overtakes in visits. 0: the most
    /// simulated move, always.
    pub lcb_choice_z: f64,
    /// The least share of the most simulated move's simulations a move needs to be chosen by
    /// its lower confidence bound (KataGo's `minVisitPropForLCB` is 0.15, Leela Zero's
    /// `cfg_lcb_min_visit_ratio` 0.10): below it the bound rests on too few results.
    pub lcb_choice_share: f64,
    /// Pass is a child of an inner node once fewer than this share of the board's points
    /// are empty (and always after a pass, or when nothing else is left): while the board
    /// is open a pass is never right, and in the tree it would only cost simulations.
    pub pass_empty_share: f64,
    /// Length of the lines analysis shows: the principal variation from the root has at
    /// most this many moves, a root move's line this many after the move itself; deeper
    /// lines rest on too few simulations to mean anything.
    pub pv_length: usize,
    /// Simulations between two looks at the clock: reading it costs about as much as a
    /// cheap playout step, and 16 simulations last well under a millisecond.
    pub time_check_period: u64,
    /// Simulations between two checks (by the first thread) whether the most simulated
    /// root move can still be caught up with in the budget left (the early stop that saves
    /// time for later moves): the check sorts the root's children.
    pub settle_check_period: u64,
    /// The early stop waits while the best root move's win rate is within this of 50%: in
    /// a close game the time the stop would save may be worth more spent on this move
    /// (0, the default, stops as soon as the best move cannot be caught).
    pub settle_close: f64,
    /// Playouts a thread sums on its own before adding them to the search's ownership and
    /// score tally under a lock: a report during the search lags by at most this many
    /// playouts per thread. With 64 the whole tally costs 2-3% of search time (user CPU of
    /// `reg_genmove`, 30,000 playouts on 9x9: 0.54 s before the tally, 0.55 s after).
    pub tally_flush: u64,
    /// Milliseconds after which a thread adds its sums to the tally even before
    /// [`SearchParams::tally_flush`] playouts: a slow network (KataGo's b6c96 plays some 200
    /// playouts a second on 9x9) takes a third of a second for 64, and an analysis's first
    /// reports (every 10 centiseconds or so) would show no ownership at all. Reading the
    /// clock costs some 47 ns a playout on the 2-core VM, 0.3% of the fastest playouts
    /// (73,000 a second, 9x9 endgames without a network).
    pub tally_flush_ms: u64,
    /// Whether, and how, selection follows PUCT instead of RAVE where the network plays.
    pub puct: Puct,
    /// How far apart (in points) the komi shift of the kept tree's search and that
    /// of the new one may be for the tree to be kept (dynamic komi moves it a point at a
    /// time; a tree is worth more than the small bias of its old statistics).
    pub reuse_shift: f64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            rave_equivalence: 3000.0,
            expand_after: 8,
            lcb_z: 2.0,
            lcb_choice_z: 0.0,
            lcb_choice_share: 0.1,
            pass_empty_share: 0.5,
            pv_length: 30,
            time_check_period: 16,
            settle_check_period: 256,
            settle_close: 0.0,
            tally_flush: 64,
            tally_flush_ms: 50,
            puct: Puct::default(),
            reuse_shift: 1.0,
        }
    }
}

/// PUCT selection (AlphaGo Zero, Leela Zero, KataGo) in place of RAVE's: a child's value is
/// `q + exploration · p · √N / (1 + n)`, `q` its win rate, `p` the policy's probability of
/// its move, `n` its visits and `N` its parent's. A child not yet visited counts the
/// parent's own win rate for the mover, less `fpu_reduction · √(policy already visited)`
/// (Leela Zero's first-play urgency): once the likely moves have been tried, the rest look
/// a little worse than the node, so the search deepens rather than widening at random.
/// Where it selects so, the network gives no virtual games and the hand-made priors are
/// not asked: the policy steers alone, as in those engines. Nodes without a policy (boards
/// under `knowledge::NetPrior::min_size`, `--net none`) select by RAVE all the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// Whether selection follows PUCT where the network plays, or `auto` (the parameter
    /// `puct`): the setup settles `auto` to on with a value network, since with a network
    /// value at every leaf PUCT beat RAVE 18 of 20 on 9x9 (docs/benchmarks.md, "PUCT
    /// against RAVE, and the value against the playouts"), and to off (RAVE) otherwise.
    pub enabled: Auto<bool>,
    /// The exploration constant (Leela Zero's `cfg_puct`, for win rates from 0 to 1), or
    /// `auto`: [`Puct::EXPLORATION`] with hoshi's networks; with KataGo's, KataGo's
    /// `cpuctExploration` of 1 on its utility, whose win/loss part spans −1..1 and score
    /// parts ±0.4 more: 1 / 2.8 on the tree's 0..1 (`setup::Tuning::settled`).
    pub exploration: Auto<f64>,
    /// The first-play urgency's reduction (Leela Zero's `cfg_fpu_reduction`, 0.25 there;
    /// KataGo's `fpuReductionMax`, 0.2 on its utilities from −1 to 1, is 0.1 on win rates).
    /// 0.1 won 190 of 300 games against 0.25 with the 9x9 value network at 400 visits a move
    /// (docs/benchmarks.md, "Searching wider: PUCT's first-play urgency and exploration with
    /// the 9x9 judge"): a student's policy misses good moves that a harsher urgency never
    /// tries. `auto`: [`Puct::FPU_REDUCTION`] with hoshi's networks; with KataGo's, KataGo's
    /// 0.2 of its utility's span of 2.8 (with the score parts, `setup::Tuning::settled`).
    pub fpu_reduction: Auto<f64>,
}

impl Puct {
    /// [`Puct::exploration`] with hoshi's own networks, and where nothing settled it.
    pub const EXPLORATION: f64 = 0.5;
    /// [`Puct::fpu_reduction`] with hoshi's own networks, and where nothing settled it.
    pub const FPU_REDUCTION: f64 = 0.1;
}

impl Default for Puct {
    fn default() -> Self {
        Puct {
            enabled: Auto(None),
            exploration: Auto(None),
            fpu_reduction: Auto(None),
        }
    }
}
