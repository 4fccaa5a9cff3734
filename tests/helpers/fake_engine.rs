//! A fake GTP engine that does what its arguments say, for the match runner's tests
//! (`tests/it/arena.rs`), which find it next to their own binary, in
//! `target/<profile>/examples/` (`cargo test` builds it).
//!
//! Options, each `KEY=VALUE`:
//! * `name=N`: its GTP name (default `fake`); its version is `1.0`;
//! * `claim=R`: lists `final_score` and answers `R` to it;
//! * `refuse=CMD`: answers `? refused` to `CMD`;
//! * `clock=1`: lists `time_settings` and `time_left` (every `time_*` command it gets is
//!   written to stderr as it comes);
//! * `fixed_handicap=V,V,…`: lists `fixed_handicap` and answers these points to it, the
//!   way Pachi names its own third stone (every `*_handicap` and `clear_board` command it
//!   gets is written to stderr);
//! * `K=ACTION` for its K-th `genmove`: a vertex, `pass`, `resign`, `crash` (exits with
//!   status 3), `silent` (never answers), `garbage` (a line that is not GTP), `junk`
//!   (answers `= banana`) or `sleepS:MOVE` (answers MOVE, by default `pass`, after S
//!   seconds). A `genmove` without an action passes.
//!
//! It writes `fake engine N started` to stderr when it starts. An option that is not
//! `KEY=VALUE`, or a `sleep` that is not a number of seconds, makes it exit with status 2.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::process::exit;
use std::time::Duration;

fn main() {
    let mut options = HashMap::new();
    for arg in std::env::args().skip(1) {
        let Some((key, value)) = arg.split_once('=') else {
            eprintln!("fake engine: option {arg:?} is not KEY=VALUE");
            exit(2);
        };
        options.insert(key.to_string(), value.to_string());
    }
    let option = |key: &str| options.get(key).map(String::as_str);
    let mut commands = vec![
        "protocol_version",
        "name",
        "version",
        "list_commands",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "set_free_handicap",
        "quit",
    ];
    let claim = option("claim");
    if claim.is_some() {
        commands.push("final_score");
    }
    if option("clock").is_some() {
        commands.extend(["time_settings", "time_left"]);
    }
    let fixed = option("fixed_handicap").map(|points| points.replace(',', " "));
    if fixed.is_some() {
        commands.push("fixed_handicap");
    }
    let name = option("name").unwrap_or("fake");
    eprintln!("fake engine {name} started");

    let mut out = io::stdout().lock();
    let mut moves = 0;
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            continue;
        };
        if command.starts_with("time_")
            || (fixed.is_some() && (command.ends_with("_handicap") || command == "clear_board"))
        {
            eprintln!("{}", words.join(" "));
        }
        if Some(command) == option("refuse") {
            answer(&mut out, "refused", false);
            continue;
        }
        match (command, claim) {
            ("name", _) => answer(&mut out, name, true),
            ("version", _) => answer(&mut out, "1.0", true),
            ("protocol_version", _) => answer(&mut out, "2", true),
            ("list_commands", _) => answer(&mut out, &commands.join("\n"), true),
            ("final_score", Some(claim)) => answer(&mut out, claim, true),
            ("fixed_handicap", _) if fixed.is_some() => {
                answer(&mut out, fixed.as_deref().unwrap_or_default(), true)
            }
            ("quit", _) => {
                answer(&mut out, "", true);
                break;
            }
            ("genmove", _) => {
                moves += 1;
                match option(&moves.to_string()).unwrap_or("pass") {
                    "crash" => exit(3),
                    "silent" => std::thread::sleep(Duration::from_secs(3600)),
                    "garbage" => send(&mut out, "thinking very hard\n\n"),
                    "junk" => answer(&mut out, "banana", true),
                    action => match action.strip_prefix("sleep") {
                        Some(sleep) => {
                            let (seconds, mv) = sleep.split_once(':').unwrap_or((sleep, ""));
                            let Some(pause) = seconds
                                .parse()
                                .ok()
                                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                            else {
                                eprintln!("fake engine: bad sleep {action:?}");
                                exit(2);
                            };
                            std::thread::sleep(pause);
                            answer(&mut out, if mv.is_empty() { "pass" } else { mv }, true);
                        }
                        None => answer(&mut out, action, true),
                    },
                }
            }
            _ if commands.contains(&command) => answer(&mut out, "", true),
            _ => answer(&mut out, "unknown command", false),
        }
    }
}

/// A GTP answer: `= text` or `? text`, then the empty line.
fn answer(out: &mut impl Write, text: &str, ok: bool) {
    let sign = if ok { '=' } else { '?' };
    send(out, &format!("{sign} {text}\n\n"));
}

/// Writes `text` at once; a closed pipe means the referee is gone, and so is the engine.
fn send(out: &mut impl Write, text: &str) {
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        exit(0);
    }
}
