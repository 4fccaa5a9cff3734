//! The tuning parameters by name: `hoshi-param` sets and lists them, refuses what it does
//! not know and changes nothing then, `--param` sets them from the command line, and a
//! changed parameter reaches the search.

use crate::common;

use hoshi::coord::Color;
use hoshi::engine::{Engine, Settings};
use hoshi::game::Game;
use hoshi::knowledge::Standard;
use hoshi::player::Params;
use hoshi::rules::Ruleset;
use hoshi::search::{Budget, Search, SearchConfig, SearchParams};
use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn engine() -> Engine {
    let mut settings = Settings {
        size: 9,
        seed: 5,
        ..Settings::default()
    };
    settings.player.threads = 1;
    Engine::new(settings)
}

/// The value `hoshi-param` lists for `key`.
fn listed(table: &str, key: &str) -> String {
    table
        .trim_start_matches("= ")
        .lines()
        .find_map(|line| {
            let mut words = line.split(' ');
            let (_, k, v) = (words.next()?, words.next()?, words.next()?);
            (k == key).then(|| v.to_string())
        })
        .unwrap_or_else(|| panic!("{key} not in {table}"))
}

#[test]
fn a_parameter_set_by_name_reads_back_exactly() {
    let mut engine = engine();
    let answers = common::gtp_answers(
        &mut engine,
        "hoshi-param rave_equivalence 2500\nhoshi-param playout_lone_self_atari 0.3\n\
         hoshi-param prior_closeness_2 22.125\nhoshi-param playout_escapes false\nhoshi-param\n",
    );
    assert_eq!(&answers[..4], ["=", "=", "=", "="]);
    let table = &answers[4];
    assert!(
        table.contains("\n[string] rave_equivalence 2500\n"),
        "{table}"
    );
    assert!(table.contains("\n[bool] playout_escapes 0\n"), "{table}");
    assert_eq!(listed(table, "playout_lone_self_atari"), "0.3");
    assert_eq!(listed(table, "prior_closeness_2"), "22.125");
    let params = engine.settings().player.params;
    assert_eq!(params.search.rave_equivalence, 2500.0);
    assert_eq!(params.knowledge.playout.lone_self_atari, 0.3);
    assert_eq!(params.knowledge.priors.closeness_2, 22.125);
    assert!(!params.knowledge.playout.escapes);
    // Everything else keeps its default.
    let mut expected = Params::default();
    expected.search.rave_equivalence = 2500.0;
    expected.knowledge.playout.lone_self_atari = 0.3;
    expected.knowledge.playout.escapes = false;
    expected.knowledge.priors.closeness_2 = 22.125;
    assert_eq!(params, expected);
}

#[test]
fn every_parameter_is_listed_with_its_default() {
    let mut engine = engine();
    let table = common::gtp_answers(&mut engine, "hoshi-param\n").remove(0);
    for (key, value) in Params::default().list() {
        assert_eq!(listed(&table, key), value, "{key}");
    }
    assert_eq!(listed(&table, "rave_equivalence"), "3000");
    assert_eq!(listed(&table, "expand_after"), "8");
}

#[test]
fn unknown_keys_and_bad_values_are_refused_and_change_nothing() {
    let mut engine = engine();
    common::gtp_answers(&mut engine, "hoshi-param rave_equivalence 2500\n");
    let before = engine.settings().clone();
    let answers = common::gtp_answers(
        &mut engine,
        "hoshi-param rave_equivalenze 2500\nhoshi-param rave_equivalence many\n\
         hoshi-param rave_equivalence -1\nhoshi-param playout_atari 2\n\
         hoshi-param expand_after 1.5\nhoshi-param playout_escapes maybe\n\
         hoshi-param rave_equivalence\nhoshi-param rave_equivalence 1 2\n",
    );
    assert_eq!(
        answers,
        [
            "? unknown parameter \"rave_equivalenze\"",
            "? rave_equivalence takes a number above 0, not \"many\"",
            "? rave_equivalence takes a number above 0, not \"-1\"",
            "? playout_atari takes a number from 0 to 1, not \"2\"",
            "? expand_after takes a whole number of at least 0, not \"1.5\"",
            "? playout_escapes takes 1 or 0 (true or false), not \"maybe\"",
            "? syntax error",
            "? syntax error",
        ]
    );
    assert_eq!(engine.settings(), &before);
    assert_eq!(
        engine.settings().player.params.search.rave_equivalence,
        2500.0
    );
}

/// 1,000 playouts from the empty 9x9 board with `engine`'s settings; the nodes of the tree.
fn tree_nodes_after_thinking(engine: &mut Engine) -> usize {
    engine
        .think(Color::Black, &mut |p| p.visits() < 1_000)
        .expect("the player searches")
        .tree_nodes
}

/// A parameter set through GTP reaches the search the player runs, and the player keeps its
/// tree while the knob leaves it valid. With an expansion threshold no leaf reaches, the
/// kept tree grows no more; a knob of the knowledge makes the knowledge again, and the new
/// tree is the root and its children only (81 points and a pass on the empty 9x9 board).
/// The playouts judge the leaves (`value_mix 0`, itself set through GTP): a network's value
/// at a leaf expands it at its second visit, whatever the threshold.
#[test]
fn a_parameter_set_through_gtp_reaches_the_search() {
    let mut engine = engine();
    common::gtp_answers(&mut engine, "hoshi-param value_mix 0\n");
    let grown = tree_nodes_after_thinking(&mut engine);
    assert!(grown > 200, "{grown}");
    common::gtp_answers(&mut engine, "hoshi-param expand_after 1000000000\n");
    assert_eq!(
        tree_nodes_after_thinking(&mut engine),
        grown,
        "the tree kept"
    );
    common::gtp_answers(&mut engine, "hoshi-param prior_even 11\n");
    assert_eq!(tree_nodes_after_thinking(&mut engine), 1 + 82);
    common::gtp_answers(&mut engine, "hoshi-level beginner\n");
    assert_eq!(
        tree_nodes_after_thinking(&mut engine),
        1 + 82,
        "at every level"
    );
    common::gtp_answers(&mut engine, "hoshi-param expand_after 8\n");
    assert!(tree_nodes_after_thinking(&mut engine) > 200);
}

/// The same at the search's own level.
#[test]
fn the_expansion_threshold_bounds_the_tree() {
    let game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
    let budget = Budget {
        visits: Some(1_000),
        time: None,
    };
    let nodes = |expand_after: u32| {
        let config = SearchConfig {
            params: SearchParams {
                expand_after,
                ..SearchParams::default()
            },
            ..SearchConfig::default()
        };
        Search::new(config, Arc::new(Standard::default()), 1)
            .run(&game, Color::Black, budget, &AtomicBool::new(false))
            .tree_nodes
    };
    assert_eq!(nodes(u32::MAX), 1 + 82);
    assert!(nodes(8) > 200);
}

/// Starts hoshi with `args`, asks `hoshi-param`, quits; the table.
fn command_line_table(args: &[&str]) -> String {
    let mut child = common::spawn_hoshi(args, std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "hoshi-param\nquit").expect("sent");
    drop(stdin);
    let mut out = String::new();
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    while reader.read_line(&mut line).expect("readable") > 0 {
        if line == "\n" {
            break;
        }
        out.push_str(&line);
        line.clear();
    }
    child.wait().expect("hoshi ends");
    out
}

#[test]
fn the_command_line_sets_parameters() {
    let table = command_line_table(&[
        "--param",
        "rave_equivalence=2500",
        "--param",
        "playout_escapes=false",
        "--param",
        "rave_equivalence=1e-5",
    ]);
    assert_eq!(
        listed(&table, "rave_equivalence"),
        "1e-5",
        "the last one wins"
    );
    assert_eq!(listed(&table, "playout_escapes"), "0");
    assert_eq!(listed(&table, "expand_after"), "8");
}

#[test]
fn a_bad_parameter_on_the_command_line_is_refused() {
    for (arg, why) in [
        ("no_such_key=1", "unknown parameter \"no_such_key\""),
        (
            "expand_after=-1",
            "expand_after takes a whole number of at least 0",
        ),
        ("rave_equivalence", "expected KEY=VALUE"),
    ] {
        let stderr = common::refused_command_line(&["--param", arg]);
        assert!(stderr.contains(why), "{arg}: {stderr}");
    }
}
