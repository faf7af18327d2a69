//! M3a (spec §5.1, type 3): how much the start field looks like a standard formation whose
//! chain order a player would expect. Each template is a colour-equality pattern: cells with
//! one letter share a colour, orthogonally adjacent cells with different letters differ, and
//! the letters run in the formation's link order (`a` pops first). The shapes are the common
//! textbook forms (decision: the paper names GTR \[17\], stair stacking \[18\] and key stacking
//! \[14\] without drawing them); a test checks that each one really fires its chain.

use serde::Serialize;

use crate::games::puyo::rules::{Field, HEIGHT, Puyo, VISIBLE_HEIGHT, WIDTH};

/// A formation: rows from the top, `.` = no constraint.
pub struct Template {
    /// Shown in the metrics.
    pub name: &'static str,
    /// The rows, top first; each letter one colour.
    pub rows: &'static [&'static str],
}

/// The formations M3a looks for.
pub const TEMPLATES: &[Template] = &[
    // The GTR turn: the L of `a`, the `b` that drops into it, `c` closing on the right.
    Template { name: "GTR", rows: &["abc.", "aabc", "bbcc"] },
    // 3-1 stair stacking: three of a colour per column, the next colour's fourth on top
    // (link 2's fourth comes with the trigger pair).
    Template { name: "stairs", rows: &[".cd.", "abcd", "abcd", "abcd"] },
    // Key stacking: each colour's floor pair sandwiched by the next colour's pair above.
    Template { name: "key stacking", rows: &[".b....", "abcc..", "aabbcc"] },
];

/// The best placement of a template on a field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TemplateMatch {
    /// The template's name.
    pub template: String,
    /// Matched mirrored left to right.
    pub mirrored: bool,
    /// 0-based column of the template's bottom-left cell.
    pub col: usize,
    /// 0-based row of the template's bottom-left cell.
    pub row: usize,
    /// (satisfied - violated) / all constraints, at least 0; constraints between cells that
    /// do not both hold coloured puyos count in the total only.
    pub similarity: f64,
    /// The template's cells as (column, row, label), label 0 = `a`.
    #[serde(skip)]
    pub cells: Vec<(usize, usize, u8)>,
}

impl Template {
    /// (column, row from the bottom, label) of the constrained cells.
    fn cells(&self, mirrored: bool) -> Vec<(usize, usize, u8)> {
        let h = self.rows.len();
        let w = self.rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut out = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                if ch.is_ascii_lowercase() {
                    let col = if mirrored { w - 1 - c } else { c };
                    out.push((col, h - 1 - i, ch - b'a'));
                }
            }
        }
        out
    }

    /// The similarity of the template at every offset, mirrored or not; the best one.
    pub fn best_match(&self, field: &Field) -> Option<TemplateMatch> {
        let mut best: Option<TemplateMatch> = None;
        for mirrored in [false, true] {
            let cells = self.cells(mirrored);
            let w = cells.iter().map(|c| c.0 + 1).max()?;
            let h = cells.iter().map(|c| c.1 + 1).max()?;
            for dx in 0..=WIDTH.saturating_sub(w) {
                for dy in 0..=VISIBLE_HEIGHT.saturating_sub(h) {
                    let placed: Vec<_> = cells.iter().map(|&(c, r, l)| (c + dx, r + dy, l)).collect();
                    let similarity = similarity(field, &placed);
                    if best.as_ref().is_none_or(|b| similarity > b.similarity) {
                        best = Some(TemplateMatch {
                            template: self.name.to_string(),
                            mirrored,
                            col: dx,
                            row: dy,
                            similarity,
                            cells: placed,
                        });
                    }
                }
            }
        }
        best
    }
}

fn similarity(field: &Field, cells: &[(usize, usize, u8)]) -> f64 {
    let color = |c: usize, r: usize| field.get(c, r).filter(|p: &Puyo| p.is_color());
    let (mut score, mut total) = (0i32, 0i32);
    for (i, &(c1, r1, l1)) in cells.iter().enumerate() {
        for &(c2, r2, l2) in &cells[i + 1..] {
            let adjacent = c1.abs_diff(c2) + r1.abs_diff(r2) == 1;
            if l1 != l2 && !adjacent {
                continue;
            }
            total += 1;
            if let (Some(a), Some(b)) = (color(c1, r1), color(c2, r2)) {
                score += if (a == b) == (l1 == l2) { 1 } else { -1 };
            }
        }
    }
    if total == 0 { 0.0 } else { score.max(0) as f64 / total as f64 }
}

/// The best template match over all templates.
pub fn best_template(field: &Field) -> Option<TemplateMatch> {
    TEMPLATES.iter().filter_map(|t| t.best_match(field)).fold(None, |best: Option<TemplateMatch>, m| {
        if best.as_ref().is_none_or(|b| m.similarity > b.similarity) { Some(m) } else { best }
    })
}

/// Does the solution pop the matched cells in another order than the template's? Each label
/// pops when its first matched puyo pops (per-cell `(step, link)`); labels that never pop are
/// left out.
pub fn order_differs(m: &TemplateMatch, fates: &[[Option<(usize, u8)>; HEIGHT]; WIDTH]) -> bool {
    let labels = m.cells.iter().map(|c| c.2).max().map_or(0, |l| l as usize + 1);
    let mut first: Vec<Option<(usize, u8)>> = vec![None; labels];
    for &(c, r, l) in &m.cells {
        if let Some(t) = fates[c][r] {
            let f = &mut first[l as usize];
            *f = Some(f.map_or(t, |x| x.min(t)));
        }
    }
    let popping: Vec<(usize, u8)> = first.into_iter().flatten().collect();
    popping.windows(2).any(|w| w[0] >= w[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills a template with colours (label i -> colour i) on an empty field.
    fn filled(t: &Template, mirrored: bool) -> Field {
        let mut f = Field::default();
        for (c, r, l) in t.cells(mirrored) {
            f.set(c, r, Some(Puyo::color(l as usize)));
        }
        f
    }

    #[test]
    fn every_template_fires_its_chain_and_matches_itself() {
        for t in TEMPLATES {
            for mirrored in [false, true] {
                let mut f = filled(t, mirrored);
                assert_eq!(f.clone().resolve().links, 0, "{}: nothing pops before the trigger", t.name);
                let labels = t.cells(false).iter().map(|c| c.2).max().unwrap() as u32 + 1;
                // The trigger: `a` then `b` dropped into one column (the stairs need the `b`).
                let fired = (0..WIDTH).any(|col| {
                    let mut g = f;
                    let ok = g.drop_puyo(col, Puyo::color(0)) && g.drop_puyo(col, Puyo::color(1));
                    ok && g.resolve().links >= labels
                });
                assert!(fired, "{} (mirrored {mirrored}) does not fire {labels} links", t.name);
                let m = t.best_match(&f).unwrap();
                assert_eq!(m.similarity, 1.0, "{}", t.name);
                f.set(m.cells[0].0, m.cells[0].1, Some(Puyo::Purple));
                assert!(t.best_match(&f).unwrap().similarity < 1.0);
            }
        }
    }

    #[test]
    fn order_is_read_from_the_first_pop_of_each_label() {
        let m = TemplateMatch {
            template: "t".into(),
            mirrored: false,
            col: 0,
            row: 0,
            similarity: 1.0,
            cells: vec![(0, 0, 0), (1, 0, 1), (2, 0, 1), (3, 0, 2)],
        };
        let mut fates = [[None; HEIGHT]; WIDTH];
        fates[0][0] = Some((1, 1));
        fates[1][0] = Some((1, 3));
        fates[2][0] = Some((1, 2));
        assert!(!order_differs(&m, &fates), "a at link 1, b first at link 2, c never");
        fates[3][0] = Some((1, 2));
        assert!(order_differs(&m, &fates), "c pops with b");
        fates[3][0] = None;
        fates[0][0] = Some((1, 4));
        assert!(order_differs(&m, &fates), "a after b");
    }
}
