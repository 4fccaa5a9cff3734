//! SGF round trips: a game written by `printsgf` reads back as the same game (size, komi,
//! rules, handicap or setup stones, every move and pass, whose turn it is), for hand-made
//! games and for random games with captures; and a file that cannot be loaded changes
//! nothing.

use hoshi::coord::{Color, Move, Vertex};
use hoshi::engine::{Engine, Settings};
use hoshi::game::Game;
use hoshi::player::{Choice, Mode, Player, RandomPlayer};
use hoshi::rules::Ruleset;
use hoshi::score::GameResult;
use hoshi::sgf;
use std::path::PathBuf;

/// Everything a round trip must keep, in comparable form.
fn summary(game: &Game) -> String {
    let g = game.board().geometry();
    let moves: Vec<String> = game
        .history()
        .iter()
        .map(|t| match t.mv {
            Move::Pass => format!("{}pass", t.color.letter()),
            Move::Play(p) => format!("{}{}", t.color.letter(), g.name(p)),
        })
        .collect();
    let handicap: Vec<String> = game.handicap_stones().iter().map(|&p| g.name(p)).collect();
    format!(
        "{}x{} komi {} {} handicap [{}] to move {} prisoners {}/{}\n{}\n{}",
        game.size(),
        game.size(),
        game.komi(),
        game.rules(),
        handicap.join(" "),
        game.to_move(),
        game.prisoners(Color::Black),
        game.prisoners(Color::White),
        moves.join(" "),
        game.board().diagram()
    )
}

fn read_back(text: &str) -> Game {
    let record = sgf::parse(text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    record
        .replay(Ruleset::FRENCH, 7.5, None)
        .unwrap_or_else(|e| panic!("{e}:\n{text}"))
}

fn play(game: &mut Game, color: Color, vertex: &str) {
    let mv = match Vertex::parse_gtp(vertex) {
        Some(v) => Move::Play(game.board().geometry().point(v)),
        None => Move::Pass,
    };
    game.play(color, mv)
        .unwrap_or_else(|e| panic!("{vertex}: {e}"));
}

#[test]
fn a_game_with_a_capture_and_passes_reads_back_the_same() {
    let mut game = Game::new(9, Ruleset::JAPANESE, 6.5).expect("9x9");
    for (color, vertex) in [
        (Color::Black, "E5"),
        (Color::White, "D5"),
        (Color::Black, "D4"),
        (Color::White, "J9"),
        (Color::Black, "D6"),
        (Color::White, "pass"),
        (Color::Black, "C5"),
        (Color::Black, "A1"),
        (Color::White, "pass"),
    ] {
        play(&mut game, color, vertex);
    }
    assert_eq!(game.prisoners(Color::Black), 1);
    let text = sgf::write(&game, Some(GameResult::from_margin(-2.5)));
    assert!(
        text.contains("RU[Japanese]") && text.contains("RE[W+2.5]"),
        "{text}"
    );
    assert!(!text.contains("\n\n"), "blank line in {text}");
    assert_eq!(summary(&read_back(&text)), summary(&game));
}

#[test]
fn handicap_stones_stay_handicap_stones() {
    let mut game = Game::new(19, Ruleset::FRENCH, 0.5).expect("19x19");
    game.fixed_handicap(4).expect("4 stones");
    play(&mut game, Color::White, "R17");
    let text = sgf::write(&game, None);
    assert!(text.contains("HA[4]AB[dp][pd][dd][pp]"), "{text}");
    let back = read_back(&text);
    assert_eq!(back.handicap(), 4);
    assert_eq!(summary(&back), summary(&game));
}

#[test]
fn a_set_up_position_keeps_its_stones_and_player() {
    let text = "(;FF[4]SZ[7]KM[0]AB[cc][dd]AW[ee]PL[W])";
    let game = read_back(text);
    assert_eq!(game.to_move(), Color::White);
    let again = read_back(&sgf::write(&game, None));
    assert_eq!(summary(&again), summary(&game));
}

/// Random games with the random player (captures, kos, passes at the end) on every
/// usual size and ruleset.
#[test]
fn random_games_read_back_the_same() {
    for (seed, size, rules) in [
        (1, 9, Ruleset::FRENCH),
        (2, 13, Ruleset::CHINESE),
        (3, 19, Ruleset::JAPANESE),
        (4, 5, Ruleset::NEW_ZEALAND),
        (5, 25, Ruleset::TROMP_TAYLOR),
    ] {
        let mut game = Game::new(size, rules, 7.5).expect("size");
        let mut player = RandomPlayer::new(seed);
        let mut color = Color::Black;
        for _ in 0..size * size {
            let Choice::Move(mv) = player.choose(
                &game,
                color,
                Mode::Play,
                &hoshi::player::clock::Clock::default(),
            ) else {
                break;
            };
            game.play(color, mv).expect("the player plays legal moves");
            color = color.opponent();
        }
        let text = sgf::write(&game, None);
        assert_eq!(summary(&read_back(&text)), summary(&game), "{text}");
    }
}

fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sgf_tests");
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir.join(name)
}

#[test]
fn the_engine_loads_what_it_printed() {
    let mut engine = Engine::new(Settings {
        size: 9,
        seed: 3,
        ..Settings::default()
    });
    for color in [Color::Black, Color::White].into_iter().cycle().take(30) {
        engine.genmove(color, Mode::Play);
    }
    let path = temp_file("printed.sgf");
    std::fs::write(&path, engine.to_sgf()).expect("written");
    let before = summary(engine.game());
    let mut other = Engine::new(Settings::default());
    other.load_sgf(&path, None).expect("loads");
    assert_eq!(summary(other.game()), before);
    // Up to move 11: ten moves.
    other.load_sgf(&path, Some(11)).expect("loads");
    assert_eq!(other.game().move_number(), 10);
}

#[test]
fn a_file_that_cannot_be_loaded_changes_nothing() {
    let mut engine = Engine::new(Settings::default());
    engine.set_komi(3.5);
    engine
        .play(
            Color::Black,
            Move::Play(engine.game().board().geometry().point(Vertex::new(3, 3))),
        )
        .expect("legal");
    let before = summary(engine.game());
    for (name, text) in [
        ("unclosed.sgf", "(;SZ[9];B[ee]"),
        ("illegal.sgf", "(;SZ[9];B[ee];W[ee])"),
        ("huge.sgf", "(;SZ[52])"),
        ("binary.sgf", "\u{0}\u{1}\u{2}"),
    ] {
        let path = temp_file(name);
        std::fs::write(&path, text).expect("written");
        assert!(engine.load_sgf(&path, None).is_err(), "{name} loaded");
        assert_eq!(summary(engine.game()), before, "{name} changed the game");
    }
    assert!(engine.load_sgf(&temp_file("missing.sgf"), None).is_err());
    assert_eq!(summary(engine.game()), before);
}
