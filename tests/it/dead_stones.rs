//! Dead-stone judgement on finished positions: `final_status_list dead` / `seki` and
//! `final_score` (which answer from `ownership::judge` and `Game::score`) must give what a
//! strong player would, whichever side is to move.
//!
//! The real positions are the last ones of games hoshi played against GNU Go 3.8 at level 10
//! (French rules, komi 7.5, `hoshi match ... --white "gnugo --mode gtp --level 10"`), after
//! both players passed. The hand-made ones cover what real games rarely show: a seki, a dead
//! shape in a corner, a group alive only by ko, neutral points. Each comment says whether
//! GNU Go 3.8 (`--chinese-rules`, `final_status_list dead`, `final_score`) agrees.

use crate::common;

use crate::common::{diagram, names};
use hoshi::coord::Color;
use hoshi::player::judge;
use hoshi::rules::Ruleset;

/// Judges the position drawn by `rows` (French rules, komi 7.5) with each side to move and
/// checks the dead stones, the seki stones (sorted GTP names) and the result.
fn check(rows: &[&str], dead: &str, seki: &str, result: &str) {
    for to_move in [Color::Black, Color::White] {
        let game = diagram(rows, Ruleset::FRENCH, to_move);
        let status = judge::judge(&game, &hoshi::player::Params::default(), None);
        assert_eq!(names(&game, &status.dead), dead, "dead, {to_move} to move");
        assert_eq!(names(&game, &status.seki), seki, "seki, {to_move} to move");
        let score = game.score(&status).result().to_string();
        assert_eq!(score, result, "score, {to_move} to move");
    }
}

/// Hand-made. White C1-D9 and Black E1-E9 have no eye and share D5 and D6: whoever fills one
/// is captured and leaves the other a big living group, so both live in seki and D5, D6 are
/// nobody's. Black 27 (A-B, E), White 52 + 7.5. GNU Go 3.8 gives the same seki and score.
#[test]
fn a_seki_across_the_board() {
    check(
        &[
            ". X O O X O . . .",
            "X X O O X O O . .",
            ". X O O X O . . .",
            "X X O . X O O . .",
            ". X O . X O . . .",
            "X X O O X O O . .",
            ". X O O X O . . .",
            "X X O O X O O . .",
            ". X O O X O . . .",
        ],
        "",
        "C1 C2 C3 C4 C5 C6 C7 C8 C9 D1 D2 D3 D4 D7 D8 D9 E1 E2 E3 E4 E5 E6 E7 E8 E9",
        "W+32.5",
    );
}

/// Hand-made. White A8-C8-C9 has only the two-point eye space A9-B9 in Black's corner: one
/// eye, dead, though random play never kills it (Black's moves there are self-ataris until
/// the last). GNU Go 3.8 agrees.
#[test]
fn a_dead_group_in_the_corner() {
    check(
        &[
            ". . O X . X O . .",
            "O O O X X X O . .",
            "X X X X . X O . .",
            ". . . X X O O . .",
            ". . . X O O . . .",
            ". . . X O . . . .",
            ". . X X O . . . .",
            ". . X O O . . . .",
            ". . X O . . . . .",
        ],
        "A8 B8 C8 C9",
        "",
        "W+6.5",
    );
}

/// White's corner group lives only if White wins the ko at G1 (see the test below).
const ALIVE_ONLY_BY_KO: [&str; 9] = [
    ". O . O . O . O .",
    "O O O O O O O O O",
    ". . . . . . . . .",
    "O O O O O O O O O",
    "X X X X X X X X X",
    ". . . . . . X X X",
    ". . . . . X O O O",
    ". . . . . X O O O",
    ". . . . X O . O .",
];

/// Hand-made. White's corner group has one eye at J1 and a second at G1 only while Black
/// cannot take the ko: Black G1 captures F1, and on a finished board White has no ko threat
/// left, so Black connects at F1 next and the group has one eye. The rule hoshi follows (J89's
/// confirmation phase, and what a strong player says): a group that still needs to win a ko
/// to live is dead. Black 45, White 36 + 7.5. GNU Go 3.8 agrees.
#[test]
fn a_group_alive_only_by_ko_is_dead() {
    check(&ALIVE_ONLY_BY_KO, "F1 G2 G3 H1 H2 H3 J2 J3", "", "B+1.5");
}

/// Hand-made. Walls on D and F with the E column (and D1, D6, F6) between them: 12 dame,
/// nobody's under area scoring. Black 34, White 35 + 7.5. GNU Go 3.8 says W+6.5 with Black
/// to move and W+10.5 with White to move (it counts dame as if filled): wrong here.
#[test]
fn neutral_points_count_for_nobody() {
    check(
        &[
            ". . . X . O . . .",
            ". . . X . O . . .",
            ". . X X . O O . .",
            ". . X . . . O . .",
            ". . X X . O O . .",
            ". . . X . O . . .",
            ". . . X . O . . .",
            ". . X X . O . . .",
            ". . X . . O . . .",
        ],
        "",
        "",
        "W+8.5",
    );
}

/// hoshi expert (White) against GNU Go 3.8 level 10, 9x9, after two passes: Black's invasion
/// C1-E3 is dead. GNU Go 3.8 agrees.
#[test]
fn real_9x9_expert_against_gnugo_a_dead_invasion() {
    check(
        &[
            ". . O O X X X O .",
            "O . O X X X O O .",
            ". O O O X X O . .",
            "O O . O X O O . .",
            "X O O X X O . O O",
            "X X X X X O O O X",
            ". X O O O X X O X",
            ". X O X X . X X X",
            ". . O . . . . . X",
        ],
        "C1 C2 C3 D3 E3",
        "",
        "W+0.5",
    );
}

/// hoshi expert (White) against GNU Go 3.8 level 10, 9x9, after two passes: Black's A3-A4
/// group and E2-E3 are dead inside White's bottom. GNU Go 3.8 agrees.
#[test]
fn real_9x9_expert_against_gnugo_two_dead_groups() {
    check(
        &[
            "X X X . . . . . .",
            "O O X . X . . . .",
            "O . O X . X . . .",
            "O . O O X X . . .",
            "O . O . O X X . .",
            "X O O O O O O X .",
            "X X X O X O X X .",
            ". . . . X O X . .",
            ". O O O O O X . .",
        ],
        "A3 A4 B3 C3 E2 E3",
        "",
        "W+4.5",
    );
}

/// hoshi intermediate (White) against GNU Go 3.8 level 10, 9x9, after two passes: White's
/// C6-D8 group in the top-left corner and D2 are dead. GNU Go 3.8 agrees.
#[test]
fn real_9x9_intermediate_against_gnugo_a_dead_corner() {
    check(
        &[
            ". X X X X X X O .",
            "X O O O . X X O O",
            ". X O O X . X O O",
            "X X O X X X O O O",
            "X . X . X O O O O",
            ". X X X O O O O .",
            "X X X X O X O O O",
            "X . X O X X X O X",
            ". X X . X . X X X",
        ],
        "B8 C6 C7 C8 D2 D7 D8",
        "",
        "B+27.5",
    );
}

/// hoshi intermediate (White) against GNU Go 3.8 level 10, 9x9, after two passes: nothing dead,
/// a half-open top edge that is nobody's. GNU Go 3.8 agrees.
#[test]
fn real_9x9_intermediate_against_gnugo_nothing_dead() {
    check(
        &[
            ". . . . . . . . .",
            ". . . X . X . . .",
            "X X X O X . X . .",
            "X O X O O X X . .",
            "O O O O X X X X X",
            ". O . . O X O O X",
            ". . O . O O O X X",
            ". . O . . . O O X",
            ". . . . . . O . O",
        ],
        "",
        "",
        "W+4.5",
    );
}

/// hoshi expert (Black) against GNU Go 3.8 level 10, 13x13, after two passes: White's E10-G12
/// group, H12 and B4 are dead and Black wins by 1.5, so every point counts. GNU Go 3.8 agrees.
#[test]
fn real_13x13_expert_against_gnugo_won_by_one_and_a_half() {
    check(
        &[
            ". . . . . . X X . X X O .",
            ". . X . O O . O . X O . O",
            ". X . X X O O X X X O . .",
            ". . . X O O X . X X O O .",
            ". . X . . . . X X O . . O",
            "X X X X X X . . X O O O O",
            "O X O O O X X X O X O O O",
            "O O . O . O X O O X O X X",
            ". O . O O O X O X X X X .",
            ". X O O . O O O O X . . .",
            ". O . . . . . O X X . X .",
            ". . . . . . . O O X X . X",
            ". . . . . . . . O O O X .",
        ],
        "B4 E10 E12 F10 F11 F12 G11 H12",
        "",
        "B+1.5",
    );
}

/// hoshi expert (White) against GNU Go 3.8 level 10, 13x13, after two passes: F7-F8, J4 and G12
/// are dead and White wins by half a point. GNU Go 3.8 agrees.
#[test]
fn real_13x13_expert_against_gnugo_won_by_half_a_point() {
    check(
        &[
            "X X X X X X . . . . . . .",
            "X X O O X X O . . . . . .",
            "O O O O X X X X . . . X .",
            ". . . O X X O X X X X . X",
            ". O . O O O O X X O O X .",
            ". . O . . X O O O . O X X",
            ". . . . . X . O O . O O O",
            ". . . . . . O O X O O . .",
            ". . O . O O O X X X X O O",
            "O O . O O X X X O . X X O",
            "O O O X X . X . X X . . X",
            "O . O O X . X . . . . X .",
            ". . O X X X . . . . . . .",
        ],
        "F7 F8 G12 J4",
        "",
        "W+0.5",
    );
}

/// hoshi intermediate (White) against GNU Go 3.8 level 10, 9x9, after two passes: Black's
/// A4-D2 group and White's H6-J8 group are both dead, White wins by 2.5. GNU Go 3.8 agrees.
#[test]
fn real_9x9_intermediate_against_gnugo_dead_on_both_sides() {
    check(
        &[
            "X X X . . . . . .",
            "X X X X . X X X O",
            "X X X X X X X O O",
            "O X O X O O X O O",
            "O O O X O X X X .",
            "X X O O O X X X X",
            ". X X O O O O O X",
            "O . X X O . . O X",
            ". O O O O O O O O",
        ],
        "A4 B3 B4 C2 C3 D2 H6 H7 J6 J7 J8",
        "",
        "W+2.5",
    );
}

/// GNU Go 3.8 level 1 against itself, 19x19, 295 moves, after two passes: ten dead
/// stones in nine chains (K1, B2, D4, B7, C9, H11-J11, N14, Q15, R17), Black wins by 7.5.
/// GNU Go 3.8 agrees.
#[test]
fn real_19x19_gnugo_against_itself() {
    check(
        &[
            ". O . O O O O O X . X . . X X O . O .",
            ". . O . O X O X . X . X . X O . O . .",
            ". O . O X X X X X . X X X X O O X . .",
            ". . O O X . . . . X O X O O O . O . O",
            ". . . . O X X X X X O O O O . X O O .",
            ". O O . O X O O O O O O X . O O O . O",
            "O . O . O X X X O X O . O O X X X O O",
            "O O O . O X . X X X X O O X X . X X O",
            "O X X O O X . O O X X O O O X . . X O",
            "X . X X O X X . . X O . . O O X X X O",
            ". X O X O O X X X X O . O . O X O X X",
            ". . . X O O O O O X O O X O O O O O X",
            ". O . X X X X X X X O X X O O X X X X",
            ". . . . . . . . . . X . X X X X . X .",
            ". X X . X X . . . . . X O O X X X . X",
            "X . X O X O X . . X X O O O O O X X O",
            ". X X X O O O X X . . X O O O . O O O",
            ". O X O O O . O X X X X X O . O . . .",
            ". . X O O . O O X O . . X X O . . . .",
        ],
        "B2 B7 C9 D4 H11 J11 K1 N14 Q15 R17",
        "",
        "B+7.5",
    );
}

/// The position of the cleanup tests: a dead White stone on B4 (liberties A4, B3, B5, C4)
/// in Black's area, a dead Black stone on H7 in White's.
const LONE_DEAD_STONES: [&str; 9] = [
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . X .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". O . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
];

/// Plays `kgs-genmove_cleanup` for Black, White passing before each of its moves, until
/// Black passes (at most 10 moves); returns the game and Black's moves, sorted.
fn clean_up(rules: Ruleset) -> (hoshi::game::Game, Vec<String>) {
    use hoshi::coord::Move;
    use hoshi::player::clock::Clock;
    use hoshi::player::{Choice, Mode, Player};
    use hoshi::player::{MctsPlayer, PlayerSettings};

    let mut game = diagram(&LONE_DEAD_STONES, rules, Color::White);
    let setup = PlayerSettings {
        visits: Some(300),
        ..PlayerSettings::default()
    };
    let mut player = MctsPlayer::new(setup, 7);
    let mut black_moves = Vec::new();
    for _ in 0..10 {
        common::play(&mut game, Color::White, "pass");
        match player.choose(&game, Color::Black, Mode::Cleanup, &Clock::default()) {
            Choice::Move(Move::Pass) => break,
            Choice::Move(mv) => {
                game.play(Color::Black, mv).expect("a legal cleanup move");
                black_moves.push(game.board().geometry().move_name(mv));
            }
            Choice::Resign => panic!("cleanup resigned"),
        }
    }
    black_moves.sort();
    (game, black_moves)
}

/// `kgs-genmove_cleanup`: with White passing, Black takes the dead White stone B4 off the
/// board in four moves (it never passes while the stone is there), leaves the living White
/// wall and its own dead stone H7 alone, and passes once B4 is gone; under area scoring the
/// count stays the same.
#[test]
fn cleanup_captures_every_dead_stone_then_passes() {
    let before = diagram(&LONE_DEAD_STONES, Ruleset::FRENCH, Color::White);
    let result = |g: &hoshi::game::Game| {
        g.score(&judge::judge(g, &hoshi::player::Params::default(), None))
            .result()
            .to_string()
    };
    assert_eq!(result(&before), "W+16.5");
    let (game, black_moves) = clean_up(Ruleset::FRENCH);
    assert_eq!(black_moves, ["A4", "B3", "B5", "C4"]);
    assert_eq!(
        common::stones(&game, Color::White),
        "E1 E2 E3 E4 E5 E6 E7 E8 E9"
    );
    assert_eq!(game.prisoners(Color::Black), 1);
    assert_eq!(result(&game), "W+16.5");
}

/// Under Tromp-Taylor nothing is removed at the count, which is exactly why cleanup must
/// still capture the dead stone: the same four moves, then a pass.
#[test]
fn cleanup_captures_under_tromp_taylor_too() {
    let (game, black_moves) = clean_up(Ruleset::TROMP_TAYLOR);
    assert_eq!(black_moves, ["A4", "B3", "B5", "C4"]);
    assert_eq!(
        common::stones(&game, Color::White),
        "E1 E2 E3 E4 E5 E6 E7 E8 E9"
    );
}

/// Passing uses the same judgement: in the ko position above, once White passes, Black
/// would pass too, since with White's corner group dead he wins by 1.5 (counted with that
/// group alive, as playouts alone see it, White would win by 18.5 and Black would play on).
/// But no player passes while a chain is in atari that he can take: Black takes the ko at
/// G1, which costs nothing under area scoring and settles what the count assumed.
#[test]
fn the_player_passes_on_the_same_judgement() {
    use hoshi::coord::Move;
    use hoshi::player::clock::Clock;
    use hoshi::player::{Choice, Mode, Player};
    use hoshi::player::{MctsPlayer, PlayerSettings};

    let rows = ALIVE_ONLY_BY_KO;
    let mut game = diagram(&rows, Ruleset::FRENCH, Color::White);
    common::play(&mut game, Color::White, "pass");
    let setup = PlayerSettings {
        visits: Some(300),
        ..PlayerSettings::default()
    };
    let mut player = MctsPlayer::new(setup, 3);
    let choice = player.choose(&game, Color::Black, Mode::Play, &Clock::default());
    let g1 = common::point(&game, "G1");
    assert_eq!(choice, Choice::Move(Move::Play(g1)));
}

/// The last position of a 9x9 game hoshi (White) lost to KataGo, White to play, Black
/// having captured 12 stones and White 3 (French rules count none of them).
const KATAGO_RACE: [&str; 9] = [
    ". X X X O . . O .",
    "O O X O . O . O X",
    ". O X O . O O X X",
    "X X X O O X X . X",
    ". . X O O O X X X",
    "X . X O O X X O X",
    "X O . X X O O . O",
    ". . X . X X O O O",
    "X X X X X . X X .",
];

/// Real, against KataGo. Black's twelve stones F4-J8 (liberties H6, an eye, and J9) against
/// White's F3-J3 (H3 and J1): whoever plays first, Black wins, as his H3 takes H4 and gains
/// a liberty. So F3-J3 and H4 are dead, and so are B3 and B7-B8: the count is 60 to 20 +
/// 7.5, J9 being nobody's. The playouts alone gave the race to White (W+11.5), and hoshi
/// passed on that count. GNU Go 3.8 gives the same dead stones and B+31.5 (with White to
/// move it counts the dame J9 for White); KataGo says B+32.5.
#[test]
fn real_9x9_against_katago_a_race_won_by_capturing_a_stone() {
    check(
        &KATAGO_RACE,
        "A8 B3 B7 B8 F3 G2 G3 H2 H4 J2 J3",
        "",
        "B+32.5",
    );
}

/// Hand-made: White D1-D9 (liberties C2 and C8, inside Black's wall) and Black E1-E9 (F2
/// and F8, inside White's) race with two liberties each and no eye: whoever plays first
/// captures the other.
const OPEN_RACE: [&str; 9] = [
    ". X X O X O O . .",
    ". X . O X . O . .",
    ". X X O X O O . .",
    ". X X O X O O . .",
    ". X X O X O O . .",
    ". X X O X O O . .",
    ". X X O X O O . .",
    ". X . O X . O . .",
    ". X X O X O O . .",
];

/// Reading finds the race open: each side captures the other's chain by playing first, and
/// the move that wins it fills one of the other chain's liberties.
#[test]
fn reading_finds_a_race_that_goes_to_whoever_plays_first() {
    use hoshi::player::judge::Verdict;

    let game = diagram(&OPEN_RACE, Ruleset::FRENCH, Color::White);
    let board = game.board();
    let open: Vec<String> = judge::read_fights(board)
        .into_iter()
        .filter(|f| matches!(f.verdict, Verdict::Open { .. }))
        .map(|f| {
            let mut chain = hoshi::coord::PointSet::new();
            board.chain_stones(f.chain).for_each(|s| {
                chain.insert(s);
            });
            names(&game, &chain)
        })
        .collect();
    assert_eq!(
        open,
        ["D1 D2 D3 D4 D5 D6 D7 D8 D9", "E1 E2 E3 E4 E5 E6 E7 E8 E9"]
    );
    assert_eq!(
        judge::race_move(&game, Color::White),
        Some(common::mv(&game, "F2"))
    );
    assert_eq!(
        judge::race_move(&game, Color::Black),
        Some(common::mv(&game, "C2"))
    );
}

/// hoshi never passes while a race is open: Black passes, and White, who loses the race if
/// he passes too, plays F2 and wins it. The same without the pass: the search's pass gives
/// way to the race.
#[test]
fn the_player_plays_an_open_race_instead_of_passing() {
    use hoshi::player::clock::Clock;
    use hoshi::player::{Choice, Mode, Player};
    use hoshi::player::{MctsPlayer, PlayerSettings};

    let mut game = diagram(&OPEN_RACE, Ruleset::FRENCH, Color::Black);
    common::play(&mut game, Color::Black, "pass");
    let setup = PlayerSettings {
        visits: Some(300),
        ..PlayerSettings::default()
    };
    for mode in [Mode::Play, Mode::Cleanup, Mode::Regression] {
        let mut player = MctsPlayer::new(setup, 3);
        let choice = player.choose(&game, Color::White, mode, &Clock::default());
        assert_eq!(choice, Choice::Move(common::mv(&game, "F2")), "{mode:?}");
    }
}
