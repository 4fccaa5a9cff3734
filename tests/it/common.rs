//! Helpers shared by the integration tests: positions written as vertex lists.

#![allow(dead_code)]

use hoshi::coord::{Color, Move, Point};
use hoshi::game::Game;
use hoshi::rules::Ruleset;

/// A game on a `size` board holding the given stones (GTP vertices separated by spaces),
/// with `to_move` to play.
pub fn setup(size: usize, rules: Ruleset, black: &str, white: &str, to_move: Color) -> Game {
    let mut game = Game::new(size, rules, rules.default_komi).expect("size");
    let stones: Vec<(Point, Color)> = points(&game, black)
        .into_iter()
        .map(|p| (p, Color::Black))
        .chain(points(&game, white).into_iter().map(|p| (p, Color::White)))
        .collect();
    assert!(game.set_position(stones, to_move), "overlapping stones");
    game
}

/// The points named in `list` (GTP vertices separated by spaces).
pub fn points(game: &Game, list: &str) -> Vec<Point> {
    list.split_whitespace().map(|v| point(game, v)).collect()
}

/// The point of one GTP vertex.
pub fn point(game: &Game, vertex: &str) -> Point {
    game.board()
        .geometry()
        .parse_point(vertex)
        .unwrap_or_else(|| panic!("bad vertex {vertex}"))
}

/// A move named in GTP (`D4` or `pass`).
pub fn mv(game: &Game, vertex: &str) -> Move {
    if vertex.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else {
        Move::Play(point(game, vertex))
    }
}

/// Plays a move that must be legal.
pub fn play(game: &mut Game, color: Color, vertex: &str) {
    let m = mv(game, vertex);
    if let Err(why) = game.play(color, m) {
        panic!("{color} {vertex} refused: {why}\n{:?}", game.board());
    }
}

/// The stones of `color`, as sorted GTP names joined by spaces.
pub fn stones(game: &Game, color: Color) -> String {
    let g = game.board().geometry();
    let mut names: Vec<_> = g
        .points()
        .filter(|&p| game.board().color_at(p) == Some(color))
        .map(|p| g.vertex(p))
        .collect();
    names.sort();
    names
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Three single-stone kos on a 9×9 board, at C/D2, C/D5 and C/D8 ("W": a White stone on C
/// that Black may take at D; "B": a Black stone on D that White may take at C), starting
/// with ko 1 "W", ko 2 "B", ko 3 "W". Returns the Black and White stones to set up.
pub fn triple_ko_stones() -> (String, String) {
    let mut black = String::new();
    let mut white = String::new();
    for row in [2, 5, 8] {
        black.push_str(&format!(" B{row} C{} C{}", row - 1, row + 1));
        white.push_str(&format!(" E{row} D{} D{}", row - 1, row + 1));
    }
    black.push_str(" D5");
    white.push_str(" C2 C8");
    (black, white)
}

/// The six captures that bring the triple ko back to its start.
pub const TRIPLE_KO_CYCLE: [(Color, &str); 6] = [
    (Color::Black, "D2"),
    (Color::White, "C5"),
    (Color::Black, "D8"),
    (Color::White, "C2"),
    (Color::Black, "D5"),
    (Color::White, "C8"),
];

/// Starts the hoshi binary with `args` in `dir`, stdin and stdout piped, stderr discarded.
pub fn spawn_hoshi(args: &[&str], dir: &std::path::Path) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_hoshi"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hoshi")
}

/// Runs the hoshi binary with `args` and stdin closed, expecting it to refuse them: it
/// fails and writes nothing on stdout. What it wrote on stderr, to check the reason.
pub fn refused_command_line(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hoshi"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("hoshi runs");
    assert!(!out.status.success(), "{args:?} accepted");
    assert!(out.stdout.is_empty(), "{args:?} wrote on stdout");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The lines a child process writes on `stdout`, read by a thread of their own so that a
/// test can wait for them with a time-out (a hung engine fails the test instead of hanging
/// it).
pub fn lines_of(stdout: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// A game on a board drawn as rows from the top (`X` Black, `O` White, `.` empty, spaces
/// ignored), with `to_move` to play and the ruleset's usual komi.
pub fn diagram(rows: &[&str], rules: Ruleset, to_move: Color) -> Game {
    let size = rows.len();
    let mut game = Game::new(size, rules, rules.default_komi).expect("size");
    let g = game.board().geometry();
    let mut stones = Vec::new();
    for (r, line) in rows.iter().enumerate() {
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), size, "row {r} of the diagram");
        for (col, ch) in cells.into_iter().enumerate() {
            let p = g.point(hoshi::coord::Vertex::new(col, size - 1 - r));
            match ch {
                'X' => stones.push((p, Color::Black)),
                'O' => stones.push((p, Color::White)),
                _ => {}
            }
        }
    }
    assert!(game.set_position(stones, to_move), "overlapping stones");
    game
}

/// The points of `set`, as GTP names sorted by column then row, joined by spaces.
pub fn names(game: &Game, set: &hoshi::coord::PointSet) -> String {
    let g = game.board().geometry();
    let mut vertices: Vec<_> = g.points().filter(|&p| set.contains(p)).collect();
    vertices.sort_by_key(|&p| {
        let v = g.vertex(p);
        (v.col, v.row)
    });
    vertices
        .iter()
        .map(|&p| g.name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// GNU Go: `gnugo` on the PATH, else Debian's `/usr/games/gnugo` (often not on the PATH).
/// Panics without it: the tests that need it are `#[ignore]`d, and when one is run by
/// name (`.ci/run` does) it must fail rather than pass having checked nothing.
pub fn gnugo() -> std::path::PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("gnugo"))
            .find(|candidate| candidate.is_file())
    });
    let debian = std::path::Path::new("/usr/games/gnugo");
    on_path
        .or_else(|| debian.is_file().then(|| debian.to_path_buf()))
        .unwrap_or_else(|| {
            panic!(
                "this test needs GNU Go 3.8: no gnugo on the PATH nor at /usr/games/gnugo \
                 (apt-get install -y gnugo)"
            )
        })
}

/// Runs GTP `script` in-process on `engine`; returns the answers (without their empty
/// lines).
pub fn gtp_answers(engine: &mut hoshi::engine::Engine, script: &str) -> Vec<String> {
    let mut out = Vec::new();
    hoshi::gtp::run(
        engine,
        std::io::Cursor::new(script.as_bytes().to_vec()),
        &mut out,
    )
    .expect("the GTP loop runs");
    String::from_utf8(out)
        .expect("UTF-8")
        .split("\n\n")
        .filter(|a| !a.is_empty())
        .map(String::from)
        .collect()
}
