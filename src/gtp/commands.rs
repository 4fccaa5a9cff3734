//! Every GTP command hoshi knows: the required and standard ones of the spec (§6), the
//! extensions that Sabaki, GoGui, gogui-twogtp and kgsGtp use, a few of GNU Go's debugging
//! commands, and `hoshi-*` extensions. Each handler reads its arguments, asks the engine,
//! and writes the answer; on failure nothing in the engine has changed.

use super::args;
use super::gogui;
use super::input::Signals;
use super::reply::{Failure, Reply};
use super::Command;
use crate::coord::{Color, Point, PointSet, Vertex};
use crate::engine::Engine;
use crate::handicap::HandicapError;
use crate::parse;
use crate::player::clock::TimeControl;
use crate::player::params::Kind;
use crate::player::size_class::SizeClass;
use crate::player::Params;
use crate::player::{self, Choice, Level, Mode};
use crate::rules::Ruleset;
use crate::score;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

/// How a command is run.
#[derive(Clone, Copy)]
pub enum Handler {
    /// A command that answers at once.
    Plain(fn(&mut Engine, &[String]) -> Reply),
    /// A command that thinks: it also hears from the input thread, so that GoGui's
    /// interrupt can end the thinking early.
    Thinking(fn(&mut Engine, &[String], &Signals) -> Reply),
}
use Handler::{Plain, Thinking};

/// The commands, in the order `list_commands` gives them.
pub const COMMANDS: &[(&str, Handler)] = &[
    // Required and standard (spec §6).
    ("protocol_version", Plain(|_, a| fixed(a, "2"))),
    ("name", Plain(|_, a| fixed(a, "hoshi"))),
    ("version", Plain(|_, a| fixed(a, env!("CARGO_PKG_VERSION")))),
    ("known_command", Plain(known_command)),
    ("list_commands", Plain(list_commands)),
    ("quit", Plain(|_, a| fixed(a, ""))),
    ("boardsize", Plain(boardsize)),
    ("clear_board", Plain(clear_board)),
    ("komi", Plain(komi)),
    ("play", Plain(play)),
    ("genmove", Thinking(|e, a, s| genmove(e, a, s, Mode::Play))),
    ("undo", Plain(undo)),
    ("fixed_handicap", Plain(fixed_handicap)),
    ("place_free_handicap", Plain(place_free_handicap)),
    ("set_free_handicap", Plain(set_free_handicap)),
    ("time_settings", Plain(time_settings)),
    ("time_left", Plain(time_left)),
    ("final_score", Plain(final_score)),
    ("final_status_list", Plain(final_status_list)),
    ("loadsgf", Plain(loadsgf)),
    (
        "reg_genmove",
        Thinking(|e, a, s| genmove(e, a, s, Mode::Regression)),
    ),
    ("showboard", Plain(showboard)),
    // Extensions of KGS, GoGui, GNU Go and others.
    (
        "kgs-genmove_cleanup",
        Thinking(|e, a, s| genmove(e, a, s, Mode::Cleanup)),
    ),
    ("kgs-rules", Plain(kgs_rules)),
    ("kgs-time_settings", Plain(kgs_time_settings)),
    ("kgs-game_over", Plain(|_, a| fixed(a, ""))),
    ("gogui-analyze_commands", Plain(gogui_analyze_commands)),
    ("gogui-interrupt", Plain(|_, a| fixed(a, ""))),
    ("gogui-play_sequence", Plain(gogui_play_sequence)),
    ("gg-undo", Plain(gg_undo)),
    ("printsgf", Plain(printsgf)),
    ("cputime", Plain(cputime)),
    (
        "get_komi",
        Plain(|e, a| fixed(a, &e.game().komi().to_string())),
    ),
    ("is_legal", Plain(is_legal)),
    ("all_legal", Plain(all_legal)),
    ("list_stones", Plain(list_stones)),
    ("captures", Plain(captures)),
    ("color", Plain(color)),
    ("countlib", Plain(countlib)),
    ("findlib", Plain(findlib)),
    ("echo", Plain(|_, a| Ok(a.join(" ")))),
    ("estimate_score", Plain(estimate_score)),
    ("kata-raw-nn", Plain(super::raw_nn::kata_raw_nn)),
    // hoshi's own.
    ("hoshi-rules", Plain(hoshi_rules)),
    ("hoshi-level", Plain(hoshi_level)),
    ("hoshi-rank", Plain(hoshi_rank)),
    ("hoshi-opponent_rank", Plain(hoshi_opponent_rank)),
    ("hoshi-handicap", Plain(hoshi_handicap)),
    ("hoshi-param", Plain(hoshi_param)),
    ("hoshi-ownership", Plain(hoshi_ownership)),
    ("hoshi-policy", Plain(hoshi_policy)),
    ("hoshi-evaluate", Plain(hoshi_evaluate)),
    ("hoshi-policy_gfx", Plain(gogui::policy_gfx)),
    ("hoshi-best_moves", Thinking(gogui::best_moves)),
    ("hoshi-pv", Thinking(gogui::principal_variation)),
    ("hoshi-ownership_gfx", Thinking(gogui::ownership_gfx)),
    ("hoshi-legal_moves", Plain(gogui::legal_moves)),
    ("hoshi-time_budget", Plain(hoshi_time_budget)),
    ("hoshi-time_left", Plain(hoshi_time_left)),
];

/// Runs `command`; command names are matched in any case. `signals` is what the input
/// thread hears meanwhile.
pub fn execute(engine: &mut Engine, command: &Command, signals: &Signals) -> Reply {
    let name = command.name.to_ascii_lowercase();
    match COMMANDS.iter().find(|(n, _)| *n == name) {
        Some((_, Plain(handler))) => handler(engine, &command.args),
        Some((_, Thinking(handler))) => handler(engine, &command.args, signals),
        None => Err(Failure::UnknownCommand),
    }
}

/// A command without arguments and with a fixed answer.
fn fixed(args: &[String], answer: &str) -> Reply {
    args::exactly::<0>(args)?;
    Ok(answer.to_string())
}

fn known_command(_: &mut Engine, args: &[String]) -> Reply {
    let [name] = args::exactly(args)?;
    let known = COMMANDS.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
        || super::analysis::handles(name);
    Ok(known.to_string())
}

fn list_commands(_: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    Ok(COMMANDS
        .iter()
        .map(|(n, _)| *n)
        .chain(super::analysis::NAMES.iter().copied())
        .collect::<Vec<_>>()
        .join("\n"))
}

fn boardsize(engine: &mut Engine, args: &[String]) -> Reply {
    let [size] = args::exactly(args)?;
    let size = args::int(size)?;
    if engine.resize(size) {
        Ok(String::new())
    } else {
        Err(Failure::UnacceptableSize)
    }
}

fn clear_board(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    engine.clear();
    Ok(String::new())
}

fn komi(engine: &mut Engine, args: &[String]) -> Reply {
    let [komi] = args::exactly(args)?;
    engine.set_komi(args::float(komi)?);
    Ok(String::new())
}

fn play(engine: &mut Engine, args: &[String]) -> Reply {
    let [c, v] = args::exactly(args)?;
    let (color, mv) = args::color_and_move(engine.game().board(), c, v)?;
    engine.play(color, mv).map_err(Failure::Illegal)?;
    Ok(String::new())
}

/// `genmove` and its kin. GoGui's interrupt ends the thinking early: the best move so far
/// is played.
fn genmove(engine: &mut Engine, args: &[String], signals: &Signals, mode: Mode) -> Reply {
    let [c] = args::exactly(args)?;
    let color = args::color(c)?;
    let choice = if engine.settings().live_gfx && mode != Mode::Regression {
        super::gogui::genmove_with_live_gfx(engine, color, mode, signals)
    } else {
        engine.genmove_watched(color, mode, &mut |_| !signals.interrupted())
    };
    Ok(match choice {
        Choice::Resign => "resign".to_string(),
        Choice::Move(mv) => engine.game().board().geometry().move_name(mv),
    })
}

fn undo(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    take_back(engine, 1)
}

/// `gg-undo [n]`: takes back n moves (1 by default), or none if there are fewer.
fn gg_undo(engine: &mut Engine, args: &[String]) -> Reply {
    let moves = args::optional(args)?.map_or(Ok(1), args::int)?;
    take_back(engine, moves)
}

fn take_back(engine: &mut Engine, moves: usize) -> Reply {
    if engine.undo(moves) {
        Ok(String::new())
    } else {
        Err(Failure::CannotUndo)
    }
}

fn fixed_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    let [n] = args::exactly(args)?;
    let stones = args::int(n)?;
    let placed = engine.fixed_handicap(stones).map_err(Failure::Handicap)?;
    Ok(Vertex::gtp_list(&placed))
}

fn place_free_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    let [n] = args::exactly(args)?;
    let stones = args::int(n)?;
    let placed = engine.free_handicap(stones).map_err(Failure::Handicap)?;
    Ok(Vertex::gtp_list(&placed))
}

/// `set_free_handicap v...`: any unreadable vertex or a pass makes a bad vertex list.
fn set_free_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    let bad = || Failure::Handicap(HandicapError::BadVertexList);
    let vertices = args
        .iter()
        .map(|a| args::vertex(a).ok().flatten().ok_or_else(bad))
        .collect::<Result<Vec<Vertex>, Failure>>()?;
    engine.set_handicap(&vertices).map_err(Failure::Handicap)?;
    Ok(String::new())
}

/// `time_settings main_time byo_yomi_time byo_yomi_stones` (Canadian byo-yomi).
fn time_settings(engine: &mut Engine, args: &[String]) -> Reply {
    let [main, period, stones] = args::exactly(args)?;
    let control = TimeControl::from_gtp(
        args::duration(main)?,
        args::duration(period)?,
        count(stones)?,
    );
    engine.set_time_control(control);
    Ok(String::new())
}

/// A count of stones or periods.
fn count(text: &str) -> Result<u32, Failure> {
    args::int(text).map(|n| n as u32)
}

/// `time_left color time stones`. Negative times have been seen from servers and mean
/// no time left; absurdly long ones mean no end.
fn time_left(engine: &mut Engine, args: &[String]) -> Reply {
    let [c, time, stones] = args::exactly(args)?;
    let color = args::color(c)?;
    let (seconds, stones) = (args::float(time)?, count(stones)?);
    engine.set_time_left(color, parse::duration(seconds), stones);
    Ok(String::new())
}

/// `hoshi-time_budget [color]`: the seconds the player would think on the color's next
/// move (to the millisecond), or `none` when it thinks by playouts alone; for tests and
/// for watching the clock from a GUI.
fn hoshi_time_budget(engine: &mut Engine, args: &[String]) -> Reply {
    let color = args::color_or_to_move(engine, args)?;
    Ok(engine
        .time_budget(color)
        .map_or("none".into(), |t| format!("{:.3}", t.as_secs_f64())))
}

/// `hoshi-time_left [color]`: the color's clock as the engine reckons it, in `time_left`'s
/// terms (seconds and stones), or `none` without a time limit.
fn hoshi_time_left(engine: &mut Engine, args: &[String]) -> Reply {
    let color = args::color_or_to_move(engine, args)?;
    let clock = engine.clock();
    Ok(if clock.control() == TimeControl::Unlimited {
        "none".into()
    } else {
        clock.left(color).to_string()
    })
}

/// `kgs-time_settings none | absolute M | byoyomi M P N | canadian M P S`.
fn kgs_time_settings(engine: &mut Engine, args: &[String]) -> Reply {
    let (system, rest) = args.split_first().ok_or(Failure::Syntax)?;
    let control = match (system.to_ascii_lowercase().as_str(), rest) {
        ("none", []) => TimeControl::Unlimited,
        ("absolute", [main]) => TimeControl::Absolute {
            main: args::duration(main)?,
        },
        ("byoyomi", [main, period, periods]) => TimeControl::byoyomi(
            args::duration(main)?,
            args::duration(period)?,
            count(periods)?,
        ),
        ("canadian", [main, period, stones]) => TimeControl::canadian(
            args::duration(main)?,
            args::duration(period)?,
            count(stones)?,
        ),
        _ => return Err(Failure::Syntax),
    };
    engine.set_time_control(control);
    Ok(String::new())
}

fn final_score(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    Ok(engine.final_score().to_string())
}

/// `final_status_list alive|dead|seki`: one chain per line, as GNU Go prints it.
fn final_status_list(engine: &mut Engine, args: &[String]) -> Reply {
    let [which] = args::exactly(args)?;
    let status = engine.status();
    let board = engine.game().board();
    let wanted: PointSet = match which.to_ascii_lowercase().as_str() {
        "dead" => status.dead,
        "seki" => status.seki,
        "alive" => board
            .geometry()
            .points()
            .filter(|&p| board.cell(p).is_stone())
            .filter(|&p| !status.dead.contains(p) && !status.seki.contains(p))
            .collect(),
        _ => return Err(Failure::Syntax),
    };
    Ok(chains_by_line(engine, &wanted))
}

/// The stones of `set`, one chain per line, each line and chain in board order.
fn chains_by_line(engine: &Engine, set: &PointSet) -> String {
    let board = engine.game().board();
    let mut done = PointSet::new();
    let mut lines = Vec::new();
    for p in board.geometry().points().filter(|&p| set.contains(p)) {
        if done.contains(p) {
            continue;
        }
        let mut chain: Vec<Point> = board.chain_stones(p).filter(|&s| set.contains(s)).collect();
        chain.sort();
        chain.iter().for_each(|&s| {
            done.insert(s);
        });
        lines.push(point_names(engine, &chain));
    }
    lines.join("\n")
}

fn point_names(engine: &Engine, points: &[Point]) -> String {
    let g = engine.game().board().geometry();
    points
        .iter()
        .map(|&p| g.name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `loadsgf file [move_number]`: replays up to, not including, move_number.
fn loadsgf(engine: &mut Engine, args: &[String]) -> Reply {
    let (file, until) = match args {
        [file] => (file, None),
        [file, n] => (file, Some(args::int(n)?)),
        _ => return Err(Failure::Syntax),
    };
    engine.load_sgf(Path::new(file), until).map_err(|why| {
        log::warn!("loadsgf {file}: {why}");
        Failure::CannotLoad
    })?;
    Ok(String::new())
}

/// `printsgf [file]`: the game as SGF, or written to `file`.
fn printsgf(engine: &mut Engine, args: &[String]) -> Reply {
    let sgf = engine.to_sgf();
    match args::optional(args)? {
        None => Ok(sgf),
        Some(file) => std::fs::write(file, sgf)
            .map(|_| String::new())
            .map_err(|why| {
                log::warn!("printsgf {file}: {why}");
                Failure::CannotSave
            }),
    }
}

/// The board with coordinates, then what a player wants to know beside it.
fn showboard(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    let game = engine.game();
    let to_move = game.to_move().capitalized_name();
    Ok(format!(
        "\n{}\nBlack (X) has captured {} stones\nWhite (O) has captured {} stones\n\
         move {}, {to_move} to play, komi {}, {} rules, handicap {}",
        game.board().diagram(),
        game.prisoners(Color::Black),
        game.prisoners(Color::White),
        game.move_number(),
        game.komi(),
        game.rules(),
        game.handicap(),
    ))
}

/// `kgs-rules japanese|chinese|aga|new_zealand`.
fn kgs_rules(engine: &mut Engine, args: &[String]) -> Reply {
    let [name] = args::exactly(args)?;
    set_rules(engine, name)
}

/// `hoshi-rules [name]`: shows the ruleset, or sets any preset (french, chinese, japanese,
/// aga, new-zealand, tromp-taylor).
fn hoshi_rules(engine: &mut Engine, args: &[String]) -> Reply {
    match args::optional(args)? {
        None => Ok(engine.game().rules().to_string()),
        Some(name) => set_rules(engine, name),
    }
}

fn set_rules(engine: &mut Engine, name: &str) -> Reply {
    let rules = Ruleset::from_name(name).ok_or(Failure::Syntax)?;
    engine.set_rules(rules);
    Ok(String::new())
}

/// `hoshi-level`: the level and its rank ("intermediate (7k)"; a rank that is no level's
/// alone, "12k"), or with an argument, sets it.
fn hoshi_level(engine: &mut Engine, args: &[String]) -> Reply {
    match args::optional(args)? {
        None => {
            let rank = engine.rank();
            Ok(match Level::of_rank(rank, engine.game().size()) {
                Some(level) => format!("{level} ({rank})"),
                None => rank.to_string(),
            })
        }
        Some(name) => {
            let level = Level::from_name(name).ok_or(Failure::Syntax)?;
            engine.set_rank(level.rank());
            Ok(String::new())
        }
    }
}

/// `hoshi-rank`: the playing strength as a rank ("7k"), or with an argument (30k to
/// expert's rank on the current board), sets it; a rank hoshi does not play fails with the
/// reason.
fn hoshi_rank(engine: &mut Engine, args: &[String]) -> Reply {
    match args::optional(args)? {
        None => Ok(engine.rank().to_string()),
        Some(text) => {
            let strongest = SizeClass::of(engine.game().size()).strongest();
            let rank = player::playable_rank(text, strongest).map_err(Failure::Rank)?;
            engine.set_rank(rank);
            Ok(String::new())
        }
    }
}

/// `hoshi-opponent_rank`: the opponent's rank (empty while unknown), or with an argument
/// (any rank, 30k to 9d), sets it.
fn hoshi_opponent_rank(engine: &mut Engine, args: &[String]) -> Reply {
    match args::optional(args)? {
        None => Ok(engine
            .settings()
            .opponent_rank
            .map_or(String::new(), |r| r.to_string())),
        Some(text) => {
            let rank = text.parse().map_err(Failure::Rank)?;
            engine.set_opponent_rank(rank);
            Ok(String::new())
        }
    }
}

/// `hoshi-handicap`: the fair handicap stones and komi between hoshi's rank and the
/// opponent's on the current board ("4 0.5"; an even game "0" and the rules' usual komi),
/// the weaker taking Black: what a GUI or a match runner sets up before the game.
fn hoshi_handicap(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    let settings = engine.settings();
    let theirs = settings.opponent_rank.ok_or(Failure::NoOpponentRank)?;
    let size = engine.game().size();
    let fair = SizeClass::of(size).fair_game(engine.rank().above(theirs).unsigned_abs(), size);
    let komi = fair.komi_or(engine.game().rules().default_komi);
    Ok(format!("{} {komi}", fair.stones))
}

/// GoGui's parameter dialog: without arguments, one `[type] key value` line per parameter
/// (the engine's settings, then every tuning parameter of [`Params`]); with `key value`,
/// sets it. Playouts and time 0 mean the level's own budget. An unknown key or a value a
/// tuning parameter does not take fails with the reason (`unknown parameter "x"`,
/// `rave_equivalence takes a number above 0, not "0"`); a bad value for one of the
/// engine's own settings (level, rules, playouts, time, threads, ponder, live_gfx) is a syntax
/// error. Either way nothing changes.
fn hoshi_param(engine: &mut Engine, args: &[String]) -> Reply {
    match args {
        [] => Ok(parameters(engine)
            .iter()
            .map(|(kind, key, value)| format!("[{kind}] {key} {value}"))
            .collect::<Vec<_>>()
            .join("\n")),
        [key, value] => set_parameter(engine, key, value),
        _ => Err(Failure::Syntax),
    }
}

/// Every parameter as (GoGui type, key, value).
fn parameters(engine: &Engine) -> Vec<(String, &'static str, String)> {
    let s = engine.settings();
    let rank = engine.rank();
    let kind = |name: &str| name.to_string();
    let flag = |on: bool| u8::from(on).to_string();
    let mut table = vec![
        (
            kind("list/beginner/intermediate/expert"),
            "level",
            Level::of_rank(rank, engine.game().size()).map_or(String::new(), |l| l.to_string()),
        ),
        (kind("string"), "rank", rank.to_string()),
        (
            format!("list/{}", Ruleset::PRESETS.map(|r| r.name).join("/")),
            "rules",
            engine.game().rules().to_string(),
        ),
        (
            kind("string"),
            "visits",
            s.player.visits.unwrap_or(0).to_string(),
        ),
        (
            kind("string"),
            "time",
            s.player.time.map_or(0.0, |t| t.as_secs_f64()).to_string(),
        ),
        (kind("string"), "threads", s.player.threads.to_string()),
        (kind("bool"), "ponder", flag(s.ponder)),
        (kind("bool"), "live_gfx", flag(s.live_gfx)),
    ];
    for (key, value) in s.player.params.list() {
        let switch = Params::kind(key) == Ok(Kind::Switch);
        table.push((kind(if switch { "bool" } else { "string" }), key, value));
    }
    table
}

fn set_parameter(engine: &mut Engine, key: &str, value: &str) -> Reply {
    match key {
        "level" => return hoshi_level(engine, &[value.to_string()]),
        "rank" => return hoshi_rank(engine, &[value.to_string()]),
        "rules" => return set_rules(engine, value),
        // `playouts` is the key's name before it counted visits, kept for saved settings.
        "visits" | "playouts" => {
            let n = args::int(value)? as u64;
            engine.reconfigure(|s| s.player.visits = (n > 0).then_some(n));
        }
        "time" => {
            let t = args::duration(value)?;
            engine.reconfigure(|s| s.player.time = (!t.is_zero()).then_some(t));
        }
        "threads" => {
            let n = args::int(value)?.clamp(1, MAX_THREADS);
            engine.reconfigure(|s| s.player.threads = n);
        }
        "ponder" => {
            let on = args::boolean(value)?;
            engine.reconfigure(|s| s.ponder = on);
        }
        "live_gfx" => {
            let on = args::boolean(value)?;
            engine.reconfigure(|s| s.live_gfx = on);
        }
        _ => {
            let mut params = engine.settings().player.params;
            params.set(key, value).map_err(Failure::Param)?;
            engine.reconfigure(|s| s.player.params = params);
        }
    }
    Ok(String::new())
}

/// More search threads than any machine hoshi runs on has cores.
const MAX_THREADS: usize = 256;

/// GoGui's analyze menu: `type/label/command` per line, the network's value only when the
/// network has a value head (an entry that can only fail has no place in a menu).
fn gogui_analyze_commands(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    let size = engine.game().size();
    let value = engine
        .settings()
        .player
        .net
        .for_board(size)
        .is_some_and(|net| net.heads().value);
    let entries: Vec<&str> = gogui::MENU
        .iter()
        .copied()
        .filter(|entry| value || *entry != gogui::VALUE_ENTRY)
        .collect();
    Ok(entries.join("\n"))
}

/// `gogui-play_sequence b D4 w Q16 ...`: all the moves, or none if one is refused.
fn gogui_play_sequence(engine: &mut Engine, args: &[String]) -> Reply {
    if !args.len().is_multiple_of(2) {
        return Err(Failure::Syntax);
    }
    let board = engine.game().board();
    let moves = args
        .chunks_exact(2)
        .map(|pair| match pair {
            [c, v] => args::color_and_move(board, c, v),
            _ => Err(Failure::Syntax),
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    engine.play_sequence(&moves).map_err(Failure::Illegal)?;
    Ok(String::new())
}

/// When the process started, for `cputime` where the system cannot tell CPU time.
static STARTED: OnceLock<Instant> = OnceLock::new();

pub(super) fn start_cpu_clock() {
    STARTED.get_or_init(Instant::now);
}

/// `cputime`: seconds of CPU the process used (gogui-twogtp's statistics). Read from
/// /proc on Linux; elsewhere the time since start stands in.
fn cputime(_: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    let seconds = proc_cpu_seconds()
        .unwrap_or_else(|| STARTED.get_or_init(Instant::now).elapsed().as_secs_f64());
    Ok(format!("{seconds:.3}"))
}

/// User + system time from /proc/self/stat (fields 14 and 15, in ticks of 1/100 s).
fn proc_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}

fn is_legal(engine: &mut Engine, args: &[String]) -> Reply {
    let [c, v] = args::exactly(args)?;
    let legal = match args::color_and_move(engine.game().board(), c, v) {
        Ok((color, mv)) => engine.game().is_legal(color, mv),
        Err(Failure::Illegal(_)) => false,
        Err(other) => return Err(other),
    };
    Ok(if legal { "1" } else { "0" }.to_string())
}

fn all_legal(engine: &mut Engine, args: &[String]) -> Reply {
    let [c] = args::exactly(args)?;
    let points = engine.game().legal_points(args::color(c)?);
    Ok(point_names(engine, &points))
}

fn list_stones(engine: &mut Engine, args: &[String]) -> Reply {
    let [c] = args::exactly(args)?;
    let color = args::color(c)?;
    let board = engine.game().board();
    let stones: Vec<Point> = board
        .geometry()
        .points()
        .filter(|&p| board.color_at(p) == Some(color))
        .collect();
    Ok(point_names(engine, &stones))
}

fn captures(engine: &mut Engine, args: &[String]) -> Reply {
    let [c] = args::exactly(args)?;
    Ok(engine.game().prisoners(args::color(c)?).to_string())
}

fn color(engine: &mut Engine, args: &[String]) -> Reply {
    let [v] = args::exactly(args)?;
    let board = engine.game().board();
    let p = args::point(board, v)?;
    Ok(board
        .color_at(p)
        .map_or("empty".to_string(), |c| c.to_string()))
}

fn countlib(engine: &mut Engine, args: &[String]) -> Reply {
    let p = occupied_point(engine, args)?;
    Ok(engine.game().board().liberty_count(p).to_string())
}

fn findlib(engine: &mut Engine, args: &[String]) -> Reply {
    let p = occupied_point(engine, args)?;
    let liberties = engine.game().board().liberties(p);
    Ok(point_names(engine, &liberties))
}

/// The one argument, a point that holds a stone.
fn occupied_point(engine: &Engine, args: &[String]) -> Result<Point, Failure> {
    let [v] = args::exactly(args)?;
    let board = engine.game().board();
    let p = args::point(board, v)?;
    if board.cell(p).is_stone() {
        Ok(p)
    } else {
        Err(Failure::EmptyPoint)
    }
}

/// `estimate_score`, as GNU Go writes it: the expected result, then the range of White's
/// margin in 80% of the playouts (positive: White ahead).
fn estimate_score(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    let estimate = engine.estimate_score();
    Ok(format!(
        "{} (upper bound: {:.1}, lower: {:.1})",
        score::margin_text(estimate.black_margin),
        -estimate.low,
        -estimate.high
    ))
}

/// Ownership for GoGui's `dboard`: one row per line from the top, +1 Black to -1 White.
fn hoshi_ownership(engine: &mut Engine, args: &[String]) -> Reply {
    args::exactly::<0>(args)?;
    let ownership = engine.ownership();
    let g = engine.game().board().geometry();
    let size = g.size();
    let rows: Vec<String> = (0..size)
        .rev()
        .map(|row| {
            (0..size)
                .map(|col| format!("{:.2}", ownership.map.value(g.point(Vertex::new(col, row)))))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Ok(rows.join("\n"))
}

/// Moves `hoshi-policy` lists unless told how many.
const POLICY_MOVES: usize = 10;

/// `hoshi-policy [count]`: the policy network's moves for the side to move, best first, one
/// per line as `VERTEX PROBABILITY` (`Q16 0.2314`), 10 unless a count is given.
fn hoshi_policy(engine: &mut Engine, args: &[String]) -> Reply {
    let count = match args::optional(args)? {
        Some(text) => args::int(text)?,
        None => POLICY_MOVES,
    };
    let moves = engine.policy().ok_or(Failure::NoNetwork)?;
    let g = engine.game().board().geometry();
    Ok(moves
        .iter()
        .take(count)
        .map(|&(mv, p)| format!("{} {p:.4}", g.move_name(mv)))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// `hoshi-evaluate`: the network's own view of the position, as KataGo's `kata-raw-nn`
/// gives it: `to_move B`, `value 0.5432` (the side to move's winning chances by the game's
/// komi, without any search), `score_lead 3.5` and `score_stdev 12.0` where the network gives
/// them, and `policy` with the five most probable moves.
fn hoshi_evaluate(engine: &mut Engine, _args: &[String]) -> Reply {
    let view = engine.network_view().ok_or(Failure::NoNetwork)?;
    let value = view.value.ok_or(Failure::NoValueHead)?;
    let g = engine.game().board().geometry();
    let policy: Vec<String> = view
        .policy
        .iter()
        .take(5)
        .map(|&(mv, p)| format!("{} {p:.4}", g.move_name(mv)))
        .collect();
    let lead = view
        .score_lead
        .map_or(String::new(), |lead| format!("score_lead {lead:.1}\n"));
    let stdev = view
        .score_stdev
        .map_or(String::new(), |stdev| format!("score_stdev {stdev:.1}\n"));
    Ok(format!(
        "to_move {}\nvalue {value:.4}\n{lead}{stdev}policy {}",
        engine.game().to_move().letter(),
        policy.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Settings;
    use crate::player::clock::TimeLeft;
    use std::time::Duration;

    fn secs(seconds: f64) -> Duration {
        Duration::from_secs_f64(seconds)
    }

    fn run(engine: &mut Engine, line: &str) -> Reply {
        let command = super::super::parse_line(line.as_bytes()).expect("a command");
        execute(engine, &command, &Signals::default())
    }

    #[test]
    fn time_commands_store_their_values_and_refusals_change_nothing() {
        let mut engine = Engine::new(Settings::default());
        assert_eq!(
            run(&mut engine, "time_settings 300 30 5"),
            Ok(String::new())
        );
        let canadian = TimeControl::Canadian {
            main: secs(300.0),
            period: secs(30.0),
            stones: 5,
        };
        assert_eq!(engine.clock().control(), canadian);
        assert!(run(&mut engine, "time_left b 120.5 3").is_ok());
        let left = TimeLeft {
            time: secs(120.5),
            stones: 3,
        };
        let full = TimeLeft {
            time: secs(300.0),
            stones: 0,
        };
        assert_eq!(engine.clock().left(Color::Black), left);
        for bad in [
            "time_settings 1 2",
            "time_settings 1 2 x",
            "time_left w 10",
            "time_left w 10 -1",
            "kgs-time_settings byoyomi 600 30",
            "kgs-time_settings fischer 1 2",
            "hoshi-time_budget x",
            "hoshi-time_left b w",
        ] {
            assert_eq!(run(&mut engine, bad), Err(Failure::Syntax), "{bad}");
        }
        assert_eq!(engine.clock().control(), canadian);
        assert_eq!(engine.clock().left(Color::Black), left);
        assert_eq!(engine.clock().left(Color::White), full);
        assert!(run(&mut engine, "time_left w -3 0").is_ok());
        assert_eq!(engine.clock().left(Color::White).time, Duration::ZERO);
        assert!(run(&mut engine, "clear_board").is_ok());
        assert_eq!(engine.clock().left(Color::White), full);
        assert!(run(&mut engine, "kgs-time_settings byoyomi 600 30 5").is_ok());
        let byoyomi = TimeControl::Byoyomi {
            main: secs(600.0),
            period: secs(30.0),
            periods: 5,
        };
        assert_eq!(engine.clock().control(), byoyomi);
    }
}
