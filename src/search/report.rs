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
        pv: principal_variation(tree, best, report.params.pv_length),
        candidates,
        visits,
        elapsed,
        tree_nodes: tree.len(),
        tree_memory: tree.memory(),
        ownership,
        ownership_stdev: root.ownership_stdev_so_far(),
        score_lead,
    }
}

/// The root moves legal under the full rules and not banned, most simulated first, but
/// the move to play first ([`SearchParams::lcb_choice_z`]).
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
    let mut moves: Vec<(MoveInfo, f64)> = children
        .iter()
        .map(|&c| {
            let s = tree.node(c).stats();
            let visits = s.playouts();
            let winrate = root.reported_winrate(scores, c, &s);
            // Standard errors: the binomial deviation's for analysis, the results' own (the
            // binomial one until there are two) for the choice.
            let binomial = (winrate * (1.0 - winrate)).sqrt();
            let root_n = f64::from(visits.max(1)).sqrt();
            let spread = binomial / root_n;
            let own_spread = scores.result_spread(c).unwrap_or(binomial);
            let choice_bound = winrate - params.lcb_choice_z * own_spread / root_n;
            let (pv, pv_visits) = line_from(tree, c, params.pv_length);
            let info = MoveInfo {
                mv: s.mv,
                visits,
                winrate,
                prior: match (&root.policy, s.mv) {
                    (Some(policy), Move::Play(p)) => {
                        f64::from(policy[root.board.geometry().vertex_index(p)])
                    }
                    (Some(_), Move::Pass) => root.pass_policy.map_or(0.0, f64::from),
                    (None, _) if prior_total > 0.0 => s.prior_wins / prior_total,
                    (None, _) => 0.0,
                },
                lcb: if visits == 0 {
                    0.0
                } else {
                    (winrate - params.lcb_z * spread).max(0.0)
                },
                score_lead: scores.black_margin(c).map_or(0.0, for_mover),
                score_stdev: scores.margin_stdev(c).unwrap_or(0.0),
                pv,
                pv_visits,
                ownership: scores.moves_ownership(c),
            };
            (info, choice_bound)
        })
        .collect();
    moves.sort_by(|(a, _), (b, _)| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    if params.lcb_choice_z > 0.0 {
        promote_by_bound(&mut moves, params.lcb_choice_share);
    }
    moves.into_iter().map(|(info, _)| info).collect()
}

/// Moves to the front, among `moves` (most simulated first, each with its lower confidence
/// bound for the choice), the one with the highest bound of those simulated at least `share`
/// as often as the first: the move to play, first for the player and for analysis alike.
/// The others keep their order.
fn promote_by_bound(moves: &mut [(MoveInfo, f64)], share: f64) {
    let Some(most) = moves.first().map(|(m, _)| f64::from(m.visits)) else {
        return;
    };
    let chosen = moves
        .iter()
        .enumerate()
        .filter(|(_, (m, _))| m.visits > 0 && f64::from(m.visits) >= share * most)
        .max_by(|(i, (_, a)), (j, (_, b))| a.total_cmp(b).then(j.cmp(i)))
        .map(|(i, _)| i);
    if let Some(i) = chosen {
        moves[..=i].rotate_right(1);
    }
}

/// The line from the root through `best` (the move to play, a root move not banned),
/// the most simulated below it, at most `length` moves.
fn principal_variation(tree: &Tree, best: Move, length: usize) -> Vec<Move> {
    let first = tree
        .node(ROOT)
        .children()
        .find(|&c| !tree.node(c).is_banned() && tree.node(c).mv() == best);
    match first {
        Some(c) if length > 0 && tree.node(c).stats().playouts() > 0 => {
            line_from(tree, c, length - 1).0
        }
        _ => Vec::new(),
    }
}

/// The move of node `start` followed by the most simulated line below it, at most
/// `length` moves after the start, and the simulations through each of its moves.
fn line_from(tree: &Tree, start: u32, length: usize) -> (Vec<Move>, Vec<u32>) {
    let mut line = vec![tree.node(start).mv()];
    let mut visits = vec![tree.node(start).stats().playouts()];
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
        visits.push(tree.node(child).stats().playouts());
        index = child;
    }
    (line, visits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `n`th point's root move of `visits` simulations at win rate `winrate`, with its
    /// bound for the choice.
    fn root_move(n: usize, visits: u32, winrate: f64, bound: f64) -> (MoveInfo, f64) {
        let point = crate::coord::Geometry::new(9)
            .and_then(|g| g.points().nth(n))
            .expect("a point of 9x9");
        let info = MoveInfo {
            mv: Move::Play(point),
            visits,
            winrate,
            prior: 0.0,
            lcb: 0.0,
            score_lead: 0.0,
            score_stdev: 0.0,
            pv: Vec::new(),
            pv_visits: Vec::new(),
            ownership: None,
        };
        (info, bound)
    }

    fn order(moves: &[(MoveInfo, f64)]) -> Vec<u32> {
        moves.iter().map(|(m, _)| m.visits).collect()
    }

    #[test]
    fn the_best_bound_among_the_well_simulated_moves_goes_first() {
        let mut moves = vec![
            root_move(0, 100, 0.50, 0.45),
            root_move(1, 60, 0.55, 0.40),
            root_move(2, 30, 0.60, 0.52),
            // The best bound of all, but on fewer than a tenth of the first's simulations.
            root_move(3, 9, 0.90, 0.80),
        ];
        promote_by_bound(&mut moves, 0.1);
        assert_eq!(order(&moves), vec![30, 100, 60, 9]);
        // The most simulated stays first where its bound is the best, and at a tie.
        let mut moves = vec![root_move(0, 100, 0.5, 0.45), root_move(1, 60, 0.5, 0.45)];
        promote_by_bound(&mut moves, 0.1);
        assert_eq!(order(&moves), vec![100, 60]);
        // A share of 1 leaves the choice to the visits.
        let mut moves = vec![root_move(0, 100, 0.5, 0.1), root_move(1, 99, 0.9, 0.8)];
        promote_by_bound(&mut moves, 1.0);
        assert_eq!(order(&moves), vec![100, 99]);
    }
}
