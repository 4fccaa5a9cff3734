//! The analysis streams of Leela Zero and KataGo, which Sabaki, Lizzie and KaTrain read to
//! draw a heatmap of candidate moves and a win-rate graph:
//!
//! * `lz-analyze [color] [interval] [key value ...]` and `kata-analyze ...` answer `=` at
//!   once, then one line per interval (in centiseconds) holding every candidate move,
//!   `info move D4 visits 120 winrate 5432 prior 1830 lcb 5301 order 0 pv D4 Q16 ...`,
//!   until any input line arrives; then the answer ends with its empty line and the new
//!   command is answered as usual. Leela Zero's dialect gives win rates as integers in
//!   ten-thousandths, KataGo's as floats with `scoreLead` (and, when asked, the ownership
//!   of every point after the last move's infos, and each move's own, `movesOwnership`,
//!   after its `pv` as KataGo writes it).
//! * `lz-genmove_analyze` and `kata-genmove_analyze` stream the same lines while choosing a
//!   move, then end with `play D4` (or `pass`, `resign`), and the move is played.
//!
//! Sabaki's parser splits a line on `info` and takes the principal variation as the tail
//! of each chunk, so `pv` always comes last in an `info` (but for `movesOwnership`, which
//! Sabaki never asks for), and the only thing after the last one is KataGo's `ownership`.
//! Win rates are for the color analysed.

use super::input::Signals;
use super::{args, Command, Failure};
use crate::coord::{Color, Geometry, Move};
use crate::engine::Engine;
use crate::player::{Choice, Mode};
use crate::search::{MoveInfo, Progress};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

/// The streaming commands, for `list_commands` and `known_command`.
pub const NAMES: &[&str] = &[
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
];

/// Whose format the lines follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    /// Leela Zero: integer win rates and priors in ten-thousandths.
    Leela,
    /// KataGo: floats, `scoreLead`, optional ownership.
    Kata,
}

/// What an analysis command asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Request {
    dialect: Dialect,
    /// The player whose moves are analysed (the player to move unless given).
    color: Color,
    /// Time between two lines; zero means none while a genmove thinks.
    interval: Duration,
    /// Whether KataGo's `ownership` is wanted.
    ownership: bool,
    /// Whether KataGo's `movesOwnership` is wanted: each move's own ownership.
    moves_ownership: bool,
    /// At most this many candidate moves per line (0: all).
    max_moves: usize,
}

/// Interval when the command gives none: Sabaki's own default.
const DEFAULT_INTERVAL: Duration = Duration::from_millis(500);

/// Whether `name` is one of the streaming commands.
pub fn handles(name: &str) -> bool {
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Runs a streaming command, writing its whole answer (or its error) to `out`.
pub fn run(
    engine: &mut Engine,
    command: &Command,
    out: &mut dyn Write,
    signals: &Signals,
) -> io::Result<()> {
    let name = command.name.to_ascii_lowercase();
    let dialect = if name.starts_with("kata") {
        Dialect::Kata
    } else {
        Dialect::Leela
    };
    let id = command.id.as_deref().unwrap_or("");
    let request = match parse(dialect, engine.game().to_move(), &command.args) {
        Ok(request) => request,
        Err(failure) => {
            let answer = super::format_answer(command.id.as_deref(), &Err(failure));
            out.write_all(answer.as_bytes())?;
            return out.flush();
        }
    };
    writeln!(out, "={id}")?;
    out.flush()?;
    let moves_ownership = dialect == Dialect::Kata && request.moves_ownership;
    engine.set_moves_ownership(moves_ownership);
    let streamed = if name.ends_with("genmove_analyze") {
        genmove(engine, &request, out, signals)
    } else {
        stream(engine, &request, out, signals)
    };
    if moves_ownership {
        engine.set_moves_ownership(false);
    }
    streamed?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Streams lines until input arrives.
fn stream(
    engine: &mut Engine,
    request: &Request,
    out: &mut dyn Write,
    signals: &Signals,
) -> io::Result<()> {
    let mut pacer = Pacer::new(request);
    let searched = engine.think(request.color, &mut |progress| {
        !signals.input_waiting() && pacer.write_due(out, request, progress)
    });
    pacer.finish()?;
    if searched.is_none() {
        log::warn!("analysis asked of a player that does not search");
        wait_for_input(signals);
    }
    Ok(())
}

/// Lines are never closer than this, whatever the interval asked (0 included).
const MIN_INTERVAL: Duration = Duration::from_millis(10);

/// Writes a line of the stream each time the request's interval has passed, and keeps the
/// first failure to write (the controller has gone), after which it writes no more.
struct Pacer {
    next_line: Duration,
    failure: Option<io::Error>,
}

impl Pacer {
    fn new(request: &Request) -> Pacer {
        Pacer {
            next_line: request.interval,
            failure: None,
        }
    }

    /// Writes a line if one is due; false once a write has failed.
    fn write_due(
        &mut self,
        out: &mut dyn Write,
        request: &Request,
        progress: &Progress<'_>,
    ) -> bool {
        if self.failure.is_none() && progress.elapsed() >= self.next_line {
            self.next_line = progress.elapsed() + request.interval.max(MIN_INTERVAL);
            if let Err(why) = write_line(out, request, progress) {
                self.failure = Some(why);
            }
        }
        self.failure.is_none()
    }

    /// The failure to write, if there was one.
    fn finish(self) -> io::Result<()> {
        self.failure.map_or(Ok(()), Err)
    }
}

/// A player without a search has nothing to say: the stream stays empty until input comes.
fn wait_for_input(signals: &Signals) {
    while !signals.input_waiting() {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Streams lines while choosing a move (none with an interval of 0), then plays it and
/// writes `play X`. GoGui's interrupt ends the thinking early.
fn genmove(
    engine: &mut Engine,
    request: &Request,
    out: &mut dyn Write,
    signals: &Signals,
) -> io::Result<()> {
    let mut pacer = Pacer::new(request);
    let streaming = !request.interval.is_zero();
    let choice = engine.genmove_watched(request.color, Mode::Play, &mut |progress| {
        if streaming {
            pacer.write_due(out, request, progress);
        }
        !signals.interrupted()
    });
    pacer.finish()?;
    let played = match choice {
        Choice::Resign => "resign".to_string(),
        Choice::Move(mv) => engine.game().board().geometry().move_name(mv),
    };
    writeln!(out, "play {played}")
}

fn write_line(out: &mut dyn Write, request: &Request, progress: &Progress<'_>) -> io::Result<()> {
    let text = line(request, progress);
    if text.is_empty() {
        return Ok(());
    }
    writeln!(out, "{text}")?;
    out.flush()
}

/// One line of the stream: every candidate move, best first.
fn line(request: &Request, progress: &Progress<'_>) -> String {
    let mut moves = progress.moves();
    if request.max_moves > 0 {
        moves.truncate(request.max_moves);
    }
    let geometry = progress.geometry();
    let size = geometry.size();
    let mut text = String::new();
    for (order, info) in moves.iter().enumerate() {
        if order > 0 {
            text.push(' ');
        }
        write_info(&mut text, request.dialect, info, order, geometry);
        if request.dialect == Dialect::Kata && request.moves_ownership {
            if let Some(ownership) = &info.ownership {
                push_ownership(&mut text, "movesOwnership", ownership, size, request.color);
            }
        }
    }
    if request.dialect == Dialect::Kata && request.ownership && !text.is_empty() {
        let ownership = progress.ownership();
        push_ownership(&mut text, "ownership", &ownership, size, request.color);
    }
    text
}

/// Appends ` key` and the ownership's values in KataGo's order and sign
/// ([`crate::search::rows_from_top`]).
fn push_ownership(text: &mut String, key: &str, ownership: &[f32], size: usize, color: Color) {
    text.push(' ');
    text.push_str(key);
    for value in crate::search::rows_from_top(ownership, size, color) {
        let _ = write!(text, " {value:.4}");
    }
}

fn write_info(
    text: &mut String,
    dialect: Dialect,
    info: &MoveInfo,
    order: usize,
    geometry: Geometry,
) {
    let name = |mv: Move| geometry.move_name(mv);
    let _ = write!(text, "info move {} visits {}", name(info.mv), info.visits);
    match dialect {
        Dialect::Leela => {
            let _ = write!(
                text,
                " winrate {} prior {} lcb {}",
                ten_thousandths(info.winrate),
                ten_thousandths(info.prior),
                ten_thousandths(info.lcb)
            );
        }
        Dialect::Kata => {
            let _ = write!(
                text,
                " winrate {:.6} scoreLead {:.3} scoreMean {:.3} scoreStdev {:.3} prior {:.6} \
                 lcb {:.6}",
                info.winrate,
                info.score_lead,
                info.score_lead,
                info.score_stdev,
                info.prior,
                info.lcb
            );
        }
    }
    let _ = write!(text, " order {order} pv");
    for &mv in &info.pv {
        let _ = write!(text, " {}", name(mv));
    }
}

fn ten_thousandths(x: f64) -> i64 {
    (x.clamp(0.0, 1.0) * 10_000.0).round() as i64
}

/// Reads `[color] [interval] [key value ...]`. Keys: `interval`, `ownership` and
/// `movesOwnership` (KataGo),
/// `minmoves` (accepted: every candidate is always listed), `maxmoves`; `avoid` and
/// `allow` (color, vertices, depth) are read and not applied.
fn parse(dialect: Dialect, to_move: Color, words: &[String]) -> Result<Request, Failure> {
    let mut request = Request {
        dialect,
        color: to_move,
        interval: DEFAULT_INTERVAL,
        ownership: false,
        moves_ownership: false,
        max_moves: 0,
    };
    let mut rest = words;
    if let Some((first, tail)) = rest.split_first() {
        if let Some(color) = Color::parse(first) {
            request.color = color;
            rest = tail;
        }
    }
    if let Some((first, tail)) = rest.split_first() {
        if first.bytes().all(|b| b.is_ascii_digit()) {
            request.interval = centiseconds(first)?;
            rest = tail;
        }
    }
    while let Some((key, tail)) = rest.split_first() {
        let take =
            |n: usize| -> Result<&[String], Failure> { tail.get(..n).ok_or(Failure::Syntax) };
        let used = match key.to_ascii_lowercase().as_str() {
            "interval" => {
                request.interval = centiseconds(&take(1)?[0])?;
                1
            }
            "ownership" => {
                request.ownership = args::boolean(&take(1)?[0])?;
                1
            }
            "movesownership" => {
                request.moves_ownership = args::boolean(&take(1)?[0])?;
                1
            }
            "maxmoves" => {
                request.max_moves = args::int(&take(1)?[0])?;
                1
            }
            "minmoves" | "rootinfo" | "pvvisits" | "pvedgevisits" | "ownershipstdev" => {
                take(1)?;
                1
            }
            "avoid" | "allow" => {
                take(3)?;
                log::info!("{key} is not applied: every move is analysed");
                3
            }
            _ => return Err(Failure::Syntax),
        };
        rest = &tail[used..];
    }
    Ok(request)
}

fn centiseconds(text: &str) -> Result<Duration, Failure> {
    let n = args::int(text)?;
    Ok(Duration::from_millis(10 * n as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::rows_from_top;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn sabaki_and_lizzie_forms_are_read() {
        let r = parse(Dialect::Leela, Color::White, &words("B 50")).unwrap();
        assert_eq!(
            (r.color, r.interval),
            (Color::Black, Duration::from_millis(500))
        );
        let r = parse(Dialect::Leela, Color::White, &words("25")).unwrap();
        assert_eq!(
            (r.color, r.interval),
            (Color::White, Duration::from_millis(250))
        );
        let r = parse(
            Dialect::Kata,
            Color::Black,
            &words("w interval 10 ownership true"),
        )
        .unwrap();
        assert_eq!(
            (r.color, r.interval, r.ownership),
            (Color::White, Duration::from_millis(100), true)
        );
        let r = parse(
            Dialect::Leela,
            Color::Black,
            &words("b 100 minmoves 3 avoid b d4,e5 1 maxmoves 5"),
        )
        .unwrap();
        assert_eq!(r.max_moves, 5);
        assert_eq!(
            parse(Dialect::Leela, Color::Black, &[]).unwrap().interval,
            DEFAULT_INTERVAL
        );
    }

    #[test]
    fn ownership_is_listed_from_the_top_row_for_the_analysed_color() {
        // 2x2, rows from the bottom: A1 B1 A2 B2.
        let ownership = [0.25, 0.5, -1.0, 1.0];
        assert_eq!(
            rows_from_top(&ownership, 2, Color::Black),
            [-1.0, 1.0, 0.25, 0.5]
        );
        assert_eq!(
            rows_from_top(&ownership, 2, Color::White),
            [1.0, -1.0, -0.25, -0.5]
        );
    }

    #[test]
    fn malformed_requests_are_syntax_errors() {
        for bad in [
            "b -5",
            "b 50 ownership",
            "b 50 ownership maybe",
            "b 50 frobnicate 3",
            "b 1.5",
        ] {
            assert_eq!(
                parse(Dialect::Kata, Color::Black, &words(bad)),
                Err(Failure::Syntax),
                "{bad}"
            );
        }
    }
}
