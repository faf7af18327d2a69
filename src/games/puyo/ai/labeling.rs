//! Automatic template construction (paper chapter 5, spec §5): labeling table → truth table
//! (automatic rules, link-by-link refinement, boundary rule, manual overrides) → weight table
//! → template matrix.

use serde::{Deserialize, Serialize};

use super::super::level::{HEIGHT, LabelGrid, TemplateFile, WIDTH, neighbours};
use super::template::Template;

/// How two labels relate in the truth table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Relation {
    /// S: must be the same color.
    Same,
    /// X: must differ.
    Differ,
    /// –: don't care.
    Any,
}

/// How a pair weight is made from the two label weights (spec §5 (4)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum WeightRule {
    /// A relation's weight is the mean of its two labels' weights (the paper's default).
    #[default]
    Mean,
    /// The smaller of the two labels' weights.
    Min,
}

/// Options of the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompileOptions {
    /// The paper's boundary rule: a boundary cell must differ from every adjacent body label
    /// even where sharing its color would not break the chain (so every link pops exactly 4).
    pub boundary_rule: bool,
    /// How two labels' weights become the weight of their relation.
    pub weight_rule: WeightRule,
    /// Colors of the game: the X graph of the body labels must be colorable with them.
    pub colors: usize,
    /// asobi: the default rule's weight w becomes 100 (w / 100)^p, sharpening the priority of
    /// the constrained labels (1 = the paper; files' explicit weights are kept as written).
    #[serde(default = "paper_weight_power")]
    pub weight_power: f64,
    /// asobi (spec §9.10): the link-by-link refinement also moves the boundary cells a player
    /// fills before firing (resting on labeled cells, not above the trigger), so a boundary
    /// puyo that falls beside a later link must differ from it where sharing its colour breaks
    /// the chain. Without it a filled boundary cell can merge two links: most finished stairs
    /// formations then fired 3 links, not 8.
    #[serde(default)]
    pub boundary_sim: bool,
}

fn paper_weight_power() -> f64 {
    1.0
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            boundary_rule: true,
            weight_rule: WeightRule::Mean,
            colors: 4,
            weight_power: 1.0,
            boundary_sim: false,
        }
    }
}

/// The labeled table with boundary labels added: `cells[row][col]`, row 0 at the bottom.
pub type Labels = [[Option<char>; WIDTH]; HEIGHT];

/// The truth table over all labels (body uppercase first, then boundary lowercase).
#[derive(Clone, Debug, PartialEq)]
pub struct TruthTable {
    /// Every label, body labels first.
    pub labels: Vec<char>,
    /// `relation[i][j]` between `labels[i]` and `labels[j]`.
    pub relation: Vec<Vec<Relation>>,
}

impl TruthTable {
    fn index(&self, label: char) -> usize {
        self.labels.iter().position(|&l| l == label).expect("known label")
    }

    /// The relation between labels `a` and `b`.
    pub fn get(&self, a: char, b: char) -> Relation {
        self.relation[self.index(a)][self.index(b)]
    }

    fn differ(&mut self, a: char, b: char) {
        if a != b {
            let (i, j) = (self.index(a), self.index(b));
            self.relation[i][j] = Relation::Differ;
            self.relation[j][i] = Relation::Differ;
        }
    }

    /// Number of labels marked X in `label`'s row, split into (uppercase, lowercase).
    fn x_counts(&self, label: char) -> (u32, u32) {
        let row = &self.relation[self.index(label)];
        let mut upper = 0;
        let mut lower = 0;
        for (k, r) in row.iter().enumerate() {
            if *r == Relation::Differ {
                if self.labels[k].is_ascii_uppercase() {
                    upper += 1;
                } else {
                    lower += 1;
                }
            }
        }
        (upper, lower)
    }
}

/// A template file that does not compile.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct TemplateError {
    /// The file (or group name) at fault.
    pub file: String,
    /// What is wrong with it.
    pub message: String,
}

/// Adds a distinct lowercase label to every empty cell orthogonally adjacent to the body,
/// reading rows top to bottom, columns left to right (spec §9.10).
pub fn with_boundary(grid: &LabelGrid) -> Result<Labels, String> {
    let mut cells = grid.cells;
    let mut next = b'a';
    let reading_order = (0..HEIGHT).rev().flat_map(|r| (0..WIDTH).map(move |c| (c, r)));
    for (c, r) in reading_order {
        if cells[r][c].is_none() && neighbours(c, r).any(|(nc, nr)| grid.cells[nr][nc].is_some()) {
            if next > b'z' {
                return Err("more than 26 boundary cells".into());
            }
            cells[r][c] = Some(next as char);
            next += 1;
        }
    }
    Ok(cells)
}

/// Label pairs with orthogonally adjacent cells in `cells`.
fn adjacent_pairs(cells: &Labels) -> Vec<(char, char)> {
    let mut out = Vec::new();
    for (r, row) in cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let Some(a) = *cell else { continue };
            for (nc, nr) in neighbours(c, r) {
                if let Some(b) = cells[nr][nc]
                    && a != b
                    && !(a.is_ascii_lowercase() && b.is_ascii_lowercase())
                {
                    out.push((a, b));
                }
            }
        }
    }
    out
}

/// Stage (2): the truth table of a labeled table.
pub fn truth_table(grid: &LabelGrid, labels: &Labels, file: &TemplateFile, opts: &CompileOptions) -> TruthTable {
    let mut names: Vec<char> = labels.iter().flatten().flatten().copied().collect();
    names.sort_by_key(|l| (l.is_ascii_lowercase(), *l));
    names.dedup();
    let n = names.len();
    let mut table = TruthTable {
        labels: names,
        relation: (0..n)
            .map(|i| (0..n).map(|j| if i == j { Relation::Same } else { Relation::Any }).collect())
            .collect(),
    };
    let body_pair = |a: char, b: char| a.is_ascii_uppercase() && b.is_ascii_uppercase();
    // Automatic rule: adjacent in the finished formation (body-body, boundary-body); without
    // the boundary rule a boundary label differs only where sharing the colour breaks the chain.
    for (a, b) in adjacent_pairs(labels) {
        if opts.boundary_rule || body_pair(a, b) || breaks_chain(grid, labels, a, b, file.chain) {
            table.differ(a, b);
        }
    }
    // Refinement: advance the chain link by link; labels that become adjacent in an
    // intermediate state must differ (e.g. the paper's A vs C). A boundary label met on the
    // way down (`boundary_sim`) differs only where sharing the colour breaks the chain, under
    // either rule (the boundary rule speaks of the finished formation): an X with every link
    // it passes left some boundary cells no colour, and the formation short of the
    // completion score.
    let mut state = if opts.boundary_sim { with_fillable_boundary(grid, labels) } else { grid.clone() };
    while !state.pop_step().is_empty() {
        for (a, b) in adjacent_pairs(&state.cells) {
            if body_pair(a, b) || breaks_chain(grid, labels, a, b, file.chain) {
                table.differ(a, b);
            }
        }
    }
    for &(a, b) in &file.differ {
        if table.labels.contains(&a) && table.labels.contains(&b) {
            table.differ(a, b);
        }
    }
    table
}

/// The body plus the boundary cells a player can fill before firing: those resting on
/// labeled cells down to the floor, except above the trigger (the first link's cells with no
/// body above them), which fills only when the chain fires.
fn with_fillable_boundary(grid: &LabelGrid, labels: &Labels) -> LabelGrid {
    let first = grid.clone().pop_step().first().map(|&(label, _)| label);
    let mut state = grid.clone();
    for c in 0..WIDTH {
        // The highest body cell below the current one, walking up the column.
        let mut top_body = None;
        for (r, label) in labels.iter().map(|row| row[c]).enumerate() {
            match label {
                Some(l) if l.is_ascii_uppercase() => top_body = Some(l),
                Some(l) if top_body.is_none() || top_body != first => state.cells[r][c] = Some(l),
                Some(_) => {}
                None => break,
            }
        }
    }
    state
}

/// Without the boundary rule: would giving boundary label `b` (or `a`) the color of the
/// adjacent body label change the chain? Judged with the boundary cells a player fills before
/// firing in place (each its own color), since they hold the cell up: alone it would fall
/// away from the link it touches.
fn breaks_chain(grid: &LabelGrid, labels: &Labels, a: char, b: char, chain: u32) -> bool {
    let (boundary, body) = if a.is_ascii_lowercase() { (a, b) } else { (b, a) };
    let filled = with_fillable_boundary(grid, labels);
    let mut g = filled.clone();
    for (grow, lrow) in g.cells.iter_mut().zip(labels) {
        for (cell, label) in grow.iter_mut().zip(lrow) {
            if *label == Some(boundary) {
                *cell = Some(body);
            }
        }
    }
    // A boundary cell filled only when the chain fires falls as a real puyo would.
    g.settle();
    let links = |mut g: LabelGrid| {
        let mut links = 0;
        loop {
            let popped = g.pop_step();
            if popped.is_empty() {
                return Some(links);
            }
            if popped.len() != 1 {
                return None;
            }
            links += 1;
        }
    };
    // Where the filled boundary already merges two links (`--boundary-sim` is about that), any
    // colour counts as breaking: the X then stands as under the rule.
    let unchanged = links(filled).unwrap_or(chain);
    links(g) != Some(unchanged)
}

/// Stage (3): the default weight rule (spec §5 table) raised to `power`, then the file's
/// overrides.
pub fn weights(table: &TruthTable, labels: &Labels, file: &TemplateFile, power: f64) -> Vec<(char, u32)> {
    table
        .labels
        .iter()
        .map(|&l| {
            let (xu, xl) = table.x_counts(l);
            let on_edge = (0..HEIGHT)
                .any(|r| (0..WIDTH).any(|c| labels[r][c] == Some(l) && (c == 0 || c == WIDTH - 1 || r == 0)));
            let edge = if on_edge { 100 } else { 0 };
            let w = if l.is_ascii_uppercase() { 100 * xu + 10 * xl + edge } else { 10 * xu + edge };
            let w = (100.0 * (w as f64 / 100.0).powf(power)).round() as u32;
            let w = file.weights.iter().find(|(k, _)| *k == l).map_or(w, |&(_, v)| v);
            (l, w)
        })
        .collect()
}

/// A proper coloring of the body labels' X graph with `colors` colors, if one exists.
pub fn coloring(table: &TruthTable, colors: usize) -> Option<Vec<(char, usize)>> {
    let body: Vec<char> = table.labels.iter().copied().filter(char::is_ascii_uppercase).collect();
    let mut assigned = vec![usize::MAX; body.len()];
    fn go(k: usize, body: &[char], table: &TruthTable, colors: usize, assigned: &mut Vec<usize>) -> bool {
        if k == body.len() {
            return true;
        }
        for color in 0..colors {
            let clash = (0..k).any(|j| assigned[j] == color && table.get(body[j], body[k]) == Relation::Differ);
            if !clash {
                assigned[k] = color;
                if go(k + 1, body, table, colors, assigned) {
                    return true;
                }
            }
        }
        false
    }
    go(0, &body, table, colors, &mut assigned).then(|| body.into_iter().zip(assigned).collect())
}

/// All four stages: a template from a variant file.
pub fn compile(path: &str, file: &TemplateFile, opts: &CompileOptions) -> Result<Template, TemplateError> {
    let err = |message: String| TemplateError { file: path.to_string(), message };
    let grid = LabelGrid::parse(&file.table)
        .map_err(|(line, col, msg)| err(format!("table line {line}, column {col}: {msg}")))?;
    grid.check_chain(file.chain).map_err(err)?;
    // Decision (spec §9.13): boundary labels belong to chain formations only; the domino has none.
    let labels = if file.chain > 0 { with_boundary(&grid).map_err(err)? } else { grid.cells };
    let table = truth_table(&grid, &labels, file, opts);
    if coloring(&table, opts.colors).is_none() {
        return Err(err(format!("the body labels cannot be colored with {} colors", opts.colors)));
    }
    let weights = weights(&table, &labels, file, opts.weight_power);
    Ok(Template::new(file.name.clone(), file.chain, labels, table, weights, opts.weight_rule))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-link chain: the As pop, then the Bs they held up fall together and pop. Its
    /// boundary cells, in reading order: a above the top B, b beside it, c and d right of
    /// the B column, e right of the bottom B.
    const TWO_LINKS: &str = "B.....\nAB....\nAB....\nAAB...";
    /// The same chain against the right wall: its boundary labels come in the same order.
    const TWO_LINKS_MIRRORED: &str = ".....B\n....BA\n....BA\n...BAA";

    fn two_links(weights: Vec<(char, u32)>) -> (LabelGrid, Labels, TemplateFile) {
        compiled(TWO_LINKS, weights)
    }

    fn compiled(table: &str, weights: Vec<(char, u32)>) -> (LabelGrid, Labels, TemplateFile) {
        let file = TemplateFile { name: "two".into(), chain: 2, table: table.into(), differ: vec![], weights };
        let grid = LabelGrid::parse(&file.table).unwrap();
        grid.check_chain(2).unwrap();
        let labels = with_boundary(&grid).unwrap();
        (grid, labels, file)
    }

    #[test]
    fn boundary_labels_follow_the_reading_order() {
        let (_, labels, _) = two_links(vec![]);
        let boundary: Vec<(char, usize, usize)> = (0..HEIGHT)
            .rev()
            .flat_map(|r| (0..WIDTH).map(move |c| (c, r)))
            .filter_map(|(c, r)| labels[r][c].filter(char::is_ascii_lowercase).map(|l| (l, c, r)))
            .collect();
        assert_eq!(boundary, vec![('a', 0, 4), ('b', 1, 3), ('c', 2, 2), ('d', 2, 1), ('e', 3, 0)]);
    }

    /// Boundary labels run from a to z: walls of body in columns 1 and 6 leave 26 boundary
    /// cells, which fit; walls in columns 1 and 4 leave 39, which do not.
    #[test]
    fn at_most_26_boundary_cells() {
        let walls = |columns: [usize; 2]| {
            let mut cells = [[None; WIDTH]; HEIGHT];
            cells.iter_mut().for_each(|row| columns.iter().for_each(|&c| row[c] = Some('A')));
            with_boundary(&LabelGrid { cells })
        };
        let labels = walls([0, 5]).unwrap();
        let boundary: String = labels.iter().flatten().flatten().filter(|l| l.is_ascii_lowercase()).collect();
        assert_eq!(boundary.len(), 26);
        assert!(boundary.contains('z'));
        assert_eq!(walls([0, 3]).unwrap_err(), "more than 26 boundary cells");
    }

    /// A manual X holds both ways; a pair naming a label the table lacks is passed over.
    #[test]
    fn manual_differ_pairs_apply_where_both_labels_exist() {
        let (grid, labels, mut file) = two_links(vec![]);
        file.differ = vec![('b', 'c'), ('A', 'Q')];
        let table = truth_table(&grid, &labels, &file, &CompileOptions::default());
        assert_eq!((table.get('b', 'c'), table.get('c', 'b')), (Relation::Differ, Relation::Differ));
        assert_eq!(table.get('a', 'b'), Relation::Any);
    }

    /// A player fills the boundary cells resting on labeled cells before firing, but not
    /// those above the trigger: the A on top of column 2 pops first, so c above it and b
    /// above c stay empty.
    #[test]
    fn fillable_boundary_leaves_the_cells_above_the_trigger() {
        let grid = LabelGrid::parse("B.....\nA.....\nAA....\nAB....\nBB....").unwrap();
        grid.check_chain(2).unwrap();
        let labels = with_boundary(&grid).unwrap();
        assert_eq!((labels[4][1], labels[3][1]), (Some('b'), Some('c')));
        let filled = with_fillable_boundary(&grid, &labels);
        let mut boundary: Vec<char> =
            filled.cells.iter().flatten().flatten().copied().filter(char::is_ascii_lowercase).collect();
        boundary.sort_unstable();
        assert_eq!(boundary, ['a', 'd', 'e', 'f']);
    }

    /// The default rule worked by hand: A differs from B (100) and touches the wall (100);
    /// B differs from A and the five boundary labels (100 + 50) and touches the wall; each
    /// boundary label differs from B (10), a and e touch the wall or floor (100).
    #[test]
    fn default_weights_count_xs_and_edges() {
        let (grid, labels, file) = two_links(vec![]);
        let table = truth_table(&grid, &labels, &file, &CompileOptions::default());
        let x_of = |l: char| table.labels.iter().filter(|&&m| table.get(l, m) == Relation::Differ).collect::<String>();
        assert_eq!((x_of('A'), x_of('B'), x_of('c')), ("B".into(), "Aabcde".into(), "B".into()));
        let paper = [('A', 200), ('B', 250), ('a', 110), ('b', 10), ('c', 10), ('d', 10), ('e', 110)];
        assert_eq!(weights(&table, &labels, &file, 1.0), paper);
        let squared = [('A', 400), ('B', 625), ('a', 121), ('b', 1), ('c', 1), ('d', 1), ('e', 121)];
        assert_eq!(weights(&table, &labels, &file, 2.0), squared);
        let (_, _, overridden) = two_links(vec![('B', 7)]);
        assert_eq!(weights(&table, &labels, &overridden, 2.0)[1], ('B', 7));
        let (grid, labels, file) = compiled(TWO_LINKS_MIRRORED, vec![]);
        let table = truth_table(&grid, &labels, &file, &CompileOptions::default());
        assert_eq!(weights(&table, &labels, &file, 1.0), paper, "the right wall is an edge too");
    }

    /// Options written before `weight_power` and `boundary_sim` existed read as the paper's
    /// compiler.
    #[test]
    fn options_missing_later_fields_read_as_the_papers() {
        let mut json =
            serde_json::to_value(CompileOptions { weight_power: 2.0, boundary_sim: true, ..CompileOptions::default() })
                .unwrap();
        for field in ["weight_power", "boundary_sim"] {
            json.as_object_mut().unwrap().remove(field).unwrap();
        }
        assert_eq!(serde_json::from_value::<CompileOptions>(json).unwrap(), CompileOptions::default());
    }
}
