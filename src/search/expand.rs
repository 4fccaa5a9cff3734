//! Giving a node its children: the moves it may play and what the prior sources say of them
//! at expansion, and later, once the node has earned it, what the late sources say (the
//! search's simulations and its root both expand through here).

use super::tree::{NewChild, Tree, ROOT};
use crate::board::Board;
use crate::coord::{Color, Move};
use crate::game::Position;
use crate::knowledge::{Prior, ThreadKnowledge, Timing};

/// The children of `position` for `moves`, with what the prior sources that speak at
/// expansion say of them, and the probabilities of the first of them that is a policy (a
/// pass gets the policy's own probability where it rates the pass, else 0).
pub(super) fn with_priors(
    position: &Position<'_>,
    komi: f64,
    moves: &[Move],
    knowledge: &mut ThreadKnowledge,
) -> Vec<NewChild> {
    let mut priors = vec![Prior::default(); moves.len()];
    let mut policy = None;
    for source in &mut knowledge.priors {
        if source.timing() == Timing::AtExpansion {
            source.add_priors(position, komi, moves, &mut priors);
            if policy.is_none() {
                policy = source.policy().map(|p| (p, source.pass_policy()));
            }
        }
    }
    let board = position.board;
    moves
        .iter()
        .zip(priors)
        .map(|(&mv, prior)| NewChild {
            mv,
            prior_wins: prior.wins,
            prior_games: prior.games,
            policy: policy.map(|(p, pass)| match mv {
                Move::Play(point) => p
                    .get(board.geometry().vertex_index(point))
                    .copied()
                    .unwrap_or(0.0),
                Move::Pass => pass.unwrap_or(0.0),
            }),
        })
        .collect()
}

/// Asks the late prior sources about the children of node `index` (the position
/// `position`), and adds what they say to the children when `apply`, and what they say of
/// the position itself to the node (not to the root, whose own win rate steers nothing).
/// Returns whether any source was asked.
pub(super) fn late_priors(
    position: &Position<'_>,
    komi: f64,
    tree: &Tree,
    index: u32,
    knowledge: &mut ThreadKnowledge,
    apply: bool,
) -> bool {
    let children = tree.node(index).children();
    let moves: Vec<Move> = children.clone().map(|c| tree.node(c).mv()).collect();
    let mut priors = vec![Prior::default(); moves.len()];
    let mut itself = Prior::default();
    let mut asked = false;
    for source in &mut knowledge.priors {
        if matches!(source.timing(), Timing::After(_)) {
            source.add_priors(position, komi, &moves, &mut priors);
            let judged = source.position_prior();
            itself.wins += judged.wins;
            itself.games += judged.games;
            asked = true;
        }
    }
    if apply {
        for (child, prior) in children.zip(priors) {
            if prior.games > 0.0 {
                tree.node(child).add_prior(prior.wins, prior.games);
            }
        }
        // A node's statistics are its mover's, the side that is not to move in `position`.
        if index != ROOT && itself.games > 0.0 {
            tree.node(index)
                .add_prior(itself.games - itself.wins, itself.games);
        }
    }
    asked
}

/// The children of an inner node: legal moves (simple ko) that do not fill one of the
/// mover's own eyes, and pass once fewer than `pass_empty_share` of the points are empty
/// (half, by default) or after a pass.
pub(super) fn inner_moves(
    board: &Board,
    color: Color,
    last: Move,
    pass_empty_share: f64,
) -> Vec<Move> {
    let mut moves: Vec<Move> = board
        .empty_points()
        .iter()
        .copied()
        .filter(|&p| board.check(color, p).is_ok() && !board.is_eye(p, color))
        .map(Move::Play)
        .collect();
    let area = (board.size() * board.size()) as f64;
    let empty = board.empty_points().len() as f64;
    if empty < pass_empty_share * area || last == Move::Pass || moves.is_empty() {
        moves.push(Move::Pass);
    }
    moves
}
