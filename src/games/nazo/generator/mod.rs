//! The reverse generator for "k moves, n-chain" puzzles (spec §6): build the chain backwards
//! with garbage around each group, recolour, take k pairs off as the steps, validate with the
//! exhaustive solver, then apply the type-4/5 filters and the optional rejection rules (§8).
//! The *direct* method (§6.5) fixes the colours first and checks the type's constraints while
//! inserting each group instead of filtering afterwards.
//!
//! Decisions (spec §9): the goal is "exactly n-chain"; every solution must need all k steps;
//! no placement sequence may give more than n links; the start field must not pop; the
//! constructed chain itself must work (the removed pairs are a solution); shapes, positions and
//! pair choices are uniform; supports are coloured (never the supported group's colour) and may
//! be taken as step puyos; garbage never is.

pub mod build;
pub mod shapes;

use rand::Rng;
use rand::seq::IndexedRandom;
use serde::{Deserialize, Serialize};

use crate::games::puyo::rules::{Bits, Field, Pair, Placement, Puyo, Rotation, WIDTH};

use super::goal::{Goal, GoalKind, MainGoal, Operator};
use super::metrics::{firing_field, link_masks, same_color_links, split_pairs};
use super::puzzle::{Puzzle, Step};
use super::sim::{link_labels, replay, start_fates};
use super::solver::{SolveOptions, solve};
use build::{Grid, Label, lift};
use shapes::{Shape, tetrominoes};

/// Which artistic type to aim at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Target {
    /// Type 4: start-field connections split, popping in different links.
    #[value(name = "4")]
    Four,
    /// Type 5: consecutive links of one colour.
    #[value(name = "5")]
    Five,
    /// No type asked.
    Any,
}

/// Filter (generate, then test; the paper) or direct (constrained insertion; spec §6.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Method {
    /// Generate, then test (the paper).
    Filter,
    /// Constrained insertion (spec §6.5).
    Direct,
}

/// The field the type-4 test looks at (spec §9.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Type4Field {
    /// Last step placed, link 1 not yet popped (the paper's filter).
    Firing,
    /// The start field (the type's definition).
    Start,
}

/// Every generator parameter; `Default` is the paper's setting (2 moves, 3-chain).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GenParams {
    /// Pairs taken off as steps (k, 2-4).
    pub moves: usize,
    /// Chain length (n, 2-6).
    pub chain: usize,
    /// Which artistic type to aim at.
    pub target: Target,
    /// Filter or direct generation.
    pub method: Method,
    /// Reject puzzles with more than one solution up to equivalence.
    pub unique: bool,
    /// Palette size (at most 5).
    pub colors: usize,
    /// Probability of garbage in each of the 4 × 4 neighbour cells of a new group (§6.2).
    pub garbage_p: f64,
    /// Probability of recolouring with repeats (§6.3); type 4 always makes links 2 and 3 equal.
    pub recolor_p: f64,
    /// Attempts per group insertion before the candidate is abandoned.
    pub insert_tries: usize,
    /// The field the type-4 test looks at.
    pub type4_field: Type4Field,
    /// §8.1: reject when solutions start with different link-1 colours.
    pub reject_ambiguous_first_link: bool,
    /// §8.2: reject when the link-1 colour already has 3 connected puyos on the start field.
    pub reject_obvious_trigger: bool,
    /// §8.3: reject when column heights differ by `tall_difference` or one column holds half
    /// the chain's puyos.
    pub reject_tall_columns: bool,
    /// The column-height difference that `reject_tall_columns` rejects.
    pub tall_difference: usize,
    /// §8.4: reject when some solution's chain lacks the requested type.
    pub reject_inconsistent_type: bool,
    /// Candidates per accepted puzzle before giving up.
    pub max_candidates: u64,
}

impl Default for GenParams {
    fn default() -> Self {
        GenParams {
            moves: 2,
            chain: 3,
            target: Target::Any,
            method: Method::Filter,
            unique: true,
            colors: 4,
            garbage_p: 0.15,
            recolor_p: 0.5,
            insert_tries: 40,
            type4_field: Type4Field::Firing,
            reject_ambiguous_first_link: false,
            reject_obvious_trigger: false,
            reject_tall_columns: false,
            tall_difference: 4,
            reject_inconsistent_type: false,
            max_candidates: 1_000_000,
        }
    }
}

impl GenParams {
    /// The first parameter out of its range, named with the range the generator supports.
    pub fn check(&self) -> Result<(), String> {
        if !(2..=4).contains(&self.moves) {
            return Err(format!("moves {} not in 2-4", self.moves));
        }
        if !(2..=6).contains(&self.chain) {
            return Err(format!("chain {} not in 2-6", self.chain));
        }
        if !(2..=5).contains(&self.colors) {
            return Err(format!("colors {} not in 2-5", self.colors));
        }
        if self.target == Target::Four && self.chain < 3 {
            return Err("type 4 needs a chain of 3 or more (links 2 and 3 share a colour)".into());
        }
        if !(0.0..=1.0).contains(&self.garbage_p) || !(0.0..=1.0).contains(&self.recolor_p) {
            return Err("probabilities must be in 0-1".into());
        }
        Ok(())
    }
}

/// An accepted puzzle.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its solution, one placement per pair step.
    pub solution: Vec<Placement>,
    /// Solutions up to equivalence (1 when `unique`).
    pub solutions: u64,
    /// Candidates built for this puzzle, this one included.
    pub candidates: u64,
}

/// Generates one puzzle; `None` after `max_candidates` rejected candidates.
pub fn generate(params: &GenParams, rng: &mut impl Rng) -> Option<Generated> {
    let shapes = tetrominoes();
    for candidates in 1..=params.max_candidates {
        if let Some((puzzle, solution, solutions)) = candidate(params, &shapes, rng) {
            return Some(Generated { puzzle, solution, solutions, candidates });
        }
    }
    None
}

/// One candidate: built, coloured, steps removed, validated and filtered.
fn candidate(params: &GenParams, shapes: &[Shape], rng: &mut impl Rng) -> Option<(Puzzle, Vec<Placement>, u64)> {
    let n = params.chain;
    let direct = params.method == Method::Direct;
    let mut colors = link_colors(params, rng);
    let mut grid = Grid::default();
    let mut supports = Vec::new();
    for link in (1..=n as u8).rev() {
        let mut placed = None;
        for _ in 0..params.insert_tries {
            let mut g = grid.clone();
            let shape = shapes.choose(rng)?;
            let width = shape.iter().map(|c| c.0 as usize).max()? + 1;
            let x = rng.random_range(0..=WIDTH - width);
            let top = (x..x + width).map(|c| g.cols[c].len()).max()?;
            let base = if link as usize == n { rng.random_range(0..=2) } else { rng.random_range(0..=top) };
            let Some(cells) = g.insert(shape, x, base, link) else { continue };
            if (link as usize) < n {
                let (lifted, total) = lift(&grid, &g, link + 1);
                if lifted == 0 || lifted == total {
                    continue;
                }
            }
            g.add_garbage(&cells, params.garbage_p, rng);
            if !g.fits() {
                continue;
            }
            let mut sup = supports.clone();
            color_supports(&g, &colors, params.colors, &mut sup, rng);
            // Direct: the chain from this link on must already work with its final colours.
            if direct && !chain_works(&to_field(&g, &colors, &sup), n - link as usize + 1) {
                continue;
            }
            placed = Some((g, sup));
            break;
        }
        (grid, supports) = placed?;
    }
    if direct && params.target == Target::Four && !four_touching(&to_field(&grid, &colors, &supports)) {
        return None;
    }
    if !direct {
        recolor(params, &mut colors, rng);
        supports.clear();
        color_supports(&grid, &colors, params.colors, &mut supports, rng);
        if !chain_works(&to_field(&grid, &colors, &supports), n) {
            return None;
        }
    }
    let (puzzle, solution) = take_steps(params, grid, &colors, &supports, rng)?;
    let solutions = validate(params, &puzzle, &solution)?;
    Some((puzzle, solution, solutions))
}

/// Link colours before construction: all different where the palette allows; the direct
/// method fixes the type's repeats here.
fn link_colors(params: &GenParams, rng: &mut impl Rng) -> Vec<Puyo> {
    let n = params.chain;
    let mut palette: Vec<Puyo> = (0..params.colors).map(Puyo::color).collect();
    let mut colors = Vec::with_capacity(n);
    for i in 0..n {
        if i % palette.len() == 0 {
            rand::seq::SliceRandom::shuffle(palette.as_mut_slice(), rng);
        }
        let mut c = palette[i % palette.len()];
        if i > 0 && c == colors[i - 1] {
            c = palette[(i + 1) % palette.len()];
        }
        colors.push(c);
    }
    if params.method == Method::Direct {
        force_repeat(params.target, &mut colors, rng);
    }
    colors
}

/// Makes the target's colour repeat: type 4 links 2 and 3 (or any later consecutive pair for
/// longer chains); type 5 a random consecutive pair, or all links of a 3-chain.
fn force_repeat(target: Target, colors: &mut [Puyo], rng: &mut impl Rng) {
    let n = colors.len();
    match target {
        Target::Four => {
            let i = rng.random_range(1..n - 1);
            colors[i + 1] = colors[i];
        }
        Target::Five => {
            if n == 3 && rng.random_range(0..3) == 0 {
                colors[1] = colors[0];
                colors[2] = colors[0];
            } else {
                let i = rng.random_range(0..n - 1);
                colors[i + 1] = colors[i];
            }
        }
        Target::Any => {}
    }
}

/// The filter method's colour change (§6.3), applied after construction.
fn recolor(params: &GenParams, colors: &mut [Puyo], rng: &mut impl Rng) {
    match params.target {
        Target::Four => force_repeat(Target::Four, colors, rng),
        _ if rng.random_bool(params.recolor_p) => match params.target {
            Target::Five => force_repeat(Target::Five, colors, rng),
            _ => colors.iter_mut().for_each(|c| *c = Puyo::color(rng.random_range(0..params.colors))),
        },
        _ => {}
    }
}

/// Gives every support cell not yet coloured a colour other than its group's, in reading order.
fn color_supports(grid: &Grid, colors: &[Puyo], palette: usize, out: &mut Vec<Puyo>, rng: &mut impl Rng) {
    let count = grid.cols.iter().flatten().filter(|l| matches!(l, Label::Support(_))).count();
    let links: Vec<u8> =
        grid.cols.iter().flatten().filter_map(|l| if let Label::Support(i) = l { Some(*i) } else { None }).collect();
    // Supports are re-derived by position each time; keep earlier draws where they still fit.
    out.truncate(count);
    while out.len() < count {
        let own = colors[links[out.len()] as usize - 1];
        let others: Vec<Puyo> = (0..palette).map(Puyo::color).filter(|&c| c != own).collect();
        out.push(*others.choose(rng).expect("palette of 2 or more"));
    }
    for (k, &link) in links.iter().enumerate() {
        if out[k] == colors[link as usize - 1] {
            out[k] = (0..palette).map(Puyo::color).find(|&c| c != colors[link as usize - 1]).expect("palette >= 2");
        }
    }
}

/// The engine field of a grid with its colours.
fn to_field(grid: &Grid, colors: &[Puyo], supports: &[Puyo]) -> Field {
    let mut f = Field::default();
    let mut k = 0;
    for (c, col) in grid.cols.iter().enumerate() {
        for (r, &l) in col.iter().enumerate() {
            let p = match l {
                Label::Link(i) => colors[i as usize - 1],
                Label::Support(_) => {
                    k += 1;
                    supports[k - 1]
                }
                Label::Garbage => Puyo::Garbage,
            };
            f.set(c, r, Some(p));
        }
    }
    f
}

/// Resolving gives exactly `n` links of exactly 4 puyos each.
fn chain_works(field: &Field, n: usize) -> bool {
    let mut f = *field;
    let mut ok = true;
    let chain = f.resolve_from(Bits::ALL, |l| ok &= l.puyos() == 4 && l.groups().len() == 1);
    ok && chain.links as usize == n
}

/// Type 4 on a firing field: same-colour puyos that touch yet pop in different links.
fn four_touching(field: &Field) -> bool {
    let labels = link_labels(field);
    split_pairs(field, |c, r| labels[c][r] as u32) > 0
}

/// Takes k pairs off the top (§6.1 step 3), last step first; the last must hold a link-1 puyo.
fn take_steps(
    params: &GenParams,
    grid: Grid,
    colors: &[Puyo],
    supports: &[Puyo],
    rng: &mut impl Rng,
) -> Option<(Puzzle, Vec<Placement>)> {
    // Colour each cell once, so removing cells keeps the others' colours.
    let field = to_field(&grid, colors, supports);
    let mut cols: [Vec<(Label, Puyo)>; WIDTH] = std::array::from_fn(|c| {
        grid.cols[c].iter().enumerate().map(|(r, &l)| (l, field.get(c, r).expect("built"))).collect()
    });
    let mut steps = Vec::new();
    let mut placements = Vec::new();
    for k in 0..params.moves {
        let &pick = removable_pairs(&cols, k == 0).choose(rng)?;
        let (pair, placement) = take_pair(&mut cols, pick, rng)?;
        steps.push(Step::Pair(pair));
        placements.push(placement);
    }
    steps.reverse();
    placements.reverse();
    let mut start = Field::default();
    for (c, col) in cols.iter().enumerate() {
        for (r, x) in col.iter().enumerate() {
            start.set(c, r, Some(x.1));
        }
    }
    let goal = Goal {
        main: Some(MainGoal {
            kind: GoalKind::Chain,
            color: super::goal::GoalColor::All,
            value: params.chain as u32,
            operator: Operator::Exact,
        }),
        clear: None,
    };
    Some((Puzzle { field: start, steps, goal }, placements))
}

/// The pairs of coloured puyos on top of `cols` that a last placement could have put there:
/// two on top of one column (a, a) or the tops of neighbouring columns (a, a + 1). For the
/// `last` placement (the first taken back), only those holding a puyo of the first link,
/// since that placement must start the chain.
fn removable_pairs(cols: &[Vec<(Label, Puyo)>; WIDTH], last: bool) -> Vec<(usize, usize)> {
    let coloured = |x: &(Label, Puyo)| x.0 != Label::Garbage;
    let mut options = Vec::new();
    for c in 0..WIDTH {
        let h = cols[c].len();
        if h >= 2 && coloured(&cols[c][h - 1]) && coloured(&cols[c][h - 2]) {
            options.push((c, c));
        }
        if c + 1 < WIDTH && cols[c].last().is_some_and(coloured) && cols[c + 1].last().is_some_and(coloured) {
            options.push((c, c + 1));
        }
    }
    if last {
        options.retain(|&(a, b)| {
            let taken: Vec<&(Label, Puyo)> = if a == b {
                cols[a].iter().rev().take(2).collect()
            } else {
                cols[a].last().into_iter().chain(cols[b].last()).collect()
            };
            taken.iter().any(|x| x.0 == Label::Link(1))
        });
    }
    options
}

/// Takes the pair (a, b) of [`removable_pairs`] off `cols`: the pair and the placement that
/// puts it back, its axis puyo chosen at random.
fn take_pair(
    cols: &mut [Vec<(Label, Puyo)>; WIDTH],
    (a, b): (usize, usize),
    rng: &mut impl Rng,
) -> Option<(Pair, Placement)> {
    let (upper, lower) = if a == b {
        let u = cols[a].pop()?;
        (u, cols[a].pop()?)
    } else {
        let r = cols[b].pop()?;
        (r, cols[a].pop()?)
    };
    // `lower` is the bottom (vertical) or left (horizontal) puyo.
    let flip = rng.random_bool(0.5);
    let (axis, child) = if flip { (upper.1, lower.1) } else { (lower.1, upper.1) };
    let rot = match (a == b, flip) {
        (true, false) => Rotation::Up,
        (true, true) => Rotation::Down,
        (false, false) => Rotation::Right,
        (false, true) => Rotation::Left,
    };
    let col = if flip && a != b { b } else { a };
    Some((Pair::new(axis, child), Placement { col: col as u8, rot }))
}

/// §6.1 step 4 plus the type filters (§6.4) and the rejection rules (§8); the solution count.
fn validate(params: &GenParams, puzzle: &Puzzle, intended: &[Placement]) -> Option<u64> {
    let mut start = puzzle.field;
    if start.resolve().links > 0 {
        return None;
    }
    if replay(puzzle, intended).solved_at != Some(puzzle.steps.len() - 1) {
        return None;
    }
    let stop_after = params.unique.then_some(2);
    let s = solve(puzzle, SolveOptions { stop_after, keep: Some(usize::MAX), timeout: None });
    if s.count == 0 || (params.unique && s.distinct > 1) || s.solutions.iter().any(|p| p.len() < params.moves) {
        return None;
    }
    let longer = Puzzle {
        goal: Goal {
            main: puzzle.goal.main.map(|m| MainGoal { value: m.value + 1, operator: Operator::AtLeast, ..m }),
            clear: None,
        },
        ..puzzle.clone()
    };
    if solve(&longer, SolveOptions { stop_after: Some(1), ..SolveOptions::default() }).count > 0 {
        return None;
    }
    let shows = |sol: &[Placement]| shows_type(params, puzzle, sol);
    let check_all = params.reject_inconsistent_type;
    if check_all { s.solutions.iter().all(|p| shows(p)) } else { shows(intended) }.then_some(())?;
    if params.reject_ambiguous_first_link {
        let first: Vec<u8> = s.solutions.iter().filter_map(|p| first_link_mask(puzzle, p)).collect();
        if first.windows(2).any(|w| w[0] != w[1]) {
            return None;
        }
    }
    if params.reject_obvious_trigger && obvious_trigger(puzzle, intended) {
        return None;
    }
    if params.reject_tall_columns && tall_columns(params, puzzle, intended) {
        return None;
    }
    Some(s.distinct)
}

/// Does the chain of `solution` show the target type (§6.4)?
fn shows_type(params: &GenParams, puzzle: &Puzzle, solution: &[Placement]) -> bool {
    let r = replay(puzzle, solution);
    let Some(at) = r.solved_at else { return false };
    match params.target {
        Target::Any => true,
        Target::Five => same_color_links(&link_masks(&r.links[at])) > 0,
        Target::Four => match params.type4_field {
            Type4Field::Firing => four_touching(&firing_field(puzzle, solution, at, &r.fields[at])),
            Type4Field::Start => {
                let fates = start_fates(puzzle, solution);
                split_pairs(&puzzle.field, |c, r| fates[c][r].map_or(0, |(s, l)| (s as u32 + 1) * 256 + l as u32)) > 0
            }
        },
    }
}

fn first_link_mask(puzzle: &Puzzle, solution: &[Placement]) -> Option<u8> {
    let r = replay(puzzle, solution);
    r.solved_at.and_then(|at| link_masks(&r.links[at]).first().copied())
}

/// §8.2: the link-1 colour has 3 connected puyos on the start field.
fn obvious_trigger(puzzle: &Puzzle, solution: &[Placement]) -> bool {
    let Some(mask) = first_link_mask(puzzle, solution) else { return false };
    (0..5).filter(|c| mask & 1 << c != 0).any(|c| {
        let plane = puzzle.field.plane(Puyo::color(c)) & Bits::VISIBLE;
        let mut seeds = plane;
        while !seeds.is_empty() {
            let group = Bits::flood(seeds.first(), plane);
            seeds &= !group;
            if group.count() >= 3 {
                return true;
            }
        }
        false
    })
}

/// §8.3 on the firing field: heights differing by `tall_difference`, or one column holding
/// at least half of the chain's puyos (step puyos count).
fn tall_columns(params: &GenParams, puzzle: &Puzzle, solution: &[Placement]) -> bool {
    let r = replay(puzzle, solution);
    let Some(at) = r.solved_at else { return false };
    let firing = firing_field(puzzle, solution, at, &r.fields[at]);
    let heights: Vec<usize> = (0..WIDTH).map(|c| firing.height(c)).collect();
    let spread = heights.iter().max().unwrap_or(&0) - heights.iter().min().unwrap_or(&0);
    let labels = link_labels(&firing);
    let per_col: Vec<usize> = labels.iter().map(|col| col.iter().filter(|&&l| l > 0).count()).collect();
    let chain: usize = per_col.iter().sum();
    spread >= params.tall_difference || per_col.iter().any(|&k| 2 * k >= chain && chain > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nazo::io::{ishikawa, parse_any, pon2};
    use crate::games::nazo::metrics::compute;
    use crate::lab::rng::game_rng;

    fn params(target: Target, method: Method) -> GenParams {
        GenParams { target, method, ..GenParams::default() }
    }

    #[test]
    fn generated_puzzles_resolve_from_their_urls_with_the_type_asked() {
        for target in [Target::Four, Target::Five, Target::Any] {
            for method in [Method::Filter, Method::Direct] {
                let p = params(target, method);
                for i in 0..4 {
                    let g = generate(&p, &mut game_rng(7, i)).expect("generated");
                    for text in [ishikawa::write(&g.puzzle).unwrap(), pon2::write(&g.puzzle)] {
                        let back = parse_any(&text).unwrap();
                        assert_eq!(back, g.puzzle);
                        let s = solve(&back, SolveOptions::default());
                        assert_eq!((s.distinct, s.complete()), (1, true), "{text}");
                        assert_eq!(s.solutions[0].len(), 2, "{text}");
                        let m = compute(&back, &s.solutions[0]).unwrap();
                        assert!(target != Target::Four || m.type4.is_type4, "{text}");
                        assert!(target != Target::Five || m.type5.is_type5, "{text}");
                    }
                }
            }
        }
    }

    #[test]
    fn longer_chains_and_more_moves() {
        for (moves, chain) in [(3, 2), (4, 4), (2, 6)] {
            let p = GenParams { moves, chain, ..GenParams::default() };
            let g = generate(&p, &mut game_rng(1, 0)).expect("generated");
            let s = solve(&g.puzzle, SolveOptions::default());
            assert_eq!(s.distinct, 1, "{}", pon2::write(&g.puzzle));
            assert_eq!(g.puzzle.moves(), moves);
            let r = replay(&g.puzzle, &s.solutions[0]);
            assert_eq!(r.links[moves - 1].len(), chain);
        }
    }

    #[test]
    fn same_seed_same_puzzle_and_bad_params_rejected() {
        let p = params(Target::Five, Method::Direct);
        let a = generate(&p, &mut game_rng(3, 9)).unwrap();
        let b = generate(&p, &mut game_rng(3, 9)).unwrap();
        assert_eq!(a.puzzle, b.puzzle);
        assert!(GenParams { moves: 5, ..GenParams::default() }.check().is_err());
        assert!(GenParams { chain: 1, ..GenParams::default() }.check().is_err());
        assert!(GenParams { target: Target::Four, chain: 2, ..GenParams::default() }.check().is_err());
    }

    #[test]
    fn rejection_rules_hold_on_what_they_accept() {
        let p = GenParams {
            reject_obvious_trigger: true,
            reject_tall_columns: true,
            reject_ambiguous_first_link: true,
            reject_inconsistent_type: true,
            unique: false,
            target: Target::Five,
            ..GenParams::default()
        };
        for i in 0..4 {
            let g = generate(&p, &mut game_rng(5, i)).unwrap();
            assert!(!obvious_trigger(&g.puzzle, &g.solution));
            assert!(!tall_columns(&p, &g.puzzle, &g.solution));
            let heights: Vec<usize> = (0..WIDTH).map(|c| g.puzzle.field.height(c)).collect();
            assert!(heights.iter().max().unwrap() - heights.iter().min().unwrap() < 4 + 2, "{heights:?}");
        }
    }
}
