//! `kata-raw-nn [COLOR] SYMMETRY [OPTIMISM]`: what the network alone says of the position,
//! in KataGo's own words and numbers (its `GTPEngine::rawNN`), so that hoshi's reading of a
//! network can be set beside KataGo's line by line, whichever network hoshi runs.
//!
//! Every value is White's, as KataGo prints them: `whiteWin`, `whiteLoss`, `noResult`,
//! `whiteLead`, `whiteScoreSelfplay`, `whiteScoreSelfplaySq`, `varTimeLeft`, the short-term
//! errors, the `policy` rows from the top of the board (`NAN` where the side to move may not
//! play), `policyPass` and the `whiteOwnership` rows. A network without KataGo's further
//! outputs prints what it has: its winning chances as win and loss, no game without result,
//! its lead as the self-play score, -1 for what it cannot tell (as KataGo prints for its
//! oldest networks); no value lines without a value head, no ownership rows without
//! ownership, `NAN` for a pass it does not rate.
//!
//! The policy optimism (0 to 1) mixes that much of the optimistic policy into the policy, for
//! networks that have one (KataGo's, version 12 on, but its human-imitating ones); by default
//! KataGo's GTP `rootPolicyOptimism`, 0.2. Other networks ignore it, as KataGo does.
//!
//! One difference from KataGo: with `all`, KataGo separates the eight answers by empty lines,
//! which would end a GTP answer early; hoshi puts them one after another, each starting with
//! its `symmetry N` line.

use super::args;
use super::reply::{Failure, Reply};
use crate::coord::{Color, Move, Vertex};
use crate::engine::Engine;
use crate::net::{Output, Symmetry};
use std::fmt::Write;

/// `kata-raw-nn`.
pub fn kata_raw_nn(engine: &mut Engine, args: &[String]) -> Reply {
    let request = Request::parse(engine.game().to_move(), args)?;
    let outputs = engine
        .raw_network(request.color, &request.symmetries, request.optimism)
        .ok_or(Failure::NoNetwork)?;
    let mut text = String::new();
    for (symmetry, output) in request.symmetries.iter().zip(&outputs) {
        write_answer(engine, request.color, *symmetry, output, &mut text);
    }
    Ok(text.trim_end().to_string())
}

/// The arguments: an optional colour first, the symmetry (`all` or 0 to 7), an optional
/// policy optimism last (0 to 1; KataGo's root's 0.2 by default).
struct Request {
    color: Color,
    symmetries: Vec<Symmetry>,
    optimism: f32,
}

/// The optimistic policy's share `kata-raw-nn` mixes in unless told: KataGo's default
/// `rootPolicyOptimism`.
const DEFAULT_OPTIMISM: f32 = 0.2;

impl Request {
    fn parse(to_move: Color, args: &[String]) -> Result<Request, Failure> {
        let mut rest = args.iter().map(String::as_str).peekable();
        let color = match rest.peek().and_then(|a| Color::parse(a)) {
            Some(color) => {
                rest.next();
                color
            }
            None => to_move,
        };
        let symmetries = match rest.next().map(str::to_ascii_lowercase).as_deref() {
            Some("all") => Symmetry::all().collect(),
            Some(n) => {
                let n: u8 = n.parse().map_err(|_| Failure::Syntax)?;
                vec![Symmetry::numbered(n).ok_or(Failure::Syntax)?]
            }
            None => return Err(Failure::Syntax),
        };
        let optimism = match rest.next() {
            Some(text) => match args::float(text)? {
                o if (0.0..=1.0).contains(&o) => o as f32,
                _ => return Err(Failure::Syntax),
            },
            None => DEFAULT_OPTIMISM,
        };
        if rest.next().is_some() {
            return Err(Failure::Syntax);
        }
        Ok(Request {
            color,
            symmetries,
            optimism,
        })
    }
}

/// One symmetry's answer, for `color` to move.
fn write_answer(
    engine: &Engine,
    color: Color,
    symmetry: Symmetry,
    output: &Output,
    text: &mut String,
) {
    let game = engine.game();
    let size = game.size();
    let white = color == Color::White;
    let sign = if white { 1.0 } else { -1.0 };
    let _ = writeln!(text, "symmetry {}", symmetry.number());
    if let Some(value) = output.value {
        let lead = output.score_lead.unwrap_or(0.0);
        let d = output.details;
        let (win, loss, no_result) =
            d.map_or((value, 1.0 - value, 0.0), |d| (d.win, d.loss, d.no_result));
        let (white_win, white_loss) = if white { (win, loss) } else { (loss, win) };
        let mean = d.map_or(lead, |d| d.score_mean);
        let square = d.map_or(lead * lead, |d| d.score_mean_square);
        let unknown = |f: fn(&crate::net::ValueDetails) -> f32| d.as_ref().map_or(-1.0, f);
        let _ = writeln!(text, "whiteWin {white_win:.6}");
        let _ = writeln!(text, "whiteLoss {white_loss:.6}");
        let _ = writeln!(text, "noResult {no_result:.6}");
        let _ = writeln!(text, "whiteLead {:.3}", sign * lead);
        let _ = writeln!(text, "whiteScoreSelfplay {:.3}", sign * mean);
        let _ = writeln!(text, "whiteScoreSelfplaySq {square:.3}");
        let _ = writeln!(text, "varTimeLeft {:.3}", unknown(|d| d.var_time_left));
        let _ = writeln!(
            text,
            "shorttermWinlossError {:.3}",
            unknown(|d| d.shortterm_winloss_error)
        );
        let _ = writeln!(
            text,
            "shorttermScoreError {:.3}",
            unknown(|d| d.shortterm_score_error)
        );
    }
    let geometry = game.board().geometry();
    let rows = |text: &mut String, cell: &dyn Fn(usize, crate::coord::Point) -> String| {
        for row in (0..size).rev() {
            for col in 0..size {
                let p = geometry.point(Vertex::new(col, row));
                text.push_str(&cell(geometry.vertex_index(p), p));
            }
            text.push('\n');
        }
    };
    text.push_str("policy\n");
    rows(text, &|v, p| match game.is_legal(color, Move::Play(p)) {
        true => format!("{:8.6} ", output.policy[v]),
        false => "    NAN ".to_string(),
    });
    let pass = output
        .pass
        .map_or("    NAN ".to_string(), |p| format!("{p:8.6} "));
    let _ = writeln!(text, "policyPass {pass}");
    if let Some(ownership) = &output.ownership {
        text.push_str("whiteOwnership\n");
        rows(text, &|v, _| format!("{:9.7} ", sign * ownership[v]));
    }
}
