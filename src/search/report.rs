//! What a search found: its root moves ([`MoveInfo`], one view of a root child for the
//! player and for analysis alike), the principal variation, ownership and score.

use super::params::SearchParams;
use super::root::{Root, RootScores};
use super::tree::{Tree, ROOT};
use super::{MoveInfo, SearchResult};
use crate::coord::Move;
use crate::game::Game;
use std::time::Duration;

/// Everything a report reads.
#[derive(Clone, Copy)]
pub(super) struct Report<'a> {
    pub tree: &'a Tree,
    pub params: &'a SearchParams,
    pub scores: &'a RootScores,
    pub game: &'a Game,
    pub root: &'a Root,
}

/// The search's verdict after `playouts` simulations in `elapsed`.
pub(super) fn summarize(report: Report<'_>, visits: u64, elapsed: Duration) -> SearchResult {
    let Report { tree, root, .. } = report;
    let candidates = root_moves(report);
    let best = candidates.first().map_or(Move::Pass, |c| c.mv);
    let winrate = candidates.first().map_or(0.5, |c| c.winrate);
    let search_winrate = tree
        .child_with_move(ROOT, best)
        .map_or(winrate, |c| tree.node(c).stats().simulated_value());
    let (ownership, score_lead) = root.tally_so_far();
    SearchResult {
        best,
        winrate,
        search_winrate,
        pv: principal_variation(tree, report.params.pv_length),
        candidates,
        visits,
        elapsed,
        tree_nodes: tree.len(),
        tree_memory: tree.memory(),
        ownership,
        score_lead,
    }
}

/// The root moves legal under the full rules and not banned, most simulated first.
pub(super) fn root_moves(report: Report<'_>) -> Vec<MoveInfo> {
    let Report {
        tree,
        params,
        scores,
        game,
        root,
    } = report;
    let color = root.to_move;
    let for_mover = |margin: f64| margin * f64::from(color.sign());
    let children: Vec<u32> = tree
        .node(ROOT)
        .children()
        .filter(|&c| !tree.node(c).is_banned() && game.is_legal(color, tree.node(c).mv()))
        .collect();
    let prior_total: f64 = children
        .iter()
        .map(|&c| tree.node(c).stats().prior_wins)
        .sum();
    let mut moves: Vec<MoveInfo> = children
        .iter()
        .map(|&c| {
            let s = tree.node(c).stats();
            let visits = s.playouts();
            let winrate = root.reported_winrate(scores, c, &s);
            let spread = (winrate * (1.0 - winrate) / f64::from(visits.max(1))).sqrt();
            MoveInfo {
                mv: s.mv,
                visits,
                winrate,
                prior: match (&root.policy, s.mv) {
                    (Some(policy), Move::Play(p)) => {
                        f64::from(policy[root.board.geometry().vertex_index(p)])
                    }
                    (Some(_), Move::Pass) => 0.0,
                    (None, _) if prior_total > 0.0 => s.prior_wins / prior_total,
                    (None, _) => 0.0,
                },
                lcb: if visits == 0 {
                    0.0
                } else {
                    (winrate - params.lcb_z * spread).max(0.0)
                },
                score_lead: scores.black_margin(c).map_or(0.0, for_mover),
                pv: line_from(tree, c, params.pv_length),
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    moves
}

/// The most simulated line from the root through a move not banned, at most `length` moves.
fn principal_variation(tree: &Tree, length: usize) -> Vec<Move> {
    let first = tree
        .node(ROOT)
        .children()
        .filter(|&c| !tree.node(c).is_banned())
        .max_by_key(|&c| tree.node(c).stats().playouts());
    match first {
        Some(c) if length > 0 && tree.node(c).stats().playouts() > 0 => {
            line_from(tree, c, length - 1)
        }
        _ => Vec::new(),
    }
}

/// The move of node `start` followed by the most simulated line below it, at most
/// `length` moves after the start.
fn line_from(tree: &Tree, start: u32, length: usize) -> Vec<Move> {
    let mut line = vec![tree.node(start).mv()];
    let mut index = start;
    while let Some(child) = tree
        .node(index)
        .children()
        .max_by_key(|&c| tree.node(c).stats().playouts())
    {
        if tree.node(child).stats().playouts() == 0 || line.len() > length {
            break;
        }
        line.push(tree.node(child).mv());
        index = child;
    }
    line
}
