//! The search as a [`Player`]: the ranks as the rungs of each board's ladder, the budget of
//! each move, and the decisions around the search (pass, resign, cleanup).

use super::clock::Clock;
use super::dynkomi::{self, KomiShift};
use super::judge;
use super::params::Params;
use super::size_class::SizeClass;
use super::strength::{self, Rung};
use super::{Choice, Mode, Player, Rank, Scope, REGRESSION_SEED};
use crate::board::Board;
use crate::coord::{Color, Move, Point};
use crate::game::Game;
use crate::net::SharedNet;
use crate::search::{Budget, Search, SearchConfig, SearchResult, Watch};
use crate::setup::{Advice, CacheShelf, Kit, NetChoice, Workshop};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How the Monte Carlo player plays, as the command line, GTP (`hoshi-param`, `hoshi-rank`,
/// `hoshi-level`) and GoGui's parameters set it: made once where the engine is set up and
/// handed to the player whole. What a rank does on a board (its visits, temperature,
/// sight...) comes from the board's ladder ([`SizeClass::rung`]); what is given here
/// overrides it. The setup ([`crate::setup`]) turns its network and knobs into what plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerSettings {
    /// The strength asked for; each board plays it at most at its strongest rank
    /// ([`SizeClass::rank_played`]).
    pub rank: Rank,
    /// Search threads of the strongest rank and of analysis (the others search their
    /// visits on one).
    pub threads: usize,
    /// Visits a move (`--visits`), whatever the rank.
    pub visits: Option<u64>,
    /// Thinking time a move (`--time`), whatever the rank and the clock say.
    pub time: Option<Duration>,
    /// Memory the search tree may use, in bytes.
    pub max_memory: usize,
    /// Every tuning knob (`--param`, `hoshi-param`), at every rank.
    pub params: Params,
    /// The networks (`--net`), each board's at the ranks that take its advice
    /// ([`Rung::network`]) and in analysis.
    pub net: NetChoice,
    /// The first moves of a game are drawn among the good candidates by their playouts
    /// (temperature 1), whatever the rank: self-play's games must differ from one another
    /// (AlphaGo Zero draws its first 30 moves so). 0 for none.
    pub opening_moves: usize,
}

impl Default for PlayerSettings {
    /// Expert on one thread, 2 GiB of tree, the default tuning, no network.
    fn default() -> Self {
        PlayerSettings {
            rank: super::Level::Expert.rank(),
            threads: 1,
            visits: None,
            time: None,
            max_memory: 2 << 30,
            params: Params::default(),
            net: NetChoice::Off,
            opening_moves: 0,
        }
    }
}

/// The Monte Carlo player.
pub struct MctsPlayer {
    settings: PlayerSettings,
    /// The board size `rung` is for (the ranks are calibrated per size).
    size: usize,
    /// What the rank does on this board.
    rung: Rung,
    /// The kits made so far (with and without the network, at most), each knowledge kept
    /// with its cache of network outputs.
    workshop: Workshop,
    search: Search,
    rng: SmallRng,
    /// Consecutive moves of each color (by [`Color::index`]) whose win rate was under the
    /// resign threshold: a process asked to play both colors (a GUI's self-play) keeps
    /// the two streaks apart.
    hopeless_moves: [u32; 2],
    /// The komi shift of dynamic komi, as the game goes.
    komi_shift: KomiShift,
    last: Option<SearchResult>,
    /// The caches shared with other players ([`Player::share_caches`]), if any.
    shelf: Option<CacheShelf>,
}

impl MctsPlayer {
    pub fn new(settings: PlayerSettings, seed: u64) -> MctsPlayer {
        let size = 19; // GTP's default board, until a game says otherwise (`fit_to`)
        let rung = SizeClass::of(size).rung(settings.rank);
        let mut workshop = Workshop::new(settings.net, settings.params.tuning());
        let kit = workshop.kit(size, rung.advice());
        let config = kit.config(playing_threads(&settings, &rung), settings.max_memory);
        let search = Search::new(config, kit.knowledge, seed);
        MctsPlayer {
            settings,
            size,
            rung,
            workshop,
            search,
            rng: SmallRng::seed_from_u64(seed),
            hopeless_moves: [0; 2],
            komi_shift: KomiShift::default(),
            last: None,
            shelf: None,
        }
    }

    pub fn rank(&self) -> Rank {
        self.settings.rank
    }

    /// Plays at `rank` from now on (GTP `hoshi-rank` and `hoshi-level`, GoGui's
    /// parameters): its resignation streaks start again.
    fn change_rank(&mut self, rank: Rank) {
        self.settings.rank = rank;
        self.rung = SizeClass::of(self.size).rung(rank);
        self.hopeless_moves = [0; 2];
    }

    /// Takes the rank's rung for a `size`×`size` board, if it is not the one in use.
    fn fit_to(&mut self, size: usize) {
        if size != self.size {
            self.size = size;
            self.rung = SizeClass::of(size).rung(self.settings.rank);
        }
    }

    /// The tuning the player searches and decides with.
    pub fn params(&self) -> &Params {
        &self.settings.params
    }

    /// The kit the rank plays this board with: the network the rung takes, if any.
    fn playing_kit(&mut self) -> Kit {
        self.workshop.kit(self.size, self.rung.advice())
    }

    /// The search's settings for a move ([`playing_threads`]).
    fn playing_config(&mut self) -> SearchConfig {
        let threads = playing_threads(&self.settings, &self.rung);
        self.playing_kit().config(threads, self.settings.max_memory)
    }

    /// The board's network, whatever the rank: the dead-stone judge's.
    fn board_net(&self) -> Option<SharedNet> {
        self.settings.net.for_board(self.size)
    }

    /// The share of the legal moves the player sees: the tuning's, else the rank's.
    fn sight(&self) -> f64 {
        self.params().player.sight.unwrap_or(self.rung.sight)
    }

    /// The points a move gives away: the tuning's, else the rank's.
    fn point_loss(&self) -> f64 {
        self.params()
            .player
            .point_loss
            .unwrap_or(self.rung.point_loss)
    }

    /// The budget of the next move: `--time` if given (yet never more than the clock's
    /// ceiling: a fixed time per move must not lose on time); else the rank's (or
    /// `--visits`), kept within what the clock allows; a timed rank without a clock
    /// thinks for its size class's [`SizeClass::expert_time`].
    fn budget(&self, game: &Game, color: Color, clock: &Clock) -> Budget {
        let size = game.size();
        let (area, empties) = (size * size, game.board().empty_points().len());
        let clock_time = clock.budget(color, area, empties);
        let (playouts, time) = match (self.settings.visits, self.settings.time) {
            (playouts, Some(time)) => {
                let ceiling = clock.ceiling(color, area, empties);
                (playouts, Some(ceiling.map_or(time, |c| time.min(c))))
            }
            (Some(playouts), None) => (Some(playouts), clock_time),
            (None, None) if self.rung.timed => {
                let time = clock_time.unwrap_or(SizeClass::of(size).expert_time);
                (None, Some(time))
            }
            (None, None) => (self.rung.playouts(), clock_time),
        };
        Budget {
            visits: playouts,
            time,
        }
    }

    /// The search `reg_genmove` answers from: the same position always gives the same move,
    /// so it runs on one thread, from a fresh tree and a fixed seed, for a fixed number of
    /// playouts (the rank's, or the command line's, else
    /// [`super::params::PlayerParams::regression_playouts`]).
    fn regression_search(&mut self, game: &Game, color: Color) -> SearchResult {
        let playouts = self
            .settings
            .visits
            .or(self.rung.playouts())
            .unwrap_or(self.params().player.regression_playouts);
        let budget = Budget {
            visits: Some(playouts),
            time: None,
        };
        let kit = self.playing_kit();
        let config = kit.config(1, self.settings.max_memory);
        let mut search = Search::new(config, kit.knowledge, REGRESSION_SEED);
        let mut rng = SmallRng::seed_from_u64(REGRESSION_SEED ^ game.board().hash());
        let big_chain = self.params().player.sight_chain as usize;
        let seen = strength::seen_moves(game, color, self.sight(), big_chain, &mut rng);
        search.set_root_moves(seen);
        // The handicap's shift depends on the game alone; the situational one on the
        // searches before, which a regression answer must not.
        search.set_komi_shift(dynkomi::handicap_shift(
            game,
            color,
            &self.params().player.dynamic_komi,
        ));
        search.run(game, color, budget, &AtomicBool::new(false))
    }

    /// The search of a move to play, with dynamic komi: when the shifted count prefers a
    /// pass, the real one decides (a pass may end the game, and the real komi counts it),
    /// in a second search of half the budget.
    fn play_search(
        &mut self,
        game: &Game,
        color: Color,
        clock: &Clock,
        watch: Watch<'_>,
    ) -> SearchResult {
        let config = self.playing_config();
        self.search.set_config(config);
        let knowledge = self.playing_kit().knowledge;
        self.search.set_knowledge(knowledge);
        let params = self.params().player.dynamic_komi;
        let shift = self.komi_shift.for_move(game, color, &params);
        self.search.set_komi_shift(shift);
        let budget = self.budget(game, color, clock).bounded();
        let big_chain = self.params().player.sight_chain as usize;
        let seen = strength::seen_moves(game, color, self.sight(), big_chain, &mut self.rng);
        self.search.set_root_moves(seen);
        let mut result = self.search.run_watched(game, color, budget, watch);
        if shift != 0.0 && result.best == Move::Pass {
            self.search.set_komi_shift(0.0);
            result = self
                .search
                .run_watched(game, color, budget.halved(), &mut |_: &_| true);
        }
        self.komi_shift
            .update(game, color, result.search_winrate, &params);
        result
    }

    /// The temperature of the move after `moves_played` moves: the rank's, or 1 in the
    /// opening that [`PlayerSettings::opening_moves`] asks to vary.
    fn temperature(&self, moves_played: usize) -> f64 {
        if moves_played < self.settings.opening_moves {
            1.0
        } else {
            self.rung.temperature
        }
    }

    /// Draws a move among the candidates by playouts^(1/temperature).
    fn draw(&mut self, result: &SearchResult, temperature: f64, board: &Board) -> Move {
        if result.best == Move::Pass {
            return Move::Pass;
        }
        // Only moves the search thought reasonable.
        let share = self.params().player.draw_share;
        let pool: Vec<(Move, f64)> = strength::candidates(result, share, board)
            .map(|c| (c.mv, f64::from(c.visits).powf(1.0 / temperature)))
            .collect();
        let total: f64 = pool.iter().map(|&(_, w)| w).sum();
        if total <= 0.0 {
            return result.best;
        }
        let mut x = self.rng.gen_range(0.0..total);
        for (mv, w) in pool {
            if x < w {
                return mv;
            }
            x -= w;
        }
        result.best
    }

    /// Whether to resign after this search (its win rate is by the real komi, whatever
    /// dynamic komi did). Every rank resigns by this one rule: a beginner that played on in
    /// a lost game made its opponent capture every last stone it threw in (9x9 games lost by
    /// the whole board, 19x19 games to move 450).
    fn should_resign(&mut self, game: &Game, color: Color, result: &SearchResult) -> bool {
        let params = self.params().player;
        let threshold = params.resign_threshold;
        let trusted = result.candidates.first().is_some_and(|c| {
            u64::from(c.visits) >= u64::from(params.resign_min_playouts).min(result.visits / 4)
        });
        if threshold <= 0.0 || !trusted || young_handicap_game(game, self.params()) {
            self.hopeless_moves[color.index()] = 0;
            return false;
        }
        let streak = &mut self.hopeless_moves[color.index()];
        if result.winrate < threshold {
            *streak += 1;
        } else {
            *streak = 0;
        }
        if *streak < params.resign_moves {
            return false;
        }
        // A check that finds the game alive starts the streak again.
        let lost = self.confirms_loss(game, color, result);
        if !lost {
            self.hopeless_moves[color.index()] = 0;
        }
        lost
    }

    /// Whether a search of [`super::params::PlayerParams::resign_check_playouts`] with every
    /// move in sight finds the game lost too, when the player's own search was smaller.
    fn confirms_loss(&mut self, game: &Game, color: Color, result: &SearchResult) -> bool {
        let params = self.params().player;
        let playouts = u64::from(params.resign_check_playouts);
        if result.visits >= playouts {
            return true;
        }
        let config = self.playing_config();
        let knowledge = self.playing_kit().knowledge;
        let mut check = Search::new(config, knowledge, self.rng.gen());
        check.set_komi_shift(0.0);
        let budget = Budget {
            visits: Some(playouts),
            time: None,
        };
        let confirmed = check.run(game, color, budget, &AtomicBool::new(false));
        log::info!(
            "resignation checked with {} visits: {:.1}%",
            confirmed.visits,
            100.0 * confirmed.winrate
        );
        confirmed.winrate < params.resign_threshold
    }
}

/// The threads a move of `rung` searches on: every one for the strongest rank, one for the
/// others (their visits are counted on one).
fn playing_threads(settings: &PlayerSettings, rung: &Rung) -> usize {
    if rung.timed {
        settings.threads
    } else {
        1
    }
}

/// Whether `game` is a handicap game young enough (under
/// [`super::params::PlayerParams::resign_handicap_share`] of the board's points played) that
/// neither side gives it up: no resignation, and no first pass, which a search that finds
/// every move lost (the side giving nine stones on 9x9) or every move won may prefer, but
/// which ends the game when the other side answers it, and which nobody playing a handicap
/// game expects.
fn young_handicap_game(game: &Game, params: &Params) -> bool {
    let points = (game.size() * game.size()) as f64;
    game.handicap() >= 2
        && (game.move_number() as f64) < params.player.resign_handicap_share * points
}

/// The most simulated move of `result` that is not a pass, if any was simulated.
fn best_play(result: &SearchResult) -> Option<Move> {
    result
        .candidates
        .iter()
        .filter(|c| c.mv != Move::Pass && c.visits > 0)
        .max_by_key(|c| c.visits)
        .map(|c| c.mv)
}

/// Whether the opponent of `color` has just passed.
fn opponent_passed(game: &Game, color: Color) -> bool {
    game.history()
        .last()
        .is_some_and(|t| t.mv == Move::Pass && t.color != color)
}

/// Whether `color` can pass now without losing: the opponent has just passed and the count
/// with the dead stones judged as a player would (the same judgement as
/// `final_status_list`) wins for `color`.
fn passing_wins(game: &Game, color: Color, params: &Params, net: Option<SharedNet>) -> bool {
    opponent_passed(game, color)
        && game
            .score(&judge::judge(game, params, net))
            .result()
            .winner()
            == Some(color)
}

/// A pass, unless a race on the board goes to whoever plays first: then the move that wins
/// it for `color` ([`judge::race_move`]), since passing would give it to the opponent; nor
/// while a chain is in atari that `color` can save or take ([`atari_move`]).
fn pass_or_race(game: &Game, color: Color) -> Move {
    judge::race_move(game, color)
        .or_else(|| atari_move(game, color))
        .unwrap_or(Move::Pass)
}

/// A move for a chain in atari, if there is one to play: saving the biggest of `color`'s
/// own that can escape, else taking the opponent's biggest. No player passes with a group
/// in atari, whatever his rank: taking it costs nothing (a point at most under territory
/// scoring, for the stones gained), and leaving his own to be taken loses it.
fn atari_move(game: &Game, color: Color) -> Option<Move> {
    let board = game.board();
    let biggest = |points: Vec<(usize, Point)>| {
        points
            .into_iter()
            .filter(|&(_, p)| game.is_legal(color, Move::Play(p)))
            .max_by_key(|&(stones, _)| stones)
            .map(|(_, p)| Move::Play(p))
    };
    let mut escapes = Vec::new();
    for chain in board.chains_in_atari(color) {
        board.atari_escapes(chain, |p| escapes.push((board.chain_len(chain), p)));
    }
    let captures = board
        .chains_in_atari(color.opponent())
        .into_iter()
        .filter_map(|chain| Some((board.chain_len(chain), board.atari_liberty(chain)?)))
        .collect();
    biggest(escapes).or_else(|| biggest(captures))
}

/// The points where `color` should play to take the opponent's dead stones off the board
/// (`kgs-genmove_cleanup`): the legal liberties of the dead chains, those of the chains
/// with fewest liberties first (a capture before a mere approach), never a self-atari that
/// captures nothing.
fn cleanup_points(
    game: &Game,
    color: Color,
    params: &Params,
    net: Option<SharedNet>,
) -> Vec<Point> {
    let board = game.board();
    let dead = judge::life_and_death(game, params, net).dead;
    let mut points: Vec<(usize, Point)> = Vec::new();
    for chain in board.geometry().points().filter(|&p| {
        dead.contains(p) && board.color_at(p) == Some(color.opponent()) && board.chain(p) == p
    }) {
        let liberties = board.liberties(chain);
        let captures = liberties.len() == 1;
        for &p in &liberties {
            let safe = captures || !board.is_self_atari(color, p);
            if safe && game.is_legal(color, Move::Play(p)) && !points.iter().any(|&(_, q)| q == p) {
                points.push((liberties.len(), p));
            }
        }
    }
    points.sort_by_key(|&(liberties, _)| liberties);
    points.into_iter().map(|(_, p)| p).collect()
}

/// The cleanup move. When the opponent has just passed, nothing threatens and the only
/// business left is the dead stones: the capturing move the search simulated most (a losing
/// search would rather invade, a winning one fill its own area). When he played on, the
/// search's best move if a capturing move is clearly worse (an answer to his threat), else
/// that capturing move ("clearly": by more than `slack`, [`super::params::PlayerParams::cleanup_slack`]). Never
/// a pass while `targets` remain.
fn cleanup_choice(
    result: &SearchResult,
    targets: &[Point],
    opponent_passed: bool,
    slack: f64,
) -> Move {
    let is_target = |mv: Move| matches!(mv, Move::Play(p) if targets.contains(&p));
    let good_enough = |winrate: f64| opponent_passed || winrate >= result.winrate - slack;
    let capture = result
        .candidates
        .iter()
        .find(|c| is_target(c.mv) && good_enough(c.winrate));
    match (capture, targets.first()) {
        (Some(c), _) => c.mv,
        (None, Some(&p)) if opponent_passed || result.best == Move::Pass => Move::Play(p),
        (None, _) => result.best,
    }
}

impl Player for MctsPlayer {
    fn set_moves_ownership(&mut self, on: bool) {
        self.search.set_moves_ownership(on);
    }

    fn share_caches(&mut self, shelf: &CacheShelf) {
        self.workshop.share_caches(shelf);
        self.shelf = Some(shelf.clone());
    }

    fn last_search(&self) -> Option<&SearchResult> {
        self.last.as_ref()
    }

    fn reconfigure(&mut self, settings: &PlayerSettings) {
        let old = std::mem::replace(&mut self.settings, *settings);
        let tuning = settings.params.tuning();
        if settings.net != old.net {
            self.workshop = Workshop::new(settings.net, tuning);
            if let Some(shelf) = &self.shelf {
                self.workshop.share_caches(shelf);
            }
        } else if tuning != old.params.tuning() {
            self.workshop.retune(tuning);
        }
        if settings.rank != old.rank {
            self.change_rank(settings.rank);
        }
    }

    fn time_budget(&self, game: &Game, color: Color, clock: &Clock) -> Option<Duration> {
        self.budget(game, color, clock).time
    }

    /// Analysis and pondering search with every thread and the strongest network whatever
    /// the level: the user is studying, or the time is the opponent's.
    fn think(
        &mut self,
        game: &Game,
        color: Color,
        scope: &Scope,
        watch: Watch<'_>,
    ) -> Option<SearchResult> {
        self.fit_to(game.size());
        let kit = self.workshop.kit(self.size, Advice::Strongest);
        let config = kit.config(self.settings.threads, self.settings.max_memory);
        self.search.set_config(config);
        self.search.set_knowledge(kit.knowledge);
        self.search.set_root_moves(scope.root_moves.clone());
        if scope.fresh {
            self.search.drop_tree();
        }
        let budget = Budget {
            visits: scope.visits,
            time: None,
        };
        let result = self.search.run_watched(game, color, budget, watch);
        self.last = Some(result.clone());
        Some(result)
    }

    fn ponders(&self) -> bool {
        self.settings.visits.is_none() && (self.rung.timed || self.settings.time.is_some())
    }

    fn choose_watched(
        &mut self,
        game: &Game,
        color: Color,
        mode: Mode,
        clock: &Clock,
        watch: Watch<'_>,
    ) -> Choice {
        self.fit_to(game.size());
        // A move chosen without a search (a pass that wins) has no search to show.
        self.last = None;
        // Cleanup takes the opponent's dead stones off the board, then passes as soon as the
        // opponent does; with none left to take it plays like `genmove`. In every mode a
        // pass gives way to the move of a race still open.
        let targets = if mode == Mode::Cleanup {
            cleanup_points(game, color, self.params(), self.board_net())
        } else {
            Vec::new()
        };
        let done = targets.is_empty()
            && if mode == Mode::Cleanup {
                opponent_passed(game, color)
            } else {
                passing_wins(game, color, self.params(), self.board_net())
            };
        if done {
            return Choice::Move(pass_or_race(game, color));
        }
        let result = if mode == Mode::Regression {
            self.regression_search(game, color)
        } else {
            self.play_search(game, color, clock, watch)
        };
        log::info!(
            "move {}: {} visits in {:.2?} ({:.0}/s): best {} at {:.1}%, Black's lead {:+.1} \
             (komi shift {}: {:.1}%)",
            game.move_number() + 1,
            result.visits,
            result.elapsed,
            result.visits as f64 / result.elapsed.as_secs_f64().max(1e-6),
            game.board().geometry().move_name(result.best),
            100.0 * result.winrate,
            result.score_lead,
            self.search.komi_shift(),
            100.0 * result.search_winrate
        );
        let resign = mode == Mode::Play && self.should_resign(game, color, &result);
        // An atari of a big chain is answered with the search's best move, never a draw:
        // weak players miss much, not that.
        let big_chain = self.params().player.sight_chain as usize;
        let threatened = || strength::saving_moves(game.board(), color, big_chain).is_some();
        let temperature = self.temperature(game.move_number());
        let loss = self.point_loss();
        let free = mode != Mode::Regression && !threatened();
        let mut mv = if loss > 0.0 && free {
            let share = self.params().player.draw_share;
            strength::losing_move(&result, loss, share, game.board()).unwrap_or(result.best)
        } else if temperature > 0.0 && free {
            self.draw(&result, temperature, game.board())
        } else {
            result.best
        };
        if !targets.is_empty() {
            mv = cleanup_choice(
                &result,
                &targets,
                opponent_passed(game, color),
                self.params().player.cleanup_slack,
            );
        }
        let passes_first = mv == Move::Pass && !opponent_passed(game, color);
        if passes_first && mode == Mode::Play && young_handicap_game(game, self.params()) {
            mv = best_play(&result).unwrap_or(Move::Pass);
        }
        if mv == Move::Pass || !game.is_legal(color, mv) {
            mv = pass_or_race(game, color);
        }
        self.last = Some(result);
        if resign {
            Choice::Resign
        } else {
            Choice::Move(mv)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Auto;
    use crate::player::Level;
    use crate::rules::Ruleset;

    /// What `rank` does on a `size`×`size` board.
    fn rung(rank: Rank, size: usize) -> Rung {
        SizeClass::of(size).rung(rank)
    }

    /// The threads a player of `rank` with four searches a move on a `size`×`size` board.
    fn threads(rank: Rank, size: usize) -> usize {
        let setup = PlayerSettings {
            threads: 4,
            ..with_rank(PlayerSettings::default(), rank)
        };
        let mut player = MctsPlayer::new(setup, 1);
        player.fit_to(size);
        player.playing_config().threads
    }

    fn with_rank(setup: PlayerSettings, rank: Rank) -> PlayerSettings {
        PlayerSettings { rank, ..setup }
    }

    /// With the built-in networks, expert plays every board with KataGo's b6c96 at every
    /// leaf, PUCT and KataGo's search weights; the ranks under expert on the small boards
    /// take no network at all.
    #[test]
    fn expert_plays_each_board_with_the_strongest_network() {
        let settings = PlayerSettings {
            net: NetChoice::BuiltIn,
            ..PlayerSettings::default()
        };
        for size in [9, 13, 19] {
            let mut player = MctsPlayer::new(settings, 1);
            player.fit_to(size);
            let kit = player.playing_kit();
            assert_eq!(kit.net, Some(crate::setup::katago_embedded()));
            let puct = player.playing_config().params.puct;
            assert_eq!(puct.enabled, Auto(Some(true)), "{size}x{size}");
            // KataGo's cpuctExploration, 1 on its utility's span of 2.8.
            assert_eq!(puct.exploration, Auto(Some(1.0 / 2.8)));
            let settled = player.settings.params.tuning().settled(kit.net);
            assert_eq!(settled.knowledge.value.mix, Auto(Some(1.0)));
        }
        let mut player = MctsPlayer::new(with_rank(settings, Rank::dan(8)), 1);
        player.fit_to(9);
        assert_eq!(player.playing_kit().net, None);
        assert_eq!(
            player.playing_config().params.puct.enabled,
            Auto(Some(false))
        );
    }

    /// `hoshi-param` keeps the tree when its knob leaves it valid (a search knob), and a
    /// knob of the knowledge makes the knowledge again, keeping dynamic komi's state.
    #[test]
    fn a_new_knob_keeps_what_it_leaves_valid() {
        let settings = PlayerSettings {
            visits: Some(200),
            ..PlayerSettings::default()
        };
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let mut player = MctsPlayer::new(settings, 1);
        let clock = Clock::default();
        let Choice::Move(mv) = player.choose(&game, Color::Black, Mode::Play, &clock) else {
            panic!("a move");
        };
        game.play(Color::Black, mv).unwrap();
        let kept = |player: &MctsPlayer| player.search.line_playouts(&[mv]).is_some();
        assert!(kept(&player));
        player.komi_shift = KomiShift::default();
        let mut changed = settings;
        changed.params.set("lcb_z", "3").unwrap();
        player.reconfigure(&changed);
        let knowledge = player.playing_kit().knowledge;
        let config = player.playing_config();
        player.search.set_config(config);
        player.search.set_knowledge(knowledge);
        assert!(kept(&player), "a search knob drops the tree");
        changed.params.set("prior_even", "20").unwrap();
        player.reconfigure(&changed);
        let knowledge = player.playing_kit().knowledge;
        player.search.set_knowledge(knowledge);
        assert!(!kept(&player), "new priors keep an old tree");
        assert_eq!(player.params().search.lcb_z, 3.0);
    }

    /// `reg_genmove` depends on the position only: players with different seeds, asked
    /// twice, after other searches, answer the same.
    #[test]
    fn regression_answers_are_reproducible() {
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let g = game.board().geometry();
        game.play(Color::Black, Move::Play(g.parse_point("E5").unwrap()))
            .unwrap();
        game.play(Color::White, Move::Play(g.parse_point("C3").unwrap()))
            .unwrap();
        let setup = PlayerSettings {
            visits: Some(300),
            threads: 2,
            ..PlayerSettings::default()
        };
        let clock = Clock::default();
        let mut answers = Vec::new();
        for seed in [1, 2] {
            let mut player = MctsPlayer::new(setup, seed);
            answers.push(player.choose(&game, Color::Black, Mode::Regression, &clock));
            player.choose(&game, Color::Black, Mode::Play, &clock);
            answers.push(player.choose(&game, Color::Black, Mode::Regression, &clock));
        }
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    }

    /// The levels play as they were calibrated, on every size class: beginner and
    /// intermediate are rungs of each ladder, expert its top.
    #[test]
    fn levels_keep_their_calibrated_settings_on_every_size() {
        for size in [2, 9, 11, 12, 13, 16, 17, 19, 25] {
            // (playouts, network, temperature, point loss) of beginner and intermediate
            let [b, i] = match SizeClass::of(size).size {
                9 => [(1_000, false, 0.0, 0.3), (1_000, false, 0.3, 0.0)],
                13 => [(2_000, false, 0.12, 0.282), (2_000, false, 0.3, 0.0)],
                _ => [(200, true, 0.0, 2.8), (100, true, 0.3, 0.0)],
            };
            for (level, (playouts, network, temperature, loss)) in
                [(Level::Beginner, b), (Level::Intermediate, i)]
            {
                let settings = rung(level.rank(), size);
                assert_eq!(
                    (settings.playouts(), settings.network, settings.sight),
                    (Some(playouts), network, 1.0),
                    "{level:?} on {size}x{size}"
                );
                assert!((settings.temperature - temperature).abs() < 1e-9);
                assert!((settings.point_loss - loss).abs() < 1e-9, "{settings:?}");
                assert_eq!(threads(level.rank(), size), 1);
            }
            let expert = rung(Level::Expert.rank(), size);
            assert_eq!((expert.playouts(), expert.timed), (None, true));
            assert_eq!(expert.advice(), Advice::Strongest);
            assert_eq!(threads(Level::Expert.rank(), size), 4);
            assert_eq!(expert.temperature, 0.0);
            assert_eq!(expert.point_loss, 0.0);
        }
    }

    /// Ranks under the levels read fewer playouts, see fewer moves or give away more points
    /// a move, the weaker the more (a rank that gives away points may read more than the
    /// one above it: it needs a search that counts them); a rank above expert's plays as
    /// expert.
    #[test]
    fn weaker_ranks_search_less_see_less_or_lose_more() {
        for size in [9, 13, 19] {
            let settings: Vec<Rung> = (10..=30).rev().map(|k| rung(Rank::kyu(k), size)).collect();
            for pair in settings.windows(2) {
                let (weaker, stronger) = (pair[0], pair[1]);
                assert!(
                    weaker.playouts() < stronger.playouts()
                        || weaker.sight < stronger.sight
                        || weaker.point_loss > stronger.point_loss
                );
                assert!(weaker.sight <= stronger.sight && weaker.point_loss >= stronger.point_loss);
            }
            let weakest = settings[0];
            assert!(
                weakest.sight <= 0.5 || weakest.point_loss >= 5.0,
                "{size}: {weakest:?}"
            );
            let strongest = SizeClass::of(size).strongest();
            let expert = rung(strongest, size);
            assert_eq!(expert, rung(Rank::STRONGEST, size));
            assert_eq!(expert, rung(Level::Expert.rank(), size));
        }
    }

    /// From intermediate up to the rank under expert's, every rank counts its playouts on
    /// one thread, more the stronger, at a temperature no higher than the rank below's:
    /// there is no step of the scale that plays as the one under it.
    #[test]
    fn stronger_ranks_read_more_up_to_expert() {
        for size in [9, 13, 19] {
            let strongest = SizeClass::of(size).strongest();
            let ranks = (0..strongest.above(Rank::kyu(7))).map(|n| Rank::kyu(7).plus(n));
            let settings: Vec<(Rung, usize)> =
                ranks.map(|r| (rung(r, size), threads(r, size))).collect();
            assert!(settings.len() >= 7, "{size}: expert above 1d");
            for pair in settings.windows(2) {
                let ((weaker, _), (stronger, threads)) = (pair[0], pair[1]);
                assert!(weaker.playouts() < stronger.playouts(), "{size}: {pair:?}");
                assert!(weaker.temperature >= stronger.temperature);
                assert_eq!(threads, 1);
            }
        }
    }

    /// A player follows the board: the same intermediate searches its 9x9 budget without
    /// the network on 9x9 and its 19x19 budget with the network it was calibrated with on
    /// 19x19; expert takes the strongest.
    #[test]
    fn a_level_searches_the_budget_of_the_board_it_plays_on() {
        let setup = PlayerSettings {
            net: NetChoice::BuiltIn,
            ..PlayerSettings::default()
        };
        let mut player = MctsPlayer::new(with_rank(setup, Level::Intermediate.rank()), 5);
        let clock = Clock::default();
        for (size, playouts, network) in [(19, 100, true), (9, 1_000, false), (19, 100, true)] {
            let game = Game::new(size, Ruleset::FRENCH, 7.5).unwrap();
            player.choose(&game, Color::Black, Mode::Play, &clock);
            let searched = player.last_search().map(|r| r.visits);
            assert_eq!(searched, Some(playouts), "{size}x{size}");
            let net = player.playing_kit().net;
            let calibrated = network.then(|| crate::setup::calibrated(size));
            assert_eq!(net, calibrated, "{size}x{size}");
        }
        // Expert plays with the strongest network: KataGo's b6c96.
        player.change_rank(Level::Expert.rank());
        let strongest = Some(crate::setup::katago_embedded());
        assert_eq!(player.playing_kit().net, strongest);
    }

    /// The weakest rank is weak the way a beginner is, not a random player: through a game
    /// against itself it never plays a first-line point far from every stone nor fills one
    /// of its own eyes, on the small board (no network) and the large one (network, part
    /// sight).
    #[test]
    fn the_weakest_rank_neither_crawls_on_the_edge_nor_fills_its_eyes() {
        let setup = PlayerSettings {
            net: NetChoice::BuiltIn,
            ..PlayerSettings::default()
        };
        let clock = Clock::default();
        for (size, moves) in [(9, 200), (19, 120)] {
            let mut game = Game::new(size, Ruleset::FRENCH, 7.5).unwrap();
            let mut player = MctsPlayer::new(with_rank(setup, Rank::kyu(30)), 11);
            let mut color = Color::Black;
            let mut stones = 0;
            for _ in 0..moves {
                let Choice::Move(mv) = player.choose(&game, color, Mode::Play, &clock) else {
                    break;
                };
                if let Move::Play(p) = mv {
                    let board = game.board();
                    let name = board.geometry().move_name(mv);
                    assert!(!strength::lonely_edge(board, p), "{size}x{size}: {name}");
                    assert!(
                        !board.is_eye(p, color),
                        "{size}x{size}: {name} fills an eye"
                    );
                    stones += 1;
                }
                game.play(color, mv).unwrap();
                if game.is_over() {
                    break;
                }
                color = color.opponent();
            }
            assert!(stones >= 30, "{size}x{size}: only {stones} stones played");
        }
    }

    /// A search whose best move has a win rate of 1% by the real count.
    fn hopeless(moves: u32) -> SearchResult {
        SearchResult {
            best: Move::Pass,
            winrate: 0.01,
            search_winrate: 0.3,
            candidates: vec![crate::search::MoveInfo {
                mv: Move::Pass,
                visits: moves,
                winrate: 0.01,
                prior: 0.0,
                lcb: 0.0,
                score_lead: -50.0,
                score_stdev: 0.0,
                pv: vec![Move::Pass],
                pv_visits: vec![moves],
                ownership: None,
            }],
            pv: Vec::new(),
            visits: u64::from(moves),
            elapsed: Duration::ZERO,
            tree_nodes: 0,
            tree_memory: 0,
            ownership: Vec::new(),
            ownership_stdev: Vec::new(),
            score_lead: -50.0,
        }
    }

    /// Giving nine stones on 9x9, White looks lost by the real count from the first move:
    /// he resigns only once 40% of the points have been played (33 moves), after three
    /// hopeless searches in a row, like in an even game.
    #[test]
    fn no_resigning_while_a_handicap_game_is_young() {
        let mut game = Game::new(9, Ruleset::FRENCH, 0.5).unwrap();
        game.fixed_handicap(9).unwrap();
        let mut player = MctsPlayer::new(
            with_rank(PlayerSettings::default(), Level::Expert.rank()),
            1,
        );
        player.settings.params.player.resign_threshold = 0.1;
        for _ in 0..33 {
            assert!(!player.should_resign(&game, Color::White, &hopeless(5_000)));
            let color = game.to_move();
            game.play(color, Move::Pass).unwrap();
        }
        let resigns: Vec<bool> = (0..3)
            .map(|_| player.should_resign(&game, Color::White, &hopeless(5_000)))
            .collect();
        assert_eq!(resigns, [false, false, true]);
        let mut even = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        even.play(Color::Black, Move::Pass).unwrap();
        let mut player = MctsPlayer::new(
            with_rank(PlayerSettings::default(), Level::Expert.rank()),
            1,
        );
        player.settings.params.player.resign_threshold = 0.1;
        let resigns: Vec<bool> = (0..3)
            .map(|_| player.should_resign(&even, Color::White, &hopeless(5_000)))
            .collect();
        assert_eq!(resigns, [false, false, true]);
    }

    /// A player who may pass does not while a chain is in atari: it takes White's stone
    /// in atari in its own area, and saves its own stone in atari before that.
    #[test]
    fn no_pass_while_a_chain_is_in_atari() {
        let mut game = lost_for_white();
        let g = game.board().geometry();
        let at = |v: &str| g.parse_point(v).expect("a vertex");
        // White's B3 sits in Black's area, in atari (B2, B4, A3... Black's; C3 empty).
        let mut stones: Vec<(Point, Color)> = g
            .points()
            .filter_map(|p| game.board().color_at(p).map(|c| (p, c)))
            .collect();
        stones.retain(|&(p, _)| p != at("B3"));
        stones.push((at("B3"), Color::White));
        assert!(game.set_position(stones.clone(), Color::Black));
        assert_eq!(game.board().liberty_count(at("B3")), 1);
        assert_eq!(pass_or_race(&game, Color::Black), Move::Play(at("C3")));
        // A black stone of its own in atari at E8 (White D8, F8, E9), saved by E7, which
        // joins Black's wall: saving comes before taking.
        stones.extend([
            (at("E8"), Color::Black),
            (at("D8"), Color::White),
            (at("F8"), Color::White),
            (at("E9"), Color::White),
        ]);
        assert!(game.set_position(stones, Color::Black));
        assert_eq!(game.board().liberty_count(at("E8")), 1);
        assert_eq!(pass_or_race(&game, Color::Black), Move::Play(at("E7")));
    }

    /// A 9x9 game White has lost: Black holds the six lower rows (whole rows 2, 4 and 6,
    /// and the sides), White has nothing.
    fn lost_for_white() -> Game {
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        let g = game.board().geometry();
        let black: Vec<(Point, Color)> = g
            .points()
            .filter(|&p| {
                let v = g.vertex(p);
                let (col, row) = (usize::from(v.col), usize::from(v.row));
                // Rows from the bottom, 0-based: Black's rows 2, 4, 6 are 1, 3, 5.
                row <= 5 && (row % 2 == 1 || col == 0 || col == 8)
            })
            .map(|p| (p, Color::Black))
            .collect();
        assert!(game.set_position(black, Color::White));
        game
    }

    /// Every level resigns by the same rule, beginner too: three hopeless searches in a
    /// row, in a game that is lost.
    #[test]
    fn every_level_resigns_a_hopeless_game() {
        let game = lost_for_white();
        for level in Level::ALL {
            let mut player = MctsPlayer::new(with_rank(PlayerSettings::default(), level.rank()), 1);
            player.settings.params.player.resign_threshold = 0.1;
            let resigns: Vec<bool> = (0..3)
                .map(|_| player.should_resign(&game, Color::White, &hopeless(400)))
                .collect();
            assert_eq!(resigns, [false, false, true], "{level:?}");
        }
    }

    /// A small search's verdict is checked before resigning: the weakest rank's three
    /// hopeless searches of 16 playouts on an empty board, which White leads by the komi,
    /// do not make it resign, nor do they once it has searched enough itself.
    #[test]
    fn a_small_search_does_not_resign_a_game_that_is_not_lost() {
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        game.play(Color::Black, Move::Pass).unwrap();
        let mut player = MctsPlayer::new(with_rank(PlayerSettings::default(), Rank::kyu(30)), 1);
        let resigns: Vec<bool> = (0..6)
            .map(|_| player.should_resign(&game, Color::White, &hopeless(16)))
            .collect();
        assert_eq!(resigns, [false; 6]);
        let lost = lost_for_white();
        let resigns: Vec<bool> = (0..3)
            .map(|_| player.should_resign(&lost, Color::White, &hopeless(16)))
            .collect();
        assert_eq!(resigns, [false, false, true]);
    }

    /// One process playing both colors (a GUI's self-play): Black's good searches between
    /// White's hopeless ones do not reset White's streak.
    #[test]
    fn each_color_has_its_own_resignation_streak() {
        let mut game = Game::new(9, Ruleset::FRENCH, 7.5).unwrap();
        game.play(Color::Black, Move::Pass).unwrap();
        let mut player = MctsPlayer::new(
            with_rank(PlayerSettings::default(), Level::Expert.rank()),
            1,
        );
        player.settings.params.player.resign_threshold = 0.1;
        let mut fine = hopeless(5_000);
        fine.winrate = 0.99;
        let mut white = Vec::new();
        for _ in 0..3 {
            white.push(player.should_resign(&game, Color::White, &hopeless(5_000)));
            assert!(!player.should_resign(&game, Color::Black, &fine));
        }
        assert_eq!(white, [false, false, true]);
    }
}
