//! Layouts (spec §2.2): tile positions in half-tile coordinates with levels, and the
//! neighbourhoods the rules need, computed once per layout.
//!
//! B lies on A iff it is one level up and overlaps A's footprint (even partially); B is A's
//! left (right) neighbour iff it is on A's level two columns to the left (right) and shares a
//! row. Tile index = file order.

use serde::{Deserialize, Serialize};

use super::level::{LayoutFile, check_tiles};
use super::tileset::TileSet;

/// A tile anchor: column `x` and row `y` in half-tile units, level `z` (0 = on the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Column, in half tiles.
    pub x: i32,
    /// Row, in half tiles.
    pub y: i32,
    /// Level, 0 on the table.
    pub z: i32,
}

/// A layout with its precomputed neighbourhoods.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The name (bundled name or file stem).
    pub name: String,
    /// Each tile's anchor.
    pub positions: Vec<Pos>,
    /// Tiles lying on tile i.
    pub above: Vec<TileSet>,
    /// For each tile lying on tile i: which of i's four cells it covers (bits: top-left,
    /// top-right, bottom-left, bottom-right), for the visibility rule.
    pub covers: Vec<Vec<(usize, u8)>>,
    /// Tiles tile i lies on.
    pub below: Vec<TileSet>,
    /// Tiles touching tile i on its left (on its level).
    pub left: Vec<TileSet>,
    /// Tiles touching tile i on its right (on its level).
    pub right: Vec<TileSet>,
}

/// The cells of `a`'s footprint that a tile at `b` (one level up) covers.
fn covered_cells(a: Pos, b: Pos) -> u8 {
    let mut mask = 0;
    for (bit, (dx, dy)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
        let (cx, cy) = (a.x + dx, a.y + dy);
        if (b.x..=b.x + 1).contains(&cx) && (b.y..=b.y + 1).contains(&cy) {
            mask |= 1 << bit;
        }
    }
    mask
}

impl Layout {
    /// Builds a layout; fails on an odd or empty tile count or overlapping tiles.
    pub fn new(name: &str, positions: Vec<Pos>) -> Result<Layout, String> {
        let tuples: Vec<(i32, i32, i32)> = positions.iter().map(|p| (p.x, p.y, p.z)).collect();
        check_tiles(&tuples).map_err(|(_, msg)| msg)?;
        let n = positions.len();
        let mut layout = Layout {
            name: name.to_string(),
            above: vec![TileSet::EMPTY; n],
            covers: vec![Vec::new(); n],
            below: vec![TileSet::EMPTY; n],
            left: vec![TileSet::EMPTY; n],
            right: vec![TileSet::EMPTY; n],
            positions,
        };
        for (i, a) in layout.positions.iter().enumerate() {
            for (j, b) in layout.positions.iter().enumerate() {
                let overlaps = (b.x - a.x).abs() <= 1 && (b.y - a.y).abs() <= 1;
                if b.z == a.z + 1 && overlaps {
                    layout.above[i].insert(j);
                    layout.covers[i].push((j, covered_cells(*a, *b)));
                    layout.below[j].insert(i);
                }
                if b.z == a.z && (b.y - a.y).abs() <= 1 {
                    if b.x == a.x - 2 {
                        layout.left[i].insert(j);
                    } else if b.x == a.x + 2 {
                        layout.right[i].insert(j);
                    }
                }
            }
        }
        Ok(layout)
    }

    /// A layout from its file form, checked.
    pub fn from_file(file: &LayoutFile) -> Result<Layout, String> {
        Layout::new(&file.name, file.tiles.iter().map(|&(x, y, z)| Pos { x, y, z }).collect())
    }

    /// The file form, with `description`.
    pub fn to_file(&self, description: &str) -> LayoutFile {
        LayoutFile {
            name: self.name.clone(),
            description: description.to_string(),
            tiles: self.positions.iter().map(|p| (p.x, p.y, p.z)).collect(),
        }
    }

    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the layout has no tile.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The set of every tile.
    pub fn all(&self) -> TileSet {
        TileSet::first(self.len())
    }

    /// Free (spec §2.3): nothing lies on it and it lacks a left or a right neighbour.
    #[inline]
    pub fn is_free(&self, present: &TileSet, i: usize) -> bool {
        !present.intersects(&self.above[i])
            && (!present.intersects(&self.left[i]) || !present.intersects(&self.right[i]))
    }

    /// Known (spec §2.4): some part of its top face is uncovered.
    pub fn is_visible(&self, present: &TileSet, i: usize) -> bool {
        let covered = self.covers[i].iter().filter(|(j, _)| present.contains(*j)).fold(0, |m, (_, c)| m | c);
        covered != 0b1111
    }

    /// The free tiles among `present`.
    #[inline]
    pub fn free_tiles(&self, present: &TileSet) -> TileSet {
        let mut free = TileSet::EMPTY;
        present.iter().filter(|&i| self.is_free(present, i)).for_each(|i| free.insert(i));
        free
    }

    /// Dominance (paper §4.2, spec §6.1): the remaining tiles that `x` directly dominates:
    /// those it lies on, and those it flanks while another tile flanks the other side.
    pub fn dominated_by(&self, present: &TileSet, x: usize) -> TileSet {
        let mut out = self.below[x].and(present);
        for y in self.left[x].or(&self.right[x]).and(present).iter() {
            if present.intersects(&self.left[y]) && present.intersects(&self.right[y]) {
                out.insert(y);
            }
        }
        out
    }

    /// Floating tiles (neither dominate nor are dominated), in one pass over the remaining tiles.
    pub fn floating(&self, present: &TileSet) -> TileSet {
        let (mut dominating, mut dominated) = (TileSet::EMPTY, TileSet::EMPTY);
        for y in present.iter() {
            let on = self.above[y].and(present);
            let (l, r) = (self.left[y].and(present), self.right[y].and(present));
            let flanked = !l.is_empty() && !r.is_empty();
            if !on.is_empty() || flanked {
                dominated.insert(y);
            }
            dominating = dominating.or(&on);
            if flanked {
                dominating = dominating.or(&l).or(&r);
            }
        }
        present.minus(&dominating).minus(&dominated)
    }

    /// Whether the remaining tile `x` is floating (see [`Layout::floating`]): it lies on no
    /// tile, none lies on it, it is not flanked on both sides and flanks no tile that is.
    #[inline]
    pub fn is_floating(&self, present: &TileSet, x: usize) -> bool {
        let flanked = |y: usize| present.intersects(&self.left[y]) && present.intersects(&self.right[y]);
        !present.intersects(&self.above[x])
            && !present.intersects(&self.below[x])
            && !flanked(x)
            && !self.left[x].or(&self.right[x]).and(present).iter().any(flanked)
    }

    /// How many more floating tiles `present` has without the tiles `gone`: only tiles next to
    /// a gone one, or two side steps from it, can change, so only those are looked at (the
    /// search asks this for every move it values).
    pub fn floating_change(&self, present: &TileSet, gone: &TileSet) -> i32 {
        let mut near = *gone;
        for r in gone.iter() {
            let sides = self.left[r].or(&self.right[r]);
            near = near.or(&self.above[r]).or(&self.below[r]).or(&sides);
            sides.iter().for_each(|s| near = near.or(&self.left[s]).or(&self.right[s]));
        }
        let after = present.minus(gone);
        let count = |set: &TileSet| near.and(set).iter().filter(|&x| self.is_floating(set, x)).count() as i32;
        count(&after) - count(present)
    }

    /// Tiles that stay unfree until `i` is gone: those it lies on, transitively (for the
    /// solver's dead-position test).
    pub fn beneath(&self, i: usize) -> TileSet {
        let mut out = self.below[i];
        let mut frontier = out;
        while !frontier.is_empty() {
            let mut next = TileSet::EMPTY;
            frontier.iter().for_each(|j| next = next.or(&self.below[j]));
            frontier = next.minus(&out);
            out = out.or(&next);
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Brute force from the definitions on cells: `i` is free iff no remaining tile of level
    /// z+1 occupies any of its cells and one of the cells just left or right of its row span
    /// on its own level is free of remaining tiles.
    pub(crate) fn free_by_cells(layout: &Layout, present: &TileSet, i: usize) -> bool {
        let a = layout.positions[i];
        let occupied = |cx: i32, cy: i32, z: i32| {
            present.iter().any(|j| {
                let b = layout.positions[j];
                b.z == z && (b.x..=b.x + 1).contains(&cx) && (b.y..=b.y + 1).contains(&cy)
            })
        };
        let cells = [(0, 0), (1, 0), (0, 1), (1, 1)];
        let covered = cells.iter().any(|(dx, dy)| occupied(a.x + dx, a.y + dy, a.z + 1));
        // Some cell of column `cx` beside one of our two rows is occupied on our level.
        let side = |cx: i32| (a.y..=a.y + 1).any(|cy| occupied(cx, cy, a.z));
        !covered && (!side(a.x - 1) || !side(a.x + 2))
    }

    #[test]
    fn half_offset_top_tile_covers_two_cells_of_each() {
        let l = Layout::new(
            "t",
            vec![
                Pos { x: 0, y: 0, z: 0 },
                Pos { x: 2, y: 0, z: 0 },
                Pos { x: 4, y: 0, z: 0 },
                Pos { x: 1, y: 0, z: 1 },
            ],
        )
        .unwrap();
        let all = l.all();
        assert!(!l.is_free(&all, 0) && l.is_visible(&all, 0));
        assert!(l.is_free(&all, 2) && !l.is_free(&all, 1));
        assert!(l.is_free(&all, 3));
        assert_eq!(l.dominated_by(&all, 3).iter().collect::<Vec<_>>(), vec![0, 1]);
        assert!(l.floating(&all).is_empty());
        assert_eq!(l.beneath(3).iter().collect::<Vec<_>>(), vec![0, 1]);
    }
}
