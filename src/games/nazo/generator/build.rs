//! Reverse construction of a chain field (spec §6.1-6.2), on a grid of labels rather than
//! colours so that colours can be (re)assigned afterwards (§6.3).
//!
//! Insertion model (the paper's figure is missing; spec §9.4): a group's cells go into their
//! columns at chosen rows and everything at or above moves up by the cells inserted there.
//! When the group later pops (with the garbage next to it) the columns fall back, so the
//! previous field, a chain starting with the next link, reappears. A cell that would float is
//! held up by *support* puyos (coloured, never of the supported group's colour). Rows 1-12 only.

use rand::Rng;

use crate::games::puyo::rules::{VISIBLE_HEIGHT, WIDTH};

use super::shapes::Shape;

/// What a cell of the construction holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// A puyo of chain link i (1-based).
    Link(u8),
    /// A coloured puyo holding up a cell of link i.
    Support(u8),
    /// A garbage puyo.
    Garbage,
}

/// Columns of labels, bottom to top.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    /// Each column's labels, bottom to top.
    pub cols: [Vec<Label>; WIDTH],
}

impl Grid {
    /// The label at `col`, `row` (0 at the bottom), if any.
    pub fn get(&self, col: usize, row: usize) -> Option<Label> {
        self.cols.get(col).and_then(|c| c.get(row)).copied()
    }

    /// The cells of link i as (column, row).
    pub fn cells_of(&self, link: u8) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (c, col) in self.cols.iter().enumerate() {
            for (r, &l) in col.iter().enumerate() {
                if l == Label::Link(link) {
                    out.push((c, r));
                }
            }
        }
        out
    }

    /// Whether every column stays within the visible rows.
    pub fn fits(&self) -> bool {
        self.cols.iter().all(|c| c.len() <= VISIBLE_HEIGHT)
    }

    /// Inserts `shape` with its left column at `x` and its bottom at row `base` as link
    /// `link`; returns the (column, row) cells it now occupies. `None` if it does not fit.
    pub fn insert(&mut self, shape: &Shape, x: usize, base: usize, link: u8) -> Option<Vec<(usize, usize)>> {
        let width = shape.iter().map(|c| c.0 as usize).max()? + 1;
        if x + width > WIDTH {
            return None;
        }
        let mut cells = Vec::new();
        for dx in 0..width {
            let rows: Vec<usize> = shape.iter().filter(|c| c.0 as usize == dx).map(|c| c.1 as usize).collect();
            let (lo, n) = (*rows.iter().min()?, rows.len());
            let col = &mut self.cols[x + dx];
            let at = base + lo;
            while col.len() < at {
                col.push(Label::Support(link));
            }
            for k in 0..n {
                col.insert(at + k, Label::Link(link));
                cells.push((x + dx, at + k));
            }
        }
        self.fits().then_some(cells)
    }

    /// Garbage around a freshly inserted group (spec §6.2): each of the 4 × 4 neighbour cells
    /// gets garbage with probability `p`. A neighbour in a column the group occupies is used
    /// only above the group there (below would shift the group itself); otherwise the garbage
    /// is inserted at that row, pushing the column up, or falls onto a lower column.
    pub fn add_garbage(&mut self, group: &[(usize, usize)], p: f64, rng: &mut impl Rng) {
        for &(c, r) in group {
            for (dc, dr) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
                if !rng.random_bool(p) {
                    continue;
                }
                let (nc, nr) = (c as i32 + dc, r as i32 + dr);
                if !(0..WIDTH as i32).contains(&nc) || nr < 0 {
                    continue;
                }
                let (nc, nr) = (nc as usize, nr as usize);
                let link = self.get(c, r);
                let col = &mut self.cols[nc];
                let highest_group_cell = col.iter().rposition(|&l| Some(l) == link);
                if highest_group_cell.is_some_and(|top| nr <= top) {
                    continue;
                }
                let at = nr.min(col.len());
                col.insert(at, Label::Garbage);
            }
        }
    }
}

/// Cells of link `next` that an insertion moved up, against the total: "partly pushes up"
/// means 0 < lifted < total (the group is broken until the new group pops).
pub fn lift(before: &Grid, after: &Grid, next: u8) -> (usize, usize) {
    let (b, a) = (before.cells_of(next), after.cells_of(next));
    let lifted = b.iter().zip(&a).filter(|(x, y)| x != y).count();
    (lifted, b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insertion_lifts_the_columns_it_enters() {
        let mut g = Grid::default();
        let o: Shape = [(0, 0), (0, 1), (1, 0), (1, 1)];
        g.insert(&o, 0, 0, 2).unwrap();
        let before = g.clone();
        let i: Shape = [(0, 0), (0, 1), (0, 2), (0, 3)];
        let cells = g.insert(&i, 1, 1, 1).unwrap();
        assert_eq!(cells, vec![(1, 1), (1, 2), (1, 3), (1, 4)]);
        assert_eq!(g.get(1, 5), Some(Label::Link(2)));
        assert_eq!(lift(&before, &g, 2), (1, 4));
        // Floating cells get supports.
        let mut h = Grid::default();
        h.insert(&i, 3, 2, 1).unwrap();
        assert_eq!(h.cols[3][..2], [Label::Support(1), Label::Support(1)]);
    }
}
