//! Computable metrics for the five artistic types (spec §5, §5.1). Types 4 and 5 are the
//! paper's definitions; types 1-3 are the spec's proxies (M1, M2, M3c), raw values only.

use serde::Serialize;

use crate::games::puyo::rules::{Field, HEIGHT, Link, Placement, Puyo, VISIBLE_HEIGHT, WIDTH};

use super::goal::GoalKind;
use super::puzzle::{Puzzle, Step};
use super::sim::{link_labels, replay, start_fates};

/// Most pair steps the all-sequences metrics (types 2 and 3) enumerate: 22^3 replays.
pub const ENUMERATION_DEPTH: usize = 3;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metrics {
    pub type1: Type1,
    pub type2: Type2,
    pub type3: Type3,
    pub type4: Type4,
    pub type5: Type5,
}

/// Type 1 proxy M1: start-field puyos with no same-coloured neighbour that pop in the solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type1 {
    pub isolated_popping: u32,
    /// Coloured start-field puyos (rows 1-12) that pop in the solution.
    pub popping: u32,
    pub isolated_ratio: f64,
}

/// Type 2 proxy M2, over every placement sequence of the first [`ENUMERATION_DEPTH`] pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type2 {
    pub sequences: u64,
    /// Share where some link pops two or more groups.
    pub simultaneous_share: f64,
    /// Share where some popping group has five or more puyos.
    pub large_group_share: f64,
    /// Share with either event (M2).
    pub m2: f64,
    /// M2 over the first step's placements only.
    pub m2_first_step: f64,
}

/// Type 3 proxy M3c: sequences reaching at least n-1 links yet failing a chain goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type3 {
    /// `None` when the goal is not a chain goal.
    pub near_miss_share: Option<f64>,
}

/// Type 4: split puyos, i.e. orthogonally adjacent same-colour puyos that pop in different links.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type4 {
    /// Adjacent pairs on the firing field (last step placed, link 1 not yet popped): the paper's test.
    pub split_pairs_firing: u32,
    /// Adjacent pairs on the start field that pop at different (step, link).
    pub split_pairs_start: u32,
    pub is_type4: bool,
}

/// Type 5: consecutive links sharing a colour.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Type5 {
    /// Colours popped at each link of the solving step (pon2 letters).
    pub link_colors: Vec<String>,
    pub same_color_links: u32,
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

/// The five metrics of `puzzle` with `solution` (placements that meet the goal).
pub fn compute(puzzle: &Puzzle, solution: &[Placement]) -> Result<Metrics, String> {
    let r = replay(puzzle, solution);
    let at = r.solved_at.ok_or("the given placements do not solve the puzzle")?;
    let firing = firing_field(puzzle, solution, at, &r.fields[at]);
    let labels = link_labels(&firing);
    let fates = start_fates(puzzle, solution);
    let start = &puzzle.field;
    let fate_id = |c: usize, r: usize| fates[c][r].map_or(0, |(s, l)| (s as u32 + 1) * 256 + l as u32);

    let mut isolated_popping = 0;
    let mut popping = 0;
    for (c, col_fates) in fates.iter().enumerate() {
        for (row, fate) in col_fates.iter().enumerate().take(VISIBLE_HEIGHT) {
            if !start.get(c, row).is_some_and(Puyo::is_color) || fate.is_none() {
                continue;
            }
            popping += 1;
            let near = [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)].iter().any(|&(dc, dr)| {
                let (nc, nr) = (c as i32 + dc, row as i32 + dr);
                (0..WIDTH as i32).contains(&nc)
                    && (0..VISIBLE_HEIGHT as i32).contains(&nr)
                    && same_color(start, (c, row), (nc as usize, nr as usize))
            });
            isolated_popping += (!near) as u32;
        }
    }
    let masks = link_masks(&r.links[at]);
    let same = same_color_links(&masks);
    let split_firing = split_pairs(&firing, |c, r| labels[c][r] as u32);
    let (type2, type3) = enumerate(puzzle);
    Ok(Metrics {
        type1: Type1 { isolated_popping, popping, isolated_ratio: ratio(isolated_popping as u64, popping as u64) },
        type2,
        type3,
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

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Replays every placement sequence of the first pairs for the type 2 and 3 proxies.
fn enumerate(puzzle: &Puzzle) -> (Type2, Type3) {
    let depth = puzzle.moves().min(ENUMERATION_DEPTH);
    let chain_goal = puzzle.goal.main.filter(|m| m.kind == GoalKind::Chain).map(|m| m.value as usize);
    let (mut n, mut simul, mut large, mut either, mut near) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut first_n, mut first_either) = (0u64, 0u64);
    let mut seq = vec![Placement::ALL[0]; depth];
    let total = 22u64.pow(depth as u32);
    for code in 0..total {
        let mut k = code;
        for p in seq.iter_mut() {
            *p = Placement::ALL[(k % 22) as usize];
            k /= 22;
        }
        let r = replay(puzzle, &seq);
        let links = r.links.iter().flatten();
        let s = links.clone().any(|l| l.groups().len() >= 2);
        let g = links.clone().any(|l| l.groups().iter().any(|&(_, size)| size >= 5));
        n += 1;
        simul += s as u64;
        large += g as u64;
        either += (s || g) as u64;
        let longest = r.links.iter().map(Vec::len).max().unwrap_or(0);
        if let Some(goal_n) = chain_goal {
            near += (longest + 1 >= goal_n && r.solved_at.is_none()) as u64;
        }
        // The first step alone, counted once per first placement.
        if depth > 0 && code < 22 {
            first_n += 1;
            let first = r.links.first().into_iter().flatten();
            first_either += first.clone().any(|l| l.groups().len() >= 2 || l.groups().iter().any(|g| g.1 >= 5)) as u64;
        }
    }
    let type2 = Type2 {
        sequences: n,
        simultaneous_share: ratio(simul, n),
        large_group_share: ratio(large, n),
        m2: ratio(either, n),
        m2_first_step: ratio(first_either, first_n),
    };
    (type2, Type3 { near_miss_share: chain_goal.map(|_| ratio(near, n)) })
}
