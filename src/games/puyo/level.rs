//! The RON level format of Puyo: one template variant per file, grouped by folder
//! (`levels/puyo/<group>/<variant>.ron`), holding the paper's ASCII labeling table (chapter 5,
//! spec §5-6). Compiled twice: in the crate, and by `build.rs`, which validates every file
//! under `levels/puyo/` with it, so it may use only `serde`, `ron` and `std`.
//!
//! A labeling table lists rows top to bottom (at most 13, bottom-aligned), 6 characters each:
//! `A`-`Z` chain body labels, `.` or `0` unlabeled. Boundary labels (lowercase) are added
//! automatically by the template compiler, so a file holds the body only.

use serde::{Deserialize, Serialize};

/// Field size (kept here because build.rs cannot see the rules module).
pub const WIDTH: usize = 6;
/// Rows, the hidden 13th included.
pub const HEIGHT: usize = 13;
const VISIBLE: usize = 12;

/// One template variant as stored in a RON file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TemplateFile {
    /// Shown in the GUI and reports.
    pub name: String,
    /// Chain length the body must fire when its labels are colors (0: not a chain, e.g. domino).
    pub chain: u32,
    /// The labeling table, rows top to bottom.
    pub table: String,
    /// Extra "must differ" pairs of labels (the paper's manual overrides, e.g. ('d', 'F')).
    #[serde(default)]
    pub differ: Vec<(char, char)>,
    /// Weight overrides per label.
    #[serde(default)]
    pub weights: Vec<(char, u32)>,
}

/// A labeling table as a grid: `cells[row][col]`, row 0 at the bottom; `None` = unlabeled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelGrid {
    /// The label of each cell, `cells[row][col]`.
    pub cells: [[Option<char>; WIDTH]; HEIGHT],
}

impl LabelGrid {
    /// Parses the table text; `Err((line within the text, column, message))`.
    pub fn parse(text: &str) -> Result<LabelGrid, (usize, usize, String)> {
        let rows: Vec<(usize, &str)> =
            text.lines().enumerate().map(|(i, l)| (i, l.trim())).filter(|(_, l)| !l.is_empty()).collect();
        if rows.len() > HEIGHT {
            return Err((rows[0].0, 1, format!("a table has at most {HEIGHT} rows, this one {}", rows.len())));
        }
        let mut cells = [[None; WIDTH]; HEIGHT];
        for (k, &(line, row_text)) in rows.iter().enumerate() {
            let row = rows.len() - 1 - k;
            let chars: Vec<char> = row_text.chars().collect();
            if chars.len() != WIDTH {
                return Err((line, 1, format!("a table row has {WIDTH} cells, this one {}", chars.len())));
            }
            for (col, &ch) in chars.iter().enumerate() {
                cells[row][col] = match ch {
                    '.' | '0' => None,
                    'A'..='Z' => Some(ch),
                    _ => return Err((line, col + 1, format!("'{ch}' is not a body label (A-Z) or '.'"))),
                };
            }
        }
        Ok(LabelGrid { cells })
    }

    /// Labeled cells not resting on something (a formation must be buildable by dropping).
    pub fn floating(&self) -> Option<(usize, usize)> {
        (0..WIDTH).find_map(|c| {
            (1..HEIGHT).find(|&r| self.cells[r][c].is_some() && self.cells[r - 1][c].is_none()).map(|r| (c, r))
        })
    }

    /// One chain step with labels as colors: the labels whose groups of >= 4 pop (with their
    /// sizes), then gravity. Empty when nothing pops.
    pub fn pop_step(&mut self) -> Vec<(char, usize)> {
        let mut seen = [[false; WIDTH]; HEIGHT];
        let mut popped = Vec::new();
        let mut remove = Vec::new();
        for r in 0..VISIBLE {
            for c in 0..WIDTH {
                let Some(label) = self.cells[r][c] else { continue };
                if seen[r][c] {
                    continue;
                }
                let group = self.group(c, r, label, &mut seen);
                if group.len() >= 4 {
                    popped.push((label, group.len()));
                    remove.extend(group);
                }
            }
        }
        for (c, r) in remove {
            self.cells[r][c] = None;
        }
        self.settle();
        popped
    }

    fn group(&self, c: usize, r: usize, label: char, seen: &mut [[bool; WIDTH]; HEIGHT]) -> Vec<(usize, usize)> {
        let mut stack = vec![(c, r)];
        seen[r][c] = true;
        let mut out = Vec::new();
        while let Some((c, r)) = stack.pop() {
            out.push((c, r));
            for (nc, nr) in neighbours(c, r) {
                if nr < VISIBLE && !seen[nr][nc] && self.cells[nr][nc] == Some(label) {
                    seen[nr][nc] = true;
                    stack.push((nc, nr));
                }
            }
        }
        out
    }

    /// Gravity only.
    pub fn settle(&mut self) {
        for c in 0..WIDTH {
            let column: Vec<char> = (0..HEIGHT).filter_map(|r| self.cells[r][c]).collect();
            for r in 0..HEIGHT {
                self.cells[r][c] = column.get(r).copied();
            }
        }
    }

    /// Checks that the body fires exactly `chain` links, each popping one label of exactly 4
    /// puyos, and that nothing is left (for `chain` 0: that nothing pops).
    pub fn check_chain(&self, chain: u32) -> Result<(), String> {
        if let Some((c, r)) = self.floating() {
            return Err(format!("label at column {}, row {} floats", c + 1, r + 1));
        }
        let mut grid = self.clone();
        for link in 1..=chain {
            match grid.pop_step().as_slice() {
                [(_, 4)] => {}
                [] => return Err(format!("the chain stops after {} links, expected {chain}", link - 1)),
                other => return Err(format!("link {link} pops {other:?}; each link must pop one label of 4")),
            }
        }
        let after = grid.pop_step();
        if !after.is_empty() {
            return Err(format!("more than {chain} links: link {} pops {after:?}", chain + 1));
        }
        if chain > 0 && grid.cells.iter().flatten().any(Option::is_some) {
            return Err("labeled puyos are left after the chain".into());
        }
        Ok(())
    }
}

/// Orthogonal neighbours of (column, row) inside the field.
pub fn neighbours(c: usize, r: usize) -> impl Iterator<Item = (usize, usize)> {
    [(c.wrapping_sub(1), r), (c + 1, r), (c, r.wrapping_sub(1)), (c, r + 1)]
        .into_iter()
        .filter(|&(c, r)| c < WIDTH && r < HEIGHT)
}

/// Checks one level file (`name` is its path under `levels/puyo/`): `Err((line, column,
/// message))` on the first problem.
pub fn validate(_name: &str, text: &str) -> Result<(), (usize, usize, String)> {
    let file: TemplateFile =
        ron::from_str(text).map_err(|e| (e.span.start.line, e.span.start.col, e.code.to_string()))?;
    // Errors inside the table point at the table's line in the file.
    let table_line = text.lines().position(|l| l.trim_start().starts_with("table")).map_or(1, |i| i + 1);
    let grid = LabelGrid::parse(&file.table).map_err(|(line, col, msg)| (table_line + line, col, msg))?;
    grid.check_chain(file.chain).map_err(|msg| (table_line, 1, msg))
}
