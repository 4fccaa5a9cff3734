//! A searched position as the protocol answers it: `moveInfos`, `rootInfo`, `ownership`
//! and `policy`, each winrate and score from the point of view the query asked for.

use super::query::{Fault, Query, ReportAs};
use crate::board::Board;
use crate::coord::{Color, Geometry, Move};
use crate::engine::{Engine, NetworkView};
use crate::net::Symmetry;
use crate::search::{rows_from_top, SearchResult};
use serde_json::{json, Value};

/// Sets up `query`'s game at `turn` on `engine`; returns the player to move there.
pub fn set_up(engine: &mut Engine, query: &Query, turn: usize) -> Result<Color, Fault> {
    let fault = |field: &str, message: String| Fault {
        message,
        field: Some(field.to_string()),
        id: Some(query.id.clone()),
    };
    if engine.game().size() != query.size && !engine.resize(query.size) {
        return Err(fault(
            "boardXSize",
            format!("cannot play {0}x{0}", query.size),
        ));
    }
    engine.set_rules(query.rules);
    engine.set_komi(query.komi.unwrap_or(query.rules.default_komi));
    engine.clear();
    let first = query
        .initial_player
        .or_else(|| query.moves.first().map(|&(color, _)| color))
        .unwrap_or(Color::Black);
    if (!query.initial_stones.is_empty() || first != Color::Black)
        && !engine.set_position(&query.initial_stones, first)
    {
        return Err(fault("initialStones", "two stones on one point".into()));
    }
    for (n, &(color, mv)) in query.moves.iter().take(turn).enumerate() {
        if let Err(why) = engine.play(color, mv) {
            let name = engine.game().board().geometry().move_name(mv);
            return Err(fault(
                "moves",
                format!("illegal move {} ({color} {name}): {why}", n + 1),
            ));
        }
    }
    Ok(query
        .moves
        .get(turn)
        .map(|&(color, _)| color)
        .unwrap_or_else(|| engine.game().to_move()))
}

/// The root moves `query` lets `color`, the player to move, consider: those of its
/// `allowMoves` entry for `color`, else every point, less those of its `avoidMoves` entries
/// for `color` (hoshi applies both at the root only); `None` where it names none.
pub fn root_moves(query: &Query, color: Color) -> Option<Vec<Move>> {
    let mine = |lists: &[(Color, Vec<Move>)]| -> Vec<Move> {
        lists
            .iter()
            .filter(|(c, _)| *c == color)
            .flat_map(|(_, moves)| moves.iter().copied())
            .collect()
    };
    let (allowed, avoided) = (mine(&query.allow), mine(&query.avoid));
    let allowed_only = query.allow.iter().any(|(c, _)| *c == color);
    if !allowed_only && avoided.is_empty() {
        return None;
    }
    let mut moves = if allowed_only {
        allowed
    } else {
        let geometry = Geometry::new(query.size)?;
        geometry.points().map(Move::Play).collect()
    };
    moves.retain(|mv| !avoided.contains(mv));
    Some(moves)
}

/// `rootInfo`'s `thisHash` and `symHash`: the position's identity (its stones, the player
/// to move and a simple-ko ban), and the least of it over the board's eight symmetries, the
/// same for positions that are turns or mirrors of one another. hoshi's own 64-bit hash
/// (KataGo's are its Zobrist hashes of 128 bits): tools compare them, never read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hashes {
    pub this: u64,
    pub sym: u64,
}

impl Hashes {
    pub fn of(board: &Board, to_move: Color) -> Hashes {
        let geometry = board.geometry();
        let size = geometry.size();
        let ko = board
            .ko()
            .filter(|&(_, banned)| banned == to_move)
            .map(|(p, _)| geometry.vertex_index(p));
        let stones: Vec<(usize, Color)> = geometry
            .points()
            .filter_map(|p| Some((geometry.vertex_index(p), board.color_at(p)?)))
            .collect();
        let read_in = |symmetry: Symmetry| {
            let mut hash = mix((size as u64) ^ ((to_move.index() as u64) << 8));
            for &(i, color) in &stones {
                let at = symmetry.map(size, i) as u64;
                hash = hash.wrapping_add(mix((at << 2) | (1 + color.index() as u64)));
            }
            if let Some(i) = ko {
                hash ^= mix((symmetry.map(size, i) as u64) << 2);
            }
            hash
        };
        Hashes {
            this: read_in(Symmetry::IDENTITY),
            sym: Symmetry::all().map(read_in).min().unwrap_or(0),
        }
    }
}

/// SplitMix64's finaliser: a 64-bit mix in which every input bit moves half the output's.
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// One answer about one position.
pub struct Answer<'a> {
    pub query: &'a Query,
    pub turn: usize,
    /// The player to move.
    pub color: Color,
    pub hashes: Hashes,
    pub during_search: bool,
}

impl Answer<'_> {
    /// The answer to send for `result`, with the network's own `view` of the position
    /// where there is one (`rootInfo`'s raw values, and the policy where asked).
    pub fn of(&self, result: &SearchResult, view: Option<&NetworkView>) -> Value {
        let query = self.query;
        let size = query.size;
        let geometry = Geometry::new(size).expect("a size the query checked");
        // +1 where the winrates and scores are the mover's, -1 where they are the other's.
        let sign = match (query.report_as, self.color) {
            (ReportAs::SideToMove, _) | (ReportAs::Black, Color::Black) => 1.0,
            (ReportAs::White, Color::White) => 1.0,
            _ => -1.0,
        };
        let rate = |w: f64| if sign > 0.0 { w } else { 1.0 - w };
        // Black's ownership, or the mover's, or White's, as the winrates.
        let seen_by = match query.report_as {
            ReportAs::Black => Color::Black,
            ReportAs::White => Color::White,
            ReportAs::SideToMove => self.color,
        };
        let name = |mv: Move| geometry.move_name(mv);
        let pv_len = query.pv_len.map_or(usize::MAX, |n| n + 1);
        let infos: Vec<Value> = result
            .candidates
            .iter()
            .filter(|info| info.visits > 0)
            .enumerate()
            .map(|(order, info)| {
                let (winrate, lcb) = (rate(info.winrate), rate(info.lcb));
                let score = sign * info.score_lead;
                let pv_visits = info.pv_visits.iter().take(pv_len);
                let mut entry = json!({
                    "move": name(info.mv),
                    "visits": info.visits,
                    "edgeVisits": info.visits,
                    "winrate": winrate,
                    "scoreLead": score,
                    "scoreMean": score,
                    "scoreSelfplay": score,
                    "scoreStdev": info.score_stdev,
                    "prior": info.prior,
                    "utility": 2.0 * winrate - 1.0,
                    "lcb": lcb,
                    "utilityLcb": 2.0 * lcb - 1.0,
                    "order": order,
                    "pv": info.pv.iter().take(pv_len).map(|&mv| name(mv)).collect::<Vec<_>>(),
                });
                if query.include_pv_visits {
                    entry["pvVisits"] = json!(pv_visits.collect::<Vec<_>>());
                }
                if let (true, Some(ownership)) = (query.include_moves_ownership, &info.ownership) {
                    entry["ownership"] = json!(rows_from_top(ownership, size, seen_by));
                }
                entry
            })
            .collect();
        // The search's score is Black's margin: the mover's is the other way for White.
        let root_score = match (query.report_as, self.color) {
            (ReportAs::White, _) => -result.score_lead,
            (ReportAs::SideToMove, Color::White) => -result.score_lead,
            _ => result.score_lead,
        };
        let root_winrate = rate(result.winrate);
        // The root's visits as the tree counts them: a search may start from a tree kept
        // from the position before, so this search's own simulations can be fewer.
        let visits: u64 = result.candidates.iter().map(|c| u64::from(c.visits)).sum();
        let mut answer = json!({
            "id": query.id,
            "turnNumber": self.turn,
            "isDuringSearch": self.during_search,
            "moveInfos": infos,
            "rootInfo": {
                "winrate": root_winrate,
                "scoreLead": root_score,
                "scoreSelfplay": root_score,
                "utility": 2.0 * root_winrate - 1.0,
                "visits": visits.max(result.visits),
                "currentPlayer": if self.color == Color::Black { "B" } else { "W" },
                "thisHash": format!("{:016X}", self.hashes.this),
                "symHash": format!("{:016X}", self.hashes.sym),
            },
        });
        // The best move's spread stands for the root's.
        if let Some(best) = result.candidates.first() {
            answer["rootInfo"]["scoreStdev"] = json!(best.score_stdev);
        }
        if let Some(view) = view {
            let root = &mut answer["rootInfo"];
            if let Some(value) = view.value {
                root["rawWinrate"] = json!(rate(f64::from(value)));
            }
            if let Some(lead) = view.score_lead {
                root["rawLead"] = json!(sign * f64::from(lead));
                root["rawScoreSelfplay"] = json!(sign * f64::from(lead));
            }
            if let Some(stdev) = view.score_stdev {
                root["rawScoreSelfplayStdev"] = json!(stdev);
            }
            if query.include_policy {
                answer["policy"] = json!(policy_rows(&view.policy, geometry));
            }
        }
        if query.include_ownership {
            answer["ownership"] = json!(rows_from_top(&result.ownership, size, seen_by));
        }
        if query.include_ownership_stdev {
            // A spread has no side: rows_from_top's sign for Black leaves it as it is.
            let stdev = rows_from_top(&result.ownership_stdev, size, Color::Black);
            answer["ownershipStdev"] = json!(stdev);
        }
        answer
    }
}

/// The network's policy as the protocol lists it: size² + 1 values, rows from the top, the
/// pass last, -1 at the moves the rules forbid.
fn policy_rows(policy: &[(Move, f32)], geometry: Geometry) -> Vec<f32> {
    let size = geometry.size();
    let mut rows = vec![-1.0; size * size + 1];
    // Passing is always legal.
    rows[size * size] = 0.0;
    for &(mv, p) in policy {
        let index = match mv {
            Move::Pass => size * size,
            Move::Play(point) => {
                let v = geometry.vertex(point);
                (size - 1 - usize::from(v.row)) * size + usize::from(v.col)
            }
        };
        rows[index] = p;
    }
    rows
}
