//! The knowledge's tuning knobs: the hand-made priors' weights ([`PriorWeights`], michi's
//! `PRIOR_*` and Pachi's `prior` parameters), the network's part in the priors
//! ([`NetPrior`]) and at the leaves ([`NetValue`]), and the playouts' rules
//! ([`PlayoutPolicy`]), in [`KnowledgeParams`]. `player::Params` joins them to the table of
//! every knob that `--param` and GTP `hoshi-param` read by name.

use super::playout::PlayoutPolicy;
use crate::parse::Auto;

/// What the standard knowledge ([`super::standard::Standard`]) is made with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnowledgeParams {
    /// The simulations' playout rules (MoGo-style atari answers, tactics, nakade, patterns,
    /// self-atari refusals) and their length: [`PlayoutPolicy::HEAVY`]. The rules trade
    /// speed for judgement: ladder-aware escapes, two-liberty tactics and nakade cost about
    /// 40% of the search's playouts per second (README's speed suite, one thread, empty
    /// board: 42,748 to 24,176 on 9x9, 10,424 to 6,110 on 19x19), and reading full ladders
    /// in every playout would cost a third more, so the tree's priors read them instead.
    pub playout: PlayoutPolicy,
    /// Prior knowledge given to new nodes as virtual games.
    pub priors: PriorWeights,
    /// How the policy network's probabilities become priors, beside the hand-made ones.
    pub net: NetPrior,
    /// How the network's value judges the leaves, beside or instead of the playouts.
    pub value: NetValue,
}

impl Default for KnowledgeParams {
    fn default() -> Self {
        KnowledgeParams {
            playout: PlayoutPolicy::HEAVY,
            priors: PriorWeights::default(),
            net: NetPrior::default(),
            value: NetValue::default(),
        }
    }
}

/// The weights of the hand-made Go knowledge in the priors, in virtual games (michi's
/// `PRIOR_*` values, whose even prior is 10 games too): every move starts with
/// [`PriorWeights::even`] games at 0.5, and each feature that applies adds its games as
/// wins (a bonus) or as losses (a penalty). A move with a big prior is explored first and
/// needs many real simulations to be overturned (progressive bias).
///
/// The policy network's prior is mixed in beside them with weights of its own
/// ([`NetPrior`], the sibling field [`KnowledgeParams::net`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorWeights {
    /// Games at value 0.5 every move starts with (michi's `PRIOR_EVEN`): the inertia that
    /// keeps one lucky playout from deciding a new node.
    pub even: f64,
    /// Value of a pass over [`PriorWeights::even`] games: passing is rarely right while
    /// the board is open.
    pub pass_value: f64,
    /// Losses for filling one of our own eyes (the tree leaves such moves out; the prior
    /// still says so where asked).
    pub own_eye: f64,
    /// Games given to running out of atari into a working ladder, at
    /// [`PriorWeights::caught_escape_value`], instead of every other feature: the escape
    /// only feeds the opponent more stones, however close and well shaped it looks.
    pub caught_escape: f64,
    /// Value of a caught escape over its [`PriorWeights::caught_escape`] games.
    pub caught_escape_value: f64,
    /// Wins for capturing one stone, or for answering the last move's atari (capture or
    /// escape): michi's `PRIOR_CAPTURE_ONE`.
    pub capture_one: f64,
    /// Wins for capturing two stones or more: michi's `PRIOR_CAPTURE_MANY`.
    pub capture_many: f64,
    /// Losses for a self-atari that captures nothing (michi's `PRIOR_SELFATARI`).
    pub self_atari: f64,
    /// Wins for an atari that captures one opponent stone in a ladder (read for the whole
    /// board at every new node: on 19x19 a ladder decides fights far from the last move,
    /// where the playouts rarely look).
    pub ladder_capture_one: f64,
    /// Wins for an atari that captures two stones or more in a ladder.
    pub ladder_capture_many: f64,
    /// Wins for the vital point of the eye space the last move closed (nakade): it kills,
    /// like a capture.
    pub nakade: f64,
    /// Wins for the extension that gives three liberties to one of our chains the opponent
    /// could ladder.
    pub ladder_save: f64,
    /// Wins for a move that matches a MoGo 3x3 shape (michi's `PRIOR_PAT3`).
    pub pattern: f64,
    /// Wins for playing at distance 1 from the last two moves in the common fate graph (a
    /// chain counts as one point, so the liberties of a long chain the last move extended
    /// are as close as the last stone's neighbours): michi's `PRIOR_CFG[0]`. Local answers
    /// are the usual right ones.
    pub closeness_1: f64,
    /// Wins at distance 2 (michi's `PRIOR_CFG[1]`).
    pub closeness_2: f64,
    /// Wins at distance 3 (michi's `PRIOR_CFG[2]`). The distances are read as far as the
    /// farthest one with a bonus above 0, and no farther.
    pub closeness_3: f64,
    /// Losses for a move on the first or second line in an open area (no stone within
    /// [`PriorWeights::open_radius`]): michi's `PRIOR_EMPTYAREA`, the opening's slow moves.
    pub edge_open: f64,
    /// Wins for a move on the third line in an open area: the opening's territorial line.
    pub third_line_open: f64,
    /// Manhattan distance within which no stone may lie for an area to count as open.
    pub open_radius: u32,
}

impl Default for PriorWeights {
    fn default() -> Self {
        PriorWeights {
            even: 10.0,
            pass_value: 0.1,
            own_eye: 20.0,
            caught_escape: 50.0,
            caught_escape_value: 0.1,
            capture_one: 15.0,
            capture_many: 30.0,
            self_atari: 10.0,
            ladder_capture_one: 15.0,
            ladder_capture_many: 30.0,
            nakade: 15.0,
            ladder_save: 15.0,
            pattern: 10.0,
            closeness_1: 24.0,
            closeness_2: 22.0,
            closeness_3: 8.0,
            edge_open: 10.0,
            third_line_open: 10.0,
            open_radius: 2,
        }
    }
}

impl PriorWeights {
    /// Virtual wins for playing at `distance` from the last moves, if any.
    pub fn closeness(&self, distance: u8) -> Option<f64> {
        let bonus = match distance {
            1 => self.closeness_1,
            2 => self.closeness_2,
            3 => self.closeness_3,
            _ => return None,
        };
        (bonus > 0.0).then_some(bonus)
    }

    /// How far the closeness prior reaches: the farthest distance with a bonus.
    pub fn closeness_reach(&self) -> u8 {
        (1..=3)
            .rev()
            .find(|&d| self.closeness(d).is_some())
            .unwrap_or(0)
    }
}

/// The policy network's part in the priors (Pachi's DCNN prior): a move the network gives
/// probability `p` gets `games · √p` virtual wins, added to the hand-made priors. The
/// square root flattens the network's confidence, so that its second and third choices
/// are still searched; moves under 0.1% get nothing. The root is evaluated at once; an
/// inner node once it has [`NetPrior::after`] simulations: an evaluation (about 1.1 ms on
/// 19×19 with AVX2) costs about as much as 7 playouts there, so at 64 simulations a node
/// pays at most a tenth of its work for it, and only nodes the search came back to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetPrior {
    /// Virtual wins for a move of probability 1 (Pachi's `dcnn_eqex`). The network's choices
    /// are worth more than the hand-made priors' 10 to 30 games: 250 beat 100 in a match on
    /// 19x19 at equal playouts, where the opening is the network's to choose, and was no
    /// worse on 9x9 (docs/benchmarks.md, "Tuning the network prior: `net_games`"). A move it
    /// gives 10% still gets 79 wins, so that the search starts on the moves a strong player
    /// would consider.
    pub games: f64,
    /// Simulations an inner node needs before the network evaluates its position.
    pub after: u32,
    /// The smallest board the network is used on. It learned from 19×19 games, yet it
    /// helps on 9×9 too: with it, the search beat itself without it in a match at equal time
    /// (0.5 s a move; docs/benchmarks.md, "9x9 with and without the policy network").
    pub min_size: usize,
    /// The smallest probability that earns a move the network's prior: below 0.1% a move
    /// gets at most 8 of [`NetPrior::games`]' virtual wins, noise beside the hand-made
    /// priors, and leaving it out spares the tree's counts an add per child.
    pub floor: f64,
    /// Virtual games the network's value gives the node it evaluates, on the node's own win
    /// rate (AlphaGo's value at the nodes the search has come back to, counted as this many
    /// playouts): the value comes with the policy from the same forward pass, so it costs
    /// nothing, where judging every leaf by it ([`NetValue::mix`]) costs an evaluation a
    /// leaf. 0 (the default) leaves it out; a network without a value head gives none.
    pub value_games: f64,
}

/// The network's value as the leaf evaluator (when the network has a value head): a leaf's
/// evaluation is `mix · v + (1 − mix) · z`, `v` the network's winning chances and `z` the
/// playout's result (AlphaGo's λ; it found 0.5 better than either alone). At 0 the
/// playouts judge alone, as they did before there was a value head; at 1 the network alone
/// (Leela Zero, KataGo), and no playout is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetValue {
    /// The network's share `mix` of a leaf's evaluation, from 0 to 1, or `auto` (the
    /// parameter `value_mix`): the setup settles `auto` to 1 with a value network (a value
    /// and a score lead learnt from a teacher), which judges every leaf alone as KataGo's
    /// networks do, and to 0 with any other network, whose value learnt from games' results
    /// loses to the playouts (docs/benchmarks.md, "PUCT against RAVE, and the value against
    /// the playouts").
    pub mix: Auto<f64>,
    /// Evaluations kept by position (Leela Zero's `NNCache`), shared by a search's threads
    /// and kept from one move to the next: a leaf's evaluation gives the policy of its
    /// children when it expands, and the tree meets positions again. About 1.5 KB each on
    /// 19×19 (3 KB with an ownership map), so the default is 30 to 60 MB.
    pub cache: usize,
    /// The score's share of what the tree counts at a leaf, where the network gives a score
    /// lead (KataGo's score utility), or `auto`: `(1 − w)·win + w·E[½ + atan(lead /
    /// scale)/π]`, the lead by the search's komi, its expectation taken over the network's
    /// spread of the final score where it gives one (as KataGo does). Where the win rate is
    /// flat (a game decided either way, or a handicap game at its start) the lead still
    /// tells a move that keeps points from one that gives them away; reported win rates stay
    /// the network's own. `auto` is [`NetValue::SCORE_UTILITY`] with hoshi's networks and
    /// KataGo's 0.1 beside its win/loss utility of 1 and dynamic part of 0.3 (0.1 / 1.4)
    /// with a network that gives the score's spread (KataGo's: `setup::Tuning::settled`).
    pub score_utility: Auto<f64>,
    /// The lead, in points a line of the board, at which the score's part is three quarters
    /// of its range (atan(1) = π/4), or `auto`: [`NetValue::SCORE_SCALE`] (0.5, 9.5 points
    /// on 19×19 and 4.5 on 9×9, where a point weighs more) with hoshi's networks, KataGo's
    /// 2.0 with its own.
    pub score_scale: Auto<f64>,
    /// The share of a second score part centred on the root's lead (KataGo's dynamic score
    /// utility), or `auto`: `(1 − w − d)·win + w·static + d·E[½ + atan((lead − centre) /
    /// scale)/π]`. The static part, centred on a lead of 0, goes flat once a game is
    /// lopsided; this one keeps telling a move that gains a point from one that loses it
    /// around the lead the game actually has, which is what a player far ahead or far behind
    /// (a handicap game) needs. The centre is the network's lead at the search's root, taken
    /// once a search; kept subtrees were counted around the last one. Where `w + d` exceeds 1
    /// both are scaled down to sum to 1. `auto` is 0 with hoshi's networks: at 0.2 the 9x9
    /// value network won 196 of 500 games against KataGo b6c96 at 32 visits where it won 287
    /// of 800 without (docs/benchmarks.md, "The teacher's search as the teacher, and the
    /// score around the lead"), not a measurable difference; KataGo's 0.3 of 1.4 with
    /// KataGo's networks.
    pub dynamic_score_utility: Auto<f64>,
    /// The dynamic part's scale, in points a line of the board: KataGo's 0.75 (6.75
    /// points on 9×9, 14.25 on 19×19).
    pub dynamic_score_scale: f64,
    /// How far the centre is drawn from the root's lead toward 0 (KataGo's 0.2): a little
    /// of the static part's wish to win by more rather than less whatever the lead.
    pub dynamic_score_zero_weight: f64,
    /// Whether the network reads each position in a symmetry of its own
    /// ([`crate::net::Evaluator::vary_symmetry`], as Leela Zero and KataGo do). Off: with
    /// the 9x9 value network at 400 visits it won 195 of 500 games against KataGo b6c96 at 32
    /// visits where reading positions as they stand won 178 of 500 (docs/benchmarks.md,
    /// "Searching wider: PUCT's first-play urgency and exploration with the 9x9 judge"),
    /// not a measurable difference.
    pub vary_symmetry: bool,
}

impl NetValue {
    /// [`NetValue::score_utility`] with hoshi's own networks, and where nothing settled it.
    pub const SCORE_UTILITY: f64 = 0.1;
    /// [`NetValue::score_scale`] with hoshi's own networks.
    pub const SCORE_SCALE: f64 = 0.5;
    /// [`NetValue::dynamic_score_utility`] with hoshi's own networks.
    pub const DYNAMIC_SCORE_UTILITY: f64 = 0.0;

    /// [`NetValue::dynamic_score_utility`] as set or settled, else hoshi's own.
    pub fn dynamic_share(&self) -> f64 {
        self.dynamic_score_utility.or(Self::DYNAMIC_SCORE_UTILITY)
    }
}

impl Default for NetValue {
    fn default() -> Self {
        NetValue {
            mix: Auto(None),
            cache: 20_000,
            score_utility: Auto(None),
            score_scale: Auto(None),
            dynamic_score_utility: Auto(None),
            dynamic_score_scale: 0.75,
            dynamic_score_zero_weight: 0.2,
            vary_symmetry: false,
        }
    }
}

impl Default for NetPrior {
    fn default() -> Self {
        NetPrior {
            games: 250.0,
            after: 64,
            min_size: 9,
            floor: 0.001,
            value_games: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closeness_reach_follows_the_bonuses() {
        let mut weights = PriorWeights::default();
        assert_eq!(weights.closeness_reach(), 3);
        weights.closeness_3 = 0.0;
        assert_eq!(weights.closeness_reach(), 2);
        assert_eq!(weights.closeness(3), None);
    }
}
