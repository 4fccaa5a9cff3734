//! Coordinates: players' colors, board vertices in GTP and SGF notation, and the
//! padded point index the board uses internally.
//!
//! Two notions of "where" live here, kept apart on purpose:
//! * [`Vertex`] is what a human or a controller names: a column and a row counted from the
//!   lower-left corner, independent of any board. GTP spells it `D4` (letters A..Z without I),
//!   SGF spells it `dp` (letters from the upper-left corner).
//! * [`Point`] is an index into the board's padded arrays (see [`Geometry`]). It only makes
//!   sense together with the board size it was made for, and it is what the fast code uses.

use std::fmt;

/// Smallest board GTP allows.
pub const MIN_SIZE: usize = 2;
/// Largest board GTP allows (25 letters A..Z without I).
pub const MAX_SIZE: usize = 25;
/// Number of padded points for the largest board: `(size + 2) * (size + 1) + 1`.
pub const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;
/// Length of the per-point arrays: a power of two above [`MAX_POINTS`], so that
/// [`Point::index`] can mask its value and the compiler can drop every bounds check on the
/// board's hot paths (a masked index is provably in range).
pub const SLOTS: usize = 1024;
const _: () = assert!(SLOTS >= MAX_POINTS && SLOTS.is_power_of_two());

/// GTP column letters: the letter I is skipped so that it is never confused with J or 1.
const GTP_COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A player, or the color of a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-color arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// +1 for Black, -1 for White: turns a figure counted for Black (a score lead, a point's
    /// ownership) into the same figure for this color, and back.
    #[inline]
    pub fn sign(self) -> f32 {
        match self {
            Color::Black => 1.0,
            Color::White => -1.0,
        }
    }

    /// Parses a GTP color: `b`, `black`, `w`, `white`, in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// The single letter SGF and GTP use: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The letter in lower case, `b` or `w`: how gogui-twogtp names a color in GTP commands
    /// (every engine reads it; some old ones read nothing else), and GoGui in its variations.
    pub fn lowercase_letter(self) -> char {
        self.letter().to_ascii_lowercase()
    }

    /// The name as a sentence starts with it: `Black` or `White` (`Display` writes
    /// `black`, as GTP does).
    pub fn capitalized_name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A board intersection named by column and row, both counted from 0 at the lower-left corner
/// (so `A1` is `Vertex { col: 0, row: 0 }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    pub col: u8,
    pub row: u8,
}

impl Vertex {
    pub fn new(col: usize, row: usize) -> Vertex {
        debug_assert!(col < MAX_SIZE && row < MAX_SIZE);
        Vertex {
            col: col as u8,
            row: row as u8,
        }
    }

    /// Parses GTP notation (`D4`, `q16`, case-insensitive). Does not know the board size:
    /// use [`Vertex::fits`] to check it is on a given board. `pass` is not a vertex.
    pub fn parse_gtp(text: &str) -> Option<Vertex> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        let letter = letter.to_ascii_uppercase();
        let col = GTP_COLUMNS.iter().position(|&c| c == letter)?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
        if row == 0 || row > MAX_SIZE {
            return None;
        }
        Some(Vertex::new(col, row - 1))
    }

    /// Parses SGF notation (`dp`), which counts rows from the top of a board of `size` lines.
    pub fn parse_sgf(text: &str, size: usize) -> Option<Vertex> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let col = sgf_index(bytes[0])?;
        let top_row = sgf_index(bytes[1])?;
        if col >= size || top_row >= size {
            return None;
        }
        Some(Vertex::new(col, size - 1 - top_row))
    }

    /// SGF notation on a board of `size` lines.
    pub fn to_sgf(self, size: usize) -> String {
        let top_row = size - 1 - self.row as usize;
        let letter = |i: usize| (b'a' + i as u8) as char;
        format!("{}{}", letter(self.col as usize), letter(top_row))
    }

    /// GTP's vertex list: the vertices in GTP notation, a space apart (`D4 Q16`).
    pub fn gtp_list(vertices: &[Vertex]) -> String {
        vertices
            .iter()
            .map(Vertex::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether the vertex is on a board of `size` lines.
    pub fn fits(self, size: usize) -> bool {
        (self.col as usize) < size && (self.row as usize) < size
    }
}

fn sgf_index(letter: u8) -> Option<usize> {
    match letter {
        b'a'..=b'z' => Some((letter - b'a') as usize),
        b'A'..=b'Z' => Some((letter - b'A') as usize + 26),
        _ => None,
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            GTP_COLUMNS[self.col as usize] as char,
            self.row as usize + 1
        )
    }
}

/// An index into the board's padded arrays. Index 0 is always off the board, so it doubles
/// as "no point" ([`Point::NONE`], also the default) where a sentinel is needed.
///
/// The index is private: a point only makes sense for the board size it was made for, so
/// points come from a [`Geometry`] (which knows the size: [`Geometry::point`],
/// [`Geometry::try_point`], [`Geometry::parse_point`], [`Geometry::points`], the neighbours),
/// from the board's own tables, or from [`Point::NONE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point(u16);

impl Point {
    /// The "no point" sentinel (a border point, never on the board).
    pub const NONE: Point = Point(0);

    /// The point at array index `index`, unchecked: for code that stores points as their
    /// indices and gives them back (the search tree's move codes, the board's tables).
    ///
    /// Sound whatever the index: [`Point::index`] masks it into `0..SLOTS`, so no array is
    /// ever read out of bounds; an index that did not come from a point of the same
    /// geometry merely names a wrong point, which is why this stays inside the crate.
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Point {
        debug_assert!(index < MAX_POINTS);
        Point(index as u16)
    }

    /// The array index of the point. Points are always below [`MAX_POINTS`]; the mask is a
    /// no-op that lets arrays of [`SLOTS`] entries be indexed without bounds checks.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize & (SLOTS - 1)
    }
}

/// How a board of a given size is laid out in memory.
///
/// The board is stored row by row with a stride of `size + 1`: column 0 of every row is a
/// border point that also serves as the right-hand border of the row below, and there is one
/// border row below and above. So every on-board point has its four neighbours at
/// `p - 1, p + 1, p - stride, p + stride` and its diagonals at `p ± stride ± 1`, all inside
/// the arrays, with no bounds tests. A 9×9 board uses 111 slots, a 19×19 one 421.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    size: u8,
    stride: u16,
}

impl Geometry {
    /// The layout for a `size`×`size` board; `None` outside 2..=25.
    pub fn new(size: usize) -> Option<Geometry> {
        if (MIN_SIZE..=MAX_SIZE).contains(&size) {
            Some(Geometry {
                size: size as u8,
                stride: size as u16 + 1,
            })
        } else {
            None
        }
    }

    #[inline]
    pub fn size(self) -> usize {
        self.size as usize
    }

    #[inline]
    pub fn stride(self) -> usize {
        self.stride as usize
    }

    /// Number of array slots this size uses (border included).
    #[inline]
    pub fn slots(self) -> usize {
        (self.size() + 2) * self.stride() + 1
    }

    /// The point of an on-board vertex.
    #[inline]
    pub fn point(self, v: Vertex) -> Point {
        debug_assert!(v.fits(self.size()));
        Point(((v.row as usize + 1) * self.stride() + v.col as usize + 1) as u16)
    }

    /// The point of an on-board vertex, or `None` when the vertex is off this board.
    pub fn try_point(self, v: Vertex) -> Option<Point> {
        v.fits(self.size()).then(|| self.point(v))
    }

    /// The vertex of an on-board point.
    #[inline]
    pub fn vertex(self, p: Point) -> Vertex {
        let i = p.index();
        Vertex::new(i % self.stride() - 1, i / self.stride() - 1)
    }

    /// The index of an on-board point in vertex order: row by row from A1 (`row * size +
    /// col`), the order of [`Geometry::points`]. Maps over the board (a policy's
    /// probabilities, ownership) are kept in this order, whoever made them.
    #[inline]
    pub fn vertex_index(self, p: Point) -> usize {
        let v = self.vertex(p);
        usize::from(v.row) * self.size() + usize::from(v.col)
    }

    /// Whether a slot index is an on-board point (not border).
    #[inline]
    pub fn is_on_board(self, p: Point) -> bool {
        let i = p.index();
        let (row, col) = (i / self.stride(), i % self.stride());
        (1..=self.size()).contains(&row) && col >= 1
    }

    /// All on-board points, row by row from A1.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let (size, stride) = (self.size(), self.stride());
        (0..size).flat_map(move |row| {
            (0..size).map(move |col| Point(((row + 1) * stride + col + 1) as u16))
        })
    }

    /// The four orthogonal neighbours (some may be border points).
    #[inline]
    pub fn neighbours(self, p: Point) -> [Point; 4] {
        let (i, s) = (p.0, self.stride);
        [Point(i - s), Point(i - 1), Point(i + 1), Point(i + s)]
    }

    /// The eight points around `p` (some may be border points), row by row from the
    /// north-west: NW, N, NE, W, E, SW, S, SE.
    #[inline]
    pub fn around(self, p: Point) -> [Point; 8] {
        let (i, s) = (p.0, self.stride);
        [
            Point(i + s - 1),
            Point(i + s),
            Point(i + s + 1),
            Point(i - 1),
            Point(i + 1),
            Point(i - s - 1),
            Point(i - s),
            Point(i - s + 1),
        ]
    }

    /// The four diagonal neighbours (some may be border points).
    #[inline]
    pub fn diagonals(self, p: Point) -> [Point; 4] {
        let (i, s) = (p.0, self.stride);
        [
            Point(i - s - 1),
            Point(i - s + 1),
            Point(i + s - 1),
            Point(i + s + 1),
        ]
    }

    /// GTP name of an on-board point.
    pub fn name(self, p: Point) -> String {
        self.vertex(p).to_string()
    }

    /// A move as GTP writes it: `D4` or `pass`.
    pub fn move_name(self, mv: Move) -> String {
        match mv {
            Move::Pass => "pass".into(),
            Move::Play(p) => self.name(p),
        }
    }

    /// Parses a GTP vertex into a point of this board.
    pub fn parse_point(self, text: &str) -> Option<Point> {
        Vertex::parse_gtp(text).and_then(|v| self.try_point(v))
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Move {
    Play(Point),
    #[default]
    Pass,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lead_for_black_is_the_same_deficit_for_white() {
        let black_lead = 3.5_f32;
        assert_eq!(black_lead * Color::Black.sign(), 3.5);
        assert_eq!(black_lead * Color::White.sign(), -3.5);
        assert_eq!(Color::White.sign(), -Color::White.opponent().sign());
    }

    #[test]
    fn gtp_names_skip_i_and_count_from_the_bottom() {
        let v = Vertex::parse_gtp("J9").unwrap();
        assert_eq!((v.col, v.row), (8, 8));
        assert_eq!(Vertex::parse_gtp("a1"), Some(Vertex::new(0, 0)));
        assert_eq!(Vertex::parse_gtp("I5"), None);
        assert_eq!(Vertex::parse_gtp("A0"), None);
        assert_eq!(Vertex::parse_gtp("A26"), None);
        assert_eq!(Vertex::parse_gtp("A+1"), None);
        assert_eq!(Vertex::parse_gtp("Z25").unwrap().to_string(), "Z25");
        assert_eq!(Vertex::parse_gtp("q16").unwrap().to_string(), "Q16");
    }

    #[test]
    fn sgf_counts_from_the_top() {
        let v = Vertex::parse_sgf("aa", 19).unwrap();
        assert_eq!(v.to_string(), "A19");
        assert_eq!(Vertex::parse_sgf("dp", 19).unwrap().to_string(), "D4");
        assert_eq!(Vertex::new(3, 3).to_sgf(19), "dp");
        assert_eq!(Vertex::parse_sgf("tt", 19), None);
    }

    #[test]
    fn geometry_round_trips_every_point_of_every_size() {
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::new(size).unwrap();
            assert!(g.slots() <= MAX_POINTS);
            let mut count = 0;
            for p in g.points() {
                assert!(g.is_on_board(p));
                assert_eq!(g.point(g.vertex(p)), p);
                let on_board = g
                    .neighbours(p)
                    .iter()
                    .filter(|&&n| g.is_on_board(n))
                    .count();
                let v = g.vertex(p);
                let edges = [
                    v.col == 0,
                    v.row == 0,
                    v.col as usize == size - 1,
                    v.row as usize == size - 1,
                ];
                assert_eq!(on_board, 4 - edges.iter().filter(|&&e| e).count());
                for d in g.diagonals(p) {
                    assert!(d.index() < g.slots());
                }
                let [nw, n, ne, w, e, sw, s, se] = g.around(p);
                let mut around = [nw, n, ne, w, e, sw, s, se];
                let mut both = [g.neighbours(p), g.diagonals(p)].concat();
                around.sort();
                both.sort();
                assert_eq!(around[..], both[..]);
                assert_eq!(
                    (n.index() - p.index(), p.index() - s.index()),
                    (g.stride(), g.stride())
                );
                assert_eq!((w.index() + 1, e.index() - 1), (p.index(), p.index()));
                assert_eq!((nw.index() + 1, ne.index() - 1), (n.index(), n.index()));
                assert_eq!((sw.index() + 1, se.index() - 1), (s.index(), s.index()));
                count += 1;
            }
            assert_eq!(count, size * size);
            assert!(Geometry::new(size).is_some());
        }
        assert!(Geometry::new(1).is_none());
        assert!(Geometry::new(26).is_none());
    }
}

/// A set of points of one board, as a fixed bitset (no heap): dead stones, marks for flood
/// fills, visited points.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PointSet {
    bits: [u64; SLOTS / 64],
}

impl Default for PointSet {
    fn default() -> Self {
        PointSet::new()
    }
}

impl PointSet {
    pub const fn new() -> PointSet {
        PointSet {
            bits: [0; SLOTS / 64],
        }
    }

    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.bits[p.index() / 64] >> (p.index() % 64) & 1 == 1
    }

    /// Adds `p`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        let new = !self.contains(p);
        self.bits[p.index() / 64] |= 1 << (p.index() % 64);
        new
    }

    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.bits[p.index() / 64] &= !(1 << (p.index() % 64));
    }

    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// The points in increasing index order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    Point((w * 64 + bit) as u16)
                })
            })
        })
    }
}

impl FromIterator<Point> for PointSet {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        let mut set = PointSet::new();
        for p in iter {
            set.insert(p);
        }
        set
    }
}

impl fmt::Debug for PointSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|p| p.0)).finish()
    }
}
