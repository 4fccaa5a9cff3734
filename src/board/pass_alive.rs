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
//! Black is done before White, and where their claims meet the order matters: pass-alive
//! stones and territory overwrite earlier claims, unsafe big territory only fills unclaimed
//! points. So when Black stones lying dead in White's pass-alive territory wall in an empty
//! point, Black first claims it as unsafe big territory and White's territory then takes it
//! back; White's unsafe big territory, claimed last, never overwrites Black's.

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
/// `multi_stone_suicide_legal` is what KataGo passes as `getSuicideLegalForPassAlive`: the
/// ruleset's multi-stone suicide, or true whatever the rules where the network prefers
/// pass-alive area computed under suicide rules.
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
    // Black first: see the module documentation for why the order matters.
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
    /// Whether a chain that is not pass-alive borders it; found by Benson's pruning.
    borders_unsafe_chain: bool,
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
            borders_unsafe_chain: false,
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
                    if region.borders_unsafe_chain {
                        continue;
                    }
                    region.borders_unsafe_chain = true;
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
        // With no owner stone there is no chain and no bordered region: nothing to claim
        // (the single region is then the whole board, or the opponent's).
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
            let safe = !region.borders_unsafe_chain
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
