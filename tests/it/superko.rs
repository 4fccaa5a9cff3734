//! Repetition rules: where the French rule (natural situational superko) and positional
//! superko disagree, and a triple ko that simple ko lets cycle forever while every superko
//! rule cuts it.

use crate::common;

use crate::common::{mv, play, setup};
use hoshi::board::Illegal;
use hoshi::coord::Color::{self, Black, White};
use hoshi::game::Game;
use hoshi::rules::Ruleset;

/// The ko of the French rule text's example 7, with Black to capture at F5. Black's A1 is
/// played as a move so that the position before the capture is Black's own.
fn ko_after_black_move(rules: Ruleset) -> Game {
    let mut game = setup(9, rules, "D5 E6 E4", "E5 F6 F4 G5", Black);
    play(&mut game, Black, "A1");
    game
}

/// Black plays elsewhere, White passes, Black takes the ko, White retakes at once. The
/// retake recreates the position Black's A1 produced: under the French rule White never
/// produced it, so he may; positional superko forbids any repetition; simple ko forbids the
/// immediate retake. Situational superko forbids it too: White's pass repeated that position
/// with Black to move, and the retake would recreate it with Black to move; the French rule
/// does not count positions produced by a pass.
#[test]
fn french_and_positional_superko_disagree_after_a_pass() {
    for (rules, expected) in [
        (Ruleset::FRENCH, Ok(())),
        (Ruleset::AGA, Err(Illegal::Ko)),
        (Ruleset::NEW_ZEALAND, Err(Illegal::Ko)),
        (Ruleset::CHINESE, Err(Illegal::Ko)),
        (Ruleset::TROMP_TAYLOR, Err(Illegal::Ko)),
        (Ruleset::JAPANESE, Err(Illegal::Ko)),
    ] {
        let mut game = ko_after_black_move(rules);
        play(&mut game, White, "pass");
        play(&mut game, Black, "F5");
        assert_eq!(
            game.check(White, mv(&game, "E5")),
            expected,
            "{}",
            rules.name
        );
    }

    // After the French retake, Black may not take back: that position is his own.
    let mut game = ko_after_black_move(Ruleset::FRENCH);
    play(&mut game, White, "pass");
    play(&mut game, Black, "F5");
    play(&mut game, White, "E5");
    assert_eq!(game.check(Black, mv(&game, "F5")), Err(Illegal::Ko));
}

/// Without the pass, every ruleset forbids the immediate retake.
#[test]
fn the_immediate_retake_is_forbidden_everywhere() {
    for rules in Ruleset::PRESETS {
        let mut game = setup(9, rules, "D5 E6 E4", "E5 F6 F4", White);
        play(&mut game, White, "G5");
        play(&mut game, Black, "F5");
        assert_eq!(
            game.check(White, mv(&game, "E5")),
            Err(Illegal::Ko),
            "{}",
            rules.name
        );
    }
}

/// Three kos on the board (see `common::triple_ko_stones`); each capture is legal under
/// simple ko (never the ko just taken), and six captures bring back the starting position.
const CYCLE: [(Color, &str); 6] = common::TRIPLE_KO_CYCLE;

/// Start: ko 1 "W", ko 2 "B", ko 3 "W", reached by White's move A9 so that the starting
/// position is one White produced by placing a stone.
fn triple_ko(rules: Ruleset) -> Game {
    let (black, white) = common::triple_ko_stones();
    let mut game = setup(9, rules, &black, &white, White);
    play(&mut game, White, "A9");
    game
}

#[test]
fn triple_ko_cycles_forever_under_simple_ko() {
    let mut game = triple_ko(Ruleset::JAPANESE);
    let start = game.board().hash();
    for _ in 0..3 {
        for (color, vertex) in CYCLE {
            play(&mut game, color, vertex);
        }
        assert_eq!(game.board().hash(), start, "the cycle returns to the start");
    }
    assert_eq!(game.prisoners(Black), 9);
    assert_eq!(game.prisoners(White), 9);
}

#[test]
fn triple_ko_is_cut_by_every_superko_rule() {
    for rules in [
        Ruleset::FRENCH,
        Ruleset::AGA,
        Ruleset::CHINESE,
        Ruleset::NEW_ZEALAND,
    ] {
        let mut game = triple_ko(rules);
        for (color, vertex) in &CYCLE[..5] {
            play(&mut game, *color, vertex);
        }
        // White's sixth capture would recreate the start, which White produced (with Black to
        // move): forbidden by French, situational and positional superko alike.
        let (color, vertex) = CYCLE[5];
        assert_eq!(
            game.check(color, mv(&game, vertex)),
            Err(Illegal::Superko),
            "{}",
            rules.name
        );
        assert!(game.play(color, mv(&game, vertex)).is_err());
        assert!(!game
            .legal_points(color)
            .contains(&common::point(&game, vertex)));
    }
}

/// What a network is handed as superko bans: the sixth capture, legal by the board alone
/// (it is not the simple ko just taken), under every superko rule and under no simple ko.
#[test]
fn the_superko_bans_are_the_moves_only_superko_forbids() {
    for rules in [Ruleset::FRENCH, Ruleset::CHINESE, Ruleset::JAPANESE] {
        let mut game = triple_ko(rules);
        for (color, vertex) in &CYCLE[..5] {
            play(&mut game, *color, vertex);
        }
        let (color, vertex) = CYCLE[5];
        let p = common::point(&game, vertex);
        assert_eq!(game.board().check(color, p), Ok(()));
        let expected = match rules.ko {
            hoshi::rules::KoRule::Simple => vec![],
            _ => vec![p],
        };
        assert_eq!(game.superko_bans(color), expected, "{}", rules.name);
        assert_eq!(
            game.superko_bans(color.opponent()),
            vec![],
            "{}",
            rules.name
        );
    }
}

/// French rule only: a position counts as "produced" only by the player whose stone made
/// it. If the triple ko starts from a position nobody placed (set up), White's sixth capture
/// is legal, and it is Black's next capture, recreating his own first capture, that is cut.
#[test]
fn french_rule_cuts_the_cycle_at_the_first_self_repetition() {
    let (black, white) = common::triple_ko_stones();
    let mut game = setup(9, Ruleset::FRENCH, &black, &white, Black);
    for (color, vertex) in CYCLE {
        play(&mut game, color, vertex);
    }
    assert_eq!(game.check(Black, mv(&game, "D2")), Err(Illegal::Superko));
    // Positional superko forbids already the sixth capture.
    let mut game = setup(9, Ruleset::CHINESE, &black, &white, Black);
    for (color, vertex) in &CYCLE[..5] {
        play(&mut game, *color, vertex);
    }
    assert_eq!(game.check(White, mv(&game, "C8")), Err(Illegal::Superko));
}

/// Undo forgets the positions of the moves it takes back, and replaying them brings the
/// same ban back.
#[test]
fn undo_forgets_positions_and_replay_restores_the_ban() {
    let mut game = triple_ko(Ruleset::FRENCH);
    for (color, vertex) in &CYCLE[..5] {
        play(&mut game, *color, vertex);
    }
    let (color, vertex) = CYCLE[5];
    assert_eq!(game.check(color, mv(&game, vertex)), Err(Illegal::Superko));
    assert!(game.undo() && game.undo());
    for (c, v) in &CYCLE[3..5] {
        play(&mut game, *c, v);
    }
    assert_eq!(game.check(color, mv(&game, vertex)), Err(Illegal::Superko));
    for _ in 0..6 {
        assert!(game.undo());
    }
    // Handicap and set-up stones are not moves: nothing more to take back.
    assert!(!game.undo());
    assert_eq!(game.move_number(), 0);
}
