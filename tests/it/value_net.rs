//! The value head against PyTorch's: `tests/fixtures/value-net/` is a version 2 network of
//! random weights with a value head, and the logits and value PyTorch computed for some
//! positions, each with its side to move and komi (format in `docs/policy-net.md`). Logits
//! and values must agree to 1e-4; a missing fixture fails.

use crate::policy_net::{assert_logits, load_fixture};
use hoshi::coord::{Color, Move};
use hoshi::game::{Game, PositionFacts};
use hoshi::net::hnet::features;
use hoshi::net::{Output, SharedNet};
use hoshi::rules::Ruleset;
use hoshi::setup::NetChoice;
use std::sync::Arc;

#[test]
fn value_net_matches_the_training_code() {
    let (net, cases) = load_fixture("value-net");
    assert!(net.has_value(), "the value-net fixture has a value head");
    let mut ws = net.workspace(19, 1);
    let mut spread = (1.0f32, 0.0f32);
    for case in &cases {
        let expected = case
            .value
            .as_ref()
            .unwrap_or_else(|| panic!("line {}: no value line", case.line));
        let mut logits = vec![0.0; case.size * case.size];
        let mut value = [0.0];
        let komi = [expected.mover_komi()];
        net.forward_value(
            case.size,
            &[&case.bytes],
            &komi,
            &mut ws,
            &mut logits,
            &mut value,
        );
        assert_logits(case, &logits);
        assert!(
            (value[0] - expected.value).abs() <= 1e-4,
            "position of line {}: value {:.8e}, PyTorch {:.8e}",
            case.line,
            value[0],
            expected.value
        );
        spread = (spread.0.min(value[0]), spread.1.max(value[0]));
    }
    // Values stuck at 0 or 1 would not show a wrong pooling.
    assert!(spread.1 - spread.0 > 0.3, "values within {spread:?}");
}

/// The side to move's judgement by Black's area komi `komi`, through the one interface.
fn evaluate(net: &SharedNet, game: &Game, color: Color, komis: &[f64]) -> Vec<Arc<Output>> {
    let reads = (net.network().history(), net.network().earlier_boards());
    let facts = PositionFacts::of(game, color, reads.0, reads.1);
    let position = facts.position(game.board(), color);
    let mut outputs = Vec::new();
    net.evaluator(game.size())
        .evaluate(&position, komis, &mut outputs);
    outputs
}

/// The evaluator gives the policy of the network's own forward pass and its value with the
/// komi the side to move receives (Black's komi for White, its negation for Black); asked
/// for two komis at once, each value is the one asked alone.
#[test]
fn the_evaluator_gives_the_value_for_the_side_to_move() {
    let (net, _) = load_fixture("value-net");
    let shared = SharedNet::new(net.clone());
    assert!(shared.heads().value);
    let mut game = Game::new(9, Ruleset::FRENCH, 6.5).expect("a game");
    for (color, point) in [(Color::Black, (2, 2)), (Color::White, (6, 6))] {
        let p = game
            .board()
            .geometry()
            .point(hoshi::coord::Vertex::new(point.0, point.1));
        game.play(color, Move::Play(p)).expect("legal");
    }
    let recent: Vec<Move> = game.recent_moves(features::HISTORY).collect();
    let mut ws = net.workspace(9, 1);
    for (color, mover_komi) in [(Color::Black, -6.5), (Color::White, 6.5)] {
        let outputs = evaluate(&shared, &game, color, &[6.5]);
        let mut bytes = vec![0; 81];
        features::encode(game.board(), color, &recent, &mut bytes);
        let (mut logits, mut expected) = (vec![0.0; 81], [0.0]);
        let komi = [mover_komi];
        net.forward_value(9, &[&bytes], &komi, &mut ws, &mut logits, &mut expected);
        let mut policy = vec![0.0; 81];
        let playable = |i: usize| features::is_playable(bytes[i]);
        assert!(hoshi::net::kernels::linalg::softmax_over(
            &logits,
            playable,
            &mut policy
        ));
        assert_eq!(outputs[0].policy, policy, "{color:?}");
        assert_eq!(outputs[0].value, Some(expected[0]), "{color:?}");
        let both = evaluate(&shared, &game, color, &[0.5, 6.5]);
        let alone = evaluate(&shared, &game, color, &[0.5]);
        assert_eq!(both[0].value, alone[0].value, "{color:?}");
        assert_eq!(both[1].value, outputs[0].value, "{color:?}");
        assert_ne!(both[0].value, both[1].value, "the komi counts");
    }
}

/// A network without a value head (the version 1 fixture) still gives its policy, and no
/// value.
#[test]
fn a_policy_network_gives_no_value() {
    let (net, _) = load_fixture("policy-net");
    let shared = SharedNet::new(net);
    assert!(!shared.heads().value);
    let game = Game::new(13, Ruleset::FRENCH, 7.5).expect("a game");
    let output = &evaluate(&shared, &game, Color::Black, &[7.5])[0];
    assert_eq!(output.value, None);
    let sum: f32 = output.policy.iter().sum();
    assert!((sum - 1.0).abs() < 1e-4, "the policy sums to {sum}");
}

/// `hoshi-evaluate` answers with the network's own view, the value exactly what the
/// evaluator gives for the side to move by the game's komi; a network without a value head
/// and no network at all are told apart.
#[test]
fn hoshi_evaluate_shows_the_value_of_the_position() {
    let net = fixture_net("value-net");
    let settings = |net| {
        let mut settings = hoshi::engine::Settings::default();
        settings.player.net = net;
        settings
    };
    let mut engine = hoshi::engine::Engine::new(settings(NetChoice::Given(net)));
    let answers = crate::common::gtp_answers(
        &mut engine,
        "boardsize 9\nclear_board\nkomi 6.5\nplay b e5\nhoshi-evaluate\n",
    );
    let answer = answers.last().expect("an answer");
    let mut game = Game::new(9, Ruleset::FRENCH, 6.5).expect("a 9x9 game");
    let e5 = game.board().geometry().parse_point("E5").expect("E5");
    game.play(Color::Black, Move::Play(e5)).expect("legal");
    let value = evaluate(&net, &game, Color::White, &[6.5])[0]
        .value
        .expect("a value");
    let lines: Vec<&str> = answer.lines().collect();
    assert_eq!(lines[0], "= to_move W", "{answer}");
    assert_eq!(lines[1], format!("value {value:.4}"), "{answer}");
    let policy_line = lines[2].strip_prefix("policy ").expect("a policy line");
    assert_eq!(
        policy_line.split(' ').count(),
        10,
        "five moves with their probabilities"
    );

    let policy_only = fixture_net("policy-net");
    assert!(!policy_only.heads().value);
    let mut without_value = hoshi::engine::Engine::new(settings(NetChoice::Given(policy_only)));
    let answers = crate::common::gtp_answers(&mut without_value, "hoshi-evaluate\n");
    assert_eq!(answers[0], "? the network has no value head");
    let mut none = hoshi::engine::Engine::new(settings(NetChoice::Off));
    let answers = crate::common::gtp_answers(&mut none, "hoshi-evaluate\n");
    assert_eq!(answers[0], "? no network (--net none)");
}

/// The small network of a fixture folder, loaded once per call.
fn fixture_net(folder: &str) -> SharedNet {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(folder)
        .join("small.hnet");
    hoshi::setup::load_network(&path).expect("the fixture network")
}

/// The network hoshi ships with has a value head that learned who is ahead: the empty board
/// is even for either side to move, and nine handicap stones win for the side that has them.
/// A value head that learned nothing, or reads the colours the wrong way round, fails.
#[test]
fn the_embedded_network_sees_nine_stones_ahead() {
    let net = hoshi::setup::embedded();
    assert!(net.heads().value, "{net:?}");
    let empty = Game::new(19, Ruleset::FRENCH, 7.5).expect("a game");
    for color in [Color::Black, Color::White] {
        let value = evaluate(&net, &empty, color, &[7.5])[0].value;
        let value = value.expect("a value");
        assert!(
            (0.4..0.6).contains(&value),
            "{color:?} on the empty board: {value}"
        );
    }
    let mut game = Game::new(19, Ruleset::FRENCH, 0.5).expect("a game");
    let stones = hoshi::handicap::fixed(19, 9).expect("nine stones");
    game.set_handicap(&stones).expect("an empty board");
    let value = |color| {
        evaluate(&net, &game, color, &[0.5])[0]
            .value
            .expect("a value")
    };
    let (black, white) = (value(Color::Black), value(Color::White));
    assert!(black > 0.8, "Black with nine stones: {black}");
    assert!(white < 0.3, "White against nine stones: {white}");
}

/// A version 3 network (pooled blocks, a value head with the score and ownership outputs)
/// against PyTorch's on `tests/fixtures/score-net/`: logits, value, score lead and ownership
/// to 1e-4 (the score, in points, relative to the larger of 1 and PyTorch's).
#[test]
fn score_net_matches_the_training_code() {
    let (net, cases) = load_fixture("score-net");
    assert!(net.has_score() && net.has_ownership() && net.pooled_blocks() > 0);
    let mut ws = net.workspace(19, 1);
    let mut leads = Vec::new();
    for case in &cases {
        let line = case.line;
        let (Some(expected), Some(lead), Some(own)) = (&case.value, case.score, &case.ownership)
        else {
            panic!("position of line {line}: no value, score or ownership line");
        };
        let area = case.size * case.size;
        assert_eq!(own.len(), area, "position of line {line}: ownership");
        let mut logits = vec![0.0; area];
        net.forward(case.size, &[&case.bytes], &mut ws, &mut logits);
        assert_logits(case, &logits);
        let mut ownership = vec![0.0; area];
        let judged = net.evaluate_value(
            case.size,
            &mut ws,
            expected.mover_komi(),
            Some(&mut ownership),
        );
        assert!(
            (judged.value - expected.value).abs() <= 1e-4,
            "line {line}: value {:.8e}, PyTorch {:.8e}",
            judged.value,
            expected.value
        );
        let found = judged.score_lead.expect("a score");
        assert!(
            (found - lead).abs() <= 1e-4 * lead.abs().max(1.0),
            "line {line}: lead {found:.8e}, PyTorch {lead:.8e}"
        );
        for (p, (&a, &b)) in ownership.iter().zip(own).enumerate() {
            assert!(
                (a - b).abs() <= 1e-4,
                "line {line}, point {p}: ownership {a}, PyTorch {b}"
            );
        }
        // The ownership does not depend on the komi; the value and score do.
        let other = net.evaluate_value(case.size, &mut ws, expected.mover_komi() + 10.0, None);
        assert_ne!(
            other.score_lead, judged.score_lead,
            "line {line}: the komi reaches the score"
        );
        leads.push(found);
    }
    let spread = leads.iter().fold(0.0f32, |m, l| m.max(l.abs()));
    assert!(
        spread > 3.0,
        "scores within ±{spread}: a wrong pooling would not show"
    );
}

/// `weights/value-19x19.hnet` and `weights/value-19x19-6x64.hnet`, the networks that learnt
/// the teacher's judgement, read as version 3 networks with every head, and judge as a Go
/// player would: the empty board close (White's komi of 7.5 against Black's first move, a
/// point or two either way), nine handicap stones at komi 0.5 lost for White by tens of
/// points. A file that learnt nothing, or reads its outputs from the wrong side, fails.
#[test]
fn the_shipped_value_networks_see_the_empty_board_close_and_nine_stones_lost() {
    for (file, channels) in [("value-19x19.hnet", 32), ("value-19x19-6x64.hnet", 64)] {
        judges_as_a_go_player_would(file, channels);
    }
}

/// An engine playing with `weights/FILE`, a value network with every head and two pooled blocks, of
/// `channels` channels.
fn engine_with_value_network(file: &str, channels: usize) -> hoshi::engine::Engine {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("weights")
        .join(file);
    let bytes = hoshi::setup::read_network_file(&path).expect(file);
    let model = hoshi::net::hnet::Model::from_bytes(&bytes).expect(file);
    assert!(model.has_score() && model.has_ownership() && model.pooled_blocks() == 2);
    assert_eq!(model.channels(), channels, "{file}");
    let mut settings = hoshi::engine::Settings::default();
    settings.player.net = NetChoice::Given(SharedNet::new(model));
    hoshi::engine::Engine::new(settings)
}

/// The number after `key` on its line of a `hoshi-evaluate` answer.
fn number(answer: &str, key: &str) -> f64 {
    let line = answer.lines().find(|l| l.starts_with(key)).expect(key);
    line[key.len()..].trim().parse().expect("a number")
}

fn judges_as_a_go_player_would(file: &str, channels: usize) {
    let mut engine = engine_with_value_network(file, channels);
    let answers = crate::common::gtp_answers(&mut engine, "boardsize 19\nhoshi-evaluate\n");
    let empty = &answers[1];
    assert!(empty.starts_with("= to_move B"), "{empty}");
    let (value, lead) = (number(empty, "value"), number(empty, "score_lead"));
    assert!((0.25..0.6).contains(&value), "{empty}");
    assert!((-4.0..1.0).contains(&lead), "{empty}");
    let answers =
        crate::common::gtp_answers(&mut engine, "komi 0.5\nfixed_handicap 9\nhoshi-evaluate\n");
    let nine = &answers[2];
    assert!(nine.starts_with("= to_move W"), "{nine}");
    assert!(number(nine, "value") < 0.1, "{nine}");
    assert!(number(nine, "score_lead") < -20.0, "{nine}");
}

/// `weights/value-9x9.hnet`, the 9x9 value network that learnt KataGo b6c96's judgement of hoshi's
/// self-play, reads with every head and judges as a player would: the empty 9x9 board at
/// komi 7.5 about even (a point or two either way), four handicap stones at komi 0.5 lost
/// for White by many points.
#[test]
fn the_9x9_value_network_sees_the_empty_board_even_and_four_stones_lost() {
    small_board_value_network_judges_as_a_player_would("value-9x9.hnet", 9, 0.25);
}

/// `weights/value-13x13.hnet`, the 19x19 value network carried to 13x13 by KataGo b6c96's judgement
/// of its own 13x13 games, judges as a player would: the empty board about even, four
/// handicap stones at komi 0.5 lost for White by many points.
#[test]
fn the_13x13_value_network_sees_the_empty_board_even_and_four_stones_lost() {
    small_board_value_network_judges_as_a_player_would("value-13x13.hnet", 13, 0.3);
}

/// The value network of `weights/FILE` on a `size` board: the empty board at komi 7.5 about even, and
/// after four handicap stones at komi 0.5, White's win rate below `value_below` and its lead
/// below -10 points.
fn small_board_value_network_judges_as_a_player_would(file: &str, size: usize, value_below: f64) {
    let mut engine = engine_with_value_network(file, 32);
    let answers = crate::common::gtp_answers(
        &mut engine,
        &format!("boardsize {size}\nhoshi-evaluate\nkomi 0.5\nfixed_handicap 4\nhoshi-evaluate\n"),
    );
    let empty = &answers[1];
    assert!(empty.starts_with("= to_move B"), "{empty}");
    assert!((0.3..0.65).contains(&number(empty, "value")), "{empty}");
    assert!(
        (-3.0..3.0).contains(&number(empty, "score_lead")),
        "{empty}"
    );
    let four = &answers[4];
    assert!(four.starts_with("= to_move W"), "{four}");
    assert!(number(four, "value") < value_below, "{four}");
    assert!(number(four, "score_lead") < -10.0, "{four}");
}
