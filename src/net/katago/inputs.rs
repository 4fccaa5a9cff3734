//! KataGo's input features of a position, as its networks of input version 7 (model versions
//! 8 to 17) read them: 22 planes over the board and 19 numbers about the game.
//!
//! The features are KataGo's (lightvector/KataGo, MIT licence, copyright David J. Wu):
//! `NNInputs::fillRowV7` in `cpp/neuralnet/nninputs.cpp`, reading a `BoardHistory`
//! (`cpp/game/boardhistory.cpp`) under KataGo's `Rules` (`cpp/game/rules.cpp`). This is hoshi's
//! own reading of them, from a [`Position`].
//!
//! Everything is seen from the side to move: "own" is the side to move, "opponent" the other.
//!
//! | plane | what (1 where true) |
//! |---|---|
//! | 0 | on the board |
//! | 1, 2 | own stones, opponent stones |
//! | 3, 4, 5 | stones of chains with 1, 2, 3 liberties |
//! | 6 | points the side to move may not play for ko: the simple ko point, and the superko bans under a superko rule |
//! | 7, 8 | KataGo's encore ko marks: always 0 (hoshi has no encore) |
//! | 9 to 13 | the last move to the fifth last, while colours alternate back from the opponent's (a pass marks global 0 to 4 instead) |
//! | 14 | stones of chains KataGo's ladder search calls lost ([`super::ladders`]) |
//! | 15, 16 | the same one and two moves back |
//! | 17 | the ataris that start a working ladder on an opponent chain of two liberties |
//! | 18, 19 | own and opponent area under area scoring, as KataGo's `calculateArea` marks it for its inputs: pass-alive groups and territory, regions one side surrounds, every other stone |
//! | 20, 21 | stones at the start of KataGo's second encore: always 0 |
//!
//! | global | what |
//! |---|---|
//! | 0 to 4 | the last move to the fifth last was a pass (same alternation as planes 9 to 13) |
//! | 5 | the side to move's komi / 20 ([`self_komi`]) |
//! | 6, 7 | ko rule: simple 0, 0; positional 1, 0.5; situational 1, -0.5 |
//! | 8 | multi-stone suicide allowed |
//! | 9 | territory scoring |
//! | 10, 11 | tax: none 0, 0; seki 1, 0; all 1, 1 |
//! | 12, 13 | encore phase past 0, past 1: always 0 |
//! | 14 | a pass now would end the game (or, under territory scoring, the phase) |
//! | 15, 16 | playout doubling advantage: 1 and half of it, where it is not 0 |
//! | 17 | the button is still there: always 0 |
//! | 18 | the komi parity wave, under area scoring ([`komi_wave`]) |
//!
//! # Rules
//!
//! Each of hoshi's presets is told to the network as the KataGo named ruleset it matches
//! (KataGo's `Rules::parseRules`). The handicap bonus is not an input: it is in the komi.
//!
//! | hoshi | KataGo's | ko | scoring | tax | suicide | friendly pass |
//! |---|---|---|---|---|---|---|
//! | french | `french` (= `aga`, `bga`) | situational | area | none | no | yes |
//! | chinese | `chinese-ogs`, `chinese-kgs` | positional | area | none | no | yes |
//! | japanese | `japanese`, `korean` | simple | territory | seki | no | no |
//! | aga | `aga` | situational | area | none | no | yes |
//! | new-zealand | `new-zealand` | situational | area | none | yes | yes |
//! | tromp-taylor | `tromp-taylor` | positional | area | none | yes | no |
//! | cgos | none: `tromp-taylor` without suicide | positional | area | none | no | no |
//!
//! French rules forbid a player to recreate a position he himself made by placing a stone;
//! KataGo knows no such rule and its `french` is situational superko, the nearest. KataGo's
//! `chinese` is simple ko, but hoshi's Chinese rules forbid any whole-board repetition, which
//! is KataGo's `chinese-ogs`. KataGo's `friendlyPassOk` (passing before every dead stone is
//! taken off is fine) is set by hoshi's `dead_stone_removal` under area scoring: CGOS, like
//! Tromp-Taylor, counts every stone left on the board. It is no input of its own but decides
//! what the network sees after the opponent's pass (see below).
//!
//! # What hoshi's position does not say
//!
//! KataGo reads a whole game's history; a [`Position`] holds the last moves and boards. Where
//! KataGo would read more, this module assumes:
//! * **Passes.** The passes ending the game are the ones at the end of [`Position::recent`].
//!   One pass by the opponent: under area scoring with a friendly pass, KataGo hides the move
//!   history and says a pass would not end the game (`shouldSuppressEndGameFromFriendlyPass`);
//!   otherwise global 14 is 1. Two or more under area scoring: the game is over and only the
//!   last move shows. KataGo's other way for a pass to end the phase under simple ko (the
//!   same player passing again in a position he passed in) is never assumed.
//! * **Territory scoring.** KataGo counts territory as area, giving White one point for each
//!   stone Black has placed and taking one for each stone White has placed (handicap and
//!   setup stones included). Stones placed are not on the board once captured, so hoshi
//!   estimates it: play alternated before the moves of [`Position::recent`] (after the
//!   handicap, White first), then those moves counted as they are ([`stones_placed_lead`]).
//! * **KataGo's search settings** are its defaults: `drawEquivalentWinsForWhite` 0.5 (no
//!   komi shift for draws), `conservativePass` and the passing hacks off, no history limit.
//! * **Superko bans** are hoshi's, under hoshi's rule (under French rules they can differ from
//!   KataGo's situational bans in cycles with passes). Under simple ko KataGo marks none.
//! * **Encore.** hoshi has none: the encore planes and globals stay 0, and territory scoring
//!   shows no area (KataGo shows it from the second encore phase on).

use super::ladders;
use crate::board::Board;
use crate::coord::{Color, Geometry, Move, Point};
use crate::game::{Played, Position};
use crate::rules::{KoRule, Ruleset, Scoring};

/// Planes over the board.
pub const SPATIAL: usize = 22;
/// Numbers about the game.
pub const GLOBAL: usize = 19;

// Plane numbers.
const ON_BOARD: usize = 0;
const OWN_STONES: usize = 1;
const OPPONENT_STONES: usize = 2;
/// Planes of chains with one, two and three liberties: this one, then the next two.
const ONE_LIBERTY: usize = 3;
const KO_BANS: usize = 6;
/// The last move's plane; the four before it follow.
const LAST_MOVE: usize = 9;
const LADDERED_NOW: usize = 14;
const LADDERED_ONE_BACK: usize = 15;
const LADDERED_TWO_BACK: usize = 16;
const CATCHING_ATARIS: usize = 17;
const OWN_AREA: usize = 18;
const OPPONENT_AREA: usize = 19;

// Global numbers.
/// The last move was a pass; the four before it follow.
const LAST_MOVE_PASSED: usize = 0;
const KOMI: usize = 5;
/// 1 under a superko rule.
const SUPERKO: usize = 6;
/// Which: 0.5 positional, -0.5 situational.
const SUPERKO_KIND: usize = 7;
const SUICIDE: usize = 8;
const TERRITORY: usize = 9;
const TAX: usize = 10;
const TAX_ALL: usize = 11;
const PASS_ENDS: usize = 14;
const PLAYOUT_DOUBLING: usize = 15;
const PLAYOUT_DOUBLING_HALF: usize = 16;
const KOMI_WAVE: usize = 18;

/// How many moves back the history planes reach.
const HISTORY: usize = 5;
/// How far past the board's area a komi may go (KataGo's `KOMI_CLIP_RADIUS`).
const KOMI_CLIP: f32 = 20.0;

/// What the evaluator chooses beside the position (KataGo's `MiscNNInputParams` that matter
/// here).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InputOptions {
    /// The model's `preferPassAliveUnderSuicideRules` (v15+ header); false for older models.
    pub pass_alive_under_suicide_rules: bool,
    /// KataGo's playoutDoublingAdvantage, 0 by default.
    pub playout_doubling_advantage: f32,
}

/// Fills KataGo's input features of `position` for a network of input version 7.
/// `komi` is Black's area komi (what Black's area lead must exceed, handicap bonus included,
/// as hoshi's `Terms::area_komi` gives it); it becomes KataGo's self komi for the side to
/// move ([`self_komi`]). `spatial` is [`SPATIAL`] planes of size×size floats, plane after
/// plane, each plane row by row in KataGo's orientation ([`plane_index`]: index y*size + x,
/// with y = 0 KataGo's top row, hoshi's row size-1, and x = 0 column A). `global` gets the 19
/// global features.
pub fn fill(
    position: &Position<'_>,
    komi: f64,
    options: &InputOptions,
    spatial: &mut [f32],
    global: &mut [f32; GLOBAL],
) {
    let board = position.board;
    let geometry = board.geometry();
    let rules = KataRules::of(&position.terms.rules);
    let mut planes = Planes::new(geometry, spatial);
    global.fill(0.0);

    stones(&mut planes, board, position.to_move);
    ko_bans(&mut planes, position, &rules);
    if rules.scoring == Scoring::Area && rules.tax == Tax::None {
        let suicide = rules.multi_stone_suicide || options.pass_alive_under_suicide_rules;
        area(&mut planes, board, position.to_move, suicide);
    }
    let passing = Passing::of(position.recent, &rules);
    let shown = last_moves(&mut planes, global, position, passing.turns_shown());
    ladders(&mut planes, position, shown);

    let own_komi = self_komi(position, komi);
    global[KOMI] = own_komi / 20.0;
    match rules.ko {
        KataKo::Simple => {}
        KataKo::Positional => [global[SUPERKO], global[SUPERKO_KIND]] = [1.0, 0.5],
        KataKo::Situational => [global[SUPERKO], global[SUPERKO_KIND]] = [1.0, -0.5],
    }
    global[SUICIDE] = flag(rules.multi_stone_suicide);
    global[TERRITORY] = flag(rules.scoring == Scoring::Territory);
    global[TAX] = flag(rules.tax != Tax::None);
    global[TAX_ALL] = flag(rules.tax == Tax::All);
    global[PASS_ENDS] = flag(passing.shows_pass_ending());
    if options.playout_doubling_advantage != 0.0 {
        global[PLAYOUT_DOUBLING] = 1.0;
        global[PLAYOUT_DOUBLING_HALF] = 0.5 * options.playout_doubling_advantage;
    }
    if rules.scoring == Scoring::Area {
        global[KOMI_WAVE] = komi_wave(own_komi, geometry.size() * geometry.size());
    }
}

/// Where `p` lies in a plane: `y * size + x` with `y` counted from KataGo's top row (hoshi's
/// row size-1) and `x` from column A. KataGo's policy output uses the same order.
pub fn plane_index(geometry: Geometry, p: Point) -> usize {
    let v = geometry.vertex(p);
    let size = geometry.size();
    (size - 1 - usize::from(v.row)) * size + usize::from(v.col)
}

/// The point at `index` of a plane ([`plane_index`]'s inverse; `index` below size²).
pub fn plane_point(geometry: Geometry, index: usize) -> Point {
    let size = geometry.size();
    let (y, x) = (index / size, index % size);
    geometry.point(crate::coord::Vertex::new(x, size - 1 - y))
}

/// The points of the board in plane order: KataGo's top row first, each row from column A.
pub fn plane_points(geometry: Geometry) -> impl Iterator<Item = Point> {
    (0..geometry.size() * geometry.size()).map(move |i| plane_point(geometry, i))
}

/// KataGo's ko rules, as far as hoshi's presets need them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KataKo {
    Simple,
    Positional,
    Situational,
}

/// KataGo's tax rules: which points do not count under its scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tax {
    None,
    /// Eyes in seki count for nobody (Japanese rules).
    Seki,
    /// Two points per group too (ancient rules; no hoshi preset).
    All,
}

/// A hoshi ruleset told the way KataGo's rules are (see the module's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KataRules {
    pub ko: KataKo,
    pub scoring: Scoring,
    pub tax: Tax,
    pub multi_stone_suicide: bool,
    /// KataGo's `friendlyPassOk`: passing with dead stones left on the board is fine.
    pub friendly_pass: bool,
}

impl KataRules {
    /// The KataGo rules `rules` match.
    pub fn of(rules: &Ruleset) -> KataRules {
        KataRules {
            ko: match rules.ko {
                KoRule::Simple => KataKo::Simple,
                KoRule::Positional => KataKo::Positional,
                KoRule::Situational | KoRule::NaturalSituational => KataKo::Situational,
            },
            scoring: rules.scoring,
            tax: match rules.scoring {
                Scoring::Area => Tax::None,
                Scoring::Territory => Tax::Seki,
            },
            multi_stone_suicide: rules.multi_stone_suicide,
            friendly_pass: rules.scoring == Scoring::Area && rules.dead_stone_removal,
        }
    }
}

/// The side to move's komi as KataGo's networks take it (`BoardHistory::currentSelfKomi`):
/// what the side to move's area lead must reach, negative when it must win by that much,
/// bounded by the board's area and 20 more. `komi` is Black's area komi; under territory
/// scoring White also gets one point for each stone Black has placed more than White
/// ([`stones_placed_lead`]), which turns a territory count into an area count.
pub fn self_komi(position: &Position<'_>, komi: f64) -> f32 {
    let mut white = komi as f32;
    if position.terms.rules.scoring == Scoring::Territory {
        white += stones_placed_lead(position) as f32;
    }
    let own = match position.to_move {
        Color::White => white,
        Color::Black => -white,
    };
    let size = position.board.size();
    let bound = (size * size) as f32 + KOMI_CLIP;
    own.clamp(-bound, bound)
}

/// How many more stones Black has placed in the game than White, handicap and captured
/// stones included: the moves of [`Position::recent`] counted as they are, and before them
/// play taken to have alternated from the start (the handicap stones, then White; without a
/// handicap, Black first). Two or more Black stones in a row at the start of those moves are
/// a handicap played as moves (as [`crate::game::Game::handicap`] reads them): before them,
/// only the rest of the handicap.
pub fn stones_placed_lead(position: &Position<'_>) -> i32 {
    let recent = position.recent;
    let handicap = position.terms.handicap as i32;
    let black_run = recent
        .iter()
        .rev()
        .take_while(|m| m.color == Color::Black && m.mv != Move::Pass)
        .count() as i32;
    let before = if black_run >= 2 {
        (handicap - black_run).max(0)
    } else {
        let to_move_then = recent.last().map_or(position.to_move, |m| m.color);
        (handicap - 1).max(0) + i32::from(to_move_then == Color::White)
    };
    let since: i32 = recent
        .iter()
        .map(|m| match (m.mv, m.color) {
            (Move::Pass, _) => 0,
            (Move::Play(_), Color::Black) => 1,
            (Move::Play(_), Color::White) => -1,
        })
        .sum();
    before + since
}

/// KataGo's komi parity wave (global 18): where `komi` (the side to move's) stands between
/// the komis that allow a draw on a board of `area` points (of the area's parity), as a
/// triangle wave of period 2: 0 at a drawable komi, rising to 0.5 half a point above it,
/// falling to -0.5 half a point below the next one. KataGo gives it because a point of komi
/// is worth much at one parity and little at the other.
pub fn komi_wave(komi: f32, area: usize) -> f32 {
    let floor = if area.is_multiple_of(2) {
        (komi / 2.0).floor() * 2.0
    } else {
        ((komi - 1.0) / 2.0).floor() * 2.0 + 1.0
    };
    let delta = (komi - floor).clamp(0.0, 2.0);
    if delta < 0.5 {
        delta
    } else if delta < 1.5 {
        1.0 - delta
    } else {
        delta - 2.0
    }
}

fn flag(on: bool) -> f32 {
    if on {
        1.0
    } else {
        0.0
    }
}

/// The spatial features being written.
struct Planes<'a> {
    geometry: Geometry,
    area: usize,
    data: &'a mut [f32],
}

impl<'a> Planes<'a> {
    /// Zeroes `data`, which must hold [`SPATIAL`] planes of the board's size.
    fn new(geometry: Geometry, data: &'a mut [f32]) -> Planes<'a> {
        let area = geometry.size() * geometry.size();
        assert_eq!(
            data.len(),
            SPATIAL * area,
            "KataGo's inputs are {SPATIAL} planes of {area} points"
        );
        data.fill(0.0);
        Planes {
            geometry,
            area,
            data,
        }
    }

    fn mark(&mut self, plane: usize, p: Point) {
        self.data[plane * self.area + plane_index(self.geometry, p)] = 1.0;
    }
}

/// Planes 0 to 5: the board, the stones, the chains short of liberties.
fn stones(planes: &mut Planes, board: &Board, own: Color) {
    for p in board.geometry().points() {
        planes.mark(ON_BOARD, p);
        let Some(color) = board.color_at(p) else {
            continue;
        };
        let side = if color == own {
            OWN_STONES
        } else {
            OPPONENT_STONES
        };
        planes.mark(side, p);
        if let libs @ 1..=3 = board.liberty_count(p) {
            planes.mark(ONE_LIBERTY + libs - 1, p);
        }
    }
}

/// Plane 6: the simple ko point (whoever it is forbidden to: KataGo's board does not say)
/// and, under a superko rule, the superko bans.
fn ko_bans(planes: &mut Planes, position: &Position<'_>, rules: &KataRules) {
    if let Some((p, _)) = position.board.ko() {
        planes.mark(KO_BANS, p);
    }
    if rules.ko != KataKo::Simple {
        for &p in position.superko_bans {
            planes.mark(KO_BANS, p);
        }
    }
}

/// Planes 18 and 19 under area scoring: each side's area as KataGo's `calculateArea` marks it
/// for its inputs, with `multi_stone_suicide` deciding what is pass-alive.
fn area(planes: &mut Planes, board: &Board, own: Color, multi_stone_suicide: bool) {
    let owners = crate::board::pass_alive::pass_alive_area(board, multi_stone_suicide);
    for p in board.geometry().points() {
        match owners[p.index()] {
            Some(c) if c == own => planes.mark(OWN_AREA, p),
            Some(_) => planes.mark(OPPONENT_AREA, p),
            None => {}
        }
    }
}

/// Where the game stands with passes, as KataGo's `BoardHistory` would say (no encore).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Passing {
    /// Passes at the end of the moves.
    passes: usize,
    rules: KataRules,
}

impl Passing {
    fn of(recent: &[Played], rules: &KataRules) -> Passing {
        Passing {
            passes: recent.iter().take_while(|m| m.mv == Move::Pass).count(),
            rules: *rules,
        }
    }

    /// Whether a pass now would end the phase (`passWouldEndPhase`): one pass already made.
    fn pass_ends_phase(self) -> bool {
        self.passes >= 1
    }

    /// Whether it would end the game (`passWouldEndGame`): under area scoring.
    fn pass_ends_game(self) -> bool {
        self.pass_ends_phase() && self.rules.scoring == Scoring::Area
    }

    /// Whether the game is already over (two passes under area scoring) or past its normal
    /// end (two passes under territory scoring, where KataGo's GTP plays no encore): either
    /// way the network sees the last pass alone.
    fn past_end(self) -> bool {
        self.passes >= 2
    }

    /// Whether KataGo plays on as if the opponent's pass did not invite the game's end,
    /// with dead stones left on the board: it then hides the history and the pass's effect
    /// (`shouldSuppressEndGameFromFriendlyPass`).
    fn hides_ending(self) -> bool {
        self.pass_ends_game() && self.rules.friendly_pass && self.passes == 1
    }

    /// How many of the last moves the network may see.
    fn turns_shown(self) -> usize {
        if self.hides_ending() {
            0
        } else if self.past_end() {
            1
        } else {
            HISTORY
        }
    }

    /// Global 14.
    fn shows_pass_ending(self) -> bool {
        self.pass_ends_phase() && !self.hides_ending()
    }
}

/// Planes 9 to 13 and globals 0 to 4: up to `limit` last moves, back from the opponent's
/// last move while the colours alternate. Returns how many were shown.
fn last_moves(
    planes: &mut Planes,
    global: &mut [f32; GLOBAL],
    position: &Position<'_>,
    limit: usize,
) -> usize {
    let opponent = position.to_move.opponent();
    let mut shown = 0;
    for (back, played) in position.recent.iter().take(limit).enumerate() {
        let expected = if back % 2 == 0 {
            opponent
        } else {
            position.to_move
        };
        if played.color != expected {
            break;
        }
        match played.mv {
            Move::Pass => global[LAST_MOVE_PASSED + back] = 1.0,
            Move::Play(p) => planes.mark(LAST_MOVE + back, p),
        }
        shown += 1;
    }
    shown
}

/// Planes 14 to 17: the laddered chains now and on the boards one and two moves back, and
/// the side to move's ataris that start a working ladder. A board back counts only where
/// the move that followed it shows in the history planes; otherwise (or where the position
/// lacks that board) the more recent board stands in for it, as in KataGo.
fn ladders(planes: &mut Planes, position: &Position<'_>, shown: usize) {
    let now = position.board;
    let opponent = position.to_move.opponent();
    for chain in ladders::caught_chains(now) {
        for s in now.chain_stones(chain.stone) {
            planes.mark(LADDERED_NOW, s);
        }
        if now.color_at(chain.stone) == Some(opponent) && now.liberty_count(chain.stone) > 1 {
            for &atari in &chain.catching_ataris {
                planes.mark(CATCHING_ATARIS, atari);
            }
        }
    }
    let earlier = |back: usize| position.earlier.get(back).filter(|_| shown > back);
    let one_back = earlier(0).unwrap_or(now);
    let two_back = earlier(1).unwrap_or(one_back);
    for (plane, board) in [(LADDERED_ONE_BACK, one_back), (LADDERED_TWO_BACK, two_back)] {
        for chain in ladders::caught_chains(board) {
            for s in board.chain_stones(chain.stone) {
                planes.mark(plane, s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, PositionFacts, Terms};

    /// The features of `game`'s position with `to_move` to play, at its own area komi.
    fn features(game: &Game, to_move: Color) -> (Vec<f32>, [f32; GLOBAL]) {
        let facts = PositionFacts::of(game, to_move, HISTORY, 2);
        let position = facts.position(game.board(), to_move);
        features_of(&position, game.area_komi(), &InputOptions::default())
    }

    fn features_of(
        position: &Position<'_>,
        komi: f64,
        options: &InputOptions,
    ) -> (Vec<f32>, [f32; GLOBAL]) {
        let size = position.board.size();
        let mut spatial = vec![f32::NAN; SPATIAL * size * size];
        let mut global = [f32::NAN; GLOBAL];
        fill(position, komi, options, &mut spatial, &mut global);
        (spatial, global)
    }

    /// The points marked on `plane`, by GTP names, in plane order; every value 0 or 1.
    fn marked(spatial: &[f32], size: usize, plane: usize) -> Vec<String> {
        let g = Geometry::new(size).unwrap();
        let values = &spatial[plane * size * size..(plane + 1) * size * size];
        assert!(values.iter().all(|&v| v == 0.0 || v == 1.0));
        values
            .iter()
            .enumerate()
            .filter(|(_, &v)| v == 1.0)
            .map(|(i, _)| g.name(plane_point(g, i)))
            .collect()
    }

    fn names(list: &str) -> Vec<String> {
        list.split_whitespace().map(String::from).collect()
    }

    /// A game on `size` lines under `rules` with the given stones and `to_move` to play.
    fn game_with(size: usize, rules: Ruleset, black: &str, white: &str, to_move: Color) -> Game {
        let mut game = Game::new(size, rules, rules.default_komi).unwrap();
        let g = game.board().geometry();
        let stones = black
            .split_whitespace()
            .map(|v| (g.parse_point(v).unwrap(), Color::Black))
            .chain(
                white
                    .split_whitespace()
                    .map(|v| (g.parse_point(v).unwrap(), Color::White)),
            );
        assert!(game.set_position(stones.collect::<Vec<_>>(), to_move));
        game
    }

    fn play(game: &mut Game, moves: &[(Color, &str)]) {
        for &(color, name) in moves {
            let mv = match name {
                "pass" => Move::Pass,
                _ => Move::Play(game.board().geometry().parse_point(name).unwrap()),
            };
            game.play(color, mv).unwrap();
        }
    }

    use Color::{Black, White};

    #[test]
    fn planes_run_from_the_top_row_down() {
        let g = Geometry::new(5).unwrap();
        let at = |name: &str| plane_index(g, g.parse_point(name).unwrap());
        assert_eq!(
            [at("A5"), at("E5"), at("A1"), at("E1"), at("B2")],
            [0, 4, 20, 24, 16]
        );
        for i in 0..25 {
            assert_eq!(plane_index(g, plane_point(g, i)), i);
        }
        let order: Vec<String> = plane_points(g).take(6).map(|p| g.name(p)).collect();
        assert_eq!(order, names("A5 B5 C5 D5 E5 A4"));
    }

    #[test]
    fn stones_and_their_liberties_from_the_side_to_moves_view() {
        //   5 . . . . .
        //   4 . . . . .
        //   3 . O . . .
        //   2 O X O . .
        //   1 . . . . .
        //     A B C D E
        let game = game_with(5, Ruleset::FRENCH, "B2", "A2 B3 C2", Black);
        let (spatial, _) = features(&game, Black);
        assert_eq!(marked(&spatial, 5, 0).len(), 25);
        assert_eq!(marked(&spatial, 5, 1), names("B2"));
        assert_eq!(marked(&spatial, 5, 2), names("B3 A2 C2"));
        assert_eq!(marked(&spatial, 5, 3), names("B2"));
        assert_eq!(marked(&spatial, 5, 4), names("A2"));
        assert_eq!(marked(&spatial, 5, 5), names("B3 C2"));
        let (spatial, _) = features(&game, White);
        assert_eq!(marked(&spatial, 5, 1), names("B3 A2 C2"));
        assert_eq!(marked(&spatial, 5, 2), names("B2"));
        assert_eq!(marked(&spatial, 5, 3), names("B2"));
    }

    #[test]
    fn the_ko_point_is_banned_after_a_ko_capture() {
        //   4 . . X O .        Black D3 takes C3: White may not retake at once.
        //   3 . X O . O
        //   2 . . X O .
        for rules in [Ruleset::JAPANESE, Ruleset::CHINESE, Ruleset::FRENCH] {
            let mut game = game_with(5, rules, "C4 B3 C2", "D4 C3 E3 D2", Black);
            play(&mut game, &[(Black, "D3")]);
            let (spatial, _) = features(&game, White);
            assert_eq!(marked(&spatial, 5, 6), names("C3"), "{rules}");
            // After a move elsewhere the ban is gone.
            play(&mut game, &[(White, "A1")]);
            let (spatial, _) = features(&game, Black);
            assert_eq!(marked(&spatial, 5, 6), names(""), "{rules}");
        }
    }

    #[test]
    fn superko_bans_show_only_under_a_superko_rule() {
        let (board, p) = crate::board::test_board(5, "C4", "D4");
        let bans = [p("A1"), p("E5")];
        let recent = [];
        for (rules, shown) in [
            (Ruleset::JAPANESE, ""),
            (Ruleset::CHINESE, "E5 A1"),
            (Ruleset::FRENCH, "E5 A1"),
            (Ruleset::NEW_ZEALAND, "E5 A1"),
        ] {
            let position = Position {
                superko_bans: &bans,
                terms: Terms {
                    rules,
                    komi: 7.5,
                    handicap: 0,
                },
                ..Position::of_stones(&board, Black, &recent)
            };
            let (spatial, _) = features_of(&position, 7.5, &InputOptions::default());
            assert_eq!(marked(&spatial, 5, 6), names(shown), "{rules}");
        }
    }

    #[test]
    fn the_last_moves_while_colours_alternate() {
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        play(
            &mut game,
            &[
                (Black, "A1"),
                (White, "J9"),
                (Black, "C3"),
                (White, "pass"),
                (Black, "D4"),
                (White, "E5"),
            ],
        );
        let (spatial, global) = features(&game, Black);
        assert_eq!(marked(&spatial, 9, 9), names("E5"));
        assert_eq!(marked(&spatial, 9, 10), names("D4"));
        assert_eq!(marked(&spatial, 9, 11), names(""));
        assert_eq!(marked(&spatial, 9, 12), names("C3"));
        assert_eq!(marked(&spatial, 9, 13), names("J9"));
        assert_eq!(global[..5], [0.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(global[PASS_ENDS], 0.0);

        // Black twice in a row: the history stops at the repeat.
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        play(
            &mut game,
            &[(White, "A1"), (Black, "C3"), (Black, "D4"), (White, "E5")],
        );
        let (spatial, global) = features(&game, Black);
        assert_eq!(marked(&spatial, 9, 9), names("E5"));
        assert_eq!(marked(&spatial, 9, 10), names("D4"));
        for plane in 11..14 {
            assert_eq!(marked(&spatial, 9, plane), names(""));
        }
        assert_eq!(global[..5], [0.0; 5]);

        // The side to move moved last: nothing shows.
        let (spatial, _) = features(&game, White);
        for plane in 9..14 {
            assert_eq!(marked(&spatial, 9, plane), names(""));
        }
    }

    #[test]
    fn a_pass_shows_or_hides_as_the_rules_friendly_pass_says() {
        let moves = [(Black, "C3"), (White, "D4"), (Black, "pass")];
        // Tromp-Taylor and CGOS count every stone left: the pass shows, and another would end
        // the game.
        for rules in [Ruleset::TROMP_TAYLOR, Ruleset::CGOS] {
            let mut game = Game::new(9, rules, 7.5).unwrap();
            play(&mut game, &moves);
            let (spatial, global) = features(&game, White);
            assert_eq!(global[..5], [1.0, 0.0, 0.0, 0.0, 0.0], "{rules}");
            assert_eq!(marked(&spatial, 9, 10), names("D4"), "{rules}");
            assert_eq!(marked(&spatial, 9, 11), names("C3"), "{rules}");
            assert_eq!(global[PASS_ENDS], 1.0, "{rules}");
        }
        // Area rules with dead stones taken off: KataGo plays on as if the pass did not invite
        // the end, and hides the history.
        for rules in [
            Ruleset::FRENCH,
            Ruleset::CHINESE,
            Ruleset::AGA,
            Ruleset::NEW_ZEALAND,
        ] {
            let mut game = Game::new(9, rules, 7.5).unwrap();
            play(&mut game, &moves);
            let (spatial, global) = features(&game, White);
            assert_eq!(global[..5], [0.0; 5], "{rules}");
            for plane in 9..14 {
                assert_eq!(marked(&spatial, 9, plane), names(""), "{rules}");
            }
            assert_eq!(global[PASS_ENDS], 0.0, "{rules}");
        }
        // Japanese: a second pass would end the phase, not the game; nothing is hidden.
        let mut game = Game::new(9, Ruleset::JAPANESE, 6.5).unwrap();
        play(&mut game, &moves);
        let (spatial, global) = features(&game, White);
        assert_eq!(global[..5], [1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(marked(&spatial, 9, 10), names("D4"));
        assert_eq!(global[PASS_ENDS], 1.0);
    }

    #[test]
    fn after_two_passes_only_the_last_shows() {
        for rules in [Ruleset::FRENCH, Ruleset::TROMP_TAYLOR] {
            let mut game = Game::new(9, rules, 7.5).unwrap();
            play(
                &mut game,
                &[(Black, "C3"), (White, "pass"), (Black, "pass")],
            );
            let (_, global) = features(&game, White);
            assert_eq!(global[..5], [1.0, 0.0, 0.0, 0.0, 0.0], "{rules}");
            assert_eq!(global[PASS_ENDS], 1.0, "{rules}");
        }
    }

    /// Black C4 D5 E3 around White D4 (liberties D3 and E4): an atari on either side
    /// starts a working ladder on the empty board.
    fn ladder_game() -> Game {
        game_with(9, Ruleset::FRENCH, "C4 D5 E3", "D4", Black)
    }

    #[test]
    fn ladders_now_and_the_ataris_that_start_them() {
        let game = ladder_game();
        let (spatial, _) = features(&game, Black);
        assert_eq!(marked(&spatial, 9, 14), names("D4"));
        assert_eq!(marked(&spatial, 9, 17), names("E4 D3"));
        // No history: the boards back are this one.
        assert_eq!(marked(&spatial, 9, 15), names("D4"));
        assert_eq!(marked(&spatial, 9, 16), names("D4"));
        // White to move: the chain is its own, no atari of White's to show.
        let (spatial, _) = features(&game, White);
        assert_eq!(marked(&spatial, 9, 14), names("D4"));
        assert_eq!(marked(&spatial, 9, 17), names(""));
        // A breaker on one ladder's path leaves the other atari.
        let game = game_with(9, Ruleset::FRENCH, "C4 D5 E3", "D4 G7", Black);
        let (spatial, _) = features(&game, Black);
        assert_eq!(marked(&spatial, 9, 14), names("D4"));
        assert_eq!(marked(&spatial, 9, 17), names("E4"));
        // And a breaker on each, none.
        let game = game_with(9, Ruleset::FRENCH, "C4 D5 E3", "D4 G7 B2", Black);
        let (spatial, _) = features(&game, Black);
        assert_eq!(marked(&spatial, 9, 14), names(""));
        assert_eq!(marked(&spatial, 9, 17), names(""));
    }

    #[test]
    fn ladders_one_and_two_moves_back() {
        // Black ataris at D3 (a working ladder), White plays the breaker G7: D4, in atari,
        // escapes now; it was caught one move back and had a working atari two moves back.
        let mut game = ladder_game();
        play(&mut game, &[(Black, "D3"), (White, "G7")]);
        let (spatial, _) = features(&game, Black);
        assert_eq!(marked(&spatial, 9, 14), names(""));
        assert_eq!(marked(&spatial, 9, 15), names("D4"));
        assert_eq!(marked(&spatial, 9, 16), names("D4"));
        // With White to move again the history shows nothing, and the boards back are the
        // present one.
        let (spatial, _) = features(&game, White);
        assert_eq!(marked(&spatial, 9, 15), names(""));
        assert_eq!(marked(&spatial, 9, 16), names(""));
    }

    #[test]
    fn a_missing_earlier_board_is_the_more_recent_one() {
        let mut game = ladder_game();
        play(&mut game, &[(Black, "D3"), (White, "G7")]);
        let facts = PositionFacts::of(&game, Black, HISTORY, 1);
        let position = facts.position(game.board(), Black);
        let (spatial, _) = features_of(&position, 7.5, &InputOptions::default());
        assert_eq!(marked(&spatial, 9, 15), names("D4"));
        assert_eq!(marked(&spatial, 9, 16), names("D4"));
        let facts = PositionFacts::of(&game, Black, HISTORY, 0);
        let position = facts.position(game.board(), Black);
        let (spatial, _) = features_of(&position, 7.5, &InputOptions::default());
        assert_eq!(marked(&spatial, 9, 15), names(""));
        assert_eq!(marked(&spatial, 9, 16), names(""));
    }

    #[test]
    fn komi_for_each_colour_with_a_handicap_under_area_scoring() {
        // Chinese rules pay White one point a handicap stone: komi 7.5 + 4.
        let mut game = Game::new(9, Ruleset::CHINESE, 7.5).unwrap();
        game.fixed_handicap(4).unwrap();
        assert_eq!(game.area_komi(), 11.5);
        let (_, global) = features(&game, White);
        assert_eq!(global[KOMI], 11.5 / 20.0);
        // 81 points: the drawable komis are odd; 11.5 is half a point above one.
        assert_eq!(global[KOMI_WAVE], 0.5);
        let (_, global) = features(&game, Black);
        assert_eq!(global[KOMI], -11.5 / 20.0);
        assert_eq!(global[KOMI_WAVE], -0.5);
    }

    #[test]
    fn komi_under_territory_scoring_counts_the_stones_placed() {
        let mut game = Game::new(9, Ruleset::JAPANESE, 0.5).unwrap();
        game.fixed_handicap(4).unwrap();
        // White to move after four handicap stones: 0.5 + 4.
        let (_, global) = features(&game, White);
        assert_eq!(global[KOMI], 4.5 / 20.0);
        assert_eq!(global[KOMI_WAVE], 0.0);
        // White has played one, Black none since: 0.5 + 3, for Black.
        play(&mut game, &[(White, "E5")]);
        let (_, global) = features(&game, Black);
        assert_eq!(global[KOMI], -3.5 / 20.0);
        // A pass places nothing.
        play(&mut game, &[(Black, "pass")]);
        let (_, global) = features(&game, White);
        assert_eq!(global[KOMI], 3.5 / 20.0);
        // Even game, Black to move first, then White: 6.5, then 6.5 + 1.
        let mut game = Game::new(9, Ruleset::JAPANESE, 6.5).unwrap();
        let (_, global) = features(&game, Black);
        assert_eq!(global[KOMI], -6.5 / 20.0);
        play(&mut game, &[(Black, "E5")]);
        let (_, global) = features(&game, White);
        assert_eq!(global[KOMI], 7.5 / 20.0);
        // Before the moves the position holds, play is taken to have alternated: eight
        // moves, four each, one of White's captured (the stones on the board would say
        // Black leads by one).
        let mut game = Game::new(9, Ruleset::JAPANESE, 6.5).unwrap();
        play(
            &mut game,
            &[
                (Black, "E5"),
                (White, "A1"),
                (Black, "A2"),
                (White, "G7"),
                (Black, "B1"),
                (White, "C7"),
                (Black, "G3"),
                (White, "D7"),
            ],
        );
        assert_eq!(game.board().stones(Black) - game.board().stones(White), 1);
        let (_, global) = features(&game, Black);
        assert_eq!(global[KOMI], -6.5 / 20.0);
        // A handicap played as moves: three Black stones, then White to move: 0.5 + 3.
        let mut game = Game::new(9, Ruleset::JAPANESE, 0.5).unwrap();
        play(&mut game, &[(Black, "C3"), (Black, "G7"), (Black, "C7")]);
        assert_eq!(game.handicap(), 3);
        let (_, global) = features(&game, White);
        assert_eq!(global[KOMI], 3.5 / 20.0);
    }

    #[test]
    fn komi_is_bounded_by_the_boards_area() {
        let game = Game::new(9, Ruleset::CHINESE, 7.5).unwrap();
        let facts = PositionFacts::of(&game, White, HISTORY, 2);
        let position = facts.position(game.board(), White);
        let (_, global) = features_of(&position, 1000.0, &InputOptions::default());
        assert_eq!(global[KOMI], 101.0 / 20.0);
        let (_, global) = features_of(&position, -1000.0, &InputOptions::default());
        assert_eq!(global[KOMI], -101.0 / 20.0);
    }

    #[test]
    fn the_komi_wave_follows_the_boards_parity() {
        // Odd area: drawable komis are odd.
        let odd: Vec<f32> = [7.0, 7.5, 8.0, 8.5, 9.0, -7.5, -6.5, 0.0]
            .iter()
            .map(|&k| komi_wave(k, 361))
            .collect();
        assert_eq!(odd, [0.0, 0.5, 0.0, -0.5, 0.0, -0.5, 0.5, 0.0]);
        // Even area: drawable komis are even.
        let even: Vec<f32> = [7.0, 7.5, 8.0, 6.5, 0.25, -0.5]
            .iter()
            .map(|&k| komi_wave(k, 64))
            .collect();
        assert_eq!(even, [0.0, -0.5, 0.0, 0.5, 0.25, -0.5]);
    }

    #[test]
    fn each_preset_as_katagos_rules() {
        use KataKo::*;
        let expected = [
            // ko, territory, tax (seki), suicide, friendly pass
            (Ruleset::FRENCH, Situational, false, false, false, true),
            (Ruleset::CHINESE, Positional, false, false, false, true),
            (Ruleset::JAPANESE, Simple, true, true, false, false),
            (Ruleset::AGA, Situational, false, false, false, true),
            (Ruleset::NEW_ZEALAND, Situational, false, false, true, true),
            (Ruleset::TROMP_TAYLOR, Positional, false, false, true, false),
            (Ruleset::CGOS, Positional, false, false, false, false),
        ];
        assert_eq!(expected.len(), Ruleset::PRESETS.len());
        for (rules, ko, territory, seki, suicide, friendly) in expected {
            let kata = KataRules::of(&rules);
            assert_eq!(kata.ko, ko, "{rules}");
            assert_eq!(kata.scoring == Scoring::Territory, territory, "{rules}");
            assert_eq!(
                kata.tax,
                if seki { Tax::Seki } else { Tax::None },
                "{rules}"
            );
            assert_eq!(kata.multi_stone_suicide, suicide, "{rules}");
            assert_eq!(kata.friendly_pass, friendly, "{rules}");

            let game = Game::new(9, rules, 7.5).unwrap();
            let (_, global) = features(&game, Black);
            let ko_globals = match ko {
                Simple => [0.0, 0.0],
                Positional => [1.0, 0.5],
                Situational => [1.0, -0.5],
            };
            let expected_globals = [
                ko_globals[0],
                ko_globals[1],
                flag(suicide),
                flag(territory),
                flag(seki),
                0.0,
                0.0,
                0.0,
            ];
            assert_eq!(global[6..14], expected_globals, "{rules}");
            assert_eq!(global[17], 0.0, "{rules}");
        }
    }

    #[test]
    fn an_empty_board_at_the_start() {
        let game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let (spatial, global) = features(&game, Black);
        assert_eq!(marked(&spatial, 9, 0).len(), 81);
        for plane in 1..SPATIAL {
            assert_eq!(marked(&spatial, 9, plane), names(""), "plane {plane}");
        }
        let mut expected = [0.0; GLOBAL];
        expected[KOMI] = -7.5 / 20.0;
        expected[SUPERKO] = 1.0;
        expected[SUPERKO_KIND] = -0.5;
        expected[KOMI_WAVE] = -0.5;
        assert_eq!(global, expected);
    }

    #[test]
    fn playout_doubling_advantage() {
        let game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let facts = PositionFacts::of(&game, Black, HISTORY, 2);
        let position = facts.position(game.board(), Black);
        let options = InputOptions {
            playout_doubling_advantage: 1.5,
            ..InputOptions::default()
        };
        let (_, global) = features_of(&position, 7.5, &options);
        assert_eq!(global[15..17], [1.0, 0.75]);
    }
}
