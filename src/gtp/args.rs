//! Reading command arguments as the spec's entities (§3.2.1): int, float, color, vertex,
//! move. Anything malformed is a `syntax error`, the spec's word for it.

use super::Failure;
use crate::board::{Board, Illegal};
use crate::coord::{Color, Move, Point, Vertex};
use crate::engine::Engine;
use crate::parse;
use std::time::Duration;

/// The arguments, which must be exactly `N`.
pub fn exactly<const N: usize>(args: &[String]) -> Result<[&str; N], Failure> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    words.try_into().map_err(|_| Failure::Syntax)
}

/// At most one argument.
pub fn optional(args: &[String]) -> Result<Option<&str>, Failure> {
    match args {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        _ => Err(Failure::Syntax),
    }
}

/// A spec `int`: 0 to 2^31 - 1.
pub fn int(text: &str) -> Result<usize, Failure> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| n <= i32::MAX as u32)
        .map(|n| n as usize)
        .ok_or(Failure::Syntax)
}

/// A spec `float`, finite.
pub fn float(text: &str) -> Result<f64, Failure> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or(Failure::Syntax)
}

/// A time in seconds, 0 or more ([`parse::seconds`]).
pub fn duration(text: &str) -> Result<Duration, Failure> {
    parse::seconds(text).map_err(|_| Failure::Syntax)
}

/// A yes/no ([`parse::on_off`]): GoGui's `[bool]` sends 0 or 1, KataGo's options say true
/// or false.
pub fn boolean(text: &str) -> Result<bool, Failure> {
    parse::on_off(text).ok_or(Failure::Syntax)
}

pub fn color(text: &str) -> Result<Color, Failure> {
    Color::parse(text).ok_or(Failure::Syntax)
}

/// A vertex or `pass` (`None`), in any case, whatever the board.
pub fn vertex(text: &str) -> Result<Option<Vertex>, Failure> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    Vertex::parse_gtp(text).map(Some).ok_or(Failure::Syntax)
}

/// A move on `board`: a vertex beyond the board's edge is a well-formed move that is
/// illegal there.
pub fn play(board: &Board, text: &str) -> Result<Move, Failure> {
    match vertex(text)? {
        None => Ok(Move::Pass),
        Some(v) => board
            .geometry()
            .try_point(v)
            .map(Move::Play)
            .ok_or(Failure::Illegal(Illegal::OffBoard)),
    }
}

/// A point of `board` (not `pass`), for the commands that look at one.
pub fn point(board: &Board, text: &str) -> Result<Point, Failure> {
    vertex(text)?
        .and_then(|v| board.geometry().try_point(v))
        .ok_or(Failure::Syntax)
}

/// A color and a move, the `move` entity of the spec.
pub fn color_and_move(board: &Board, c: &str, v: &str) -> Result<(Color, Move), Failure> {
    Ok((color(c)?, play(board, v)?))
}

/// The color an optional argument names, else the player to move.
pub fn color_or_to_move(engine: &Engine, args: &[String]) -> Result<Color, Failure> {
    match optional(args)? {
        Some(text) => color(text),
        None => Ok(engine.game().to_move()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_spec_ranges() {
        assert_eq!(int("19"), Ok(19));
        assert_eq!(int("2147483647"), Ok(2147483647));
        assert_eq!(int("2147483648"), Err(Failure::Syntax));
        assert_eq!(int("-1"), Err(Failure::Syntax));
        assert_eq!(int("+3"), Ok(3));
        assert_eq!(float("6.5"), Ok(6.5));
        assert_eq!(float("-1e3"), Ok(-1000.0));
        assert_eq!(float("nan"), Err(Failure::Syntax));
        assert_eq!(float("inf"), Err(Failure::Syntax));
        assert_eq!(duration("-1"), Err(Failure::Syntax));
        assert_eq!(duration("0.25"), Ok(Duration::from_millis(250)));
        assert_eq!(duration("1e300"), Ok(Duration::MAX));
    }

    #[test]
    fn vertices_and_colors_ignore_case() {
        assert_eq!(vertex("PASS"), Ok(None));
        assert_eq!(vertex("d4"), Ok(Some(Vertex::new(3, 3))));
        assert_eq!(vertex("i4"), Err(Failure::Syntax));
        assert_eq!(color("W"), Ok(Color::White));
        assert_eq!(color("blue"), Err(Failure::Syntax));
        let board = Board::new(9).unwrap();
        assert_eq!(
            play(&board, "T19"),
            Err(Failure::Illegal(Illegal::OffBoard))
        );
        assert_eq!(point(&board, "T19"), Err(Failure::Syntax));
        assert_eq!(point(&board, "pass"), Err(Failure::Syntax));
    }
}
