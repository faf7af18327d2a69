//! Generator of 8-chain template variants (spec §6: "the exact variants are the project's to
//! design"); the shipped sandwich8 group came from it (`--style sandwich --count 40 --seed S`
//! for S = 2..9: the 12 of those 320 variants that completed fastest alone in 60 build trials of
//! seed 1, which took sandwich8 from 28.7 to 26.5 moves on held-out seed 2), stairs8 is a
//! hand-designed floor with enumerated turn-backs. It builds a chain backwards: starting from the last group, each
//! earlier group is inserted into the columns below or between the later ones so that popping
//! it lets them fall together. The style fixes how the split group rejoins: **stairs** joins
//! horizontally (a part resting one level higher drops beside the waiting part), **sandwich**
//! vertically (the upper part lands on the lower part, possibly also joining sideways). `asobi puyo templates` prints them.

use rand::Rng;
use rand::seq::IndexedRandom;
use serde::{Deserialize, Serialize};

use super::level::{HEIGHT, LabelGrid, TemplateFile, WIDTH};
use crate::lab::rng::game_rng;

/// How groups rejoin after the previous link pops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Style {
    Stairs,
    Sandwich,
}

/// Tallest column a generated formation may have (keeps column 3 clear of the death cell).
const MAX_HEIGHT: usize = 8;

fn height(g: &LabelGrid, c: usize) -> usize {
    (0..HEIGHT).filter(|&r| g.cells[r][c].is_some()).count()
}

/// Inserts `label` into columns `start..` with `counts[k]` cells at row `rows[k]` (cells at
/// or above move up); `None` if a column would overflow.
fn insert(g: &LabelGrid, label: char, start: usize, counts: &[usize], rows: &[usize]) -> Option<LabelGrid> {
    let mut out = g.clone();
    for (k, (&n, &r)) in counts.iter().zip(rows).enumerate() {
        let c = start + k;
        let old: Vec<Option<char>> = (0..HEIGHT).map(|row| g.cells[row][c]).collect();
        if height(g, c) + n > MAX_HEIGHT {
            return None;
        }
        for row in 0..HEIGHT {
            out.cells[row][c] = if row < r {
                old[row]
            } else if row < r + n {
                Some(label)
            } else {
                old[row - n]
            };
        }
    }
    Some(out)
}

/// Which joins the insertion breaks for the previous first label: (horizontal, vertical).
fn broken_joins(before: &LabelGrid, after: &LabelGrid, label: char) -> (usize, usize) {
    let cells = |g: &LabelGrid| -> Vec<(usize, usize)> {
        (0..WIDTH)
            .flat_map(|c| (0..HEIGHT).map(move |r| (c, r)))
            .filter(|&(c, r)| g.cells[r][c] == Some(label))
            .collect()
    };
    let (b, a) = (cells(before), cells(after));
    // Cells keep their order within a column, so the k-th cell of a column maps to the k-th.
    let map = |p: (usize, usize)| -> (usize, usize) {
        let k = b.iter().filter(|q| q.0 == p.0 && q.1 < p.1).count();
        *a.iter().filter(|q| q.0 == p.0).nth(k).expect("same cells per column")
    };
    let (mut h, mut v) = (0, 0);
    for &p in &b {
        for &q in &b {
            let adjacent_before = (p.0 == q.0 && p.1 + 1 == q.1) || (p.1 == q.1 && p.0 + 1 == q.0);
            if !adjacent_before {
                continue;
            }
            let (pa, qa) = (map(p), map(q));
            let adjacent_after = (pa.0 == qa.0 && pa.1 + 1 == qa.1) || (pa.1 == qa.1 && pa.0 + 1 == qa.0);
            if !adjacent_after {
                if p.0 == q.0 { v += 1 } else { h += 1 }
            }
        }
    }
    (h, v)
}

/// A random insertion row of column `c`; sandwich prefers splitting the previous label's
/// vertical run, which random rows rarely hit.
fn insertion_row(rng: &mut impl Rng, g: &LabelGrid, c: usize, style: Style, labels: [char; 8], k: usize) -> usize {
    let h = height(g, c);
    if style == Style::Sandwich && k > 0 && rng.random_bool(0.7) {
        let prev = Some(labels[k - 1]);
        let splits: Vec<usize> = (1..h).filter(|&r| g.cells[r][c] == prev && g.cells[r - 1][c] == prev).collect();
        if let Some(&r) = splits.choose(rng) {
            return r;
        }
    }
    rng.random_range(0..=h)
}

/// One random attempt at an 8-chain of `style`; `None` when it got stuck.
fn attempt(rng: &mut impl Rng, style: Style) -> Option<LabelGrid> {
    const SHAPES: [&[usize]; 8] = [&[4], &[1, 3], &[3, 1], &[2, 2], &[1, 1, 2], &[2, 1, 1], &[1, 2, 1], &[1, 1, 1, 1]];
    let mut grid = LabelGrid { cells: [[None; WIDTH]; HEIGHT] };
    let labels = ['H', 'G', 'F', 'E', 'D', 'C', 'B', 'A'];
    for (k, &label) in labels.iter().enumerate() {
        let mut placed = None;
        for _ in 0..400 {
            let shape = *SHAPES.choose(rng)?;
            if shape.len() > WIDTH {
                continue;
            }
            let start = rng.random_range(0..=WIDTH - shape.len());
            let rows: Vec<usize> =
                (0..shape.len()).map(|i| insertion_row(rng, &grid, start + i, style, labels, k)).collect();
            // Connected: ranges of neighbouring columns overlap.
            let connected =
                (1..shape.len()).all(|i| rows[i] < rows[i - 1] + shape[i - 1] && rows[i - 1] < rows[i] + shape[i]);
            if !connected {
                continue;
            }
            let Some(next) = insert(&grid, label, start, shape, &rows) else { continue };
            if next.check_chain(k as u32 + 1).is_err() {
                continue;
            }
            if k > 0 {
                let (h, v) = broken_joins(&grid, &next, labels[k - 1]);
                let fits = match style {
                    Style::Stairs => h > 0 && v == 0,
                    Style::Sandwich => v > 0,
                };
                if !fits {
                    continue;
                }
            }
            placed = Some(next);
            break;
        }
        grid = placed?;
    }
    // The trigger A must be completable last: one of its cells on top of its column.
    let top_a = (0..WIDTH).any(|c| {
        let h = height(&grid, c);
        h > 0 && grid.cells[h - 1][c] == Some('A')
    });
    top_a.then_some(grid)
}

/// Bumpiness of the top surface plus the tallest column: lower is easier to build.
fn roughness(g: &LabelGrid) -> usize {
    let h: Vec<usize> = (0..WIDTH).map(|c| height(g, c)).collect();
    h.windows(2).map(|w| w[0].abs_diff(w[1])).sum::<usize>() + 2 * h.iter().max().copied().unwrap_or(0)
}

/// The table text of a grid (rows top to bottom, only rows that hold something).
pub fn table_text(g: &LabelGrid) -> String {
    let top = (0..HEIGHT).rev().find(|&r| g.cells[r].iter().any(Option::is_some)).map_or(0, |r| r + 1);
    (0..top).rev().map(|r| g.cells[r].iter().map(|c| c.unwrap_or('.')).collect::<String>() + "\n").collect()
}

/// `count` distinct variants of `style` from `tries` random attempts seeded by `seed`, the
/// smoothest first; each must be colorable with `colors` colors.
pub fn variants(style: Style, count: usize, tries: u64, seed: u64, colors: usize) -> Vec<TemplateFile> {
    let opts = super::ai::labeling::CompileOptions { colors, ..Default::default() };
    let mut found: Vec<(usize, String)> = Vec::new();
    for i in 0..tries {
        let mut rng = game_rng(seed, i);
        let Some(g) = attempt(&mut rng, style) else { continue };
        let text = table_text(&g);
        if found.iter().any(|(_, t)| *t == text) {
            continue;
        }
        let file = TemplateFile { name: String::new(), chain: 8, table: text.clone(), differ: vec![], weights: vec![] };
        if super::ai::labeling::compile("generated", &file, &opts).is_ok() {
            found.push((roughness(&g), text));
        }
    }
    found.sort();
    let prefix = match style {
        Style::Stairs => "stairs",
        Style::Sandwich => "sandwich",
    };
    found
        .into_iter()
        .take(count)
        .enumerate()
        .map(|(k, (_, table))| TemplateFile {
            name: format!("{prefix} 8-chain #{}", k + 1),
            chain: 8,
            table,
            differ: vec![],
            weights: vec![],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_variants_fire_eight_chains() {
        for style in [Style::Stairs, Style::Sandwich] {
            let v = variants(style, 2, 300, 1, 4);
            assert!(!v.is_empty(), "{style:?}");
            for f in v {
                LabelGrid::parse(&f.table).unwrap().check_chain(8).unwrap();
            }
        }
    }
}
