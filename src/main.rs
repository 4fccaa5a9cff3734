//! The `hoshi` command: reads the command line, then speaks GTP on stdin/stdout.

use clap::Parser;
use hoshi::engine::{Engine, Settings};
use hoshi::parse;
use hoshi::player::size_class::SizeClass;
use hoshi::player::{self, Level, Params, PlayerSettings, Rank};
use hoshi::rules::Ruleset;
use hoshi::setup::{self, LoadError, NetChoice};
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// hoshi, a Go engine speaking the Go Text Protocol (GTP v2).
///
/// With no arguments it reads GTP commands on stdin and answers on stdout: French rules,
/// komi 7.5, 19x19, expert level. Plug it into Sabaki, GoGui, gogui-twogtp, kgsGtp or a CGOS
/// client as "hoshi" followed by the options below. Logs go to stderr (RUST_LOG=debug for
/// more), never to stdout.
#[derive(Parser, Debug)]
#[command(name = "hoshi", version, about, long_about)]
struct Cli {
    /// Without a subcommand, hoshi speaks GTP.
    #[command(subcommand)]
    command: Option<Subcommand>,

    /// Playing strength, calibrated on 9x9, 13x13 and 19x19 by handicap games, as a rank
    /// (hoshi-level and --help show it): beginner (10k: intermediate's visits on 9x9 and
    /// 13x13, 200 with the policy network on 19x19, a move a few points worse than the best),
    /// intermediate (7k, GNU Go level 10's strength: 1,000 visits a move on 9x9, 2,000 on
    /// 13x13, 100 with the network on 19x19) or expert (the top of each board's scale, 9d:
    /// every thread, all the time it has, 1 s a move on 9x9, 3 s on 13x13, 6 s on 19x19
    /// unless --time, --visits or a clock says otherwise). Other sizes play like the nearest of
    /// 9x9, 13x13 and 19x19, the smaller on a tie (up to 11x11 like 9x9, 12x12 to 16x16 like
    /// 13x13). GTP's hoshi-level tells and changes it during a game.
    #[arg(long, value_enum, default_value_t = Level::Expert)]
    level: Level,

    /// Playing strength as a rank, from 30k (a first game) through 1k and 1d up to expert's
    /// (9d on every board today; a rank above a board's expert plays as expert), in steps
    /// of one rank; overrides --level. Under the levels hoshi plays moves that give
    /// away the rank's few points (the weakest on 19x19 also see only some of the legal
    /// moves), never missing the atari of a big chain; above them it reads more. GTP's
    /// hoshi-rank tells and changes it during a game.
    #[arg(long, value_parser = parse_rank)]
    rank: Option<Rank>,

    /// The opponent's rank (30k to 9d), for the fair handicap and komi that GTP's
    /// hoshi-handicap answers (the weaker takes Black); GTP's hoshi-opponent_rank changes it.
    #[arg(long, value_parser = parse_any_rank)]
    opponent_rank: Option<Rank>,

    /// Rules: french, chinese, japanese, aga, new-zealand, tromp-taylor, cgos. GTP's kgs-rules
    /// and hoshi-rules change them during a session.
    #[arg(long, default_value = "french")]
    rules: Ruleset,

    /// Komi [default: the rules' usual komi, 7.5 for French]. GTP's komi overrides it.
    #[arg(long, allow_negative_numbers = true)]
    komi: Option<f64>,

    /// Board size until GTP's boardsize changes it (2 to 25).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,

    /// Search threads at expert level [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,

    /// Visits (simulations through the tree) per move, overriding the level's budget; with
    /// the playouts at the leaves, as by default, each visit plays one. `--playouts` is the
    /// same option.
    #[arg(long, alias = "playouts")]
    visits: Option<u64>,

    /// Seconds per move, overriding the level's budget and the clock's share of its time
    /// (yet never more than a GTP clock has left: a move must not lose on time).
    #[arg(long, value_parser = parse::positive_seconds)]
    time: Option<Duration>,

    /// Seed of the random choices [default: random]. With --visits and --threads 1 the same
    /// seed plays the same moves; with a time budget or threads, timing varies the search.
    #[arg(long)]
    seed: Option<u64>,

    /// Write the log to this file instead of stderr.
    #[arg(long)]
    log_file: Option<PathBuf>,

    /// Memory the search tree may use, in MiB: it never grows beyond.
    #[arg(long, default_value_t = 2048)]
    max_memory: u64,

    /// Resign when the win rate stays below this for 3 moves (every level), 0 to never
    /// resign [default: 0.1] (the parameter `resign_threshold`; this flag has the last word).
    #[arg(long, value_parser = parse_fraction)]
    resign_threshold: Option<f64>,

    /// Think on the opponent's time: after each move, until the next command arrives (at
    /// levels that think by time; the tree is kept for the next move).
    #[arg(long)]
    ponder: bool,

    /// Draw the search on GoGui's board while thinking (`gogui-gfx:` lines on stderr; also
    /// a parameter in GoGui's analyze menu).
    #[arg(long)]
    live_gfx: bool,

    /// Play random moves that do not fill their own eyes instead of searching: a baseline
    /// opponent for benchmarks (`hoshi match`).
    #[arg(long)]
    random: bool,

    /// Set a tuning parameter of the search, the priors, the playouts or the player's
    /// decisions, at every level, e.g. `--param rave_equivalence=2500`; repeat it for more.
    /// GTP's `hoshi-param` (no argument) lists every key with its value, and
    /// `hoshi-param KEY VALUE` sets one during a session.
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    params: Vec<(String, String)>,

    /// The network whose judgement guides the search on every board (a `.hnet` file: its
    /// policy as the search's priors; a value network's value, score and ownership at every
    /// leaf), or `none` to search without one [default: the networks built into hoshi: a
    /// value network of their own on 9x9 and 13x13, the network trained on 9-dan games
    /// elsewhere]. Beginner and intermediate take its advice on 19x19 only. `--policy-net`
    /// is the same option.
    #[arg(long, value_name = "FILE|none", alias = "policy-net")]
    net: Option<PathBuf>,

    /// The profile a human-imitating KataGo network (one trained to play like people, with
    /// a metadata encoder) plays as, by KataGo's `humanSLProfile` names: `rank_5k`,
    /// `rank_3d`, `rank_1k_2d` (Black, then White), `preaz_5k` (before AlphaZero),
    /// `proyear_1990` (professionals of that year). Such a network needs one; others
    /// ignore it.
    #[arg(long, value_name = "PROFILE")]
    human_profile: Option<String>,
}

/// What hoshi can do besides speaking GTP.
#[derive(clap::Subcommand, Debug)]
enum Subcommand {
    /// Play a match between two GTP engines (in the spirit of gogui-twogtp) and report win
    /// rates and Elo.
    Match(hoshi::cmd::r#match::MatchArgs),
    /// Review a game: annotate every move of an SGF file with the win rate, the score and
    /// hoshi's preferred move, and write the annotated SGF (Sabaki graphs the win rate).
    Analyze(hoshi::cmd::analyze::AnalyzeArgs),
    /// Turn strong players' games (the Tom server's one-line records, or the programs' games
    /// of go-games/AI) into the positions and results the network is trained on
    /// (docs/policy-net.md).
    Dataset(hoshi::cmd::dataset::DatasetArgs),
    /// Play games against itself in numbered, seeded shards that resume where they stopped,
    /// writing each move with its search's visits (training data for the networks). The
    /// engine's options (--net, --param, --rules, --threads, --seed) apply.
    Selfplay(hoshi::cmd::selfplay::SelfplayArgs),
    /// Play the chain of handicap matches between hoshi's ranks (and against engines of
    /// known rank) that says what a rank means, resuming where it stopped, and print the
    /// table of results.
    Calibrate(hoshi::cmd::calibrate::CalibrateArgs),
    /// Speak KataGo's JSON analysis protocol on stdin and stdout (KaTrain's custom engine,
    /// review tools): a query a line, an answer a line. The engine's options, given before
    /// `analysis` (`hoshi --net FILE analysis`), apply.
    Analysis(hoshi::cmd::analysis::AnalysisArgs),
}

/// A command-line value that is not a number from 0 to 1 (clap names the option and the
/// value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BadFraction;

impl fmt::Display for BadFraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a number from 0 to 1")
    }
}

impl std::error::Error for BadFraction {}

fn parse_fraction(text: &str) -> Result<f64, BadFraction> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(BadFraction),
    }
}

/// `KEY=VALUE`, the key a parameter and the value one it takes ([`Params::set`]).
fn parse_param(text: &str) -> Result<(String, String), String> {
    Params::parse_setting(text)
}

impl Cli {
    /// The parameters: the defaults with every `--param` applied, in order.
    fn params(&self) -> Params {
        let mut params = Params::default();
        for (key, value) in &self.params {
            // Checked when the command line was read.
            params.set(key, value).expect("a valid --param");
        }
        if let Some(threshold) = self.resign_threshold {
            params.player.resign_threshold = threshold;
        }
        params
    }

    /// The networks `--net` names: the built-in ones by default, none for `none`.
    fn net(&self) -> Result<NetChoice, LoadError> {
        match &self.net {
            None => Ok(NetChoice::BuiltIn),
            Some(path) if path.as_os_str() == "none" => Ok(NetChoice::Off),
            Some(path) => Ok(NetChoice::Given(setup::load_network_with(
                path,
                self.human_profile.as_deref(),
                self.max_memory.saturating_mul(1 << 20),
            )?)),
        }
    }

    fn settings(&self, net: NetChoice) -> Settings {
        let player = PlayerSettings {
            rank: self.rank.unwrap_or(self.level.rank()),
            threads: self.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            ),
            visits: self.visits,
            time: self.time,
            max_memory: usize::try_from(self.max_memory.saturating_mul(1 << 20))
                .unwrap_or(usize::MAX),
            params: self.params(),
            net,
            opening_moves: 0,
        };
        Settings {
            player,
            rules: self.rules,
            komi: self.komi,
            size: usize::from(self.size),
            seed: self.seed.unwrap_or_else(rand::random),
            ponder: self.ponder,
            random: self.random,
            live_gfx: self.live_gfx,
            opponent_rank: self.opponent_rank,
        }
    }
}

/// `--rank`: a rank hoshi plays.
fn parse_rank(text: &str) -> Result<Rank, String> {
    player::playable_rank(text, SizeClass::strongest_anywhere()).map_err(|e| e.to_string())
}

/// `--opponent-rank`: any rank.
fn parse_any_rank(text: &str) -> Result<Rank, String> {
    text.parse::<Rank>().map_err(|e| e.to_string())
}

/// Logs to stderr, or to the file given; `RUST_LOG` sets the level (info by default).
fn init_logging(file: Option<&PathBuf>) -> io::Result<()> {
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"));
    if let Some(path) = file {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        builder.target(env_logger::Target::Pipe(Box::new(file)));
    }
    builder.init();
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(why) = init_logging(cli.log_file.as_ref()) {
        eprintln!("hoshi: cannot open the log file: {why}");
        return ExitCode::FAILURE;
    }
    match &cli.command {
        Some(Subcommand::Match(args)) => return hoshi::cmd::r#match::command(args),
        Some(Subcommand::Dataset(args)) => return hoshi::cmd::dataset::command(args),
        Some(Subcommand::Calibrate(args)) => return hoshi::cmd::calibrate::command(args),
        Some(Subcommand::Analyze(_) | Subcommand::Selfplay(_) | Subcommand::Analysis(_)) | None => {
        }
    }
    let net = match cli.net() {
        Ok(net) => net,
        Err(why) => {
            log::error!("--net: {why}");
            return ExitCode::FAILURE;
        }
    };
    let settings = cli.settings(net);
    match &cli.command {
        Some(Subcommand::Selfplay(args)) => return hoshi::cmd::selfplay::command(args, &settings),
        Some(Subcommand::Analysis(args)) => return hoshi::cmd::analysis::command(args, settings),
        Some(Subcommand::Analyze(args)) => {
            return hoshi::cmd::analyze::command(args, settings.player.net, &settings.player.params)
        }
        _ => {}
    }
    log::info!(
        "hoshi {}: {} rules, komi {}, {}x{}, rank {}, seed {}",
        env!("CARGO_PKG_VERSION"),
        settings.rules,
        settings.komi(),
        settings.size,
        settings.size,
        settings.rank_on(settings.size),
        settings.seed
    );
    for (key, value) in &cli.params {
        log::info!("parameter {key} = {value}");
    }
    for line in settings.player.net.describe() {
        log::info!("{line}");
    }
    let mut engine = Engine::new(settings);
    match hoshi::gtp::run(
        &mut engine,
        io::BufReader::new(io::stdin()),
        io::stdout().lock(),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            log::error!("GTP stream: {why}");
            ExitCode::FAILURE
        }
    }
}
