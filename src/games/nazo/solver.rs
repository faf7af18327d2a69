//! The exhaustive solver: every placement sequence that meets the goal, so its verdict is a
//! proof ("solved with these solutions" / "no solution exists").
//!
//! Counting is exact over placement sequences, with one equivalence: placements of one step
//! that leave the same field by the same pops are one move (a same-colour pair tries 11
//! placements, not 22; two placements whose puyos all pop alike). A transposition table keyed
//! on (step, field, popped so far) stores how many solutions lie below each state, so a state
//! reached again by another order of placements is added, not searched again; the first
//! solutions' placements are rebuilt from the table. Solutions are also counted *up to
//! equivalence* ([`Solved::distinct`]): two are the same answer when they fire at the same
//! step from the same field after the same earlier pops (e.g. the two pairs of `rgrg` placed
//! in either order), which is what "unique solution" means. Goal-aware pruning cuts a branch
//! when the puyos left (field plus remaining steps) cannot reach the goal.

use rustc_hash::FxBuildHasher;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use crate::games::puyo::rules::{Bits, Field, Link, MAX_COLORS, Pair, Placement, Puyo, WIDTH};

use super::goal::{Goal, GoalColor, GoalKind, Operator, Popped};
use super::puzzle::{Puzzle, Step};
use super::sim::play_step;

/// How much to search.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Stop after this many distinct solutions (`Some(1)` = `--first`, `Some(2)` = uniqueness check).
    pub stop_after: Option<u64>,
    /// Give up after this long (the verdict is then unproven).
    pub timeout: Option<Duration>,
    /// Keep at most this many solutions' placements (all are counted); default 64.
    pub keep: Option<usize>,
}

/// What the search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solved {
    /// Solving placement sequences (all of them unless stopped early or timed out).
    pub count: u64,
    /// Solutions up to equivalence: distinct (solving step, firing field, earlier pops).
    pub distinct: u64,
    /// The placements of the first solutions (one per pair step up to the solving step), in
    /// search order.
    pub solutions: Vec<Vec<Placement>>,
    /// Placements played (a last step's placements that cannot pop or chain are not played).
    pub nodes: u64,
    /// The time limit ran out before the search finished: the verdict is unproven.
    pub timed_out: bool,
}

impl Solved {
    /// Proven: every sequence was examined (or enough to answer the question asked).
    pub fn complete(&self) -> bool {
        !self.timed_out
    }
}

/// Most states the table holds (about 300 MB); beyond it new states are searched unstored,
/// which costs time, never correctness.
const TABLE_CAP: usize = 1 << 21;

/// A search state: step index, field, and what was popped so far (only for goals that count it).
type State = (u8, Field, Popped);
/// Outcomes of one step's placements that popped something, to merge equivalent placements.
pub(super) type Outcomes = Vec<(Field, Vec<Link>)>;

struct Search<'a> {
    puzzle: &'a Puzzle,
    opts: SolveOptions,
    keep: usize,
    /// Colour counts of the steps from index i on (for pruning).
    step_colors: Vec<[u32; MAX_COLORS]>,
    accum: bool,
    /// Links a step needs to meet the main goal: 0 (none needed), 1 (a pop) or 2 (a chain).
    needs_links: u32,
    /// Solutions below each state searched before the last step.
    table: HashMap<State, u64, FxBuildHasher>,
    table_cap: usize,
    /// The equivalence classes of the solutions found (see [`Solved::distinct`]).
    classes: HashSet<(u8, Field, Popped), FxBuildHasher>,
    path: Vec<Placement>,
    /// Per-step scratch for the links of a placement (no allocation per node).
    links: Vec<Vec<Link>>,
    out: Solved,
    start: Instant,
    stop: bool,
}

/// Solves `puzzle` exhaustively.
pub fn solve(puzzle: &Puzzle, opts: SolveOptions) -> Solved {
    solve_with_table(puzzle, opts, TABLE_CAP)
}

/// [`solve`] with at most `table_cap` states stored.
fn solve_with_table(puzzle: &Puzzle, opts: SolveOptions, table_cap: usize) -> Solved {
    let mut step_colors = vec![[0u32; MAX_COLORS]; puzzle.steps.len() + 1];
    for (i, s) in puzzle.steps.iter().enumerate().rev() {
        step_colors[i] = step_colors[i + 1];
        if let Step::Pair(p) = s {
            step_colors[i][p.axis.index()] += 1;
            step_colors[i][p.child.index()] += 1;
        }
    }
    let accum = puzzle.goal.main.is_some_and(|m| matches!(m.kind, GoalKind::AccumColor | GoalKind::AccumCount));
    let mut s = Search {
        puzzle,
        opts,
        keep: opts.keep.unwrap_or(64),
        step_colors,
        accum,
        needs_links: match puzzle.goal.main {
            Some(m) if m.kind == GoalKind::Chain => m.value.min(2),
            Some(m) => m.needs_pop() as u32,
            None => 0,
        },
        table: HashMap::default(),
        table_cap,
        classes: HashSet::default(),
        path: Vec::new(),
        links: vec![Vec::new(); puzzle.steps.len()],
        out: Solved::default(),
        start: Instant::now(),
        stop: false,
    };
    s.visit(0, puzzle.field, Popped::default());
    s.out
}

/// The placements to try for a step (`None` for a garbage drop).
pub(super) fn placements(step: Step) -> &'static [Option<Placement>] {
    const fn wrap<const N: usize>(ps: [Placement; N]) -> [Option<Placement>; N] {
        let mut out = [None; N];
        let mut i = 0;
        while i < N {
            out[i] = Some(ps[i]);
            i += 1;
        }
        out
    }
    const ALL: [Option<Placement>; 22] = wrap(Placement::ALL);
    const DOUBLE: [Option<Placement>; 11] = wrap(Placement::DOUBLE);
    match step {
        Step::Pair(p) if p.is_double() => &DOUBLE,
        Step::Pair(_) => &ALL,
        Step::Garbage(_) => &[None],
    }
}

/// Plays one placement; the field after it, or `None` if it is illegal, kills, or repeats an
/// earlier placement's outcome in `seen` (the same field by the same pops: an equivalent move).
/// Without pops, two different placements never leave the same field, so only popping
/// outcomes are remembered.
pub(super) fn play(
    field: &Field,
    step: Step,
    placement: Option<Placement>,
    links: &mut Vec<Link>,
    seen: &mut Outcomes,
) -> Option<Field> {
    let mut next = *field;
    links.clear();
    if !play_step(&mut next, step, placement, links) {
        return None;
    }
    if !links.is_empty() {
        if seen.iter().any(|(f, l)| *f == next && l == links) {
            return None;
        }
        seen.push((next, links.clone()));
    }
    Some(next)
}

impl Search<'_> {
    fn key(&self, depth: usize, field: Field, total: Popped) -> State {
        (depth as u8, field, if self.accum { total } else { Popped::default() })
    }

    /// Searches the state before step `depth`, adding its solutions to the count.
    fn visit(&mut self, depth: usize, field: Field, total: Popped) {
        let Some(&step) = self.puzzle.steps.get(depth) else { return };
        if hopeless(&self.puzzle.goal, &field, &self.puzzle.steps[depth..], &self.step_colors[depth], &total) {
            return;
        }
        // States at the last step are not stored: their subtree is one step deep, and
        // they are most of the nodes (the table would cost more than it saves).
        let stored = depth + 1 < self.puzzle.steps.len();
        let key = self.key(depth, field, total);
        if stored && let Some(&n) = self.table.get(&key) {
            self.out.count += n;
            if n > 0 && self.out.solutions.len() < self.keep {
                self.collect(depth, field, total);
            }
            return;
        }
        let before = self.out.count;
        let mut seen = Outcomes::new();
        let mut links = std::mem::take(&mut self.links[depth]);
        // At the last step a goal that needs a pop (or a chain) skips the placements that
        // cannot pop (or chain).
        let last_pair = match step {
            Step::Pair(pair) if !stored && self.needs_links > 0 => Some(pair),
            _ => None,
        };
        for &placement in placements(step) {
            if self.stop {
                break;
            }
            if let (Some(pair), Some(p)) = (last_pair, placement)
                && !may_chain(&field, pair, p, self.needs_links)
            {
                continue;
            }
            self.out.nodes += 1;
            if self.out.nodes.is_multiple_of(1024) && self.opts.timeout.is_some_and(|t| self.start.elapsed() > t) {
                self.out.timed_out = true;
                self.stop = true;
                break;
            }
            let Some(next) = play(&field, step, placement, &mut links, &mut seen) else { continue };
            let mut after = total;
            links.iter().for_each(|l| after.add(l));
            self.path.extend(placement);
            if self.puzzle.goal.is_met(&links, &after, &next) {
                self.found(depth, &field, step, placement, total);
            } else {
                self.visit(depth + 1, next, after);
            }
            if placement.is_some() {
                self.path.pop();
            }
        }
        self.links[depth] = links;
        if stored && !self.stop && self.table.len() < self.table_cap {
            self.table.insert(key, self.out.count - before);
        }
    }

    fn found(&mut self, depth: usize, field: &Field, step: Step, placement: Option<Placement>, total: Popped) {
        self.out.count += 1;
        if self.out.solutions.len() < self.keep {
            self.out.solutions.push(self.path.clone());
        }
        let mut firing = *field;
        match (step, placement) {
            (Step::Pair(pair), Some(p)) => {
                firing.place(pair, p);
            }
            _ => {
                play_step(&mut firing, step, None, &mut Vec::new());
            }
        }
        if self.classes.insert((depth as u8, firing, total)) {
            self.out.distinct += 1;
            if self.opts.stop_after.is_some_and(|n| self.out.distinct >= n) {
                self.stop = true;
            }
        }
    }

    /// Lists the placements of the solutions below a state the table says has some, until
    /// `keep` are listed (the count already includes them).
    fn collect(&mut self, depth: usize, field: Field, total: Popped) {
        let step = self.puzzle.steps[depth];
        let last = depth + 1 == self.puzzle.steps.len();
        let mut seen = Outcomes::new();
        let mut links = Vec::new();
        for &placement in placements(step) {
            if self.out.solutions.len() >= self.keep {
                return;
            }
            let Some(next) = play(&field, step, placement, &mut links, &mut seen) else { continue };
            let mut after = total;
            links.iter().for_each(|l| after.add(l));
            self.path.extend(placement);
            if self.puzzle.goal.is_met(&links, &after, &next) {
                self.out.solutions.push(self.path.clone());
            } else if !last {
                // A state missing from the table was pruned, or not stored (the last step, or
                // the table was full).
                let worth = match self.table.get(&self.key(depth + 1, next, after)) {
                    Some(&n) => n > 0,
                    None => {
                        let rest = &self.puzzle.steps[depth + 1..];
                        !hopeless(&self.puzzle.goal, &next, rest, &self.step_colors[depth + 1], &after)
                    }
                };
                if worth {
                    self.collect(depth + 1, next, after);
                }
            }
            if placement.is_some() {
                self.path.pop();
            }
        }
    }
}

/// True if no continuation can meet `goal`: counts what could still pop (field plus the
/// colours of the remaining steps `rest`, totalled in `steps`; a colour with fewer than 4 can
/// never pop again).
fn hopeless(goal: &Goal, field: &Field, rest: &[Step], steps: &[u32; MAX_COLORS], total: &Popped) -> bool {
    let on_field: [u32; MAX_COLORS] = std::array::from_fn(|c| field.plane(Puyo::color(c)).count());
    if goal.main.is_some_and(|m| m.needs_pop()) && !can_trigger(on_field, rest) {
        return true;
    }
    let avail: [u32; MAX_COLORS] = std::array::from_fn(|c| on_field[c] + steps[c]);
    let poppable = |c: usize| if avail[c] >= 4 { avail[c] } else { 0 };
    if let Some(clear) = goal.clear {
        let stuck = (0..MAX_COLORS).any(|c| on_field[c] > 0 && avail[c] < 4 && clear.matches(Puyo::color(c)));
        if stuck {
            return true;
        }
    }
    let Some(m) = goal.main else { return false };
    let n = m.value;
    // Upper bound of the counted quantity for a colour selector.
    let of = |color: GoalColor, f: &dyn Fn(usize) -> u32| -> Option<u32> {
        match color {
            GoalColor::Puyo(c) => Some(f(c.index())),
            GoalColor::Colored => Some((0..MAX_COLORS).map(f).sum()),
            // Garbage counts too, and garbage is not bounded here.
            GoalColor::All | GoalColor::Garbage => None,
        }
    };
    let groups = |c: usize| poppable(c) / 4;
    let below = |bound: Option<u32>| bound.is_some_and(|b| b < n);
    match m.kind {
        GoalKind::Chain => (0..MAX_COLORS).map(groups).sum::<u32>() < n,
        GoalKind::Color => (0..MAX_COLORS).filter(|&c| poppable(c) > 0).count() < n as usize,
        GoalKind::Count => below(of(m.color, &poppable)),
        GoalKind::Place => {
            let bound = match m.color {
                GoalColor::Puyo(c) => groups(c.index()),
                _ => (0..MAX_COLORS).map(groups).sum(),
            };
            bound < n
        }
        GoalKind::Connection => {
            let bound = match m.color {
                GoalColor::Puyo(c) => poppable(c.index()),
                _ => (0..MAX_COLORS).map(poppable).max().unwrap_or(0),
            };
            bound < n.max(4)
        }
        GoalKind::AccumColor => {
            let done = |c: usize| total.per_color[c] > 0;
            let possible = (0..MAX_COLORS).filter(|&c| done(c) || poppable(c) > 0).count() as u32;
            let already = (0..MAX_COLORS).filter(|&c| done(c)).count() as u32;
            possible < n || (m.operator == Operator::Exact && already > n)
        }
        GoalKind::AccumCount => {
            let so_far = total.count(m.color);
            let more = of(m.color, &poppable);
            more.is_some_and(|b| so_far + b < n) || (m.operator == Operator::Exact && so_far > n)
        }
    }
}

/// Could placing `pair` at `placement` make a chain of `links` links (1 or 2; longer is not
/// told apart)? Exactly the engine's test, without playing: the first link is the groups of 4
/// through a placed puyo (rows 1-12); a second needs something to fall into a gap it (or the
/// garbage it clears) leaves.
fn may_chain(field: &Field, pair: Pair, placement: Placement, links: u32) -> bool {
    let Some(((ac, ar), (cc, cr))) = field.landing(placement) else { return false };
    let (a, c) = (Bits::cell(ac, ar) & Bits::VISIBLE, Bits::cell(cc, cr) & Bits::VISIBLE);
    // Each placed puyo's group on its own: a double pair's two puyos may sit in two groups,
    // one of 4 and one too small to pop.
    let of_color = |color: Puyo| {
        (if pair.axis == color { a } else { Bits::EMPTY }) | (if pair.child == color { c } else { Bits::EMPTY })
    };
    let group = |color: Puyo, start: Bits| {
        let g = Bits::flood(start, (field.plane(color) & Bits::VISIBLE) | of_color(color));
        if g.count() >= 4 { g } else { Bits::EMPTY }
    };
    let popped = group(pair.axis, a) | group(pair.child, c);
    if popped.is_empty() || links < 2 {
        return !popped.is_empty();
    }
    // Hard garbage hit once stays (as garbage), so only ordinary garbage leaves a gap.
    let gaps = popped | (popped.neighbours() & Bits::VISIBLE & field.plane(Puyo::Garbage));
    let occupied = field.occupied() | Bits::cell(ac, ar) | Bits::cell(cc, cr);
    (0..WIDTH).any(|col| {
        let gap = gaps.column_bits(col);
        gap != 0 && occupied.column_bits(col) & !gap & (u16::MAX << gap.trailing_zeros()) != 0
    })
}

/// Can some remaining pair start a chain? Its first link holds a puyo of the pair (the engine
/// resolves from the placed cells of a stable field), so one of the pair's colours must reach 4
/// with the field and the pairs up to it.
fn can_trigger(on_field: [u32; MAX_COLORS], rest: &[Step]) -> bool {
    let mut have = on_field;
    rest.iter().any(|s| match s {
        Step::Pair(p) => {
            have[p.axis.index()] += 1;
            have[p.child.index()] += 1;
            have[p.axis.index()] >= 4 || have[p.child.index()] >= 4
        }
        Step::Garbage(_) => false,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::games::nazo::goal::MainGoal;
    use crate::games::nazo::io::pon2;
    use crate::games::nazo::sim::replay;
    use crate::games::puyo::rules::Pair;

    /// Reference: every one of the 22^k sequences played, no table, no pruning; the
    /// placements of a step that leave the same field by the same links are merged (the
    /// solver's one equivalence). Returns the solving sequences and their classes.
    fn brute_force(puzzle: &Puzzle) -> (u64, HashSet<State>) {
        fn go(puzzle: &Puzzle, depth: usize, field: Field, total: Popped, out: &mut (u64, HashSet<State>)) {
            let Some(&step) = puzzle.steps.get(depth) else { return };
            let tries: Vec<Option<Placement>> = match step {
                Step::Pair(_) => Placement::ALL.iter().copied().map(Some).collect(),
                Step::Garbage(_) => vec![None],
            };
            let mut seen = Vec::new();
            for placement in tries {
                let (mut next, mut links) = (field, Vec::new());
                if !play_step(&mut next, step, placement, &mut links) || seen.contains(&(next, links.clone())) {
                    continue;
                }
                seen.push((next, links.clone()));
                let mut after = total;
                links.iter().for_each(|l| after.add(l));
                if puzzle.goal.is_met(&links, &after, &next) {
                    let mut firing = field;
                    match (step, placement) {
                        (Step::Pair(pair), Some(p)) => _ = firing.place(pair, p),
                        _ => firing = next,
                    }
                    out.0 += 1;
                    out.1.insert((depth as u8, firing, total));
                } else {
                    go(puzzle, depth + 1, next, after, out);
                }
            }
        }
        let mut out = (0, HashSet::new());
        go(puzzle, 0, puzzle.field, Popped::default(), &mut out);
        out
    }

    fn arb_puzzle() -> impl Strategy<Value = Puzzle> {
        let cell = (0..9usize).prop_map(|i| if i < 3 { None } else { Some(Puyo::ALL[(i - 3) % 6]) });
        let pair = (0..3usize, 0..3usize).prop_map(|(a, c)| Step::Pair(Pair::new(Puyo::color(a), Puyo::color(c))));
        let steps =
            proptest::collection::vec(prop_oneof![4 => pair, 1 => Just(Step::Garbage([1, 0, 0, 0, 0, 1]))], 1..=2);
        let kind = (0..7usize, 0..6usize, 0..9u32, any::<bool>(), proptest::option::of(0..6usize), any::<bool>());
        (proptest::collection::vec(cell, 24), steps, kind).prop_map(
            |(cells, steps, (k, c, value, least, clear, main))| {
                let mut field = Field::default();
                for (i, cell) in cells.into_iter().enumerate() {
                    field.set(i % 6, i / 6, cell);
                }
                field.settle();
                let kind = GoalKind::ALL[k];
                let mut color = if kind.has_color() { GoalColor::from_index(c).unwrap() } else { GoalColor::All };
                if matches!(kind, GoalKind::Place | GoalKind::Connection) && color == GoalColor::Garbage {
                    color = GoalColor::All;
                }
                let operator = if least { Operator::AtLeast } else { Operator::Exact };
                let goal = Goal {
                    main: main.then_some(MainGoal { kind, color, value, operator }),
                    clear: clear.and_then(GoalColor::from_index),
                };
                Puzzle { field, steps, goal }
            },
        )
    }

    /// Four pairs of a two-colour palette: pairs repeat, so placements transpose and the
    /// table's counts and rebuilt placements are exercised.
    fn arb_long_puzzle() -> impl Strategy<Value = Puzzle> {
        let pair = (0..2usize, 0..2usize).prop_map(|(a, c)| Step::Pair(Pair::new(Puyo::color(a), Puyo::color(c))));
        (arb_puzzle(), proptest::collection::vec(pair, 4..=4)).prop_map(|(mut p, steps)| {
            p.steps = steps;
            p
        })
    }

    fn check_against_brute_force(p: &Puzzle) -> Result<(), TestCaseError> {
        let s = solve(p, SolveOptions { keep: Some(usize::MAX), ..SolveOptions::default() });
        let (count, classes) = brute_force(p);
        let q = pon2::write(p);
        prop_assert_eq!((s.count, s.distinct), (count, classes.len() as u64), "{}", q);
        prop_assert_eq!(s.solutions.len() as u64, s.count, "{}", q);
        // Without a table (as when it is full) the answer is the same.
        let bare = solve_with_table(p, SolveOptions { keep: Some(usize::MAX), ..SolveOptions::default() }, 0);
        prop_assert_eq!(&bare.solutions, &s.solutions, "{}", q);
        prop_assert_eq!((bare.count, bare.distinct), (s.count, s.distinct), "{}", q);
        let listed: HashSet<_> = s.solutions.iter().collect();
        prop_assert_eq!(listed.len(), s.solutions.len(), "{}", q);
        for sol in &s.solutions {
            prop_assert!(replay(p, sol).solved_at.is_some(), "{}", q);
        }
        // Stopping early still gives a proven answer to the question asked.
        let first = solve(p, SolveOptions { stop_after: Some(1), ..SolveOptions::default() });
        prop_assert_eq!(first.distinct, count.min(1), "{}", q);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(128)))]

        #[test]
        fn counts_match_brute_force(p in arb_puzzle()) {
            check_against_brute_force(&p)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(24)))]

        #[test]
        fn counts_match_brute_force_on_four_pairs(p in arb_long_puzzle()) {
            check_against_brute_force(&p)?;
        }
    }

    #[test]
    fn a_double_pair_split_between_a_popping_and_a_small_group_still_chains() {
        // gg at column 2 lying right: the axis completes four greens, the child joins a group
        // of two; the garbage cleared beside the four lets that group fall into a second link.
        let p = pon2::parse("field=0_o...g.r...&steps=ggrggggg&goal=0_0_2_0_").unwrap();
        let s = solve(&p, SolveOptions::default());
        assert_eq!((s.count, s.distinct), (158, 35));
    }

    #[test]
    fn known_puzzles() {
        // 早大なぞぷよマスターズ2016 練習問題 第1問: pop exactly 6 at once with brbr.
        let p = pon2::parse("field=0_rrbbrr&steps=brbr&goal=2_0_6_0_").unwrap();
        let s = solve(&p, SolveOptions::default());
        assert!(s.count > 0 && s.complete());
        // The same field cannot give a 5-chain with two pairs.
        let p = pon2::parse("field=0_rrbbrr&steps=brbr&goal=0_0_5_0_").unwrap();
        assert_eq!(solve(&p, SolveOptions::default()).count, 0);
        // The pair's red is the fourth red: the trigger test must let it through.
        let p = pon2::parse("field=0_rrr...&steps=rg&goal=0_0_1_0_").unwrap();
        let s = solve(&p, SolveOptions::default());
        assert!(s.count > 0);
        assert_eq!(s.count, brute_force(&p).0);
        // A 3-chain fired by the last (only) pair: the falls after link 1 are seen.
        let p = pon2::parse("field=0_rgb...rrgb..ggbb..&steps=ry&goal=0_0_3_0_").unwrap();
        let s = solve(&p, SolveOptions::default());
        assert!(s.count > 0);
        assert_eq!(s.count, brute_force(&p).0);
        // 戦技研HP Easy 第7問: the second link falls into the gaps of cleared garbage.
        let p = pon2::parse("field=0_r.r.r.r.r.r.ororo.&steps=rrrrrr&goal=0_0_2_0_").unwrap();
        let s = solve(&p, SolveOptions::default());
        assert!(s.count > 0);
        assert_eq!(s.count, brute_force(&p).0);
        // A last pair that cannot pop is pruned: the 3-chain must come from an earlier pair.
        let p = pon2::parse("field=0_gbyr..byrg..yrgb..rgby..&steps=yybbrrpp&goal=0_0_3_0_").unwrap();
        let s = solve(&p, SolveOptions::default());
        assert_eq!(s.count, brute_force(&p).0);
    }
}
