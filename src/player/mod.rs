//! The player: what chooses a move for `genmove`, behind the [`Player`] trait so that the
//! protocol code never changes when the player does. The Monte Carlo tree search
//! ([`mcts::MctsPlayer`]) plays; [`random::RandomPlayer`] is the baseline that benchmarks
//! measure against (`hoshi --random`). The clock and the time each move gets
//! ([`clock`]), the dead-stone judge ([`judge`], which runs searches like the player
//! does) and the one table of what changes with the board's size ([`size_class`]) live
//! here too.

pub mod clock;
pub mod dynkomi;
pub mod judge;
pub mod mcts;
pub mod params;
pub mod random;
pub mod rank;
pub mod size_class;
pub mod strength;

use crate::coord::{Color, Move};
use crate::game::Game;
use crate::search::{SearchResult, Watch};
use clock::Clock;
use size_class::SizeClass;
use std::fmt;
use std::time::Duration;

pub use mcts::{MctsPlayer, PlayerSettings};
pub use params::{Params, PlayerParams};
pub use random::RandomPlayer;
pub use rank::Rank;

/// Playing strength, as the command line offers it. Each level is a documented set of search
/// settings: the rungs of each board's ladder ([`size_class::SizeClass::rung`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    /// Quick moves for learners (about 10 kyu): a short search, and a move a little worse
    /// than its best.
    Beginner,
    /// A club-level opponent (about 7 kyu), GNU Go level 10's strength on every size.
    Intermediate,
    /// Full strength: every thread, all the time the clock allows. Its rank is the top of
    /// each board's ladder, measured by the handicap ([`size_class::SizeClass::strongest`]).
    #[default]
    Expert,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Intermediate, Level::Expert];

    /// The rank the level asks for on the scale ([`rank::Rank`]): beginner 10 kyu,
    /// intermediate 7 kyu (GNU Go 3.8 level 10's KGS rank, and about even with it on every
    /// size), expert the strongest rank there is, which every board plays as its own
    /// strongest ([`Level::rank_on`]): asked for once, it stays expert when the board
    /// changes.
    pub fn rank(self) -> Rank {
        match self {
            Level::Beginner => size_class::BEGINNER,
            Level::Intermediate => size_class::INTERMEDIATE,
            Level::Expert => Rank::STRONGEST,
        }
    }

    /// The rank the level plays on a `size`×`size` board.
    pub fn rank_on(self, size: usize) -> Rank {
        SizeClass::of(size).rank_played(self.rank())
    }

    /// The level whose rank on a `size`×`size` board is `rank`, if one is.
    pub fn of_rank(rank: Rank, size: usize) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.rank_on(size) == rank)
    }

    /// The level named `name` (any case).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Expert => "expert",
        })
    }
}

/// The rank `text` names, if hoshi plays it (`--rank`, GTP `hoshi-rank`): every rank from
/// 30 kyu up to `strongest` (expert's on the board, or on any board before the board is
/// known, [`SizeClass::strongest_anywhere`]).
pub fn playable_rank(text: &str, strongest: Rank) -> Result<Rank, rank::RankError> {
    text.parse::<Rank>()?.at_most(strongest)
}

/// Seed of every `reg_genmove` answer (mixed with the position where a player draws at
/// random), so that a test asking about a position always gets the same move.
pub const REGRESSION_SEED: u64 = 0x7265_675f_6765_6e6d;

/// Why a move is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `genmove`: the move will be played.
    Play,
    /// `kgs-genmove_cleanup`: the game is being played on to capture dead stones, so the
    /// player must not pass while opponent stones it judges dead are still on the board.
    Cleanup,
    /// `reg_genmove`: a test asks; the answer must depend on the position only (no
    /// randomness carried from earlier calls) and nothing is played.
    Regression,
}

/// What the player decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Move(Move),
    Resign,
}

/// What thinking without choosing is bounded by, where analysis asks (KataGo's `maxVisits`,
/// `allowMoves` and `avoidMoves`): by default the watcher alone ends it, over every move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scope {
    /// Simulations after which the search ends, exactly.
    pub visits: Option<u64>,
    /// The root moves the search may consider (the pass always among them), when not all.
    pub root_moves: Option<Vec<Move>>,
    /// Whether to search from a new tree, as KataGo's analysis engine does: `visits` then
    /// count every visit of the root, none kept from an earlier search (the network's cache
    /// still has what was evaluated, so walking again through a line read before is cheap).
    pub fresh: bool,
}

/// A move generator.
pub trait Player {
    /// The move `color` should play in `game`. It must be legal under the game's full rules
    /// (superko included): a controller forfeits an engine for an illegal move.
    /// `clock` is what the controller said about time; the player keeps within it.
    fn choose(&mut self, game: &Game, color: Color, mode: Mode, clock: &Clock) -> Choice {
        self.choose_watched(game, color, mode, clock, &mut |_| true)
    }

    /// [`Player::choose`] with a watcher that sees the search in progress and may end it
    /// early (GoGui's interrupt, analysis output while choosing).
    fn choose_watched(
        &mut self,
        game: &Game,
        color: Color,
        mode: Mode,
        clock: &Clock,
        watch: Watch<'_>,
    ) -> Choice;

    /// Thinks about `color`'s move in `game` without choosing, until `watch` ends it or
    /// `scope`'s limit comes (analysis, pondering); the thinking is kept for the next move.
    /// `None` for players that do not search.
    fn think(
        &mut self,
        _game: &Game,
        _color: Color,
        _scope: &Scope,
        _watch: Watch<'_>,
    ) -> Option<SearchResult> {
        None
    }

    /// Whether thinking on the opponent's time helps this player: only when it thinks for a
    /// time rather than a fixed number of playouts (more playouts would make it stronger
    /// than its level).
    fn ponders(&self) -> bool {
        false
    }

    /// Takes new settings (GTP `hoshi-param`, `hoshi-rank`, GoGui's parameters) and keeps
    /// what they leave valid: a searching player keeps its tree, its caches of network
    /// outputs and its dynamic komi unless the change reaches them. Players without
    /// settings ignore it.
    fn reconfigure(&mut self, _settings: &PlayerSettings) {}

    /// Whether the next searches keep each root move's ownership, for analysis that shows
    /// it (KataGo's `movesOwnership`); players that do not search ignore it.
    fn set_moves_ownership(&mut self, _on: bool) {}

    /// Keeps its network outputs in `shelf`'s caches from now on, shared with the other
    /// players given it (the analysis engine's positions searched side by side); players
    /// without a network ignore it.
    fn share_caches(&mut self, _shelf: &crate::setup::CacheShelf) {}

    /// The result of the player's last search (its root moves' visits are what self-play
    /// learns from); `None` for players that do not search.
    fn last_search(&self) -> Option<&SearchResult> {
        None
    }

    /// The time the player would think on `color`'s next move (what `hoshi-time_budget`
    /// shows); `None` for a player that does not think by time.
    fn time_budget(&self, _game: &Game, _color: Color, _clock: &Clock) -> Option<Duration> {
        None
    }
}
