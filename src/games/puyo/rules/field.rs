//! The field: one bitboard per puyo kind, placing pairs, gravity, popping and chains
//! (spec §2 "Resolution", "Game over").

use std::fmt;

use rand::Rng;
use rand::seq::SliceRandom;

use super::bits::{Bits, HEIGHT, VISIBLE_HEIGHT, WIDTH};
use super::chain::{Chain, Link};
use super::placement::{Placement, Rotation};
use super::puyo::{KINDS, MAX_COLORS, Pair, Puyo};

/// Most garbage puyos that fall at once (5 rows).
pub const MAX_GARBAGE_DROP: u32 = 30;

/// A 6 × 13 field. Always settled (no floating puyos) when built by the rules; a field read
/// from text may float until [`Field::resolve`] or [`Field::settle`] runs.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Field {
    planes: [Bits; KINDS],
}

/// A malformed ASCII field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field line {line}, column {column}: {message}")]
pub struct FieldError {
    /// 1-based line of the ASCII text.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl Field {
    /// An empty field.
    pub fn new() -> Field {
        Field::default()
    }

    /// The cells holding `kind`.
    #[inline]
    pub fn plane(&self, kind: Puyo) -> Bits {
        self.planes[kind.index()]
    }

    /// All occupied cells.
    #[inline]
    pub fn occupied(&self) -> Bits {
        self.planes.iter().fold(Bits::EMPTY, |a, &p| a | p)
    }

    /// Cells holding any of the five colors.
    #[inline]
    pub fn colored(&self) -> Bits {
        self.planes[..MAX_COLORS].iter().fold(Bits::EMPTY, |a, &p| a | p)
    }

    /// What is at (column, row), both 0-based from the bottom left.
    pub fn get(&self, col: usize, row: usize) -> Option<Puyo> {
        Puyo::ALL.into_iter().find(|p| self.planes[p.index()].has(col, row))
    }

    /// Puts `cell` at (column, row) without gravity (editors, puzzles, tests).
    pub fn set(&mut self, col: usize, row: usize, cell: Option<Puyo>) {
        let bit = Bits::cell(col, row);
        for p in &mut self.planes {
            *p &= !bit;
        }
        if let Some(puyo) = cell {
            self.planes[puyo.index()] |= bit;
        }
    }

    /// Number of puyos in a column (its height, for a settled field).
    #[inline]
    pub fn height(&self, col: usize) -> usize {
        self.occupied().column_bits(col).count_ones() as usize
    }

    /// Number of puyos on the field.
    pub fn count(&self) -> u32 {
        self.occupied().count()
    }

    /// Game over: column 3, row 12 is occupied (spec §2).
    #[inline]
    pub fn is_dead(&self) -> bool {
        self.occupied().has(2, VISIBLE_HEIGHT - 1)
    }

    /// No puyo floats above an empty cell.
    pub fn is_settled(&self) -> bool {
        let occ = self.occupied();
        (0..WIDTH).all(|c| {
            let col = occ.column_bits(c);
            col & (col + 1) == 0
        })
    }

    /// The cells the two puyos of `placement` would land on (axis, child), or `None` if one
    /// would end above row 13.
    pub fn landing(&self, placement: Placement) -> Option<((usize, usize), (usize, usize))> {
        let c = placement.col as usize;
        let cc = placement.child_col();
        let h = self.height(c);
        let (axis, child) = match placement.rot {
            Rotation::Up => ((c, h), (c, h + 1)),
            Rotation::Down => ((c, h + 1), (c, h)),
            Rotation::Left | Rotation::Right => ((c, h), (cc, self.height(cc))),
        };
        (axis.1 < HEIGHT && child.1 < HEIGHT).then_some((axis, child))
    }

    /// Whether `placement` fits (spec §2: illegal if either puyo would end above row 13).
    #[inline]
    pub fn can_place(&self, placement: Placement) -> bool {
        self.landing(placement).is_some()
    }

    /// The legal placements for `pair`, the same-color duplicates left out for a double.
    pub fn legal_placements(&self, pair: Pair) -> impl Iterator<Item = Placement> + '_ {
        Placement::for_pair(pair.is_double()).iter().copied().filter(|&p| self.can_place(p))
    }

    /// Drops the pair without resolving; returns the two cells it landed on, or `None` (field
    /// unchanged) if the placement is illegal.
    pub fn place(&mut self, pair: Pair, placement: Placement) -> Option<Bits> {
        let ((ac, ar), (cc, cr)) = self.landing(placement)?;
        let (a, b) = (Bits::cell(ac, ar), Bits::cell(cc, cr));
        self.planes[pair.axis.index()] |= a;
        self.planes[pair.child.index()] |= b;
        Some(a | b)
    }

    /// Places the pair and resolves the chain it starts; `None` (field unchanged) if illegal.
    #[inline]
    pub fn play(&mut self, pair: Pair, placement: Placement) -> Option<Chain> {
        self.play_with(pair, placement, |_| {})
    }

    /// [`Field::play`], calling `on_link` after each link pops.
    pub fn play_with(&mut self, pair: Pair, placement: Placement, on_link: impl FnMut(&Link)) -> Option<Chain> {
        let placed = self.place(pair, placement)?;
        Some(self.resolve_from(placed, on_link))
    }

    /// Applies gravity, then resolves every pop (any field, e.g. one read from text).
    pub fn resolve(&mut self) -> Chain {
        self.settle();
        self.resolve_from(Bits::ALL, |_| {})
    }

    /// [`Field::resolve`] that also returns every link.
    pub fn resolve_links(&mut self) -> (Chain, Vec<Link>) {
        self.settle();
        let mut links = Vec::new();
        let chain = self.resolve_from(Bits::ALL, |l| links.push(*l));
        (chain, links)
    }

    /// Resolves a settled field in which only the `changed` cells may have formed new groups:
    /// repeats pop (groups of >= 4 in rows 1-12, adjacent garbage cleared) and gravity until
    /// nothing pops. Only groups through changed or fallen cells are examined, which is exact
    /// because everything else was already stable.
    pub fn resolve_from(&mut self, mut changed: Bits, mut on_link: impl FnMut(&Link)) -> Chain {
        let mut chain = Chain::default();
        loop {
            let mut link = Link::new(chain.links + 1);
            for color in &Puyo::ALL[..MAX_COLORS] {
                let plane = self.planes[color.index()] & Bits::VISIBLE;
                if plane.count() < 4 {
                    continue;
                }
                let mut seeds = plane & changed;
                while !seeds.is_empty() {
                    let group = Bits::flood(seeds.first(), plane);
                    seeds &= !group;
                    if group.count() >= 4 {
                        link.push_group(*color, group);
                    }
                }
            }
            if link.cells.is_empty() {
                return chain;
            }
            let near = link.cells.neighbours() & Bits::VISIBLE;
            let hit_garbage = self.planes[Puyo::Garbage.index()] & near;
            let hit_hard = self.planes[Puyo::Hard.index()] & near;
            for p in &mut self.planes[..MAX_COLORS] {
                *p &= !link.cells;
            }
            self.planes[Puyo::Hard.index()] &= !hit_hard;
            self.planes[Puyo::Garbage.index()] = (self.planes[Puyo::Garbage.index()] & !hit_garbage) | hit_hard;
            link.garbage = hit_garbage.count() as u8;
            link.cleared = hit_garbage;
            changed = self.fall(link.cells | hit_garbage);
            chain.add(&link);
            on_link(&link);
        }
    }

    /// Closes the `removed` gaps by moving everything above them down; returns the cells that
    /// moved (all cells at or above the lowest gap of each touched column).
    fn fall(&mut self, removed: Bits) -> Bits {
        let mut moved = Bits::EMPTY;
        for col in 0..WIDTH {
            let mut gaps = removed.column_bits(col);
            if gaps == 0 {
                continue;
            }
            let base = 16 * col;
            moved |= Bits(Bits::column(col).0 & (!0u128 << (base + gaps.trailing_zeros() as usize)));
            while gaps != 0 {
                let row = 15 - gaps.leading_zeros() as usize;
                gaps &= !(1 << row);
                let above = Bits::column(col).0 & (!0u128 << (base + row + 1));
                for p in &mut self.planes {
                    p.0 = (p.0 & !above) | ((p.0 & above) >> 1);
                }
            }
        }
        moved & self.occupied()
    }

    /// Applies gravity to a field that may float (text input); does not pop.
    pub fn settle(&mut self) {
        let holes = !self.occupied();
        // Only holes below some puyo matter; `fall` closes each one from the top down.
        let mut gaps = Bits::EMPTY;
        for col in 0..WIDTH {
            let occ = self.occupied().column_bits(col);
            if occ == 0 {
                continue;
            }
            let top = 15 - occ.leading_zeros() as usize;
            let below_top = Bits(Bits::column(col).0 & ((1u128 << (16 * col + top)) - 1));
            gaps |= holes & below_top;
        }
        self.fall(gaps);
    }

    /// Drops one puyo into `col` (onto its top); `false` if the column is full (13 rows).
    pub fn drop_puyo(&mut self, col: usize, puyo: Puyo) -> bool {
        let h = self.height(col);
        if h >= HEIGHT {
            return false;
        }
        self.planes[puyo.index()] |= Bits::cell(col, h);
        true
    }

    /// Drops `counts[c]` garbage puyos into each column c; puyos that do not fit in 13 rows
    /// are discarded (spec §9.15).
    pub fn drop_garbage_columns(&mut self, counts: [u8; WIDTH]) {
        for (col, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                self.drop_puyo(col, Puyo::Garbage);
            }
        }
    }

    /// Drops `min(pending, 30)` garbage as the spec says: ⌊g/6⌋ per column and the remaining
    /// g mod 6 into distinct random columns. Returns how many were taken from `pending`.
    pub fn drop_garbage(&mut self, pending: u32, rng: &mut impl Rng) -> u32 {
        let g = pending.min(MAX_GARBAGE_DROP);
        let mut counts = [(g / WIDTH as u32) as u8; WIDTH];
        let mut cols: [usize; WIDTH] = std::array::from_fn(|c| c);
        cols.shuffle(rng);
        for &c in &cols[..(g % WIDTH as u32) as usize] {
            counts[c] += 1;
        }
        self.drop_garbage_columns(counts);
        g
    }

    /// Reads a field from ASCII rows listed top to bottom (at most 13, bottom-aligned), each
    /// exactly 6 characters: `.` empty, `R G B Y P` colors, `O` garbage, `H` hard garbage.
    /// Blank lines are skipped. The result is not settled.
    pub fn from_ascii(text: &str) -> Result<Field, FieldError> {
        let rows: Vec<(usize, &str)> =
            text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty()).collect();
        if rows.len() > HEIGHT {
            let line = rows[rows.len() - HEIGHT - 1].0;
            return Err(FieldError { line, column: 1, message: format!("more than {HEIGHT} rows") });
        }
        let mut field = Field::new();
        for (k, &(line, row_text)) in rows.iter().enumerate() {
            let row = rows.len() - 1 - k;
            let chars: Vec<char> = row_text.chars().collect();
            if chars.len() != WIDTH {
                let message = format!("a row has {WIDTH} cells, this one {}", chars.len());
                return Err(FieldError { line, column: 1, message });
            }
            for (col, &ch) in chars.iter().enumerate() {
                if ch == '.' {
                    continue;
                }
                let puyo = Puyo::from_letter(ch).ok_or_else(|| FieldError {
                    line,
                    column: col + 1,
                    message: format!("'{ch}' is not a cell (use . R G B Y P O H)"),
                })?;
                field.set(col, row, Some(puyo));
            }
        }
        Ok(field)
    }

    /// The field as 13 ASCII rows, top to bottom (the format of [`Field::from_ascii`]).
    pub fn to_ascii(self) -> String {
        let mut s = String::with_capacity(HEIGHT * (WIDTH + 1));
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                s.push(self.get(col, row).map_or('.', Puyo::letter));
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Field(\n{})", self.to_ascii())
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_ascii())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(256)))]

        /// `fall` returns exactly the puyos at or above the lowest gap of each column it closed:
        /// `resolve_from` looks for new groups through these cells only, so a cell missing here
        /// would hide a chain, and extra ones would only cost time, which no other test sees.
        #[test]
        fn fall_returns_the_puyos_that_moved(
            cells in proptest::collection::vec((0..WIDTH, 0..HEIGHT, 0..Puyo::ALL.len()), 0..50),
            removed in proptest::collection::vec((0..WIDTH, 0..HEIGHT), 0..8),
        ) {
            let mut f = Field::new();
            for (col, row, k) in cells {
                f.set(col, row, Some(Puyo::ALL[k]));
            }
            f.settle();
            let mut gaps = Bits::EMPTY;
            for (col, row) in removed {
                if f.get(col, row).is_some() {
                    f.set(col, row, None);
                    gaps |= Bits::cell(col, row);
                }
            }
            let moved = f.fall(gaps);
            prop_assert!(f.is_settled());
            let mut expected = Bits::EMPTY;
            for col in 0..WIDTH {
                if let Some(lowest_gap) = (0..HEIGHT).find(|&row| gaps.has(col, row)) {
                    for row in lowest_gap..f.height(col) {
                        expected |= Bits::cell(col, row);
                    }
                }
            }
            prop_assert_eq!(moved, expected);
        }
    }
}
