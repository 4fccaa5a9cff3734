//! Seeded random games on many sizes and rulesets: after every move the incremental chains,
//! liberty counts, empty list and hash equal a from-scratch recomputation, and undo walks back
//! through exactly the same states.

use hoshi::board::Illegal;
use hoshi::coord::{Color, Move};
use hoshi::game::Game;
use hoshi::rules::Ruleset;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// What must come back identical after undo.
#[derive(Debug, PartialEq)]
struct Snapshot {
    hash: u64,
    stones: Vec<Option<Color>>,
    to_move: Color,
    prisoners: [usize; 2],
    passes: u32,
    ko: Option<(hoshi::coord::Point, Color)>,
    legal: Vec<hoshi::coord::Point>,
}

fn snapshot(game: &Game) -> Snapshot {
    let b = game.board();
    Snapshot {
        hash: b.hash(),
        stones: b.geometry().points().map(|p| b.color_at(p)).collect(),
        to_move: game.to_move(),
        prisoners: [game.prisoners(Color::Black), game.prisoners(Color::White)],
        passes: game.passes(),
        ko: b.ko(),
        // Full legality is slow on big boards with long histories: check it where it is cheap.
        legal: if b.size() <= 9 {
            game.legal_points(game.to_move())
        } else {
            Vec::new()
        },
    }
}

/// One random game: random legal moves (own eyes included, so that chains die and kos
/// happen), a pass now and then. Returns the number of moves played.
fn random_game(size: usize, rules: Ruleset, seed: u64, max_moves: usize) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(size, rules, 7.5).unwrap();
    let mut snapshots = vec![snapshot(&game)];
    for _ in 0..max_moves {
        let color = game.to_move();
        let empties = game.board().empty_points().to_vec();
        let mv = if empties.is_empty() || rng.gen_bool(0.03) {
            Move::Pass
        } else {
            Move::Play(empties[rng.gen_range(0..empties.len())])
        };
        let before = snapshot(&game);
        let predicted = match mv {
            Move::Play(p) if game.board().check_ignoring_ko(color, p).is_ok() => {
                Some(game.board().hash_after(color, p))
            }
            _ => None,
        };
        match game.play(color, mv) {
            Ok(effect) => {
                if let Some(hash) = predicted {
                    assert_eq!(hash, game.board().hash(), "hash_after mispredicted");
                }
                let b = game.board();
                if let Err(e) = b.verify() {
                    panic!(
                        "size {size} seed {seed} move {}: {e}\n{b:?}",
                        game.move_number()
                    );
                }
                let gained = game.prisoners(color) - before.prisoners[color.index()];
                assert_eq!(gained, effect.captured as usize);
                snapshots.push(snapshot(&game));
            }
            Err(why) => {
                assert!(matches!(
                    why,
                    Illegal::Occupied | Illegal::Suicide | Illegal::Ko | Illegal::Superko
                ));
                assert_eq!(snapshot(&game), before, "a refused move changed the game");
                if let Move::Play(p) = mv {
                    assert!(!before.legal.contains(&p) || color != before.to_move);
                }
            }
        }
        if game.is_over() && rng.gen_bool(0.5) {
            break;
        }
    }
    let moves = game.move_number();
    while let Some(expected) = snapshots.pop() {
        assert_eq!(
            snapshot(&game),
            expected,
            "size {size} seed {seed}: undo differs"
        );
        if !game.undo() {
            break;
        }
    }
    assert!(snapshots.is_empty());
    moves
}

#[test]
fn bookkeeping_matches_a_recount_after_every_move_and_undo_is_exact() {
    let mut total = 0;
    for (k, size) in [2, 3, 5, 7, 9, 13, 19, 25].into_iter().enumerate() {
        for (r, rules) in Ruleset::PRESETS.into_iter().enumerate() {
            let games = if size <= 9 { 4 } else { 1 };
            for g in 0..games {
                let seed = (k * 100 + r * 10 + g) as u64;
                total += random_game(size, rules, seed, 3 * size * size);
            }
        }
    }
    assert!(total > 10_000, "only {total} moves");
}

/// New Zealand and Tromp-Taylor allow multi-stone suicide: the chain is removed and the
/// opponent gets the prisoners. A one-stone suicide stays illegal.
#[test]
fn multi_stone_suicide_where_allowed() {
    let setup = |rules| {
        let mut game = Game::new(5, rules, 7.0).unwrap();
        let g = game.board().geometry();
        let p = |v: &str| g.parse_point(v).unwrap();
        let stones = [
            ("A2", Color::Black),
            ("A3", Color::White),
            ("B2", Color::White),
            ("B1", Color::White),
        ];
        game.set_position(stones.map(|(v, c)| (p(v), c)), Color::Black);
        (game, p("A1"), p("C1"))
    };
    let (mut game, a1, c1) = setup(Ruleset::NEW_ZEALAND);
    assert_eq!(game.check(Color::Black, Move::Play(a1)), Ok(()));
    let effect = game.play(Color::Black, Move::Play(a1)).unwrap();
    assert_eq!(effect.suicided, 2);
    assert_eq!(game.prisoners(Color::White), 2);
    assert_eq!(game.board().stones(Color::Black), 0);
    game.board().verify().unwrap();
    // C1 for Black: a lone stone without liberties next to B1... it has C2 and D1: legal.
    assert!(game.is_legal(Color::Black, Move::Play(c1)));

    let (game, a1, _) = setup(Ruleset::FRENCH);
    assert_eq!(
        game.check(Color::Black, Move::Play(a1)),
        Err(Illegal::Suicide)
    );

    // One-stone suicide: White A1 surrounded by Black A2, B1 is refused even under NZ rules.
    let mut game = Game::new(5, Ruleset::NEW_ZEALAND, 7.0).unwrap();
    let g = game.board().geometry();
    let p = |v: &str| g.parse_point(v).unwrap();
    game.set_position(
        [(p("A2"), Color::Black), (p("B1"), Color::Black)],
        Color::White,
    );
    assert_eq!(
        game.check(Color::White, Move::Play(p("A1"))),
        Err(Illegal::Suicide)
    );
}

/// A copied board continues independently, and `copy_from` between sizes leaves a board
/// equal to its source.
#[test]
fn copies_are_independent() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
    for _ in 0..40 {
        let pts = game.legal_points(game.to_move());
        let p = pts[rng.gen_range(0..pts.len())];
        game.play(game.to_move(), Move::Play(p)).unwrap();
    }
    let original = game.board().clone();
    let mut copy = hoshi::board::Board::new(19).unwrap();
    copy.copy_from(&original);
    assert!(copy.same_stones(&original));
    copy.verify().unwrap();
    let p = copy.empty_points()[0];
    copy.place(Color::Black, p);
    assert!(!copy.same_stones(&original));
    assert_eq!(original.color_at(p), None);
    original.verify().unwrap();
}
