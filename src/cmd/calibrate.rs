//! `hoshi calibrate`: the matches that say what hoshi's ranks mean. A rank is defined by
//! the handicap: a player `k` ranks weaker, taking the fair handicap for `k` ranks on the
//! board (`SizeClass::fair_game`: `k` stones on 19x19), should win between 35% and 65%.
//! Each link of the chain is such a match between two ranks of hoshi; each anchor match
//! puts a rank against an engine whose rank people know (GNU Go 3.8 level 10 is 7 kyu,
//! Pachi 12.90 at `-t =5000` about 3 kyu), at even or at the anchor's fair handicap.
//!
//! Every match is a `hoshi match` in its own directory under `--out`, so a run stopped
//! anywhere resumes where it stopped; after each match the table of all of them is written
//! to `DIR/calibration.tsv` and printed as Markdown at the end.

use super::r#match::{self, stats, Handicap, MatchArgs};
use crate::parse;
use crate::player::size_class::SizeClass;
use crate::player::Rank;
use crate::rules::Ruleset;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Plays the chain of handicap matches between hoshi's ranks (and against anchor engines)
/// and writes the table of results.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct CalibrateArgs {
    /// Board size: 9, 13 or 19 (other sizes use the nearest one's ladder and handicaps).
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub board: u8,

    /// A link of the chain, WEAKER:STRONGER (e.g. 12k:7k): the weaker rank takes Black and
    /// the fair handicap against the stronger. Repeat for more [default: the board's
    /// chain (see `default_links`) when no --anchor is given, else none].
    #[arg(long = "link", value_parser = parse_link)]
    pub links: Vec<(Rank, Rank)>,

    /// An anchor: RANK=COMMAND, an engine of known rank (e.g. "7k=gnugo --mode gtp --level
    /// 10"), played by hoshi at the ranks of --anchor-at, with the fair handicap between
    /// them (even when the ranks are equal, colours alternating then). Repeat for more.
    #[arg(long = "anchor", value_parser = parse_anchor)]
    pub anchors: Vec<(Rank, String)>,

    /// The ranks of hoshi that play each anchor, comma-separated (e.g. 9k,7k,5k).
    #[arg(long, value_delimiter = ',', value_parser = parse_rank)]
    pub anchor_at: Vec<Rank>,

    /// Games a match.
    #[arg(long, default_value_t = 20)]
    pub games: usize,

    /// Games played at the same time.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
    pub parallel: u16,

    /// Options given to every hoshi after its rank and seed (e.g. "--policy-net none").
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub hoshi_options: String,

    /// A number put before every engine's seed, so that a second run of the same links
    /// plays other games [default: none].
    #[arg(long)]
    pub seed: Option<u32>,

    /// The hoshi to calibrate [default: this program].
    #[arg(long)]
    pub hoshi: Option<PathBuf>,

    /// Seconds an engine may take to answer a command before it loses on time.
    #[arg(long, default_value = "300", value_parser = parse::positive_seconds)]
    pub move_timeout: std::time::Duration,

    /// Directory of the matches (one sub-directory each) and of calibration.tsv.
    #[arg(long, default_value = "calibration")]
    pub out: PathBuf,
}

fn parse_rank(text: &str) -> Result<Rank, String> {
    text.parse::<Rank>().map_err(|e| e.to_string())
}

fn parse_link(text: &str) -> Result<(Rank, Rank), String> {
    let (weaker, stronger) = text
        .split_once(':')
        .ok_or_else(|| format!("not a link WEAKER:STRONGER: {text:?}"))?;
    let (weaker, stronger) = (parse_rank(weaker)?, parse_rank(stronger)?);
    if weaker >= stronger {
        return Err(format!("{weaker} is not weaker than {stronger}"));
    }
    Ok((weaker, stronger))
}

fn parse_anchor(text: &str) -> Result<(Rank, String), String> {
    let (rank, command) = text
        .split_once('=')
        .ok_or_else(|| format!("not an anchor RANK=COMMAND: {text:?}"))?;
    if command.trim().is_empty() {
        return Err(format!("an anchor without a command: {text:?}"));
    }
    Ok((parse_rank(rank)?, command.trim().to_string()))
}

/// The chain a board is calibrated by when no `--link` is given: links from the weak end
/// of the scale to its top, each a whole number of stones by the board's table, between
/// the rungs of its ladder, expert's last (the weakest rank is placed by its own targets,
/// random play and the rank five above at even, not by a link).
pub fn default_links(board: usize) -> Vec<(Rank, Rank)> {
    let class = SizeClass::of(board);
    let (k, expert) = (Rank::kyu, class.strongest());
    match class.size {
        9 => vec![
            (k(25), k(19)),
            (k(19), k(13)),
            (k(13), k(7)),
            (k(7), k(1)),
            (k(19), k(7)),
            (k(1), Rank::dan(6)),
            (Rank::dan(2), Rank::dan(8)),
            (k(3), expert),
        ],
        13 => vec![
            (k(27), k(22)),
            (k(22), k(17)),
            (k(17), k(12)),
            (k(12), k(7)),
            (k(7), k(2)),
            (k(1), Rank::dan(5)),
            (Rank::dan(3), Rank::dan(8)),
            (k(2), expert),
        ],
        _ => vec![
            (k(30), k(21)),
            (k(21), k(12)),
            (k(12), k(7)),
            (k(7), Rank::dan(1)),
            (k(12), k(10)),
            (k(7), k(6)),
            (Rank::dan(1), expert),
        ],
    }
}

/// One match of the calibration and its result.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// hoshi's rank (the weaker in a link).
    pub rank: Rank,
    /// The opponent: another rank of hoshi, or an anchor (its rank and command).
    pub opponent: String,
    pub stones: usize,
    pub komi: f64,
    pub games: usize,
    /// Games won by hoshi at `rank` (draws count half).
    pub score: f64,
}

impl Cell {
    /// The 95% Wilson interval of the win rate.
    fn interval(&self) -> (f64, f64) {
        stats::wilson(self.score, self.games as f64, 1.96)
    }

    fn tsv(&self, board: usize) -> String {
        let (low, high) = self.interval();
        format!(
            "{board}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\t{:.3}",
            self.rank, self.opponent, self.stones, self.komi, self.games, self.score, low, high
        )
    }

    fn markdown(&self, board: usize) -> String {
        let (low, high) = self.interval();
        format!(
            "| {} | {board}x{board} | {} | {} | {} | {} | {} | {:.1}% - {:.1}% |",
            self.rank,
            self.opponent,
            self.stones,
            self.komi,
            self.games,
            self.score,
            100.0 * low,
            100.0 * high
        )
    }
}

/// `hoshi calibrate`: plays every match, then prints the table.
pub fn command(args: &CalibrateArgs) -> ExitCode {
    match run(args) {
        Ok(cells) => {
            print!("{}", table(usize::from(args.board), &cells));
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("hoshi calibrate: {why}");
            ExitCode::FAILURE
        }
    }
}

/// The results as a Markdown table.
pub fn table(board: usize, cells: &[Cell]) -> String {
    let mut text = String::from(
        "| rank | board | opponent | stones | komi | games | rank's wins | 95% interval |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for cell in cells {
        let _ = writeln!(text, "{}", cell.markdown(board));
    }
    text
}

/// The links of the chain a run plays: those asked for; with none, the board's chain, unless
/// the run is for anchors only.
fn links_to_play(args: &CalibrateArgs) -> Vec<(Rank, Rank)> {
    if args.links.is_empty() && args.anchors.is_empty() {
        default_links(usize::from(args.board))
    } else {
        args.links.clone()
    }
}

/// Plays the links, then the anchors, writing `calibration.tsv` after each match.
pub fn run(args: &CalibrateArgs) -> Result<Vec<Cell>, String> {
    let board = usize::from(args.board);
    let hoshi = match &args.hoshi {
        Some(path) => path.clone(),
        None => std::env::current_exe().map_err(|e| format!("cannot find hoshi itself: {e}"))?,
    };
    let hoshi = hoshi.display().to_string();
    let prefix = args.seed.map_or(String::new(), |s| s.to_string());
    let player = |rank: Rank, side: u32| {
        format!(
            "{hoshi} --rank {rank} --threads 1 --seed {prefix}{side}{{game}} {}",
            args.hoshi_options
        )
    };
    fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut cells = Vec::new();
    for (weaker, stronger) in links_to_play(args) {
        let dir = args
            .out
            .join(format!("{board}x{board}-{weaker}-{stronger}"));
        let opponent = format!("{stronger} (hoshi)");
        let cell = play(
            args,
            (weaker, player(weaker, 1)),
            (stronger, player(stronger, 2)),
            opponent,
            &dir,
        )?;
        cells.push(cell);
        write_tsv(&args.out, board, &cells)?;
    }
    for (n, (anchor_rank, command)) in args.anchors.iter().enumerate() {
        for &rank in &args.anchor_at {
            let dir = args.out.join(format!(
                "{board}x{board}-{rank}-anchor{}-{anchor_rank}",
                n + 1
            ));
            let opponent = format!("{anchor_rank} ({command})");
            let cell = play(
                args,
                (rank, player(rank, 3)),
                (*anchor_rank, command.clone()),
                opponent,
                &dir,
            )?;
            cells.push(cell);
            write_tsv(&args.out, board, &cells)?;
        }
    }
    Ok(cells)
}

/// One match between hoshi at `ours` and `theirs`, each a rank and a command line, with
/// the fair handicap between the ranks: the weaker takes Black (colours alternate in an
/// even game).
fn play(
    args: &CalibrateArgs,
    ours: (Rank, String),
    theirs: (Rank, String),
    opponent: String,
    dir: &Path,
) -> Result<Cell, String> {
    let board = usize::from(args.board);
    let gap = ours.0.above(theirs.0);
    let fair = SizeClass::of(board).fair_game(gap.unsigned_abs(), board);
    let komi = fair.komi_or(Ruleset::FRENCH.default_komi);
    let even = fair.is_even();
    // The weaker is Black; in an even game colours alternate from hoshi's rank as Black.
    let ([black, white], hoshi_black) = if gap <= 0 || even {
        ([ours.1.clone(), theirs.1.clone()], true)
    } else {
        ([theirs.1.clone(), ours.1.clone()], false)
    };
    let match_args = MatchArgs {
        black,
        white,
        games: args.games,
        size: args.board,
        komi: Some(komi),
        rules: Ruleset::FRENCH,
        handicap: Handicap::Stones(fair.stones),
        alternate: even,
        max_moves: 1000,
        move_timeout: args.move_timeout,
        clock: None,
        black_clock: None,
        white_clock: None,
        parallel: args.parallel,
        referee: None,
        out: dir.to_path_buf(),
    };
    let summary = r#match::run(&match_args).map_err(|e| e.to_string())?;
    let standing = &summary.tally.standings[if hoshi_black { 0 } else { 1 }];
    Ok(Cell {
        rank: ours.0,
        opponent,
        stones: fair.stones,
        komi,
        games: standing.games,
        score: standing.score(),
    })
}

/// Writes the table so far to `DIR/calibration.tsv`.
fn write_tsv(out: &Path, board: usize, cells: &[Cell]) -> Result<(), String> {
    let mut text =
        String::from("board\trank\topponent\tstones\tkomi\tgames\twins\tlow95\thigh95\n");
    for cell in cells {
        let _ = writeln!(text, "{}", cell.tsv(board));
    }
    let path = out.join("calibration.tsv");
    fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_link_is_a_whole_handicap_and_spans_the_scale() {
        for board in [9, 13, 19] {
            let links = default_links(board);
            assert!(links.len() >= if board == 19 { 6 } else { 4 });
            // From the weak end (the weakest rank itself is placed by its own targets) to
            // the top of the kyu ranks or beyond.
            assert!(links.iter().any(|&(w, _)| w <= Rank::kyu(25)), "{links:?}");
            assert!(links.iter().any(|&(_, s)| s >= Rank::kyu(2)), "{links:?}");
            let class = SizeClass::of(board);
            assert_eq!(
                links.last().map(|l| l.1),
                Some(class.strongest()),
                "to expert"
            );
            for (weaker, stronger) in links {
                let ranks = stronger.above(weaker) as u32;
                let stones = f64::from(ranks) / class.ranks_per_stone;
                assert!(
                    (stones - stones.round()).abs() <= 0.34,
                    "{board}x{board} {weaker}:{stronger} is {stones} stones"
                );
                assert!(class.fair_game(ranks, board).komi.is_some(), "not even");
            }
        }
    }

    #[test]
    fn links_and_anchors_read_from_the_command_line() {
        assert_eq!(parse_link("12k:7k"), Ok((Rank::kyu(12), Rank::kyu(7))));
        assert!(parse_link("7k:12k").is_err());
        assert!(parse_link("7k").is_err());
        assert_eq!(
            parse_anchor("7k=gnugo --mode gtp --level 10"),
            Ok((Rank::kyu(7), "gnugo --mode gtp --level 10".to_string()))
        );
        assert!(parse_anchor("7k=").is_err());
        assert!(parse_anchor("gnugo").is_err());
    }

    /// Without a link the board's chain is played, unless anchors are asked for alone.
    #[test]
    fn a_run_for_anchors_plays_no_links_unless_asked() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            calibrate: CalibrateArgs,
        }
        let args = |line: &[&str]| {
            let words = ["calibrate", "--board", "13"].iter().chain(line);
            <Cli as clap::Parser>::parse_from(words).calibrate
        };
        assert_eq!(links_to_play(&args(&[])), default_links(13));
        let anchor = ["--anchor", "3k=pachi", "--anchor-at", "1k"];
        assert_eq!(links_to_play(&args(&anchor)), Vec::new());
        let both = [&anchor[..], &["--link", "7k:2k"]].concat();
        let link = (Rank::kyu(7), Rank::kyu(2));
        assert_eq!(links_to_play(&args(&both)), vec![link]);
    }

    #[test]
    fn the_table_shows_each_cell_with_its_interval() {
        let cell = Cell {
            rank: Rank::kyu(12),
            opponent: "7k (hoshi)".to_string(),
            stones: 5,
            komi: 0.5,
            games: 20,
            score: 10.0,
        };
        assert_eq!(
            table(19, std::slice::from_ref(&cell)).lines().nth(2),
            Some("| 12k | 19x19 | 7k (hoshi) | 5 | 0.5 | 20 | 10 | 29.9% - 70.1% |")
        );
        assert_eq!(
            cell.tsv(19),
            "19\t12k\t7k (hoshi)\t5\t0.5\t20\t10\t0.299\t0.701"
        );
    }
}
