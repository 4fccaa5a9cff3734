//! Learned judgement of positions behind one interface, the way KataGo's `NNEvaluator`
//! returns an `NNOutput`: a [`Network`] makes an [`Evaluator`] per thread, which returns one
//! [`Output`] for a position (its moves' probabilities by vertex, and, where the network has
//! the heads, the side to move's winning chances, score lead and ownership). What uses a
//! network (the knowledge layer, `hoshi-policy`) sees only this; [`cache`] keeps whole
//! outputs for any network (Leela Zero's `NNCache`).
//!
//! One implementation ships: the `.hnet` residual network ([`hnet`]), trained on strong
//! players' games (see `docs/policy-net.md`, the contract between [`features`], [`model`],
//! `hoshi dataset` and the training code in `train/`).

pub mod cache;
pub mod hnet;
pub mod kernels;

use crate::game::{Game, Position};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// What a network said of a position, for the side to move. Maps over the board are in
/// vertex order ([`crate::coord::Geometry::vertex_index`]: row by row from A1).
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// The probability of a move on each vertex, 0 where the side to move may not play;
    /// with [`Output::pass`] they add up to 1 (to 0 when nothing at all may be played).
    pub policy: Vec<f32>,
    /// The probability of passing (0 for a network that does not rate the pass).
    pub pass: f32,
    /// The side to move's chances of winning, from 0 to 1, by the komi asked.
    pub value: Option<f32>,
    /// The points by which the side to move is expected to lead at the end, counted by
    /// area with the komi asked (negative: behind).
    pub score_lead: Option<f32>,
    /// Who owns each vertex at the end, from -1 (the opponent) to +1 (the side to move).
    pub ownership: Option<Vec<f32>>,
}

/// The heads a network has beside its policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heads {
    pub value: bool,
    pub score_lead: bool,
    pub ownership: bool,
}

impl Heads {
    /// Whether the network is a judge: a value and a score lead, which only the networks
    /// learnt from a teacher's verdicts have (docs/policy-net.md, "A judgement learnt from
    /// the teacher"). A judge's value is good enough to judge every leaf alone, where a
    /// value learnt from the games' results was not (docs/benchmarks.md).
    pub fn judge(&self) -> bool {
        self.value && self.score_lead
    }
}

/// A network: made once, shared by every thread through [`SharedNet`].
pub trait Network: Send + Sync {
    /// The network in a few words, for the log and `hoshi --help`'s users.
    fn describe(&self) -> String;

    /// The outputs it has beside the policy.
    fn heads(&self) -> Heads;

    /// How many moves before a position it reads (its history planes): the caller passes
    /// at least these in [`Position::recent`], and the cache keys by them.
    fn history(&self) -> usize;

    /// An evaluator for one thread, for boards up to `max_size` (a larger one later makes
    /// its buffers grow once).
    fn evaluator(&'static self, max_size: usize) -> Box<dyn Evaluator>;
}

/// One thread's means of asking a network about positions, with the buffers it keeps.
pub trait Evaluator: Send {
    /// The network's judgement of `position` for each of `komis` (Black's area komi: what
    /// Black's area lead must exceed), in order, into `outputs` (emptied first; one output
    /// a komi). A network whose komi enters only its last layers runs its trunk once for
    /// all of them: a search counting with two komis (dynamic komi's and the real one) pays
    /// one evaluation.
    fn evaluate(&mut self, position: &Position<'_>, komis: &[f64], outputs: &mut Vec<Arc<Output>>);

    /// From now on, read each position in one of the board's eight symmetries, chosen by
    /// the position (Leela Zero's and KataGo's random symmetry): a network's errors differ
    /// between the eight readings, so varying them keeps one misjudged shape from skewing
    /// every position it appears in. A position is always read alike, so searches stay
    /// repeatable. A network without symmetric readings keeps reading positions as they
    /// stand.
    fn vary_symmetry(&mut self) {}

    /// [`Evaluator::evaluate`] by one komi.
    fn evaluate_one(&mut self, position: &Position<'_>, komi: f64) -> Arc<Output> {
        let mut outputs = Vec::with_capacity(1);
        self.evaluate(position, &[komi], &mut outputs);
        outputs.swap_remove(0)
    }
}

/// A network shared by the threads and searches that use it. A network is loaded once per
/// process (the embedded one, or `--net FILE` at start) and lives as long as the process,
/// so a handle is a plain reference that settings can copy. Two handles are equal when they
/// hold the same network, which is what a change of settings needs to know.
#[derive(Clone, Copy)]
pub struct SharedNet(&'static dyn Network);

impl SharedNet {
    /// Keeps `net` for the rest of the process. Call it once per network read, not per use.
    pub fn new(net: impl Network + 'static) -> SharedNet {
        SharedNet(Box::leak(Box::new(net)))
    }

    /// The network hoshi ships with, read once per process ([`hnet::embedded`]).
    pub fn embedded() -> SharedNet {
        static NET: OnceLock<SharedNet> = OnceLock::new();
        *NET.get_or_init(|| SharedNet::new(hnet::embedded()))
    }

    /// The embedded judge of `size`×`size` boards, read once per process
    /// ([`hnet::embedded_judge`]); `None` for a board that has none.
    pub fn embedded_judge(size: usize) -> Option<SharedNet> {
        static NETS: OnceLock<Vec<(usize, SharedNet)>> = OnceLock::new();
        let nets = NETS.get_or_init(|| {
            hnet::judged_sizes()
                .filter_map(|s| Some((s, SharedNet::new(hnet::embedded_judge(s)?))))
                .collect()
        });
        nets.iter().find(|&&(s, _)| s == size).map(|&(_, net)| net)
    }

    pub fn network(&self) -> &'static dyn Network {
        self.0
    }

    pub fn heads(&self) -> Heads {
        self.0.heads()
    }

    /// A new evaluator for one thread ([`Network::evaluator`]).
    pub fn evaluator(&self, max_size: usize) -> Box<dyn Evaluator> {
        self.0.evaluator(max_size)
    }

    /// What the network says of `game`'s position as it stands, its last moves read as
    /// history, by the game's area komi (komi and handicap bonus): one evaluation with an
    /// evaluator of its own, for a question asked once (`hoshi-evaluate`, the dead-stone
    /// judge), not for the search.
    pub fn evaluate_game(&self, game: &Game) -> Arc<Output> {
        let board = game.board();
        let recent: Vec<crate::coord::Move> = game.recent_moves(self.0.history()).collect();
        let position = Position {
            board,
            to_move: game.to_move(),
            recent: &recent,
        };
        self.evaluator(board.size())
            .evaluate_one(&position, game.area_komi())
    }
}

/// The networks the engine plays with (`--net`): the built-in ones, one given for every
/// board, or none. Copied into every setting that needs one; [`NetChoice::for_board`] names
/// the network of a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NetChoice {
    /// The network built for 19x19 ([`SharedNet::embedded`]) on every board but those with
    /// an embedded judge of their own ([`SharedNet::embedded_judge`]: 9x9, 13x13), which
    /// each judged its board better than the 19x19 networks (docs/benchmarks.md).
    BuiltIn,
    /// This network on every board (`--net FILE`).
    Given(SharedNet),
    /// No network (`--net none`): the priors and the playouts alone.
    Off,
}

impl NetChoice {
    /// The network for a `size`×`size` board.
    pub fn for_board(self, size: usize) -> Option<SharedNet> {
        match self {
            NetChoice::BuiltIn => {
                Some(SharedNet::embedded_judge(size).unwrap_or_else(SharedNet::embedded))
            }
            NetChoice::Given(net) => Some(net),
            NetChoice::Off => None,
        }
    }
}

impl PartialEq for SharedNet {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::addr_eq(self.0, other.0)
    }
}

impl fmt::Debug for SharedNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in networks: 9x9 and 13x13 each have a judge of their own (a value, a
    /// score lead and ownership), every other board the network built for 19x19 (a value,
    /// no score); `--net FILE` gives one network to every board, `--net none` none.
    #[test]
    fn each_board_takes_its_own_built_in_network() {
        let judge = |size| NetChoice::BuiltIn.for_board(size).map(|n| n.heads());
        let judges = Heads {
            value: true,
            score_lead: true,
            ownership: true,
        };
        assert_eq!(judge(9), Some(judges));
        assert_eq!(judge(13), Some(judges));
        for size in [2, 7, 11, 19, 25] {
            assert_eq!(judge(size).map(|h| h.judge()), Some(false), "{size}x{size}");
            assert_eq!(
                NetChoice::BuiltIn.for_board(size),
                Some(SharedNet::embedded())
            );
        }
        assert_ne!(SharedNet::embedded_judge(9), SharedNet::embedded_judge(13));
        assert_eq!(SharedNet::embedded_judge(9), SharedNet::embedded_judge(9));
        let given = NetChoice::Given(SharedNet::embedded());
        assert_eq!(given.for_board(9), Some(SharedNet::embedded()));
        assert_eq!(NetChoice::Off.for_board(9), None);
    }
}
