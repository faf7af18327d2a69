//! `Bits`: a set of field cells as one `u128`, the bitboard every rule works on.
//!
//! Cell (column c, row r), both 0-based from the bottom-left, is bit `16 * c + r`. Each
//! column owns 16 bits of which rows 0..13 are used; the 3 spare bits keep vertical shifts
//! from leaking into the next column.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Number of columns.
pub const WIDTH: usize = 6;
/// Number of rows including the hidden 13th row.
pub const HEIGHT: usize = 13;
/// Rows that take part in groups and pops (rows 1..12; row 13 is hidden).
pub const VISIBLE_HEIGHT: usize = 12;

/// A set of cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub u128);

const COLUMN_BITS: u128 = (1 << HEIGHT) - 1;
const VISIBLE_COLUMN_BITS: u128 = (1 << VISIBLE_HEIGHT) - 1;

const fn repeat(column: u128) -> u128 {
    let mut x = 0;
    let mut c = 0;
    while c < WIDTH {
        x |= column << (16 * c);
        c += 1;
    }
    x
}

impl Bits {
    /// The set of no cell.
    pub const EMPTY: Bits = Bits(0);
    /// All 78 cells.
    pub const ALL: Bits = Bits(repeat(COLUMN_BITS));
    /// The 72 cells of rows 1..12.
    pub const VISIBLE: Bits = Bits(repeat(VISIBLE_COLUMN_BITS));

    /// The single cell (column, row), 0-based.
    #[inline]
    pub const fn cell(col: usize, row: usize) -> Bits {
        Bits(1 << (16 * col + row))
    }

    /// All cells of one column.
    #[inline]
    pub const fn column(col: usize) -> Bits {
        Bits(COLUMN_BITS << (16 * col))
    }

    /// Whether the set holds (column, row).
    #[inline]
    pub const fn has(self, col: usize, row: usize) -> bool {
        self.0 & Bits::cell(col, row).0 != 0
    }

    /// Whether no cell is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many cells are in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The cells of one column as a 13-bit number (bit r = row r).
    #[inline]
    pub const fn column_bits(self, col: usize) -> u16 {
        ((self.0 >> (16 * col)) & COLUMN_BITS) as u16
    }

    /// Cells orthogonally adjacent to the set (not including it), within the field.
    #[inline]
    pub const fn neighbours(self) -> Bits {
        let x = self.0;
        Bits(((x << 1) | (x >> 1) | (x << 16) | (x >> 16)) & !x & Bits::ALL.0)
    }

    /// The set plus its neighbours.
    #[inline]
    pub const fn expand(self) -> Bits {
        let x = self.0;
        Bits((x | (x << 1) | (x >> 1) | (x << 16) | (x >> 16)) & Bits::ALL.0)
    }

    /// The lowest cell of the set (by bit index), if any.
    #[inline]
    pub const fn first(self) -> Bits {
        Bits(self.0 & self.0.wrapping_neg())
    }

    /// The connected component of `within` that contains `seed` (orthogonal adjacency).
    #[inline]
    pub fn flood(seed: Bits, within: Bits) -> Bits {
        let mut g = seed.0 & within.0;
        loop {
            let next = (g | (g << 1) | (g >> 1) | (g << 16) | (g >> 16)) & within.0;
            if next == g {
                return Bits(g);
            }
            g = next;
        }
    }

    /// Iterates over the cells as (column, row).
    pub fn cells(self) -> impl Iterator<Item = (usize, usize)> {
        let mut x = self.0;
        std::iter::from_fn(move || {
            if x == 0 {
                return None;
            }
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            Some((i / 16, i % 16))
        })
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    #[inline]
    fn bitand(self, o: Bits) -> Bits {
        Bits(self.0 & o.0)
    }
}
impl BitOr for Bits {
    type Output = Bits;
    #[inline]
    fn bitor(self, o: Bits) -> Bits {
        Bits(self.0 | o.0)
    }
}
impl Not for Bits {
    type Output = Bits;
    /// The complement within the field.
    #[inline]
    fn not(self) -> Bits {
        Bits(!self.0 & Bits::ALL.0)
    }
}
impl BitAndAssign for Bits {
    #[inline]
    fn bitand_assign(&mut self, o: Bits) {
        self.0 &= o.0;
    }
}
impl BitOrAssign for Bits {
    #[inline]
    fn bitor_assign(&mut self, o: Bits) {
        self.0 |= o.0;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Whether `set` holds (column, row), read straight from the documented bit layout.
    fn holds(set: Bits, col: usize, row: usize) -> bool {
        set.0 >> (16 * col + row) & 1 == 1
    }

    /// Every cell of the field as (column, row), in bit order.
    fn field_cells() -> impl Iterator<Item = (usize, usize)> {
        (0..WIDTH).flat_map(|col| (0..HEIGHT).map(move |row| (col, row)))
    }

    /// The set of the cells for which `keep` holds, built one cell at a time.
    fn cells_where(keep: impl Fn(usize, usize) -> bool) -> Bits {
        field_cells().filter(|&(c, r)| keep(c, r)).fold(Bits::EMPTY, |set, (c, r)| set | Bits::cell(c, r))
    }

    /// Whether (column, row) has an orthogonal neighbour in `set` on the field.
    fn touches(set: Bits, col: usize, row: usize) -> bool {
        let near = [(col.wrapping_sub(1), row), (col + 1, row), (col, row.wrapping_sub(1)), (col, row + 1)];
        near.into_iter().any(|(c, r)| c < WIDTH && r < HEIGHT && holds(set, c, r))
    }

    /// The connected part of `within` around (column, row), grown one ring at a time.
    fn slow_flood(within: Bits, col: usize, row: usize) -> Bits {
        let mut group = Bits::cell(col, row);
        loop {
            let grown = group | cells_where(|c, r| holds(within, c, r) && touches(group, c, r));
            if grown == group {
                return group;
            }
            group = grown;
        }
    }

    #[test]
    fn masks_count_cells() {
        assert_eq!(Bits::ALL.count(), 78);
        assert_eq!(Bits::VISIBLE.count(), 72);
        assert_eq!(Bits::column(5).count(), 13);
    }

    #[test]
    fn masks_hold_the_cells_they_name() {
        assert_eq!(Bits::ALL, cells_where(|_, _| true));
        assert_eq!(Bits::VISIBLE, cells_where(|_, row| row < VISIBLE_HEIGHT));
        for col in 0..WIDTH {
            assert_eq!(Bits::column(col), cells_where(|c, _| c == col));
        }
    }

    #[test]
    fn neighbours_stay_inside_and_do_not_wrap() {
        assert_eq!(Bits::cell(0, 12).neighbours(), Bits::cell(0, 11) | Bits::cell(1, 12));
        assert_eq!(Bits::cell(5, 0).neighbours(), Bits::cell(5, 1) | Bits::cell(4, 0));
    }

    #[test]
    fn flood_finds_component() {
        let within = Bits::cell(0, 0) | Bits::cell(0, 1) | Bits::cell(1, 1) | Bits::cell(3, 0);
        assert_eq!(Bits::flood(Bits::cell(0, 0), within).count(), 3);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(256)))]

        /// The word-parallel operations against their definitions, cell by cell, on dense and
        /// sparse sets (a sparse one is two random words together: a quarter of the cells).
        #[test]
        fn set_operations_agree_with_cell_by_cell_references(
            a in any::<u128>(),
            b in any::<u128>(),
            sparse in any::<bool>(),
            pick in any::<usize>(),
        ) {
            let mask = if sparse { b } else { !0 };
            let set = Bits(a & mask & Bits::ALL.0);
            let inside = |c, r| holds(set, c, r);
            prop_assert_eq!(set.neighbours(), cells_where(|c, r| !inside(c, r) && touches(set, c, r)));
            prop_assert_eq!(set.expand(), cells_where(|c, r| inside(c, r) || touches(set, c, r)));
            prop_assert_eq!(!set, cells_where(|c, r| !inside(c, r)));
            let listed: Vec<(usize, usize)> = field_cells().filter(|&(c, r)| inside(c, r)).collect();
            prop_assert_eq!(set.cells().collect::<Vec<_>>(), listed.clone());
            prop_assert_eq!(set.first(), listed.first().map_or(Bits::EMPTY, |&(c, r)| Bits::cell(c, r)));
            prop_assert_eq!(set.count() as usize, listed.len());
            prop_assert_eq!(set.is_empty(), listed.is_empty());
            for col in 0..WIDTH {
                let column = (0..HEIGHT).filter(|&r| inside(col, r)).fold(0u16, |bits, r| bits | 1 << r);
                prop_assert_eq!(set.column_bits(col), column);
            }
            if !listed.is_empty() {
                let (col, row) = listed[pick % listed.len()];
                prop_assert_eq!(Bits::flood(Bits::cell(col, row), set), slow_flood(set, col, row));
            }
        }
    }
}
