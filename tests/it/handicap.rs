//! Handicap through the game: the fixed tables, White to move afterwards, the refusals GTP
//! names (invalid number of stones, board not empty, bad vertex list) leaving the game as it
//! was, and handicap stones that undo does not remove.

use crate::common::{play, stones};
use hoshi::coord::{Color, Vertex};
use hoshi::game::Game;
use hoshi::handicap::HandicapError;
use hoshi::rules::Ruleset;

fn game(size: usize) -> Game {
    Game::new(size, Ruleset::FRENCH, 0.5).unwrap()
}

fn names(vertices: &[Vertex]) -> String {
    vertices
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn fixed_handicap_on_9_13_19_puts_black_on_the_hoshi_and_white_moves() {
    for (size, n, expected) in [
        (9, 5, "C3 G7 C7 G3 E5"),
        (13, 4, "D4 K10 D10 K4"),
        (19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"),
        (19, 2, "D4 Q16"),
    ] {
        let mut g = game(size);
        assert_eq!(names(&g.fixed_handicap(n).unwrap()), expected);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.handicap(), n);
        assert_eq!(g.board().stones(Color::Black), n);
        assert_eq!(g.move_number(), 0);
        assert!(!g.undo(), "handicap stones are not moves");
        assert_eq!(g.board().stones(Color::Black), n);
    }
}

#[test]
fn refusals_change_nothing() {
    let mut g = game(19);
    assert_eq!(g.fixed_handicap(1), Err(HandicapError::InvalidNumber));
    assert_eq!(g.fixed_handicap(10), Err(HandicapError::InvalidNumber));
    assert_eq!(g.free_handicap(1), Err(HandicapError::InvalidNumber));
    assert_eq!(g.free_handicap(361), Err(HandicapError::InvalidNumber));
    assert_eq!(game(7).fixed_handicap(5), Err(HandicapError::InvalidNumber));
    assert_eq!(game(6).fixed_handicap(2), Err(HandicapError::InvalidNumber));
    assert_eq!(g.board().stones(Color::Black), 0);
    assert_eq!(g.to_move(), Color::Black);

    let v = |s: &str| Vertex::parse_gtp(s).unwrap();
    assert_eq!(
        g.set_handicap(&[v("D4"), v("D4")]),
        Err(HandicapError::BadVertexList)
    );
    assert_eq!(
        g.set_handicap(&[v("D4")]),
        Err(HandicapError::BadVertexList)
    );
    assert_eq!(
        g.set_handicap(&[v("D4"), v("Z25")]),
        Err(HandicapError::BadVertexList)
    );
    assert_eq!(g.board().stones(Color::Black), 0);

    play(&mut g, Color::Black, "Q16");
    assert_eq!(g.fixed_handicap(2), Err(HandicapError::BoardNotEmpty));
    assert_eq!(g.free_handicap(2), Err(HandicapError::BoardNotEmpty));
    assert_eq!(
        g.set_handicap(&[v("D4"), v("K10")]),
        Err(HandicapError::BoardNotEmpty)
    );
    assert_eq!(stones(&g, Color::Black), "Q16");
    assert_eq!(g.move_number(), 1);
}

#[test]
fn free_and_given_handicaps() {
    let mut g = game(9);
    let placed = g.free_handicap(4).unwrap();
    assert_eq!(placed.len(), 4);
    assert_eq!(g.board().stones(Color::Black), 4);
    assert_eq!(g.to_move(), Color::White);

    let mut g = game(9);
    let v = |s: &str| Vertex::parse_gtp(s).unwrap();
    g.set_handicap(&[v("A1"), v("J9"), v("E5")]).unwrap();
    assert_eq!(stones(&g, Color::Black), "A1 E5 J9");
    assert_eq!(g.handicap(), 3);
}

/// Controllers without handicap commands send Black's stones as consecutive plays: two or
/// more Black stones in a row at the start count as handicap for the French N-1 bonus.
#[test]
fn consecutive_black_plays_at_the_start_count_as_handicap() {
    let mut g = game(9);
    play(&mut g, Color::Black, "C3");
    assert_eq!(g.handicap(), 0);
    play(&mut g, Color::Black, "G7");
    play(&mut g, Color::Black, "C7");
    play(&mut g, Color::White, "E5");
    play(&mut g, Color::Black, "G3");
    assert_eq!(g.handicap(), 3);
    let score = g.score(&Default::default());
    // French: White gets komi 0.5 + (3 - 1).
    assert_eq!(score.handicap_bonus, 2.0);
}

/// A settled 5×5 board (every empty point a true eye, nothing left to play) reached from a
/// handicap of `handicap` stones among Black's: Black owns the bottom three rows (15
/// points), White the top two (10), so Black leads the area count by 5.
fn settled_handicap_game(rules: Ruleset, handicap: &str) -> Game {
    let mut g = Game::new(5, rules, 0.5).unwrap();
    let black = "A1 B1 C1 D1 E1 A2 C2 E2 A3 B3 C3 D3 E3";
    let white = "A4 B4 C4 D4 E4 A5 C5 E5";
    let vertices: Vec<Vertex> = handicap
        .split_whitespace()
        .map(|v| Vertex::parse_gtp(v).unwrap())
        .collect();
    let handicap: Vec<&str> = handicap.split_whitespace().collect();
    g.set_handicap(&vertices).unwrap();
    for v in white.split_whitespace() {
        play(&mut g, Color::White, v);
    }
    for v in black.split_whitespace().filter(|v| !handicap.contains(v)) {
        play(&mut g, Color::Black, v);
    }
    g
}

/// As White in a French handicap game the search counts komi and the bonus of one point per
/// handicap stone after the first: with 6 stones, Black's 5-point lead loses by half a point
/// (5 - 0.5 - 5), so every playout is White's win; with no bonus (New Zealand rules, same
/// komi) the same board is Black's by 4.5. The count agrees. (The win rate carries the
/// priors' even virtual games, hence "above 0.9" rather than 1.)
#[test]
fn white_plays_for_the_win_with_komi_and_the_handicap_bonus() {
    use hoshi::knowledge::Standard;
    use hoshi::search::{Budget, Search, SearchConfig};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let six = "A1 B1 C1 D1 E1 A3";
    for (rules, lead, white_wins, result) in [
        (Ruleset::FRENCH, -0.5, true, "W+0.5"),
        (Ruleset::NEW_ZEALAND, 4.5, false, "B+4.5"),
    ] {
        let g = settled_handicap_game(rules, six);
        assert_eq!(g.handicap(), 6);
        assert_eq!(g.score(&Default::default()).result().to_string(), result);
        let budget = Budget {
            visits: Some(200),
            time: None,
        };
        let mut search = Search::new(SearchConfig::default(), Arc::new(Standard::default()), 1);
        let found = search.run(&g, Color::White, budget, &AtomicBool::new(false));
        assert_eq!(found.score_lead, lead, "{}", rules.name);
        let white_winrate = if white_wins {
            found.winrate
        } else {
            1.0 - found.winrate
        };
        assert!(white_winrate > 0.9, "{}: {}", rules.name, found.winrate);
    }
}
