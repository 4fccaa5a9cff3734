//! The engine: what the GTP layer talks to. It owns the game, the player and the settings
//! the command line gave, and answers in Go terms (moves, stones, results); turning those
//! into protocol text is `gtp`'s job.

use crate::board::{Board, Illegal, MoveEffect};
use crate::coord::{Color, Move, Point, Vertex, MAX_SIZE, MIN_SIZE};
use crate::game::{Game, PositionFacts};
use crate::handicap::HandicapError;
use crate::knowledge::ownership::{self, Estimate as Ownership};
use crate::net::{Output, SharedNet, Symmetry};
use crate::player::clock::{Clock, TimeControl};
use crate::player::judge::{self, JUDGE_SEED};
use crate::player::size_class::SizeClass;
use crate::player::{
    Choice, MctsPlayer, Mode, Params, Player, PlayerSettings, RandomPlayer, Rank, Scope,
};
use crate::rules::Ruleset;
use crate::score::{GameResult, Status};
use crate::search::{SearchResult, Watch};
use crate::setup::NetChoice;
use crate::sgf::{self, SgfError};
use std::cell::RefCell;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the command line sets: how the player plays ([`PlayerSettings`]), and the game and session
/// around it. Made once where the engine is set up; GTP's `hoshi-param`, `hoshi-rank` and
/// GoGui's parameters change it in place ([`Engine::reconfigure`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The player's strength, threads, budgets, tuning and network, handed to it whole.
    pub player: PlayerSettings,
    pub rules: Ruleset,
    /// Komi; `None` takes the ruleset's usual one.
    pub komi: Option<f64>,
    pub size: usize,
    /// Seed of every random choice; the same seed replays the same game.
    pub seed: u64,
    /// Whether to think during the opponent's time.
    pub ponder: bool,
    /// Whether to play random sensible moves instead of searching (a benchmark baseline).
    pub random: bool,
    /// Whether to draw the search on GoGui's board while thinking (`gogui-gfx:` lines on
    /// stderr).
    pub live_gfx: bool,
    /// The opponent's rank, when known (`--opponent-rank`, GTP `hoshi-opponent_rank`): what
    /// the fair handicap is reckoned from.
    pub opponent_rank: Option<Rank>,
}

impl Default for Settings {
    /// French rules, 19x19, expert with the embedded network.
    fn default() -> Self {
        Settings {
            player: PlayerSettings {
                net: NetChoice::BuiltIn,
                ..PlayerSettings::default()
            },
            rules: Ruleset::FRENCH,
            komi: None,
            size: 19,
            seed: 0,
            ponder: false,
            random: false,
            live_gfx: false,
            opponent_rank: None,
        }
    }
}

impl Settings {
    /// The rank played on a `size`×`size` board: the one asked for, at most the board's
    /// strongest (expert's).
    pub fn rank_on(&self, size: usize) -> Rank {
        SizeClass::of(size).rank_played(self.player.rank)
    }

    /// The komi a new game starts with.
    pub fn komi(&self) -> f64 {
        self.komi.unwrap_or(self.rules.default_komi)
    }
}

/// The network's own view of a position ([`Engine::network_view`]).
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkView {
    /// The legal moves of the side to move with their probabilities, most probable first,
    /// the pass among them where the network rates it.
    pub policy: Vec<(Move, f32)>,
    /// The side to move's winning chances, when the network has a value head.
    pub value: Option<f32>,
    /// The points the side to move leads by, when the network gives a score lead.
    pub score_lead: Option<f32>,
    /// How far the final score may stray from it (a standard deviation), when the network
    /// says (KataGo's).
    pub score_stdev: Option<f32>,
}

/// A rough score of the game in progress (`estimate_score`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreEstimate {
    /// Black's expected margin, komi and handicap bonus included (negative: White leads).
    pub black_margin: f64,
    /// The range in which Black's margin fell in 80% of the playouts.
    pub low: f64,
    pub high: f64,
}

pub struct Engine {
    game: Game,
    settings: Settings,
    player: Box<dyn Player>,
    clock: Clock,
    /// The player who resigned this game, if one did.
    resigned: Option<Color>,
    /// After our move: the number of moves then and the opponent, whose turn we may think
    /// on (pondering) until the game moves on.
    ponder_on: Option<(usize, Color)>,
    /// The last dead-stone judgement, kept because controllers ask `final_status_list dead`,
    /// `alive`, `seki` and `final_score` in a row about one position, and each judgement
    /// runs two searches.
    judged: RefCell<Option<CachedStatus>>,
}

/// A dead-stone judgement and the position it was made for.
struct CachedStatus {
    board: Board,
    to_move: Color,
    rules: Ruleset,
    status: Status,
}

impl CachedStatus {
    fn of(game: &Game, params: &Params, net: Option<SharedNet>) -> CachedStatus {
        CachedStatus {
            board: game.board().clone(),
            to_move: game.to_move(),
            rules: game.rules(),
            status: judge::judge(game, params, net),
        }
    }

    /// Whether `game` is in the position judged (the judgement depends on nothing else).
    fn fits(&self, game: &Game) -> bool {
        self.to_move == game.to_move()
            && self.rules == game.rules()
            && self.board.same_stones(game.board())
    }
}

impl Engine {
    pub fn new(settings: Settings) -> Engine {
        let size = if (MIN_SIZE..=MAX_SIZE).contains(&settings.size) {
            settings.size
        } else {
            19
        };
        let game =
            Game::new(size, settings.rules, settings.komi()).expect("sizes 2..=25 are valid");
        Engine {
            game,
            player: player_for(&settings),
            settings,
            clock: Clock::default(),
            resigned: None,
            ponder_on: None,
            judged: RefCell::new(None),
        }
    }

    /// Changes settings during a session (`hoshi-param`, GoGui's parameter dialog): the
    /// player takes them and keeps what they leave valid (its tree, caches and dynamic
    /// komi); the game goes on. Only a change between searching and random moves makes a
    /// new player.
    pub fn reconfigure(&mut self, change: impl FnOnce(&mut Settings)) {
        let random = self.settings.random;
        change(&mut self.settings);
        if self.settings.random == random {
            self.player.reconfigure(&self.settings.player);
        } else {
            self.player = player_for(&self.settings);
        }
        // The judge's budgets may have changed with the parameters.
        self.judged.replace(None);
    }

    /// The time an analysis query thinks: what `--time` says, else a timed level's default
    /// for the board's size class (playout budgets do not apply to open-ended analysis).
    pub fn thinking_time(&self) -> Duration {
        self.settings
            .player
            .time
            .unwrap_or(SizeClass::of(self.game.size()).expert_time)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// `time_left`: what the controller says `color` has left replaces the engine's own
    /// reckoning.
    pub fn set_time_left(&mut self, color: Color, time: Duration, stones: u32) {
        self.clock.set_left(color, time, stones);
    }

    /// The time the player would think on `color`'s next move; `None` when it thinks by
    /// playouts alone.
    pub fn time_budget(&self, color: Color) -> Option<Duration> {
        self.player.time_budget(&self.game, color, &self.clock)
    }

    /// A new game on an empty board of `size`; `false` (nothing changed) for a size outside
    /// 2..=25. Komi, rules and time settings stay; both clocks start afresh.
    pub fn resize(&mut self, size: usize) -> bool {
        let done = self.game.resize(size);
        if done {
            self.new_game();
        }
        done
    }

    /// A new game on the same board: komi, rules and time settings stay; both clocks start
    /// afresh.
    pub fn clear(&mut self) {
        self.game.clear();
        self.new_game();
    }

    fn new_game(&mut self) {
        self.resigned = None;
        self.clock.restart();
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.game.set_komi(komi);
    }

    /// Starts a new game from the given stones with `to_move` to play (a setup without a
    /// history: SGF's AB/AW, the analysis protocol's `initialStones`). Refused when two
    /// stones share a point.
    pub fn set_position(&mut self, stones: &[(Color, Point)], to_move: Color) -> bool {
        let done = self
            .game
            .set_position(stones.iter().map(|&(color, point)| (point, color)), to_move);
        if done {
            self.new_game();
        }
        done
    }

    /// Changes the playing strength for the next moves.
    pub fn set_rank(&mut self, rank: Rank) {
        self.settings.player.rank = rank;
        self.player.reconfigure(&self.settings.player);
    }

    /// The rank hoshi plays on the current board: the one asked for, or the board's
    /// strongest (expert's) when that is lower.
    pub fn rank(&self) -> Rank {
        self.settings.rank_on(self.game.size())
    }

    /// The opponent's rank, for the fair handicap: the player does not change.
    pub fn set_opponent_rank(&mut self, rank: Rank) {
        self.settings.opponent_rank = Some(rank);
    }

    pub fn set_rules(&mut self, rules: Ruleset) {
        self.game.set_rules(rules);
    }

    pub fn play(&mut self, color: Color, mv: Move) -> Result<MoveEffect, Illegal> {
        self.game.play(color, mv)
    }

    /// Plays all of `moves` or, if one is illegal, none of them (GoGui's
    /// `gogui-play_sequence` must not leave half a sequence behind).
    pub fn play_sequence(&mut self, moves: &[(Color, Move)]) -> Result<(), Illegal> {
        let mut trial = self.game.clone();
        for &(color, mv) in moves {
            trial.play(color, mv)?;
        }
        self.game = trial;
        Ok(())
    }

    /// The player's move for `color`, played unless `mode` is a regression query.
    pub fn genmove(&mut self, color: Color, mode: Mode) -> Choice {
        self.genmove_watched(color, mode, &mut |_| true)
    }

    /// [`Engine::genmove`] with a watcher of the search that may end the thinking early
    /// (GoGui's interrupt: the best move so far is played) or show it (analysis output
    /// while choosing). A move played is charged to `color`'s clock: the time from the
    /// moment the engine was asked (reading the GTP line takes microseconds) to the move
    /// being played.
    pub fn genmove_watched(&mut self, color: Color, mode: Mode, watch: Watch<'_>) -> Choice {
        let started = Instant::now();
        let choice = self.choose(color, mode, watch);
        if mode != Mode::Regression {
            let used = started.elapsed();
            self.clock.spend(color, used);
            log::info!(
                "{color} took {:.3} s; left {}",
                used.as_secs_f64(),
                self.clock.left(color)
            );
        }
        choice
    }

    fn choose(&mut self, color: Color, mode: Mode, watch: Watch<'_>) -> Choice {
        let choice = self
            .player
            .choose_watched(&self.game, color, mode, &self.clock, watch);
        if mode == Mode::Regression {
            return choice;
        }
        if let Choice::Move(_) = choice {
            self.ponder_on = Some((self.game.move_number() + 1, color.opponent()));
        }
        match choice {
            Choice::Move(mv) => {
                if let Err(why) = self.game.play(color, mv) {
                    // The player promised a legal move: pass rather than forfeit.
                    log::error!("the player chose an illegal move ({why}); passing");
                    self.pass_anyway(color);
                    return Choice::Move(Move::Pass);
                }
            }
            Choice::Resign => self.resigned = Some(color),
        }
        choice
    }

    /// The result of the player's last search, if it searches.
    pub fn last_search(&self) -> Option<&SearchResult> {
        self.player.last_search()
    }

    /// Keeps the player's network outputs in `shelf`'s caches, shared with the other engines
    /// given it ([`crate::setup::CacheShelf`]).
    pub fn share_caches(&mut self, shelf: &crate::setup::CacheShelf) {
        self.player.share_caches(shelf);
    }

    /// Whether the player's next searches keep each root move's ownership (analysis that
    /// shows KataGo's `movesOwnership`).
    pub fn set_moves_ownership(&mut self, on: bool) {
        self.player.set_moves_ownership(on);
    }

    /// Searches the position for `color` without playing, `watch` seeing the search until it
    /// ends it; `None` when the player does not search (`--random`).
    pub fn think(&mut self, color: Color, watch: Watch<'_>) -> Option<SearchResult> {
        self.player
            .think(&self.game, color, &Scope::default(), watch)
    }

    /// [`Engine::think`] within `scope`: after its visits at the latest (the analysis
    /// protocol's `maxVisits`, exact where a watcher polling the count would overshoot),
    /// over its root moves only (`allowMoves`, `avoidMoves`).
    pub fn think_within(
        &mut self,
        color: Color,
        scope: &Scope,
        watch: Watch<'_>,
    ) -> Option<SearchResult> {
        self.player.think(&self.game, color, scope, watch)
    }

    /// Thinks on the opponent's time, when `--ponder` is on and the game is still where
    /// our last move left it, until `watch` ends it (a command arrives) or the tree is
    /// full. The tree is kept, so the next `genmove` starts from what was read meanwhile.
    pub fn ponder(&mut self, watch: Watch<'_>) {
        let Some((moves, color)) = self.ponder_on else {
            return;
        };
        let current = self.game.move_number() == moves && self.game.to_move() == color;
        if !(self.settings.ponder && self.player.ponders() && current)
            || self.game.is_over()
            || self.resigned.is_some()
        {
            return;
        }
        log::debug!("pondering for {color}");
        let mut full = false;
        let result = self.think(color, &mut |progress| {
            full = progress.tree_full();
            !full && watch(progress)
        });
        if let Some(result) = result {
            log::info!(
                "pondered {} visits in {:.2?}",
                result.visits,
                result.elapsed
            );
        }
        if full {
            // A full tree would only spin: wait for the opponent's move.
            self.ponder_on = None;
        }
    }

    fn pass_anyway(&mut self, color: Color) {
        if self.game.play(color, Move::Pass).is_err() {
            log::error!("a pass was refused");
        }
    }

    /// Takes back the last `moves` moves, or nothing when there are fewer.
    pub fn undo(&mut self, moves: usize) -> bool {
        if moves > self.game.move_number() {
            return false;
        }
        for _ in 0..moves {
            self.game.undo();
        }
        self.resigned = None;
        true
    }

    pub fn fixed_handicap(&mut self, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
        self.game.fixed_handicap(stones)
    }

    pub fn free_handicap(&mut self, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
        self.game.free_handicap(stones)
    }

    pub fn set_handicap(&mut self, vertices: &[Vertex]) -> Result<(), HandicapError> {
        self.game.set_handicap(vertices)
    }

    pub fn set_time_control(&mut self, control: TimeControl) {
        self.clock.set_control(control);
    }

    /// The dead stones and seki as the engine judges them now.
    pub fn status(&self) -> Status {
        let known = self
            .judged
            .borrow()
            .as_ref()
            .filter(|j| j.fits(&self.game))
            .map(|j| j.status);
        known.unwrap_or_else(|| {
            let judged = CachedStatus::of(
                &self.game,
                &self.settings.player.params,
                self.settings.player.net.for_board(self.game.size()),
            );
            let status = judged.status;
            *self.judged.borrow_mut() = Some(judged);
            status
        })
    }

    /// The result if the game were counted now, with the engine's judgement of dead stones.
    pub fn final_score(&self) -> GameResult {
        self.game.score(&self.status()).result()
    }

    /// The result once the game is over: by resignation, or counted after two passes.
    pub fn result(&self) -> Option<GameResult> {
        if let Some(loser) = self.resigned {
            return Some(GameResult::Resignation {
                winner: loser.opponent(),
            });
        }
        self.game.is_over().then(|| self.final_score())
    }

    /// Who owns each point, by playouts from the position with the player to move.
    pub fn ownership(&self) -> Ownership {
        ownership::estimate(
            self.game.board(),
            self.game.to_move(),
            self.settings.player.params.player.judge_playouts,
            JUDGE_SEED,
        )
    }

    /// The score the playouts expect, with the range of their outcomes.
    pub fn estimate_score(&self) -> ScoreEstimate {
        let handicap = self
            .game
            .rules()
            .handicap_bonus
            .points(self.game.handicap());
        let white_extra = self.game.komi() + handicap;
        let mut margins: Vec<f64> = self
            .ownership()
            .leads
            .iter()
            .map(|&lead| f64::from(lead) - white_extra)
            .collect();
        margins.sort_by(f64::total_cmp);
        let count = margins.len().max(1);
        let at = |q: f64| {
            let i = ((count - 1) as f64 * q).round() as usize;
            margins.get(i).copied().unwrap_or(-white_extra)
        };
        ScoreEstimate {
            black_margin: margins.iter().sum::<f64>() / count as f64,
            low: at(0.1),
            high: at(0.9),
        }
    }

    /// The network's moves for the side to move, most probable first, with their
    /// probabilities (`hoshi-policy`): every point the rules let it play. `None` when hoshi
    /// plays without a network.
    pub fn policy(&self) -> Option<Vec<(Move, f32)>> {
        self.network_view().map(|view| view.policy)
    }

    /// What the network alone says of the position (`hoshi-policy`, `hoshi-evaluate`, as
    /// KataGo's `kata-raw-nn`): the policy over the legal moves, most probable first, and
    /// with a value head the side to move's winning chances by the game's komi and handicap
    /// bonus. `None` when hoshi plays without a network.
    pub fn network_view(&self) -> Option<NetworkView> {
        let net = self.settings.player.net.for_board(self.game.size())?;
        let color = self.game.to_move();
        let output = net.evaluate_game(&self.game);
        let geometry = self.game.board().geometry();
        let mut moves: Vec<(Move, f32)> = geometry
            .points()
            .map(|p| (Move::Play(p), output.policy[geometry.vertex_index(p)]))
            .filter(|&(mv, _)| self.game.is_legal(color, mv))
            .chain(output.pass.map(|p| (Move::Pass, p)))
            .collect();
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(NetworkView {
            policy: moves,
            value: output.value,
            score_lead: output.score_lead,
            score_stdev: output.score_stdev,
        })
    }

    /// What the network says of the position with `color` to play, read in each of
    /// `symmetries`, its optimistic policy mixed in by `optimism` where it has one
    /// (`kata-raw-nn`): one output each, for `color`. A colour other than the
    /// one to move is judged as KataGo judges it, on the stones alone (no history, no ko).
    /// `None` when hoshi plays without a network on this board.
    pub fn raw_network(
        &self,
        color: Color,
        symmetries: &[Symmetry],
        optimism: f32,
    ) -> Option<Vec<Arc<Output>>> {
        let net = self.settings.player.net.for_board(self.game.size())?;
        let game = &self.game;
        let natural = color == game.to_move();
        let (moves, boards) = match natural {
            true => (net.network().history(), net.network().earlier_boards()),
            false => (0, 0),
        };
        let mut facts = PositionFacts::of(game, color, moves, boards);
        let mut board = game.board().clone();
        if !natural {
            facts.superko_bans.clear();
            board.pass();
        }
        let position = facts.position(&board, color);
        let mut evaluator = net.evaluator(game.size());
        evaluator.set_policy_optimism(optimism);
        Some(
            symmetries
                .iter()
                .map(|&symmetry| {
                    evaluator.read_in(symmetry);
                    evaluator.evaluate_one(&position, game.area_komi())
                })
                .collect(),
        )
    }

    /// Replaces the game with the one in the SGF file `path`, replayed up to (not including)
    /// move `until` when given. On any error nothing changes.
    pub fn load_sgf(&mut self, path: &Path, until: Option<usize>) -> Result<(), SgfError> {
        let text = read_limited(path, MAX_SGF_BYTES)?;
        let record = sgf::parse(&String::from_utf8_lossy(&text))?;
        let game = record.replay(self.game.rules(), self.game.komi(), until)?;
        self.game = game;
        self.resigned = None;
        Ok(())
    }

    /// The game so far as an SGF file (with the result once the game is over).
    pub fn to_sgf(&self) -> String {
        sgf::write(&self.game, self.result())
    }
}

/// The largest SGF file `loadsgf` reads: far more than any game, and a bound against a
/// path like /dev/zero that would never end.
const MAX_SGF_BYTES: u64 = 16 << 20;

fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, SgfError> {
    let unreadable = |e: std::io::Error| SgfError::Unreadable(e.to_string());
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(SgfError::Unreadable(format!("larger than {limit} bytes")));
    }
    Ok(bytes)
}

/// The move generator the settings ask for.
fn player_for(settings: &Settings) -> Box<dyn Player> {
    if settings.random {
        Box::new(RandomPlayer::new(settings.seed))
    } else {
        Box::new(MctsPlayer::new(settings.player, settings.seed))
    }
}
