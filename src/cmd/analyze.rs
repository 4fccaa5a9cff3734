//! `hoshi analyze FILE.sgf`: a game review. Every position of the game's main line, from
//! the start to after the last move, is searched for the player who moves there, and the
//! game is written back as SGF with, on each move, Black's win rate as `SBKV` (the property
//! Sabaki saves its own analysis in and draws its win-rate graph from, so the graph shows
//! without an engine attached) and a comment: win rate and score from Black's side, the
//! move hoshi prefers in the position before, and what the move played lost against it.
//! Mistakes are flagged (SGF's bad-move mark `BM` and the word "Mistake" in the comment),
//! and the root comment sums up the largest losses of each side. The file's game-info and
//! comments are kept; its variations are not.
//!
//! One [`Search`] reviews the whole game, so the tree grown for a position carries over to
//! the next one (the search re-roots it by itself when the game continues). Progress goes to
//! stderr, one line a position; stdout stays empty.

use crate::board::Illegal;
use crate::coord::{Color, Move};
use crate::game::{Game, Turn};
use crate::parse;
use crate::player::Params;
use crate::rules::Ruleset;
use crate::score;
use crate::search::{Budget, MoveInfo, Search, SearchConfig};
use crate::setup::{Advice, NetChoice, Workshop};
use crate::sgf::{self, Annotations, GameRecord, SgfError};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Reviews a game: annotates every move with the win rate, the score estimate and the move
/// hoshi prefers, and writes the annotated SGF (Sabaki shows the win-rate graph).
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct AnalyzeArgs {
    /// The game: an SGF file (its main line; variations are left out).
    pub file: PathBuf,

    /// Where to write the annotated game [default: FILE-hoshi.sgf beside FILE]. Never FILE
    /// itself.
    #[arg(long)]
    pub out: Option<PathBuf>,

    /// Visits (simulations through the tree) a position [default: 10,000 on 9x9, in
    /// proportion to the side on other boards: 14,400 on 13x13, 21,100 on 19x19].
    /// `--playouts` is the same option.
    #[arg(
        long = "visits",
        alias = "playouts",
        value_name = "VISITS",
        conflicts_with = "time",
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub playouts: Option<u64>,

    /// Seconds a position, instead of a number of visits.
    #[arg(long, value_parser = parse::positive_seconds)]
    pub time: Option<Duration>,

    /// Search threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,

    /// Rules when the file names none that hoshi knows (RU): french, chinese, japanese, aga,
    /// new-zealand, tromp-taylor, cgos.
    #[arg(long, default_value = "french")]
    pub rules: Ruleset,

    /// Komi when the file gives none (KM) [default: the rules' usual komi].
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f64>,

    /// Seed of the search [default: random]. With --visits and --threads 1 the same seed
    /// gives the same review.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// A drop of the mover's win rate above this (in points of percentage, as a fraction)
/// marks the move as a mistake: beyond the noise of a search of a few thousand playouts,
/// which moves a win rate by a few percent from one position to the next.
pub const MISTAKE: f64 = 0.10;

/// A loss of the mover's score lead above this many points also marks the move as a
/// mistake (KaTrain's threshold for its "mistake" colour). Where one side is far ahead the
/// win rate hardly moves, and a value network's win rate, sure of itself, stays near 0 or 1 through
/// a move that gives away a group: the points lost still show it.
pub const MISTAKE_POINTS: f64 = 6.0;

/// Playouts a position on 9x9 when none are given: a tenth of a second of one core, and
/// enough that the search's lean towards the player it runs for stays under the mistake
/// threshold (at 2,000 it flagged twice as many moves of the same game).
const BASE_PLAYOUTS: u64 = 10_000;

/// Simulations a move needs before its win rate is compared with the best move's in the
/// same search (see [`change`]).
const MIN_VISITS: u32 = 50;

/// Moves listed per color in the root's summary.
const WORST_LISTED: usize = 3;

/// Why a review could not be done (or written).
#[derive(Debug)]
pub enum ReviewError {
    /// The game's file cannot be read.
    Unreadable {
        file: PathBuf,
        why: io::Error,
    },
    /// The file is not SGF, or its game cannot be replayed.
    BadGame {
        file: PathBuf,
        why: SgfError,
    },
    /// A move of the game cannot be replayed (its number, from 1).
    Replay {
        number: usize,
        why: Illegal,
    },
    /// `--out` names the game's own file.
    OutIsTheGame(PathBuf),
    /// `--out` is in a directory that does not exist.
    NoDirectory(PathBuf),
    Unwritable {
        out: PathBuf,
        why: io::Error,
    },
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Unreadable { file, why } => {
                write!(f, "cannot read {}: {why}", file.display())
            }
            ReviewError::BadGame { file, why } => write!(f, "{}: {why}", file.display()),
            ReviewError::Replay { number, why } => {
                write!(f, "move {number} cannot be replayed: {why}")
            }
            ReviewError::OutIsTheGame(out) => {
                write!(
                    f,
                    "{} is the game itself: give another --out",
                    out.display()
                )
            }
            ReviewError::NoDirectory(out) => {
                write!(f, "cannot write {}: no such directory", out.display())
            }
            ReviewError::Unwritable { out, why } => {
                write!(f, "cannot write {}: {why}", out.display())
            }
        }
    }
}

impl std::error::Error for ReviewError {}

/// Runs `hoshi analyze`; failures are one line on stderr and a failing exit status.
pub fn command(args: &AnalyzeArgs, net: NetChoice, params: &Params) -> ExitCode {
    match run(args, net, params) {
        Ok(path) => {
            eprintln!("hoshi analyze: wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("hoshi analyze: {why}");
            ExitCode::FAILURE
        }
    }
}

/// Reviews the game of `args.file` and writes the annotated file; returns its path.
/// Nothing is written unless the whole game could be read and reviewed. The review searches
/// with what the player analyses with on the game's board (the setup's kit with the board's
/// network, `--net`, and the player's tuning, `--param`): where the network is a value
/// network its policy, value, score lead and ownership; with another network its policy as
/// priors and the playouts at the leaves.
pub fn run(args: &AnalyzeArgs, net: NetChoice, params: &Params) -> Result<PathBuf, ReviewError> {
    let (record, game) = load(args)?;
    let out = output_path(args)?;
    let plan = Plan::new(args, game.size());
    eprintln!("hoshi analyze: {}", plan.describe(&game));
    let kit = Workshop::new(net, params.tuning()).kit(game.size(), Advice::Strongest);
    if let Some(net) = kit.net {
        eprintln!("hoshi analyze: with {net:?}");
    }
    let config = kit.config(plan.threads, SearchConfig::default().max_memory);
    let mut search = Search::new(config, kit.knowledge, plan.seed);
    let verdicts = review(&mut search, &game, plan.budget)?;
    let notes = annotate(&record, &game, &verdicts, &plan);
    let text = sgf::write_annotated(&game, None, &notes);
    if let Err(why) = fs::write(&out, text) {
        return Err(ReviewError::Unwritable { out, why });
    }
    Ok(out)
}

/// The game of `args.file`, read and replayed (every move checked by the rules).
fn load(args: &AnalyzeArgs) -> Result<(GameRecord, Game), ReviewError> {
    let bad_game = |why| ReviewError::BadGame {
        file: args.file.clone(),
        why,
    };
    let bytes = fs::read(&args.file).map_err(|why| ReviewError::Unreadable {
        file: args.file.clone(),
        why,
    })?;
    let record = sgf::parse(&String::from_utf8_lossy(&bytes)).map_err(bad_game)?;
    let rules = record.ruleset().unwrap_or(args.rules);
    let komi = args.komi.unwrap_or(rules.default_komi);
    let game = record.replay(rules, komi, None).map_err(bad_game)?;
    let file = args.file.display();
    let skipped = skipped_moves(&record, &game);
    if skipped > 0 {
        log::warn!(
            "{file}: stones are set up in the middle of the game: the review starts there, \
             at move {} of {}",
            skipped + 1,
            skipped + game.move_number()
        );
    }
    Ok((record, game))
}

/// The moves of the file that the game no longer holds: those before stones set up in the
/// middle of the game, which replace the position.
fn skipped_moves(record: &GameRecord, game: &Game) -> usize {
    let in_file = record
        .events
        .iter()
        .filter(|e| matches!(e, sgf::Event::Move(..)))
        .count();
    in_file.saturating_sub(game.move_number())
}

/// `--out`, or FILE-hoshi.sgf beside FILE; refused when it is the game's own file, or in a
/// directory that does not exist (found before the review rather than after it).
fn output_path(args: &AnalyzeArgs) -> Result<PathBuf, ReviewError> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_output(&args.file));
    if same_file(&out, &args.file) {
        return Err(ReviewError::OutIsTheGame(out));
    }
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty());
    if dir.is_some_and(|d| !d.is_dir()) {
        return Err(ReviewError::NoDirectory(out));
    }
    Ok(out)
}

fn default_output(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy());
    file.with_file_name(format!("{stem}-hoshi.sgf"))
}

/// Whether both paths name one existing file (however spelled: `./a.sgf`, links).
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// How the review searches, settled from the arguments and the board.
struct Plan {
    budget: Budget,
    threads: usize,
    seed: u64,
}

impl Plan {
    fn new(args: &AnalyzeArgs, size: usize) -> Plan {
        let playouts = match (args.playouts, args.time) {
            (None, None) => Some(default_playouts(size)),
            (playouts, _) => playouts,
        };
        Plan {
            budget: Budget {
                visits: playouts,
                time: args.time,
            },
            threads: args.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            ),
            seed: args.seed.unwrap_or_else(rand::random),
        }
    }

    /// The settings in one line, for the log and the root comment (with the seed, so that
    /// a review can be repeated).
    fn describe(&self, game: &Game) -> String {
        let budget = match (self.budget.visits, self.budget.time) {
            (Some(n), _) => format!("{n} visits"),
            (None, Some(t)) => format!("{} s", t.as_secs_f64()),
            (None, None) => "no limit".into(),
        };
        let threads = match self.threads {
            1 => "1 thread".to_string(),
            n => format!("{n} threads"),
        };
        format!(
            "hoshi {} review, {budget} a position, {threads}, seed {}; {} rules, komi {}, {}x{}",
            env!("CARGO_PKG_VERSION"),
            self.seed,
            game.rules(),
            game.komi(),
            game.size(),
            game.size()
        )
    }
}

/// Playouts a position when none are given: [`BASE_PLAYOUTS`] on 9x9, and in proportion to
/// the side of other boards (rounded to hundreds). A larger board has more candidate moves
/// but also longer playouts: in proportion to the points, a 19x19 review took 10 s a
/// position on two busy cores, over half an hour for a game. A review's budget is a
/// measure (enough playouts that noise stays under [`MISTAKE`]), not a calibration against
/// an opponent, so it grows continuously with the side rather than by the levels' size
/// classes ([`crate::player::size_class`]).
pub fn default_playouts(size: usize) -> u64 {
    ((BASE_PLAYOUTS * size as u64 / 9 + 50) / 100 * 100).max(100)
}

/// What the search thinks of one position.
#[derive(Clone, Debug, PartialEq)]
struct Verdict {
    /// The move hoshi prefers there.
    best: Move,
    /// Its win rate for the player searched for.
    winrate: f64,
    /// Its score lead for the player searched for, when the search reported one.
    lead: Option<f64>,
    /// The moves searched well enough to judge by ([`well_searched`]), with their win
    /// rates and score leads for the player searched for.
    searched: Vec<Searched>,
    /// Black's chance to win, 0 to 1.
    black_winrate: f64,
    /// Points Black leads by, komi included, when the search reported them.
    black_lead: Option<f64>,
}

/// One move a search looked at closely, for the player searched for.
#[derive(Clone, Debug, PartialEq)]
struct Searched {
    mv: Move,
    winrate: f64,
    lead: f64,
}

impl Verdict {
    fn winrate_for(&self, color: Color) -> f64 {
        match color {
            Color::Black => self.black_winrate,
            Color::White => 1.0 - self.black_winrate,
        }
    }

    fn lead_for(&self, color: Color) -> Option<f64> {
        match color {
            Color::Black => self.black_lead,
            Color::White => self.black_lead.map(|lead| -lead),
        }
    }
}

/// Searches every position of `game` from its start (after handicap or setup stones) to
/// after its last move; one verdict a position, so one more than there are moves.
fn review(search: &mut Search, game: &Game, budget: Budget) -> Result<Vec<Verdict>, ReviewError> {
    let moves = game.history();
    let mut position = game.clone();
    while position.undo() {}
    let mut verdicts = Vec::with_capacity(moves.len() + 1);
    for (number, turn) in std::iter::once(None)
        .chain(moves.iter().map(Some))
        .enumerate()
    {
        if let Some(turn) = turn {
            position
                .play(turn.color, turn.mv)
                .map_err(|why| ReviewError::Replay { number, why })?;
        }
        // The player searched for is whoever moves next in the game: a file may let one
        // side play twice, and its move is the one to judge.
        let to_move = moves
            .get(number)
            .map_or_else(|| position.to_move(), |t| t.color);
        let verdict = assess(search, &position, to_move, budget);
        eprintln!("{}", progress_line(game, number, turn, &verdict));
        verdicts.push(verdict);
    }
    Ok(verdicts)
}

/// One search of `game` for `color`. The score lead and the moves searched come from the
/// search's last report to its watcher, which comes when the search ends (or a few
/// milliseconds before, when it ends during the report): the result itself has no score.
/// A search too short for any report (a handful of playouts) gives no score.
fn assess(search: &mut Search, game: &Game, color: Color, budget: Budget) -> Verdict {
    let mut last: Vec<MoveInfo> = Vec::new();
    let result = search.run_watched(game, color, budget, &mut |progress| {
        last = progress.moves();
        true
    });
    let best = last.iter().find(|info| info.mv == result.best);
    let best_visits = best.map_or(0, |info| info.visits);
    let lead = best.map(|info| info.score_lead);
    let black = color == Color::Black;
    Verdict {
        best: result.best,
        winrate: result.winrate,
        black_winrate: if black {
            result.winrate
        } else {
            1.0 - result.winrate
        },
        lead,
        black_lead: lead.map(|l| if black { l } else { -l }),
        searched: last
            .iter()
            .filter(|info| well_searched(info.visits, best_visits))
            .map(|info| Searched {
                mv: info.mv,
                winrate: info.winrate,
                lead: info.score_lead,
            })
            .collect(),
    }
}

/// Whether a move got enough simulations for its win rate to be compared with the best
/// move's: [`MIN_VISITS`] and a tenth of the best move's.
fn well_searched(visits: u32, best_visits: u32) -> bool {
    visits >= MIN_VISITS.max(best_visits / 10)
}

/// `move 7/60 B C3: Black 31.0%, W+6.5, hoshi D4` (or `start` before the first move).
fn progress_line(game: &Game, number: usize, turn: Option<&Turn>, verdict: &Verdict) -> String {
    let name = |mv| game.board().geometry().move_name(mv);
    let head = match turn {
        None => "start".to_string(),
        Some(turn) => format!(
            "move {number}/{} {} {}",
            game.move_number(),
            turn.color.letter(),
            name(turn.mv)
        ),
    };
    format!(
        "{head}: Black {:.1}%, {}, hoshi {}",
        100.0 * verdict.black_winrate,
        lead_text(verdict.black_lead),
        name(verdict.best)
    )
}

/// `B+2.5`, `W+0.5`, `0` ([`score::margin_text`]), or `?` when the search gave no score.
fn lead_text(black_lead: Option<f64>) -> String {
    black_lead.map_or_else(|| "?".into(), score::margin_text)
}

/// One move of the game, assessed by the verdicts before and after it.
struct ReviewedMove {
    /// Counted from 1.
    number: usize,
    color: Color,
    played: Move,
    /// The mover's win rate with the move played minus with hoshi's ([`change`]):
    /// negative when the move lost ground.
    change: f64,
    /// The same for the mover's score lead, in points, when the searches gave scores.
    points: Option<f64>,
}

impl ReviewedMove {
    fn is_mistake(&self) -> bool {
        -self.change > MISTAKE || self.points.is_some_and(|p| -p > MISTAKE_POINTS)
    }
}

/// What a move of `color` changed its player's win rate and score lead by, compared with
/// hoshi's move (0 when it is hoshi's move); the lead `None` when a search it needs gave no
/// score.
///
/// A move the search before it looked at closely is judged by that search: its win rate
/// against the best move's, two numbers measured alike. Otherwise the search after the move
/// judges it, which is less fair: a search favours the player it is run for (the best of
/// several noisy win rates is too high), so the win rate before the move is a little too
/// high for the mover and the one after it a little too low; the gap shrinks as the budget
/// grows (about 5 points of percentage at 2,000 playouts on 9x9). Moves the search hardly
/// looked at are mostly bad ones, where that matters least.
fn change(color: Color, played: Move, before: &Verdict, after: &Verdict) -> (f64, Option<f64>) {
    if played == before.best {
        return (0.0, Some(0.0));
    }
    match before.searched.iter().find(|s| s.mv == played) {
        Some(searched) => (
            searched.winrate - before.winrate,
            before.lead.map(|best| searched.lead - best),
        ),
        None => (
            after.winrate_for(color) - before.winrate_for(color),
            after
                .lead_for(color)
                .zip(before.lead_for(color))
                .map(|(a, b)| a - b),
        ),
    }
}

/// The game's moves with their change of win rate, in order.
fn reviewed_moves(game: &Game, verdicts: &[Verdict]) -> Vec<ReviewedMove> {
    game.history()
        .iter()
        .zip(verdicts.windows(2))
        .enumerate()
        .map(|(i, (turn, pair))| {
            let (change, points) = change(turn.color, turn.mv, &pair[0], &pair[1]);
            ReviewedMove {
                number: i + 1,
                color: turn.color,
                played: turn.mv,
                change,
                points,
            }
        })
        .collect()
}

/// The properties the review adds: the game-info of the file, the summary and the first
/// position's `SBKV` on the root; `SBKV`, the comment and, for a mistake, `BM` on each move.
/// The file's own comments follow the review's.
fn annotate(record: &GameRecord, game: &Game, verdicts: &[Verdict], plan: &Plan) -> Annotations {
    let reviewed = reviewed_moves(game, verdicts);
    let (root_comments, move_comments) = own_comments(record, game);
    let mut root = record.info.clone();
    if let Some(first) = verdicts.first() {
        root.push(sbkv(first));
    }
    let summary = summary(game, &reviewed, plan);
    root.push(("C".into(), with_own(summary, &root_comments)));
    let moves = reviewed
        .iter()
        .zip(verdicts.windows(2))
        .zip(&move_comments)
        .map(|((reviewed, pair), own)| {
            let comment = comment(game, reviewed, &pair[0], &pair[1]);
            let mut props = vec![sbkv(&pair[1]), ("C".into(), with_own(comment, own))];
            if reviewed.is_mistake() {
                props.push(("BM".into(), "1".into()));
            }
            props
        })
        .collect();
    Annotations { root, moves }
}

/// The file's comments: those for the root (the root's own, and any before the position
/// the review starts from), and those of each move of the game.
fn own_comments<'a>(record: &'a GameRecord, game: &Game) -> (Vec<&'a str>, Vec<Vec<&'a str>>) {
    let skipped = skipped_moves(record, game);
    let mut root = Vec::new();
    let mut moves = vec![Vec::new(); game.move_number()];
    for (after, text) in &record.comments {
        match after.checked_sub(skipped + 1) {
            Some(index) if index < moves.len() => moves[index].push(text.as_str()),
            _ => root.push(text.as_str()),
        }
    }
    (root, moves)
}

/// The review's text, then the file's own comments, a blank line apart.
fn with_own(review: String, own: &[&str]) -> String {
    std::iter::once(review.as_str())
        .chain(own.iter().copied())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Black's win rate in percent, as Sabaki writes it.
fn sbkv(verdict: &Verdict) -> (String, String) {
    (
        "SBKV".into(),
        format!("{:.2}", 100.0 * verdict.black_winrate),
    )
}

/// `Black 54.3% · B+2.5 · hoshi: D4 (55.0%, Black), played C3 (-1.2%)`, and the mistake
/// flag when there is one.
fn comment(game: &Game, reviewed: &ReviewedMove, before: &Verdict, after: &Verdict) -> String {
    let name = |mv| game.board().geometry().move_name(mv);
    let verdict = if reviewed.played == before.best {
        "hoshi's choice".to_string()
    } else {
        format!("{:+.1}%", 100.0 * reviewed.change)
    };
    let mut text = format!(
        "Black {:.1}% · {} · hoshi: {} ({:.1}%, {}), played {} ({verdict})",
        100.0 * after.black_winrate,
        lead_text(after.black_lead),
        name(before.best),
        100.0 * before.winrate_for(reviewed.color),
        reviewed.color.capitalized_name(),
        name(reviewed.played),
    );
    if reviewed.is_mistake() {
        text.push_str(&format!(
            " · Mistake: {} loses {:.1}%",
            reviewed.color.capitalized_name(),
            -100.0 * reviewed.change
        ));
        if let Some(points) = reviewed.points.filter(|p| *p < 0.0) {
            text.push_str(&format!(" and {:.1} points", -points));
        }
    }
    text
}

/// The root comment: how the review searched, and each side's largest losses.
fn summary(game: &Game, reviewed: &[ReviewedMove], plan: &Plan) -> String {
    let mut lines = vec![plan.describe(game)];
    for color in [Color::Black, Color::White] {
        lines.push(format!(
            "{}: {}",
            color.capitalized_name(),
            worst_moves(game, reviewed, color)
        ));
    }
    lines.push(format!(
        "A mistake (BM, \"Mistake\" in the comment) loses more than {:.0}% of win rate \
         or {MISTAKE_POINTS:.0} points.",
        100.0 * MISTAKE
    ));
    lines.join("\n")
}

/// `2 mistakes; largest losses: move 7 C3 -24.0% (-9.5 points), move 15 D5 -6.1%, …`.
fn worst_moves(game: &Game, reviewed: &[ReviewedMove], color: Color) -> String {
    let mut own: Vec<&ReviewedMove> = reviewed
        .iter()
        .filter(|j| j.color == color && (j.change < 0.0 || j.is_mistake()))
        .collect();
    // The mistakes first (some by their points alone), each group by the win rate lost.
    own.sort_by(|a, b| {
        b.is_mistake()
            .cmp(&a.is_mistake())
            .then(a.change.total_cmp(&b.change))
    });
    let mistakes = own.iter().filter(|j| j.is_mistake()).count();
    let listed: Vec<String> = own
        .iter()
        .take(WORST_LISTED)
        .map(|j| {
            let points = j
                .points
                .filter(|p| *p < 0.0)
                .map_or_else(String::new, |p| format!(" ({p:+.1} points)"));
            format!(
                "move {} {} {:+.1}%{points}",
                j.number,
                game.board().geometry().move_name(j.played),
                100.0 * j.change
            )
        })
        .collect();
    let plural = if mistakes == 1 { "" } else { "s" };
    if listed.is_empty() {
        format!("{mistakes} mistakes, no move lost ground")
    } else {
        format!(
            "{mistakes} mistake{plural}; largest losses: {}",
            listed.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::Point;

    #[test]
    fn default_budget_grows_with_the_board() {
        assert_eq!(default_playouts(9), 10_000);
        assert_eq!(default_playouts(13), 14_400);
        assert_eq!(default_playouts(19), 21_100);
        assert_eq!(default_playouts(2), 2_200);
    }

    #[test]
    fn output_goes_beside_the_game() {
        assert_eq!(
            default_output(Path::new("games/g1.sgf")),
            PathBuf::from("games/g1-hoshi.sgf")
        );
        assert_eq!(default_output(Path::new("g")), PathBuf::from("g-hoshi.sgf"));
    }

    /// A move is a mistake by its win rate or by its points, each past its threshold; a
    /// search without scores judges by the win rate alone.
    #[test]
    fn a_mistake_loses_win_rate_or_points() {
        let judged = |change, points| ReviewedMove {
            number: 1,
            color: Color::Black,
            played: Move::Pass,
            change,
            points,
        };
        assert!(judged(-0.11, Some(0.0)).is_mistake());
        assert!(judged(-0.02, Some(-6.5)).is_mistake());
        assert!(!judged(-0.02, Some(-5.5)).is_mistake());
        assert!(!judged(-0.09, None).is_mistake());
        assert!(!judged(0.0, Some(3.0)).is_mistake());
    }

    /// The points a move lost: from the search before it where that search looked at it
    /// closely, else from the searches before and after, each for the mover.
    #[test]
    fn points_lost_are_the_movers() {
        let verdict = |best, lead: f64, searched: Vec<Searched>| Verdict {
            best,
            winrate: 0.5,
            lead: Some(lead),
            searched,
            black_winrate: 0.5,
            black_lead: Some(lead),
        };
        let points =
            |color, mv, before: &Verdict, after: &Verdict| change(color, mv, before, after).1;
        let (a, b) = (
            Move::Play(Point::from_index(20)),
            Move::Play(Point::from_index(21)),
        );
        let close = Searched {
            mv: b,
            winrate: 0.45,
            lead: -1.5,
        };
        let before = verdict(a, 2.0, vec![close]);
        // White's search after the move: Black leads by 4 there, so Black lost 6 points...
        let after = Verdict {
            black_lead: Some(-4.0),
            ..verdict(a, 4.0, vec![])
        };
        assert_eq!(points(Color::Black, a, &before, &after), Some(0.0));
        // ...but B was searched closely before: 3.5 points behind hoshi's move.
        assert_eq!(points(Color::Black, b, &before, &after), Some(-3.5));
        assert_eq!(
            points(Color::Black, Move::Pass, &before, &after),
            Some(-6.0)
        );
        let no_score = Verdict {
            black_lead: None,
            ..after.clone()
        };
        assert_eq!(points(Color::Black, Move::Pass, &before, &no_score), None);
    }

    #[test]
    fn scores_read_from_blacks_side() {
        assert_eq!(lead_text(Some(2.46)), "B+2.5");
        assert_eq!(lead_text(Some(-0.5)), "W+0.5");
        assert_eq!(lead_text(Some(3.0)), "B+3");
        assert_eq!(lead_text(Some(-0.04)), "0");
        assert_eq!(lead_text(None), "?");
    }
}
