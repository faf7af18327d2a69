//! Generators of 8-chain template variants (spec §6: "the exact variants are the project's to
//! design"). [`variants`] builds random chains backwards: starting from the last group, each
//! earlier group is inserted into the columns below or between the later ones so that popping
//! it lets them fall together. The style fixes how the split group rejoins: **stairs** joins
//! horizontally (a part resting one level higher drops beside the waiting part), **sandwich**
//! vertically (the upper part lands on the lower part, possibly also joining sideways).
//! [`turn_back_relabelings`] keeps a chain's floor and lists every way to relabel its turn-back
//! (the cells of its last three links): the paper's variants differ in the turn-back only. The
//! shipped sandwich8 family is 12 relabelings of one generated variant (`--style sandwich
//! --count 40 --seed S`), stairs8 a hand-designed floor with 10 of the turn-backs of five cell
//! shapes, relabeled the same way.
//! `asobi puyo templates` prints either.

use rand::Rng;
use rand::seq::IndexedRandom;
use serde::{Deserialize, Serialize};

use super::ai::labeling::{CompileOptions, compile};
use super::level::{HEIGHT, LabelGrid, TemplateFile, WIDTH};
use crate::lab::rng::game_rng;

/// How groups rejoin after the previous link pops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Style {
    /// Each link's upper part rests on the link before.
    Stairs,
    /// Each link's upper part sandwiches the link before against its lower part (key stacking).
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
    let opts = CompileOptions { colors, ..Default::default() };
    let mut found: Vec<(usize, String)> = Vec::new();
    for i in 0..tries {
        let mut rng = game_rng(seed, i);
        let Some(g) = attempt(&mut rng, style) else { continue };
        let text = table_text(&g);
        if found.iter().any(|(_, t)| *t == text) {
            continue;
        }
        let file = TemplateFile { name: String::new(), chain: 8, table: text.clone(), differ: vec![], weights: vec![] };
        if compile("generated", &file, &opts).is_ok() {
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

/// The labels of `grid`'s chain in the order they pop, if it fires exactly `chain` links of
/// one label of 4 puyos each and leaves nothing.
fn pop_order(grid: &LabelGrid, chain: u32) -> Option<Vec<char>> {
    grid.check_chain(chain).ok()?;
    let mut g = grid.clone();
    (0..chain).map(|_| g.pop_step().first().map(|&(label, _)| label)).collect()
}

/// Every relabeling of the turn-back of `file` (the cells of its last three links, 4 each)
/// under which the chain still fires its links in the same order, 4 puyos each, and the
/// template compiles with `colors` colors: variants that differ in the turn-back only, `file`'s
/// own table first, named "`file.name`, turn-back k".
pub fn turn_back_relabelings(file: &TemplateFile, colors: usize) -> Result<Vec<TemplateFile>, String> {
    let grid = LabelGrid::parse(&file.table)
        .map_err(|(line, col, msg)| format!("table line {}, column {col}: {msg}", line + 1))?;
    let order = pop_order(&grid, file.chain).ok_or("the table does not fire its chain (each link one label of 4)")?;
    if order.len() < 3 {
        return Err("the chain has fewer than 3 links: no turn-back".into());
    }
    let turn_back = &order[order.len() - 3..];
    let cells: Vec<(usize, usize)> = (0..HEIGHT)
        .flat_map(|r| (0..WIDTH).map(move |c| (r, c)))
        .filter(|&(r, c)| grid.cells[r][c].is_some_and(|l| turn_back.contains(&l)))
        .collect();
    if cells.len() != 12 {
        return Err("each of the last three links must be one label of 4 cells".into());
    }
    let opts = CompileOptions { colors, ..Default::default() };
    let mut tables = vec![table_text(&grid)];
    // Cells 0..12 split into three sets of 4 (bit masks): the first, second and last label.
    let fours = |free: u32| (0..1u32 << 12).filter(move |m| m & !free == 0 && m.count_ones() == 4);
    for first in fours(0xfff) {
        for second in fours(0xfff & !first) {
            let mut g = grid.clone();
            for (i, &(r, c)) in cells.iter().enumerate() {
                let k = if first >> i & 1 == 1 {
                    0
                } else if second >> i & 1 == 1 {
                    1
                } else {
                    2
                };
                g.cells[r][c] = Some(turn_back[k]);
            }
            let text = table_text(&g);
            if pop_order(&g, file.chain).as_ref() == Some(&order) && !tables.contains(&text) {
                let candidate = TemplateFile { table: text.clone(), ..file.clone() };
                if compile("relabeled", &candidate, &opts).is_ok() {
                    tables.push(text);
                }
            }
        }
    }
    Ok(tables
        .into_iter()
        .enumerate()
        .map(|(k, table)| TemplateFile { name: format!("{}, turn-back {}", file.name, k + 1), table, ..file.clone() })
        .collect())
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

    fn embedded(name: &str) -> TemplateFile {
        let (_, text) = crate::levels::embedded_in("puyo").find(|(n, _)| *n == name).unwrap();
        crate::levels::parse_ron(name, text).unwrap()
    }

    /// The sandwich family is one turn-back relabeled: each shipped variant is among the
    /// relabelings of the first, every relabeling keeps the floor A-E and fires A..H in order.
    #[test]
    fn turn_back_relabelings_keep_the_floor_and_the_chain() {
        let table = |f: &TemplateFile| table_text(&LabelGrid::parse(&f.table).unwrap());
        let first = embedded("sandwich8/v01.ron");
        let found = turn_back_relabelings(&first, 4).unwrap();
        assert_eq!(table(&found[0]), table(&first));
        assert!(found.len() > 12, "{} relabelings", found.len());
        let floor = |f: &TemplateFile| table(f).replace(['F', 'G', 'H'], "*");
        for f in &found {
            assert_eq!(floor(f), floor(&first));
            let grid = LabelGrid::parse(&f.table).unwrap();
            assert_eq!(pop_order(&grid, 8), Some("ABCDEFGH".chars().collect()));
        }
        for k in 2..=12 {
            let shipped = embedded(&format!("sandwich8/v{k:02}.ron"));
            assert!(found.iter().any(|f| table(f) == table(&shipped)), "v{k:02} is not a relabeling of v01");
        }
        let two_links = TemplateFile { chain: 2, table: "AB....\nAA....\nAB....\nBB....\n".into(), ..first };
        assert_eq!(turn_back_relabelings(&two_links, 4).unwrap_err(), "the chain has fewer than 3 links: no turn-back");
    }

    /// The grid with its labels renamed a, b, c, ... in the order they first occur (rows bottom
    /// to top): two tables that differ only in what their labels are called compile to the same
    /// template.
    fn renamed_in_order(g: &LabelGrid) -> Vec<Option<char>> {
        let mut names: Vec<char> = Vec::new();
        g.cells
            .iter()
            .flatten()
            .map(|cell| {
                cell.map(|l| {
                    let k = names.iter().position(|&n| n == l).unwrap_or_else(|| {
                        names.push(l);
                        names.len() - 1
                    });
                    char::from(b'a' + k as u8)
                })
            })
            .collect()
    }

    /// Each shipped 8-chain group is one floor (links A-E) with distinct turn-backs: no two of
    /// its variants are the same template under other label names.
    #[test]
    fn shipped_eight_chain_groups_are_one_floor_with_distinct_turn_backs() {
        for group in ["stairs8", "sandwich8"] {
            let grids: Vec<LabelGrid> = crate::levels::embedded_in("puyo")
                .filter(|(name, _)| name.starts_with(&format!("{group}/")))
                .map(|(name, _)| LabelGrid::parse(&embedded(name).table).unwrap())
                .collect();
            assert!(grids.len() >= 10, "{group}: {} variants", grids.len());
            let floor = |g: &LabelGrid| {
                let mut links_a_to_e = g.clone();
                links_a_to_e.cells.iter_mut().flatten().for_each(|c| *c = c.filter(|l| !"FGH".contains(*l)));
                table_text(&links_a_to_e)
            };
            for (i, g) in grids.iter().enumerate() {
                assert_eq!(floor(g), floor(&grids[0]), "{group} variant {} has another floor", i + 1);
                for (j, other) in grids[..i].iter().enumerate() {
                    assert_ne!(
                        renamed_in_order(g),
                        renamed_in_order(other),
                        "{group}: variants {} and {} are one template",
                        j + 1,
                        i + 1
                    );
                }
            }
        }
    }
}
