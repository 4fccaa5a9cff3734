//! The match runner (`hoshi match`): the results table and resuming, the Elo and
//! confidence-interval maths, the SGF records, and whole matches between small fake GTP
//! engines (`tests/helpers/fake_engine.rs`) that pass, play scripted moves, crash, answer
//! garbage, play illegal moves or fall silent, and between real hoshi processes. One test
//! plays GNU Go, and is ignored unless asked for by name (it needs GNU Go installed).

use crate::common;

use clap::Parser;
use hoshi::cmd::r#match::stats::{elo, wilson, Z95};
use hoshi::cmd::r#match::{
    self as arena, results, Handicap, Header, MatchArgs, Played, Row, Summary, Tally,
};
use hoshi::coord::{Color, Move};
use hoshi::game::Game;
use hoshi::rules::Ruleset;
use hoshi::score::GameResult;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The command line of the fake GTP engine (`tests/helpers/fake_engine.rs`, which says what
/// its options do; Cargo.toml makes it an example): `cargo test` builds it into
/// `target/<profile>/examples/`, beside the `deps/` directory that holds this test binary.
fn fake_engine() -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .map(|profile| {
            profile
                .join("examples")
                .join(format!("fake_engine{}", std::env::consts::EXE_SUFFIX))
        })
        .expect("the test binary is in target/<profile>/deps");
    assert!(
        path.is_file(),
        "no fake engine at {}: `cargo test` builds it, `cargo test --test it` does not \
         (run `cargo build --example fake_engine` with the same profile first)",
        path.display()
    );
    // Quoted for the arena's command line: backslashes escape spaces and quotes.
    path.display()
        .to_string()
        .chars()
        .flat_map(|c| {
            let escape = c.is_whitespace() || matches!(c, '\\' | '\'' | '"');
            escape.then_some('\\').into_iter().chain([c])
        })
        .collect()
}

/// A fresh scratch directory for one test, holding the match's files.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hoshi-arena-{}-{test}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch directory");
        Scratch { dir }
    }

    /// The command line of a fake engine with these options.
    fn fake(&self, options: &str) -> String {
        format!("{} {options}", fake_engine())
    }

    fn out(&self) -> PathBuf {
        self.dir.join("match")
    }

    /// A match between two command lines on 5x5 with French rules, one game.
    fn args(&self, black: &str, white: &str) -> MatchArgs {
        MatchArgs {
            black: black.into(),
            white: white.into(),
            games: 1,
            size: 5,
            komi: None,
            rules: Ruleset::FRENCH,
            handicap: Handicap::Stones(0),
            alternate: false,
            max_moves: 200,
            move_timeout: Duration::from_secs(10),
            clock: None,
            black_clock: None,
            white_clock: None,
            parallel: 1,
            referee: None,
            out: self.out(),
        }
    }

    fn results(&self) -> String {
        fs::read_to_string(self.out().join("results.tsv")).expect("results.tsv")
    }

    /// What the engine playing `role` (`black`, `white`) wrote on stderr in game 1.
    fn log(&self, role: &str) -> String {
        fs::read_to_string(self.out().join(format!("logs/game-0001-{role}.log")))
            .unwrap_or_default()
    }

    fn sgf(&self, game: usize) -> String {
        fs::read_to_string(self.out().join(format!("game-{game:04}.sgf"))).expect("SGF file")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// The hoshi binary with a small search budget, so that games take a fraction of a second,
/// and one thread, so that a seed decides every move.
fn hoshi(options: &str) -> String {
    format!(
        "{} --threads 1 --playouts 100 {options}",
        env!("CARGO_BIN_EXE_hoshi")
    )
}

fn run(args: &MatchArgs) -> Summary {
    arena::run(args).unwrap_or_else(|why| panic!("the match failed: {why}"))
}

/// The only game of a one-game match.
fn only_row(summary: &Summary) -> &Row {
    assert_eq!(summary.rows.len(), 1, "{:?}", summary.rows);
    &summary.rows[0]
}

fn row(game: usize, black: &str, white: &str, result: &str) -> Row {
    Row {
        game,
        black: black.into(),
        white: white.into(),
        result: GameResult::parse(result).expect("result"),
        reason: "two passes; counted by hoshi".into(),
        moves: 40,
        seconds: [2.0, 1.0],
        claims: [None, None],
    }
}

// --- the options --------------------------------------------------------------------

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

#[test]
fn every_option_of_the_issue_is_on_the_command_line() {
    let cli = Cli::try_parse_from([
        "hoshi",
        "--black",
        "gnugo --mode gtp",
        "--white",
        "hoshi",
        "--games",
        "20",
        "--size",
        "9",
        "--komi",
        "-0.5",
        "--rules",
        "japanese",
        "--handicap",
        "2",
        "--alternate",
        "--max-moves",
        "300",
        "--move-timeout",
        "2.5",
        "--parallel",
        "2",
        "--referee",
        "gnugo --mode gtp",
        "--out",
        "here",
    ])
    .expect("options");
    let a = cli.args;
    assert_eq!(
        (a.black.as_str(), a.white.as_str()),
        ("gnugo --mode gtp", "hoshi")
    );
    assert_eq!(
        (a.games, a.size, a.komi, a.handicap),
        (20, 9, Some(-0.5), Handicap::Stones(2))
    );
    assert_eq!(a.rules, Ruleset::JAPANESE);
    assert!(a.alternate);
    assert_eq!(
        (a.max_moves, a.move_timeout, a.parallel),
        (300, Duration::from_millis(2500), 2)
    );
    assert_eq!(a.referee.as_deref(), Some("gnugo --mode gtp"));
    assert_eq!(a.out, Path::new("here"));
    assert!(
        Cli::try_parse_from(["hoshi", "--black", "a", "--white", "b", "--rules", "ing"]).is_err()
    );
    assert!(
        Cli::try_parse_from(["hoshi", "--black", "a", "--white", "b", "--size", "26"]).is_err()
    );
}

// --- results.tsv ----------------------------------------------------------------------

#[test]
fn rows_are_written_and_read_back_unchanged() {
    let mut original = row(7, "gnugo 3.8", "hoshi 0.1", "W+R");
    original.reason = "Black resigned\tafter a\nlong fight".into();
    original.claims = [Some("B+2.5".into()), None];
    let line = original.to_line();
    assert_eq!(line.split('\t').count(), 10);
    assert!(line.starts_with("7\tgnugo 3.8\thoshi 0.1\tW+R\tBlack resigned after a long fight\t40\t2.000\t1.000\tB+2.5\t-"));
    let back = Row::parse(&line).expect("row");
    assert_eq!(back.reason, "Black resigned after a long fight");
    assert_eq!(
        Row {
            reason: original.reason.clone(),
            ..back
        },
        original
    );
    // The two final-score columns may be missing (they come last).
    let short = "3\ta\tb\tB+T\tWhite did not answer\t12\t0.5\t10.0";
    assert_eq!(
        Row::parse(short).expect("short row").result.to_string(),
        "B+T"
    );
    for bad in [
        "",
        "3\ta\tb\tB+T",
        "x\ta\tb\tB+3\tr\t1\t1\t1",
        "3\ta\tb\tQ+3\tr\t1\t1\t1",
        "3\ta\tb\tB+3\tr\t1\t-1\t1",
    ] {
        assert!(Row::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn the_results_file_survives_a_row_cut_short_and_repeated_games() {
    let scratch = Scratch::new("results-file");
    let path = scratch.dir.join("results.tsv");
    assert!(results::load(&path).expect("no file yet").is_empty());
    for game in 1..=3 {
        results::append(&path, &row(game, "a", "b", "B+3")).expect("append");
    }
    let text = fs::read_to_string(&path).expect("file");
    assert_eq!(text.lines().next(), Some(results::HEADER));
    assert_eq!(text.lines().count(), 4);
    // An interrupted run left half a row; another run wrote game 2 again.
    let mut damaged = text.clone();
    damaged.push_str(&row(2, "a", "b", "W+1").to_line());
    damaged.push('\n');
    damaged.push_str("4\ta\tb\tB+");
    fs::write(&path, damaged).expect("damage");
    let rows = results::load(&path).expect("load");
    assert_eq!(rows.iter().map(|r| r.game).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(
        rows[1].result.to_string(),
        "B+3",
        "the first row of a game wins"
    );
    assert_eq!(fs::read_to_string(&path).expect("rewritten"), text);
    results::append(&path, &row(4, "a", "b", "0")).expect("append after repair");
    assert_eq!(results::load(&path).expect("reload").len(), 4);
}

// --- statistics -------------------------------------------------------------------------

fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance
}

#[test]
fn wilson_intervals_match_published_values() {
    // Reference values: Wilson (1927) score intervals as tabulated by Newcombe (1998),
    // "Two-sided confidence intervals for the single proportion", Table I (z = 1.96).
    let cases = [
        (0.0, 10.0, 0.0, 0.2775),
        (1.0, 29.0, 0.0061, 0.1718),
        (15.0, 148.0, 0.0624, 0.1605),
        (81.0, 263.0, 0.2553, 0.3662),
        (0.0, 20.0, 0.0, 0.1611),
        (29.0, 29.0, 0.8830, 1.0),
        (5.0, 10.0, 0.2366, 0.7634),
    ];
    for (wins, games, low, high) in cases {
        let (l, h) = wilson(wins, games, Z95);
        assert!(
            close(l, low, 6e-5) && close(h, high, 6e-5),
            "{wins}/{games}: {l} {h}"
        );
    }
    assert_eq!(wilson(10.0, 10.0, Z95).1, 1.0);
    assert_eq!(elo(wilson(10.0, 10.0, Z95).1), f64::INFINITY);
    assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
}

#[test]
fn elo_differences_follow_the_logistic_formula() {
    assert_eq!(elo(0.5), 0.0);
    assert!(close(elo(0.75), 400.0 * 3f64.log10(), 1e-9)); // 190.85
    assert!(close(elo(0.75), 190.85, 0.01));
    assert!(close(elo(0.64), 99.95, 0.01)); // the classic "64% is 100 Elo"
    assert!(close(elo(1.0 / 11.0), -400.0, 1e-9));
    assert_eq!(elo(1.0), f64::INFINITY);
    assert_eq!(elo(0.0), f64::NEG_INFINITY);
}

#[test]
fn the_tally_counts_engines_colors_and_disagreements() {
    let players = ["gnugo".to_string(), "hoshi".to_string()];
    let mut rows = vec![
        row(1, "gnugo", "hoshi", "B+3.5"),
        row(2, "hoshi", "gnugo", "W+R"),
        row(3, "gnugo", "hoshi", "W+F"),
        row(4, "hoshi", "gnugo", "0"),
        row(5, "somebody", "else", "B+1"),
    ];
    rows[0].claims = [Some("B+3.5".into()), Some("W+0.5".into())];
    rows[3].claims = [Some("B+1".into()), Some("0".into())];
    let tally = Tally::new(&players, &rows, false);
    let [gnugo, hoshi] = &tally.standings;
    assert_eq!((gnugo.games, gnugo.wins, gnugo.draws), (4, 2, 1));
    assert_eq!((hoshi.games, hoshi.wins, hoshi.draws), (4, 1, 1));
    assert_eq!((gnugo.wins_as, gnugo.games_as), ([1, 1], [2, 2]));
    assert_eq!((hoshi.wins_as, hoshi.games_as), ([0, 1], [2, 2]));
    assert_eq!(tally.by_color, [1, 2, 1]);
    assert_eq!(gnugo.score(), 2.5);
    // 40 moves a game: Black made 20, White 20; gnugo spent 2 s as Black, 1 s as White.
    assert_eq!((gnugo.moves, gnugo.seconds), (80, 6.0));
    assert_eq!(
        tally.disagreements,
        [
            "game 1: recorded B+3.5, White (hoshi) says W+0.5",
            "game 4: recorded 0, Black (hoshi) says B+1"
        ]
    );
    assert_eq!(tally.margin_disagreements, 0);
    assert_eq!(tally.endings, [2, 1, 1, 0]);
    let (estimate, low, high) = tally.elo();
    assert!(close(estimate, elo(2.5 / 4.0), 1e-9));
    let (l, h) = wilson(2.5, 4.0, Z95);
    assert!(
        close(low, elo(l), 1e-9) && close(high, elo(h), 1e-9) && low < estimate && estimate < high
    );
    let report = tally.report();
    for expected in [
        "as Black",
        "1/2",
        "62.5%",
        "Elo difference, gnugo minus hoshi: +89",
        "Average game: 40.0 moves",
        "W+0.5",
    ] {
        assert!(
            report.contains(expected),
            "{expected:?} missing from\n{report}"
        );
    }
    assert_eq!(tally.score_line(), "gnugo 2, hoshi 1, 1 draw");
}

#[test]
fn moves_are_shared_by_who_moves_first() {
    let players = ["a".to_string(), "b".to_string()];
    let mut game = row(1, "a", "b", "B+1");
    game.moves = 7;
    let even = Tally::new(&players, std::slice::from_ref(&game), false);
    assert_eq!((even.standings[0].moves, even.standings[1].moves), (4, 3));
    let handicap = Tally::new(&players, &[game], true);
    assert_eq!(
        (handicap.standings[0].moves, handicap.standings[1].moves),
        (3, 4)
    );
}

// --- SGF --------------------------------------------------------------------------------

#[test]
fn sgf_records_hold_players_rules_result_and_time() {
    let mut game = Game::new(5, Ruleset::JAPANESE, 6.5).expect("game");
    let c3 = game.board().geometry().parse_point("C3").expect("C3");
    game.play(Color::Black, Move::Play(c3)).expect("C3");
    game.play(Color::White, Move::Pass).expect("pass");
    let played = Played {
        game,
        result: GameResult::Resignation {
            winner: Color::Black,
        },
        reason: "White resigned".into(),
        seconds: [1.25, 3.5],
        clock_left: vec![
            None,
            Some(hoshi::player::clock::TimeLeft {
                time: Duration::from_millis(12_345),
                stones: 3,
            }),
        ],
        claims: [None, None],
    };
    let header = Header {
        number: 12,
        black: "gnugo [3.8]",
        white: "hoshi",
        date: "2026-11-30".into(),
    };
    let text = arena::sgf_text(&played, &header);
    for property in [
        "PB[gnugo [3.8\\]]",
        "PW[hoshi]",
        "DT[2026-11-30]",
        "GN[12]",
        "RE[B+R]",
        "RU[Japanese]",
        "KM[6.5]",
        "SZ[5]",
    ] {
        assert!(text.contains(property), "{property} missing from {text}");
    }
    assert!(
        text.contains("GC[White resigned. Time used: Black 1.2 s, White 3.5 s, in 2 moves.]"),
        "{text}"
    );
    assert!(text.contains(";B[cc];W[]WL[12.35]OW[3])"), "{text}");
    let record = hoshi::sgf::parse(&text).expect("our SGF reads back");
    assert_eq!(record.result.as_deref(), Some("B+R"));
    let replayed = record.replay(Ruleset::FRENCH, 7.5, None).expect("replay");
    assert_eq!(replayed.move_number(), 2);
    assert_eq!(replayed.rules(), Ruleset::JAPANESE);
}

// --- whole matches between fake engines ------------------------------------------------

#[test]
fn two_passers_play_an_empty_board_counted_for_white() {
    let s = Scratch::new("passers");
    let mut args = s.args(
        &s.fake("name=alpha claim=W+2"),
        &s.fake("name=beta claim=W+7.5"),
    );
    args.games = 4;
    args.alternate = true;
    args.parallel = 2;
    let summary = run(&args);
    assert_eq!(summary.players, ["alpha 1.0", "beta 1.0"]);
    assert_eq!(summary.played_now, 4);
    let seats: Vec<(usize, &str, &str)> = summary
        .rows
        .iter()
        .map(|r| (r.game, r.black.as_str(), r.white.as_str()))
        .collect();
    assert_eq!(
        seats,
        [
            (1, "alpha 1.0", "beta 1.0"),
            (2, "beta 1.0", "alpha 1.0"),
            (3, "alpha 1.0", "beta 1.0"),
            (4, "beta 1.0", "alpha 1.0")
        ]
    );
    for row in &summary.rows {
        assert_eq!(row.result.to_string(), "W+7.5");
        assert_eq!(row.reason, "two passes; counted by hoshi");
        assert_eq!(row.moves, 2);
    }
    let claims = ["W+2", "W+7.5"].map(|c| Some(c.to_string()));
    assert_eq!(summary.rows[0].claims, claims);
    // alpha's own count names the right winner with another margin, in every game.
    assert!(summary.tally.disagreements.is_empty());
    assert_eq!(summary.tally.margin_disagreements, 4);
    assert_eq!(summary.tally.by_color, [0, 4, 0]);
    assert_eq!(summary.duplicates, [(3, 1), (4, 2)]);
    assert!(summary
        .report()
        .contains("Warning: 2 games repeat an earlier game move for move (3 = 1, 4 = 2)"));
    assert_eq!(summary.tally.standings[0].wins_as, [0, 2]);
    assert_eq!(s.results().lines().count(), 5);
    let sgf = s.sgf(2);
    for property in [
        "PB[beta 1.0]",
        "PW[alpha 1.0]",
        "RE[W+7.5]",
        "RU[French]",
        "KM[7.5]",
        "SZ[5]",
        "GN[2]",
        ";B[];W[]",
    ] {
        assert!(sgf.contains(property), "{property} missing from {sgf}");
    }
    let log = fs::read_to_string(s.out().join("logs/game-0003-white.log")).expect("white's log");
    assert!(log.contains("fake engine beta started"));
    assert!(summary
        .report()
        .contains("4 games of alpha 1.0 against beta 1.0"));
}

#[test]
fn a_crash_loses_by_forfeit_with_the_exit_status() {
    let s = Scratch::new("crash");
    let summary = run(&s.args(&s.fake("name=crasher 1=C3 2=crash"), &s.fake("name=passer")));
    let row = only_row(&summary);
    assert_eq!(row.result.to_string(), "W+F");
    assert!(row.reason.starts_with("Black crashed"), "{}", row.reason);
    assert!(
        row.reason.contains("genmove b") && row.reason.contains('3'),
        "{}",
        row.reason
    );
    assert_eq!(row.moves, 2);
    assert!(s.sgf(1).contains(";B[cc];W[]"));
}

#[test]
fn garbage_and_nonsense_answers_lose_by_forfeit() {
    let s = Scratch::new("garbage");
    let summary = run(&s.args(&s.fake("name=passer"), &s.fake("name=chatty 1=garbage")));
    let row = only_row(&summary);
    assert_eq!(row.result.to_string(), "B+F");
    assert!(
        row.reason
            .contains("White answered garbage \"thinking very hard\""),
        "{}",
        row.reason
    );

    let s = Scratch::new("junk");
    let summary = run(&s.args(&s.fake("name=junk 1=junk"), &s.fake("name=passer")));
    let row = only_row(&summary);
    assert_eq!(row.result.to_string(), "W+F");
    assert_eq!(row.reason, "Black answered \"banana\" to `genmove b`");
    assert_eq!(row.moves, 0);
}

#[test]
fn illegal_moves_lose_by_forfeit_ko_included() {
    let s = Scratch::new("occupied");
    let summary = run(&s.args(&s.fake("name=stubborn 1=C3 2=C3"), &s.fake("name=passer")));
    assert_eq!(
        only_row(&summary).reason,
        "Black played C3, illegal: occupied"
    );
    assert_eq!(only_row(&summary).result.to_string(), "W+F");

    // White takes a ko back at once: B B3, W D4, B C4, W D2, B C2, W E3, B A1, W C3,
    // B D3 (takes C3), W C3 (the retake).
    let s = Scratch::new("ko");
    let black = s.fake("name=black 1=B3 2=C4 3=C2 4=A1 5=D3");
    let white = s.fake("name=white 1=D4 2=D2 3=E3 4=C3 5=C3");
    let summary = run(&s.args(&black, &white));
    let row = only_row(&summary);
    assert_eq!(row.reason, "White played C3, illegal: ko");
    assert_eq!((row.result.to_string().as_str(), row.moves), ("B+F", 9));
}

#[test]
fn silence_past_the_move_timeout_loses_on_time() {
    let s = Scratch::new("silent");
    let mut args = s.args(
        &s.fake("name=passer"),
        &s.fake("name=sleeper 1=D4 2=silent"),
    );
    args.move_timeout = Duration::from_secs(1);
    let summary = run(&args);
    let row = only_row(&summary);
    assert_eq!(row.result.to_string(), "B+T");
    assert_eq!(row.reason, "White did not answer within 1 s on `genmove w`");
    assert_eq!(row.moves, 3);
    assert!(row.seconds[1] >= 1.0, "the time-out counts as time used");
}

// --- game clocks -----------------------------------------------------------------------

#[test]
fn clocks_are_read_like_gogui_twogtp_in_seconds() {
    use hoshi::cmd::r#match::parse_clock;
    use hoshi::player::clock::TimeControl;
    let secs = Duration::from_secs_f64;
    assert_eq!(
        parse_clock("600"),
        Ok(TimeControl::Absolute { main: secs(600.0) })
    );
    assert_eq!(
        parse_clock("2.5"),
        Ok(TimeControl::Absolute { main: secs(2.5) })
    );
    assert_eq!(
        parse_clock("300+30/5"),
        Ok(TimeControl::Canadian {
            main: secs(300.0),
            period: secs(30.0),
            stones: 5
        })
    );
    assert_eq!(
        parse_clock("0+10/1"),
        Ok(TimeControl::Canadian {
            main: secs(0.0),
            period: secs(10.0),
            stones: 1
        })
    );
    assert_eq!(parse_clock("None"), Ok(TimeControl::Unlimited));
    for bad in [
        "", "x", "0", "-5", "10+5", "10+0/5", "10+5/0", "10+5/x", "inf", "1+2/3/4",
    ] {
        assert!(parse_clock(bad).is_err(), "{bad:?}");
    }
    let cli = Cli::try_parse_from([
        "hoshi",
        "--black",
        "a",
        "--white",
        "b",
        "--clock",
        "60",
        "--white-clock",
        "none",
    ])
    .expect("options");
    assert_eq!(
        cli.args.clock,
        Some(TimeControl::Absolute { main: secs(60.0) })
    );
    assert_eq!(cli.args.black_clock, None);
    assert_eq!(cli.args.white_clock, Some(TimeControl::Unlimited));
    assert!(
        Cli::try_parse_from(["hoshi", "--black", "a", "--white", "b", "--clock", "1m"]).is_err()
    );
}

#[test]
fn clocks_are_announced_and_told_before_every_move() {
    let s = Scratch::new("clock-told");
    let mut args = s.args(
        &s.fake("name=timed clock=1 1=C3 2=D4"),
        &s.fake("name=untimed clock=1 1=C4 2=D3"),
    );
    args.clock = Some(hoshi::cmd::r#match::parse_clock("30+10/5").expect("clock"));
    args.white_clock = Some(hoshi::player::clock::TimeControl::Unlimited);
    let row = only_row(&run(&args)).clone();
    // Two stones each in an unsettled crosscut: the count is whatever the dead-stone judge
    // makes of the fight; this test is about the clocks, so only check that the game was
    // counted (a points result), not lost on time.
    let result = row.result.to_string();
    let points = result
        .strip_prefix("W+")
        .or_else(|| result.strip_prefix("B+"))
        .and_then(|n| n.parse::<f64>().ok());
    assert!(points.is_some(), "{result}");
    assert_eq!(row.moves, 6);
    let black: Vec<String> = s.log("black").lines().skip(1).map(String::from).collect();
    assert_eq!(
        black,
        [
            "time_settings 30 10 5",
            "time_left b 30 0",
            "time_left b 29 0",
            "time_left b 29 0"
        ],
        "whole seconds, rounded down, after the time each move took"
    );
    assert_eq!(
        s.log("white").lines().count(),
        1,
        "no clock, no time commands"
    );
}

#[test]
fn a_move_longer_than_the_clock_loses_on_time() {
    let s = Scratch::new("clock-out");
    let mut args = s.args(
        &s.fake("name=slow clock=1 1=sleep0.3:C3 2=sleep0.6:D4"),
        &s.fake("name=quick 1=C4"),
    );
    args.black_clock = Some(hoshi::cmd::r#match::parse_clock("0.7").expect("clock"));
    let summary = run(&args);
    let row = only_row(&summary);
    assert_eq!((row.result.to_string().as_str(), row.moves), ("W+T", 2));
    // Its clock had 0.4 s left: the arena stopped waiting 0.1 s after that.
    assert!(
        row.reason
            .starts_with("Black ran out of time on `genmove b`: 0."),
        "{}",
        row.reason
    );
    assert!(row.seconds[0] >= 0.8, "both moves count as time used");
    assert!(s.sgf(1).contains("RE[W+T]"), "{}", s.sgf(1));
    assert!(s.sgf(1).contains(";B[cc]BL[0."), "{}", s.sgf(1));
    assert!(
        s.sgf(1).contains(";W[cb])"),
        "no clock, no WL: {}",
        s.sgf(1)
    );
}

#[test]
fn a_silent_engine_is_stopped_by_its_clock_not_the_move_timeout() {
    let s = Scratch::new("clock-silent");
    let mut args = s.args(&s.fake("name=sleeper 1=silent"), &s.fake("name=passer"));
    args.clock = Some(hoshi::cmd::r#match::parse_clock("0.5").expect("clock"));
    args.move_timeout = Duration::from_secs(1000);
    let summary = run(&args);
    let row = only_row(&summary);
    assert_eq!(row.result.to_string(), "W+T");
    assert!(
        row.reason
            .starts_with("Black ran out of time on `genmove b`"),
        "{}",
        row.reason
    );
}

#[test]
fn canadian_overtime_gives_a_new_period_after_its_stones() {
    let s = Scratch::new("clock-canadian");
    // 0.2 s of main time, then 1 s for every 2 moves: the first move runs 0.3 s into the
    // first period, the second finishes it, the third starts a new one.
    let mut args = s.args(
        &s.fake("name=overtime clock=1 1=sleep0.5:C3 2=sleep0.5:D4 3=sleep0.5:B2"),
        &s.fake("name=quick 1=C4 2=D3 3=B4"),
    );
    args.black_clock = Some(hoshi::cmd::r#match::parse_clock("0.2+1/2").expect("clock"));
    let summary = run(&args);
    let row = only_row(&summary);
    assert!(!row.reason.contains("time"), "{}", row.reason);
    let black: Vec<String> = s.log("black").lines().skip(1).map(String::from).collect();
    assert_eq!(
        black,
        [
            "time_settings 0.2 1 2",
            "time_left b 0 0",
            "time_left b 0 1",
            "time_left b 1 2",
            "time_left b 0 1"
        ]
    );
}

#[test]
fn refusing_the_setup_or_a_legal_move_loses_by_forfeit() {
    let s = Scratch::new("refuse-size");
    let summary = run(&s.args(
        &s.fake("name=passer"),
        &s.fake("name=picky refuse=boardsize"),
    ));
    assert_eq!(
        only_row(&summary).reason,
        "White refused `boardsize 5`: refused"
    );
    assert_eq!(only_row(&summary).result.to_string(), "B+F");

    let s = Scratch::new("refuse-play");
    let summary = run(&s.args(&s.fake("name=mover 1=C3"), &s.fake("name=deaf refuse=play")));
    assert_eq!(
        only_row(&summary).reason,
        "White refused `play b C3`: refused"
    );
}

#[test]
fn resignation_ends_the_game_uncounted() {
    let s = Scratch::new("resign");
    let summary = run(&s.args(
        &s.fake("name=mover 1=C3"),
        &s.fake("name=quitter 1=resign claim=W+1"),
    ));
    let row = only_row(&summary);
    assert_eq!(
        (row.result.to_string().as_str(), row.reason.as_str()),
        ("B+R", "White resigned")
    );
    assert_eq!(row.claims, [None, None], "nobody counts a resigned game");
}

#[test]
fn handicap_stones_are_sent_and_white_moves_first() {
    let s = Scratch::new("handicap");
    let mut args = s.args(&s.fake("name=alpha"), &s.fake("name=beta"));
    args.size = 7;
    args.handicap = Handicap::Stones(2);
    args.komi = Some(0.5);
    let summary = run(&args);
    assert_eq!(only_row(&summary).moves, 2);
    let sgf = s.sgf(1);
    assert!(
        sgf.contains("HA[2]AB[ce][ec]") && sgf.contains(";W[];B[]"),
        "{sgf}"
    );
}

#[test]
fn an_interrupted_match_resumes_with_the_missing_games() {
    let s = Scratch::new("resume");
    let mut args = s.args(&s.fake("name=alpha"), &s.fake("name=beta"));
    args.games = 3;
    assert_eq!(run(&args).played_now, 3);
    // Game 2's row is lost and a row was cut short by the interruption.
    let before = s.results();
    let kept: Vec<&str> = before.lines().filter(|l| !l.starts_with("2\t")).collect();
    fs::write(
        s.out().join("results.tsv"),
        format!("{}\n4\talpha 1.0\tbe", kept.join("\n")),
    )
    .expect("damage");
    args.games = 4;
    let summary = run(&args);
    assert_eq!(summary.played_now, 2);
    assert_eq!(
        summary.rows.iter().map(|r| r.game).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(s.results().lines().count(), 5);
    // Nothing is left to play: the report comes from the file alone.
    assert_eq!(run(&args).played_now, 0);
}

#[test]
fn one_directory_holds_one_match() {
    let s = Scratch::new("two-matches");
    run(&s.args(&s.fake("name=alpha"), &s.fake("name=beta")));
    let why = arena::run(&s.args(&s.fake("name=alpha"), &s.fake("name=gamma")))
        .expect_err("mixed")
        .to_string();
    assert!(why.contains("another --out"), "{why}");
}

#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    let s = Scratch::new("no-engine");
    let why = arena::run(&s.args("/nonexistent/engine --gtp", &s.fake("name=beta")))
        .expect_err("no engine")
        .to_string();
    assert!(
        why.contains("/nonexistent/engine") && why.contains("cannot start"),
        "{why}"
    );
    let why =
        arena::run(&s.args("engine 'unterminated", &s.fake("name=beta"))).expect_err("bad quote");
    assert!(matches!(why, arena::MatchError::CommandLine(_)), "{why}");
    assert!(why.to_string().contains("unterminated"), "{why}");
}

#[test]
fn the_hoshi_command_runs_a_match_and_prints_the_table() {
    let s = Scratch::new("command");
    let out = s.out();
    let run = |black: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_hoshi"))
            .args(["match", "--black", black, "--white", &s.fake("name=beta")])
            .args(["--games", "2", "--size", "5", "--out"])
            .arg(&out)
            .output()
            .expect("hoshi runs")
    };
    let done = run(&s.fake("name=alpha"));
    let stdout = String::from_utf8_lossy(&done.stdout);
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("2 games of alpha 1.0 against beta 1.0"),
        "{stdout}"
    );
    assert!(stdout.contains("Elo difference"), "{stdout}");
    assert!(
        stderr.contains("[2/2] game 2: alpha 1.0 (B) vs beta 1.0 (W): W+7.5"),
        "{stderr}"
    );
    let failed = run("/nonexistent/engine");
    assert!(!failed.status.success());
    assert!(String::from_utf8_lossy(&failed.stderr).contains("hoshi match: /nonexistent/engine"));
}

// --- referees ------------------------------------------------------------------------

#[test]
fn a_gtp_referee_counts_and_a_failing_one_is_replaced_by_hoshi() {
    let s = Scratch::new("referee");
    let mut args = s.args(&s.fake("name=mover 1=C3"), &s.fake("name=passer"));
    args.referee = Some(hoshi(""));
    let row = only_row(&run(&args)).clone();
    assert_eq!(row.reason, "two passes; counted by the referee");
    assert_eq!(
        row.result.to_string(),
        "B+17.5",
        "one stone owns the whole 5x5 board"
    );

    let s = Scratch::new("bad-referee");
    let mut args = s.args(&s.fake("name=mover 1=C3"), &s.fake("name=passer"));
    args.referee = Some(s.fake("name=referee"));
    let row = only_row(&run(&args)).clone();
    assert_eq!(row.result.to_string(), "B+17.5");
    assert_eq!(
        row.reason,
        "two passes; counted by hoshi, the referee refused `final_score`: unknown command"
    );
}

// --- real engines ----------------------------------------------------------------------

#[test]
fn hoshi_against_itself_agrees_with_its_own_count() {
    let s = Scratch::new("hoshi-self");
    let mut args = s.args(&hoshi("--seed {game}"), &hoshi("--seed 1{game}"));
    args.size = 7;
    args.games = 4;
    args.alternate = true;
    args.parallel = 2;
    let summary = run(&args);
    let [first, second] = &summary.players;
    assert!(
        first.ends_with("hoshi --threads 1 --playouts 100 --seed {game}")
            && second.ends_with("hoshi --threads 1 --playouts 100 --seed 1{game}"),
        "{first} / {second}"
    );
    assert_eq!(summary.rows.len(), 4);
    for row in &summary.rows {
        assert!(row.moves > 10, "{} moves", row.moves);
        if let GameResult::Resignation { winner } = row.result {
            let loser = if winner == Color::Black {
                "White"
            } else {
                "Black"
            };
            assert_eq!(row.reason, format!("{loser} resigned"));
            continue;
        }
        assert!(
            matches!(row.result, GameResult::Points { .. } | GameResult::Draw),
            "{}: {}",
            row.result,
            row.reason
        );
        assert!(
            row.reason.starts_with("two passes; counted by hoshi")
                || row.reason.starts_with("move limit"),
            "{}",
            row.reason
        );
        // Both engines count with hoshi's own judge: they must agree with the referee.
        assert_eq!(
            row.claims,
            [Some(row.result.to_string()), Some(row.result.to_string())]
        );
    }
    assert!(summary.tally.disagreements.is_empty());
    assert_eq!(summary.duplicates, [], "seeds that follow the game number");
    let standings = &summary.tally.standings;
    assert_eq!(
        standings[0].wins + standings[1].wins + standings[0].draws,
        4
    );
    // Every SGF replays legally under the match rules to the recorded number of moves.
    for row in &summary.rows {
        let record = hoshi::sgf::parse(&s.sgf(row.game)).expect("SGF");
        let game = record
            .replay(Ruleset::FRENCH, 7.5, None)
            .expect("legal replay");
        assert_eq!(game.move_number(), row.moves);
    }
}

#[test]
fn engines_with_fixed_seeds_repeat_their_games() {
    let s = Scratch::new("fixed-seeds");
    let mut args = s.args(&hoshi("--seed 1"), &hoshi("--seed 2"));
    args.games = 3;
    let summary = run(&args);
    assert_eq!(summary.duplicates, [(2, 1), (3, 1)]);
    let moves = |game| {
        s.sgf(game)
            .split_once("\n;")
            .map(|(_, moves)| moves.to_string())
    };
    assert!(moves(1).is_some());
    assert_eq!(moves(1), moves(3));
}

#[test]
fn hoshi_places_a_fixed_handicap_the_referee_agrees_with() {
    let s = Scratch::new("hoshi-handicap");
    play_three_stones(&s, &hoshi("--seed 4"), 7);
    // hoshi's fixed_handicap named the arena's points, else White would have forfeited.
    assert!(s.sgf(1).contains("HA[3]AB[ce][ec][cc]"), "{}", s.sgf(1));
}

#[test]
fn an_engine_whose_fixed_stones_differ_is_given_gtps() {
    let s = Scratch::new("other-handicap");
    // On 9x9 GTP's three stones are C3 G7 C7; this engine puts the third at G3.
    play_three_stones(&s, &s.fake("fixed_handicap=C3,G7,G3"), 9);
    assert!(s.sgf(1).contains("AB[cg][gc][cc]"), "{}", s.sgf(1));
    assert!(
        s.log("white")
            .contains("fixed_handicap 3\nclear_board\nset_free_handicap C3 G7 C7\n"),
        "{}",
        s.log("white")
    );
}

/// Plays one game of hoshi (Black, seed 3) taking three fixed stones from `white` at komi
/// 0.5 on a `size` board, which must end by itself.
fn play_three_stones(s: &Scratch, white: &str, size: u8) {
    let mut args = s.args(&hoshi("--seed 3"), white);
    args.size = size;
    args.handicap = Handicap::Stones(3);
    args.komi = Some(0.5);
    assert_fair_ending(only_row(&run(&args)));
}

/// Checks that a game between working engines ended by itself: no forfeit, no time-out.
fn assert_fair_ending(row: &Row) {
    assert!(
        !matches!(
            row.result,
            GameResult::Forfeit { .. } | GameResult::Time { .. }
        ),
        "game {}: {} ({})",
        row.game,
        row.result,
        row.reason
    );
}

#[test]
#[ignore = "needs GNU Go 3.8 (gnugo on PATH or in /usr/games)"]
fn hoshi_against_gnugo_with_gnugo_as_referee() {
    let gnugo = common::gnugo();
    let s = Scratch::new("gnugo");
    let engine = format!("{} --mode gtp --level 1 --chinese-rules", gnugo.display());
    let mut args = s.args(&engine, &hoshi("--seed 5"));
    args.games = 2;
    args.alternate = true;
    args.rules = Ruleset::CHINESE;
    args.referee = Some(engine.clone());
    let summary = run(&args);
    assert_eq!(summary.players[0], "GNU Go 3.8");
    assert_eq!(summary.rows.len(), 2);
    for row in &summary.rows {
        assert_fair_ending(row);
        if row.reason.starts_with("two passes") {
            assert_eq!(row.reason, "two passes; counted by the referee");
            // The same GNU Go counts the same position the same way as player and referee.
            let gnugo_seat = if row.black == summary.players[0] {
                0
            } else {
                1
            };
            assert_eq!(row.claims[gnugo_seat], Some(row.result.to_string()));
        }
    }
}
