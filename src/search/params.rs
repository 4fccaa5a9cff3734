//! Every tuning knob of the search, named in one place, the way michi (`PRIOR_EVEN`,
//! `RAVE_EQUIV`, `EXPAND_VISITS`...), Pachi (`uct` and `prior` parameters) and Leela Zero
//! (`cfg_*`) name theirs: [`Params`], with the priors' weights in [`PriorWeights`] and the
//! playouts' rules in [`PlayoutPolicy`]. [`Params::default`] is the engine as it plays;
//! `hoshi --param KEY=VALUE` and GTP `hoshi-param KEY VALUE` change a knob by name without a
//! rebuild ([`Params::set`]), and `hoshi-param` lists them all ([`Params::list`]).
//!
//! Structural constants that are not a matter of tuning stay where they are used: the tree's
//! chunk size and node states, the pattern tables, the board's limits.

use super::playout::PlayoutPolicy;
use std::fmt;
use std::ops::RangeInclusive;

/// The search's tuning knobs, and those of the player's decisions around it.
///
/// The last group (from [`Params::draw_share`] on) is read by the player
/// (`player::mcts`), not by the search: those knobs live here all the same, so that one
/// table ([`Params::set`], [`Params::list`]) names every knob of the engine and
/// `hoshi-param` and `--param` reach them alike. The search ignores them. The dead-stone
/// judge's searches (`player::judge`) keep the defaults: their verdict must not change
/// with the playing settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
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
    /// Whether, and how, selection follows PUCT instead of RAVE where the network plays.
    pub puct: Puct,
    /// Search: how far apart (in points) the komi shift of the kept tree's search and that
    /// of the new one may be for the tree to be kept (dynamic komi moves it a point at a
    /// time; a tree is worth more than the small bias of its old statistics).
    pub reuse_shift: f64,
    /// Player: the komi shift of handicap games and one-sided games ([`DynamicKomi`]).
    pub dynamic_komi: DynamicKomi,
    /// Player: when a level draws its move at a temperature, a candidate takes part only
    /// with at least 1/`draw_share` of the best move's playouts, so that the weaker levels
    /// err among moves the search thought reasonable, not among blunders.
    pub draw_share: u32,
    /// Player: a rank that sees only some of the legal moves (the ranks under 10 kyu,
    /// `player::strength::seen_moves`) still sees every move that saves one of its chains
    /// of at least this many stones from an atari, and every capture of such an enemy
    /// chain: a weak player misses a cut, not the atari of a big group.
    pub sight_chain: u32,
    /// Player: the share of the legal moves the player sees each turn, overriding the
    /// rank's own (`player::strength`) when above 0: for calibrating the ranks' ladders
    /// (`hoshi calibrate`) without a rebuild.
    pub sight: f64,
    /// Player: the points a move gives away, as the search counts them, overriding the
    /// rank's own (`player::strength::losing_move`) when above 0: for calibrating.
    pub point_loss: f64,
    /// Player: the win rate under which a move counts as hopeless, towards resigning
    /// (`--resign-threshold`); 0 never resigns. 10% as Leela Zero's default: a search that
    /// sees one chance in ten has usually seen a loss, and [`Params::resign_moves`] in a
    /// row make sure.
    pub resign_threshold: f64,
    /// Player: moves in a row whose win rate must stay under the resign threshold before
    /// resigning: one bleak search may be a horizon effect.
    pub resign_moves: u32,
    /// Player: in a handicap game, no resigning before this share of the board's points
    /// have been played as moves (144 moves on 19x19, 32 on 9x9): the side giving stones
    /// expects to be behind for a long time, and the side taking them to be ahead.
    pub resign_handicap_share: f64,
    /// Player: simulations the best move needs before its win rate is trusted for
    /// resigning (or a quarter of the search, for the small budgets of the weaker levels).
    pub resign_min_playouts: u32,
    /// Player: a resignation decided by a search of fewer playouts than this (the weaker
    /// ranks' few dozen) is checked first by a search of this many, with every move in
    /// sight, which must find the game lost too: a weak rank plays weakly, but does not
    /// give up a game its count would have turned on the word of 16 playouts.
    pub resign_check_playouts: u32,
    /// Player: how much worse than the search's best a capturing move may look and still
    /// be preferred in cleanup (`kgs-genmove_cleanup`): in a finished game every move wins
    /// (or loses) alike, and what matters then is to take the dead stones off the board.
    pub cleanup_slack: f64,
    /// Player: playouts of a `reg_genmove` search for a level that thinks by time (a
    /// regression answer must not depend on the machine's speed).
    pub regression_playouts: u64,
    /// Judge: playouts of the dead-stone judge's quick Monte Carlo estimate: enough for its
    /// verdict on a finished game not to depend on the seed, few enough to answer at once
    /// (about 15 ms on 19x19).
    pub judge_playouts: u32,
    /// Judge: playouts of each of the two searches that judge life and death: the verdicts
    /// of `tests/it/dead_stones.rs` stay the same with another seed, and a finished 19x19
    /// game is judged in about 0.13 s of CPU. The judge's searches keep the search's
    /// default tuning whatever these parameters say of it: their verdict must not change
    /// with the playing settings.
    pub judge_search_playouts: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            rave_equivalence: 3000.0,
            expand_after: 8,
            lcb_z: 2.0,
            pass_empty_share: 0.5,
            pv_length: 30,
            time_check_period: 16,
            settle_check_period: 256,
            settle_close: 0.0,
            tally_flush: 64,
            playout: PlayoutPolicy::HEAVY,
            priors: PriorWeights::default(),
            net: NetPrior::default(),
            value: NetValue::default(),
            puct: Puct::default(),
            reuse_shift: 1.0,
            dynamic_komi: DynamicKomi::default(),
            draw_share: 10,
            sight_chain: 3,
            sight: 0.0,
            point_loss: 0.0,
            resign_threshold: 0.1,
            resign_moves: 3,
            resign_handicap_share: 0.4,
            resign_min_playouts: 500,
            resign_check_playouts: 1_000,
            cleanup_slack: 0.05,
            regression_playouts: 10_000,
            judge_playouts: 256,
            judge_search_playouts: 2_500,
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
/// ([`NetPrior`], the sibling field [`Params::net`]).
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
    /// Virtual wins for a move of probability 1 (Pachi's `dcnn_eqex`). 250 against 100
    /// won 15 of 20 games on 19x19 (3,000 playouts a move): the network's choices are worth
    /// more than the hand-made priors' 10 to 30 games, and a move it gives 10% still gets 79
    /// wins, so that the search starts on the moves a strong player would consider.
    pub games: f64,
    /// Simulations an inner node needs before the network evaluates its position.
    pub after: u32,
    /// The smallest board the network is used on. It learned from 19×19 games, yet it
    /// helps on 9×9 too: with it against without, 57 of 80 games (71%, 0.5 s a move).
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
    /// The network's share `mix` of a leaf's evaluation, from 0 to 1.
    pub mix: f64,
    /// Evaluations kept by position (Leela Zero's `NNCache`), shared by a search's threads
    /// and kept from one move to the next: a leaf's evaluation gives the policy of its
    /// children when it expands, and the tree meets positions again. About 1.5 KB each on
    /// 19×19, so the default is about 30 MB.
    pub cache: usize,
}

impl Default for NetValue {
    fn default() -> Self {
        NetValue {
            mix: 0.0,
            cache: 20_000,
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
/// under [`NetPrior::min_size`], `--policy-net none`) select by RAVE all the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// Whether selection follows PUCT where the network plays.
    pub enabled: bool,
    /// The exploration constant (Leela Zero's `cfg_puct`, for win rates from 0 to 1).
    pub exploration: f64,
    /// The first-play urgency's reduction (Leela Zero's `cfg_fpu_reduction`).
    pub fpu_reduction: f64,
}

impl Default for Puct {
    fn default() -> Self {
        Puct {
            enabled: false,
            exploration: 0.5,
            fpu_reduction: 0.25,
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

/// Dynamic komi: the search of a handicap or one-sided game counts with a komi shifted from
/// the real one, so that its win rates stay away from 0% and 100% and its moves mean
/// something (Pachi's `dynkomi`). Giving stones, every move looks lost to a plain search,
/// which then plays at random; taking them, every move looks won, and slack moves melt the
/// lead. The real komi and handicap bonus still decide everything else: the result, the
/// pass, the resignation and every win rate reported.
///
/// * Handicap (Pachi's linear dynkomi): with `h` stones, the side to move counts as if Black
///   had to win by `h·stone + 0.5` points (when the real komi asks less), and the shift
///   fades linearly to nothing by move `moves` (given for 19x19, scaled by the board's
///   area: 150 on 19x19 is 34 on 9x9). The side giving stones (White) and the side taking
///   them (Black) have their own values: Pachi's tuned `handicap_value=12%8:moves=200%150`.
/// * Situational (Pachi's value-based adaptive komi), in even games and once the handicap
///   shift has faded: after each move, when the search's win rate for the player is above
///   [`DynamicKomi::high`], he concedes [`DynamicKomi::step`] more points; under
///   [`DynamicKomi::low`] he takes a step; while conceding, a win rate under
///   [`DynamicKomi::settle`] gives [`DynamicKomi::drop`] points back at once (and the same
///   mirrored while taking), never past [`DynamicKomi::max`] points either way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicKomi {
    /// Whether handicap games shift the komi.
    pub handicap: bool,
    /// Points one handicap stone is worth to the side giving stones (White) at move 0.
    pub giving_stone: f64,
    /// Move by which White's shift has faded, on 19x19.
    pub giving_moves: f64,
    /// Points one handicap stone is worth to the side taking stones (Black) at move 0.
    pub taking_stone: f64,
    /// Move by which Black's shift has faded, on 19x19.
    pub taking_moves: f64,
    /// Whether one-sided games shift the komi (situational komi). Off: on against off in
    /// even self-play won 20 of 40 on 9x9 and 5 of 10 on 19x19 (docs/benchmarks.md).
    pub situational: bool,
    /// Win rate above which the player concedes a step more.
    pub high: f64,
    /// Win rate under which the player takes a step more.
    pub low: f64,
    /// While conceding, a win rate under this gives [`DynamicKomi::drop`] points back (and
    /// while taking, one above `1 - settle`): a concession that makes the game close must
    /// not make it lost.
    pub settle: f64,
    /// Points of one step.
    pub step: f64,
    /// Points given back at once when the game has become close.
    pub drop: f64,
    /// Most points conceded or taken, on 19x19 (scaled by the board's area).
    pub max: f64,
    /// No situational shift once fewer than this share of the points are empty: the end of
    /// the game is counted with the real komi.
    pub end_share: f64,
}

impl Default for DynamicKomi {
    fn default() -> Self {
        DynamicKomi {
            handicap: true,
            giving_stone: 8.0,
            giving_moves: 150.0,
            taking_stone: 12.0,
            taking_moves: 200.0,
            situational: false,
            high: 0.85,
            low: 0.15,
            settle: 0.7,
            step: 1.0,
            drop: 4.0,
            max: 20.0,
            end_share: 0.2,
        }
    }
}

/// Why a parameter could not be set. Nothing has changed when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name.
    UnknownKey(String),
    /// The value is not one the parameter takes.
    BadValue {
        key: &'static str,
        value: String,
        /// What the parameter takes, in words.
        expected: String,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::UnknownKey(key) => write!(f, "unknown parameter {key:?}"),
            ParamError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "{key} takes {expected}, not {value:?}"),
        }
    }
}

impl std::error::Error for ParamError {}

/// What kind of value a parameter takes (GoGui's parameter dialog shows a switch as a
/// check box).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A real number.
    Number,
    /// A whole number.
    Count,
    /// On or off: `1`/`0`, `true`/`false`, `on`/`off` when set, `1`/`0` when listed.
    Switch,
}

impl Params {
    /// Sets the parameter `key` from its text; on an error nothing changes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let field = field(key)?;
        (field.set)(self, value.trim()).map_err(|expected| ParamError::BadValue {
            key: field.key,
            value: value.to_string(),
            expected,
        })
    }

    /// The value of the parameter `key`, as text that [`Params::set`] reads back to the
    /// same value.
    pub fn get(&self, key: &str) -> Result<String, ParamError> {
        Ok((field(key)?.get)(self))
    }

    /// Every parameter as `(key, value)`, in the order of the struct's fields.
    pub fn list(&self) -> Vec<(&'static str, String)> {
        FIELDS.iter().map(|f| (f.key, (f.get)(self))).collect()
    }

    /// The kind of value the parameter `key` takes.
    pub fn kind(key: &str) -> Result<Kind, ParamError> {
        Ok((field(key)?.kind)(&Params::default()))
    }
}

fn field(key: &str) -> Result<&'static Field, ParamError> {
    FIELDS
        .iter()
        .find(|f| f.key == key)
        .ok_or_else(|| ParamError::UnknownKey(key.to_string()))
}

/// One parameter of the table: its name, and how to read, write and describe it.
struct Field {
    key: &'static str,
    get: fn(&Params) -> String,
    /// Sets the field, or says what it takes.
    set: fn(&mut Params, &str) -> Result<(), String>,
    kind: fn(&Params) -> Kind,
}

/// The types of the parameters: how each reads and writes its text.
trait Value: Copy + PartialOrd + fmt::Display {
    const KIND: Kind;
    fn parse(text: &str) -> Option<Self>;
    fn show(self) -> String;
    /// What a value in `range` is, in words.
    fn expected(range: &RangeInclusive<Self>) -> String;
    fn kind(&self) -> Kind {
        Self::KIND
    }
}

impl Value for f64 {
    const KIND: Kind = Kind::Number;

    fn parse(text: &str) -> Option<f64> {
        text.parse::<f64>().ok().filter(|x| x.is_finite())
    }

    /// The shortest text that reads back to the same number.
    fn show(self) -> String {
        if self != 0.0 && !(1e-4..1e15).contains(&self.abs()) {
            format!("{self:e}")
        } else {
            format!("{self}")
        }
    }

    fn expected(range: &RangeInclusive<f64>) -> String {
        match (*range.start(), *range.end()) {
            (lo, _) if lo == f64::MIN_POSITIVE => "a number above 0".to_string(),
            (lo, hi) if hi == f64::INFINITY => format!("a number of at least {lo}"),
            (lo, hi) => format!("a number from {lo} to {hi}"),
        }
    }
}

macro_rules! counts {
    ($($t:ty),*) => {$(
        impl Value for $t {
            const KIND: Kind = Kind::Count;

            fn parse(text: &str) -> Option<$t> {
                text.parse::<$t>().ok()
            }

            fn show(self) -> String {
                self.to_string()
            }

            fn expected(range: &RangeInclusive<$t>) -> String {
                if *range.end() == <$t>::MAX {
                    format!("a whole number of at least {}", range.start())
                } else {
                    format!("a whole number from {} to {}", range.start(), range.end())
                }
            }
        }
    )*};
}
counts!(u32, u64, usize);

impl Value for bool {
    const KIND: Kind = Kind::Switch;

    fn parse(text: &str) -> Option<bool> {
        crate::parse::on_off(text)
    }

    fn show(self) -> String {
        u8::from(self).to_string()
    }

    fn expected(_: &RangeInclusive<bool>) -> String {
        "1 or 0 (true or false)".to_string()
    }
}

/// Any number (of at least 0 where the range says so).
const AT_LEAST_0: RangeInclusive<f64> = 0.0..=f64::INFINITY;
/// A number above 0.
const ABOVE_0: RangeInclusive<f64> = f64::MIN_POSITIVE..=f64::INFINITY;
/// A share or a probability.
const SHARE: RangeInclusive<f64> = 0.0..=1.0;

/// The table of the parameters: `"key" => field.path in range;`, in the order of the
/// struct's fields. The one place that names them.
macro_rules! table {
    ($($key:literal => $($field:ident).+ in $range:expr;)*) => {
        const FIELDS: &[Field] = &[$(
            Field {
                key: $key,
                get: |p| Value::show(p.$($field).+),
                set: |p, text| {
                    let range = $range;
                    match Value::parse(text) {
                        Some(v) if range.contains(&v) => {
                            p.$($field).+ = v;
                            Ok(())
                        }
                        _ => Err(Value::expected(&range)),
                    }
                },
                kind: |p| Value::kind(&p.$($field).+),
            },
        )*];
    };
}

table! {
    "rave_equivalence" => rave_equivalence in ABOVE_0;
    "expand_after" => expand_after in 0..=u32::MAX;
    "lcb_z" => lcb_z in AT_LEAST_0;
    "pass_empty_share" => pass_empty_share in SHARE;
    "pv_length" => pv_length in 0..=usize::MAX;
    "time_check_period" => time_check_period in 1..=u64::MAX;
    "settle_check_period" => settle_check_period in 1..=u64::MAX;
    "settle_close" => settle_close in SHARE;
    "tally_flush" => tally_flush in 1..=u64::MAX;
    "playout_atari" => playout.atari in SHARE;
    "playout_escapes" => playout.escapes in false..=true;
    "playout_tactics" => playout.tactics in SHARE;
    "playout_nakade" => playout.nakade in SHARE;
    "playout_pattern" => playout.pattern in SHARE;
    "playout_self_atari" => playout.self_atari in SHARE;
    "playout_lone_self_atari" => playout.lone_self_atari in SHARE;
    "playout_moves_per_point" => playout.moves_per_point in 1..=usize::MAX;
    "prior_even" => priors.even in AT_LEAST_0;
    "prior_pass_value" => priors.pass_value in SHARE;
    "prior_own_eye" => priors.own_eye in AT_LEAST_0;
    "prior_caught_escape" => priors.caught_escape in AT_LEAST_0;
    "prior_caught_escape_value" => priors.caught_escape_value in SHARE;
    "prior_capture_one" => priors.capture_one in AT_LEAST_0;
    "prior_capture_many" => priors.capture_many in AT_LEAST_0;
    "prior_self_atari" => priors.self_atari in AT_LEAST_0;
    "prior_ladder_capture_one" => priors.ladder_capture_one in AT_LEAST_0;
    "prior_ladder_capture_many" => priors.ladder_capture_many in AT_LEAST_0;
    "prior_nakade" => priors.nakade in AT_LEAST_0;
    "prior_ladder_save" => priors.ladder_save in AT_LEAST_0;
    "prior_pattern" => priors.pattern in AT_LEAST_0;
    "prior_closeness_1" => priors.closeness_1 in AT_LEAST_0;
    "prior_closeness_2" => priors.closeness_2 in AT_LEAST_0;
    "prior_closeness_3" => priors.closeness_3 in AT_LEAST_0;
    "prior_edge_open" => priors.edge_open in AT_LEAST_0;
    "prior_third_line_open" => priors.third_line_open in AT_LEAST_0;
    "prior_open_radius" => priors.open_radius in 0..=u32::MAX;
    "net_games" => net.games in AT_LEAST_0;
    "net_after" => net.after in 0..=u32::MAX;
    "net_min_size" => net.min_size in 2..=usize::MAX;
    "net_floor" => net.floor in SHARE;
    "net_value_games" => net.value_games in AT_LEAST_0;
    "value_mix" => value.mix in SHARE;
    "net_cache" => value.cache in 1..=usize::MAX;
    "puct" => puct.enabled in false..=true;
    "puct_exploration" => puct.exploration in AT_LEAST_0;
    "puct_fpu_reduction" => puct.fpu_reduction in AT_LEAST_0;
    "reuse_shift" => reuse_shift in AT_LEAST_0;
    "dynkomi_handicap" => dynamic_komi.handicap in false..=true;
    "dynkomi_giving_stone" => dynamic_komi.giving_stone in AT_LEAST_0;
    "dynkomi_giving_moves" => dynamic_komi.giving_moves in ABOVE_0;
    "dynkomi_taking_stone" => dynamic_komi.taking_stone in AT_LEAST_0;
    "dynkomi_taking_moves" => dynamic_komi.taking_moves in ABOVE_0;
    "dynkomi_situational" => dynamic_komi.situational in false..=true;
    "dynkomi_high" => dynamic_komi.high in SHARE;
    "dynkomi_low" => dynamic_komi.low in SHARE;
    "dynkomi_settle" => dynamic_komi.settle in SHARE;
    "dynkomi_step" => dynamic_komi.step in AT_LEAST_0;
    "dynkomi_drop" => dynamic_komi.drop in AT_LEAST_0;
    "dynkomi_max" => dynamic_komi.max in AT_LEAST_0;
    "dynkomi_end_share" => dynamic_komi.end_share in SHARE;
    "draw_share" => draw_share in 1..=u32::MAX;
    "sight_chain" => sight_chain in 1..=u32::MAX;
    "sight" => sight in SHARE;
    "point_loss" => point_loss in AT_LEAST_0;
    "resign_threshold" => resign_threshold in SHARE;
    "resign_moves" => resign_moves in 1..=u32::MAX;
    "resign_handicap_share" => resign_handicap_share in SHARE;
    "resign_min_playouts" => resign_min_playouts in 0..=u32::MAX;
    "resign_check_playouts" => resign_check_playouts in 0..=u32::MAX;
    "cleanup_slack" => cleanup_slack in SHARE;
    "regression_playouts" => regression_playouts in 1..=u64::MAX;
    "judge_playouts" => judge_playouts in 1..=u32::MAX;
    "judge_search_playouts" => judge_search_playouts in 1..=u64::MAX;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_back_what_it_lists() {
        let defaults = Params::default();
        let mut params = defaults;
        for (key, value) in defaults.list() {
            params.set(key, &value).unwrap();
            assert_eq!(params.get(key).unwrap(), value);
        }
        assert_eq!(params, defaults);
        let keys: Vec<_> = defaults.list().into_iter().map(|(k, _)| k).collect();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "a key named twice");
    }

    /// Each key reaches its own field: changing one changes the struct, and no two keys
    /// change the same field.
    #[test]
    fn every_key_has_its_own_field() {
        let defaults = Params::default();
        let mut seen: Vec<Params> = Vec::new();
        for (key, value) in defaults.list() {
            let mut params = defaults;
            let other = match Params::kind(key).unwrap() {
                Kind::Switch => if value == "1" { "0" } else { "1" }.to_string(),
                Kind::Count => (value.parse::<u64>().unwrap() + 1).to_string(),
                Kind::Number => {
                    let x: f64 = value.parse().unwrap();
                    let changed = match x {
                        x if x >= 1.0 => x + 1.0,
                        0.0 => 0.5,
                        x => x / 2.0,
                    };
                    changed.to_string()
                }
            };
            params.set(key, &other).unwrap();
            assert_ne!(params, defaults, "{key}");
            assert!(
                !seen.contains(&params),
                "{key} changes a field another key does"
            );
            seen.push(params);
        }
    }

    #[test]
    fn bad_values_and_unknown_keys_change_nothing() {
        let mut params = Params::default();
        for (key, value) in [
            ("rave_equivalence", "0"),
            ("rave_equivalence", "-3"),
            ("rave_equivalence", "inf"),
            ("rave_equivalence", "NaN"),
            ("expand_after", "-1"),
            ("expand_after", "1.5"),
            ("playout_atari", "1.1"),
            ("playout_escapes", "maybe"),
            ("tally_flush", "0"),
            ("draw_share", "0"),
        ] {
            assert!(
                matches!(params.set(key, value), Err(ParamError::BadValue { .. })),
                "{key} {value}"
            );
        }
        assert_eq!(
            params.set("rave", "3000"),
            Err(ParamError::UnknownKey("rave".to_string()))
        );
        assert_eq!(params, Params::default());
        let error = params.set("playout_atari", "2").unwrap_err();
        assert_eq!(
            error.to_string(),
            "playout_atari takes a number from 0 to 1, not \"2\""
        );
        assert_eq!(
            params.set("rave_equivalence", "x").unwrap_err().to_string(),
            "rave_equivalence takes a number above 0, not \"x\""
        );
    }

    #[test]
    fn numbers_read_back_exactly() {
        let mut params = Params::default();
        for text in ["2500", "0.1", "1e300", "3.0000000000000004", "0.00001"] {
            params.set("rave_equivalence", text).unwrap();
            let shown = params.get("rave_equivalence").unwrap();
            assert_eq!(shown.parse::<f64>(), text.parse::<f64>(), "{text} {shown}");
        }
        assert_eq!(params.get("rave_equivalence").unwrap(), "1e-5");
        params.set("rave_equivalence", "2500").unwrap();
        assert_eq!(params.get("rave_equivalence").unwrap(), "2500");
        assert_eq!(params.rave_equivalence, 2500.0);
    }

    #[test]
    fn the_closeness_reach_follows_the_bonuses() {
        let mut weights = PriorWeights::default();
        assert_eq!(weights.closeness_reach(), 3);
        weights.closeness_3 = 0.0;
        assert_eq!(weights.closeness_reach(), 2);
        assert_eq!(weights.closeness(3), None);
    }
}
