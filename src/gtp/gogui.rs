//! What hoshi shows in GoGui: the analyze commands (a menu of queries whose answers GoGui
//! draws on the board) and the live graphics written to stderr while the engine thinks.
//!
//! GoGui's graphics language (`gfx`) is one directive per line: `LABEL D4 52/1.2k` writes
//! text on points, `INFLUENCE D4 0.8 Q16 -0.5` shades points from Black (+1) to White (-1),
//! `COLOR green D4 E5` colors them, `VAR b D4 w Q16` shows a numbered variation, `TEXT ...`
//! goes to the status bar. Live graphics are the same directives on stderr, each line
//! prefixed with `gogui-gfx:`, and `gogui-gfx: CLEAR` before the answer.

use super::args;
use super::args::color_or_to_move;
use super::input::Signals;
use super::reply::{Failure, Reply};
use crate::board::Illegal;
use crate::coord::{Color, Geometry, Move, Vertex};
use crate::engine::Engine;
use crate::player::{Choice, Mode};
use crate::search::{MoveInfo, Progress};
use std::fmt::Write as _;
use std::time::Duration;

/// Candidate moves labelled on the board, at most.
const LABELLED_MOVES: usize = 12;

/// Time between two live pictures while thinking.
const LIVE_INTERVAL: Duration = Duration::from_millis(500);

/// The menu's entry for the network's value, shown only with a value head.
pub const VALUE_ENTRY: &str = "string/Network Value/hoshi-evaluate";

/// The analyze menu: `type/label/command` per line (GoGui fills `%m` with the color to
/// move, `%s` with a string it asks for, `%w` with a file to write).
pub const MENU: &[&str] = &[
    "gfx/Best Moves/hoshi-best_moves %m",
    "var/Principal Variation/hoshi-pv %m",
    "gfx/Ownership/hoshi-ownership_gfx",
    "gfx/Policy Network/hoshi-policy_gfx",
    VALUE_ENTRY,
    "dboard/Ownership Board/hoshi-ownership",
    "plist/Dead Stones/final_status_list dead",
    "plist/Seki Stones/final_status_list seki",
    "string/Final Score/final_score",
    "string/Estimated Score/estimate_score",
    "gfx/Legal Moves/hoshi-legal_moves %m",
    "param/Parameters/hoshi-param",
    "string/Rules/hoshi-rules",
    "none/Set Rules/hoshi-rules %s",
    "none/Save SGF/printsgf %w",
];

/// `hoshi-best_moves <color>`: a search for `color`, then its candidates labelled with
/// their win rates (percent) and visits (`52/1.2k`), the best line as a variation and a summary in the status bar.
pub fn best_moves(engine: &mut Engine, args: &[String], signals: &Signals) -> Reply {
    let color = color_or_to_move(engine, args)?;
    let study = study(engine, color, signals);
    Ok(picture(
        &study.moves,
        study.visits,
        color,
        engine.game().board().geometry(),
    )
    .join("\n"))
}

/// `hoshi-pv <color>`: the principal variation as GoGui's `var` type wants it, moves
/// without colors, alternating from `color`.
pub fn principal_variation(engine: &mut Engine, args: &[String], signals: &Signals) -> Reply {
    let color = color_or_to_move(engine, args)?;
    let moves = study(engine, color, signals).moves;
    let geometry = engine.game().board().geometry();
    let line = moves.first().map(|best| best.pv.as_slice()).unwrap_or(&[]);
    Ok(line
        .iter()
        .map(|&mv| geometry.move_name(mv))
        .collect::<Vec<_>>()
        .join(" "))
}

/// `hoshi-ownership_gfx`: who owns each point at the end of the search's playouts, as
/// shading from Black (+1) to White (-1); the quick Monte Carlo estimate of
/// `hoshi-ownership` when the player does not search.
pub fn ownership_gfx(engine: &mut Engine, args: &[String], signals: &Signals) -> Reply {
    args::exactly::<0>(args)?;
    let to_move = engine.game().to_move();
    let g = engine.game().board().geometry();
    // The search's ownership is indexed like `vertices`: rows from the bottom, columns
    // from A.
    let values: Vec<f64> = match study(engine, to_move, signals).ownership {
        Some(ownership) => ownership.iter().map(|&v| f64::from(v)).collect(),
        None => {
            let quick = engine.ownership();
            vertices(g).map(|v| quick.map.value(g.point(v))).collect()
        }
    };
    let mut text = String::from("INFLUENCE");
    for (v, value) in vertices(g).zip(values) {
        if value.abs() >= 0.05 {
            let _ = write!(text, " {v} {value:.2}");
        }
    }
    Ok(text)
}

/// `hoshi-policy_gfx`: the policy network's probabilities for the side to move as a heat
/// map (shading from 0 to the best move's probability), its best moves labelled in
/// percent, and the best one in the status bar.
pub fn policy_gfx(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    let moves = engine.policy().ok_or(Failure::NoNetwork)?;
    let g = engine.game().board().geometry();
    let top = moves.first().map_or(0.0, |m| m.1).max(f32::MIN_POSITIVE);
    let mut influence = String::from("INFLUENCE");
    let mut labels = String::from("LABEL");
    // The board shows points; a pass the network rates is named in the status bar only.
    let points = moves.iter().filter(|(mv, _)| *mv != Move::Pass);
    for (k, &(mv, p)) in points.enumerate() {
        if p / top >= 0.01 {
            let _ = write!(influence, " {} {:.2}", g.move_name(mv), p / top);
        }
        if k < LABELLED_MOVES && p >= 0.005 {
            let _ = write!(labels, " {} {:.0}", g.move_name(mv), 100.0 * p);
        }
    }
    let mut lines = vec![influence, labels];
    if let Some(&(mv, p)) = moves.first() {
        lines.push(format!(
            "TEXT policy network: {} {:.1}%",
            g.move_name(mv),
            100.0 * p
        ));
    }
    Ok(lines.join("\n"))
}

/// `hoshi-legal_moves <color>`: the legal points in green, and on every empty point where
/// `color` may not play, the reason (ko, superko, suicide).
pub fn legal_moves(engine: &mut Engine, args: &[String]) -> Reply {
    let color = color_or_to_move(engine, args)?;
    let game = engine.game();
    let g = game.board().geometry();
    let mut legal = Vec::new();
    let mut labels = Vec::new();
    for v in vertices(g) {
        let p = g.point(v);
        match game.check(color, Move::Play(p)) {
            Ok(()) => legal.push(v.to_string()),
            Err(Illegal::Occupied | Illegal::OffBoard) => {}
            Err(why) => labels.push(format!("{v} {}", reason_label(why))),
        }
    }
    let mut lines = Vec::new();
    if !legal.is_empty() {
        lines.push(format!("COLOR green {}", legal.join(" ")));
    }
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    lines.push(format!(
        "TEXT {} legal moves for {}, {} forbidden empty points",
        legal.len(),
        color.capitalized_name(),
        labels.len()
    ));
    Ok(lines.join("\n"))
}

/// A short label GoGui can fit on a point.
fn reason_label(why: Illegal) -> &'static str {
    match why {
        Illegal::Ko => "ko",
        Illegal::Superko => "superko",
        Illegal::Suicide => "suicide",
        Illegal::Occupied => "occupied",
        Illegal::OffBoard => "off",
    }
}

/// `genmove` with live graphics on stderr: the candidates every half second, then CLEAR.
pub fn genmove_with_live_gfx(
    engine: &mut Engine,
    color: Color,
    mode: Mode,
    signals: &Signals,
) -> Choice {
    let geometry = engine.game().board().geometry();
    let mut next = LIVE_INTERVAL;
    let choice = engine.genmove_watched(color, mode, &mut |progress: &Progress<'_>| {
        if progress.elapsed() >= next {
            next = progress.elapsed() + LIVE_INTERVAL;
            let moves = progress.moves();
            let block: String = picture(&moves, progress.visits(), color, geometry)
                .iter()
                .map(|line| format!("gogui-gfx: {line}\n"))
                .collect();
            // A block of directives is drawn at once; it ends with an empty line.
            eprint!("gogui-gfx:\n{block}\n");
        }
        !signals.interrupted()
    });
    eprintln!("gogui-gfx: CLEAR");
    choice
}

/// Searches for `color` as long as a move would take, stopping early on GoGui's interrupt;
/// the candidates found and the visits spent.
fn study(engine: &mut Engine, color: Color, signals: &Signals) -> Study {
    let limit = engine.thinking_time();
    let mut moves = Vec::new();
    let result = engine.think(color, &mut |progress| {
        let go_on = progress.elapsed() < limit && !signals.interrupted();
        if !go_on {
            moves = progress.moves();
        }
        go_on
    });
    Study {
        moves,
        visits: result.as_ref().map_or(0, |r| r.visits),
        ownership: result.map(|r| r.ownership),
    }
}

/// What a study of the position found.
struct Study {
    /// The candidate moves, most simulated first.
    moves: Vec<MoveInfo>,
    visits: u64,
    /// The search's ownership (rows from the bottom, +1 Black), if a search ran.
    ownership: Option<Vec<f32>>,
}

/// A visit count short enough for a point's label: 812, 4.5k, 12k, 1.2M.
fn compact(n: u32) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=9_999 => format!("{:.1}k", f64::from(n) / 1e3),
        10_000..=999_999 => format!("{}k", n / 1_000),
        _ => format!("{:.1}M", f64::from(n) / 1e6),
    }
}

/// The gfx directives showing a search: labels, the best line, a status text.
fn picture(moves: &[MoveInfo], visits: u64, color: Color, geometry: Geometry) -> Vec<String> {
    let mut lines = vec!["CLEAR".to_string()];
    let labelled: Vec<String> = moves
        .iter()
        .filter(|m| m.mv != Move::Pass)
        .take(LABELLED_MOVES)
        .map(|m| {
            format!(
                "{} {}/{}",
                geometry.move_name(m.mv),
                (100.0 * m.winrate).round() as i64,
                compact(m.visits)
            )
        })
        .collect();
    if !labelled.is_empty() {
        lines.push(format!("LABEL {}", labelled.join(" ")));
    }
    if let Some(best) = moves.first() {
        let mut var = String::from("VAR");
        let mut mover = color;
        for &mv in &best.pv {
            let _ = write!(
                var,
                " {} {}",
                mover.lowercase_letter(),
                geometry.move_name(mv)
            );
            mover = mover.opponent();
        }
        lines.push(var);
        lines.push(format!(
            "TEXT {} {} {:.1}% ({} visits), lead {:+.1}",
            color.capitalized_name(),
            geometry.move_name(best.mv),
            100.0 * best.winrate,
            visits,
            best.score_lead
        ));
    }
    lines
}

fn vertices(g: Geometry) -> impl Iterator<Item = Vertex> {
    let size = g.size();
    (0..size).flat_map(move |row| (0..size).map(move |col| Vertex::new(col, row)))
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn visit_counts_fit_on_a_point() {
        let shown: Vec<String> = [0, 812, 4_520, 12_345, 999_999, 1_234_567]
            .into_iter()
            .map(compact)
            .collect();
        assert_eq!(shown, ["0", "812", "4.5k", "12k", "999k", "1.2M"]);
    }
}
