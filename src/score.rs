//! Counting a finished game: area (stones + surrounded empty points) or territory
//! (surrounded empty points + prisoners), given which stones are dead and which are in seki,
//! and the result written the way GTP and SGF write it (`B+3`, `W+4.5`, `0`, `W+R`), like
//! every score and lead hoshi prints ([`margin_text`]).

use crate::board::{Board, Cell};
use crate::coord::{Color, Point, PointSet};
use crate::rules::Scoring;
use std::fmt;

/// The life-and-death verdict the count starts from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Status {
    /// Stones to remove before counting (they become the opponent's territory and, under
    /// territory scoring, his prisoners).
    pub dead: PointSet,
    /// Stones alive in seki: under territory scoring the empty points they touch count for
    /// nobody.
    pub seki: PointSet,
}

/// What is added to the stones and territory besides the board itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Adjustments {
    pub komi: f64,
    /// Points White's area gets for the handicap (already worked out from the ruleset).
    pub handicap_bonus: f64,
    /// Stones captured during the game by Black and by White.
    pub prisoners: [usize; 2],
}

/// The count, item by item, so that players (and tests) can check it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Live stones of Black and White on the board.
    pub stones: [usize; 2],
    /// Empty (or dead-stone) points surrounded by Black only, by White only.
    pub territory: [usize; 2],
    /// Prisoners of Black and White: captures plus dead stones removed (territory scoring
    /// only; zero under area scoring).
    pub prisoners: [usize; 2],
    /// Points surrounded by nobody (or by seki groups under territory scoring).
    pub neutral: usize,
    pub komi: f64,
    pub handicap_bonus: f64,
    /// Totals: Black's and White's points.
    pub total: [f64; 2],
}

impl Score {
    pub fn black(&self) -> f64 {
        self.total[0]
    }

    pub fn white(&self) -> f64 {
        self.total[1]
    }

    /// Who wins by how much.
    pub fn result(&self) -> GameResult {
        GameResult::from_margin(self.black() - self.white())
    }
}

/// Counts `board` under `scoring`.
pub fn count(board: &Board, status: &Status, scoring: Scoring, adjust: Adjustments) -> Score {
    let g = board.geometry();
    let mut score = Score {
        komi: adjust.komi,
        ..Score::default()
    };
    let alive = |p: Point| board.cell(p).is_stone() && !status.dead.contains(p);
    for p in g.points() {
        if let Some(c) = board.color_at(p) {
            if alive(p) {
                score.stones[c.index()] += 1;
            }
        }
    }

    let mut seen = PointSet::new();
    let mut dead_taken = [0usize; 2];
    for start in g.points() {
        if alive(start) || seen.contains(start) {
            continue;
        }
        let region = Region::flood(board, status, start, &mut seen);
        match region.owner() {
            Some(owner) if !(scoring == Scoring::Territory && region.touches_seki) => {
                score.territory[owner.index()] += region.points;
                dead_taken[owner.index()] += region.dead[owner.opponent().index()];
            }
            _ => score.neutral += region.points,
        }
    }

    let [black, white] = match scoring {
        Scoring::Area => [
            (score.stones[0] + score.territory[0]) as f64,
            (score.stones[1] + score.territory[1]) as f64 + adjust.handicap_bonus,
        ],
        Scoring::Territory => {
            score.prisoners = [
                adjust.prisoners[0] + dead_taken[0],
                adjust.prisoners[1] + dead_taken[1],
            ];
            [
                (score.territory[0] + score.prisoners[0]) as f64,
                (score.territory[1] + score.prisoners[1]) as f64,
            ]
        }
    };
    if scoring == Scoring::Area {
        score.handicap_bonus = adjust.handicap_bonus;
    }
    score.total = [black, white + adjust.komi];
    score
}

/// A connected region of empty points and dead stones, with what borders it.
struct Region {
    points: usize,
    /// Dead stones of each color inside.
    dead: [usize; 2],
    /// Whether live Black / White stones touch it.
    borders: [bool; 2],
    touches_seki: bool,
}

impl Region {
    fn flood(board: &Board, status: &Status, start: Point, seen: &mut PointSet) -> Region {
        let g = board.geometry();
        let mut region = Region {
            points: 0,
            dead: [0; 2],
            borders: [false; 2],
            touches_seki: false,
        };
        let mut stack = vec![start];
        seen.insert(start);
        while let Some(p) = stack.pop() {
            region.points += 1;
            if let Some(c) = board.color_at(p) {
                region.dead[c.index()] += 1;
            }
            for n in g.neighbours(p) {
                match board.cell(n) {
                    Cell::Border => {}
                    Cell::Black | Cell::White if !status.dead.contains(n) => {
                        if let Some(c) = board.color_at(n) {
                            region.borders[c.index()] = true;
                        }
                        region.touches_seki |= status.seki.contains(n);
                    }
                    _ => {
                        if seen.insert(n) {
                            stack.push(n);
                        }
                    }
                }
            }
        }
        region
    }

    /// The only color bordering the region, if exactly one does.
    fn owner(&self) -> Option<Color> {
        match self.borders {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameResult {
    /// Won on the count by `margin` points (always positive).
    Points {
        winner: Color,
        margin: f64,
    },
    /// Equal count (only possible with an integer komi).
    Draw,
    Resignation {
        winner: Color,
    },
    Time {
        winner: Color,
    },
    /// Lost by forfeit (an illegal move, a crash).
    Forfeit {
        winner: Color,
    },
}

impl GameResult {
    /// The result of a count where Black leads by `margin` (negative: White leads), to a
    /// tenth of a point as [`margin_text`] writes it, so that a result that reads `0` is a
    /// draw (only a komi in hundredths of a point can make a margin that is not exactly 0
    /// round to it).
    pub fn from_margin(margin: f64) -> GameResult {
        let margin = to_tenths(margin);
        if margin > 0.0 {
            GameResult::Points {
                winner: Color::Black,
                margin,
            }
        } else if margin < 0.0 {
            GameResult::Points {
                winner: Color::White,
                margin: -margin,
            }
        } else {
            GameResult::Draw
        }
    }

    pub fn winner(&self) -> Option<Color> {
        match *self {
            GameResult::Points { winner, .. }
            | GameResult::Resignation { winner }
            | GameResult::Time { winner }
            | GameResult::Forfeit { winner } => Some(winner),
            GameResult::Draw => None,
        }
    }

    /// Parses the GTP/SGF spelling: `B+3.5`, `W+R`, `B+Resign`, `W+T`, `B+F`, `0`, `Draw`.
    pub fn parse(text: &str) -> Option<GameResult> {
        let text = text.trim();
        if text == "0" || text.eq_ignore_ascii_case("draw") || text.eq_ignore_ascii_case("jigo") {
            return Some(GameResult::Draw);
        }
        let (who, how) = text.split_once('+')?;
        let winner = Color::parse(who)?;
        Some(match how.to_ascii_lowercase().as_str() {
            "r" | "resign" => GameResult::Resignation { winner },
            "t" | "time" => GameResult::Time { winner },
            "f" | "forfeit" => GameResult::Forfeit { winner },
            number => {
                let margin: f64 = number.parse().ok()?;
                if !(margin.is_finite() && margin > 0.0) {
                    return None;
                }
                GameResult::Points { winner, margin }
            }
        })
    }
}

/// A margin of `black_margin` points for Black (negative: for White), as GTP's
/// `final_score` writes a result: `B+3`, `W+4.5`, `0` for a draw; the one spelling of every
/// score and lead hoshi prints (`final_score`, `estimate_score`, results files, the game
/// review). To a tenth of a point, the precision of an estimate, which is exact for every
/// count with a komi in half points, and with no trailing `.0` (`B+3`, as in GTP's and SGF's
/// examples). A margin that rounds to 0.0 is `0`, as a draw is: a lead of a few hundredths
/// is no lead, and `B+0.0` would name a winner who is none.
pub fn margin_text(black_margin: f64) -> String {
    let margin = to_tenths(black_margin);
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    }
}

/// `points` rounded to a tenth of a point.
fn to_tenths(points: f64) -> f64 {
    (points * 10.0).round() / 10.0
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::Points { winner, margin } => {
                f.write_str(&margin_text(margin * f64::from(winner.sign())))
            }
            GameResult::Draw => f.write_str("0"),
            GameResult::Resignation { winner } => write!(f, "{}+R", winner.letter()),
            GameResult::Time { winner } => write!(f, "{}+T", winner.letter()),
            GameResult::Forfeit { winner } => write!(f, "{}+F", winner.letter()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_print_as_gtp_does() {
        assert_eq!(GameResult::from_margin(3.0).to_string(), "B+3");
        assert_eq!(GameResult::from_margin(-4.5).to_string(), "W+4.5");
        assert_eq!(GameResult::from_margin(0.0).to_string(), "0");
        assert_eq!(GameResult::from_margin(0.04), GameResult::Draw);
        assert_eq!(
            GameResult::Resignation {
                winner: Color::White
            }
            .to_string(),
            "W+R"
        );
        for text in ["B+3", "W+4.5", "0", "W+R", "B+T", "W+F"] {
            assert_eq!(GameResult::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(GameResult::parse("B+Resign").unwrap().to_string(), "B+R");
        assert_eq!(GameResult::parse("B+-3"), None);
        assert_eq!(GameResult::parse("X+3"), None);
    }

    #[test]
    fn margins_print_to_a_tenth_and_a_draw_as_0() {
        let printed = [
            3.0, 2.46, 0.25, 0.05, 0.04, 0.0, -0.0, -0.04, -0.5, -6.96, -24.6,
        ]
        .map(margin_text);
        assert_eq!(
            printed,
            ["B+3", "B+2.5", "B+0.3", "B+0.1", "0", "0", "0", "0", "W+0.5", "W+7", "W+24.6"]
        );
    }
}
