use super::query::{location_move, parse, Action, Fault, Query, ReportAs, Request};
use crate::coord::{Color, Geometry, Move, Vertex};
use crate::rules::Ruleset;
use std::time::Duration;

fn query(line: &str) -> (Query, Vec<Fault>) {
    match parse(line, Ruleset::FRENCH) {
        Ok(parsed) => match parsed.request {
            Request::Query(q) => (*q, parsed.warnings),
            other => panic!("{line}: not a query: {other:?}"),
        },
        Err(fault) => panic!("{line}: {fault:?}"),
    }
}

fn fault(line: &str) -> Fault {
    match parse(line, Ruleset::FRENCH) {
        Ok(parsed) => panic!("{line}: accepted as {parsed:?}"),
        Err(fault) => fault,
    }
}

fn point(name: &str, size: usize) -> Move {
    Move::Play(Geometry::new(size).unwrap().parse_point(name).unwrap())
}

/// KataGo's own example query (docs/Analysis_Engine.md), read field by field.
#[test]
fn katagos_example_query_is_read() {
    let (q, warnings) = query(
        r#"{"id":"foo","initialStones":[["B","Q4"],["B","C4"]],"moves":[["W","P5"],["B","P6"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"analyzeTurns":[0,1,2]}"#,
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(q.id, "foo");
    assert_eq!(q.size, 19);
    let g = Geometry::new(19).unwrap();
    let q4 = g.parse_point("Q4").unwrap();
    let c4 = g.parse_point("C4").unwrap();
    assert_eq!(
        q.initial_stones,
        vec![(Color::Black, q4), (Color::Black, c4)]
    );
    assert_eq!(
        q.moves,
        vec![
            (Color::White, point("P5", 19)),
            (Color::Black, point("P6", 19))
        ]
    );
    assert_eq!(q.rules.name, "tromp-taylor");
    assert_eq!(q.komi, Some(7.5));
    assert_eq!(q.turns, vec![0, 1, 2]);
    assert_eq!(q.priorities, vec![0, 0, 0]);
    assert_eq!(q.report_as, ReportAs::Black);
    assert_eq!(
        (q.max_visits, q.initial_player, q.pv_len),
        (None, None, None)
    );
}

#[test]
fn every_optional_field_is_read() {
    let (q, warnings) = query(
        r#"{"id":"x","moves":[["B","pass"],["W","(0,0)"]],"rules":"japanese","komi":-3,"boardXSize":9,"boardYSize":9,
            "initialPlayer":"B","maxVisits":50,"includeOwnership":true,"includeOwnershipStdev":true,
            "includeMovesOwnership":true,"includePolicy":true,"includePVVisits":true,"analysisPVLen":5,
            "reportDuringSearchEvery":0.5,"priorities":[3,-1],"analyzeTurns":[2,1],
            "avoidMoves":[{"player":"W","moves":["E5","pass"],"untilDepth":1}],
            "allowMoves":[{"player":"B","moves":["C3"],"untilDepth":3}],
            "overrideSettings":{"maxTime":2.5,"reportAnalysisWinratesAs":"SIDETOMOVE","cpuctExploration":2}}"#,
    );
    assert_eq!(
        q.moves,
        vec![(Color::Black, Move::Pass), (Color::White, point("A9", 9))]
    );
    assert_eq!(q.rules.name, "japanese");
    assert_eq!(q.komi, Some(-3.0));
    assert_eq!(q.initial_player, Some(Color::Black));
    assert_eq!(q.max_visits, Some(50));
    assert!(q.include_ownership && q.include_ownership_stdev && q.include_moves_ownership);
    assert!(q.include_policy && q.include_pv_visits);
    assert_eq!(q.pv_len, Some(5));
    assert_eq!(q.report_every, Some(Duration::from_millis(500)));
    assert_eq!(q.turns, vec![2, 1]);
    assert_eq!(q.priorities, vec![3, -1]);
    assert_eq!(
        q.avoid,
        vec![(Color::White, vec![point("E5", 9), Move::Pass])]
    );
    assert_eq!(q.allow, vec![(Color::Black, vec![point("C3", 9)])]);
    assert_eq!(q.max_time, Some(Duration::from_millis(2500)));
    assert_eq!(q.report_as, ReportAs::SideToMove);
    // The list that reaches past the root, and the one setting hoshi has no use for, are
    // named in warnings.
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!(warnings[0].field.as_deref(), Some("overrideSettings"));
    assert!(warnings[0].message.contains("cpuctExploration"));
    assert_eq!(warnings[0].id.as_deref(), Some("x"));
    assert_eq!(warnings[1].field.as_deref(), Some("allowMoves"));
    assert!(warnings[1].message.contains("root"));
}

#[test]
fn defaults_analyse_the_last_turn_at_the_one_priority() {
    let (q, _) = query(
        r#"{"id":"d","moves":[["B","D4"],["W","Q16"],["B","Q4"]],"rules":"chinese","boardXSize":19,"boardYSize":19,"priority":7}"#,
    );
    assert_eq!(q.turns, vec![3]);
    assert_eq!(q.priorities, vec![7]);
    assert_eq!(q.komi, None);
    assert!(!q.include_ownership && !q.include_policy);
}

#[test]
fn rules_by_katagos_names_and_objects() {
    let rules = |r: &str| {
        query(&format!(
            r#"{{"id":"r","moves":[],"rules":{r},"boardXSize":9,"boardYSize":9}}"#
        ))
        .0
        .rules
    };
    assert_eq!(rules(r#""french""#), Ruleset::FRENCH);
    assert_eq!(rules(r#""Chinese""#).name, "chinese");
    assert_eq!(rules(r#""chinese-ogs""#).name, "chinese");
    assert_eq!(rules(r#""korean""#).name, "japanese");
    assert_eq!(rules(r#""new-zealand""#).name, "new-zealand");
    assert_eq!(rules(r#""new zealand""#).name, "new-zealand");
    assert_eq!(rules(r#""NZ""#).name, "new-zealand");
    assert_eq!(rules(r#""tromp taylor""#).name, "tromp-taylor");
    assert_eq!(
        rules(
            r#"{"ko":"SITUATIONAL","scoring":"AREA","tax":"NONE","suicide":false,"hasButton":false,"whiteHandicapBonus":"N-1"}"#
        ),
        Ruleset::FRENCH
    );
    assert_eq!(
        rules(r#"{"ko":"SIMPLE","scoring":"TERRITORY","tax":"SEKI","suicide":false,"hasButton":false,"whiteHandicapBonus":"0"}"#).name,
        "japanese"
    );
    assert_eq!(
        rules(r#"{"ko":"POSITIONAL","scoring":"AREA","tax":"NONE","suicide":true,"hasButton":false,"whiteHandicapBonus":"0"}"#).name,
        "tromp-taylor"
    );
}

#[test]
fn locations_as_katago_reads_them() {
    assert_eq!(location_move("pass", 9), Some(Move::Pass));
    assert_eq!(location_move("PASS", 9), Some(Move::Pass));
    assert_eq!(location_move("j9", 9), location_move("J9", 9));
    assert_eq!(location_move("(8,0)", 9), location_move("J9", 9));
    assert_eq!(location_move("(0,8)", 9), location_move("A1", 9));
    let g = Geometry::new(9).unwrap();
    assert_eq!(
        location_move("E5", 9),
        Some(Move::Play(g.point(Vertex::new(4, 4))))
    );
    for bad in ["I5", "K5", "A10", "(9,0)", "(0,9)", "(1)", "", "D", "55"] {
        assert_eq!(location_move(bad, 9), None, "{bad}");
    }
}

#[test]
fn actions_are_read() {
    let action = |line: &str| match parse(line, Ruleset::FRENCH).map(|p| p.request) {
        Ok(Request::Action(a)) => a,
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(
        action(r#"{"id":"v","action":"query_version"}"#),
        Action::QueryVersion { id: "v".into() }
    );
    assert_eq!(
        action(r#"{"id":"c","action":"clear_cache"}"#),
        Action::ClearCache { id: "c".into() }
    );
    assert_eq!(
        action(r#"{"id":"m","action":"query_models"}"#),
        Action::QueryModels { id: "m".into() }
    );
    assert_eq!(
        action(r#"{"id":"t","action":"terminate","terminateId":"foo","turnNumbers":[1,2]}"#),
        Action::Terminate {
            id: "t".into(),
            terminate_id: "foo".into(),
            turns: Some(vec![1, 2])
        }
    );
    assert_eq!(
        action(r#"{"id":"a","action":"terminate_all"}"#),
        Action::TerminateAll {
            id: "a".into(),
            turns: None
        }
    );
}

/// Each bad line gets the protocol's error: the message, the field and the id where known.
#[test]
fn bad_lines_name_the_field_and_the_id() {
    let general = |line: &str, words: &str| {
        let f = fault(line);
        assert!(f.message.contains(words), "{line}: {f:?}");
        assert_eq!((f.field, f.id), (None, None), "{line}");
    };
    general("{not json", "could not parse JSON");
    general("[1,2]", "must be a JSON object");
    general(r#"{"moves":[]}"#, "no id");
    let base = r#""id":"q","moves":[["B","D4"]],"rules":"french","boardXSize":19,"boardYSize":19"#;
    let cases = [
        (
            r#""boardXSize":1,"boardYSize":1"#,
            "boardXSize",
            "not supported",
        ),
        (r#""boardXSize":9,"boardYSize":13"#, "boardYSize", "square"),
        (
            r#""boardXSize":26,"boardYSize":26"#,
            "boardXSize",
            "not supported",
        ),
        (r#""moves":[["B","Z99"]]"#, "moves", "bad location"),
        (r#""moves":[["X","D4"]]"#, "moves", "\"B\" or \"W\""),
        (r#""moves":{"B":"D4"}"#, "moves", "list"),
        (r#""rules":"ancient""#, "rules", "unknown rules"),
        (
            r#""rules":{"ko":"SIMPLE","scoring":"AREA","hasButton":true}"#,
            "rules",
            "button",
        ),
        (
            r#""rules":{"ko":"SIMPLE","scoring":"AREA","tax":"ALL"}"#,
            "rules",
            "no ruleset",
        ),
        (r#""komi":7.25"#, "komi", "half-integer"),
        (r#""komi":1000"#, "komi", "half-integer"),
        (r#""komi":"7.5""#, "komi", "number"),
        (r#""analyzeTurns":[2]"#, "analyzeTurns", "from 0 to 1"),
        (r#""analyzeTurns":[-1]"#, "analyzeTurns", "from 0 to 1"),
        (r#""maxVisits":0"#, "maxVisits", "positive"),
        (
            r#""includeOwnership":"yes""#,
            "includeOwnership",
            "true or false",
        ),
        (r#""priorities":[1,2]"#, "priorities", "as long as"),
        (
            r#""reportDuringSearchEvery":-1"#,
            "reportDuringSearchEvery",
            "seconds",
        ),
        (r#""initialStones":[["B","pass"]]"#, "initialStones", "pass"),
        (
            r#""avoidMoves":[{"player":"B","moves":["D4"]}]"#,
            "avoidMoves",
            "untilDepth",
        ),
        (
            r#""overrideSettings":{"reportAnalysisWinratesAs":"RED"}"#,
            "overrideSettings",
            "BLACK",
        ),
        (r#""whiteHandicapBonus":"2""#, "whiteHandicapBonus", "N-1"),
    ];
    for (change, field, words) in cases {
        // A later key wins in serde_json's map, so the change overrides the base's.
        let line = format!("{{{base},{change}}}");
        let f = fault(&line);
        assert_eq!(f.field.as_deref(), Some(field), "{line}: {f:?}");
        assert_eq!(f.id.as_deref(), Some("q"), "{line}");
        assert!(f.message.contains(words), "{line}: {f:?}");
    }
    let f = fault(r#"{"id":"q","boardXSize":19,"boardYSize":19,"rules":"french"}"#);
    assert_eq!(f.field.as_deref(), Some("moves"));
    let f = fault(r#"{"id":"t","action":"terminate"}"#);
    assert_eq!(f.field.as_deref(), Some("terminateId"));
    let f = fault(r#"{"id":"t","action":"dance"}"#);
    assert_eq!(f.field.as_deref(), Some("action"));
    let f = fault(r#"{"id":5,"action":"query_version"}"#);
    assert_eq!(f.field.as_deref(), Some("id"));
}

#[test]
fn unknown_fields_are_warned_about_and_ignored() {
    let (q, warnings) = query(
        r#"{"id":"w","moves":[],"rules":"french","boardXSize":9,"boardYSize":9,"colour":"blue"}"#,
    );
    assert_eq!(q.size, 9);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].field.as_deref(), Some("colour"));
    assert_eq!(warnings[0].id.as_deref(), Some("w"));
}

/// `thisHash` tells positions apart by their stones, the player to move and a ko ban;
/// `symHash` is the same for a position and its mirror image, whose `thisHash` differ.
#[test]
fn the_hashes_tell_positions_apart_and_symmetric_ones_alike() {
    use super::answer::Hashes;
    use crate::board::Board;
    let board = |stones: &[(Color, &str)]| {
        let mut board = Board::new(9).expect("9x9");
        for &(color, name) in stones {
            let p = board.geometry().parse_point(name).expect("a vertex");
            board.place(color, p);
        }
        board
    };
    let one = board(&[(Color::Black, "C3"), (Color::White, "E5")]);
    let mirror = board(&[(Color::Black, "G3"), (Color::White, "E5")]);
    let turned = board(&[(Color::Black, "C7"), (Color::White, "E5")]);
    let other = board(&[(Color::Black, "C4"), (Color::White, "E5")]);
    let h = |b: &Board, c| Hashes::of(b, c);
    let black = h(&one, Color::Black);
    assert_eq!(black, h(&one, Color::Black));
    assert_ne!(black.this, h(&one, Color::White).this);
    assert_ne!(black.sym, h(&one, Color::White).sym);
    for same in [&mirror, &turned] {
        assert_ne!(black.this, h(same, Color::Black).this);
        assert_eq!(black.sym, h(same, Color::Black).sym);
    }
    assert_ne!(black.sym, h(&other, Color::Black).sym);
    assert!(black.sym <= black.this);
    // A ko ban is part of the position for the player it binds.
    // The shape around the ko, and the last stone: White's at E5 before Black takes it at
    // F5, Black's at F5 with E5 empty but no ban after.
    let shape = [
        (Color::Black, "D5"),
        (Color::Black, "E4"),
        (Color::Black, "E6"),
        (Color::White, "F4"),
        (Color::White, "F6"),
        (Color::White, "G5"),
    ];
    let with = |last: (Color, &'static str)| {
        let mut stones = shape.to_vec();
        stones.push(last);
        board(&stones)
    };
    let mut ko = with((Color::White, "E5"));
    let before = h(&ko, Color::Black);
    let f5 = ko.geometry().parse_point("F5").expect("F5");
    ko.place(Color::Black, f5); // takes E5: White may not retake at once
    let after = with((Color::Black, "F5"));
    assert!(ko.ko().is_some());
    assert_ne!(h(&ko, Color::White).this, h(&after, Color::White).this);
    assert_eq!(h(&ko, Color::Black).this, h(&after, Color::Black).this);
    assert_ne!(before.this, h(&ko, Color::Black).this);
}

/// A query without rules is played by the engine's own (`--rules`); one with rules by its.
#[test]
fn a_query_without_rules_takes_the_engines() {
    let line = r#"{"id":"n","moves":[],"boardXSize":9,"boardYSize":9}"#;
    for default in [Ruleset::FRENCH, Ruleset::JAPANESE] {
        match parse(line, default).map(|p| p.request) {
            Ok(Request::Query(q)) => assert_eq!(q.rules, default),
            other => panic!("{other:?}"),
        }
    }
    let named = r#"{"id":"n","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9}"#;
    match parse(named, Ruleset::JAPANESE).map(|p| p.request) {
        Ok(Request::Query(q)) => assert_eq!(q.rules.name, "chinese"),
        other => panic!("{other:?}"),
    }
}
