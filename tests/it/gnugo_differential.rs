//! Differential test of hoshi's rules against GNU Go 3.8 as an independent referee.
//!
//! Seeded random games are played in a [`Game`] under French rules and mirrored, move by
//! move, to `gnugo --mode gtp` over pipes. Before every move the legal points of both colors
//! are compared with GNU Go's `all_legal`; after every move the stones (`list_stones`), the
//! prisoners (`captures`) and hoshi's incremental bookkeeping (`Board::verify`) are checked.
//!
//! GNU Go knows only simple ko (and, like hoshi, forbids suicide), while French rules forbid a
//! player to recreate, by placing a stone, a whole-board position he himself produced earlier
//! by placing a stone (natural situational superko). So the comparison is done in two layers:
//!
//! 1. A shadow [`Game`] under Japanese rules (simple ko, no suicide) follows the same moves;
//!    its legal points must equal GNU Go's *exactly*, with no exception. This pins down
//!    occupancy, suicide, captures and the simple-ko point.
//! 2. The French legality is then predicted point by point from GNU Go's answer and a
//!    repetition model kept by this test (every position produced by a stone, with the color
//!    that placed it): a point is French-legal iff it is legal on the board ignoring simple ko
//!    (GNU Go says legal, or it is exactly the simple-ko point) and the position it would make
//!    was not produced earlier by a stone of the same color. hoshi must agree with that
//!    prediction everywhere. The only points where hoshi and GNU Go may then disagree are:
//!    * *superko*: GNU Go allows, hoshi refuses with `Illegal::Superko`, because the move
//!      recreates a position the mover produced earlier (GNU Go does not look at history);
//!    * *ko retake*: GNU Go refuses the simple-ko recapture, hoshi allows it, because the
//!      position it recreates was produced by the *other* player's stone (typically the
//!      capture came right after a pass: the position before the capture was made by the
//!      capturer's previous stone, not by the player now retaking). Natural situational
//!      superko forbids only recreating one's own positions, so the retake is legal.
//!
//! Moves are chosen only among points both hoshi (French) and GNU Go allow, so every move can
//! be mirrored. Eyes are filled freely so that captures, suicide points and kos are frequent.
//!
//! The tests need GNU Go (PATH `gnugo`, else `/usr/games/gnugo`), so they are ignored by a
//! plain `cargo test`; `.ci/run` installs GNU Go and runs them by name (`cargo test --release
//! -- --ignored gnugo`), and without GNU Go they fail. `HOSHI_GNUGO_SCALE=N` multiplies the
//! number of games (a longer soak).

use crate::common;

use hoshi::board::{Board, Illegal};
use hoshi::coord::{Color, Move, Point};
use hoshi::game::Game;
use hoshi::rules::{KoRule, Ruleset};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long GNU Go may take to answer one command before the test gives up on it (its
/// answers to these commands take well under a millisecond).
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------------
// GNU Go over GTP
// ---------------------------------------------------------------------------------------------

/// A running `gnugo --mode gtp`, killed when dropped.
struct Gnugo {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines of GNU Go's standard output, read by a thread so that every read can time out.
    lines: Receiver<String>,
    next_id: u64,
}

impl Gnugo {
    fn start(path: &Path) -> Gnugo {
        let mut child = Command::new(path)
            .args(["--mode", "gtp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {} --mode gtp: {e}", path.display()));
        let stdin = child.stdin.take().expect("gnugo stdin is piped");
        let stdout = child.stdout.take().expect("gnugo stdout is piped");
        let lines = common::lines_of(stdout);
        Gnugo {
            child,
            stdin: Some(stdin),
            lines,
            next_id: 1,
        }
    }

    fn next_line(&self, command: &str) -> Result<String, String> {
        match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Ok(line) => Ok(line.trim_end_matches('\r').to_string()),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "gnugo did not answer `{command}` within {} s",
                REPLY_TIMEOUT.as_secs()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(format!(
                "gnugo closed its output (exited?) while answering `{command}`"
            )),
        }
    }

    /// Sends one command and reads the whole response. The outer `Err` is a broken
    /// conversation (no answer in time, GNU Go gone, an answer that is not GTP or not to this
    /// command); the inner result is `Ok(text)` for a `=` answer, `Err(text)` for a `?` one.
    fn exchange(&mut self, command: &str) -> Result<Result<String, String>, String> {
        let id = self.next_id;
        self.next_id += 1;
        let stdin = self.stdin.as_mut().ok_or("gnugo stdin is closed")?;
        writeln!(stdin, "{id} {command}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot send `{command}` to gnugo: {e}"))?;
        // A response is `=id text` or `?id text`, maybe more lines, then an empty line.
        let mut first = self.next_line(command)?;
        while first.is_empty() {
            first = self.next_line(command)?;
        }
        let success = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => {
                return Err(format!(
                    "gnugo answered `{command}` with a line that is not GTP: {first:?}"
                ))
            }
        };
        let rest = &first[1..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let answered_id: u64 = rest[..digits].parse().map_err(|_| {
            format!("gnugo answered `{command}` without the command id {id}: {first:?}")
        })?;
        if answered_id != id {
            return Err(format!(
                "gnugo answered command id {answered_id} while `{id} {command}` was expected \
                 (out of step): {first:?}"
            ));
        }
        let mut text = rest[digits..].trim().to_string();
        loop {
            let line = self.next_line(command)?;
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        Ok(if success { Ok(text) } else { Err(text) })
    }

    /// Sends one command; `Ok(text)` for a `=` answer, `Err(text)` for a `?` answer. Panics
    /// when the conversation breaks (see [`Gnugo::exchange`]).
    fn send(&mut self, command: &str) -> Result<String, String> {
        self.exchange(command).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Sends a command that must succeed.
    fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("gnugo refused `{command}`: ? {e}"))
    }
}

impl Drop for Gnugo {
    fn drop(&mut self) {
        // Ask politely, then make sure: a stuck gnugo must not outlive the test.
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        // It has exited when its output closes (the reader thread then drops the sender).
        let deadline = Instant::now() + Duration::from_secs(2);
        while let Ok(_answer) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {}
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes a line straight to the process's stderr, which the test harness does not capture
/// (it captures only the `print!` family), so that the summaries are always visible.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

// ---------------------------------------------------------------------------------------------
// Campaigns of random games
// ---------------------------------------------------------------------------------------------

/// A batch of random games on one board size.
struct Campaign {
    size: usize,
    games: u64,
    max_moves: usize,
    /// Seed of game `i` is `seed_base + i`.
    seed_base: u64,
    /// Chance of passing, in percent (passes clear the simple ko, which is where French rules
    /// and simple ko differ).
    pass_percent: u32,
}

#[derive(Default, Debug)]
struct Stats {
    games: u64,
    moves: u64,
    passes: u64,
    /// Positions where the legal points of one color were compared.
    legality_checks: u64,
    /// Points compared in those checks.
    points_compared: u64,
    /// GNU Go allows, hoshi refuses with `Illegal::Superko`.
    superko_exceptions: u64,
    /// GNU Go refuses the simple-ko recapture, French rules allow it.
    ko_retake_exceptions: u64,
    stones_captured: u64,
    kos_taken: u64,
}

impl Stats {
    fn add(&mut self, other: &Stats) {
        self.games += other.games;
        self.moves += other.moves;
        self.passes += other.passes;
        self.legality_checks += other.legality_checks;
        self.points_compared += other.points_compared;
        self.superko_exceptions += other.superko_exceptions;
        self.ko_retake_exceptions += other.ko_retake_exceptions;
        self.stones_captured += other.stones_captured;
        self.kos_taken += other.kos_taken;
    }
}

/// `HOSHI_GNUGO_SCALE`: how many times the default number of games to play.
fn scale() -> u64 {
    match std::env::var("HOSHI_GNUGO_SCALE") {
        Ok(text) => text
            .trim()
            .parse()
            .expect("HOSHI_GNUGO_SCALE must be a whole number"),
        Err(_) => 1,
    }
}

fn run_campaigns(test: &str, campaigns: &[Campaign]) {
    let mut gnugo = Gnugo::start(&common::gnugo());
    let version = gnugo.ok("version");
    let started = Instant::now();
    let mut total = Stats::default();
    let mut sizes = Vec::new();
    for campaign in campaigns {
        let mut stats = Stats::default();
        for i in 0..campaign.games * scale() {
            play_one_game(&mut gnugo, campaign, campaign.seed_base + i, &mut stats);
        }
        sizes.push(format!(
            "{n}x{n}: {} games, {} moves",
            stats.games,
            stats.moves,
            n = campaign.size
        ));
        total.add(&stats);
    }
    say(&format!(
        "gnugo differential ({test}, GNU Go {version}, {:.1} s): {} games ({}), {} moves \
         compared, {} legality checks over {} points, {} superko exceptions, {} ko-retake \
         exceptions; {} stones captured, {} kos taken, {} passes",
        started.elapsed().as_secs_f64(),
        total.games,
        sizes.join("; "),
        total.moves,
        total.legality_checks,
        total.points_compared,
        total.superko_exceptions,
        total.ko_retake_exceptions,
        total.stones_captured,
        total.kos_taken,
        total.passes,
    ));
}

/// The stones of a board, point by point in board order.
type Stones = Vec<Option<Color>>;

fn snapshot(board: &Board) -> Stones {
    let g = board.geometry();
    g.points().map(|p| board.color_at(p)).collect()
}

/// One game mirrored between hoshi and GNU Go.
struct Duel<'a> {
    gnugo: &'a mut Gnugo,
    stats: &'a mut Stats,
    seed: u64,
    /// The game under test: French rules.
    game: Game,
    /// The same moves under Japanese rules (simple ko), to compare exactly with GNU Go.
    shadow: Game,
    /// The moves so far, as GTP `(color, vertex)`.
    moves: Vec<(Color, String)>,
    /// The repetition model: every position produced by a stone, keyed by its hash, with the
    /// stones and the color that placed the stone.
    produced: HashMap<u64, Vec<(Stones, Color)>>,
}

fn play_one_game(gnugo: &mut Gnugo, campaign: &Campaign, seed: u64, stats: &mut Stats) {
    let size = campaign.size;
    gnugo.ok(&format!("boardsize {size}"));
    gnugo.ok("clear_board");
    let rules = Ruleset::FRENCH;
    assert_ne!(rules.ko, KoRule::Simple, "the test is about French rules");
    let mut duel = Duel {
        gnugo,
        stats,
        seed,
        game: Game::new(size, rules, rules.default_komi).expect("valid board size"),
        shadow: Game::new(size, Ruleset::JAPANESE, Ruleset::JAPANESE.default_komi)
            .expect("valid board size"),
        moves: Vec::new(),
        produced: HashMap::new(),
    };
    duel.stats.games += 1;
    let mut rng = SmallRng::seed_from_u64(seed);
    duel.compare_boards();
    while !duel.game.is_over() && duel.game.move_number() < campaign.max_moves {
        let color = duel.game.to_move();
        let agreed = duel.compare_legality(color);
        // The other color too: GTP lets either color play, and its legality (no ko
        // restriction for it, superko on its own positions) is a different code path.
        duel.compare_legality(color.opponent());
        let mv = duel.choose(&mut rng, color, &agreed, campaign.pass_percent);
        duel.play(color, mv);
        duel.compare_boards();
    }
}

impl Duel<'_> {
    fn name(&self, p: Point) -> String {
        self.game.board().geometry().name(p)
    }

    /// Fails the test with everything needed to reproduce the disagreement.
    fn fail(&mut self, what: &str) -> ! {
        let size = self.game.size();
        let mut record = String::new();
        for (k, (color, vertex)) in self.moves.iter().enumerate() {
            let _ = write!(record, "{}.{} {vertex}  ", k + 1, color.letter());
        }
        let mut script = format!("boardsize {size}\nclear_board\n");
        for (color, vertex) in &self.moves {
            let _ = writeln!(script, "play {color} {vertex}");
        }
        // Never panics: a broken conversation must not hide the failure being reported.
        let gnugo_board = match self.gnugo.exchange("showboard") {
            Ok(Ok(text)) => text,
            Ok(Err(text)) => format!(" (showboard refused: {text})"),
            Err(e) => format!(" (unavailable: {e})"),
        };
        panic!(
            "differential test against GNU Go failed\n\
             {size}x{size} game with seed {seed}, after move {number}, {to_move} to move:\n\
             {what}\n\n\
             moves so far: {record}\n\n\
             hoshi board:\n{hoshi_board}\n\n\
             GNU Go board:{gnugo_board}\n\n\
             GTP script reproducing the position:\n{script}",
            seed = self.seed,
            number = self.game.move_number(),
            to_move = self.game.to_move(),
            hoshi_board = self.game.board().diagram(),
        );
    }

    /// Parses a list of GTP vertices from GNU Go, failing on anything that is not one.
    fn parse_vertices(&mut self, command: &str, text: &str) -> BTreeSet<Point> {
        let g = self.game.board().geometry();
        let mut set = BTreeSet::new();
        for token in text.split_whitespace() {
            match g.parse_point(token) {
                Some(p) if set.insert(p) => {}
                Some(_) => self.fail(&format!(
                    "GNU Go listed {token} twice in its answer to `{command}`: {text}"
                )),
                None => self.fail(&format!(
                    "GNU Go answered `{command}` with {token:?}, not a vertex of this board: \
                     {text}"
                )),
            }
        }
        set
    }

    fn names(&self, points: impl IntoIterator<Item = Point>) -> String {
        let names: Vec<String> = points.into_iter().map(|p| self.name(p)).collect();
        if names.is_empty() {
            "(none)".to_string()
        } else {
            names.join(" ")
        }
    }

    /// GNU Go's `is_legal` for one point, which must agree with its `all_legal`.
    fn gnugo_is_legal(&mut self, color: Color, p: Point) -> bool {
        let command = format!("is_legal {color} {}", self.name(p));
        let answer = self.gnugo.ok(&command);
        match answer.as_str() {
            "1" => true,
            "0" => false,
            _ => self.fail(&format!("GNU Go answered `{command}` with {answer:?}")),
        }
    }

    /// Whether `color` placing a stone on `p` (legal on the board, simple ko aside) would
    /// recreate a position that `color` produced earlier by placing a stone: the French
    /// (natural situational superko) repetition, computed independently of hoshi's history.
    fn repeats(&self, color: Color, p: Point) -> bool {
        let mut after = self.game.board().clone();
        after.place(color, p);
        self.produced.get(&after.hash()).is_some_and(|earlier| {
            let stones = snapshot(&after);
            earlier
                .iter()
                .any(|(before, by)| *by == color && *before == stones)
        })
    }

    /// Compares the legal points of `color` in hoshi (French and Japanese rules) with GNU Go's
    /// `all_legal`, and returns the points both hoshi (French) and GNU Go allow.
    fn compare_legality(&mut self, color: Color) -> Vec<Point> {
        let command = format!("all_legal {color}");
        let answer = self.gnugo.ok(&command);
        let gnugo: BTreeSet<Point> = self.parse_vertices(&command, &answer);
        let hoshi: BTreeSet<Point> = self.game.legal_points(color).into_iter().collect();
        let simple: BTreeSet<Point> = self.shadow.legal_points(color).into_iter().collect();
        self.stats.legality_checks += 1;

        // Layer 1: simple ko and no suicide on both sides: no difference at all is allowed.
        if simple != gnugo {
            let what = format!(
                "legal points of {color} under simple ko (hoshi's Japanese rules) differ from \
                 GNU Go's `all_legal {color}`\n\
                 only hoshi: {}\nonly GNU Go: {}\n\
                 hoshi (japanese): {}\nGNU Go: {}",
                self.names(simple.difference(&gnugo).copied()),
                self.names(gnugo.difference(&simple).copied()),
                self.names(simple.iter().copied()),
                answer,
            );
            self.fail(&what);
        }

        // Layer 2: French rules, predicted from GNU Go's board legality and the repetition
        // model.
        let g = self.game.board().geometry();
        let mut agreed = Vec::new();
        let mut problems = Vec::new();
        for p in g.points() {
            self.stats.points_compared += 1;
            let by_gnugo = gnugo.contains(&p);
            let by_hoshi = hoshi.contains(&p);
            // The one point GNU Go refuses only for simple ko (layer 1 made sure hoshi's
            // simple-ko point is GNU Go's): on the board it is a legal capture.
            let simple_ko = self.shadow.check(color, Move::Play(p)) == Err(Illegal::Ko);
            let on_board_legal = by_gnugo || simple_ko;
            let repeats = on_board_legal && self.repeats(color, p);
            let expected = on_board_legal && !repeats;
            if by_hoshi != expected {
                problems.push(format!(
                    "{}: hoshi says {}, French rules say {} (GNU Go says {}, simple-ko point: \
                     {simple_ko}, recreates a position {color} produced: {repeats}; hoshi's \
                     reason: {:?})",
                    self.name(p),
                    legal_word(by_hoshi),
                    legal_word(expected),
                    legal_word(by_gnugo),
                    self.game.check(color, Move::Play(p)),
                ));
                continue;
            }
            match (by_hoshi, by_gnugo) {
                (true, true) => agreed.push(p),
                (false, false) => {}
                (false, true) => {
                    // Superko exception: legitimate because the move recreates a position
                    // `color` produced with a stone (checked above), which French rules
                    // forbid and GNU Go, knowing only simple ko, cannot see. hoshi must give
                    // that reason, not another one.
                    let reason = self.game.check(color, Move::Play(p));
                    if reason != Err(Illegal::Superko) {
                        problems.push(format!(
                            "{}: GNU Go allows it, hoshi refuses it with {reason:?} instead of \
                             Superko",
                            self.name(p)
                        ));
                        continue;
                    }
                    if !self.gnugo_is_legal(color, p) {
                        self.fail(&format!(
                            "GNU Go's is_legal refuses {} for {color} but its all_legal lists it",
                            self.name(p)
                        ));
                    }
                    self.stats.superko_exceptions += 1;
                }
                (true, false) => {
                    // Ko-retake exception: legitimate because GNU Go refuses it only as the
                    // simple-ko recapture (it is the board's ko point for `color`, the rules
                    // are not simple ko) and the position it recreates was not produced by a
                    // stone of `color` (checked above), so French rules allow it.
                    if self.game.board().ko() != Some((p, color)) {
                        problems.push(format!(
                            "{}: hoshi allows it, GNU Go refuses it, and it is not the ko point \
                             of hoshi's French board ({:?})",
                            self.name(p),
                            self.game.board().ko().map(|(k, c)| (self.name(k), c)),
                        ));
                        continue;
                    }
                    if self.gnugo_is_legal(color, p) {
                        self.fail(&format!(
                            "GNU Go's is_legal allows {} for {color} but its all_legal omits it",
                            self.name(p)
                        ));
                    }
                    self.stats.ko_retake_exceptions += 1;
                }
            }
        }
        if !problems.is_empty() {
            let what = format!(
                "legality of {color} under French rules:\n  {}\n\
                 hoshi (french) legal: {}\nGNU Go all_legal: {}",
                problems.join("\n  "),
                self.names(hoshi.iter().copied()),
                answer,
            );
            self.fail(&what);
        }
        agreed
    }

    /// A random move among the points both sides allow: sometimes a pass, often a capture or
    /// a point next to a stone (more fights, kos and suicide points), eyes not spared.
    fn choose(
        &self,
        rng: &mut SmallRng,
        color: Color,
        agreed: &[Point],
        pass_percent: u32,
    ) -> Move {
        let board = self.game.board();
        let g = board.geometry();
        if agreed.is_empty() || rng.gen_range(0..100) < pass_percent {
            return Move::Pass;
        }
        let captures: Vec<Point> = agreed
            .iter()
            .copied()
            .filter(|&p| {
                g.neighbours(p).iter().any(|&n| {
                    board.color_at(n) == Some(color.opponent()) && board.liberty_count(n) == 1
                })
            })
            .collect();
        let near: Vec<Point> = agreed
            .iter()
            .copied()
            .filter(|&p| g.neighbours(p).iter().any(|&n| board.color_at(n).is_some()))
            .collect();
        let roll = rng.gen_range(0..100);
        let pool = if roll < 30 && !captures.is_empty() {
            &captures
        } else if roll < 75 && !near.is_empty() {
            &near
        } else {
            agreed
        };
        Move::Play(pool[rng.gen_range(0..pool.len())])
    }

    fn play(&mut self, color: Color, mv: Move) {
        let vertex = match mv {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => self.name(p),
        };
        if let Move::Play(p) = mv {
            if !self.gnugo_is_legal(color, p) {
                self.fail(&format!(
                    "GNU Go's is_legal refuses {vertex} for {color}, which its all_legal listed"
                ));
            }
        }
        self.moves.push((color, vertex.clone()));
        let effect = match self.game.play(color, mv) {
            Ok(effect) => effect,
            Err(e) => self.fail(&format!(
                "hoshi refuses {color} {vertex} ({e}) though its legal points listed it"
            )),
        };
        if let Err(e) = self.shadow.play(color, mv) {
            self.fail(&format!(
                "hoshi under Japanese rules refuses {color} {vertex} ({e}) though it was legal"
            ));
        }
        if let Err(e) = self.gnugo.send(&format!("play {color} {vertex}")) {
            self.fail(&format!("GNU Go refuses `play {color} {vertex}`: ? {e}"));
        }
        self.stats.moves += 1;
        match mv {
            Move::Pass => self.stats.passes += 1,
            Move::Play(_) => {
                let board = self.game.board();
                self.produced
                    .entry(board.hash())
                    .or_default()
                    .push((snapshot(board), color));
            }
        }
        self.stats.stones_captured += u64::from(effect.captured);
        if effect.suicided != 0 {
            self.fail(&format!(
                "{color} {vertex} removed {} of its own stones: suicide is forbidden under \
                 French rules",
                effect.suicided
            ));
        }
        if self.game.board().ko().is_some() {
            self.stats.kos_taken += 1;
        }
    }

    /// Compares the stones and prisoners with GNU Go and checks hoshi's bookkeeping.
    fn compare_boards(&mut self) {
        if let Err(e) = self.game.board().verify() {
            self.fail(&format!("Board::verify fails on hoshi's French board: {e}"));
        }
        if let Err(e) = self.shadow.board().verify() {
            self.fail(&format!(
                "Board::verify fails on hoshi's Japanese board: {e}"
            ));
        }
        if !self.game.board().same_stones(self.shadow.board())
            || self.game.board().ko() != self.shadow.board().ko()
        {
            self.fail("the French and Japanese games hold different boards after the same moves");
        }
        let g = self.game.board().geometry();
        for color in [Color::Black, Color::White] {
            let command = format!("list_stones {color}");
            let answer = self.gnugo.ok(&command);
            let gnugo = self.parse_vertices(&command, &answer);
            let hoshi: BTreeSet<Point> = g
                .points()
                .filter(|&p| self.game.board().color_at(p) == Some(color))
                .collect();
            if hoshi != gnugo {
                let what = format!(
                    "{color} stones differ\nonly hoshi: {}\nonly GNU Go: {}",
                    self.names(hoshi.difference(&gnugo).copied()),
                    self.names(gnugo.difference(&hoshi).copied()),
                );
                self.fail(&what);
            }
            if self.game.board().stones(color) != hoshi.len() {
                let what = format!(
                    "hoshi counts {} {color} stones but {} are on its board",
                    self.game.board().stones(color),
                    hoshi.len()
                );
                self.fail(&what);
            }
            // GNU Go's `captures black` is the number of stones Black has captured.
            let command = format!("captures {color}");
            let answer = self.gnugo.ok(&command);
            let gnugo_captures: usize = match answer.parse() {
                Ok(n) => n,
                Err(_) => self.fail(&format!("GNU Go answered `{command}` with {answer:?}")),
            };
            let hoshi_captures = self.game.prisoners(color);
            if hoshi_captures != gnugo_captures || self.shadow.prisoners(color) != hoshi_captures {
                let what = format!(
                    "stones captured by {color}: hoshi {hoshi_captures} (Japanese game {}), \
                     GNU Go {gnugo_captures}",
                    self.shadow.prisoners(color)
                );
                self.fail(&what);
            }
        }
    }
}

fn legal_word(legal: bool) -> &'static str {
    if legal {
        "legal"
    } else {
        "illegal"
    }
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

#[test]
#[ignore = "needs GNU Go 3.8 (gnugo on PATH or in /usr/games)"]
fn french_rules_agree_with_gnugo_on_9x9_and_19x19() {
    run_campaigns(
        "9x9 and 19x19",
        &[
            Campaign {
                size: 9,
                games: 40,
                max_moves: 300,
                seed_base: 9_000,
                pass_percent: 2,
            },
            Campaign {
                size: 19,
                games: 8,
                max_moves: 400,
                seed_base: 19_000,
                pass_percent: 1,
            },
        ],
    );
}

/// Small boards: captures, suicide points, kos and repetitions on nearly every move.
#[test]
#[ignore = "needs GNU Go 3.8 (gnugo on PATH or in /usr/games)"]
fn french_rules_agree_with_gnugo_on_small_boards_full_of_kos() {
    run_campaigns(
        "5x5 and 7x7",
        &[
            Campaign {
                size: 5,
                games: 300,
                max_moves: 150,
                seed_base: 5_000,
                pass_percent: 6,
            },
            Campaign {
                size: 7,
                games: 100,
                max_moves: 200,
                seed_base: 7_000,
                pass_percent: 4,
            },
        ],
    );
}
