//! One line of KataGo's JSON analysis protocol read into a [`Request`]: a query (a game and
//! the turns of it to analyse) or an action (`query_version`, `terminate`, ...), every field
//! checked as KataGo's `docs/Analysis_Engine.md` (lightvector/KataGo, MIT licence, copyright
//! David J. Wu) describes it, an error naming the field and the query's id where one is
//! wrong, and a warning for a field hoshi reads but does not act on.

use crate::coord::{Color, Move, Point, Vertex};
use crate::net::katago::inputs::{KataKo, KataRules, Tax};
use crate::rules::{HandicapBonus, Ruleset, Scoring};
use serde_json::{Map, Value};
use std::time::Duration;

/// The most turns one query may ask for, and the most moves or stones it may give: a bound
/// on what one line can queue (a game of 19x19 has a few hundred moves).
pub const MAX_TURNS: usize = 2000;

/// KataGo's bound on komi.
const MAX_KOMI: f64 = 400.0;

/// What a line asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Query(Box<Query>),
    Action(Action),
}

/// The actions of the protocol besides queries.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    QueryVersion {
        id: String,
    },
    ClearCache {
        id: String,
    },
    QueryModels {
        id: String,
    },
    /// Stop the query `terminate_id`'s positions (those of `turns` only, where given).
    Terminate {
        id: String,
        terminate_id: String,
        turns: Option<Vec<usize>>,
    },
    TerminateAll {
        id: String,
        turns: Option<Vec<usize>>,
    },
}

/// A query: a game, the turns of it to analyse and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    pub id: String,
    pub moves: Vec<(Color, Move)>,
    pub initial_stones: Vec<(Color, Point)>,
    /// Who moves at turn 0 when `moves` does not say (Black by default).
    pub initial_player: Option<Color>,
    pub rules: Ruleset,
    /// The komi; the rules' own when the query gives none.
    pub komi: Option<f64>,
    pub size: usize,
    /// The turns to analyse, each from 0 (the initial position) to the number of moves.
    pub turns: Vec<usize>,
    /// A priority a turn, the same length as `turns`.
    pub priorities: Vec<i64>,
    pub max_visits: Option<u64>,
    pub max_time: Option<Duration>,
    pub include_ownership: bool,
    pub include_ownership_stdev: bool,
    pub include_moves_ownership: bool,
    pub include_policy: bool,
    pub include_pv_visits: bool,
    /// Moves of a PV after its first, at most.
    pub pv_len: Option<usize>,
    pub report_every: Option<Duration>,
    /// Each winrate and score from Black's point of view (KataGo's `reportAnalysisWinratesAs
    /// = BLACK`, its analysis config's default and what KaTrain expects), else the side to
    /// move's (`SIDETOMOVE`), or White's.
    pub report_as: ReportAs,
    /// Moves left out of the search at the root, a player's list each.
    pub avoid: Vec<(Color, Vec<Move>)>,
    /// The only moves the search may consider at the root, for a player.
    pub allow: Vec<(Color, Vec<Move>)>,
}

/// Whose point of view winrates and scores are reported from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportAs {
    Black,
    White,
    SideToMove,
}

/// A query's fault: the message, the field at fault and the query's id (where known), as
/// the protocol's `{"error": ..., "field": ..., "id": ...}` writes them.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    pub message: String,
    pub field: Option<String>,
    pub id: Option<String>,
}

impl Fault {
    fn general(message: impl Into<String>) -> Fault {
        Fault {
            message: message.into(),
            field: None,
            id: None,
        }
    }
}

/// A line read: the request, and the warnings to send before its answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub request: Request,
    pub warnings: Vec<Fault>,
}

/// Fields of a query hoshi reads; any other is warned about and ignored.
const QUERY_FIELDS: &[&str] = &[
    "id",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "includeOwnership",
    "includeOwnershipStdev",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "includeNoResultValue",
    "analysisPVLen",
    "avoidMoves",
    "allowMoves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "priority",
    "priorities",
    "action",
    "rootPolicyTemperature",
    "rootFpuReductionMax",
];

/// Reads one line of the protocol; a query that names no rules is played by
/// `default_rules` (the engine's `--rules`).
pub fn parse(line: &str, default_rules: Ruleset) -> Result<Parsed, Fault> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| Fault::general(format!("could not parse JSON: {e}")))?;
    let Value::Object(object) = value else {
        return Err(Fault::general("a query must be a JSON object"));
    };
    let id = match object.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(_) => return Err(at(None, "id", "id must be a string")),
        None => return Err(Fault::general("query has no id")),
    };
    let reader = Reader {
        object: &object,
        id: &id,
        default_rules,
    };
    if let Some(action) = object.get("action") {
        let action = reader.action(action)?;
        return Ok(Parsed {
            request: Request::Action(action),
            warnings: Vec::new(),
        });
    }
    let mut warnings = Vec::new();
    for key in object
        .keys()
        .filter(|k| !QUERY_FIELDS.contains(&k.as_str()))
    {
        warnings.push(at(Some(&id), key, "unknown field, ignored"));
    }
    let query = reader.query(&mut warnings)?;
    Ok(Parsed {
        request: Request::Query(Box::new(query)),
        warnings,
    })
}

fn at(id: Option<&str>, field: &str, message: impl Into<String>) -> Fault {
    Fault {
        message: message.into(),
        field: Some(field.to_string()),
        id: id.map(str::to_string),
    }
}

/// A query's object and its id, for errors that name both.
struct Reader<'a> {
    object: &'a Map<String, Value>,
    id: &'a str,
    default_rules: Ruleset,
}

impl Reader<'_> {
    fn fault(&self, field: &str, message: impl Into<String>) -> Fault {
        at(Some(self.id), field, message)
    }

    fn action(&self, action: &Value) -> Result<Action, Fault> {
        let id = self.id.to_string();
        let turns = || self.optional_turns("turnNumbers");
        match action.as_str() {
            Some("query_version") => Ok(Action::QueryVersion { id }),
            Some("clear_cache") => Ok(Action::ClearCache { id }),
            Some("query_models") => Ok(Action::QueryModels { id }),
            Some("terminate") => {
                let terminate_id = match self.object.get("terminateId") {
                    Some(Value::String(t)) => t.clone(),
                    Some(_) => return Err(self.fault("terminateId", "must be a string")),
                    None => return Err(self.fault("terminateId", "terminate needs a terminateId")),
                };
                Ok(Action::Terminate {
                    id,
                    terminate_id,
                    turns: turns()?,
                })
            }
            Some("terminate_all") => Ok(Action::TerminateAll {
                id,
                turns: turns()?,
            }),
            _ => Err(self.fault("action", "unknown action")),
        }
    }

    fn optional_turns(&self, field: &str) -> Result<Option<Vec<usize>>, Fault> {
        match self.object.get(field) {
            None => Ok(None),
            Some(value) => self.turn_list(field, value, usize::MAX).map(Some),
        }
    }

    fn query(&self, warnings: &mut Vec<Fault>) -> Result<Query, Fault> {
        let size = self.size()?;
        let moves = match self.object.get("moves") {
            Some(value) => self.located("moves", value, size)?,
            None => return Err(self.fault("moves", "query has no moves (give [] for none)")),
        };
        let initial_stones = match self.object.get("initialStones") {
            Some(value) => self
                .located("initialStones", value, size)?
                .into_iter()
                .map(|(color, mv)| match mv {
                    Move::Play(point) => Ok((color, point)),
                    Move::Pass => Err(self.fault("initialStones", "a stone cannot be a pass")),
                })
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        let initial_player = match self.object.get("initialPlayer") {
            Some(value) => Some(self.color("initialPlayer", value)?),
            None => None,
        };
        let rules = self.rules()?;
        let komi = match self.object.get("komi") {
            Some(value) => Some(self.komi(value)?),
            None => None,
        };
        let turns = match self.object.get("analyzeTurns") {
            Some(value) => self.turn_list("analyzeTurns", value, moves.len())?,
            None => vec![moves.len()],
        };
        let priorities = self.priorities(turns.len())?;
        let settings = self.override_settings(warnings)?;
        let max_visits = match self.object.get("maxVisits") {
            Some(value) => Some(self.positive("maxVisits", value)?),
            None => settings.max_visits,
        };
        let report_every = match self.object.get("reportDuringSearchEvery") {
            Some(value) => Some(self.seconds("reportDuringSearchEvery", value)?),
            None => None,
        };
        let pv_len = match self.object.get("analysisPVLen") {
            Some(value) => Some(self.positive("analysisPVLen", value)? as usize),
            None => None,
        };
        for field in ["rootPolicyTemperature", "rootFpuReductionMax"] {
            if self.object.contains_key(field) {
                warnings.push(self.fault(field, "not used by hoshi's search, ignored"));
            }
        }
        Ok(Query {
            id: self.id.to_string(),
            avoid: self.move_lists("avoidMoves", size, warnings)?,
            allow: self.move_lists("allowMoves", size, warnings)?,
            moves,
            initial_stones,
            initial_player,
            rules,
            komi,
            size,
            turns,
            priorities,
            max_visits,
            max_time: settings.max_time,
            include_ownership: self.flag("includeOwnership")?,
            include_ownership_stdev: self.flag("includeOwnershipStdev")?,
            include_moves_ownership: self.flag("includeMovesOwnership")?,
            include_policy: self.flag("includePolicy")?,
            include_pv_visits: self.flag("includePVVisits")?,
            pv_len,
            report_every,
            report_as: settings.report_as,
        })
    }

    /// The board's size: square, one hoshi plays (2 to 25).
    fn size(&self) -> Result<usize, Fault> {
        let side = |field: &str| match self.object.get(field) {
            Some(value) => self.positive(field, value),
            None => Err(self.fault(field, format!("query has no {field}"))),
        };
        let (x, y) = (side("boardXSize")?, side("boardYSize")?);
        if x != y {
            return Err(self.fault("boardYSize", "hoshi plays square boards only"));
        }
        if !(crate::coord::MIN_SIZE as u64..=crate::coord::MAX_SIZE as u64).contains(&x) {
            return Err(self.fault(
                "boardXSize",
                format!(
                    "board size {x} not supported: {} to {}",
                    crate::coord::MIN_SIZE,
                    crate::coord::MAX_SIZE
                ),
            ));
        }
        Ok(x as usize)
    }

    fn color(&self, field: &str, value: &Value) -> Result<Color, Fault> {
        match value.as_str().map(str::to_ascii_uppercase).as_deref() {
            Some("B" | "BLACK") => Ok(Color::Black),
            Some("W" | "WHITE") => Ok(Color::White),
            _ => Err(self.fault(field, "a player must be \"B\" or \"W\"")),
        }
    }

    /// `[[player, location], ...]`, locations as GTP writes them, `pass`, or `(x,y)` (x
    /// from the left, y from the top, as KataGo reads them).
    fn located(
        &self,
        field: &str,
        value: &Value,
        size: usize,
    ) -> Result<Vec<(Color, Move)>, Fault> {
        let Value::Array(items) = value else {
            return Err(self.fault(field, "must be a list of [player, location] pairs"));
        };
        if items.len() > MAX_TURNS {
            return Err(self.fault(field, format!("more than {MAX_TURNS} entries")));
        }
        items
            .iter()
            .map(|item| match item.as_array().map(Vec::as_slice) {
                Some([player, location]) => {
                    let color = self.color(field, player)?;
                    let mv = location
                        .as_str()
                        .and_then(|text| location_move(text, size))
                        .ok_or_else(|| {
                            self.fault(field, format!("bad location {location} on {size}x{size}"))
                        })?;
                    Ok((color, mv))
                }
                _ => Err(self.fault(field, "each entry must be a [player, location] pair")),
            })
            .collect()
    }

    fn rules(&self) -> Result<Ruleset, Fault> {
        let bonus = match self.object.get("whiteHandicapBonus") {
            Some(value) => Some(handicap_bonus(value).ok_or_else(|| {
                self.fault("whiteHandicapBonus", "must be \"0\", \"N\" or \"N-1\"")
            })?),
            None => None,
        };
        let rules = match self.object.get("rules") {
            Some(Value::String(name)) => katago_rules_name(name)
                .ok_or_else(|| self.fault("rules", format!("unknown rules {name:?}")))?,
            Some(Value::Object(fields)) => self.rules_object(fields, bonus)?,
            Some(_) => return Err(self.fault("rules", "must be a name or an object")),
            // KataGo's engine wants rules in every query; hoshi plays its own default.
            None => self.default_rules,
        };
        match bonus {
            Some(b) if b != rules.handicap_bonus => {
                preset_matching(|r| same_kata(r, &rules) && r.handicap_bonus == b).ok_or_else(
                    || {
                        self.fault(
                            "whiteHandicapBonus",
                            format!("no ruleset hoshi has is {} with that bonus", rules.name),
                        )
                    },
                )
            }
            _ => Ok(rules),
        }
    }

    /// KataGo's rules object (`ko`, `scoring`, `tax`, `suicide`, `hasButton`,
    /// `whiteHandicapBonus`): the preset of hoshi's that plays them.
    fn rules_object(
        &self,
        fields: &Map<String, Value>,
        bonus: Option<HandicapBonus>,
    ) -> Result<Ruleset, Fault> {
        let text = |key: &str| {
            fields
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_ascii_uppercase)
        };
        let ko = match text("ko").as_deref() {
            Some("SIMPLE") => KataKo::Simple,
            Some("POSITIONAL") => KataKo::Positional,
            Some("SITUATIONAL") => KataKo::Situational,
            _ => return Err(self.fault("rules", "ko must be SIMPLE, POSITIONAL or SITUATIONAL")),
        };
        let scoring = match text("scoring").as_deref() {
            Some("AREA") => Scoring::Area,
            Some("TERRITORY") => Scoring::Territory,
            _ => return Err(self.fault("rules", "scoring must be AREA or TERRITORY")),
        };
        let tax = match text("tax").as_deref() {
            None | Some("NONE") => Tax::None,
            Some("SEKI") => Tax::Seki,
            Some("ALL") => Tax::All,
            _ => return Err(self.fault("rules", "tax must be NONE, SEKI or ALL")),
        };
        let suicide = fields
            .get("suicide")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if fields.get("hasButton").and_then(Value::as_bool) == Some(true) {
            return Err(self.fault("rules", "hoshi has no ruleset with a button"));
        }
        let bonus = match fields.get("whiteHandicapBonus") {
            Some(value) => Some(handicap_bonus(value).ok_or_else(|| {
                self.fault(
                    "rules",
                    "whiteHandicapBonus must be \"0\", \"N\" or \"N-1\"",
                )
            })?),
            None => bonus,
        };
        preset_matching(|r| {
            let kata = KataRules::of(r);
            kata.ko == ko
                && kata.scoring == scoring
                && kata.tax == tax
                && kata.multi_stone_suicide == suicide
                && bonus.is_none_or(|b| r.handicap_bonus == b)
        })
        .ok_or_else(|| self.fault("rules", "no ruleset hoshi has plays these rules"))
    }

    fn komi(&self, value: &Value) -> Result<f64, Fault> {
        let komi = value
            .as_f64()
            .ok_or_else(|| self.fault("komi", "must be a number"))?;
        if !komi.is_finite() || komi.abs() > MAX_KOMI || (komi * 2.0).fract() != 0.0 {
            return Err(self.fault(
                "komi",
                format!("must be an integer or half-integer within ±{MAX_KOMI}"),
            ));
        }
        Ok(komi)
    }

    fn turn_list(&self, field: &str, value: &Value, last: usize) -> Result<Vec<usize>, Fault> {
        let Value::Array(items) = value else {
            return Err(self.fault(field, "must be a list of turn numbers"));
        };
        if items.len() > MAX_TURNS {
            return Err(self.fault(field, format!("more than {MAX_TURNS} turns")));
        }
        items
            .iter()
            .map(|item| match item.as_u64() {
                Some(turn) if turn as usize <= last => Ok(turn as usize),
                _ => Err(self.fault(
                    field,
                    format!("turn numbers must be integers from 0 to {last}"),
                )),
            })
            .collect()
    }

    fn priorities(&self, turns: usize) -> Result<Vec<i64>, Fault> {
        let one = |field: &str, value: &Value| {
            value
                .as_i64()
                .ok_or_else(|| self.fault(field, "a priority must be an integer"))
        };
        if let Some(value) = self.object.get("priorities") {
            let Value::Array(items) = value else {
                return Err(self.fault("priorities", "must be a list of integers"));
            };
            if items.len() != turns {
                return Err(self.fault("priorities", "must be as long as analyzeTurns"));
            }
            return items.iter().map(|v| one("priorities", v)).collect();
        }
        let priority = match self.object.get("priority") {
            Some(value) => one("priority", value)?,
            None => 0,
        };
        Ok(vec![priority; turns])
    }

    fn flag(&self, field: &str) -> Result<bool, Fault> {
        match self.object.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.fault(field, "must be true or false")),
        }
    }

    fn positive(&self, field: &str, value: &Value) -> Result<u64, Fault> {
        match value.as_u64() {
            Some(n) if n > 0 => Ok(n),
            _ => Err(self.fault(field, "must be a positive integer")),
        }
    }

    fn seconds(&self, field: &str, value: &Value) -> Result<Duration, Fault> {
        match value.as_f64() {
            Some(s) if s.is_finite() && s > 0.0 && s <= 1e6 => Ok(Duration::from_secs_f64(s)),
            _ => Err(self.fault(field, "must be a positive number of seconds")),
        }
    }

    /// `avoidMoves` or `allowMoves`: `[{"player", "moves", "untilDepth"}, ...]`; hoshi
    /// keeps the moves out of (or to) the root's children only, whatever the depth: a
    /// warning says so where an entry reaches deeper.
    fn move_lists(
        &self,
        field: &str,
        size: usize,
        warnings: &mut Vec<Fault>,
    ) -> Result<Vec<(Color, Vec<Move>)>, Fault> {
        let Some(value) = self.object.get(field) else {
            return Ok(Vec::new());
        };
        let Value::Array(items) = value else {
            return Err(self.fault(field, "must be a list of objects"));
        };
        items
            .iter()
            .map(|item| {
                let player = item
                    .get("player")
                    .ok_or_else(|| self.fault(field, "each entry needs a player"))?;
                let color = self.color(field, player)?;
                let moves = item
                    .get("moves")
                    .and_then(Value::as_array)
                    .ok_or_else(|| self.fault(field, "each entry needs a list of moves"))?;
                let moves = moves
                    .iter()
                    .map(|m| {
                        m.as_str()
                            .and_then(|t| location_move(t, size))
                            .ok_or_else(|| self.fault(field, format!("bad location {m}")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                match item.get("untilDepth").map(Value::as_u64) {
                    Some(Some(1)) => Ok((color, moves)),
                    Some(Some(d)) if d > 1 => {
                        let deep = "applied to the root's moves only, not deeper in the search";
                        warnings.push(self.fault(field, deep));
                        Ok((color, moves))
                    }
                    _ => Err(self.fault(field, "untilDepth must be a positive integer")),
                }
            })
            .collect()
    }

    fn override_settings(&self, warnings: &mut Vec<Fault>) -> Result<Overrides, Fault> {
        let mut overrides = Overrides {
            max_visits: None,
            max_time: None,
            report_as: ReportAs::Black,
        };
        let Some(value) = self.object.get("overrideSettings") else {
            return Ok(overrides);
        };
        let Value::Object(settings) = value else {
            return Err(self.fault("overrideSettings", "must be an object"));
        };
        for (key, value) in settings {
            match key.as_str() {
                "maxVisits" => {
                    overrides.max_visits = Some(self.positive("overrideSettings", value)?)
                }
                "maxTime" => overrides.max_time = Some(self.seconds("overrideSettings", value)?),
                "reportAnalysisWinratesAs" => {
                    overrides.report_as =
                        match value.as_str().map(str::to_ascii_uppercase).as_deref() {
                            Some("BLACK") => ReportAs::Black,
                            Some("WHITE") => ReportAs::White,
                            Some("SIDETOMOVE") => ReportAs::SideToMove,
                            _ => {
                                return Err(self.fault(
                                    "overrideSettings",
                                    "reportAnalysisWinratesAs must be BLACK, WHITE or SIDETOMOVE",
                                ))
                            }
                        }
                }
                other => warnings.push(self.fault(
                    "overrideSettings",
                    format!("{other} is not a setting hoshi has, ignored"),
                )),
            }
        }
        Ok(overrides)
    }
}

/// What `overrideSettings` changed.
struct Overrides {
    max_visits: Option<u64>,
    max_time: Option<Duration>,
    report_as: ReportAs,
}

/// A location of the protocol on a board of `size`: GTP's `D4`, `pass`, or `(x,y)` with
/// x from the left and y from the top.
pub fn location_move(text: &str, size: usize) -> Option<Move> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    let vertex = match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(pair) => {
            let (x, y) = pair.split_once(',')?;
            let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
            if y >= size {
                return None;
            }
            Vertex::new(x, size - 1 - y)
        }
        None => Vertex::parse_gtp(text)?,
    };
    let geometry = crate::coord::Geometry::new(size)?;
    geometry.try_point(vertex).map(Move::Play)
}

fn handicap_bonus(value: &Value) -> Option<HandicapBonus> {
    match value.as_str().map(str::to_ascii_uppercase).as_deref() {
        Some("0") => Some(HandicapBonus::None),
        Some("N") => Some(HandicapBonus::N),
        Some("N-1") => Some(HandicapBonus::NMinusOne),
        _ => None,
    }
}

/// KataGo's shorthand names for rules, and hoshi's own, as the preset hoshi plays them by.
fn katago_rules_name(name: &str) -> Option<Ruleset> {
    // KataGo reads `new_zealand`, `new zealand` and `new-zealand` alike (KaTrain sends the
    // second for an SGF's `RU[nz]`).
    let hoshi = match name.to_ascii_lowercase().replace(['_', ' '], "-").as_str() {
        "chinese-ogs" | "chinese-kgs" => "chinese".to_string(),
        "tromptaylor" => "tromp-taylor".to_string(),
        "new-zealand" | "newzealand" | "nz" => "new-zealand".to_string(),
        other => other.to_string(),
    };
    Ruleset::from_name(&hoshi)
}

fn same_kata(a: &Ruleset, b: &Ruleset) -> bool {
    KataRules::of(a) == KataRules::of(b)
}

fn preset_matching(matches: impl Fn(&Ruleset) -> bool) -> Option<Ruleset> {
    Ruleset::PRESETS.into_iter().find(|r| matches(r))
}
