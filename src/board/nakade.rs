//! Nakade: the vital point of a small eye space, for the playout policy.
//!
//! After a move that leaves a small empty area walled in by the mover's stones (a wall just
//! closed, or an eye space the owner just shrank from inside), one point of that area decides
//! whether it makes two eyes or one: the attacker kills by playing there, the owner lives
//! there. Playouts that play uniformly at random find that point by luck only, so groups with
//! a dead shape live in most playouts and the search misjudges them; a rule that plays the
//! vital point right away lets playouts settle those shapes as a player would. The shapes and their vital points are
//! those of classical Monte Carlo engines (Pachi's `tactics/nakade.c`, itself after MoGo).

use super::{Board, Cell};
use crate::coord::Point;

/// The largest area with a vital point in the shape table (the rabbity six). Larger areas have
/// no single killing point, so the flood fill gives up as soon as it finds one point more.
const MAX_AREA: usize = 6;

impl Board {
    /// The vital point of a small enclosed empty area next to `last` (the stone just played),
    /// if playing there (by either side) is the nakade move: the point that leaves the area
    /// one eye when the attacker takes it, or gives the owner two when the owner does.
    ///
    /// The area is an empty region touching `last` that holds at most six points and is
    /// bordered only by the edge and stones of `last`'s color (the owner). Like Pachi, areas
    /// next to an opponent stone are not considered: an attacker stone inside or on the rim
    /// means the fight for the space has begun and the shape table no longer applies.
    /// Vital points by size: three points (straight or bent): the middle; four: the centre of
    /// the pyramid four only (a square four is dead already, straight and bent fours live);
    /// five: the point of the bulky five with three neighbours in the area, or the centre of
    /// the crossed five; six: the centre of the rabbity six only. Anything else: `None`.
    ///
    /// Which neighbours of `last` count, following Pachi: none when two empty neighbours face
    /// each other across `last`, since `last` then stands between two regions (or splits one)
    /// instead of shaping a single eye space. The empty neighbours left are diagonal to each
    /// other; their regions are flooded in turn, skipping open ones (the outside of a wall),
    /// and when two separate regions are enclosed the owner has two eye spaces and there is
    /// no single vital point: `None`. (Pachi only floods the first empty neighbour.)
    ///
    /// The point returned is empty; whether it is legal, or a self-atari worth playing, is
    /// for the caller to check.
    ///
    /// Cheap enough to ask after every playout move: the area lives in a fixed array of six
    /// points on the stack (the flood fails on a seventh), each point's number of neighbours
    /// in the area is its count of empty neighbours (the region is closed, so every empty
    /// neighbour belongs to it), read from the board's incremental counts, and a stone without
    /// an empty neighbour (most stones in a crowded playout) costs two loads.
    pub fn nakade_point(&self, last: Point) -> Option<Point> {
        let owner = self.cell(last);
        // Three or four empty neighbours always include two facing each other (see below).
        if !owner.is_stone() || !(1..=2).contains(&self.empty_neighbours(last)) {
            return None;
        }
        // Order of `neighbours`: south, west, east, north; opposite pairs are (0, 3), (1, 2).
        let around = self.geometry.neighbours(last);
        let empty = around.map(|n| self.cell(n) == Cell::Empty);
        if (empty[0] && empty[3]) || (empty[1] && empty[2]) {
            return None;
        }
        let mut found: Option<Point> = None;
        let mut enclosed: Option<Area> = None;
        for (k, &start) in around.iter().enumerate() {
            if !empty[k] || enclosed.is_some_and(|a| a.contains(start)) {
                continue;
            }
            let Some(area) = self.enclosed_area(start, owner) else {
                continue;
            };
            if enclosed.is_some() {
                // A second eye space on the other side of `last`.
                return None;
            }
            found = self.vital_point(&area);
            enclosed = Some(area);
        }
        found
    }

    /// The empty region of `start` if it is enclosed by stones of `owner` (and the edge) and
    /// has at most [`MAX_AREA`] points.
    fn enclosed_area(&self, start: Point, owner: Cell) -> Option<Area> {
        let mut area = Area {
            points: [Point::NONE; MAX_AREA],
            len: 1,
        };
        area.points[0] = start;
        let intruder = owner.color()?.opponent();
        let mut next = 0;
        while next < area.len {
            let p = area.points[next];
            // One load rules out most areas: an opponent stone on the rim.
            if self.neighbours_of(p, intruder) > 0 {
                return None;
            }
            for n in self.geometry.neighbours(p) {
                // Opponent stones were ruled out above: the rest is the owner's wall or the
                // edge, or more of the area.
                if self.cell(n) == Cell::Empty && !area.contains(n) {
                    if area.len == MAX_AREA {
                        return None;
                    }
                    area.points[area.len] = n;
                    area.len += 1;
                }
            }
            next += 1;
        }
        Some(area)
    }

    /// The vital point of an enclosed area, told from how many of its points have 1, 2, 3
    /// and 4 neighbours in the area: that histogram separates the killable shapes from the
    /// others for every connected area of up to six points, with no rotation or reflection
    /// to try.
    fn vital_point(&self, area: &Area) -> Option<Point> {
        let points = area.as_slice();
        // For each neighbour count: how many points have it, and one of them.
        let mut count = [0u8; 5];
        let mut with = [Point::NONE; 5];
        for &p in points {
            let d = self.empty_neighbours(p);
            count[d] += 1;
            with[d] = p;
        }
        match points.len() {
            // Straight or bent three: the middle one has two neighbours.
            3 => Some(with[2]),
            // Pyramid four. Square (all 2), straight and bent four (no 3) have none.
            4 => (count[3] == 1).then_some(with[3]),
            // Bulky five: a square with one point more. A tree of five points with a point of
            // three neighbours has three ends, so a single end means the square is there.
            5 if count[3] == 1 && count[1] == 1 => Some(with[3]),
            // Crossed five.
            5 => (count[4] == 1).then_some(with[4]),
            // Rabbity six: a cross with a point in one of its corners (that point and the two
            // arms it touches have two neighbours each). No other six has a vital point.
            6 => (count[4] == 1 && count[2] == 3).then_some(with[4]),
            _ => None,
        }
    }
}

/// A small empty area, at most [`MAX_AREA`] points, kept on the stack.
#[derive(Clone, Copy)]
struct Area {
    points: [Point; MAX_AREA],
    len: usize,
}

impl Area {
    #[inline]
    fn contains(&self, p: Point) -> bool {
        self.points[..self.len].contains(&p)
    }

    #[inline]
    fn as_slice(&self) -> &[Point] {
        &self.points[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use crate::board::test_board as board;
    use crate::board::Cell;
    use crate::coord::Point;

    /// The vital point next to `last` on a 9×9 board with these stones, by name.
    fn nakade(black: &str, white: &str, last: &str) -> Option<String> {
        let (b, p) = board(9, black, white);
        b.nakade_point(p(last)).map(|v| b.geometry().name(v))
    }

    /// Size of the enclosed area of `start` (Black's), to check a `None` has the reason meant.
    fn area_len(black: &str, white: &str, start: &str) -> Option<usize> {
        let (b, p) = board(9, black, white);
        b.enclosed_area(p(start), Cell::Black).map(|a| a.len)
    }

    #[test]
    fn straight_three_after_filling_a_straight_four() {
        // Black had C5-F5 (alive) and filled F5 itself: C5 D5 E5 is left, dead at D5.
        let black = "B5 G5 C4 D4 E4 F4 C6 D6 E6 F6 F5";
        assert_eq!(nakade(black, "", "F5").as_deref(), Some("D5"));
        // The same three just walled in by E4 (E3 behind it black too).
        assert_eq!(
            nakade(&format!("{black} E3"), "", "E4").as_deref(),
            Some("D5")
        );
    }

    #[test]
    fn bent_three_in_the_corner() {
        // A1 B1 A2 inside A3 B3 B2 C2 C1; B2 touches A2 and B1, diagonal to each other.
        let black = "A3 B3 B2 C2 C1";
        assert_eq!(nakade(black, "", "B2").as_deref(), Some("A1"));
        // Walled in by A3, with A4 behind it.
        assert_eq!(
            nakade(&format!("{black} A4"), "", "A3").as_deref(),
            Some("A1")
        );
    }

    #[test]
    fn pyramid_four_on_the_edge() {
        // D1 E1 F1 E2 inside C1 D2 E3 F2 G1; D2 (with C2 and D3 black) touches D1 and E2.
        let black = "C1 C2 D2 D3 E3 F2 G1";
        assert_eq!(nakade(black, "", "D2").as_deref(), Some("E1"));
    }

    #[test]
    fn square_four_has_no_vital_point() {
        // D4 E4 D5 E5: dead as it stands, no move needed. C4 touches only D4.
        let black = "B4 C3 C4 C5 D3 E3 F4 F5 D6 E6";
        assert_eq!(nakade(black, "", "C4"), None);
        assert_eq!(area_len(black, "", "D4"), Some(4));
    }

    #[test]
    fn straight_and_bent_fours_have_no_vital_point() {
        // C5-F5 with G5 just played: two vital points, miai, the group lives.
        let black = "B5 C4 D4 E4 F4 C6 D6 E6 F6 G4 G6 G5 H5";
        assert_eq!(nakade(black, "", "G5"), None);
        assert_eq!(area_len(black, "", "F5"), Some(4));
        // A bent four in the corner: A1 B1 C1 A2.
        let black = "A3 B3 B2 C2 D2 D1";
        assert_eq!(nakade(black, "", "B2"), None);
        assert_eq!(area_len(black, "", "A1"), Some(4));
    }

    #[test]
    fn bulky_five() {
        // D4 E4 D5 E5 D6: the square plus D6; D5 has three neighbours in it.
        let black = "C4 C5 C6 D3 E3 F4 F5 E6 F6 E7 D7";
        assert_eq!(nakade(black, "", "E6").as_deref(), Some("D5"));
    }

    #[test]
    fn crossed_five() {
        // E5 and its four neighbours; D6 (with C6 and D7 black) touches D5 and E6.
        let black = "C5 G5 E3 E7 D4 F4 D6 F6 C6 D7";
        assert_eq!(nakade(black, "", "D6").as_deref(), Some("E5"));
    }

    #[test]
    fn rabbity_six() {
        // The cross around E5 plus F4, in the corner of its arms E4 and F5.
        let black = "C5 D4 D6 E7 F6 G5 G4 F3 E3 C4 D3";
        assert_eq!(nakade(black, "", "D4").as_deref(), Some("E5"));
    }

    #[test]
    fn other_sixes_have_no_vital_point() {
        // The 2×3 rectangle D4-F5 lives.
        let black = "B4 C3 C4 C5 D3 E3 F3 G4 G5 D6 E6 F6";
        assert_eq!(nakade(black, "", "C4"), None);
        assert_eq!(area_len(black, "", "D4"), Some(6));
        // The cross around E5 plus E3 below its arm E4 (no corner point).
        let black = "C5 D4 D6 E7 F6 G5 F4 D3 F3 E2 C4";
        assert_eq!(nakade(black, "", "D4"), None);
        assert_eq!(area_len(black, "", "E4"), Some(6));
    }

    #[test]
    fn seven_points_are_too_many() {
        // The rabbity six around E5 with C5 added (B5 C4 C6 wall it instead of C5).
        let black = "B5 C4 C6 D4 D6 E7 F6 G5 G4 F3 E3 D3";
        assert_eq!(nakade(black, "", "D4"), None);
        assert_eq!(area_len(black, "", "E4"), None);
        // Without C5 the area is the rabbity six again.
        assert_eq!(
            nakade(&format!("{black} C5"), "", "D4").as_deref(),
            Some("E5")
        );
    }

    #[test]
    fn open_areas_have_no_vital_point() {
        // The straight three of C5 D5 E5 with B5 missing from the wall: open to the board.
        let black = "G5 C4 D4 E4 F4 C6 D6 E6 F6 F5";
        assert_eq!(nakade(black, "", "F5"), None);
        assert_eq!(area_len(black, "", "E5"), None);
    }

    #[test]
    fn areas_touching_an_opponent_stone_are_not_considered() {
        // The straight three of C5 D5 E5 with White B5 in the wall, or White on D5 inside.
        let black = "G5 C4 D4 E4 F4 C6 D6 E6 F6 F5";
        assert_eq!(nakade(black, "B5", "F5"), None);
        assert_eq!(nakade(&format!("{black} B5"), "D5", "F5"), None);
        // A white `last` touching only Black's eye space: not White's area.
        let black = "A5 B4 B6 G5 C4 D4 E4 F4 C6 D6 E6 F6 F5";
        assert_eq!(nakade(black, "B5", "B5"), None);
        assert_eq!(
            nakade(&format!("{black} B5"), "", "B5").as_deref(),
            Some("D5")
        );
    }

    #[test]
    fn last_without_an_empty_neighbour() {
        assert_eq!(nakade("D5 F5 E4 E6", "E5", "E5"), None);
        // Not a stone at all: an empty point, and the "no point" sentinel.
        assert_eq!(nakade("D5", "", "E5"), None);
        let (b, _) = board(9, "", "");
        assert_eq!(b.nakade_point(Point::NONE), None);
    }

    #[test]
    fn empty_neighbours_facing_each_other() {
        // The straight three of C5 D5 E5 walled in by F5 while G5 is empty: `last` stands
        // between the eye space and the outside, and Pachi's rule does not look.
        let black = "B5 C4 D4 E4 F4 C6 D6 E6 F6 F5";
        assert_eq!(nakade(black, "", "F5"), None);
        assert_eq!(
            nakade(&format!("{black} G5"), "", "F5").as_deref(),
            Some("D5")
        );
    }

    #[test]
    fn open_region_on_the_other_side_is_skipped() {
        // D5 closes the straight three A5 B5 C5 on the edge; its other empty neighbour D6
        // opens onto the board.
        let black = "A4 B4 C4 A6 B6 C6 D4 E5 D5";
        assert_eq!(nakade(black, "", "D5").as_deref(), Some("B5"));
    }

    #[test]
    fn two_eye_spaces_on_both_sides() {
        // As above, but D6 is a one-point eye (E6 and D7 black): two eyes, nothing to kill.
        let black = "A4 B4 C4 A6 B6 C6 D4 E5 D5 E6 D7";
        assert_eq!(nakade(black, "", "D5"), None);
        assert_eq!(area_len(black, "", "D6"), Some(1));
        assert_eq!(area_len(black, "", "C5"), Some(3));
    }
}
