//! Every worked example of the French rule text (../shared/seeds/000_8ba5034f2fb185a9.txt),
//! on the 9×9 board its diagrams use (columns A..J without I, rows from the bottom).

use crate::common::{mv, play, point, setup, stones};
use hoshi::board::Illegal;
use hoshi::coord::Color::{Black, White};
use hoshi::rules::Ruleset;
use hoshi::score::Status;

const FR: Ruleset = Ruleset::FRENCH;

/// Exemple 1 : une pierre a 4 libertés au centre, 3 au bord, 2 dans le coin.
#[test]
fn example_1_liberties_in_the_centre_on_the_edge_in_the_corner() {
    let game = setup(9, FR, "E5 A5 A1", "", Black);
    let b = game.board();
    assert_eq!(b.liberty_count(point(&game, "E5")), 4);
    assert_eq!(b.liberty_count(point(&game, "A5")), 3);
    assert_eq!(b.liberty_count(point(&game, "A1")), 2);
    let names = |v: &str| {
        let mut l: Vec<_> = b
            .liberties(point(&game, v))
            .iter()
            .map(|&p| b.geometry().name(p))
            .collect();
        l.sort();
        l.join(" ")
    };
    assert_eq!(names("E5"), "D5 E4 E6 F5");
    assert_eq!(names("A5"), "A4 A6 B5");
    assert_eq!(names("A1"), "A2 B1");
}

/// Exemple 2 : E5 et F5 forment une chaîne de 6 libertés.
#[test]
fn example_2_a_chain_of_two_shares_six_liberties() {
    let mut game = setup(9, FR, "", "", Black);
    play(&mut game, Black, "E5");
    play(&mut game, White, "pass");
    play(&mut game, Black, "F5");
    let b = game.board();
    let (e5, f5) = (point(&game, "E5"), point(&game, "F5"));
    assert_eq!(b.chain(e5), b.chain(f5));
    assert_eq!(b.chain_len(e5), 2);
    assert_eq!(b.liberty_count(e5), 6);
    assert_eq!(b.liberty_count(f5), 6);
}

/// Exemple 3 : la pierre blanche E5 en atari est prise par Noir en E4 : 1 prisonnier.
#[test]
fn example_3_capturing_a_stone_in_atari() {
    let mut game = setup(9, FR, "D5 F5 E6", "E5", Black);
    let e5 = point(&game, "E5");
    assert_eq!(game.board().liberty_count(e5), 1);
    assert_eq!(game.board().atari_liberty(e5), Some(point(&game, "E4")));
    assert_eq!(game.board().chains_in_atari(White), vec![e5]);
    play(&mut game, Black, "E4");
    assert_eq!(game.board().color_at(e5), None);
    assert_eq!(game.prisoners(Black), 1);
    assert_eq!(stones(&game, White), "");
    assert_eq!(game.board().liberty_count(point(&game, "E4")), 4);
}

/// Exemple 4 : la chaîne blanche A4-A5 au bord, en atari en B5, est prise : 2 prisonniers.
#[test]
fn example_4_capturing_a_chain_on_the_edge() {
    let mut game = setup(9, FR, "A3 A6 B4", "A4 A5", Black);
    assert_eq!(game.board().liberty_count(point(&game, "A4")), 1);
    play(&mut game, Black, "B5");
    assert_eq!(game.prisoners(Black), 2);
    assert_eq!(stones(&game, Black), "A3 A6 B4 B5");
    assert_eq!(stones(&game, White), "");
    // The black stones got their liberties back: A4 and A5 are empty again.
    assert_eq!(game.board().liberty_count(point(&game, "A3")), 3);
    assert_eq!(game.board().liberty_count(point(&game, "A6")), 3);
    assert_eq!(game.board().liberty_count(point(&game, "B4")), 6);
}

/// Exemple 5 : E5 est interdit à Blanc (suicide) ; il devient permis quand il capture E6 ;
/// Noir ne peut pas reprendre aussitôt en E6 : c'est un ko.
#[test]
fn example_5_forbidden_then_allowed_because_it_captures_then_ko() {
    let game = setup(9, FR, "D5 F5 E4 E6", "", White);
    assert_eq!(game.check(White, mv(&game, "E5")), Err(Illegal::Suicide));

    // Same shape, but E6 is surrounded by White D6, F6, E7. Black's E6 is played as a move,
    // so that the position before White's capture is one Black produced, as in a real game.
    let mut game = setup(9, FR, "D5 F5 E4", "D6 F6 E7", Black);
    play(&mut game, Black, "E6");
    assert_eq!(game.board().liberty_count(point(&game, "E6")), 1);
    assert_eq!(game.check(White, mv(&game, "E5")), Ok(()));
    play(&mut game, White, "E5");
    assert_eq!(game.board().color_at(point(&game, "E6")), None);
    assert_eq!(game.prisoners(White), 1);
    assert_eq!(game.board().liberty_count(point(&game, "E5")), 1);
    assert_eq!(game.check(Black, mv(&game, "E6")), Err(Illegal::Ko));
    let before = game.board().hash();
    assert!(game.play(Black, mv(&game, "E6")).is_err());
    assert_eq!(
        game.board().hash(),
        before,
        "a refused move changes nothing"
    );
}

/// Exemple 6 : un œil, le groupe meurt (Blanc peut jouer en A1 car il capture) ; deux yeux,
/// A1 et C1 sont interdits à Blanc.
#[test]
fn example_6_one_eye_dies_two_eyes_live() {
    let mut game = setup(9, FR, "A2 B2 B1", "A3 B3 C2 C1", White);
    assert_eq!(game.board().liberty_count(point(&game, "B2")), 1);
    play(&mut game, White, "A1");
    assert_eq!(game.prisoners(White), 3);
    assert_eq!(stones(&game, Black), "");

    let game = setup(9, FR, "A2 B2 C2 D2 D1 B1", "A3 B3 C3 D3 E3 E2 E1", White);
    assert_eq!(game.check(White, mv(&game, "A1")), Err(Illegal::Suicide));
    assert_eq!(game.check(White, mv(&game, "C1")), Err(Illegal::Suicide));
    assert!(game.board().is_eye(point(&game, "A1"), Black));
    assert!(game.board().is_eye(point(&game, "C1"), Black));
}

/// Exemple 7 : le ko pas à pas. Noir prend en F5 ; Blanc ne peut pas reprendre en E5 tout de
/// suite ; après un échange ailleurs il le peut ; puis c'est Noir qui doit attendre.
#[test]
fn example_7_the_ko_and_its_retake_after_an_exchange() {
    // White's G5 is played as a move: the position before Black's capture is White's.
    let mut game = setup(9, FR, "D5 E6 E4", "E5 F6 F4", White);
    play(&mut game, White, "G5");
    assert_eq!(
        game.board().atari_liberty(point(&game, "E5")),
        Some(point(&game, "F5"))
    );
    play(&mut game, Black, "F5");
    assert_eq!(game.prisoners(Black), 1);
    assert_eq!(
        game.board().atari_liberty(point(&game, "F5")),
        Some(point(&game, "E5"))
    );
    assert_eq!(game.check(White, mv(&game, "E5")), Err(Illegal::Ko));

    // A threat elsewhere and its answer change the board: the retake is now legal.
    play(&mut game, White, "B8");
    play(&mut game, Black, "B7");
    assert_eq!(game.check(White, mv(&game, "E5")), Ok(()));
    play(&mut game, White, "E5");
    assert_eq!(game.prisoners(White), 1);
    assert_eq!(game.board().color_at(point(&game, "F5")), None);
    // Now Black must find a threat before retaking.
    assert_eq!(game.check(Black, mv(&game, "F5")), Err(Illegal::Ko));
    play(&mut game, Black, "H2");
    play(&mut game, White, "H3");
    play(&mut game, Black, "F5");
    assert_eq!(game.prisoners(Black), 2);
}

/// Exemple 9 : Noir 10 pierres + 32 de territoire = 42 ; Blanc 10 + 29 + 7,5 = 46,5 ;
/// Blanc gagne de 4,5 points.
#[test]
fn example_9_counting_a_9x9_game() {
    let black = "E1 E2 E3 E4 E5 E6 D6 D7 D8 D9";
    let white = "F1 F2 F3 F4 F5 F6 F7 E7 E8 E9";
    let game = setup(9, FR, black, white, Black);
    let score = game.score(&Status::default());
    assert_eq!(score.stones, [10, 10]);
    assert_eq!(score.territory, [32, 29]);
    assert_eq!(score.neutral, 0);
    assert_eq!(score.black(), 42.0);
    assert_eq!(score.white(), 46.5);
    assert_eq!(score.result().to_string(), "W+4.5");
}

/// The same count with a dead white stone in Black's lower-left area: removing it gives the
/// same result (the point becomes Black's territory); left alive, it makes Black's whole
/// left-hand area (one connected region of 32 points) neutral.
#[test]
fn dead_stones_are_removed_before_counting() {
    let black = "E1 E2 E3 E4 E5 E6 D6 D7 D8 D9";
    let white = "F1 F2 F3 F4 F5 F6 F7 E7 E8 E9 B2";
    let game = setup(9, FR, black, white, Black);
    let mut status = Status::default();
    status.dead.insert(point(&game, "B2"));
    assert_eq!(game.score(&status).result().to_string(), "W+4.5");
    let naive = game.score(&Status::default());
    assert_eq!(naive.territory[0], 0);
    assert_eq!(naive.neutral, 31);
    assert_eq!(naive.stones, [10, 11]);
    // CGOS and Tromp-Taylor count every stone on the board: the verdict is ignored.
    for rules in [Ruleset::CGOS, Ruleset::TROMP_TAYLOR] {
        let game = setup(9, rules, black, white, Black);
        assert_eq!(game.score(&status).stones, [10, 11], "{}", rules.name);
    }
}

/// Partie à handicap : avec 3 pierres et un demi-point de komi, Blanc reçoit 2 points de plus
/// (soit 2,5) sous la règle française, 3,5 sous la chinoise, 0,5 sous la japonaise.
#[test]
fn handicap_bonus_is_n_minus_one_under_french_rules() {
    for (rules, white) in [
        (Ruleset::FRENCH, 2.5),
        (Ruleset::CHINESE, 3.5),
        (Ruleset::AGA, 2.5),
        (Ruleset::NEW_ZEALAND, 0.5),
    ] {
        let mut game = hoshi::game::Game::new(9, rules, 0.5).unwrap();
        game.fixed_handicap(3).unwrap();
        assert_eq!(game.to_move(), White);
        let score = game.score(&Status::default());
        assert_eq!(score.white(), white, "{}", rules.name);
        assert_eq!(score.black(), 81.0);
    }
}
