//! The copy-make board: stones, chains with exact liberty counts, captures, suicide, the simple
//! ko point and an incremental Zobrist hash.
//!
//! A [`Board`] is a plain value made of fixed arrays (no heap), so a search copies it and plays
//! on the copy instead of ever undoing a move. It knows nothing of history: superko, komi,
//! prisoners and whose turn it is belong to the game record (`Game`, a layer above).
//!
//! Chains are kept as circular linked lists of stones with one representative (the *head*);
//! the liberty count of a chain is stored on its head and is exact (distinct empty points),
//! maintained incrementally:
//! * placing a stone takes one liberty from each distinct neighbouring chain;
//! * merging chains adds to the larger one the liberties of the smaller one it did not have,
//!   found by looking at the smaller chain's stones only;
//! * removing a captured chain gives one liberty per removed stone to each distinct
//!   neighbouring chain.

pub mod capture;
pub mod ladder;
pub mod nakade;
pub mod pass_alive;
pub mod tactics;
pub mod zobrist;

use crate::coord::{Color, Geometry, Move, Point, Vertex, SLOTS};
use std::fmt;

/// What occupies a slot of the padded board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Border = 3,
}

impl Cell {
    /// The cell holding a stone of `color`.
    #[inline]
    pub fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The color of the stone here, if any.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }

    #[inline]
    pub fn is_stone(self) -> bool {
        matches!(self, Cell::Black | Cell::White)
    }
}

/// Why a move is refused. The board itself detects the first three; superko needs the game's
/// history and is reported by the game record (`Game`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The point is not on this board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The stone would have no liberty and would capture nothing (or, where multi-stone
    /// suicide is allowed, it would be a one-stone suicide).
    Suicide,
    /// Immediate recapture of a simple ko.
    Ko,
    /// The move would repeat an earlier whole-board position the ruleset forbids.
    Superko,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off board",
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "superko",
        })
    }
}

impl std::error::Error for Illegal {}

/// What [`Board::verify`] found wrong: the first structure kept incrementally that differs
/// from a recomputation from scratch, and where. A bug, never a user's mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inconsistency {
    /// The stones do not make a board at all.
    BadStones,
    /// The Zobrist hash kept and the one recomputed.
    Hash {
        kept: u64,
        recomputed: u64,
    },
    StoneCounts,
    /// An empty point with a chain head.
    EmptyWithHead(Vertex),
    NeighbourCounts(Vertex),
    EmptyLists,
    EmptySlot(Vertex),
    /// A stone whose chain head is of another color.
    HeadColor(Vertex),
    ChainStones(Vertex),
    /// Stones of one chain with different heads.
    Heads(Vertex),
    /// The chain length kept for the stone's chain.
    ChainLength(Vertex, usize),
    Liberties {
        at: Vertex,
        kept: usize,
        recounted: usize,
    },
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inconsistency::BadStones => f.write_str("bad stones"),
            Inconsistency::Hash { kept, recomputed } => {
                write!(f, "hash {kept:x} != {recomputed:x}")
            }
            Inconsistency::StoneCounts => f.write_str("stone counts differ"),
            Inconsistency::EmptyWithHead(v) => write!(f, "{v} is empty but has a chain head"),
            Inconsistency::NeighbourCounts(v) => write!(f, "neighbour counts of {v} differ"),
            Inconsistency::EmptyLists => f.write_str("empty lists differ"),
            Inconsistency::EmptySlot(v) => write!(f, "empty slot of {v} wrong"),
            Inconsistency::HeadColor(v) => write!(f, "{v}: head of another color"),
            Inconsistency::ChainStones(v) => write!(f, "{v}: chain stones differ"),
            Inconsistency::Heads(v) => write!(f, "{v}: stones with different heads"),
            Inconsistency::ChainLength(v, length) => write!(f, "{v}: chain length {length}"),
            Inconsistency::Liberties {
                at,
                kept,
                recounted,
            } => write!(f, "{at}: {kept} liberties, recount says {recounted}"),
        }
    }
}

impl std::error::Error for Inconsistency {}

/// A position: the stones on a board of a given size, with what fast play needs.
#[derive(Clone)]
pub struct Board {
    geometry: Geometry,
    /// Whether a move that leaves its own chain of two or more stones without liberties is
    /// played (and removes that chain) instead of refused: New Zealand and Tromp-Taylor rules.
    multi_stone_suicide: bool,
    cells: [Cell; SLOTS],
    /// For every stone: the head of its chain; `Point::NONE` on empty and border points, so
    /// that "is this neighbour part of chain h" is one comparison, without testing the cell.
    head: [Point; SLOTS],
    /// For every stone: the next stone of its chain (a circular list).
    next_stone: [Point; SLOTS],
    /// For every chain head: the exact number of distinct liberties of the chain.
    liberties: [u16; SLOTS],
    /// For every chain head: the number of stones in the chain.
    chain_len: [u16; SLOTS],
    /// The empty on-board points, in no particular order, for O(1) random choice.
    empties: [Point; SLOTS],
    /// For every point, how many of its four neighbours are empty, black and white, in
    /// 4-bit fields (see [`NeighbourCounts`]); the rest are border. Kept up to date as stones
    /// come and go, it answers "has a liberty?" and "surrounded by one color?" in one load,
    /// which is most of what playouts ask.
    neighbour_counts: [u16; SLOTS],
    /// Position of each empty point in `empties`.
    empty_slot: [u16; SLOTS],
    empty_count: u16,
    /// The point where `ko_color` may not play because it would retake a simple ko at once
    /// (`Point::NONE` when there is none).
    ko: Point,
    ko_color: Color,
    /// Zobrist hash of the stones (not of the player to move, nor of the ko point).
    hash: u64,
    stone_count: [u16; 2],
}

/// What a played move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// Opponent stones captured by the move.
    pub captured: u16,
    /// Own stones removed by a multi-stone suicide (only where the rules allow it).
    pub suicided: u16,
}

impl Board {
    /// An empty board of `size` lines (2..=25); `None` for any other size.
    pub fn new(size: usize) -> Option<Board> {
        let geometry = Geometry::new(size)?;
        let mut board = Board {
            geometry,
            multi_stone_suicide: false,
            cells: [Cell::Border; SLOTS],
            head: [Point::NONE; SLOTS],
            next_stone: [Point::NONE; SLOTS],
            liberties: [0; SLOTS],
            chain_len: [0; SLOTS],
            empties: [Point::NONE; SLOTS],
            empty_slot: [0; SLOTS],
            neighbour_counts: [0; SLOTS],
            empty_count: 0,
            ko: Point::NONE,
            ko_color: Color::Black,
            hash: 0,
            stone_count: [0; 2],
        };
        for p in geometry.points() {
            board.cells[p.index()] = Cell::Empty;
            board.push_empty(p);
        }
        for p in geometry.points() {
            let empty = geometry
                .neighbours(p)
                .into_iter()
                .filter(|&n| board.cell(n) == Cell::Empty)
                .count();
            board.neighbour_counts[p.index()] = empty as u16 * NeighbourCounts::EMPTY_ONE;
        }
        Some(board)
    }

    /// Allows or forbids multi-stone suicide (one-stone suicide is always refused: it could
    /// only repeat the position).
    pub fn set_multi_stone_suicide(&mut self, allowed: bool) {
        self.multi_stone_suicide = allowed;
    }

    pub fn multi_stone_suicide(&self) -> bool {
        self.multi_stone_suicide
    }

    /// Overwrites `self` with `other`, copying only the slots `other`'s size uses: the cheap
    /// way for playouts to start from a position.
    pub fn copy_from(&mut self, other: &Board) {
        let n = other.geometry.slots();
        self.geometry = other.geometry;
        self.multi_stone_suicide = other.multi_stone_suicide;
        self.cells[..n].copy_from_slice(&other.cells[..n]);
        self.head[..n].copy_from_slice(&other.head[..n]);
        self.next_stone[..n].copy_from_slice(&other.next_stone[..n]);
        self.liberties[..n].copy_from_slice(&other.liberties[..n]);
        self.chain_len[..n].copy_from_slice(&other.chain_len[..n]);
        let e = other.empty_count as usize;
        self.empties[..e].copy_from_slice(&other.empties[..e]);
        self.empty_slot[..n].copy_from_slice(&other.empty_slot[..n]);
        self.neighbour_counts[..n].copy_from_slice(&other.neighbour_counts[..n]);
        self.empty_count = other.empty_count;
        self.ko = other.ko;
        self.ko_color = other.ko_color;
        self.hash = other.hash;
        self.stone_count = other.stone_count;
        // Slots past `n` may keep another size's leftovers: every access goes through this
        // size's geometry, which never reaches them.
    }

    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.geometry.size()
    }

    /// What is on slot `p`.
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.index()]
    }

    /// The color of the stone on `p`, if any.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        self.cell(p).color()
    }

    /// Zobrist hash of the stones on the board.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The simple-ko point and the color it is forbidden to, if the last move took a ko.
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko != Point::NONE).then_some((self.ko, self.ko_color))
    }

    /// Number of stones of `color` on the board.
    #[inline]
    pub fn stones(&self, color: Color) -> usize {
        self.stone_count[color.index()] as usize
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[Point] {
        &self.empties[..self.empty_count as usize]
    }

    /// The head (representative stone) of the chain on `p`. `p` must hold a stone.
    #[inline]
    pub fn chain(&self, p: Point) -> Point {
        debug_assert!(self.cell(p).is_stone());
        self.head[p.index()]
    }

    /// Exact number of liberties of the chain on `p` (0 for a point without a stone).
    #[inline]
    pub fn liberty_count(&self, p: Point) -> usize {
        if self.cell(p).is_stone() {
            self.liberties[self.head[p.index()].index()] as usize
        } else {
            0
        }
    }

    /// Number of stones of the chain on `p` (0 for a point without a stone).
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        if self.cell(p).is_stone() {
            self.chain_len[self.head[p.index()].index()] as usize
        } else {
            0
        }
    }

    /// The stones of the chain on `p`.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        ChainStones {
            board: self,
            start: p,
            current: self.cell(p).is_stone().then_some(p),
        }
    }

    /// The distinct liberties of the chain on `p`, in board order.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut seen = crate::coord::PointSet::new();
        for s in self.chain_stones(p) {
            for n in self.geometry.neighbours(s) {
                if self.cell(n) == Cell::Empty {
                    seen.insert(n);
                }
            }
        }
        seen.iter().collect()
    }

    /// The only liberty of a chain in atari (`None` if the chain has another count).
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        if self.liberty_count(p) != 1 {
            return None;
        }
        self.chain_stones(p).find_map(|s| {
            self.geometry
                .neighbours(s)
                .into_iter()
                .find(|&n| self.cell(n) == Cell::Empty)
        })
    }

    /// Heads of the chains of `color` that have exactly one liberty.
    pub fn chains_in_atari(&self, color: Color) -> Vec<Point> {
        self.chains_with_liberties(color, 1)
    }

    /// Heads of the chains of `color` that have exactly `liberties` liberties.
    pub fn chains_with_liberties(&self, color: Color, liberties: usize) -> Vec<Point> {
        let stone = Cell::stone(color);
        self.geometry
            .points()
            .filter(|&p| {
                self.cell(p) == stone
                    && self.head[p.index()] == p
                    && usize::from(self.liberties[p.index()]) == liberties
            })
            .collect()
    }

    /// How many of the four neighbours of `p` hold a stone of `color`.
    #[inline]
    pub fn neighbours_of(&self, p: Point, color: Color) -> usize {
        NeighbourCounts(self.neighbour_counts[p.index()]).of(color) as usize
    }

    /// Who owns `p` once play has ended (the quick count of playouts): the stone's color,
    /// or for an empty point the one color among its neighbours, if only one.
    #[inline]
    pub fn area_owner(&self, p: Point) -> Option<Color> {
        if let Some(color) = self.color_at(p) {
            return Some(color);
        }
        match (
            self.neighbours_of(p, Color::Black),
            self.neighbours_of(p, Color::White),
        ) {
            (0, 0) => None,
            (_, 0) => Some(Color::Black),
            (0, _) => Some(Color::White),
            _ => None,
        }
    }

    /// Black's area minus White's: stones, plus empty points whose neighbours are all of one
    /// color ([`Board::area_owner`]). Exact once a playout has filled everything but eyes.
    pub fn area_lead(&self) -> i32 {
        let mut lead = self.stones(Color::Black) as i32 - self.stones(Color::White) as i32;
        for &p in self.empty_points() {
            match self.area_owner(p) {
                Some(Color::Black) => lead += 1,
                Some(Color::White) => lead -= 1,
                None => {}
            }
        }
        lead
    }

    /// How many of the four neighbours of `p` are empty.
    #[inline]
    pub fn empty_neighbours(&self, p: Point) -> usize {
        NeighbourCounts(self.neighbour_counts[p.index()]).empty() as usize
    }

    /// Whether `p` is an eye of `color`: empty, every neighbour a stone of `color` (or the
    /// edge), and not a false eye (at most one opponent diagonal in the centre, none on the
    /// edge). Playouts never fill such points.
    #[inline]
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        if self.cell(p) != Cell::Empty {
            return false;
        }
        let counts = NeighbourCounts(self.neighbour_counts[p.index()]);
        if counts.empty() > 0 || counts.of(color.opponent()) > 0 {
            return false;
        }
        let enemy = Cell::stone(color.opponent());
        let mut bad = 0;
        let mut edge = false;
        for d in self.geometry.diagonals(p) {
            let c = self.cell(d);
            bad += usize::from(c == enemy);
            edge |= c == Cell::Border;
        }
        bad + usize::from(edge) < 2
    }

    /// Whether a playout may play `color` on the empty point `p`: legal under the board's
    /// rules (suicide, simple ko) and not filling one of its own eyes. One pass over the
    /// neighbours answers both questions, which matters because playouts ask it for most
    /// empty points of most positions.
    #[inline(always)]
    pub fn is_sensible(&self, color: Color, p: Point) -> bool {
        debug_assert_eq!(self.cell(p), Cell::Empty);
        if p == self.ko && color == self.ko_color {
            return false;
        }
        let counts = NeighbourCounts(self.neighbour_counts[p.index()]);
        if counts.empty() > 0 {
            // A liberty: legal, and no eye.
            return true;
        }
        let surrounded_by_own = counts.of(color.opponent()) == 0;
        if surrounded_by_own && self.is_eye(p, color) {
            return false;
        }
        let own = Cell::stone(color);
        let enemy = Cell::stone(color.opponent());
        let mut breathes = false;
        for n in self.geometry.neighbours(p) {
            let c = self.cell(n);
            // Off stones the head is NONE and its liberty slot a dummy: the color tests
            // discard it, without a branch.
            let libs = self.liberties[self.head[n.index()].index()];
            breathes |= (c == own) & (libs > 1) | (c == enemy) & (libs == 1);
        }
        breathes || (surrounded_by_own && self.multi_stone_suicide)
    }

    /// Whether `color` may play on `p` under the board's rules (occupancy, suicide, simple ko).
    #[inline]
    pub fn check(&self, color: Color, p: Point) -> Result<(), Illegal> {
        if p == self.ko && color == self.ko_color && self.cell(p) == Cell::Empty {
            return Err(Illegal::Ko);
        }
        self.check_ignoring_ko(color, p)
    }

    /// Like [`Board::check`] but without the simple-ko test: for rulesets whose superko rule,
    /// checked by the game, replaces it.
    #[inline]
    pub fn check_ignoring_ko(&self, color: Color, p: Point) -> Result<(), Illegal> {
        match self.cell(p) {
            Cell::Empty if self.has_breathing_room(color, p) => Ok(()),
            Cell::Empty => Err(Illegal::Suicide),
            Cell::Border => Err(Illegal::OffBoard),
            _ => Err(Illegal::Occupied),
        }
    }

    /// Whether a stone of `color` on the empty point `p` would not be a forbidden suicide:
    /// it has an empty neighbour, joins a chain with another liberty, captures, or (where
    /// allowed) is a multi-stone suicide.
    #[inline]
    fn has_breathing_room(&self, color: Color, p: Point) -> bool {
        if NeighbourCounts(self.neighbour_counts[p.index()]).empty() > 0 {
            return true;
        }
        let own = Cell::stone(color);
        let mut joins_friend = false;
        for n in self.geometry.neighbours(p) {
            let c = self.cell(n);
            match c {
                Cell::Empty => return true,
                Cell::Border => {}
                _ => {
                    let libs = self.liberties[self.head[n.index()].index()];
                    if c == own {
                        if libs > 1 {
                            return true;
                        }
                        joins_friend = true;
                    } else if libs == 1 {
                        return true;
                    }
                }
            }
        }
        joins_friend && self.multi_stone_suicide
    }

    /// The hash the board would have after a stone of `color` on the empty point `p` (which
    /// must not be a forbidden suicide), without playing it: the stone, the enemy chains it
    /// captures and, where allowed, its own chain when the move is a suicide.
    pub fn hash_after(&self, color: Color, p: Point) -> u64 {
        let mut hash = self.hash ^ zobrist::stone_key(color, p);
        let enemy = color.opponent();
        let mut removed = tactics::SmallSet::<4>::new();
        for n in self.geometry.neighbours(p) {
            if self.color_at(n) == Some(enemy)
                && self.liberty_count(n) == 1
                && !removed.as_slice().contains(&self.chain(n))
            {
                removed.insert(self.chain(n));
                for s in self.chain_stones(n) {
                    hash ^= zobrist::stone_key(enemy, s);
                }
            }
        }
        if removed.is_empty() && self.liberties_after::<1>(color, p) == 0 {
            // A multi-stone suicide: the new stone and the chains it joins go.
            hash ^= zobrist::stone_key(color, p);
            let mut own = tactics::SmallSet::<4>::new();
            for n in self.geometry.neighbours(p) {
                if self.color_at(n) == Some(color) && !own.as_slice().contains(&self.chain(n)) {
                    own.insert(self.chain(n));
                    for s in self.chain_stones(n) {
                        hash ^= zobrist::stone_key(color, s);
                    }
                }
            }
        }
        hash
    }

    /// Plays `mv` for `color` if the board's rules allow it (simple ko included).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<MoveEffect, Illegal> {
        match mv {
            Move::Pass => {
                self.pass();
                Ok(MoveEffect::default())
            }
            Move::Play(p) => {
                if !self.geometry.is_on_board(p) {
                    return Err(Illegal::OffBoard);
                }
                self.check(color, p)?;
                Ok(self.place(color, p))
            }
        }
    }

    /// A pass: only clears the ko point.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = Point::NONE;
    }

    /// Places a stone the caller has already checked with [`Board::check`] (or knows to be
    /// legal), captures, and updates chains, liberties, ko point and hash.
    pub fn place(&mut self, color: Color, p: Point) -> MoveEffect {
        debug_assert!(self.check_ignoring_ko(color, p).is_ok());
        let own = Cell::stone(color);
        self.remove_empty(p);
        self.put_stone(color, p);
        let i = p.index();
        self.head[i] = p;
        self.next_stone[i] = p;
        self.chain_len[i] = 1;
        let counts = NeighbourCounts(self.neighbour_counts[i]);
        self.liberties[i] = counts.empty();
        if counts.of(Color::Black) == 0 && counts.of(Color::White) == 0 {
            // No stone around: a new chain of one, nothing else changes.
            self.ko = Point::NONE;
            return MoveEffect::default();
        }

        // Take the point from every distinct neighbouring chain. Empty and border
        // neighbours have the head `Point::NONE`, whose liberty slot is a dummy, so this needs
        // no test of what the neighbours are.
        let [h0, h1, h2, h3] = self.geometry.neighbours(p).map(|n| self.head[n.index()]);
        let distinct = [
            true,
            h1 != h0,
            h2 != h0 && h2 != h1,
            h3 != h0 && h3 != h1 && h3 != h2,
        ];
        let heads = [h0, h1, h2, h3];
        for k in 0..4 {
            let libs = &mut self.liberties[heads[k].index()];
            *libs = libs.wrapping_sub(u16::from(distinct[k]));
        }
        // Sort the distinct chains into friends and enemies without branching on colors,
        // which are random in playouts; note whether any enemy lost its last liberty.
        let enemy = Cell::stone(color.opponent());
        let mut friends = [Point::NONE; 4];
        let mut friend_count = 0;
        let mut captures = false;
        for k in 0..4 {
            let h = heads[k];
            let c = self.cell(h);
            friends[friend_count] = h;
            friend_count += usize::from(distinct[k] & (c == own));
            captures |= distinct[k] & (c == enemy) & (self.liberties[h.index()] == 0);
        }

        let mut effect = MoveEffect::default();
        let mut last_captured = Point::NONE;
        if captures {
            for k in 0..4 {
                let h = heads[k];
                if distinct[k] && self.cell(h) == enemy && self.liberties[h.index()] == 0 {
                    last_captured = h;
                    effect.captured += self.remove_chain(h);
                }
            }
        }
        if friend_count > 0 {
            self.join_lone_stone(p, friends[0]);
            for &f in &friends[1..friend_count] {
                let mine = self.head[i];
                self.merge(mine, f);
            }
        }

        let mine = self.head[i];
        if self.liberties[mine.index()] == 0 {
            effect.suicided = self.remove_chain(mine);
        }
        self.ko = if effect.captured == 1
            && self.chain_len[mine.index()] == 1
            && self.liberties[mine.index()] == 1
            && effect.suicided == 0
        {
            self.ko_color = color.opponent();
            last_captured
        } else {
            Point::NONE
        };
        effect
    }

    #[inline]
    fn put_stone(&mut self, color: Color, p: Point) {
        self.cells[p.index()] = Cell::stone(color);
        self.hash ^= zobrist::stone_key(color, p);
        self.stone_count[color.index()] += 1;
        let delta = NeighbourCounts::one(color).wrapping_sub(NeighbourCounts::EMPTY_ONE);
        for n in self.geometry.neighbours(p) {
            let c = &mut self.neighbour_counts[n.index()];
            *c = c.wrapping_add(delta);
        }
    }

    /// Takes the stone of `color` off `p` (hash, counts, empty list; not the chains).
    #[inline]
    fn lift_stone(&mut self, color: Color, p: Point) {
        self.cells[p.index()] = Cell::Empty;
        self.head[p.index()] = Point::NONE;
        self.hash ^= zobrist::stone_key(color, p);
        self.push_empty(p);
        let delta = NeighbourCounts::EMPTY_ONE.wrapping_sub(NeighbourCounts::one(color));
        for n in self.geometry.neighbours(p) {
            let c = &mut self.neighbour_counts[n.index()];
            *c = c.wrapping_add(delta);
        }
    }

    /// Adds the lone stone `p` (just placed) to the neighbouring friendly chain `h`: the
    /// usual way a chain grows, done without the general merge's choices.
    #[inline]
    fn join_lone_stone(&mut self, p: Point, h: Point) {
        let mut gained = 0;
        for e in self.geometry.neighbours(p) {
            gained += u16::from(self.cell(e) == Cell::Empty && !self.touches_chain(e, h));
        }
        let (i, hi) = (p.index(), h.index());
        self.head[i] = h;
        self.next_stone[i] = self.next_stone[hi];
        self.next_stone[hi] = p;
        self.chain_len[hi] += 1;
        self.liberties[hi] += gained;
    }

    /// Joins chain `b` into chain `a` (or the reverse, whichever is cheaper).
    fn merge(&mut self, a: Point, b: Point) {
        let (big, small) = if self.chain_len[a.index()] >= self.chain_len[b.index()] {
            (a, b)
        } else {
            (b, a)
        };
        // Liberties of `small` that `big` lacks: each counted once, from the first stone of
        // `small` (in neighbour order) that touches it. A lone stone (the usual case: the
        // stone just placed) cannot count a liberty twice.
        let mut gained = 0;
        let mut s = small;
        if self.chain_len[small.index()] == 1 {
            for e in self.geometry.neighbours(s) {
                gained += u16::from(self.cell(e) == Cell::Empty && !self.touches_chain(e, big));
            }
        } else {
            self.count_new_liberties(small, big, &mut gained);
        }
        loop {
            self.head[s.index()] = big;
            s = self.next_stone[s.index()];
            if s == small {
                break;
            }
        }
        self.next_stone.swap(big.index(), small.index());
        self.liberties[big.index()] += gained;
        self.chain_len[big.index()] += self.chain_len[small.index()];
    }

    /// Adds to `gained` the liberties of chain `small` that chain `big` does not have.
    fn count_new_liberties(&self, small: Point, big: Point, gained: &mut u16) {
        for s in self.chain_stones(small) {
            for e in self.geometry.neighbours(s) {
                if self.cell(e) == Cell::Empty
                    && self.first_adjacent_stone_of(e, small) == s
                    && !self.touches_chain(e, big)
                {
                    *gained += 1;
                }
            }
        }
    }

    /// The first neighbour of `e` (in the fixed neighbour order) that is a stone of chain `h`.
    #[inline]
    fn first_adjacent_stone_of(&self, e: Point, h: Point) -> Point {
        self.geometry
            .neighbours(e)
            .into_iter()
            .find(|&n| self.head[n.index()] == h)
            .unwrap_or(Point::NONE)
    }

    /// Whether `e` is next to a stone of chain `h` (branch-free: random playouts make these
    /// tests unpredictable).
    #[inline]
    fn touches_chain(&self, e: Point, h: Point) -> bool {
        let [a, b, c, d] = self.geometry.neighbours(e);
        (self.head[a.index()] == h)
            | (self.head[b.index()] == h)
            | (self.head[c.index()] == h)
            | (self.head[d.index()] == h)
    }

    /// Removes the chain with head `h` and gives its points back as liberties to the chains
    /// around it. Returns the number of stones removed.
    fn remove_chain(&mut self, h: Point) -> u16 {
        let removed = self.cell(h);
        let Some(color) = removed.color() else {
            return 0;
        };
        let mut count = 0;
        let mut s = h;
        loop {
            self.lift_stone(color, s);
            count += 1;
            // Credit each distinct neighbouring chain once. Neighbours that are empty (head
            // NONE) or still part of the chain being removed (head h) get nothing.
            let [a, b, c, d] = self.geometry.neighbours(s).map(|n| self.head[n.index()]);
            let skip = |x: Point| x == Point::NONE || x == h;
            let credit = [
                !skip(a),
                !skip(b) && b != a,
                !skip(c) && c != a && c != b,
                !skip(d) && d != a && d != b && d != c,
            ];
            for (x, gets) in [a, b, c, d].into_iter().zip(credit) {
                self.liberties[x.index()] += u16::from(gets);
            }
            s = self.next_stone[s.index()];
            if s == h {
                break;
            }
        }
        self.stone_count[color.index()] -= count;
        count
    }

    #[inline]
    fn push_empty(&mut self, p: Point) {
        self.empty_slot[p.index()] = self.empty_count;
        self.empties[self.empty_count as usize] = p;
        self.empty_count += 1;
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let slot = self.empty_slot[p.index()] as usize;
        self.empty_count -= 1;
        let last = self.empties[self.empty_count as usize];
        self.empties[slot] = last;
        self.empty_slot[last.index()] = slot as u16;
    }

    /// A board of the same size holding the given stones, with every chain, liberty count,
    /// empty list and hash computed from scratch. Used to set up positions (SGF AB/AW/AE,
    /// tests) and, in tests, to check the incremental bookkeeping. Chains without liberties
    /// are kept as given (an SGF may set up anything).
    pub fn from_stones(
        size: usize,
        stones: impl IntoIterator<Item = (Point, Color)>,
    ) -> Option<Board> {
        let mut board = Board::new(size)?;
        for (p, color) in stones {
            if board.cell(p) != Cell::Empty {
                return None;
            }
            board.remove_empty(p);
            board.put_stone(color, p);
        }
        board.rebuild_chains();
        Some(board)
    }

    /// Recomputes chains and liberty counts from `cells` by flood fill.
    fn rebuild_chains(&mut self) {
        let g = self.geometry;
        let mut done = crate::coord::PointSet::new();
        for p in g.points() {
            if !self.cell(p).is_stone() || done.contains(p) {
                continue;
            }
            let color = self.cell(p);
            let mut stack = vec![p];
            let mut stones = Vec::new();
            done.insert(p);
            while let Some(s) = stack.pop() {
                stones.push(s);
                for n in g.neighbours(s) {
                    if self.cell(n) == color && !done.contains(n) {
                        done.insert(n);
                        stack.push(n);
                    }
                }
            }
            for (k, &s) in stones.iter().enumerate() {
                self.head[s.index()] = p;
                self.next_stone[s.index()] = stones[(k + 1) % stones.len()];
            }
            self.chain_len[p.index()] = stones.len() as u16;
            self.liberties[p.index()] = 0;
            let libs = self.liberties(p).len() as u16;
            self.liberties[p.index()] = libs;
        }
        self.ko = Point::NONE;
    }

    /// Checks every incremental structure against a from-scratch recomputation and returns a
    /// description of the first difference. For tests and debugging.
    pub fn verify(&self) -> Result<(), Inconsistency> {
        let g = self.geometry;
        let stones = g
            .points()
            .filter_map(|p| self.color_at(p).map(|c| (p, c)))
            .collect::<Vec<_>>();
        let fresh = Board::from_stones(self.size(), stones).ok_or(Inconsistency::BadStones)?;
        if fresh.hash != self.hash {
            return Err(Inconsistency::Hash {
                kept: self.hash,
                recomputed: fresh.hash,
            });
        }
        if fresh.stone_count != self.stone_count {
            return Err(Inconsistency::StoneCounts);
        }
        for p in g.points() {
            if !self.cell(p).is_stone() && self.head[p.index()] != Point::NONE {
                return Err(Inconsistency::EmptyWithHead(g.vertex(p)));
            }
            if fresh.neighbour_counts[p.index()] != self.neighbour_counts[p.index()] {
                return Err(Inconsistency::NeighbourCounts(g.vertex(p)));
            }
        }
        let mut empties = self.empty_points().to_vec();
        let mut fresh_empties = fresh.empty_points().to_vec();
        empties.sort();
        fresh_empties.sort();
        if empties != fresh_empties {
            return Err(Inconsistency::EmptyLists);
        }
        for (k, &e) in self.empty_points().iter().enumerate() {
            if self.empty_slot[e.index()] as usize != k {
                return Err(Inconsistency::EmptySlot(g.vertex(e)));
            }
        }
        for p in g.points() {
            if !self.cell(p).is_stone() {
                continue;
            }
            let name = g.vertex(p);
            let h = self.head[p.index()];
            if self.cell(h) != self.cell(p) {
                return Err(Inconsistency::HeadColor(name));
            }
            let mut mine: Vec<Point> = self.chain_stones(p).collect();
            let mut theirs: Vec<Point> = fresh.chain_stones(p).collect();
            mine.sort();
            theirs.sort();
            if mine != theirs {
                return Err(Inconsistency::ChainStones(name));
            }
            if mine.iter().any(|s| self.head[s.index()] != h) {
                return Err(Inconsistency::Heads(name));
            }
            if self.chain_len(p) != mine.len() {
                return Err(Inconsistency::ChainLength(name, self.chain_len(p)));
            }
            if self.liberty_count(p) != fresh.liberty_count(p) {
                return Err(Inconsistency::Liberties {
                    at: name,
                    kept: self.liberty_count(p),
                    recounted: fresh.liberty_count(p),
                });
            }
        }
        Ok(())
    }

    /// Whether two boards hold the same stones on the same size (ko and rules aside).
    pub fn same_stones(&self, other: &Board) -> bool {
        self.geometry == other.geometry
            && self.hash == other.hash
            && self
                .geometry
                .points()
                .all(|p| self.cell(p) == other.cell(p))
    }

    /// A text diagram with GTP coordinates, as `showboard` prints it.
    pub fn diagram(&self) -> String {
        let g = self.geometry;
        let size = g.size();
        let letters: String = (0..size)
            .map(|c| {
                format!(
                    " {}",
                    crate::coord::Vertex::new(c, 0)
                        .to_string()
                        .chars()
                        .next()
                        .unwrap_or('?')
                )
            })
            .collect();
        let mut out = format!("  {letters}\n");
        for row in (0..size).rev() {
            out.push_str(&format!("{:>2}", row + 1));
            for col in 0..size {
                let p = g.point(crate::coord::Vertex::new(col, row));
                let ch = match self.cell(p) {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ if Some(p) == self.ko().map(|(k, _)| k) => '*',
                    _ => '.',
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!(" {}\n", row + 1));
        }
        out.push_str(&format!("  {letters}"));
        out
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.diagram())
    }
}

/// Iterator over the stones of one chain.
pub struct ChainStones<'a> {
    board: &'a Board,
    start: Point,
    current: Option<Point>,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let here = self.current?;
        let next = self.board.next_stone[here.index()];
        self.current = (next != self.start).then_some(next);
        Some(here)
    }
}

/// Neighbour counts of one point, packed in a `u16`: empty, black and white neighbours in
/// three 4-bit fields.
#[derive(Clone, Copy)]
struct NeighbourCounts(u16);

impl NeighbourCounts {
    const EMPTY_ONE: u16 = 1;
    const BLACK_ONE: u16 = 1 << 4;
    const WHITE_ONE: u16 = 1 << 8;

    #[inline]
    fn one(color: Color) -> u16 {
        match color {
            Color::Black => Self::BLACK_ONE,
            Color::White => Self::WHITE_ONE,
        }
    }

    #[inline]
    fn empty(self) -> u16 {
        self.0 & 0xF
    }

    #[inline]
    fn of(self, color: Color) -> u16 {
        (self.0 / Self::one(color)) & 0xF
    }
}

/// A board for unit tests, from GTP vertex lists, with a function naming its points.
#[cfg(test)]
pub(crate) fn test_board(size: usize, black: &str, white: &str) -> (Board, impl Fn(&str) -> Point) {
    let g = Geometry::new(size).expect("size");
    let p = move |v: &str| g.parse_point(v).expect("vertex");
    let stones = black
        .split_whitespace()
        .map(|v| (p(v), Color::Black))
        .chain(white.split_whitespace().map(|v| (p(v), Color::White)))
        .collect::<Vec<_>>();
    (Board::from_stones(size, stones).expect("stones"), p)
}
