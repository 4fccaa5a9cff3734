//! The player's tuning knobs ([`PlayerParams`]: resigning, the weaker ranks' draws and
//! sight, dynamic komi, cleanup, the dead-stone judge's budgets), and [`Params`], every knob
//! of the engine in one value: the search's, the knowledge's and the player's, each read by
//! its own layer. [`Params::set`] changes a knob by name (`hoshi --param KEY=VALUE`, GTP
//! `hoshi-param KEY VALUE`) without a rebuild, and [`Params::list`] names them all, from one
//! table.

use crate::knowledge::KnowledgeParams;
use crate::parse::Auto;
use crate::search::SearchParams;
use crate::setup::Tuning;
use std::fmt;
use std::ops::RangeInclusive;

/// Every knob of the engine, each group read by its layer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Params {
    pub search: SearchParams,
    pub knowledge: KnowledgeParams,
    pub player: PlayerParams,
}

/// The decisions the player makes around the search. The dead-stone judge's searches
/// (`player::judge`) keep the search's and the knowledge's defaults: their verdict must not
/// change with the playing settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerParams {
    /// The komi shift of handicap games and one-sided games ([`DynamicKomi`]).
    pub dynamic_komi: DynamicKomi,
    /// When a level draws its move at a temperature, a candidate takes part only
    /// with at least 1/`draw_share` of the best move's playouts, so that the weaker levels
    /// err among moves the search thought reasonable, not among blunders.
    pub draw_share: u32,
    /// A rank that sees only some of the legal moves (the ranks under 10 kyu,
    /// `player::strength::seen_moves`) still sees every move that saves one of its chains
    /// of at least this many stones from an atari, and every capture of such an enemy
    /// chain: a weak player misses a cut, not the atari of a big group.
    pub sight_chain: u32,
    /// The share of the legal moves the player sees each turn, overriding the
    /// rank's own (`player::strength`) when given: for calibrating the ranks' ladders
    /// (`hoshi calibrate`) without a rebuild.
    pub sight: Option<f64>,
    /// The points a move gives away, as the search counts them, overriding the
    /// rank's own (`player::strength::losing_move`) when given: for calibrating.
    pub point_loss: Option<f64>,
    /// The win rate under which a move counts as hopeless, towards resigning
    /// (`--resign-threshold`); 0 never resigns. 10% as Leela Zero's default: a search that
    /// sees one chance in ten has usually seen a loss, and [`PlayerParams::resign_moves`] in a
    /// row make sure.
    pub resign_threshold: f64,
    /// Moves in a row whose win rate must stay under the resign threshold before
    /// resigning: one bleak search may be a horizon effect.
    pub resign_moves: u32,
    /// In a handicap game, no resigning and no first pass before this share of the board's
    /// points have been played as moves (144 moves on 19x19, 32 on 9x9): the side giving
    /// stones expects to be behind for a long time, and the side taking them to be ahead.
    pub resign_handicap_share: f64,
    /// Simulations the best move needs before its win rate is trusted for
    /// resigning (or a quarter of the search, for the small budgets of the weaker levels).
    pub resign_min_playouts: u32,
    /// Player: a resignation decided by a search of fewer playouts than this (the weaker
    /// ranks' few dozen) is checked first by a search of this many, with every move in
    /// sight, which must find the game lost too: a weak rank plays weakly, but does not
    /// give up a game its count would have turned on the word of 16 playouts.
    pub resign_check_playouts: u32,
    /// How much worse than the search's best a capturing move may look and still
    /// be preferred in cleanup (`kgs-genmove_cleanup`): in a finished game every move wins
    /// (or loses) alike, and what matters then is to take the dead stones off the board.
    pub cleanup_slack: f64,
    /// Playouts of a `reg_genmove` search for a level that thinks by time (a
    /// regression answer must not depend on the machine's speed).
    pub regression_playouts: u64,
    /// The dead-stone judge: playouts of the dead-stone judge's quick Monte Carlo estimate: enough for its
    /// verdict on a finished game not to depend on the seed, few enough to answer at once
    /// (about 15 ms on 19x19).
    pub judge_playouts: u32,
    /// The dead-stone judge: playouts of each of the two searches that judge life and death: the verdicts
    /// of `tests/it/dead_stones.rs` stay the same with another seed, and a finished 19x19
    /// game is judged in about 0.13 s of CPU. The judge's searches keep the search's
    /// default tuning whatever these parameters say of it: their verdict must not change
    /// with the playing settings.
    pub judge_search_playouts: u64,
    /// The dead-stone judge: the weight of the network's ownership (with a network that
    /// has an ownership head) against the searches' in the verdict on each chain, from 0
    /// (the searches alone) to 1 (the network alone: the searches are not run).
    pub judge_net: f64,
}

impl Default for PlayerParams {
    fn default() -> Self {
        PlayerParams {
            dynamic_komi: DynamicKomi::default(),
            draw_share: 10,
            sight_chain: 3,
            sight: None,
            point_loss: None,
            resign_threshold: 0.1,
            resign_moves: 3,
            resign_handicap_share: 0.4,
            resign_min_playouts: 500,
            resign_check_playouts: 1_000,
            cleanup_slack: 0.05,
            regression_playouts: 10_000,
            judge_playouts: 256,
            judge_search_playouts: 2_500,
            judge_net: 0.0,
        }
    }
}

impl Params {
    /// The knobs the setup reads ([`crate::setup::Tuning`]): the search's and the
    /// knowledge's.
    pub fn tuning(&self) -> Tuning {
        Tuning {
            search: self.search,
            knowledge: self.knowledge,
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
    /// even self-play came out even on 9x9 and on 19x19, and it stays off until a match
    /// shows a gain (docs/benchmarks.md, "Situational komi in even games").
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
    /// `auto` (left to the network, [`Auto`]) or a number or a switch.
    Auto,
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

    /// `KEY=VALUE` as a command line writes a setting (`--param`), checked: the key a
    /// parameter and the value one it takes. The error says what is wrong in words.
    pub fn parse_setting(text: &str) -> Result<(String, String), String> {
        let (key, value) = text
            .split_once('=')
            .ok_or_else(|| format!("expected KEY=VALUE, not {text:?}"))?;
        Params::default()
            .set(key, value)
            .map_err(|why| why.to_string())?;
        Ok((key.to_string(), value.to_string()))
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
trait Value: Copy + PartialOrd {
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

/// A knob that may be left to someone else (`player::PlayerParams::sight`: the rank's own):
/// 0 leaves it, anything above 0 sets it, as the knob's range allows.
impl Value for Option<f64> {
    const KIND: Kind = Kind::Number;

    fn parse(text: &str) -> Option<Option<f64>> {
        match f64::parse(text)? {
            0.0 => Some(None),
            x if x > 0.0 => Some(Some(x)),
            _ => None,
        }
    }

    fn show(self) -> String {
        self.map_or_else(|| "0".to_string(), f64::show)
    }

    fn expected(range: &RangeInclusive<Option<f64>>) -> String {
        match range.end() {
            Some(hi) if hi.is_finite() => format!("0 (left to the rank) or a number up to {hi}"),
            _ => "0 (left to the rank) or a number above 0".to_string(),
        }
    }
}

impl<T: Copy> Auto<T> {
    /// `auto`, or what `value` reads.
    fn read(text: &str, value: impl FnOnce(&str) -> Option<T>) -> Option<Auto<T>> {
        match text {
            "auto" => Some(Auto(None)),
            _ => value(text).map(|v| Auto(Some(v))),
        }
    }

    /// `auto`, or what `value` writes.
    fn write(self, value: impl FnOnce(T) -> String) -> String {
        self.0.map_or_else(|| "auto".to_string(), value)
    }
}

/// `auto`, or a number (of at least 0: every such knob's range starts at 0 or above).
impl Value for Auto<f64> {
    const KIND: Kind = Kind::Auto;

    fn parse(text: &str) -> Option<Auto<f64>> {
        Auto::read(text, |t| f64::parse(t).filter(|&x| x >= 0.0))
    }

    fn show(self) -> String {
        self.write(f64::show)
    }

    fn expected(range: &RangeInclusive<Auto<f64>>) -> String {
        let hi = range.end().write(f64::show);
        format!("auto or a number from 0 to {hi}")
    }
}

/// `auto`, or on or off.
impl Value for Auto<bool> {
    const KIND: Kind = Kind::Auto;

    fn parse(text: &str) -> Option<Auto<bool>> {
        Auto::read(text, bool::parse)
    }

    fn show(self) -> String {
        self.write(bool::show)
    }

    fn expected(_: &RangeInclusive<Auto<bool>>) -> String {
        "auto, 1 or 0 (true or false)".to_string()
    }
}

/// Any number (of at least 0 where the range says so).
const AT_LEAST_0: RangeInclusive<f64> = 0.0..=f64::INFINITY;
/// A number above 0.
const ABOVE_0: RangeInclusive<f64> = f64::MIN_POSITIVE..=f64::INFINITY;
/// A share or a probability.
const SHARE: RangeInclusive<f64> = 0.0..=1.0;
/// Left to the rank (0), or a share.
const OPTIONAL_SHARE: RangeInclusive<Option<f64>> = None..=Some(1.0);
/// Left to the rank (0), or any number above 0.
const OPTIONAL_AT_LEAST_0: RangeInclusive<Option<f64>> = None..=Some(f64::INFINITY);
/// Left to the network, or a share (`auto` orders first; negative numbers do not read).
const AUTO_SHARE: RangeInclusive<Auto<f64>> = Auto(None)..=Auto(Some(1.0));
/// Left to the network, or any number of at least 0.
const AUTO_AT_LEAST_0: RangeInclusive<Auto<f64>> = Auto(None)..=Auto(Some(f64::INFINITY));
/// Left to the network, or on or off.
const AUTO_SWITCH: RangeInclusive<Auto<bool>> = Auto(None)..=Auto(Some(true));

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
    "rave_equivalence" => search.rave_equivalence in ABOVE_0;
    "expand_after" => search.expand_after in 0..=u32::MAX;
    "lcb_z" => search.lcb_z in AT_LEAST_0;
    "lcb_choice_z" => search.lcb_choice_z in AT_LEAST_0;
    "lcb_choice_share" => search.lcb_choice_share in SHARE;
    "pass_empty_share" => search.pass_empty_share in SHARE;
    "pv_length" => search.pv_length in 0..=usize::MAX;
    "time_check_period" => search.time_check_period in 1..=u64::MAX;
    "settle_check_period" => search.settle_check_period in 1..=u64::MAX;
    "settle_close" => search.settle_close in SHARE;
    "tally_flush" => search.tally_flush in 1..=u64::MAX;
    "tally_flush_ms" => search.tally_flush_ms in 1..=u64::MAX;
    "playout_atari" => knowledge.playout.atari in SHARE;
    "playout_escapes" => knowledge.playout.escapes in false..=true;
    "playout_tactics" => knowledge.playout.tactics in SHARE;
    "playout_nakade" => knowledge.playout.nakade in SHARE;
    "playout_pattern" => knowledge.playout.pattern in SHARE;
    "playout_self_atari" => knowledge.playout.self_atari in SHARE;
    "playout_lone_self_atari" => knowledge.playout.lone_self_atari in SHARE;
    "playout_moves_per_point" => knowledge.playout.moves_per_point in 1..=usize::MAX;
    "prior_even" => knowledge.priors.even in AT_LEAST_0;
    "prior_pass_value" => knowledge.priors.pass_value in SHARE;
    "prior_own_eye" => knowledge.priors.own_eye in AT_LEAST_0;
    "prior_caught_escape" => knowledge.priors.caught_escape in AT_LEAST_0;
    "prior_caught_escape_value" => knowledge.priors.caught_escape_value in SHARE;
    "prior_capture_one" => knowledge.priors.capture_one in AT_LEAST_0;
    "prior_capture_many" => knowledge.priors.capture_many in AT_LEAST_0;
    "prior_self_atari" => knowledge.priors.self_atari in AT_LEAST_0;
    "prior_ladder_capture_one" => knowledge.priors.ladder_capture_one in AT_LEAST_0;
    "prior_ladder_capture_many" => knowledge.priors.ladder_capture_many in AT_LEAST_0;
    "prior_nakade" => knowledge.priors.nakade in AT_LEAST_0;
    "prior_ladder_save" => knowledge.priors.ladder_save in AT_LEAST_0;
    "prior_pattern" => knowledge.priors.pattern in AT_LEAST_0;
    "prior_closeness_1" => knowledge.priors.closeness_1 in AT_LEAST_0;
    "prior_closeness_2" => knowledge.priors.closeness_2 in AT_LEAST_0;
    "prior_closeness_3" => knowledge.priors.closeness_3 in AT_LEAST_0;
    "prior_edge_open" => knowledge.priors.edge_open in AT_LEAST_0;
    "prior_third_line_open" => knowledge.priors.third_line_open in AT_LEAST_0;
    "prior_open_radius" => knowledge.priors.open_radius in 0..=u32::MAX;
    "net_games" => knowledge.net.games in AT_LEAST_0;
    "net_after" => knowledge.net.after in 0..=u32::MAX;
    "net_min_size" => knowledge.net.min_size in 2..=usize::MAX;
    "net_floor" => knowledge.net.floor in SHARE;
    "net_value_games" => knowledge.net.value_games in AT_LEAST_0;
    "net_cache" => knowledge.value.cache in 1..=usize::MAX;
    "net_symmetry" => knowledge.value.vary_symmetry in false..=true;
    "score_utility" => knowledge.value.score_utility in AUTO_SHARE;
    "score_scale" => knowledge.value.score_scale in AUTO_AT_LEAST_0;
    "dynamic_score_utility" => knowledge.value.dynamic_score_utility in AUTO_SHARE;
    "dynamic_score_scale" => knowledge.value.dynamic_score_scale in ABOVE_0;
    "dynamic_score_zero_weight" => knowledge.value.dynamic_score_zero_weight in SHARE;
    "puct_exploration" => search.puct.exploration in AUTO_AT_LEAST_0;
    "puct_fpu_reduction" => search.puct.fpu_reduction in AUTO_AT_LEAST_0;
    "reuse_shift" => search.reuse_shift in AT_LEAST_0;
    "dynkomi_handicap" => player.dynamic_komi.handicap in false..=true;
    "dynkomi_giving_stone" => player.dynamic_komi.giving_stone in AT_LEAST_0;
    "dynkomi_giving_moves" => player.dynamic_komi.giving_moves in ABOVE_0;
    "dynkomi_taking_stone" => player.dynamic_komi.taking_stone in AT_LEAST_0;
    "dynkomi_taking_moves" => player.dynamic_komi.taking_moves in ABOVE_0;
    "dynkomi_situational" => player.dynamic_komi.situational in false..=true;
    "dynkomi_high" => player.dynamic_komi.high in SHARE;
    "dynkomi_low" => player.dynamic_komi.low in SHARE;
    "dynkomi_settle" => player.dynamic_komi.settle in SHARE;
    "dynkomi_step" => player.dynamic_komi.step in AT_LEAST_0;
    "dynkomi_drop" => player.dynamic_komi.drop in AT_LEAST_0;
    "dynkomi_max" => player.dynamic_komi.max in AT_LEAST_0;
    "dynkomi_end_share" => player.dynamic_komi.end_share in SHARE;
    "draw_share" => player.draw_share in 1..=u32::MAX;
    "sight_chain" => player.sight_chain in 1..=u32::MAX;
    "sight" => player.sight in OPTIONAL_SHARE;
    "point_loss" => player.point_loss in OPTIONAL_AT_LEAST_0;
    "resign_threshold" => player.resign_threshold in SHARE;
    "resign_moves" => player.resign_moves in 1..=u32::MAX;
    "resign_handicap_share" => player.resign_handicap_share in SHARE;
    "resign_min_playouts" => player.resign_min_playouts in 0..=u32::MAX;
    "resign_check_playouts" => player.resign_check_playouts in 0..=u32::MAX;
    "cleanup_slack" => player.cleanup_slack in SHARE;
    "regression_playouts" => player.regression_playouts in 1..=u64::MAX;
    "judge_playouts" => player.judge_playouts in 1..=u32::MAX;
    "judge_search_playouts" => player.judge_search_playouts in 1..=u64::MAX;
    "judge_net" => player.judge_net in SHARE;
    "value_mix" => knowledge.value.mix in AUTO_SHARE;
    "puct" => search.puct.enabled in AUTO_SWITCH;
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
                Kind::Auto => "1".to_string(),
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
        assert_eq!(params.search.rave_equivalence, 2500.0);
    }

    /// `sight` and `point_loss` are left to the rank until set, list 0 while they are, and
    /// give it back with 0; a negative value is refused.
    #[test]
    fn a_knob_left_to_the_rank_is_set_and_given_back() {
        let mut params = Params::default();
        assert_eq!(params.player.sight, None);
        assert_eq!(params.get("sight").unwrap(), "0");
        params.set("sight", "0.5").unwrap();
        assert_eq!(params.player.sight, Some(0.5));
        assert_eq!(params.get("sight").unwrap(), "0.5");
        assert!(params.set("sight", "1.5").is_err());
        assert!(params.set("point_loss", "-2").is_err());
        params.set("point_loss", "2.5").unwrap();
        assert_eq!(params.player.point_loss, Some(2.5));
        params.set("sight", "0").unwrap();
        assert_eq!(params.player.sight, None);
        assert_eq!(
            params.set("point_loss", "x").unwrap_err().to_string(),
            "point_loss takes 0 (left to the rank) or a number above 0, not \"x\""
        );
    }
}
