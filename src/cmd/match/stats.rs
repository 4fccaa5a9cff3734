//! What a match says about the two engines: wins per engine and per color, the score
//! rate with its 95% confidence interval, the Elo difference with its error bar, game
//! length and time per move, and the games where an engine's own count disagreed.
//!
//! The maths, so that the figures can be checked by hand:
//! * Score rate p = (wins + draws / 2) / games.
//! * Its 95% interval is Wilson's score interval, z = 1.96: unlike the textbook
//!   p ± z·sqrt(p(1-p)/n) it stays inside [0, 1] and is not empty at 0 or n wins, which
//!   is what short matches between unequal engines produce.
//! * The Elo difference is the logistic model's D = 400·log10(p / (1 − p)) (p = 0.64 is
//!   100 Elo, p = 0.75 is 191); its error bar is the Wilson interval's two ends carried
//!   through the same formula, so it is lopsided when p is far from 1/2, as it should be.

use super::results::Row;
use crate::coord::Color;
use crate::score::GameResult;
use std::fmt::Write;

/// z of a two-sided 95% normal interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's score interval for `score` successes in `games` trials (draws count half),
/// with the normal quantile `z`. `(0, 1)` when there are no games.
pub fn wilson(score: f64, games: f64, z: f64) -> (f64, f64) {
    if games <= 0.0 {
        return (0.0, 1.0);
    }
    let p = score / games;
    let z2 = z * z;
    let shrink = 1.0 + z2 / games;
    let centre = (p + z2 / (2.0 * games)) / shrink;
    let half = z * (p * (1.0 - p) / games + z2 / (4.0 * games * games)).sqrt() / shrink;
    // At 0 or all wins one end is exactly 0 or 1; rounding would make it 1e-16 away,
    // which the Elo formula turns into thousands of points instead of infinity.
    let low = if score <= 0.0 { 0.0 } else { centre - half };
    let high = if score >= games { 1.0 } else { centre + half };
    (low.max(0.0), high.min(1.0))
}

/// The Elo difference that makes `rate` the expected score: 400·log10(p / (1 − p)),
/// infinite at 0 and 1.
pub fn elo(rate: f64) -> f64 {
    400.0 * (rate / (1.0 - rate)).log10()
}

/// One engine's games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    /// Games and wins with Black, then with White.
    pub games_as: [usize; 2],
    pub wins_as: [usize; 2],
    /// Seconds spent in `genmove` and moves played, over all its games.
    pub seconds: f64,
    pub moves: usize,
}

impl Standing {
    /// Wins plus half the draws.
    pub fn score(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score per game (NaN without games).
    pub fn rate(&self) -> f64 {
        self.score() / self.games as f64
    }

    fn add(&mut self, color: Color, result: &GameResult, seconds: f64, moves: usize) {
        self.games += 1;
        self.games_as[color.index()] += 1;
        match result.winner() {
            Some(winner) if winner == color => {
                self.wins += 1;
                self.wins_as[color.index()] += 1;
            }
            Some(_) => {}
            None => self.draws += 1,
        }
        self.seconds += seconds;
        self.moves += moves;
    }
}

/// The match so far, between `players[0]` (the `--black` engine) and `players[1]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    pub players: [String; 2],
    pub standings: [Standing; 2],
    /// Games won by Black, won by White, drawn.
    pub by_color: [usize; 3],
    pub total_moves: usize,
    /// Games ended by a count (or a draw), by resignation, by forfeit, on time.
    pub endings: [usize; 4],
    /// Games where an engine's own `final_score` named another winner than the recorded
    /// result, or could not be read.
    pub disagreements: Vec<String>,
    /// Claims that named the recorded winner with another margin. Engines count their own
    /// way (GNU Go by territory unless told `--chinese-rules`), so these are common and
    /// only counted; results.tsv has every claim.
    pub margin_disagreements: usize,
}

impl Tally {
    /// Counts `rows` (rows with other players are ignored). `white_first` tells that White
    /// moves first (handicap games), to share a game's moves between the two sides.
    pub fn new(players: &[String; 2], rows: &[Row], white_first: bool) -> Tally {
        let mut tally = Tally {
            players: players.clone(),
            standings: Default::default(),
            by_color: [0; 3],
            total_moves: 0,
            endings: [0; 4],
            disagreements: Vec::new(),
            margin_disagreements: 0,
        };
        for row in rows {
            tally.add(row, white_first);
        }
        tally
    }

    fn add(&mut self, row: &Row, white_first: bool) {
        let seats = [&row.black, &row.white];
        let Some(engines) = seats
            .map(|name| self.players.iter().position(|p| p == name))
            .into_iter()
            .collect::<Option<Vec<usize>>>()
        else {
            return;
        };
        for (color, engine) in [Color::Black, Color::White].into_iter().zip(engines) {
            let moves = moves_of(color, row.moves, white_first);
            let seconds = row.seconds[color.index()];
            self.standings[engine].add(color, &row.result, seconds, moves);
        }
        self.by_color[row.result.winner().map_or(2, Color::index)] += 1;
        self.total_moves += row.moves;
        self.endings[ending(&row.result)] += 1;
        for (same_winner, line) in disagreements(row) {
            if same_winner {
                self.margin_disagreements += 1;
            } else {
                self.disagreements.push(line);
            }
        }
    }

    pub fn games(&self) -> usize {
        self.by_color.iter().sum()
    }

    /// The first engine's Elo advantage over the second, with the ends of its 95% bar.
    pub fn elo(&self) -> (f64, f64, f64) {
        let first = &self.standings[0];
        let (low, high) = wilson(first.score(), first.games as f64, Z95);
        (elo(first.rate()), elo(low), elo(high))
    }

    /// One line for the progress report: `gnugo 3, hoshi 2, 1 draw`.
    pub fn score_line(&self) -> String {
        let [a, b] = &self.standings;
        let draws = a.draws;
        let mut line = format!(
            "{} {}, {} {}",
            self.players[0], a.wins, self.players[1], b.wins
        );
        if draws > 0 {
            let _ = write!(line, ", {draws} draw{}", if draws == 1 { "" } else { "s" });
        }
        line
    }

    /// The table shown at the end of a match.
    pub fn report(&self) -> String {
        let mut out = self.standings_table();
        let games = self.games();
        if games == 0 {
            return out;
        }
        let [black, white, draws] = self.by_color;
        let _ = writeln!(
            out,
            "\nBlack won {black}, White won {white}, {draws} drawn, of {games} games."
        );
        let (estimate, low, high) = self.elo();
        let _ = writeln!(
            out,
            "Elo difference, {} minus {}: {} (95%: {} to {})\n  \
             = 400·log10(p/(1-p)) of the score rate p = (wins + draws/2)/games; \
             the bar is the Wilson 95% interval of p put through the same formula.",
            self.players[0],
            self.players[1],
            signed(estimate),
            signed(low),
            signed(high)
        );
        let [counted, resigned, forfeited, on_time] = self.endings;
        let _ = writeln!(
            out,
            "Average game: {:.1} moves. Endings: {counted} counted, {resigned} by resignation, \
             {forfeited} by forfeit, {on_time} on time.",
            self.total_moves as f64 / games as f64
        );
        out.push_str(&self.disagreement_list());
        out
    }

    /// Wins per engine and per color, score rate, interval and time per move.
    fn standings_table(&self) -> String {
        let width = self
            .players
            .iter()
            .map(|p| p.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut out = format!(
            "{:<width$}  games   wins  draws  as Black  as White   score    95% interval    s/move\n",
            "engine"
        );
        for (name, s) in self.players.iter().zip(&self.standings) {
            let (low, high) = wilson(s.score(), s.games as f64, Z95);
            let per_move = s.seconds / s.moves.max(1) as f64;
            let _ = writeln!(
                out,
                "{name:<width$}  {:>5}  {:>5}  {:>5}  {:>8}  {:>8}  {:>6}  {:>6} - {:<6}  {per_move:>8.3}",
                s.games,
                s.wins,
                s.draws,
                format!("{}/{}", s.wins_as[0], s.games_as[0]),
                format!("{}/{}", s.wins_as[1], s.games_as[1]),
                percent(s.rate()),
                percent(low),
                percent(high),
            );
        }
        out
    }

    fn disagreement_list(&self) -> String {
        let margins = self.margin_disagreements;
        let mut out = format!(
            "Engines' own final_score: {} named another winner, {margins} another margin.\n",
            self.disagreements.len()
        );
        for line in &self.disagreements {
            let _ = writeln!(out, "  {line}");
        }
        out
    }
}

/// The moves `color` made in a game of `moves` moves.
fn moves_of(color: Color, moves: usize, white_first: bool) -> usize {
    let first = if white_first {
        Color::White
    } else {
        Color::Black
    };
    if color == first {
        moves.div_ceil(2)
    } else {
        moves / 2
    }
}

/// Which of [`Tally::endings`] a result counts in.
fn ending(result: &GameResult) -> usize {
    match result {
        GameResult::Points { .. } | GameResult::Draw => 0,
        GameResult::Resignation { .. } => 1,
        GameResult::Forfeit { .. } => 2,
        GameResult::Time { .. } => 3,
    }
}

/// The engines of `row` whose own count is not the recorded result: whether it named the
/// same winner, and a line saying who said what.
fn disagreements(row: &Row) -> Vec<(bool, String)> {
    let seats = [("Black", &row.black), ("White", &row.white)];
    seats
        .iter()
        .zip(&row.claims)
        .filter_map(|((side, name), claim)| {
            let claim = claim.as_deref()?;
            let claimed = GameResult::parse(claim);
            (claimed != Some(row.result)).then(|| {
                let same_winner = claimed.is_some_and(|c| c.winner() == row.result.winner());
                let line = format!(
                    "game {}: recorded {}, {side} ({name}) says {claim}",
                    row.game, row.result
                );
                (same_winner, line)
            })
        })
        .collect()
}

/// A rate as a percentage, `-` when undefined.
fn percent(rate: f64) -> String {
    if rate.is_nan() {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * rate)
    }
}

/// An Elo figure with its sign, rounded to a whole point; `+inf`/`-inf` at the ends.
fn signed(elo: f64) -> String {
    if elo.is_nan() {
        "-".into()
    } else if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{elo:+.0}")
    }
}
