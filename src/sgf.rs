//! SGF (FF[4]) reading and writing, for `loadsgf` and `printsgf`.
//!
//! Reading takes the main line of the first game tree (the first variation at every branch)
//! and understands what a game needs: SZ, KM, HA, RU, RE, PL, setup stones (AB, AW, AE,
//! with FF[4]'s `aa:cc` rectangles), and moves (B, W; `[]` is a pass, and so is `[tt]` on
//! boards up to 19x19, as FF[3] wrote it). Everything else is skipped. The parser works
//! without recursion, so that no file, however deeply nested, can overflow the stack, and
//! files of more than [`MAX_MOVES`] moves are refused.
//!
//! Setup stones in the root with HA become the game's handicap (so that the ruleset's
//! handicap bonus applies); other setup stones replace the position, and setup in the middle
//! of the game replaces it too, forgetting the moves before (they can no longer be undone).
//!
//! The root's game-info properties (players, date, event, result…) and the comments are
//! kept as text, so that a tool that rewrites a game (`hoshi analyze`) can give them back
//! with [`write_annotated`], beside its own properties on the root and on each move.

use crate::board::Illegal;
use crate::coord::{Color, Move, Point, Vertex, MAX_SIZE, MIN_SIZE};
use crate::game::Game;
use crate::rules::Ruleset;
use crate::score::GameResult;
use std::collections::BTreeMap;
use std::fmt;

/// Why a file cannot be loaded. GTP answers every one of them with `cannot load file`;
/// the detail goes to the log.
#[derive(Clone, Debug, PartialEq)]
pub enum SgfError {
    Unreadable(String),
    /// Not SGF: the text and the position where reading stopped (in characters).
    Syntax(&'static str, usize),
    /// A property whose value makes no sense (a board of 30 lines, a point off the board).
    BadValue(String),
    /// Move `number` of the main line is illegal under the rules in force.
    IllegalMove {
        number: usize,
        why: Illegal,
    },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Unreadable(why) => write!(f, "cannot read the file: {why}"),
            SgfError::Syntax(what, at) => write!(f, "not SGF: {what} at character {at}"),
            SgfError::BadValue(what) => write!(f, "bad value: {what}"),
            SgfError::IllegalMove { number, why } => {
                write!(f, "move {number} is illegal ({why})")
            }
        }
    }
}

impl std::error::Error for SgfError {}

/// One node: its properties in file order, each with its values.
type Node = Vec<(String, Vec<String>)>;

/// What happens along the main line, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Stones put on (`Some(color)`) or taken off (`None`) the board, and maybe who plays
    /// next (PL).
    Setup {
        stones: Vec<(Vertex, Option<Color>)>,
        to_move: Option<Color>,
    },
    /// A move; `None` is a pass.
    Move(Color, Option<Vertex>),
}

/// A game read from SGF, before it is replayed on a board.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub size: usize,
    pub komi: Option<f64>,
    pub handicap: usize,
    pub rules: Option<String>,
    pub result: Option<String>,
    /// The root's [`GAME_INFO`] properties (first value each, untrimmed), in file order:
    /// what a rewritten file must carry over that the game itself does not hold.
    pub info: Vec<(String, String)>,
    /// The comments (C) of the main line, each with the number of moves played up to its
    /// node (0: the root's, or a node before the first move).
    pub comments: Vec<(usize, String)>,
    /// The other properties of the main line's nodes after the root (a tool's
    /// [`Annotations`]: self-play's search visits, the clocks' time left), first value each,
    /// each with the number of moves played up to its node.
    pub notes: Vec<(usize, String, String)>,
    pub events: Vec<Event>,
}

/// The properties of a node that [`GameRecord::events`] and [`GameRecord::comments`] hold.
const GAME_PROPERTIES: [&str; 7] = ["B", "W", "AB", "AW", "AE", "PL", "C"];

/// FF[4]'s game-info properties but RU, which [`write`] derives from the rules in force.
pub const GAME_INFO: [&str; 20] = [
    "AN", "BR", "BT", "CP", "DT", "EV", "GN", "GC", "ON", "OT", "PB", "PC", "PW", "RE", "RO", "SO",
    "TM", "US", "WR", "WT",
];

/// Reads the main line of the first game tree of an SGF collection.
pub fn parse(text: &str) -> Result<GameRecord, SgfError> {
    let nodes = main_line(text)?;
    let root = nodes.first().ok_or(SgfError::Syntax("no node", 0))?;
    let size = board_size(root)?;
    let mut record = GameRecord {
        size,
        komi: number(root, "KM")?,
        handicap: number::<usize>(root, "HA")?.unwrap_or(0),
        rules: text_value(root, "RU"),
        result: text_value(root, "RE"),
        info: game_info(root),
        comments: Vec::new(),
        notes: Vec::new(),
        events: Vec::new(),
    };
    let mut moves = 0;
    for (index, node) in nodes.iter().enumerate() {
        let events = node_events(node, size)?;
        moves += events
            .iter()
            .filter(|e| matches!(e, Event::Move(..)))
            .count();
        if let Some(text) = first_value(node, "C").filter(|t| !t.trim().is_empty()) {
            record.comments.push((moves, text.to_string()));
        }
        if index > 0 {
            let notes = node
                .iter()
                .filter(|(name, _)| !GAME_PROPERTIES.contains(&name.as_str()))
                .filter_map(|(name, values)| Some((moves, name.clone(), values.first()?.clone())));
            record.notes.extend(notes);
        }
        record.events.extend(events);
    }
    if moves > MAX_MOVES {
        return Err(SgfError::BadValue(format!("{moves} moves")));
    }
    Ok(record)
}

/// The most moves a file may hold: real games have a few hundred, and the game keeps every
/// position it went through, so a file of a million passes would exhaust the memory.
pub const MAX_MOVES: usize = 5000;

/// Where the parser is: one entry per open game tree.
struct OpenTree {
    /// Whether this tree is on the main line (first variation at every branch so far).
    main: bool,
    /// Variations already opened inside this tree.
    children: usize,
}

/// The nodes of the main line of the first game tree, read without recursion.
fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let mut reader = Reader::new(text);
    // Anything before the first '(' (mail headers, notes) is not SGF's business.
    while reader.peek().is_some_and(|c| c != '(') {
        reader.bump();
    }
    let mut trees: Vec<OpenTree> = Vec::new();
    let mut nodes = Vec::new();
    loop {
        reader.skip_space();
        match reader.bump() {
            Some('(') => {
                let main = trees.last().is_none_or(|t| t.main && t.children == 0);
                if let Some(parent) = trees.last_mut() {
                    parent.children += 1;
                }
                trees.push(OpenTree { main, children: 0 });
            }
            Some(')') => {
                trees.pop().ok_or(reader.error("unmatched ')'"))?;
                if trees.is_empty() {
                    break;
                }
            }
            Some(';') => {
                let tree = trees.last().ok_or(reader.error("node outside a tree"))?;
                if tree.children > 0 {
                    return Err(reader.error("node after variations"));
                }
                let main = tree.main;
                let node = reader.node()?;
                if main {
                    nodes.push(node);
                }
            }
            None => return Err(reader.error("unexpected end of file")),
            Some(_) => return Err(reader.error("unexpected character")),
        }
    }
    Ok(nodes)
}

/// A cursor over the characters of the file.
struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn new(text: &str) -> Reader {
        Reader {
            chars: text.chars().collect(),
            at: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn error(&self, what: &'static str) -> SgfError {
        SgfError::Syntax(what, self.at)
    }

    /// The properties of a node, after its ';'.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::new();
        loop {
            self.skip_space();
            if !self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                return Ok(node);
            }
            let name = self.identifier();
            let values = self.values()?;
            node.push((name, values));
        }
    }

    /// A property identifier. FF[3] allowed lower-case letters in names (`AddBlack`), which
    /// do not count: only the capitals name the property.
    fn identifier(&mut self) -> String {
        let mut name = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
            if c.is_ascii_uppercase() {
                name.push(c);
            }
            self.at += 1;
        }
        name
    }

    fn values(&mut self) -> Result<Vec<String>, SgfError> {
        let mut values = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some('[') {
                break;
            }
            self.at += 1;
            values.push(self.value()?);
        }
        if values.is_empty() {
            return Err(self.error("property without a value"));
        }
        Ok(values)
    }

    /// One value after its '[': `\` escapes the next character, and a `\` before a line
    /// break removes both (a soft line break).
    fn value(&mut self) -> Result<String, SgfError> {
        let mut value = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error("unterminated value")),
                Some(']') => return Ok(value),
                Some('\\') => match self.bump() {
                    None => return Err(self.error("unterminated value")),
                    Some('\n') => self.skip_one('\r'),
                    Some('\r') => self.skip_one('\n'),
                    Some(c) => value.push(c),
                },
                Some(c) => value.push(c),
            }
        }
    }

    fn skip_one(&mut self, c: char) {
        if self.peek() == Some(c) {
            self.at += 1;
        }
    }
}

fn first_value<'a>(node: &'a Node, name: &str) -> Option<&'a str> {
    node.iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, values)| values.first())
        .map(String::as_str)
}

fn text_value(node: &Node, name: &str) -> Option<String> {
    first_value(node, name)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

fn game_info(root: &Node) -> Vec<(String, String)> {
    root.iter()
        .filter(|(name, _)| GAME_INFO.contains(&name.as_str()))
        .filter_map(|(name, values)| Some((name.clone(), values.first()?.clone())))
        .collect()
}

/// A number property; an empty value counts as absent.
fn number<T: std::str::FromStr>(node: &Node, name: &str) -> Result<Option<T>, SgfError> {
    match first_value(node, name).map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => text
            .parse()
            .map(Some)
            .map_err(|_| SgfError::BadValue(format!("{name}[{text}]"))),
    }
}

/// SZ, 19 when absent; square boards of 2 to 25 lines only.
fn board_size(root: &Node) -> Result<usize, SgfError> {
    let text = first_value(root, "SZ").unwrap_or("19").trim();
    let (cols, rows) = text.split_once(':').unwrap_or((text, text));
    let bad = || SgfError::BadValue(format!("SZ[{text}]"));
    let cols: usize = cols.trim().parse().map_err(|_| bad())?;
    let rows: usize = rows.trim().parse().map_err(|_| bad())?;
    if cols != rows || !(MIN_SIZE..=MAX_SIZE).contains(&cols) {
        return Err(bad());
    }
    Ok(cols)
}

/// The setup and the move of one node, setup first.
fn node_events(node: &Node, size: usize) -> Result<Vec<Event>, SgfError> {
    let mut events = Vec::new();
    let mut stones = Vec::new();
    let mut to_move = None;
    let mut moves = Vec::new();
    for (name, values) in node {
        match name.as_str() {
            "AB" | "AW" | "AE" => {
                let color = Color::parse(&name[1..]);
                for vertex in point_list(values, size)? {
                    stones.push((vertex, color));
                }
            }
            "PL" => to_move = Some(color_value(values)?),
            "B" | "W" => {
                let color = Color::parse(name).ok_or(SgfError::BadValue(name.clone()))?;
                moves.push(Event::Move(color, move_value(values, size)?));
            }
            _ => {}
        }
    }
    if !stones.is_empty() || to_move.is_some() {
        events.push(Event::Setup { stones, to_move });
    }
    events.extend(moves);
    Ok(events)
}

fn color_value(values: &[String]) -> Result<Color, SgfError> {
    let text = values.first().map_or("", |v| v.trim());
    Color::parse(text).ok_or_else(|| SgfError::BadValue(format!("PL[{text}]")))
}

/// A move's point; `None` for a pass (`[]`, or `[tt]` on boards up to 19x19).
fn move_value(values: &[String], size: usize) -> Result<Option<Vertex>, SgfError> {
    let text = values.first().map_or("", |v| v.trim());
    if text.is_empty() || (text == "tt" && size <= 19) {
        return Ok(None);
    }
    point(text, size).map(Some)
}

fn point(text: &str, size: usize) -> Result<Vertex, SgfError> {
    Vertex::parse_sgf(text, size).ok_or_else(|| SgfError::BadValue(format!("point [{text}]")))
}

/// The points of a list of values, where `aa:cc` stands for the whole rectangle.
fn point_list(values: &[String], size: usize) -> Result<Vec<Vertex>, SgfError> {
    let mut points = Vec::new();
    for value in values {
        let value = value.trim();
        let (from, to) = value.split_once(':').unwrap_or((value, value));
        let (a, b) = (point(from, size)?, point(to, size)?);
        for col in a.col.min(b.col)..=a.col.max(b.col) {
            for row in a.row.min(b.row)..=a.row.max(b.row) {
                points.push(Vertex { col, row });
            }
        }
    }
    Ok(points)
}

impl GameRecord {
    /// The ruleset the file names (RU), if hoshi knows it.
    pub fn ruleset(&self) -> Option<Ruleset> {
        self.rules.as_deref().and_then(Ruleset::from_name)
    }

    /// The game replayed from the start, stopping before move `until` (counting from 1) when
    /// given. Rules and komi come from the file when it names them, else from the arguments.
    pub fn replay(
        &self,
        rules: Ruleset,
        komi: f64,
        until: Option<usize>,
    ) -> Result<Game, SgfError> {
        let rules = self.ruleset().unwrap_or(rules);
        let mut game = Game::new(self.size, rules, self.komi.unwrap_or(komi))
            .ok_or_else(|| SgfError::BadValue(format!("SZ[{}]", self.size)))?;
        let mut played = 0;
        for event in &self.events {
            match event {
                Event::Setup { stones, to_move } => self.setup(&mut game, stones, *to_move)?,
                Event::Move(color, vertex) => {
                    if until.is_some_and(|n| played + 1 >= n) {
                        break;
                    }
                    played += 1;
                    let mv =
                        vertex.map_or(Move::Pass, |v| Move::Play(game.board().geometry().point(v)));
                    game.play(*color, mv).map_err(|why| SgfError::IllegalMove {
                        number: played,
                        why,
                    })?;
                }
            }
        }
        Ok(game)
    }

    /// Applies setup stones: as the handicap when the root announces one and places exactly
    /// that many Black stones, otherwise as a new position.
    fn setup(
        &self,
        game: &mut Game,
        stones: &[(Vertex, Option<Color>)],
        to_move: Option<Color>,
    ) -> Result<(), SgfError> {
        let fresh = game.move_number() == 0
            && game.board().stones(Color::Black) == 0
            && game.board().stones(Color::White) == 0;
        let only_black = stones.iter().all(|&(_, c)| c == Some(Color::Black));
        if fresh
            && only_black
            && self.handicap >= 2
            && stones.len() == self.handicap
            && to_move != Some(Color::Black)
        {
            let vertices: Vec<Vertex> = stones.iter().map(|&(v, _)| v).collect();
            return game
                .set_handicap(&vertices)
                .map_err(|e| SgfError::BadValue(format!("handicap stones: {e}")));
        }
        let default_next = if fresh && only_black && stones.len() >= 2 {
            Color::White
        } else {
            game.to_move()
        };
        let position = position_after(game, stones);
        if game.set_position(position, to_move.unwrap_or(default_next)) {
            Ok(())
        } else {
            Err(SgfError::BadValue("setup stones".into()))
        }
    }
}

/// The stones of `game`'s board once `changes` are applied.
fn position_after(game: &Game, changes: &[(Vertex, Option<Color>)]) -> Vec<(Point, Color)> {
    let g = game.board().geometry();
    let mut stones: BTreeMap<Point, Color> = g
        .points()
        .filter_map(|p| game.board().color_at(p).map(|c| (p, c)))
        .collect();
    for &(v, color) in changes {
        let p = g.point(v);
        match color {
            Some(c) => stones.insert(p, c),
            None => stones.remove(&p),
        };
    }
    stones.into_iter().collect()
}

/// The SGF spelling of a ruleset's name, which [`Ruleset::from_name`] reads back.
fn rules_name(rules: Ruleset) -> &'static str {
    [
        (Ruleset::FRENCH, "French"),
        (Ruleset::CHINESE, "Chinese"),
        (Ruleset::JAPANESE, "Japanese"),
        (Ruleset::AGA, "AGA"),
        (Ruleset::NEW_ZEALAND, "NZ"),
        (Ruleset::TROMP_TAYLOR, "Tromp-Taylor"),
    ]
    .into_iter()
    .find_map(|(known, name)| (known == rules).then_some(name))
    .unwrap_or(rules.name)
}

/// Escapes a text value: `]` and `\` get a backslash.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Moves written per line, so that a long game stays readable.
const MOVES_PER_LINE: usize = 10;

/// The game as an FF[4] file: root properties (with the result when known), the starting
/// stones (handicap or setup), then every move. Never contains an empty line, so it can
/// travel as a GTP answer.
pub fn write(game: &Game, result: Option<GameResult>) -> String {
    write_annotated(game, result, &Annotations::default())
}

/// Properties a tool adds to a game's file: (name, value) pairs, values unescaped. The
/// review (`hoshi analyze`) adds its analysis and the file's own game-info; a match
/// (`hoshi match`) adds the players, date and game comment, and the clocks' [`time_left`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotations {
    /// Added to the root after the game's own properties (e.g. [`GameRecord::info`]).
    pub root: Vec<(String, String)>,
    /// Added to the node of each move, by index in the game's history (missing: none).
    pub moves: Vec<Vec<(String, String)>>,
}

/// A clock's time left after a move of `color`: BL or WL, in seconds, and OB or OW, the
/// stones left in a Canadian overtime period, when there are some.
pub fn time_left(color: Color, seconds: f64, stones: u32) -> Vec<(String, String)> {
    let letter = color.letter();
    let mut props = vec![(format!("{letter}L"), format!("{seconds:.2}"))];
    if stones > 0 {
        props.push((format!("O{letter}"), stones.to_string()));
    }
    props
}

/// Like [`write`], with the properties of `notes` added; a move with a comment (C) starts
/// a line of its own. Empty lines appear only if a value holds one.
pub fn write_annotated(game: &Game, result: Option<GameResult>, notes: &Annotations) -> String {
    let size = game.size();
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[hoshi:{}]SZ[{size}]KM[{}]RU[{}]",
        env!("CARGO_PKG_VERSION"),
        game.komi(),
        escape(rules_name(game.rules())),
    );
    if let Some(result) = result {
        out.push_str(&format!("RE[{}]", escape(&result.to_string())));
    }
    out.push_str(&start_position(game));
    out.push_str(&properties(&notes.root));
    for (i, turn) in game.history().iter().enumerate() {
        let added = notes.moves.get(i).map_or(&[][..], Vec::as_slice);
        if i % MOVES_PER_LINE == 0 || added.iter().any(|(name, _)| name == "C") {
            out.push('\n');
        }
        let point = match turn.mv {
            Move::Pass => String::new(),
            Move::Play(p) => game.board().geometry().vertex(p).to_sgf(size),
        };
        out.push_str(&format!(";{}[{point}]", turn.color.letter()));
        out.push_str(&properties(added));
    }
    out.push_str(")\n");
    out
}

/// `NAME[value]` for each property, values escaped.
fn properties(props: &[(String, String)]) -> String {
    props
        .iter()
        .map(|(name, value)| format!("{name}[{}]", escape(value)))
        .collect()
}

/// The root's setup: HA and AB for a handicap, else AB/AW/PL for a set-up position.
fn start_position(game: &Game) -> String {
    let (start, to_move) = game.start();
    let g = start.geometry();
    let sgf = |p: Point| format!("[{}]", g.vertex(p).to_sgf(game.size()));
    let handicap = game.handicap_stones();
    if !handicap.is_empty() {
        let stones: String = handicap.iter().map(|&p| sgf(p)).collect();
        return format!("HA[{}]AB{stones}", handicap.len());
    }
    let list = |color: Color| -> String {
        g.points()
            .filter(|&p| start.color_at(p) == Some(color))
            .map(sgf)
            .collect()
    };
    let (black, white) = (list(Color::Black), list(Color::White));
    let mut out = String::new();
    if !black.is_empty() {
        out.push_str(&format!("AB{black}"));
    }
    if !white.is_empty() {
        out.push_str(&format!("AW{white}"));
    }
    if !out.is_empty() || to_move != Color::Black {
        out.push_str(&format!("PL[{}]", to_move.letter()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_written_with_a_name_that_reads_back() {
        for rules in Ruleset::PRESETS {
            assert_eq!(
                Ruleset::from_name(rules_name(rules)),
                Some(rules),
                "{rules}"
            );
        }
        assert_eq!(rules_name(Ruleset::NEW_ZEALAND), "NZ");
        assert_eq!(rules_name(Ruleset::CGOS), "cgos");
    }

    #[test]
    fn reads_the_main_line_and_skips_variations() {
        let record = parse("(;GM[1]SZ[9]KM[6.5];B[ee](;W[cc];B[gg])(;W[gc];B[cg]))").unwrap();
        assert_eq!(record.size, 9);
        assert_eq!(record.komi, Some(6.5));
        let moves: Vec<String> = record
            .events
            .iter()
            .map(|e| match e {
                Event::Move(c, Some(v)) => format!("{}{v}", c.letter()),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(moves, ["BE5", "WC7", "BG3"]);
    }

    #[test]
    fn escapes_soft_breaks_and_old_style_names() {
        let record = parse("(;SZ[5]RU[Jap\\]an\\\nese]AddBlack[aa][bb]PL[W])").unwrap();
        assert_eq!(record.rules.as_deref(), Some("Jap]anese"));
        assert_eq!(
            record.events,
            [Event::Setup {
                stones: vec![
                    (Vertex::new(0, 4), Some(Color::Black)),
                    (Vertex::new(1, 3), Some(Color::Black))
                ],
                to_move: Some(Color::White)
            }]
        );
    }

    #[test]
    fn rectangles_and_both_pass_notations() {
        let record = parse("(;SZ[19]AW[aa:bb];B[];W[tt])").unwrap();
        let Event::Setup { stones, .. } = &record.events[0] else {
            panic!("no setup")
        };
        assert_eq!(stones.len(), 4);
        assert_eq!(record.events[1], Event::Move(Color::Black, None));
        assert_eq!(record.events[2], Event::Move(Color::White, None));
        // On a board larger than 19x19, tt is a point.
        let big = parse("(;SZ[21];W[tt])").unwrap();
        assert_eq!(
            big.events[0],
            Event::Move(Color::White, Some(Vertex::new(19, 1)))
        );
    }

    #[test]
    fn game_info_and_annotations_are_written_back() {
        let record = parse("(;SZ[5]PB[A \\] B]RE[W+R]C[hi];B[cc];W[]C[two])").unwrap();
        assert_eq!(
            record.info,
            [("PB".into(), "A ] B".into()), ("RE".into(), "W+R".into())]
        );
        assert_eq!(
            record.comments,
            [(0, "hi".to_string()), (2, "two".to_string())]
        );
        let game = record.replay(Ruleset::FRENCH, 7.5, None).unwrap();
        let notes = Annotations {
            root: record.info.clone(),
            moves: vec![vec![], vec![("C".into(), "a \\ b ] c".into())]],
        };
        let text = write_annotated(&game, None, &notes);
        assert!(text.contains("PB[A \\] B]RE[W+R]"), "{text}");
        assert!(text.ends_with(";B[cc]\n;W[]C[a \\\\ b \\] c])\n"), "{text}");
        let again = parse(&text).unwrap();
        assert_eq!((again.info, again.events), (record.info, record.events));
    }

    #[test]
    fn time_left_stays_on_the_line_and_comments_start_one() {
        let mut game = Game::new(5, Ruleset::FRENCH, 7.5).unwrap();
        game.play(Color::Black, Move::Pass).unwrap();
        game.play(Color::White, Move::Pass).unwrap();
        let notes = Annotations {
            root: vec![],
            moves: vec![
                time_left(Color::Black, 9.999, 0),
                time_left(Color::White, 1.5, 2),
            ],
        };
        let text = write_annotated(&game, None, &notes);
        assert!(
            text.ends_with("\n;B[]BL[10.00];W[]WL[1.50]OW[2])\n"),
            "{text}"
        );
        let notes = Annotations {
            root: vec![],
            moves: vec![vec![], vec![("C".into(), "pass".into())]],
        };
        let text = write_annotated(&game, None, &notes);
        assert!(text.ends_with("\n;B[]\n;W[]C[pass])\n"), "{text}");
    }

    #[test]
    fn malformed_files_are_refused() {
        for text in [
            "",
            "no tree here",
            "(;SZ[9]",
            "(;SZ[9];B[ee",
            "(;SZ[9]B)",
            "(;SZ[9](;B[aa]);W[bb])",
            "(;SZ[30])",
            "(;SZ[9:7])",
            "(;SZ[9];B[zz])",
            "(;SZ[9]KM[lots])",
            "((((((",
            "))",
        ] {
            assert!(parse(text).is_err(), "accepted {text:?}");
        }
        // Too many moves are refused before any is played.
        let long = format!("(;SZ[9]{})", ";B[]".repeat(MAX_MOVES + 1));
        assert!(parse(&long).is_err());
        // Deep nesting is refused or read, never a stack overflow.
        let deep = format!("{}{}", "(;".repeat(100_000), ")".repeat(100_000));
        assert!(parse(&deep).is_ok());
    }
}
