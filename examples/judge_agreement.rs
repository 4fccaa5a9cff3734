//! How often hoshi's count of a finished game agrees with GNU Go's: for every game record
//! that ended by two passes, hoshi's `final_score` (its dead-stone judge, then the rules'
//! count: what `hoshi match` and GTP answer) against GNU Go 3.8's `final_score` after
//! `loadsgf`. Prints every disagreement with both lists of dead stones, then the agreement
//! (docs/benchmarks.md, "judge agreement").
//!
//!     cargo run --release --example judge_agreement -- results/h-g   # `hoshi match --out`
//!     cargo run --release --example judge_agreement -- --gnugo "gnugo --mode gtp" games/*.sgf
//!     cargo run --release --example judge_agreement -- --counted \
//!         --net weights/value-19x19.hnet --param judge_net=0.5 games/
//!
//! Arguments are SGF files or directories (their `.sgf` files, sorted). Games that ended
//! otherwise (resignation, time, a move limit) are skipped and counted apart; with
//! `--counted`, a game whose result is a margin of points (`RE[B+2.5]`: players who agreed
//! on the count without passing, as on most servers' records) is judged as if both had
//! passed. `--net FILE` gives the judge a network (its ownership enters at the weight of
//! `--param judge_net=W`), `--param KEY=VALUE` sets any of hoshi's parameters. GNU Go runs
//! with `--chinese-rules` by default, the area count of the French rules the games are
//! played under; it counts the dame as if they were filled and gives nothing for handicap
//! stones, so a disagreement with the same dead stones is a difference of counting, not of
//! judgement, and is reported as such. `--help` lists the options.

use clap::Parser;
use hoshi::coord::{Color, Move};
use hoshi::game::Game;
use hoshi::net::SharedNet;
use hoshi::player::judge;
use hoshi::player::Params;
use hoshi::rules::Ruleset;
use hoshi::sgf;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};

/// GNU Go 3.8 as Debian installs it: on the PATH, or in /usr/games.
fn default_gnugo() -> String {
    let on_path = Command::new("gnugo")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok();
    let program = if on_path { "gnugo" } else { "/usr/games/gnugo" };
    format!("{program} --mode gtp --chinese-rules")
}

/// A GTP engine spoken to one command at a time.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(command: &str) -> Result<Gtp, String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (program, args) = words.split_first().ok_or("an empty --gnugo")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Gtp {
            child,
            stdin,
            stdout,
        })
    }

    /// The answer to `command` (without `= `), or the engine's error message.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").map_err(|e| format!("cannot send: {e}"))?;
        self.stdin
            .flush()
            .map_err(|e| format!("cannot send: {e}"))?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line);
            if read.map_err(|e| e.to_string())? == 0 {
                return Err(format!("the engine quit on {command:?}"));
            }
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let text = answer.trim();
        match text.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(format!("{command:?}: {text}")),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The SGF files named by `paths`, directories opened one level, sorted.
fn game_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries =
                std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Black's margin in a result such as `B+2.5` or `W+0.5` (negative when White won).
fn margin(result: &str) -> Option<f64> {
    let (sign, points) = match result.split_once('+')? {
        ("B", points) => (1.0, points),
        ("W", points) => (-1.0, points),
        _ => return None,
    };
    points.parse::<f64>().ok().map(|p| sign * p)
}

/// How far from the recorded margin a count may be and still count as the record's: a point
/// of komi or of dame either way.
const NEAR_RECORD: f64 = 2.0;

/// The game of `path` if it ended by two passes, or with `counted` by a result in points,
/// with that recorded margin if there is one.
fn finished_game(path: &Path, counted: bool) -> Result<Option<(Game, Option<f64>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let record = sgf::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let game = record
        .replay(Ruleset::FRENCH, 7.5, None)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let passes = game.recent_moves(2).filter(|&m| m == Move::Pass).count();
    let recorded = record.result.as_deref().and_then(margin);
    Ok((passes == 2 || (counted && recorded.is_some())).then_some((game, recorded)))
}

/// hoshi's count of `game` (what [`hoshi::cmd::r#match::hoshi_count`], `hoshi match` and GTP
/// `final_score` answer) and its dead stones as GNU Go lists them: sorted GTP names.
fn hoshi_view(game: &Game, judge: &Judge) -> (String, Vec<String>) {
    let status = judge::judge(game, &judge.params, judge.net);
    let score = game.score(&status).result().to_string();
    let g = game.board().geometry();
    let mut names: Vec<String> = status.dead.iter().map(|p| g.name(p)).collect();
    names.sort();
    (score, names)
}

/// GNU Go's count and dead stones (sorted names) of the game in `path`.
fn gnugo_view(gnugo: &mut Gtp, path: &Path) -> Result<(String, Vec<String>), String> {
    let absolute = path.canonicalize().map_err(|e| e.to_string())?;
    gnugo.ask(&format!("loadsgf {}", absolute.display()))?;
    let score = gnugo.ask("final_score")?;
    let mut dead: Vec<String> = gnugo
        .ask("final_status_list dead")?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    dead.sort();
    Ok((score, dead))
}

/// The points of `a` that are not in `b`, joined by spaces ("-" for none).
fn missing(a: &[String], b: &[String]) -> String {
    let only: Vec<&str> = a
        .iter()
        .filter(|x| !b.contains(x))
        .map(String::as_str)
        .collect();
    if only.is_empty() {
        "-".into()
    } else {
        only.join(" ")
    }
}

/// hoshi's judge as the options set it.
struct Judge {
    params: Params,
    net: Option<SharedNet>,
}

/// How often hoshi's count of finished games agrees with GNU Go 3.8's.
#[derive(Parser, Debug)]
struct Args {
    /// GNU Go's command line [default: `gnugo --mode gtp --chinese-rules`, gnugo on the PATH
    /// or in /usr/games].
    #[arg(long, value_name = "COMMAND")]
    gnugo: Option<String>,
    /// Also judge the games whose result is a margin of points (`B+2.5`), as if both players
    /// had passed.
    #[arg(long)]
    counted: bool,
    /// A network (a `.hnet` file) for the judge: its ownership enters at the weight of
    /// `--param judge_net=W`.
    #[arg(long, value_name = "FILE")]
    net: Option<PathBuf>,
    /// Set one of hoshi's parameters (`hoshi-param` lists them); repeat it for more.
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// The games: SGF files, or directories whose `.sgf` files are read, sorted.
    #[arg(required = true, value_name = "SGF-FILE-OR-DIR")]
    paths: Vec<PathBuf>,
}

/// `KEY=VALUE`, checked against hoshi's parameters.
fn parse_param(text: &str) -> Result<(String, String), String> {
    Params::parse_setting(text)
}

impl Args {
    /// hoshi's judge as the options set it.
    fn judge(&self) -> Result<Judge, String> {
        let mut params = Params::default();
        for (key, value) in &self.params {
            params
                .set(key, value)
                .map_err(|e| format!("--param {key}={value}: {e}"))?;
        }
        let net = match &self.net {
            None => None,
            Some(path) => Some(hoshi::setup::load_network(path).map_err(|e| e.to_string())?),
        };
        Ok(Judge { params, net })
    }
}

fn run(args: &Args) -> Result<(), String> {
    let judge = args.judge()?;
    let files = game_files(&args.paths)?;
    let gnugo_command = args.gnugo.clone().unwrap_or_else(default_gnugo);
    let mut gnugo = Gtp::start(&gnugo_command)?;
    let (mut counted, mut agreed, mut same_dead, mut skipped) = (0, 0, 0, 0);
    let (mut dead_agreed, mut with_record, mut near_ours, mut near_theirs) = (0, 0, 0, 0);
    for path in &files {
        let Some((game, recorded)) = finished_game(path, args.counted)? else {
            skipped += 1;
            continue;
        };
        counted += 1;
        let (ours, our_dead) = hoshi_view(&game, &judge);
        let (theirs, their_dead) = gnugo_view(&mut gnugo, path)?;
        dead_agreed += usize::from(our_dead == their_dead);
        if let Some(record) = recorded {
            let near =
                |count: &str| margin(count).is_some_and(|m| (m - record).abs() <= NEAR_RECORD);
            with_record += 1;
            near_ours += usize::from(near(&ours));
            near_theirs += usize::from(near(&theirs));
        }
        if ours == theirs {
            agreed += 1;
            continue;
        }
        let to_move = match game.to_move() {
            Color::Black => "B",
            Color::White => "W",
        };
        let kind = if our_dead == their_dead {
            same_dead += 1;
            "same dead stones".to_string()
        } else {
            format!(
                "dead for hoshi only: {}; for GNU Go only: {}",
                missing(&our_dead, &their_dead),
                missing(&their_dead, &our_dead)
            )
        };
        println!(
            "{}: hoshi {ours}, GNU Go {theirs} ({to_move} to move); {kind}",
            path.display()
        );
    }
    let share = 100.0 * f64::from(agreed) / f64::from(counted.max(1));
    println!(
        "{agreed} of {counted} counted games agree ({share:.1}%); {} disagree, {same_dead} of \
         them with the same dead stones; {skipped} skipped (not ended by two passes{}); the \
         same dead stones in {dead_agreed} of {counted}",
        counted - agreed,
        if args.counted { " or counted" } else { "" }
    );
    println!(
        "of the {with_record} with a result in points, within {NEAR_RECORD} points of it: \
         hoshi {near_ours}, GNU Go {near_theirs}"
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("judge_agreement: {why}");
            ExitCode::FAILURE
        }
    }
}
