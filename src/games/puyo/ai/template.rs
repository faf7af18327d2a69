//! Template matrices in the sparse form the search uses (spec §3 "Cost": only nonzero
//! entries are visited, scores are updated incrementally when no puyo popped), and template
//! groups loaded from `levels/puyo/<group>/`.

use super::super::level::{HEIGHT, LabelGrid, TemplateFile, WIDTH};
use super::super::rules::{Bits, Field, MAX_COLORS, Puyo};
use super::labeling::{CompileOptions, Labels, Relation, TemplateError, TruthTable, WeightRule, compile};

/// Bit positions of a field (16 per column).
const SLOTS: usize = 16 * WIDTH;

/// One compiled template: the labeled table it came from and its matrix.
#[derive(Clone, Debug)]
pub struct Template {
    /// The name in the file, e.g. "stairs 8-chain #1".
    pub name: String,
    /// Links the formation fires (0 for the domino).
    pub chain: u32,
    /// The labeling table with boundary labels.
    pub labels: Labels,
    /// Stage 2: S, X or don't care for each pair of labels.
    pub truth: TruthTable,
    /// Weight per label (stage 3).
    pub weights: Vec<(char, u32)>,
    /// How label weights became relation weights.
    pub rule: WeightRule,
    /// Labeled cells (nonzero rows of the matrix).
    cells: Bits,
    /// The cells of the link-1 group, and those of them with no body cell above (spec §9.1).
    first: Bits,
    trigger: Bits,
    /// Per cell: the cells it must share a color with / differ from (j ≠ i).
    same: Box<[Bits; SLOTS]>,
    differ: Box<[Bits; SLOTS]>,
    /// Per cell: its label's weight w(l_i).
    weight: Box<[f64; SLOTS]>,
    /// Σ |t_ij| over the full matrix.
    total: f64,
}

/// A template's match against one field: Σ max(0, s_ij t_ij), or a conflict (−∞).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Match {
    /// A hard constraint is broken: the field cannot become this template.
    Conflict,
    /// The sum of the satisfied relations' weights.
    Sum(f64),
}

fn slot(col: usize, row: usize) -> usize {
    16 * col + row
}

fn bits_iter(b: Bits) -> impl Iterator<Item = usize> {
    let mut x = b.0;
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

impl Template {
    pub(super) fn new(
        name: String,
        chain: u32,
        labels: Labels,
        truth: TruthTable,
        weights: Vec<(char, u32)>,
        rule: WeightRule,
    ) -> Template {
        let mut t = Template {
            name,
            chain,
            labels,
            truth,
            weights,
            rule,
            cells: Bits::EMPTY,
            first: Bits::EMPTY,
            trigger: Bits::EMPTY,
            same: Box::new([Bits::EMPTY; SLOTS]),
            differ: Box::new([Bits::EMPTY; SLOTS]),
            weight: Box::new([0.0; SLOTS]),
            total: 0.0,
        };
        let w = |l: char| t.weights.iter().find(|(k, _)| *k == l).map_or(0, |&(_, v)| v) as f64;
        let cells: Vec<(usize, char)> = (0..HEIGHT)
            .flat_map(|r| (0..WIDTH).map(move |c| (c, r)))
            .filter_map(|(c, r)| labels[r][c].map(|l| (slot(c, r), l)))
            .collect();
        (t.first, t.trigger) = trigger_cells(&t.labels, chain);
        for &(i, li) in &cells {
            t.cells |= Bits(1 << i);
            t.weight[i] = w(li);
            t.total += w(li);
            for &(j, lj) in &cells {
                if i == j {
                    continue;
                }
                match t.truth.get(li, lj) {
                    Relation::Same => t.same[i] |= Bits(1 << j),
                    Relation::Differ => t.differ[i] |= Bits(1 << j),
                    Relation::Any => continue,
                }
                t.total += t.pair_weight(w(li), w(lj));
            }
        }
        t
    }

    /// w_ij from the two label weights.
    #[inline]
    fn pair_weight(&self, a: f64, b: f64) -> f64 {
        match self.rule {
            WeightRule::Mean => (a + b) / 2.0,
            WeightRule::Min => a.min(b),
        }
    }

    /// Σ_j w_ij over the cells of `others` (i's relations only).
    #[inline]
    fn row_sum(&self, i: usize, others: Bits) -> f64 {
        let wi = self.weight[i];
        bits_iter(others).map(|j| self.pair_weight(wi, self.weight[j])).sum()
    }

    /// The match of cell `i` holding `color` against the colored cells `colored` (of which
    /// `same_color` hold `color`): its diagonal entry plus Σ_j over its row, or a conflict.
    #[inline]
    fn cell_match(&self, i: usize, colored: Bits, same_color: Bits) -> Option<f64> {
        let rel = (self.same[i] | self.differ[i]) & colored;
        let bad = (self.same[i] & colored & !same_color) | (self.differ[i] & same_color);
        bad.is_empty().then(|| self.weight[i] + self.row_sum(i, rel))
    }

    /// The match against a whole field (garbage counts as empty).
    pub fn full_match(&self, field: &Field) -> Match {
        let colored = field.colored();
        let mut sum = 0.0;
        for color in &Puyo::ALL[..MAX_COLORS] {
            let plane = field.plane(*color);
            for i in bits_iter(plane & self.cells) {
                match self.cell_match(i, colored, plane) {
                    Some(s) => sum += s,
                    None => return Match::Conflict,
                }
            }
        }
        Match::Sum(sum)
    }

    /// The match after one more colored puyo at `cell` on `before` (nothing popped): the
    /// entries of its row and column are added (twice: the matrix is symmetric).
    #[inline]
    pub fn add_puyo(&self, m: Match, before: &Field, cell: Bits, color: Puyo) -> Match {
        let Match::Sum(sum) = m else { return Match::Conflict };
        let i = cell.0.trailing_zeros() as usize;
        if (cell & self.cells).is_empty() {
            return m;
        }
        match self.cell_match(i, before.colored(), before.plane(color)) {
            Some(s) => Match::Sum(sum + 2.0 * s - self.weight[i]),
            None => Match::Conflict,
        }
    }

    /// Every trigger cell (a link-1 cell with no body above it) is filled while a covered
    /// link-1 cell is still empty: the formation can no longer be finished, since filling that
    /// cell fires link 1 with the body above it unbuilt (decision for spec §9.1; the search
    /// treats such a template as conflicting).
    #[inline]
    pub fn triggered_early(&self, occupied: Bits) -> bool {
        (self.trigger & !occupied).is_empty() && !(self.first & !occupied).is_empty()
    }

    /// Score in [0, 1], or −∞ for a conflict (formula 3.7).
    pub fn score(&self, m: Match) -> f64 {
        match m {
            Match::Conflict => f64::NEG_INFINITY,
            Match::Sum(s) => s / self.total,
        }
    }

    /// Cells whose puyo conflicts with another (for the template panel).
    pub fn conflicts(&self, field: &Field) -> Bits {
        let colored = field.colored();
        let mut out = Bits::EMPTY;
        for color in &Puyo::ALL[..MAX_COLORS] {
            let plane = field.plane(*color);
            for i in bits_iter(plane & self.cells) {
                if self.cell_match(i, colored, plane).is_none() {
                    out |= Bits(1 << i);
                }
            }
        }
        out
    }

    /// The dense matrix T over the 78 cells, index `13 · column + row` (tests, GUI).
    pub fn matrix(&self) -> Vec<Vec<f64>> {
        let idx = |k: usize| slot(k / HEIGHT, k % HEIGHT);
        (0..WIDTH * HEIGHT)
            .map(|a| {
                (0..WIDTH * HEIGHT)
                    .map(|b| {
                        let (i, j) = (idx(a), idx(b));
                        let w = self.pair_weight(self.weight[i], self.weight[j]);
                        if i == j {
                            self.weight[i]
                        } else if self.same[i].0 >> j & 1 == 1 {
                            w
                        } else if self.differ[i].0 >> j & 1 == 1 {
                            -w
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// The link-1 cells of a chain formation and those with no body cell above them.
fn trigger_cells(labels: &Labels, chain: u32) -> (Bits, Bits) {
    let mut grid = LabelGrid { cells: *labels };
    for cell in grid.cells.iter_mut().flatten() {
        if cell.is_some_and(|l| l.is_ascii_lowercase()) {
            *cell = None;
        }
    }
    let body = grid.cells;
    let Some(&(label, _)) = (chain > 0).then(|| grid.pop_step()).as_deref().and_then(<[_]>::first) else {
        return (Bits::EMPTY, Bits::EMPTY);
    };
    let (mut first, mut trigger) = (Bits::EMPTY, Bits::EMPTY);
    for (r, row) in body.iter().enumerate() {
        for (c, _) in row.iter().enumerate().filter(|(_, cell)| **cell == Some(label)) {
            first |= Bits(1 << slot(c, r));
            if body[r + 1..].iter().all(|above| above[c].is_none()) {
                trigger |= Bits(1 << slot(c, r));
            }
        }
    }
    (first, trigger)
}

/// The template groups shipped in `levels/puyo/` (one folder each).
pub const GROUPS: [&str; 3] = ["stairs8", "sandwich8", "domino6"];

/// The compiled templates of a group (`stairs8`, `sandwich8`, `domino6`, `chains8` = stairs8 +
/// sandwich8, or `all`), of every `.ron` file in a folder of the user's, or of one such file.
pub fn load_group(group: &str, opts: &CompileOptions) -> Result<Vec<Template>, TemplateError> {
    group_sources(group)?.iter().map(|(path, text)| compile_text(path, text, opts)).collect()
}

/// The source files of a group as (path, text), in the order of its templates: the bundled
/// folders' files by name, the `.ron` files of a folder of the user's by file name, or one file
/// of the user's.
pub fn group_sources(group: &str) -> Result<Vec<(String, String)>, TemplateError> {
    let folders: Vec<&str> = match group {
        "all" => GROUPS.to_vec(),
        "chains8" => GROUPS[..2].to_vec(),
        g if GROUPS.contains(&g) => vec![g],
        dir if std::path::Path::new(dir).is_dir() => return folder_sources(std::path::Path::new(dir)),
        // A path, whether or not it exists: a missing file is then named as such.
        file if file.contains(['/', '\\', '.']) || std::path::Path::new(file).exists() => {
            return file_sources(std::path::Path::new(file));
        }
        other => {
            return Err(TemplateError {
                file: other.to_string(),
                message: format!(
                    "unknown template group (use {}, chains8, all, a .ron template file or a folder of them)",
                    GROUPS.join(", ")
                ),
            });
        }
    };
    let mut out = Vec::new();
    for folder in folders {
        let mut files: Vec<(&str, &str)> = crate::levels::embedded_in("puyo")
            .filter(|(name, _)| name.strip_prefix(folder).is_some_and(|r| r.starts_with('/')))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|(name, text)| (format!("levels/puyo/{name}"), text.to_string())));
    }
    Ok(out)
}

/// The error of a template file or folder that cannot be read.
fn read_error(file: &std::path::Path, e: std::io::Error) -> TemplateError {
    TemplateError { file: file.display().to_string(), message: e.to_string() }
}

/// One template file of the user's as a group of one, (path, text).
fn file_sources(file: &std::path::Path) -> Result<Vec<(String, String)>, TemplateError> {
    let text = std::fs::read_to_string(file).map_err(|e| read_error(file, e))?;
    Ok(vec![(file.display().to_string(), text)])
}

/// The `.ron` files in `dir` as (path, text), in file-name order.
fn folder_sources(dir: &std::path::Path) -> Result<Vec<(String, String)>, TemplateError> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| read_error(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(TemplateError {
            file: dir.display().to_string(),
            message: "no .ron template files in this folder".into(),
        });
    }
    files
        .iter()
        .map(|f| Ok((f.display().to_string(), std::fs::read_to_string(f).map_err(|e| read_error(f, e))?)))
        .collect()
}

/// The build's check of a template file (`level::validate`), naming `path` and the file's line
/// and column as the build names a bundled file's (a table's rows counted from the file's top).
pub fn check_text(path: &str, text: &str) -> Result<(), TemplateError> {
    super::super::level::validate(path, text)
        .map_err(|(line, column, message)| TemplateError { file: format!("{path}:{line}:{column}"), message })
}

/// Compiles the text of one template file (embedded or the user's own).
pub fn compile_text(path: &str, text: &str, opts: &CompileOptions) -> Result<Template, TemplateError> {
    check_text(path, text)?;
    let file: TemplateFile = crate::levels::parse_ron(path, text)
        .map_err(|e| TemplateError { file: format!("{}:{}:{}", e.file, e.line, e.column), message: e.message })?;
    compile(path, &file, opts)
}
