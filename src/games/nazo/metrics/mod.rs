//! Computable metrics for the five artistic types (spec §5, §5.1). Types 4 and 5 are the
//! paper's definitions; types 1-3 are the spec's proxies, raw values only (every threshold is a
//! parameter): M1 and fragmentation (type 1), M2 with its static companion (type 2), M3a
//! template similarity, M3b greedy mismatch and M3c near misses (type 3).

pub mod greedy;
pub mod sequences;
pub mod templates;

use serde::Serialize;

use crate::games::puyo::rules::{Bits, Field, HEIGHT, Link, Placement, Puyo, VISIBLE_HEIGHT, WIDTH};

use super::puzzle::{Puzzle, Step};
use super::sim::{Fates, Replay, fates, link_labels, replay};
use greedy::{edit_distance, greedy_placements};
use sequences::{Enumeration, enumerate};
use templates::{TemplateMatch, best_template, order_differs};

/// The knobs of the metrics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricsOptions {
    /// Most placements the all-sequences proxies (M2, M3c) play before enumerating fewer pairs.
    pub budget: u64,
    /// M3a similarity from which a template counts as suggested (the type-3 flag).
    pub template_threshold: f64,
}

impl Default for MetricsOptions {
    fn default() -> MetricsOptions {
        MetricsOptions { budget: 2_000_000, template_threshold: 0.6 }
    }
}

/// Every artistic-type measure of one puzzle (`asobi nazo metrics`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Type 1 measures.
    pub type1: Type1,
    /// Type 2 measures.
    pub type2: Type2,
    /// Type 3 measures.
    pub type3: Type3,
    /// Type 4 measures.
    pub type4: Type4,
    /// Type 5 measures.
    pub type5: Type5,
}

/// Type 1 proxies: M1 (start-field puyos with no same-coloured neighbour that pop in the
/// solution) and fragmentation (what each popping group is assembled from).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type1 {
    /// M1: isolated start-field puyos that pop in the solution.
    pub isolated_popping: u32,
    /// Coloured start-field puyos (rows 1-12) that pop in the solution.
    pub popping: u32,
    /// `isolated_popping / popping`.
    pub isolated_ratio: f64,
    /// `isolated_ratio * (1 - M3a)`: isolated puyos in a known formation are easy to see.
    pub isolated_ratio_discounted: f64,
    /// Per popping group of the solution, in order: start-field components plus step puyos.
    pub group_pieces: Vec<u32>,
    /// Mean of `group_pieces`.
    pub mean_pieces: f64,
}

/// Type 2 proxies. M2 is over every placement sequence of the first `pairs` pairs (all of
/// them unless the budget was too small); the static companion looks at the start field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type2 {
    /// Placement sequences enumerated.
    pub sequences: u64,
    /// Pair steps enumerated.
    pub pairs: usize,
    /// Share where some link pops two or more groups.
    pub simultaneous_share: f64,
    /// Share where some popping group has five or more puyos.
    pub large_group_share: f64,
    /// Share with either event (M2).
    pub m2: f64,
    /// M2 over the first step's placements only.
    pub m2_first_step: f64,
    /// Same-coloured components of 2 on the start field (rows 1-12).
    pub components_2: u32,
    /// Same-coloured components of 3 on the start field (rows 1-12).
    pub components_3: u32,
    /// Pairs of same-coloured components within Manhattan distance 2 of each other.
    pub near_component_pairs: u32,
}

/// Type 3 proxies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type3 {
    /// M3c: share of sequences reaching at least n-1 links yet failing a chain goal n (`None`
    /// when the goal is not a chain goal); over the same sequences as M2.
    pub near_miss_share: Option<f64>,
    /// M3a: the best template match on the start field.
    pub template: Option<TemplateMatch>,
    /// The match score of `template` (0 without one).
    pub m3a: f64,
    /// The solution pops the matched template's colours in another order than its own.
    pub template_order_differs: bool,
    /// M3a at least the threshold and the order differs.
    pub template_misleads: bool,
    /// M3b: the greedy player (longest immediate chain, then most 3-groups) meets the goal.
    pub greedy_solves: bool,
    /// Its first link pops other start-field components than the solution's.
    pub greedy_first_link_differs: bool,
    /// Edit distance between its link colour sequence and the solution's (links of different
    /// steps kept apart).
    pub greedy_link_distance: u32,
}

/// Type 4: split puyos, i.e. orthogonally adjacent same-colour puyos that pop in different links.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type4 {
    /// Adjacent pairs on the firing field (last step placed, link 1 not yet popped): the paper's test.
    pub split_pairs_firing: u32,
    /// Adjacent pairs on the start field that pop at different (step, link).
    pub split_pairs_start: u32,
    /// Whether split pairs exist on the firing field.
    pub is_type4: bool,
}

/// Type 5: consecutive links sharing a colour.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type5 {
    /// Colours popped at each link of the solving step (pon2 letters).
    pub link_colors: Vec<String>,
    /// Consecutive links of the solving step that share a colour.
    pub same_color_links: u32,
    /// Whether `same_color_links` > 0.
    pub is_type5: bool,
}

/// Orthogonal neighbour pairs of cells (each pair once).
fn neighbour_pairs() -> impl Iterator<Item = ((usize, usize), (usize, usize))> {
    (0..WIDTH).flat_map(|c| {
        (0..HEIGHT)
            .flat_map(move |r| [((c, r), (c + 1, r)), ((c, r), (c, r + 1))])
            .filter(|&(_, (c2, r2))| c2 < WIDTH && r2 < HEIGHT)
    })
}

fn same_color(field: &Field, a: (usize, usize), b: (usize, usize)) -> bool {
    let (x, y) = (field.get(a.0, a.1), field.get(b.0, b.1));
    x.is_some_and(Puyo::is_color) && x == y
}

/// The field when the solving step's chain fires: the last pair placed, nothing popped yet.
pub fn firing_field(puzzle: &Puzzle, solution: &[Placement], solved_at: usize, before: &Field) -> Field {
    let mut f = *before;
    if let Step::Pair(pair) = puzzle.steps[solved_at] {
        let pairs_before = puzzle.steps[..solved_at].iter().filter(|s| matches!(s, Step::Pair(_))).count();
        f.place(pair, solution[pairs_before]);
    }
    f
}

/// Colour masks of each link.
pub fn link_masks(links: &[Link]) -> Vec<u8> {
    links
        .iter()
        .map(|l| l.popped.iter().enumerate().fold(0u8, |m, (c, &n)| if n > 0 { m | 1 << c } else { m }))
        .collect()
}

/// Consecutive links sharing a colour.
pub fn same_color_links(masks: &[u8]) -> u32 {
    masks.windows(2).filter(|w| w[0] & w[1] != 0).count() as u32
}

/// Adjacent same-colour pairs of `field` whose labels differ (both non-zero).
pub fn split_pairs(field: &Field, label: impl Fn(usize, usize) -> u32) -> u32 {
    neighbour_pairs()
        .filter(|&(a, b)| same_color(field, a, b))
        .filter(|&(a, b)| {
            let (x, y) = (label(a.0, a.1), label(b.0, b.1));
            x != 0 && y != 0 && x != y
        })
        .count() as u32
}

/// Same-coloured components of the start field (rows 1-12): per cell its component's index.
pub fn components(field: &Field) -> (Vec<Bits>, ComponentOf) {
    let mut comps = Vec::new();
    let mut id = [[None; HEIGHT]; WIDTH];
    for p in Puyo::ALL.into_iter().filter(|p| p.is_color()) {
        let mut plane = field.plane(p) & Bits::VISIBLE;
        while !plane.is_empty() {
            let group = Bits::flood(plane.first(), plane);
            plane = Bits(plane.0 & !group.0);
            group.cells().for_each(|(c, r)| id[c][r] = Some(comps.len()));
            comps.push(group);
        }
    }
    (comps, id)
}

/// The five metrics of `puzzle` with `solution` (placements that meet the goal).
pub fn compute(puzzle: &Puzzle, solution: &[Placement]) -> Result<Metrics, String> {
    compute_with(puzzle, solution, &MetricsOptions::default())
}

/// [`compute`] with explicit options.
pub fn compute_with(puzzle: &Puzzle, solution: &[Placement], opts: &MetricsOptions) -> Result<Metrics, String> {
    let r = replay(puzzle, solution);
    let at = r.solved_at.ok_or("the given placements do not solve the puzzle")?;
    let firing = firing_field(puzzle, solution, at, &r.fields[at]);
    let labels = link_labels(&firing);
    let f = fates(puzzle, solution);
    let start = &puzzle.field;
    let (comps, comp_of) = components(start);
    let fate_id = |c: usize, r: usize| f.start[c][r].map_or(0, |(s, l)| (s as u32 + 1) * 256 + l as u32);
    let masks = link_masks(&r.links[at]);
    let same = same_color_links(&masks);
    let split_firing = split_pairs(&firing, |c, r| labels[c][r] as u32);
    let e = enumerate(puzzle, opts.budget);
    let template = best_template(start);
    let m3a = template.as_ref().map_or(0.0, |m| m.similarity);
    Ok(Metrics {
        type1: type1(start, &f, &comps, &comp_of, m3a),
        type2: type2(start, &e, &comps),
        type3: type3(puzzle, &r, &f, &e, &comp_of, template, opts),
        type4: Type4 {
            split_pairs_firing: split_firing,
            split_pairs_start: split_pairs(start, fate_id),
            is_type4: split_firing > 0,
        },
        type5: Type5 {
            link_colors: masks
                .iter()
                .map(|&m| (0..5).filter(|c| m & 1 << c != 0).map(|c| super::puzzle::letter(Puyo::color(c))).collect())
                .collect(),
            same_color_links: same,
            is_type5: same > 0,
        },
    })
}

/// Per visible start cell, the index of its same-coloured component (see [`components`]).
pub type ComponentOf = [[Option<usize>; HEIGHT]; WIDTH];

/// Type 1 (isolated puyos): of the `start` field's coloured puyos that pop by their `fates`,
/// those alone in their component, and how many pieces each popping group is built from.
fn type1(start: &Field, f: &Fates, comps: &[Bits], comp_of: &ComponentOf, m3a: f64) -> Type1 {
    let mut isolated_popping = 0;
    let mut popping = 0;
    for (c, col_fates) in f.start.iter().enumerate() {
        for (row, fate) in col_fates.iter().enumerate().take(VISIBLE_HEIGHT) {
            if !start.get(c, row).is_some_and(Puyo::is_color) || fate.is_none() {
                continue;
            }
            popping += 1;
            isolated_popping += comps[comp_of[c][row].expect("a coloured visible cell")].count().eq(&1) as u32;
        }
    }
    let group_pieces: Vec<u32> = f
        .groups
        .iter()
        .map(|g| {
            let mut ids: Vec<usize> = g.start_cells.iter().filter_map(|&(c, r)| comp_of[c][r]).collect();
            ids.sort_unstable();
            ids.dedup();
            // Start puyos in the hidden row have no component: each is its own piece.
            let hidden = g.start_cells.iter().filter(|&&(c, r)| comp_of[c][r].is_none()).count();
            (ids.len() + hidden) as u32 + g.step_puyos
        })
        .collect();
    let isolated_ratio = ratio(isolated_popping as u64, popping as u64);
    Type1 {
        isolated_popping,
        popping,
        isolated_ratio,
        isolated_ratio_discounted: isolated_ratio * (1.0 - m3a),
        mean_pieces: ratio(group_pieces.iter().map(|&p| p as u64).sum(), group_pieces.len() as u64),
        group_pieces,
    }
}

/// Type 2 (many ways): the enumerated sequences `e` and the `start` field's small components.
fn type2(start: &Field, e: &Enumeration, comps: &[Bits]) -> Type2 {
    let n = e.counts.sequences;
    let (components_2, components_3, near_component_pairs) = component_stats(start, comps);
    Type2 {
        sequences: n,
        pairs: e.pairs,
        simultaneous_share: ratio(e.counts.simultaneous, n),
        large_group_share: ratio(e.counts.large, n),
        m2: ratio(e.counts.either, n),
        m2_first_step: ratio(e.first_step.1, e.first_step.0),
        components_2,
        components_3,
        near_component_pairs,
    }
}

/// Type 3 (misleading looks): near misses among the sequences `e`, the best-matching
/// `template` against the solution's replay `r` and `fates`, and what greedy play does.
fn type3(
    puzzle: &Puzzle,
    r: &Replay,
    f: &Fates,
    e: &Enumeration,
    comp_of: &ComponentOf,
    template: Option<TemplateMatch>,
    opts: &MetricsOptions,
) -> Type3 {
    let chain_goal = puzzle.goal.main.is_some_and(|m| m.kind == super::goal::GoalKind::Chain);
    let m3a = template.as_ref().map_or(0.0, |m| m.similarity);
    let template_order_differs = template.as_ref().is_some_and(|m| order_differs(m, &f.start));
    let greedy = greedy_placements(puzzle);
    let g = replay(puzzle, &greedy);
    // The links of every popping step, steps separated by a 0 (no link pops no colour).
    let all_masks = |r: &Replay| {
        let steps = r.links.iter().filter(|l| !l.is_empty()).map(|l| link_masks(l));
        steps.collect::<Vec<_>>().join(&0)
    };
    // The start components that pop in the first link.
    let first_link = |f: &Fates| {
        let first = f.groups.first().map(|g| (g.step, g.link));
        let mut ids: Vec<usize> = f
            .groups
            .iter()
            .filter(|g| Some((g.step, g.link)) == first)
            .flat_map(|g| g.start_cells.iter().filter_map(|&(c, r)| comp_of[c][r]))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    Type3 {
        near_miss_share: chain_goal.then(|| ratio(e.counts.near_miss, e.counts.sequences)),
        m3a,
        template_order_differs,
        template_misleads: m3a >= opts.template_threshold && template_order_differs,
        template,
        greedy_solves: g.solved_at.is_some(),
        greedy_first_link_differs: first_link(&fates(puzzle, &greedy)) != first_link(f),
        greedy_link_distance: edit_distance(&all_masks(&g), &all_masks(r)),
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Components of 2 and of 3, and pairs of same-coloured components within Manhattan distance 2.
fn component_stats(field: &Field, comps: &[Bits]) -> (u32, u32, u32) {
    let size = |n: u32| comps.iter().filter(|g| g.count() == n).count() as u32;
    let color = |g: &Bits| g.cells().next().and_then(|(c, r)| field.get(c, r));
    let mut near = 0;
    for (i, a) in comps.iter().enumerate() {
        // Cells within distance 2 of `a`: two steps of growth (the engine's expand stays in the field).
        let reach = a.expand().expand();
        near += comps[i + 1..].iter().filter(|b| color(b) == color(a) && !(reach & **b).is_empty()).count() as u32;
    }
    (size(2), size(3), near)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nazo::io::pon2;
    use crate::games::nazo::solver::{SolveOptions, solve};

    #[test]
    fn a_gtr_fired_in_its_own_order() {
        // The GTR template in red, green, blue; the red of the pair completes the L.
        let p = pon2::parse("field=0_rgb...rrgb..ggbb..&steps=ry&goal=0_0_3_0_").unwrap();
        let s = solve(&p, SolveOptions::default());
        let sol =
            s.solutions.iter().find(|s| s[0] == Placement { col: 0, rot: crate::games::puyo::rules::Rotation::Up });
        let m = compute(&p, sol.expect("1N solves")).unwrap();
        let t3 = &m.type3;
        assert_eq!(
            t3.template.as_ref().map(|t| (t.template.as_str(), t.col, t.row, t.mirrored)),
            Some(("GTR", 0, 0, false))
        );
        assert_eq!(t3.m3a, 1.0);
        assert!(!t3.template_order_differs && !t3.template_misleads);
        assert!(t3.greedy_solves);
        // Static companion: greens 2+1+1, blues 3+1, reds 3; green and blue parts within 2.
        assert_eq!((m.type2.components_2, m.type2.components_3, m.type2.near_component_pairs), (1, 2, 4));
        // Red: the L plus the pair's red; green: three start pieces; blue: two.
        assert_eq!(m.type1.group_pieces, vec![2, 3, 2]);
        assert_eq!((m.type1.isolated_popping, m.type1.popping), (3, 11));
        assert_eq!(m.type5.link_colors, vec!["r", "g", "b"]);
        assert_eq!(m.type2.pairs, 1);
        assert_eq!(m.type2.sequences, 22);
    }
}
