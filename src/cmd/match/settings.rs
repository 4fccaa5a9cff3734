//! What every game of a match shares, checked once before the first game: board, rules,
//! komi, handicap stones, move limit, the time an engine may take to answer and the
//! engines' game clocks.

use crate::coord::Vertex;
use crate::game::Game;
use crate::handicap::{self, HandicapError};
use crate::player::clock::TimeControl;
use crate::rules::Ruleset;
use std::fmt;
use std::time::Duration;

/// The settings of every game of a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The start of every game: the empty board with rules, komi and handicap stones.
    /// Each game plays on a copy, so that all of them are judged by the same rules.
    pub start: Game,
    /// The handicap stones, in the order they were placed (empty without handicap).
    pub handicap: Vec<Vertex>,
    /// Whether the handicap is GTP's fixed one (`fixed_handicap`), which every engine
    /// places the same way; otherwise the stones are sent with `set_free_handicap`.
    pub fixed_handicap: bool,
    /// Moves (passes included) after which the game is stopped and counted.
    pub max_moves: usize,
    /// Time an engine may take to answer any command, `genmove` included unless it has a
    /// clock.
    pub move_timeout: Duration,
    /// The game clock of the `--black` engine and of the `--white` one (which color they
    /// play may alternate); `Unlimited` for none.
    pub clocks: [TimeControl; 2],
}

impl MatchSettings {
    /// Checks the values and places the handicap: fixed stones where GTP's table has them
    /// (up to 9 on odd boards from 9x9), else hoshi's free placement.
    pub fn new(
        size: usize,
        rules: Ruleset,
        komi: f64,
        stones: usize,
        max_moves: usize,
        move_timeout: Duration,
    ) -> Result<MatchSettings, SettingsError> {
        let mut start = Game::new(size, rules, komi).ok_or(SettingsError::Size(size))?;
        if !komi.is_finite() {
            return Err(SettingsError::Komi);
        }
        let (handicap, fixed_handicap) = place_handicap(&mut start, stones)?;
        Ok(MatchSettings {
            start,
            handicap,
            fixed_handicap,
            max_moves,
            move_timeout,
            clocks: [TimeControl::Unlimited; 2],
        })
    }

    pub fn size(&self) -> usize {
        self.start.size()
    }

    pub fn rules(&self) -> Ruleset {
        self.start.rules()
    }

    pub fn komi(&self) -> f64 {
        self.start.komi()
    }
}

/// Why the settings of a match cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// No board of this size.
    Size(usize),
    /// Komi that is not a number.
    Komi,
    /// The handicap cannot be placed.
    Handicap { stones: usize, why: HandicapError },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Size(size) => write!(f, "no {size}x{size} board: use 2 to 25"),
            SettingsError::Komi => f.write_str("komi must be a number"),
            SettingsError::Handicap { stones, why } => write!(f, "handicap {stones}: {why}"),
        }
    }
}

impl std::error::Error for SettingsError {}

/// Puts `stones` handicap stones on `game`; returns them and whether they are the fixed
/// ones. No stones for 0; 1 is refused, as GTP does (one stone is no handicap: it is
/// Black's first move, which `--komi 0.5` would describe).
fn place_handicap(game: &mut Game, stones: usize) -> Result<(Vec<Vertex>, bool), SettingsError> {
    if stones == 0 {
        return Ok((Vec::new(), false));
    }
    let refused = |why| SettingsError::Handicap { stones, why };
    if stones <= handicap::max_fixed(game.size()) {
        let placed = game.fixed_handicap(stones).map_err(refused)?;
        return Ok((placed, true));
    }
    let placed = handicap::free(game.size(), stones).map_err(refused)?;
    game.set_handicap(&placed).map_err(refused)?;
    Ok((placed, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn handicaps_are_fixed_where_the_table_has_them() {
        let s = MatchSettings::new(9, Ruleset::FRENCH, 0.5, 4, 100, SECOND).unwrap();
        assert!(s.fixed_handicap);
        assert_eq!(s.start.handicap(), 4);
        let s = MatchSettings::new(5, Ruleset::FRENCH, 0.5, 3, 100, SECOND).unwrap();
        assert!(!s.fixed_handicap);
        assert_eq!(s.handicap.len(), 3);
        assert_eq!(
            MatchSettings::new(9, Ruleset::FRENCH, 0.5, 1, 100, SECOND)
                .map_err(|e| e.to_string())
                .err()
                .as_deref(),
            Some("handicap 1: invalid number of stones")
        );
        assert!(MatchSettings::new(30, Ruleset::FRENCH, 7.5, 0, 100, SECOND).is_err());
    }
}
