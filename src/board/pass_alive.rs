//! Pass-alive area: the stones and points that stay a player's even if that player passes
//! forever while the opponent plays as it likes, as KataGo's `Board::calculateArea` computes
//! it (KataGo, MIT licence, copyright David J. Wu), together with KataGo's rules for big
//! empty regions and for the stones that are neither pass-alive nor pass-dead.
//!
//! KataGo's networks read this map as two input planes (features 18 and 19 of
//! `NNInputs::fillRowV7`, "own area" and "opponent's area", under area scoring without group
//! tax), so it has to agree with KataGo point for point, odd cases included: a network
//! trained on KataGo's planes misreads any point where they differ.
//!
//! The core is Benson's algorithm, run for each player in turn (the *owner*):
//! * the board without the owner's stones falls into *regions*: maximal connected sets of
//!   empty points together with the opponent's stones among them;
//! * a region is *vital* to an owner chain when every empty point of it is a liberty of the
//!   chain (where multi-stone suicide is legal: every point of it, opponent stones too);
//! * a chain with fewer than two vital regions is not pass-alive: once it is captured the
//!   regions it borders are open to the opponent, so they stop counting as eyes for every
//!   chain. Striking out chains until none is left with fewer than two leaves the
//!   pass-alive chains.
//!
//! KataGo then gives the owner, besides its pass-alive chains:
//! * *pass-alive territory*: every region bordered by pass-alive chains only in which at most
//!   one point touches no owner stone (too little room for the opponent to live), opponent
//!   stones inside included: they are dead;
//! * *safe big territory* (optional): every other region bordered by pass-alive chains only
//!   that holds no opponent stone, however big;
//! * *unsafe big territory* (optional): every empty region bordered only by owner stones,
//!   alive or not, on the points not already counted for the other side;
//! * *stones that are not pass-alive* (optional): once both sides are done, every stone left
//!   unclaimed counts for its own color.
//!
//! Both sides write into one map, Black first as in KataGo. Pass-alive stones and territory
//! overwrite what is there while unsafe big territory only fills unclaimed points, so a sure
//! claim beats an unsafe one whichever side makes it first: when Black stones lying dead in
//! White's pass-alive territory wall in an empty point, Black claims it as unsafe big
//! territory and White's territory takes it back, and in the mirrored position White's
//! unsafe claim leaves Black's territory alone.

use super::tactics::SmallSet;
use super::{Board, Cell};
use crate::coord::{Color, Point, PointSet, SLOTS};

/// What counts as a player's area besides pass-alive stones and pass-alive territory: the
/// flags of KataGo's `Board::calculateArea`, by their KataGo names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaRules {
    /// Regions without opponent stones bordered by pass-alive chains only, however big
    /// (`safeBigTerritories`).
    pub safe_big_territories: bool,
    /// Empty regions bordered by the player's stones only, alive or not, where the other side
    /// has not claimed the point (`unsafeBigTerritories`).
    pub unsafe_big_territories: bool,
    /// Stones of either color that neither side claimed: neither pass-alive nor dead inside
    /// the other side's pass-alive territory (`nonPassAliveStones`).
    pub non_pass_alive_stones: bool,
    /// Whether the opponent may remove its own stones by multi-stone suicide, which makes a
    /// region vital only if its opponent stones touch the chain too
    /// (`isMultiStoneSuicideLegal`).
    pub multi_stone_suicide_legal: bool,
}

impl AreaRules {
    /// Pass-alive stones and territory and nothing more: what no play can change.
    pub fn strict(multi_stone_suicide_legal: bool) -> AreaRules {
        AreaRules {
            safe_big_territories: false,
            unsafe_big_territories: false,
            non_pass_alive_stones: false,
            multi_stone_suicide_legal,
        }
    }

    /// What KataGo's `fillRowV7` asks for under area scoring without group tax: every extra
    /// on, so that the map is a full area count of the board as it stands.
    pub fn network_inputs(multi_stone_suicide_legal: bool) -> AreaRules {
        AreaRules {
            safe_big_territories: true,
            unsafe_big_territories: true,
            non_pass_alive_stones: true,
            multi_stone_suicide_legal,
        }
    }
}

/// Who owns each point as KataGo's networks see area (features 18 and 19 of `fillRowV7`
/// under area scoring without group tax): `calculateArea` with all three extras on, that is
/// [`area`] with [`AreaRules::network_inputs`].
///
/// A point is a player's when it is
/// * a pass-alive stone of the player, or a point of the player's pass-alive territory
///   (including dead opponent stones inside it);
/// * a point of a region without opponent stones bordered only by the player's pass-alive
///   chains (safe big territory);
/// * an empty point of a region bordered only by the player's stones, pass-alive or not,
///   unless the opponent already claims it (unsafe big territory);
/// * any other stone of the player's color that the opponent does not claim.
///
/// So empty points go to a side only when they are walled in by it alone (or safe inside
/// its pass-alive territory); stones go to their own color unless they are dead in the other
/// side's pass-alive territory. Dame and points between both colors are `None`.
///
/// `multi_stone_suicide_legal` is what KataGo passes as `getSuicideLegalForPassAlive`: true
/// when the rules allow multi-stone suicide, and also, whatever the rules, for a network
/// whose model file sets `preferPassAliveUnderSuicideRules` (KataGo's search parameter
/// `alwaysComputePassAliveUnderSuicideRules`, `auto` by default, follows the network).
///
/// Indexed by [`Point::index`], `board.geometry().slots()` long, `None` off the board.
pub fn pass_alive_area(board: &Board, multi_stone_suicide_legal: bool) -> Vec<Option<Color>> {
    area(board, AreaRules::network_inputs(multi_stone_suicide_legal))
}

/// Who owns each point as KataGo's `Board::calculateArea` counts it with the given flags (see
/// the module documentation). Indexed by [`Point::index`], `board.geometry().slots()` long,
/// `None` off the board and on points that are nobody's.
pub fn area(board: &Board, rules: AreaRules) -> Vec<Option<Color>> {
    let mut owners = vec![None; board.geometry().slots()];
    // Black first, as KataGo does; sure claims overwrite, unsafe ones only fill (see the
    // module documentation).
    for owner in [Color::Black, Color::White] {
        let mut regions = Regions::new(board, owner, rules.multi_stone_suicide_legal);
        let alive = regions.pass_alive_chains(board);
        regions.claim(board, &alive, rules, &mut owners);
    }
    if rules.non_pass_alive_stones {
        for p in board.geometry().points() {
            if owners[p.index()].is_none() {
                owners[p.index()] = board.color_at(p);
            }
        }
    }
    owners
}

/// A maximal connected set of points without an owner stone, grown from an empty point.
struct Region {
    /// Where its points lie in [`Regions::points`].
    start: usize,
    end: usize,
    /// Heads of the owner chains the region is vital to (at most four: the chains around one
    /// point).
    vital_to: SmallSet<4>,
    /// How many of its points touch no owner stone, counted up to two.
    inner_points: u8,
    holds_opponent_stones: bool,
    /// Whether a chain that is not pass-alive borders it (found by Benson's pruning): then
    /// the region may open up to the opponent.
    borders_fallen_chain: bool,
}

/// The board as seen by one player, the owner: its regions and which point is in which.
struct Regions {
    owner: Color,
    /// The points of every region, region after region.
    points: Vec<Point>,
    list: Vec<Region>,
    /// For each point of a region, the region's number plus one; 0 elsewhere.
    region_of: [u16; SLOTS],
}

impl Regions {
    /// Cuts the board into the owner's regions. Opponent stones are only reached from empty
    /// points, as in KataGo: a chain without liberties (possible in a set-up position) is in
    /// no region.
    fn new(board: &Board, owner: Color, suicide_legal: bool) -> Regions {
        let mut regions = Regions {
            owner,
            points: Vec::with_capacity(board.geometry().size().pow(2)),
            list: Vec::new(),
            region_of: [0; SLOTS],
        };
        for p in board.geometry().points() {
            if board.cell(p) == Cell::Empty && regions.region_of[p.index()] == 0 {
                regions.grow(board, p, suicide_legal);
            }
        }
        regions
    }

    /// Adds the region of the empty point `start`, flooding empty points and opponent stones.
    fn grow(&mut self, board: &Board, start: Point, suicide_legal: bool) {
        let g = board.geometry();
        let number = self.list.len() as u16 + 1;
        let first = self.points.len();
        let mut region = Region {
            start: first,
            end: first,
            vital_to: self.chains_next_to(board, start),
            inner_points: 0,
            holds_opponent_stones: false,
            borders_fallen_chain: false,
        };
        self.points.push(start);
        self.region_of[start.index()] = number;
        let mut next = first;
        while let Some(&p) = self.points.get(next) {
            next += 1;
            let empty = board.cell(p) == Cell::Empty;
            // Vital: the region is inside the liberties of the chain. An opponent stone need
            // not touch the chain when suicide is illegal (the stone stays put until the
            // chain is captured); where it is legal, the opponent can empty those points
            // itself, so they must touch the chain as well.
            if (empty || suicide_legal) && !region.vital_to.is_empty() {
                region.vital_to = self.still_next_to(board, region.vital_to, p);
            }
            if region.inner_points < 2 && board.neighbours_of(p, self.owner) == 0 {
                region.inner_points += 1;
            }
            region.holds_opponent_stones |= !empty;
            for n in g.neighbours(p) {
                if self.is_open(board, n) && self.region_of[n.index()] == 0 {
                    self.region_of[n.index()] = number;
                    self.points.push(n);
                }
            }
        }
        region.end = self.points.len();
        self.list.push(region);
    }

    /// Whether `p` belongs in a region: an empty point or an opponent stone.
    fn is_open(&self, board: &Board, p: Point) -> bool {
        match board.cell(p) {
            Cell::Empty => true,
            Cell::Border => false,
            stone => stone.color() != Some(self.owner),
        }
    }

    /// The heads of the distinct owner chains next to `p`.
    fn chains_next_to(&self, board: &Board, p: Point) -> SmallSet<4> {
        let mut chains = SmallSet::new();
        for n in board.geometry().neighbours(p) {
            if board.color_at(n) == Some(self.owner) {
                chains.insert(board.chain(n));
            }
        }
        chains
    }

    /// Those of `chains` that have a stone next to `p`.
    fn still_next_to(&self, board: &Board, chains: SmallSet<4>, p: Point) -> SmallSet<4> {
        let around = self.chains_next_to(board, p);
        let mut kept = SmallSet::new();
        for &head in chains.as_slice() {
            if around.as_slice().contains(&head) {
                kept.insert(head);
            }
        }
        kept
    }

    /// Benson's pruning: the heads of the owner chains that keep two vital regions once
    /// every region next to a chain without two of them stops counting, repeatedly. Which
    /// chain falls first does not matter: a fallen chain only ever makes others fall.
    /// Marks the regions next to fallen chains as it goes.
    fn pass_alive_chains(&mut self, board: &Board) -> Vec<Point> {
        let mut vital_regions = [0u16; SLOTS];
        for region in &self.list {
            for &head in region.vital_to.as_slice() {
                vital_regions[head.index()] += 1;
            }
        }
        let heads: Vec<Point> = board
            .geometry()
            .points()
            .filter(|&p| board.color_at(p) == Some(self.owner) && board.chain(p) == p)
            .collect();
        let mut fallen = PointSet::new();
        let mut to_fell: Vec<Point> = Vec::new();
        for &head in &heads {
            if vital_regions[head.index()] < 2 {
                fallen.insert(head);
                to_fell.push(head);
            }
        }
        while let Some(head) = to_fell.pop() {
            for stone in board.chain_stones(head) {
                for n in board.geometry().neighbours(stone) {
                    let Some(region) = self.region_at(n) else {
                        continue;
                    };
                    let region = &mut self.list[region];
                    if region.borders_fallen_chain {
                        continue;
                    }
                    region.borders_fallen_chain = true;
                    for &other in region.vital_to.as_slice() {
                        vital_regions[other.index()] -= 1;
                        if vital_regions[other.index()] < 2 && fallen.insert(other) {
                            to_fell.push(other);
                        }
                    }
                }
            }
        }
        heads.into_iter().filter(|&h| !fallen.contains(h)).collect()
    }

    /// The number of the region holding `p`, if any.
    fn region_at(&self, p: Point) -> Option<usize> {
        (self.region_of[p.index()] as usize).checked_sub(1)
    }

    /// Writes the owner's claims into `owners`: its pass-alive chains and the regions the
    /// rules give it.
    fn claim(
        &self,
        board: &Board,
        alive: &[Point],
        rules: AreaRules,
        owners: &mut [Option<Color>],
    ) {
        // Without owner stones no region is walled in by the owner: the empty board would
        // otherwise be one safe big territory.
        if board.stones(self.owner) == 0 {
            return;
        }
        let mine = Some(self.owner);
        for &head in alive {
            for stone in board.chain_stones(head) {
                owners[stone.index()] = mine;
            }
        }
        for region in &self.list {
            let points = &self.points[region.start..region.end];
            let safe = !region.borders_fallen_chain
                && (region.inner_points <= 1
                    || (rules.safe_big_territories && !region.holds_opponent_stones));
            if safe {
                for p in points {
                    owners[p.index()] = mine;
                }
            } else if rules.unsafe_big_territories && !region.holds_opponent_stones {
                for p in points {
                    owners[p.index()].get_or_insert(self.owner);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::{Geometry, Vertex};

    /// A board drawn as rows from the top (`X` black, `O` white, anything else empty; spaces
    /// ignored), as the judge's tests draw games.
    fn board_from_rows(rows: &[&str]) -> Board {
        let size = rows.len();
        let g = Geometry::new(size).expect("size");
        let mut stones = Vec::new();
        for (r, line) in rows.iter().enumerate() {
            let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(cells.len(), size, "row {r} of a {size}×{size} board");
            for (col, ch) in cells.into_iter().enumerate() {
                let p = g.point(Vertex::new(col, size - 1 - r));
                match ch {
                    'X' => stones.push((p, Color::Black)),
                    'O' => stones.push((p, Color::White)),
                    _ => {}
                }
            }
        }
        Board::from_stones(size, stones).expect("stones")
    }

    /// The owners drawn as the board is: rows from the top, `X` Black's, `O` White's, `.`
    /// nobody's. Also checks the map's shape: one entry per slot, `None` off the board.
    fn draw(board: &Board, owners: &[Option<Color>]) -> Vec<String> {
        let g = board.geometry();
        assert_eq!(owners.len(), g.slots());
        let on_board: PointSet = g.points().collect();
        for (index, owner) in owners.iter().enumerate() {
            if !on_board.contains(Point::from_index(index)) {
                assert_eq!(*owner, None, "slot {index} is off the board");
            }
        }
        let size = g.size();
        (0..size)
            .map(|r| {
                let row = (0..size).map(|col| {
                    let p = g.point(Vertex::new(col, size - 1 - r));
                    match owners[p.index()] {
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                        None => ".",
                    }
                });
                row.collect::<Vec<_>>().join(" ")
            })
            .collect()
    }

    /// What the networks see, multi-stone suicide illegal unless said otherwise.
    fn network(rows: &[&str]) -> Vec<String> {
        let board = board_from_rows(rows);
        draw(&board, &pass_alive_area(&board, false))
    }

    /// Pass-alive stones and territory only.
    fn strict(rows: &[&str], suicide: bool) -> Vec<String> {
        let board = board_from_rows(rows);
        draw(&board, &area(&board, AreaRules::strict(suicide)))
    }

    /// Swaps the colors of a diagram.
    fn swapped(rows: &[&str]) -> Vec<String> {
        let swap = |c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        };
        rows.iter().map(|r| r.chars().map(swap).collect()).collect()
    }

    fn as_strs(rows: &[String]) -> Vec<&str> {
        rows.iter().map(String::as_str).collect()
    }

    #[test]
    fn a_group_with_two_eyes_owns_its_stones_and_eyes() {
        // Black's corner group has the eyes A9 and C9; White's wall around it has none.
        let rows = [
            ". X . X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        let alive = [
            "X X X X . . . . .",
            "X X X X . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        assert_eq!(strict(&rows, false), alive);
        assert_eq!(strict(&rows, true), alive);
        // The networks also see White's wall, and the empty rest walled in by White alone.
        assert_eq!(
            network(&rows),
            [
                "X X X X O O O O O",
                "X X X X O O O O O",
                "O O O O O O O O O",
                "O O O O O O O O O",
                "O O O O O O O O O",
                "O O O O O O O O O",
                "O O O O O O O O O",
                "O O O O O O O O O",
                "O O O O O O O O O",
            ]
        );
    }

    #[test]
    fn a_group_with_one_eye_is_not_pass_alive() {
        // As above with C9 filled: one eye left.
        let rows = [
            ". X X X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        let nothing = [". . . . . . . . ."; 9];
        assert_eq!(strict(&rows, false), nothing);
        assert_eq!(strict(&rows, true), nothing);
    }

    #[test]
    fn a_false_eye_is_no_eye() {
        // C9 looks like Black's second eye, but White can take D9 by playing there (D8 and E9
        // are White's), and then A9 is the only eye.
        let rows = [
            ". X . X O . . . .",
            "X X X O O . . . .",
            "O O O O . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        assert_eq!(strict(&rows, false), [". . . . . . . . ."; 9]);
        // With D8 Black's, D9 is connected and C9 is a real eye.
        let rows = [
            ". X . X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        assert_eq!(strict(&rows, false)[..2], ["X X X X . . . . ."; 2]);
    }

    #[test]
    fn seki_is_pass_alive_for_neither() {
        // White's row and Black's B1-D1 share the liberties A1 and E1: whoever fills one
        // is captured. Nothing is pass-alive.
        let rows = [
            ". . . . .",
            ". . . . .",
            "X X X X X",
            "O O O O O",
            ". X X X .",
        ];
        assert_eq!(strict(&rows, false), [". . . . ."; 5]);
        assert_eq!(strict(&rows, true), [". . . . ."; 5]);
        // The networks see every stone as its own color's and the shared liberties as
        // nobody's; the empty top, walled in by Black alone, is Black's.
        assert_eq!(
            network(&rows),
            [
                "X X X X X",
                "X X X X X",
                "X X X X X",
                "O O O O O",
                ". X X X .",
            ]
        );
    }

    /// A Black wall along the top of a 9×9 board with the eyes A9, E9, G9 and J9, and White
    /// stones from `white` below it.
    fn wall_over(white: &[&str; 7]) -> Vec<String> {
        let mut rows = vec![
            ". O . X . X . X .".to_string(),
            "X X X X X X X X X".to_string(),
        ];
        rows.extend(white.iter().map(|r| r.to_string()));
        rows
    }

    #[test]
    fn a_pass_alive_wall_owns_the_empty_region_it_encloses() {
        let rows = wall_over(&[". . . . . . . . ."; 7]);
        // B9 is a dead White stone in the pass-alive territory A9-C9: Black's. The 63 empty
        // points below are Black's safe big territory.
        assert_eq!(network(&as_strs(&rows)), ["X X X X X X X X X"; 9]);
        // Strictly, the big region is not pass-alive territory (White could live there).
        let mut expected = vec!["X X X X X X X X X"; 2];
        expected.extend([". . . . . . . . ."; 7]);
        assert_eq!(strict(&as_strs(&rows), false), expected);
    }

    #[test]
    fn an_opponent_stone_inside_a_big_region_keeps_it_open() {
        // One White stone at E4: the region below the wall holds an opponent stone, so it is
        // neither safe big territory nor, being big, pass-alive territory. The stone counts
        // as White's, the empty points as nobody's.
        let rows = wall_over(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        assert_eq!(
            network(&as_strs(&rows)),
            [
                "X X X X X X X X X",
                "X X X X X X X X X",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . O . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
            ]
        );
    }

    #[test]
    fn points_between_both_colors_are_nobodys() {
        // Two pass-alive walls face each other: rows 3 to 7 touch both, so neither side may
        // count them, big territory or not.
        let rows = wall_over(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "O O O O O O O O O",
            ". O . O . O . O .",
        ]);
        let mut expected = vec!["X X X X X X X X X"; 2];
        expected.extend([". . . . . . . . ."; 5]);
        expected.extend(["O O O O O O O O O"; 2]);
        assert_eq!(network(&as_strs(&rows)), expected);
        assert_eq!(strict(&as_strs(&rows), false), expected);
    }

    #[test]
    fn territory_swallowing_a_dead_groups_eye_goes_to_the_owner_whatever_its_color() {
        // Black's pass-alive group (eyes D7 and F7) holds the corner A7, B7, A6 as pass-alive
        // territory: one point of it, A7, touches no Black stone. White's dead B7 and A6
        // wall in A7, which White alone borders. Black is marked first, so the two colorings
        // take different paths (White's unsafe claim must not overwrite Black's territory;
        // Black's must be overwritten by White's): both give the corner to the wall.
        let rows = [
            ". O X . X . X",
            "O X X X X X X",
            "X X . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ];
        let expected = ["X X X X X X X"; 7];
        assert_eq!(network(&rows), expected);
        assert_eq!(network(&as_strs(&swapped(&rows))), swapped(&expected));
        let corner = [
            "X X X X X X X",
            "X X X X X X X",
            "X X . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ];
        assert_eq!(strict(&rows, false), corner);
    }

    #[test]
    fn the_empty_board_is_nobodys() {
        for size in [2, 9, 19, 25] {
            let board = Board::new(size).unwrap();
            for owners in [
                pass_alive_area(&board, false),
                pass_alive_area(&board, true),
                area(&board, AreaRules::strict(false)),
            ] {
                assert_eq!(draw(&board, &owners), vec![vec!["."; size].join(" "); size]);
            }
        }
    }

    #[test]
    fn one_stone_claims_the_empty_board_it_alone_borders() {
        // Not pass-alive, but the networks count the stone and the empty region walled in by
        // Black alone (unsafe big territory).
        let rows = [". . . .", ". X . .", ". . . .", ". . . ."];
        assert_eq!(network(&rows), ["X X X X"; 4]);
        assert_eq!(strict(&rows, false), [". . . ."; 4]);
    }

    #[test]
    fn on_two_by_two_diagonal_stones_share_two_eyes() {
        // Each Black stone borders both empty corners, and both corners touch only it: two
        // vital regions each, in the smallest board there is.
        let rows = [". X", "X ."];
        assert_eq!(strict(&rows, false), ["X X", "X X"]);
        assert_eq!(strict(&rows, true), ["X X", "X X"]);
        // One stone each: nothing is pass-alive, each color keeps its stone, and the empty
        // points, touching both, are nobody's.
        let rows = ["X .", ". O"];
        assert_eq!(strict(&rows, false), [". .", ". ."]);
        assert_eq!(network(&rows), ["X .", ". O"]);
    }

    #[test]
    fn suicide_rules_need_opponent_stones_inside_an_eye_to_touch_the_group() {
        // Black's group has the eye D9 and the corner A9 (White), B9, A8. Without suicide the
        // corner is vital: White can never empty A9, and filling B9 and A8 would be suicide.
        // With multi-stone suicide White can take its own stones off, leaving A9 empty and
        // not a liberty of Black, so the corner is not an eye.
        let rows = [
            "O . X . X . . . .",
            ". X X X X . . . .",
            "X X . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        let board = board_from_rows(&rows);
        let without = draw(&board, &pass_alive_area(&board, false));
        let with = draw(&board, &pass_alive_area(&board, true));
        assert_eq!(without, ["X X X X X X X X X"; 9]);
        let mut expected = vec!["O . X X X X X X X", ". X X X X X X X X"];
        expected.extend(["X X X X X X X X X"; 7]);
        assert_eq!(with, expected);
        let mut expected = vec![
            "X X X X X . . . .",
            "X X X X X . . . .",
            "X X . . . . . . .",
        ];
        expected.extend([". . . . . . . . ."; 6]);
        assert_eq!(strict(&rows, false), expected);
        assert_eq!(strict(&rows, true), [". . . . . . . . ."; 9]);
    }

    /// A `size`×`size` diagram, empty but for the given rows (from the top).
    fn rows_with(size: usize, rows: &[(usize, &str)]) -> Vec<String> {
        let mut all = vec![vec!["."; size].join(" "); size];
        for &(r, row) in rows {
            all[r] = row.to_string();
        }
        all
    }

    #[test]
    fn groups_on_a_nineteen_board() {
        // Two-eyed groups: White's in the upper right corner, Black's on the lower edge; a
        // lone White stone (K10) and a lone Black one (D7) in between.
        let rows = rows_with(
            19,
            &[
                (0, ". . . . . . . . . . . . . . . O . O ."),
                (1, ". . . . . . . . . . . . . . . O O O O"),
                (9, ". . . . . . . . . O . . . . . . . . ."),
                (12, ". . . X . . . . . . . . . . . . . . ."),
                (17, ". . X X X X X . . . . . . . . . . . ."),
                (18, ". . X . X . X . . . . . . . . . . . ."),
            ],
        );
        let mut expected = rows_with(
            19,
            &[
                (0, ". . . . . . . . . . . . . . . O O O O"),
                (1, ". . . . . . . . . . . . . . . O O O O"),
                (17, ". . X X X X X . . . . . . . . . . . ."),
                (18, ". . X X X X X . . . . . . . . . . . ."),
            ],
        );
        assert_eq!(strict(&as_strs(&rows), false), expected);
        // Every empty region touches both colors: the networks only add the lone stones.
        expected[9] = rows[9].clone();
        expected[12] = rows[12].clone();
        assert_eq!(network(&as_strs(&rows)), expected);
    }

    #[test]
    fn the_far_corners_of_the_largest_board() {
        // Two-eyed groups in the corners Z25 (White) and A1 (Black) of a 25×25 board.
        let open = vec!["."; 20].join(" ");
        let rows = rows_with(
            25,
            &[
                (0, &format!("{open} O . O . O")),
                (1, &format!("{open} O O O O O")),
                (23, &format!("X X X X X {open}")),
                (24, &format!(". X . X X {open}")),
            ],
        );
        let expected = rows_with(
            25,
            &[
                (0, &format!("{open} O O O O O")),
                (1, &format!("{open} O O O O O")),
                (23, &format!("X X X X X {open}")),
                (24, &format!("X X X X X {open}")),
            ],
        );
        assert_eq!(strict(&as_strs(&rows), false), expected);
        assert_eq!(network(&as_strs(&rows)), expected);
    }
}
