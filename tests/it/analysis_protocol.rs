//! `hoshi analysis`, KataGo's JSON analysis protocol, through the real binary: several
//! queries in flight answered by id, the actions, partial results, termination, and bad
//! lines answered with the protocol's errors while the engine goes on.

use crate::common::{lines_of, spawn_hoshi};
use serde_json::Value;
use std::io::Write;
use std::process::ChildStdin;
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// Only a hung engine takes this long to answer.
const HANG: Duration = Duration::from_secs(120);

struct Analysis {
    child: std::process::Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Analysis {
    /// One position at a time, on one thread.
    fn start() -> Analysis {
        Analysis::start_with(&["--threads", "1", "--seed", "3", "analysis"])
    }

    fn start_with(args: &[&str]) -> Analysis {
        let dir = std::env::temp_dir();
        let mut child = spawn_hoshi(args, &dir);
        let stdin = child.stdin.take();
        let lines = lines_of(child.stdout.take().expect("stdout"));
        Analysis {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("hoshi reads");
        stdin.flush().expect("hoshi reads");
    }

    fn next(&self) -> Value {
        let line = self.lines.recv_timeout(HANG).expect("an answer");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    /// Closes stdin and reads every answer left until hoshi exits.
    fn finish(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(HANG) {
            rest.push(serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}")));
        }
        let status = self.child.wait().expect("hoshi exits");
        assert!(status.success(), "exit status {status}");
        rest
    }
}

fn query(id: &str, extra: &str) -> String {
    format!(
        r#"{{"id":"{id}","moves":[["B","E5"],["W","C3"],["B","G7"]],"rules":"french","komi":7.5,"boardXSize":9,"boardYSize":9{extra}}}"#
    )
}

#[test]
fn queries_in_flight_are_answered_by_id_and_turn_with_every_field_asked() {
    let mut engine = Analysis::start();
    engine.send(&query(
        "first",
        r#","analyzeTurns":[0,2,3],"maxVisits":20,"includeOwnership":true,"includePolicy":true,"analysisPVLen":2"#,
    ));
    engine.send(&query("second", r#","maxVisits":10,"colour":"blue""#));
    engine.send(r#"{"id":"v","action":"query_version"}"#);
    let mut answers = engine.finish();
    // The warning about the unknown field and the version come first: the lines are read
    // while the positions are searched.
    let warning = answers
        .iter()
        .find(|a| a.get("warning").is_some())
        .expect("a warning");
    assert_eq!(warning["field"], "colour");
    assert_eq!(warning["id"], "second");
    let version = answers
        .iter()
        .find(|a| a["action"] == "query_version")
        .expect("version");
    assert_eq!(version["id"], "v");
    answers.retain(|a| a.get("turnNumber").is_some());
    let mut seen: Vec<(String, u64)> = answers
        .iter()
        .map(|a| {
            (
                a["id"].as_str().unwrap().to_string(),
                a["turnNumber"].as_u64().unwrap(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [("first", 0), ("first", 2), ("first", 3), ("second", 3)]
            .map(|(id, t)| (id.to_string(), t))
    );
    for answer in &answers {
        assert_eq!(answer["isDuringSearch"], false);
        let root = &answer["rootInfo"];
        let turn = answer["turnNumber"].as_u64().unwrap();
        let mover = if turn % 2 == 0 { "B" } else { "W" };
        assert_eq!(root["currentPlayer"], mover, "{answer}");
        let visits = root["visits"].as_u64().unwrap();
        let wanted = if answer["id"] == "first" { 20 } else { 10 };
        // At least the visits asked; more where the tree of the turn before was kept.
        assert!(visits >= wanted, "{visits} visits: {answer}");
        let winrate = root["winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&winrate));
        let infos = answer["moveInfos"].as_array().unwrap();
        assert!(!infos.is_empty());
        let mut total = 0;
        for (order, info) in infos.iter().enumerate() {
            assert_eq!(info["order"], order as u64);
            total += info["visits"].as_u64().unwrap();
            for key in [
                "winrate",
                "scoreLead",
                "scoreMean",
                "scoreStdev",
                "prior",
                "utility",
                "lcb",
            ] {
                assert!(info[key].is_number(), "{key} in {info}");
            }
            let pv = info["pv"].as_array().unwrap();
            assert_eq!(pv[0], info["move"]);
            if answer["id"] == "first" {
                assert!(pv.len() <= 3, "analysisPVLen 2: {info}");
            }
        }
        assert_eq!(total, visits, "{answer}");
        if answer["id"] == "first" {
            assert_eq!(answer["ownership"].as_array().unwrap().len(), 81);
            let policy = answer["policy"].as_array().unwrap();
            assert_eq!(policy.len(), 82);
            // The stones on the board are the illegal points.
            let illegal = policy.iter().filter(|p| p.as_f64() == Some(-1.0)).count();
            assert_eq!(illegal as u64, turn, "{answer}");
            let sum: f64 = policy
                .iter()
                .filter_map(Value::as_f64)
                .filter(|p| *p >= 0.0)
                .sum();
            assert!((sum - 1.0).abs() < 1e-3, "policy sums to {sum}");
        } else {
            assert!(answer.get("ownership").is_none() && answer.get("policy").is_none());
        }
    }
}

/// The moves of an answer's `moveInfos`.
fn moves_of(answer: &Value) -> Vec<String> {
    let infos = answer["moveInfos"].as_array().expect("moveInfos");
    infos
        .iter()
        .map(|i| i["move"].as_str().expect("a move").to_string())
        .collect()
}

#[test]
fn allowed_and_avoided_moves_bound_the_root_and_each_move_has_its_ownership_and_pv_visits() {
    let mut engine = Analysis::start();
    // White to move: only D4 and F4 (and the pass hoshi always keeps) may be searched.
    engine.send(&query(
        "allow",
        concat!(
            r#","maxVisits":40,"allowMoves":[{"player":"W","moves":["D4","F4"],"untilDepth":1}],"#,
            r#""includeMovesOwnership":true,"includePVVisits":true,"includeOwnershipStdev":true,"#,
            r#""includeOwnership":true"#
        ),
    ));
    let answer = engine.next();
    let moves = moves_of(&answer);
    assert!(!moves.is_empty(), "{answer}");
    assert!(
        moves
            .iter()
            .all(|m| ["D4", "F4", "pass"].contains(&m.as_str())),
        "{moves:?}"
    );
    for info in answer["moveInfos"].as_array().unwrap() {
        let own = info["ownership"].as_array().expect("the move's ownership");
        assert_eq!(own.len(), 81, "{info}");
        assert!(own
            .iter()
            .all(|x| x.as_f64().is_some_and(|x| x.abs() <= 1.0)));
        let pv = info["pv"].as_array().unwrap();
        let visits = info["pvVisits"].as_array().expect("pvVisits");
        assert_eq!(visits.len(), pv.len(), "{info}");
        assert_eq!(visits[0], info["visits"], "{info}");
        // Each move of the line was reached no more often than the one before it.
        let counts: Vec<u64> = visits.iter().map(|v| v.as_u64().unwrap()).collect();
        assert!(counts.windows(2).all(|w| w[1] <= w[0]), "{counts:?}");
    }
    let stdev = answer["ownershipStdev"].as_array().expect("ownershipStdev");
    assert_eq!(stdev.len(), 81);
    assert!(stdev
        .iter()
        .all(|x| x.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x))));
    // Some point is unsettled after three moves on 9x9.
    assert!(stdev.iter().any(|x| x.as_f64().unwrap() > 0.05), "{answer}");
    // The best move of a free search, avoided, is not searched.
    engine.send(&query("free", r#","maxVisits":30"#));
    let best = moves_of(&engine.next())[0].clone();
    let avoid = format!(
        r#","maxVisits":30,"avoidMoves":[{{"player":"W","moves":["{best}"],"untilDepth":1}}]"#
    );
    engine.send(&query("avoid", &avoid));
    let answer = engine.next();
    assert!(!moves_of(&answer).contains(&best), "{best}: {answer}");
    assert!(answer["moveInfos"][0].get("ownership").is_none());
    assert!(engine.finish().is_empty());
}

#[test]
fn bad_lines_get_the_protocols_errors_and_the_engine_goes_on() {
    let mut engine = Analysis::start();
    engine.send("this is not json");
    assert_eq!(
        engine.next()["error"].as_str().map(|e| e.contains("JSON")),
        Some(true)
    );
    engine.send(&query("big", r#","boardXSize":26,"boardYSize":26"#));
    let error = engine.next();
    assert_eq!(
        (error["field"].as_str(), error["id"].as_str()),
        (Some("boardXSize"), Some("big"))
    );
    engine.send(&"x".repeat(5 << 20));
    assert_eq!(
        engine.next()["error"]
            .as_str()
            .map(|e| e.contains("longer")),
        Some(true)
    );
    engine.send(
        r#"{"id":"ko","moves":[["B","E5"],["W","E5"]],"rules":"french","boardXSize":9,"boardYSize":9,"maxVisits":5}"#,
    );
    let error = engine.next();
    assert_eq!(
        (error["field"].as_str(), error["id"].as_str()),
        (Some("moves"), Some("ko"))
    );
    assert!(
        error["error"].as_str().unwrap().contains("illegal move 2"),
        "{error}"
    );
    // Still answering.
    engine.send(&query("after", r#","maxVisits":5"#));
    let answer = engine.next();
    assert_eq!(
        (answer["id"].as_str(), answer["turnNumber"].as_u64()),
        (Some("after"), Some(3))
    );
    assert!(engine.finish().is_empty());
}

#[test]
fn partial_results_come_during_the_search_and_terminate_ends_it() {
    let mut engine = Analysis::start();
    engine.send(&query(
        "long",
        r#","analyzeTurns":[3,2,1,0],"maxVisits":10000000,"reportDuringSearchEvery":0.05"#,
    ));
    let during = engine.next();
    assert_eq!(during["id"], "long");
    assert_eq!(during["turnNumber"], 3);
    assert_eq!(during["isDuringSearch"], true);
    engine.send(r#"{"id":"stop","action":"terminate","terminateId":"long","turnNumbers":[3,2]}"#);
    let mut answers = Vec::new();
    // Turn 2 was queued: it is answered without results; turn 3's search ends and answers.
    while !answers.iter().any(|a: &Value| a["action"] == "terminate") {
        answers.push(engine.next());
    }
    engine.send(r#"{"id":"all","action":"terminate_all"}"#);
    answers.extend(engine.finish());
    let finals: Vec<(u64, bool)> = answers
        .iter()
        .filter(|a| a["isDuringSearch"] == false)
        .map(|a| {
            (
                a["turnNumber"].as_u64().unwrap(),
                a.get("noResults").is_some(),
            )
        })
        .collect();
    assert!(finals.contains(&(3, false)), "{answers:?}");
    assert!(finals.contains(&(2, true)), "{answers:?}");
    // Turns 1 and 0 ended by terminate_all, searched or not, each answered once.
    for turn in [0, 1, 2, 3] {
        assert_eq!(
            finals.iter().filter(|f| f.0 == turn).count(),
            1,
            "turn {turn}: {answers:?}"
        );
    }
    let stop = answers.iter().find(|a| a["action"] == "terminate").unwrap();
    assert_eq!(
        (stop["id"].as_str(), stop["terminateId"].as_str()),
        (Some("stop"), Some("long"))
    );
    assert!(answers.iter().any(|a| a["action"] == "terminate_all"));
}

/// With two positions at once, two queries are searched side by side (both report during
/// their searches before either ends), a third waits its turn, and `terminate_all` ends
/// both searches and the one queued, each answered once.
#[test]
fn two_positions_are_searched_at_once_and_terminate_all_ends_both() {
    let mut engine = Analysis::start_with(&[
        "--threads",
        "2",
        "--seed",
        "3",
        "analysis",
        "--positions",
        "2",
    ]);
    let long = r#","maxVisits":10000000,"reportDuringSearchEvery":0.05"#;
    for id in ["a", "b", "c"] {
        engine.send(&query(id, long));
    }
    let mut answers: Vec<Value> = Vec::new();
    let during = |answers: &[Value], id: &str| {
        answers
            .iter()
            .any(|a| a["id"] == id && a["isDuringSearch"] == true)
    };
    while !(during(&answers, "a") && during(&answers, "b")) {
        answers.push(engine.next());
    }
    assert!(!during(&answers, "c"), "the third waits: {answers:?}");
    engine.send(r#"{"id":"all","action":"terminate_all"}"#);
    answers.extend(engine.finish());
    let last = |id: &str| {
        let finals: Vec<&Value> = answers
            .iter()
            .filter(|a| a["id"] == id && a["isDuringSearch"] == false)
            .collect();
        assert_eq!(finals.len(), 1, "{id}: {answers:?}");
        finals[0].clone()
    };
    for id in ["a", "b"] {
        let answer = last(id);
        assert!(answer.get("noResults").is_none(), "{answer}");
        assert!(!answer["moveInfos"].as_array().unwrap().is_empty());
    }
    assert_eq!(last("c")["noResults"], true);
}
