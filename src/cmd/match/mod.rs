//! `hoshi match`: games between two GTP engines, in the spirit of gogui-twogtp, so that
//! every change to hoshi is judged by numbers.
//!
//! Each game is refereed by hoshi's own rules ([`referee`]): the engines are started for
//! the game, set up, asked for moves in turn, and every move is checked before the other
//! engine hears of it; an illegal move, a crash, garbage or silence past `--move-timeout`
//! loses the game, with the reason. With `--clock` each engine plays on a game clock
//! (`time_settings` at the start, `time_left` before each move) and a move that overruns it
//! loses on time. Finished games are counted by hoshi or by a GTP
//! `--referee`, and each engine's own `final_score` is kept beside the result.
//!
//! In `--out DIR` every game is saved as `game-NNNN.sgf` and as one row of `results.tsv`
//! ([`results`]), written the moment it ends; a new run with the same `--out` skips the
//! games already there, so an interrupted match continues where it stopped. The engines'
//! stderr goes to `DIR/logs/game-NNNN-{black,white,referee}.log` (deleted when empty).
//! Progress goes to stderr after each game; the final table ([`stats`]) is returned as a
//! [`Summary`] and printed by [`command`].
//!
//! Wiring into the `hoshi` command line is one variant and one line:
//! `Match(hoshi::cmd::r#match::MatchArgs)` in a `#[derive(Subcommand)]` enum, and
//! `Some(Sub::Match(args)) => hoshi::cmd::r#match::command(&args)` in `main`.

mod command_line;
mod counting;
mod program;
mod progress;
mod record;
mod referee;
pub mod results;
mod settings;
pub mod stats;
mod sync;

pub use command_line::{split as split_command_line, CommandLineError};
pub use counting::{hoshi_count, Scorer};
pub use record::{civil_date, sgf_text, Header};
pub use referee::{play_game, Played};
pub use results::Row;
pub use settings::{MatchSettings, SettingsError};
pub use stats::Tally;

use crate::parse;
use crate::player::clock::TimeControl;
use crate::player::size_class::SizeClass;
use crate::player::Rank;
use crate::rules::Ruleset;
use program::{Fault, Program};
use progress::MatchProgress;
use std::fmt;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::sync::{mpsc, Mutex};
use std::thread;
use std::time::Duration;

/// A version fit for a table: some engines answer `version` with a whole message (Pachi
/// adds a chat greeting after a colon), kept to its first words.
fn short_version(version: &str) -> String {
    let head = version.split(':').next().unwrap_or("");
    head.split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What becomes the game number in an engine's command line, so that engines seeded on
/// the command line play different games, reproducibly.
pub const GAME_NUMBER: &str = "{game}";

/// The least time an engine gets to answer its first command, whatever `--move-timeout`
/// says: engines that load a network or an opening book are slow to start.
pub const STARTUP: Duration = Duration::from_secs(30);

/// Plays games between two GTP engines and reports who is stronger, by how much (Elo)
/// and how sure that is.
///
/// Each engine is a full command line, e.g. `--black "gnugo --mode gtp --level 10"
/// --white "hoshi --level beginner"`; a per-move time or playout budget belongs there.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct MatchArgs {
    /// The engine playing Black (in odd-numbered games with --alternate). Engines are
    /// started afresh for every game, so one with a fixed seed plays the same game every
    /// time: `{game}` in the command line becomes the game number ("hoshi --seed {game}").
    #[arg(long)]
    pub black: String,

    /// The engine playing White (in odd-numbered games with --alternate); `{game}` works
    /// here too.
    #[arg(long)]
    pub white: String,

    /// Games in the match, numbered from 1; games already in DIR/results.tsv are skipped.
    #[arg(long, default_value_t = 1)]
    pub games: usize,

    /// Board size (2 to 25).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub size: u8,

    /// Komi [default: the rules' usual komi, 7.5 for French; handicap games usually
    /// take 0.5].
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f64>,

    /// Rules by which hoshi judges every move and counts: french, chinese, japanese, aga,
    /// new-zealand, tromp-taylor. Engines with `kgs-rules` or `hoshi-rules` are told.
    #[arg(long, default_value = "french")]
    pub rules: Ruleset,

    /// Handicap stones for Black: GTP's fixed placement where it exists, else free; or
    /// `fair`: the handicap and komi of a fair game between the engines' ranks (both must
    /// answer hoshi's `hoshi-rank`; the --black engine must be the weaker), by hoshi's
    /// table for the board (`hoshi-handicap`).
    #[arg(long, default_value = "0", value_parser = parse_handicap)]
    pub handicap: Handicap,

    /// Swap colours every other game: even-numbered games give Black to the --white engine.
    #[arg(long)]
    pub alternate: bool,

    /// Moves (passes included) after which a game is stopped and counted.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_moves: u32,

    /// Seconds an engine may take to answer a command (genmove included, unless the engine
    /// has a clock); past it the engine is killed and loses on time.
    #[arg(long, default_value = "60", value_parser = parse::positive_seconds)]
    pub move_timeout: Duration,

    /// A game clock for both engines: MAIN seconds of sudden death ("600"), or MAIN
    /// seconds then PERIOD seconds for every STONES moves, Canadian byo-yomi
    /// ("300+30/5", gogui-twogtp's -time in seconds), or "none". Each engine hears
    /// `time_settings` at the start and `time_left` (whole seconds, rounded down) before
    /// every `genmove`, if it lists them. An engine whose move takes longer than its clock
    /// has left, with 0.1 s of tolerance for lag, loses on time (B+T, W+T); while it
    /// thinks, its clock replaces --move-timeout.
    #[arg(long, value_parser = parse_clock)]
    pub clock: Option<TimeControl>,

    /// The --black engine's own clock, overriding --clock (it follows the engine when
    /// colours alternate); "none" for no clock.
    #[arg(long, value_parser = parse_clock)]
    pub black_clock: Option<TimeControl>,

    /// The --white engine's own clock, overriding --clock.
    #[arg(long, value_parser = parse_clock)]
    pub white_clock: Option<TimeControl>,

    /// Games played at the same time (each with its own pair of engines).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub parallel: u16,

    /// A GTP engine that counts finished games (given the moves, asked `final_score`),
    /// e.g. "gnugo --mode gtp --chinese-rules" [default: hoshi's own count].
    #[arg(long)]
    pub referee: Option<String>,

    /// Directory for the SGF files, results.tsv and the engines' logs.
    #[arg(long, default_value = "match")]
    pub out: PathBuf,
}

/// `--handicap`: stones, or a fair game by the engines' ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handicap {
    Stones(usize),
    Fair,
}

fn parse_handicap(text: &str) -> Result<Handicap, String> {
    if text.eq_ignore_ascii_case("fair") {
        return Ok(Handicap::Fair);
    }
    text.parse()
        .map(Handicap::Stones)
        .map_err(|_| format!("not a number of stones nor \"fair\": {text:?}"))
}

/// A `--clock` that is none of the forms [`parse_clock`] reads (the text given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadClock(pub String);

impl fmt::Display for BadClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad clock {:?}: expected MAIN seconds (\"600\"), MAIN+PERIOD/STONES \
             (\"300+30/5\") or \"none\"",
            self.0
        )
    }
}

impl std::error::Error for BadClock {}

/// Reads a `--clock`: `none`, `MAIN` or `MAIN+PERIOD/STONES`, in seconds.
pub fn parse_clock(text: &str) -> Result<TimeControl, BadClock> {
    let bad = || BadClock(text.to_string());
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(TimeControl::Unlimited);
    }
    match text.split_once('+') {
        None => parse::positive_seconds(text)
            .map(|main| TimeControl::Absolute { main })
            .map_err(|_| bad()),
        Some((main, overtime)) => {
            let (period, stones) = overtime.split_once('/').ok_or_else(bad)?;
            let stones = stones.trim().parse::<u32>().ok().filter(|&n| n > 0);
            let stones = stones.ok_or_else(bad)?;
            let main = parse::seconds(main).map_err(|_| bad())?;
            let period = parse::positive_seconds(period).map_err(|_| bad())?;
            Ok(TimeControl::canadian(main, period, stones))
        }
    }
}

/// A file or directory of the match that cannot be read or written: what was done
/// (`read`, `write`, `create`...), where, and why.
#[derive(Debug)]
pub struct FileError {
    pub action: &'static str,
    pub path: PathBuf,
    pub why: io::Error,
}

impl FileError {
    fn new(action: &'static str, path: &Path, why: io::Error) -> FileError {
        FileError {
            action,
            path: path.to_path_buf(),
            why,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot {} {}: {}",
            self.action,
            self.path.display(),
            self.why
        )
    }
}

impl std::error::Error for FileError {}

/// What stops a match (games that are lost are no errors: they are results).
#[derive(Debug)]
pub enum MatchError {
    Settings(SettingsError),
    CommandLine(CommandLineError),
    File(FileError),
    /// An engine that cannot start or answer `name` and `version`: its command line, what
    /// went wrong, and the command it went wrong on (none: it did not start).
    Engine {
        command_line: String,
        fault: Fault,
        on: Option<String>,
    },
    /// The results file (its path) holds a game (its number, Black, White) that is not
    /// between the two players.
    OtherMatch {
        path: PathBuf,
        game: usize,
        black: String,
        white: String,
        players: Box<[String; 2]>,
    },
    /// `--handicap fair` that cannot be reckoned: why.
    Fair(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Settings(why) => write!(f, "{why}"),
            MatchError::Fair(why) => write!(f, "--handicap fair: {why}"),
            MatchError::CommandLine(why) => write!(f, "{why}"),
            MatchError::File(why) => write!(f, "{why}"),
            MatchError::Engine {
                command_line,
                fault,
                on: None,
            } => write!(f, "{command_line}: {fault}"),
            MatchError::Engine {
                command_line,
                fault,
                on: Some(command),
            } => write!(f, "{command_line}: {fault} on `{command}`"),
            MatchError::OtherMatch {
                path,
                game,
                black,
                white,
                players,
            } => write!(
                f,
                "{} holds game {game} between {black:?} and {white:?}, not between {:?} and \
                 {:?}: use another --out directory",
                path.display(),
                players[0],
                players[1]
            ),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<SettingsError> for MatchError {
    fn from(why: SettingsError) -> Self {
        MatchError::Settings(why)
    }
}

impl From<CommandLineError> for MatchError {
    fn from(why: CommandLineError) -> Self {
        MatchError::CommandLine(why)
    }
}

impl From<FileError> for MatchError {
    fn from(why: FileError) -> Self {
        MatchError::File(why)
    }
}

/// A match once run (or resumed): every game in results.tsv, and the tally of them.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The two engines' names, the `--black` one first.
    pub players: [String; 2],
    /// Every game of the match, in game order, those of earlier runs included.
    pub rows: Vec<Row>,
    /// Games played by this run.
    pub played_now: usize,
    pub tally: Tally,
    /// Games that repeat an earlier one move for move, with the earlier one's number.
    pub duplicates: Vec<(usize, usize)>,
}

impl Summary {
    /// The final report: what was played, the table of [`Tally::report`], and a warning
    /// about repeated games.
    pub fn report(&self) -> String {
        format!(
            "{} games of {} against {} ({} played by this run).\n\n{}{}",
            self.rows.len(),
            self.players[0],
            self.players[1],
            self.played_now,
            self.tally.report(),
            self.duplicate_warning()
        )
    }

    fn duplicate_warning(&self) -> String {
        if self.duplicates.is_empty() {
            return String::new();
        }
        let shown: Vec<String> = self
            .duplicates
            .iter()
            .take(10)
            .map(|(game, earlier)| format!("{game} = {earlier}"))
            .collect();
        let more = if self.duplicates.len() > 10 {
            ", ..."
        } else {
            ""
        };
        format!(
            "Warning: {} games repeat an earlier game move for move ({}{more}). Engines that \
             play deterministically, restarted for every game, do that: seed them with the \
             game number, e.g. \"hoshi --seed {GAME_NUMBER}\". The interval and the Elo bar \
             count every game as an independent trial.\n",
            self.duplicates.len(),
            shown.join(", ")
        )
    }
}

/// `hoshi match`: runs the match and prints the report on stdout; errors that stop it
/// (an engine that cannot start, an unwritable directory) go to stderr.
pub fn command(args: &MatchArgs) -> ExitCode {
    match run(args) {
        Ok(summary) => {
            print!("{}", summary.report());
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("hoshi match: {why}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the match `args` describes, skipping the games already in `DIR/results.tsv`.
pub fn run(args: &MatchArgs) -> Result<Summary, MatchError> {
    let mut plan = Plan::new(args)?;
    if args.handicap == Handicap::Fair {
        plan.make_fair(args)?;
    }
    let logs = plan.out.join("logs");
    fs::create_dir_all(&logs).map_err(|why| FileError::new("create", &logs, why))?;
    let players = plan.identify()?;
    let path = plan.out.join("results.tsv");
    let mut rows = results::load(&path)?;
    check_players(&rows, &players, &path)?;
    let todo: Vec<usize> = (1..=args.games)
        .filter(|n| !rows.iter().any(|r| r.game == *n))
        .collect();
    eprintln!(
        "hoshi match: {} against {}, {} games to play of {}, {} at a time, in {}",
        players[0],
        players[1],
        todo.len(),
        args.games,
        plan.parallel,
        plan.out.display()
    );
    let played_now = plan.record_all(&players, todo, &path, &mut rows, args.games)?;
    rows.sort_by_key(|r| r.game);
    Ok(Summary {
        tally: Tally::new(&players, &rows, plan.white_first()),
        duplicates: record::duplicates(&plan.out, &rows),
        players,
        rows,
        played_now,
    })
}

/// Refuses to mix two matches in one directory: every row must be between the players.
fn check_players(rows: &[Row], players: &[String; 2], path: &Path) -> Result<(), MatchError> {
    let known = |name: &String| players.contains(name);
    match rows.iter().find(|r| !(known(&r.black) && known(&r.white))) {
        Some(row) => Err(MatchError::OtherMatch {
            path: path.to_path_buf(),
            game: row.game,
            black: row.black.clone(),
            white: row.white.clone(),
            players: Box::new(players.clone()),
        }),
        None => Ok(()),
    }
}

/// The match, checked and ready.
struct Plan {
    settings: MatchSettings,
    /// The `--black` and `--white` command lines, split into words.
    engines: [Vec<String>; 2],
    scorer: Scorer,
    alternate: bool,
    parallel: usize,
    out: PathBuf,
}

impl Plan {
    fn new(args: &MatchArgs) -> Result<Plan, MatchError> {
        let komi = args.komi.unwrap_or(args.rules.default_komi);
        let clock = |own: Option<TimeControl>| own.or(args.clock).unwrap_or(TimeControl::Unlimited);
        let stones = match args.handicap {
            Handicap::Stones(n) => n,
            Handicap::Fair => 0,
        };
        let mut settings = MatchSettings::new(
            usize::from(args.size),
            args.rules,
            komi,
            stones,
            args.max_moves as usize,
            args.move_timeout,
        )?;
        settings.clocks = [clock(args.black_clock), clock(args.white_clock)];
        let scorer = match &args.referee {
            Some(line) => Scorer::Referee(command_line::split(line)?),
            None => Scorer::Hoshi,
        };
        Ok(Plan {
            settings,
            engines: [
                command_line::split(&args.black)?,
                command_line::split(&args.white)?,
            ],
            scorer,
            alternate: args.alternate,
            parallel: usize::from(args.parallel.max(1)),
            out: args.out.clone(),
        })
    }

    /// The engines playing Black and White in game `number` (0: `--black`, 1: `--white`).
    fn seats(&self, number: usize) -> [usize; 2] {
        if self.alternate && number.is_multiple_of(2) {
            [1, 0]
        } else {
            [0, 1]
        }
    }

    /// The players' names for the records: each engine's GTP `name` and `version`; when
    /// those are the same (hoshi against hoshi), the command lines; when those are the
    /// same too, the names numbered. Also checks that both engines start.
    fn identify(&self) -> Result<[String; 2], MatchError> {
        let names = [self.identify_one(0)?, self.identify_one(1)?];
        if names[0] != names[1] {
            return Ok(names);
        }
        let lines = self.engines.clone().map(|words| words.join(" "));
        if lines[0] != lines[1] {
            return Ok(lines);
        }
        Ok([format!("{} #1", names[0]), format!("{} #2", names[1])])
    }

    /// The command line of `engine` for game `number`.
    fn command(&self, engine: usize, number: usize) -> Vec<String> {
        let number = number.to_string();
        self.engines[engine]
            .iter()
            .map(|word| word.replace(GAME_NUMBER, &number))
            .collect()
    }

    /// The engine's name and version, asked of it as it would start for a game 0.
    fn identify_one(&self, engine: usize) -> Result<String, MatchError> {
        let [name, version] = self.ask_all(engine, ["name", "version"])?;
        let version = short_version(&version);
        let name = if name.is_empty() {
            self.command(engine, 0).join(" ")
        } else {
            name
        };
        Ok(format!("{name} {version}").trim().replace('\t', " "))
    }

    /// The answers of `engine`, started as for a game 0, to `commands` (empty where it
    /// fails one), whitespace runs made single spaces.
    fn ask_all<const N: usize>(
        &self,
        engine: usize,
        commands: [&str; N],
    ) -> Result<[String; N], MatchError> {
        let words = &self.command(engine, 0);
        let timeout = self.settings.move_timeout;
        let failed = |fault, on: Option<&str>| MatchError::Engine {
            command_line: words.join(" "),
            fault,
            on: on.map(String::from),
        };
        let mut program = Program::start(words, Stdio::null(), timeout, timeout.max(STARTUP))
            .map_err(|fault| failed(fault, None))?;
        let mut answers: [String; N] = std::array::from_fn(|_| String::new());
        for (command, answer) in commands.iter().zip(&mut answers) {
            *answer = match program.ask(command) {
                Ok(Ok(text)) => text.split_whitespace().collect::<Vec<_>>().join(" "),
                Ok(Err(_)) => String::new(),
                Err(fault) => return Err(failed(fault, Some(command))),
            };
        }
        program.quit();
        Ok(answers)
    }

    /// For `--handicap fair`: asks both engines their rank and sets up the fair game
    /// between them (stones and komi), the --black engine being the weaker.
    fn make_fair(&mut self, args: &MatchArgs) -> Result<(), MatchError> {
        let rank = |engine: usize| -> Result<Rank, MatchError> {
            let [answer] = self.ask_all(engine, ["hoshi-rank"])?;
            answer.parse::<Rank>().map_err(|_| {
                let line = self.command(engine, 0).join(" ");
                MatchError::Fair(format!("{line} does not tell its rank (hoshi-rank)"))
            })
        };
        let (black, white) = (rank(0)?, rank(1)?);
        let gap = white.above(black);
        let size = usize::from(args.size);
        let fair = SizeClass::of(size).fair_game(gap.unsigned_abs(), size);
        let even = fair.is_even();
        if gap < 0 && !even {
            return Err(MatchError::Fair(format!(
                "the --black engine ({black}) is stronger than the --white one ({white}); \
                 the weaker takes Black"
            )));
        }
        if args.alternate && !even {
            return Err(MatchError::Fair(format!(
                "{black} against {white} is not an even game: --alternate would give the \
                 handicap to the stronger"
            )));
        }
        let komi = fair.komi_or(args.rules.default_komi);
        let clocks = self.settings.clocks;
        self.settings = MatchSettings::new(
            size,
            args.rules,
            komi,
            fair.stones,
            args.max_moves as usize,
            args.move_timeout,
        )?;
        self.settings.clocks = clocks;
        eprintln!(
            "hoshi match: {black} against {white} on {size}x{size}: {} stones, komi {komi}",
            fair.stones
        );
        Ok(())
    }

    /// Whether White moves first (handicap games).
    fn white_first(&self) -> bool {
        !self.settings.handicap.is_empty()
    }

    /// Plays the games numbered in `todo`, appending each row to the results file at
    /// `path` and to `rows` as its game ends, with a progress line on stderr. Returns the
    /// number of games played.
    fn record_all(
        &self,
        players: &[String; 2],
        todo: Vec<usize>,
        path: &Path,
        rows: &mut Vec<Row>,
        games: usize,
    ) -> Result<usize, MatchError> {
        let mut progress = MatchProgress::new(games.max(rows.len()), rows.len());
        let mut played = 0;
        self.play_all(players, todo, |row| {
            results::append(path, &row)?;
            rows.push(row);
            played += 1;
            let tally = Tally::new(players, rows, self.white_first());
            if let Some(last) = rows.last() {
                eprintln!("{}", progress.record(last, &tally));
            }
            Ok(())
        })?;
        Ok(played)
    }

    /// Plays the games numbered in `todo`, `--parallel` at a time, and hands each row to
    /// `record` as its game ends (on this thread, so rows are written one at a time). An
    /// error from `record` stops the match: no new game starts.
    fn play_all(
        &self,
        players: &[String; 2],
        todo: Vec<usize>,
        mut record: impl FnMut(Row) -> Result<(), MatchError>,
    ) -> Result<(), MatchError> {
        let queue = Mutex::new(todo.into_iter());
        let (sender, receiver) = mpsc::channel();
        thread::scope(|scope| {
            for _ in 0..self.parallel {
                let sender = sender.clone();
                let queue = &queue;
                scope.spawn(move || {
                    while let Some(number) = next_game(queue) {
                        if sender.send(self.play_one(players, number)).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(sender);
            for finished in receiver {
                if let Err(why) = finished.and_then(&mut record) {
                    if let Ok(mut games) = queue.lock() {
                        games.by_ref().for_each(drop);
                    }
                    return Err(why);
                }
            }
            Ok(())
        })
    }

    /// Plays game `number`, saves its SGF and returns its row.
    fn play_one(&self, players: &[String; 2], number: usize) -> Result<Row, MatchError> {
        let seats = self.seats(number);
        let commands = seats.map(|engine| self.command(engine, number));
        let open_log = |role: &str| self.open_log(number, role);
        let played = play_game(
            &self.settings,
            commands.each_ref().map(Vec::as_slice),
            seats.map(|engine| self.settings.clocks[engine]),
            &self.scorer,
            &open_log,
        );
        self.remove_empty_logs(number);
        let [black, white] = seats.map(|engine| players[engine].clone());
        let header = Header {
            number,
            black: &black,
            white: &white,
            date: record::today(),
        };
        let sgf = record::sgf_path(&self.out, number);
        fs::write(&sgf, sgf_text(&played, &header))
            .map_err(|why| FileError::new("write", &sgf, why))?;
        Ok(Row {
            game: number,
            black,
            white,
            result: played.result,
            reason: played.reason,
            moves: played.game.move_number(),
            seconds: played.seconds,
            claims: played.claims,
        })
    }

    fn log_path(&self, number: usize, role: &str) -> PathBuf {
        self.out
            .join("logs")
            .join(format!("game-{number:04}-{role}.log"))
    }

    /// Where the stderr of the program playing `role` goes: its log file, or nowhere if
    /// the file cannot be created (a log is not worth stopping the match for).
    fn open_log(&self, number: usize, role: &str) -> Stdio {
        match File::create(self.log_path(number, role)) {
            Ok(file) => Stdio::from(file),
            Err(why) => {
                log::warn!("no log for game {number} ({role}): {why}");
                Stdio::null()
            }
        }
    }

    fn remove_empty_logs(&self, number: usize) {
        for role in ["black", "white", "referee"] {
            let path = self.log_path(number, role);
            if fs::metadata(&path).is_ok_and(|m| m.len() == 0) {
                let _ = fs::remove_file(&path);
            }
        }
    }
}

/// The next game to play, if any is left.
fn next_game(queue: &Mutex<std::vec::IntoIter<usize>>) -> Option<usize> {
    queue.lock().ok()?.next()
}

#[cfg(test)]
mod tests {
    use super::short_version;

    #[test]
    fn long_versions_are_cut_to_their_first_words() {
        assert_eq!(
            short_version("11.99 (Genjo-devel): If you believe you have won but I am still"),
            "11.99 (Genjo-devel)"
        );
        assert_eq!(short_version("3.8"), "3.8");
        assert_eq!(short_version(""), "");
        assert_eq!(short_version("a b c d e f"), "a b c d");
    }
}
