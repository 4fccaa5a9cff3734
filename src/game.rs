//! The game record above the board: whose turn it is, the moves played with every position
//! they produced, consecutive passes, prisoners, handicap stones, komi and the ruleset. This is
//! where the full repetition rule (superko in its several forms) is enforced and where
//! `undo` restores any earlier state exactly.
//!
//! Every entry of the history keeps the complete state *before* its move. A board is a small
//! value, so this costs a few kilobytes a move and makes undo trivially exact (hash,
//! ko point and prisoners included); it also lets superko compare whole positions, not only
//! their hashes, so a hash collision can never forbid a legal move.

use crate::board::{Board, Illegal, MoveEffect};
use crate::coord::{Color, Move, Point, Vertex};
use crate::handicap::{self, HandicapError};
use crate::rules::{KoRule, Ruleset, Scoring};
use crate::score::{self, Adjustments, Score, Status};

/// The part of the game that changes with every move.
#[derive(Clone, Debug)]
struct State {
    board: Board,
    to_move: Color,
    /// Passes at the end of the move sequence (two end the game).
    passes: u32,
    /// Stones captured by Black and by White.
    prisoners: [usize; 2],
}

/// One move of the game, with the state before it.
#[derive(Clone, Debug)]
pub struct Turn {
    pub color: Color,
    pub mv: Move,
    before: State,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Ruleset,
    komi: f64,
    /// Stones placed as handicap (fixed, free or set by the controller) before the first move.
    handicap: Vec<Point>,
    /// The state once setup and handicap stones are on: where `history` starts.
    start: State,
    history: Vec<Turn>,
    current: State,
}

/// Where an earlier position came from, for the repetition rules.
struct Earlier<'a> {
    board: &'a Board,
    /// The player whose move produced it, and whether that move placed a stone. `None` for
    /// the starting position when nobody placed anything.
    produced_by: Option<(Color, bool)>,
    to_move: Color,
}

impl Game {
    /// A new game on an empty `size`×`size` board; `None` for a size outside 2..=25.
    pub fn new(size: usize, rules: Ruleset, komi: f64) -> Option<Game> {
        let mut board = Board::new(size)?;
        board.set_multi_stone_suicide(rules.multi_stone_suicide);
        let state = State {
            board,
            to_move: Color::Black,
            passes: 0,
            prisoners: [0; 2],
        };
        Some(Game {
            rules,
            komi,
            handicap: Vec::new(),
            start: state.clone(),
            history: Vec::new(),
            current: state,
        })
    }

    /// The same game settings on an empty board (GTP `clear_board`: komi and rules stay).
    pub fn clear(&mut self) {
        if let Some(fresh) = Game::new(self.size(), self.rules, self.komi) {
            *self = fresh;
        }
    }

    /// Empties the board and changes its size; komi and rules stay. `false` (and nothing
    /// changed) for a size outside 2..=25.
    pub fn resize(&mut self, size: usize) -> bool {
        match Game::new(size, self.rules, self.komi) {
            Some(fresh) => {
                *self = fresh;
                true
            }
            None => false,
        }
    }

    pub fn board(&self) -> &Board {
        &self.current.board
    }

    pub fn size(&self) -> usize {
        self.current.board.size()
    }

    pub fn rules(&self) -> Ruleset {
        self.rules
    }

    /// Changes the ruleset for the rest of the game (the moves already played stay).
    pub fn set_rules(&mut self, rules: Ruleset) {
        self.rules = rules;
        for state in std::iter::once(&mut self.start)
            .chain(self.history.iter_mut().map(|t| &mut t.before))
            .chain(std::iter::once(&mut self.current))
        {
            state
                .board
                .set_multi_stone_suicide(rules.multi_stone_suicide);
        }
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// What Black's area lead (stones and surrounded points, as the playouts count) must
    /// exceed for Black to win: the komi, plus White's handicap bonus under area scoring.
    /// Under territory scoring the playouts' area count stands in for the territory count,
    /// and the handicap is in the stones themselves.
    pub fn area_komi(&self) -> f64 {
        self.terms().area_komi()
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Color {
        self.current.to_move
    }

    /// Consecutive passes at the end of the game so far.
    pub fn passes(&self) -> u32 {
        self.current.passes
    }

    /// Whether two passes in a row have ended the game.
    pub fn is_over(&self) -> bool {
        self.current.passes >= 2
    }

    /// Stones captured by `color`.
    pub fn prisoners(&self, color: Color) -> usize {
        self.current.prisoners[color.index()]
    }

    /// The position the move history starts from (after setup and handicap stones), and
    /// the player to move there.
    pub fn start(&self) -> (&Board, Color) {
        (&self.start.board, self.start.to_move)
    }

    /// The moves played since the start (handicap stones are not moves).
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    /// The last `count` moves (passes included), the most recent first: what the priors and
    /// the policy network look at.
    pub fn recent_moves(&self, count: usize) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().rev().take(count).map(|t| t.mv)
    }

    /// The last `count` moves with their colours, the most recent first.
    pub fn recent_played(&self, count: usize) -> impl Iterator<Item = Played> + '_ {
        let played = |t: &Turn| Played {
            color: t.color,
            mv: t.mv,
        };
        self.history.iter().rev().take(count).map(played)
    }

    /// The boards before the last `count` moves, the most recent first: the one the last
    /// move was played on first.
    pub fn earlier_boards(&self, count: usize) -> impl Iterator<Item = &Board> + '_ {
        self.history
            .iter()
            .rev()
            .take(count)
            .map(|t| &t.before.board)
    }

    /// The points where `color` may not play now only because the move would repeat an
    /// earlier position under the superko rule: legal by the board alone, simple ko
    /// included. None under simple ko.
    pub fn superko_bans(&self, color: Color) -> Vec<Point> {
        if self.rules.ko == KoRule::Simple {
            return Vec::new();
        }
        let board = &self.current.board;
        let g = board.geometry();
        g.points()
            .filter(|&p| board.check(color, p).is_ok() && self.repeats(color, p))
            .collect()
    }

    /// The rules, the komi and the handicap the game is played under.
    pub fn terms(&self) -> Terms {
        Terms {
            rules: self.rules,
            komi: self.komi,
            handicap: self.handicap(),
        }
    }

    /// The move played `k` moves ago (1: the last one), or a pass before the first move.
    pub fn nth_last_move(&self, k: usize) -> Move {
        k.checked_sub(1)
            .and_then(|skip| self.recent_moves(k).nth(skip))
            .unwrap_or(Move::Pass)
    }

    /// Number of moves played (passes included).
    pub fn move_number(&self) -> usize {
        self.history.len()
    }

    /// The stones placed as handicap before the first move.
    pub fn handicap_stones(&self) -> &[Point] {
        &self.handicap
    }

    /// The handicap for scoring: the stones placed as handicap, or else the number of Black
    /// stones played in a row at the very start when there are two or more (controllers
    /// that know no handicap command send them as plain moves).
    pub fn handicap(&self) -> usize {
        if !self.handicap.is_empty() {
            return self.handicap.len();
        }
        let leading = self
            .history
            .iter()
            .take_while(|t| t.color == Color::Black && matches!(t.mv, Move::Play(_)))
            .count();
        if leading >= 2 {
            leading
        } else {
            0
        }
    }

    /// Why `color` may not play `mv` now, if it may not.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        let Move::Play(p) = mv else {
            return Ok(());
        };
        let board = &self.current.board;
        if !board.geometry().is_on_board(p) {
            return Err(Illegal::OffBoard);
        }
        if self.rules.ko == KoRule::Simple {
            return board.check(color, p);
        }
        board.check_ignoring_ko(color, p)?;
        if self.repeats(color, p) {
            let simple_ko = board.ko() == Some((p, color));
            return Err(if simple_ko {
                Illegal::Ko
            } else {
                Illegal::Superko
            });
        }
        Ok(())
    }

    /// Whether `mv` is legal for `color` now.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv).is_ok()
    }

    /// Every point where `color` may play now, in board order.
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        let g = self.current.board.geometry();
        g.points()
            .filter(|&p| self.is_legal(color, Move::Play(p)))
            .collect()
    }

    /// Plays `mv` for `color` (who need not be the player to move: GTP lets a color play
    /// twice) if the rules allow it; on refusal nothing changes.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<MoveEffect, Illegal> {
        self.check(color, mv)?;
        let before = self.current.clone();
        let state = &mut self.current;
        let effect = match mv {
            Move::Pass => {
                state.board.pass();
                state.passes += 1;
                MoveEffect::default()
            }
            Move::Play(p) => {
                // Legality is settled above, by the full ruleset: under a superko rule a
                // retake that the simple ko point would refuse may be legal.
                let effect = state.board.place(color, p);
                state.passes = 0;
                state.prisoners[color.index()] += effect.captured as usize;
                state.prisoners[color.opponent().index()] += effect.suicided as usize;
                effect
            }
        };
        state.to_move = color.opponent();
        self.history.push(Turn { color, mv, before });
        Ok(effect)
    }

    /// Takes back the last move; `false` when there is none (handicap stones stay).
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(turn) => {
                self.current = turn.before;
                true
            }
            None => false,
        }
    }

    /// Whether placing stones as handicap is still possible: nothing on the board, no move.
    fn can_place_handicap(&self) -> bool {
        self.history.is_empty()
            && self.current.board.empty_points().len() == self.size() * self.size()
    }

    /// Places Black's handicap stones on the given points; then White moves. Refused (and
    /// nothing changed) on a board that is not empty, with repeated or off-board points, or
    /// with fewer than 2 or more than size²-1 stones.
    pub fn set_handicap(&mut self, vertices: &[Vertex]) -> Result<(), HandicapError> {
        if !self.can_place_handicap() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let g = self.current.board.geometry();
        let size = self.size();
        if vertices.len() < 2 || vertices.len() >= size * size {
            return Err(HandicapError::BadVertexList);
        }
        let mut board = self.current.board.clone();
        let mut points = Vec::with_capacity(vertices.len());
        for &v in vertices {
            let p = g.try_point(v).ok_or(HandicapError::BadVertexList)?;
            if board.check(Color::Black, p).is_err() {
                return Err(HandicapError::BadVertexList);
            }
            board.place(Color::Black, p);
            points.push(p);
        }
        self.current.board = board;
        self.current.to_move = Color::White;
        self.start = self.current.clone();
        self.handicap = points;
        Ok(())
    }

    /// The fixed handicap of GTP §4.1.1 (star points). Returns the vertices placed.
    pub fn fixed_handicap(&mut self, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
        if !self.can_place_handicap() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let vertices = handicap::fixed(self.size(), stones)?;
        self.set_handicap(&vertices)?;
        Ok(vertices)
    }

    /// A handicap placed where the engine chooses. Returns the vertices placed.
    pub fn free_handicap(&mut self, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
        if !self.can_place_handicap() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let vertices = handicap::free(self.size(), stones)?;
        self.set_handicap(&vertices)?;
        Ok(vertices)
    }

    /// Replaces the position with the given stones (SGF setup: AB, AW, AE) and `to_move`,
    /// forgetting the history. Refused when two stones share a point.
    pub fn set_position(
        &mut self,
        stones: impl IntoIterator<Item = (Point, Color)>,
        to_move: Color,
    ) -> bool {
        let Some(mut board) = Board::from_stones(self.size(), stones) else {
            return false;
        };
        board.set_multi_stone_suicide(self.rules.multi_stone_suicide);
        self.current = State {
            board,
            to_move,
            passes: 0,
            prisoners: [0; 2],
        };
        self.start = self.current.clone();
        self.history.clear();
        self.handicap.clear();
        true
    }

    /// The count under the game's ruleset, given the stones judged dead and in seki.
    /// Tromp-Taylor removes nothing: every stone on the board counts.
    pub fn score(&self, status: &Status) -> Score {
        let status = if self.rules.dead_stone_removal {
            *status
        } else {
            Status::default()
        };
        let adjust = Adjustments {
            komi: self.komi,
            handicap_bonus: self.rules.handicap_bonus.points(self.handicap()),
            prisoners: self.current.prisoners,
        };
        score::count(&self.current.board, &status, self.rules.scoring, adjust)
    }

    /// Whether a stone of `color` on `p` would produce a position the repetition rule
    /// forbids. Hashes sift the history; a position whose hash matches is then compared
    /// stone by stone, so a hash collision can never forbid a legal move.
    fn repeats(&self, color: Color, p: Point) -> bool {
        let board = &self.current.board;
        let hash = board.hash_after(color, p);
        let mut after: Option<Board> = None;
        self.earlier_positions().any(|earlier| {
            let same_situation = match self.rules.ko {
                KoRule::Simple | KoRule::Positional => true,
                KoRule::Situational => earlier.to_move == color.opponent(),
                KoRule::NaturalSituational => earlier.produced_by == Some((color, true)),
            };
            same_situation
                && earlier.board.hash() == hash
                && earlier.board.same_stones(after.get_or_insert_with(|| {
                    let mut b = board.clone();
                    b.place(color, p);
                    b
                }))
        })
    }

    /// The positions of the game so far, from the start: each with who produced it and
    /// who was to move after it.
    fn earlier_positions(&self) -> impl Iterator<Item = Earlier<'_>> {
        let start = Earlier {
            board: &self.start.board,
            // Black placed the handicap stones: that position is his (FFG: the handicap is
            // Black's first move).
            produced_by: (!self.handicap.is_empty()).then_some((Color::Black, true)),
            to_move: self.start.to_move,
        };
        let after_moves = self.history.iter().enumerate().map(|(i, turn)| {
            let board = match self.history.get(i + 1) {
                Some(next) => &next.before.board,
                None => &self.current.board,
            };
            Earlier {
                board,
                produced_by: Some((turn.color, matches!(turn.mv, Move::Play(_)))),
                to_move: turn.color.opponent(),
            }
        });
        std::iter::once(start).chain(after_moves)
    }
}

/// A move with the colour that played it: what a network reads of a game's history (two
/// moves of one colour in a row, a handicap placed as moves, a pass, all read as played).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    pub color: Color,
    pub mv: Move,
}

/// What a game is played under beyond its stones: the rules, the komi and the handicap,
/// which the rules may pay White for. Every position of a game shares them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terms {
    pub rules: Ruleset,
    /// The komi as set (White's compensation, the handicap bonus apart).
    pub komi: f64,
    /// The handicap for scoring ([`Game::handicap`]).
    pub handicap: usize,
}

impl Default for Terms {
    /// French rules, their komi, no handicap.
    fn default() -> Self {
        Terms {
            rules: Ruleset::FRENCH,
            komi: Ruleset::FRENCH.default_komi,
            handicap: 0,
        }
    }
}

impl Terms {
    /// What Black's area lead must exceed for Black to win ([`Game::area_komi`]).
    pub fn area_komi(&self) -> f64 {
        match self.rules.scoring {
            Scoring::Area => self.komi + self.rules.handicap_bonus.points(self.handicap),
            Scoring::Territory => self.komi,
        }
    }
}

/// A position to judge, with everything a network or a prior source may read of it (as
/// KataGo's inputs read a `BoardHistory`): the stones, the side to move, the moves before
/// it with their colours and the boards they made, the repetition bans in force, and the
/// game's terms (rules, komi, handicap). Each reader reads what it needs: `.hnet` the
/// stones, the side to move and the last moves; the hand-made priors the last two moves.
#[derive(Clone, Copy)]
pub struct Position<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    /// The moves before the position, the most recent first (passes count; fewer at the
    /// start of a game). Those who read them read as many as they need; there are as many
    /// as the knowledge asks for ([`crate::knowledge::Knowledge::history`]).
    pub recent: &'a [Played],
    /// The boards before the position, the most recent first: `earlier[0]` is the board
    /// `recent[0]` was played on. As many as the knowledge asks for
    /// ([`crate::knowledge::Knowledge::earlier_boards`]; none by default), fewer at the
    /// start of a game.
    pub earlier: &'a [Board],
    /// The points where the side to move may not play because the move would repeat an
    /// earlier position under the game's superko rule, beside the simple ko the board keeps
    /// ([`Board::ko`]). Known at a search's root; inside its tree, under simple ko, none.
    pub superko_bans: &'a [Point],
    pub terms: Terms,
}

impl<'a> Position<'a> {
    /// A position known by its stones, its side to move and its last moves alone, under
    /// the default terms (French rules, komi 7.5, no handicap), no earlier board and no
    /// superko ban: for tools and tests that judge stones (a record's positions).
    pub fn of_stones(board: &'a Board, to_move: Color, recent: &'a [Played]) -> Position<'a> {
        Position {
            board,
            to_move,
            recent,
            earlier: &[],
            superko_bans: &[],
            terms: Terms::default(),
        }
    }
}

impl Position<'_> {
    /// The `n`th move before the position (1 the last), a pass if there is none.
    pub fn nth_last(&self, n: usize) -> Move {
        n.checked_sub(1)
            .and_then(|i| self.recent.get(i))
            .map_or(Move::Pass, |played| played.mv)
    }
}

/// The facts of a position of `game` that its board does not hold, gathered to build a
/// [`Position`]: its last moves, the boards before them and the superko bans.
pub struct PositionFacts {
    pub recent: Vec<Played>,
    pub earlier: Vec<Board>,
    pub superko_bans: Vec<Point>,
    pub terms: Terms,
}

impl PositionFacts {
    /// `game`'s current position with `to_move` to play, with `moves` moves and `boards`
    /// earlier boards.
    pub fn of(game: &Game, to_move: Color, moves: usize, boards: usize) -> PositionFacts {
        PositionFacts {
            recent: game.recent_played(moves).collect(),
            earlier: game.earlier_boards(boards).cloned().collect(),
            superko_bans: game.superko_bans(to_move),
            terms: game.terms(),
        }
    }

    /// The position these facts complete, on `board` with `to_move` to play.
    pub fn position<'a>(&'a self, board: &'a Board, to_move: Color) -> Position<'a> {
        Position {
            board,
            to_move,
            recent: &self.recent,
            earlier: &self.earlier,
            superko_bans: &self.superko_bans,
            terms: self.terms,
        }
    }
}
