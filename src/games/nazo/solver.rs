//! The exhaustive solver: every placement sequence that meets the goal, so its verdict is a
//! proof ("solved with these solutions" / "no solution exists").
//!
//! Equivalent placements are searched once: a same-colour pair tries 11 placements, not 22;
//! placements of one step that leave the same field are merged; and a transposition table
//! merges sequences that reach the same (step, field, popped-so-far) state, e.g. two pairs
//! placed in either order. Solutions are therefore counted up to this equivalence. Goal-aware
//! pruning cuts a branch when the puyos left (field plus remaining steps) cannot reach the goal.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use crate::games::puyo::rules::{Field, Link, MAX_COLORS, Placement, Puyo};

use super::goal::{Goal, GoalColor, GoalKind, Operator, Popped};
use super::puzzle::{Puzzle, Step};
use super::sim::play_step;

/// How much to search.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Stop after this many solutions (`Some(1)` = `--first`, `Some(2)` = uniqueness check).
    pub stop_after: Option<u64>,
    /// Give up after this long (the verdict is then unproven).
    pub timeout: Option<Duration>,
    /// Keep at most this many solutions' placements (all are counted); default 64.
    pub keep: Option<usize>,
}

/// What the search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solved {
    /// Solutions found, up to equivalence (all of them unless stopped early or timed out).
    pub count: u64,
    /// The placements of the first solutions (one per pair step up to the solving step).
    pub solutions: Vec<Vec<Placement>>,
    /// Placements played.
    pub nodes: u64,
    pub timed_out: bool,
}

impl Solved {
    /// Proven: every sequence was examined (or enough to answer the question asked).
    pub fn complete(&self) -> bool {
        !self.timed_out
    }
}

struct Search<'a> {
    puzzle: &'a Puzzle,
    opts: SolveOptions,
    /// Colour counts of the steps from index i on (for pruning).
    step_colors: Vec<[u32; MAX_COLORS]>,
    accum: bool,
    seen: HashSet<(u8, Field, Popped), BuildHasherDefault<FastHash>>,
    path: Vec<Placement>,
    out: Solved,
    start: Instant,
    stop: bool,
}

/// Solves `puzzle` exhaustively.
pub fn solve(puzzle: &Puzzle, opts: SolveOptions) -> Solved {
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
        step_colors,
        accum,
        seen: HashSet::default(),
        path: Vec::new(),
        out: Solved::default(),
        start: Instant::now(),
        stop: false,
    };
    s.visit(0, puzzle.field, Popped::default());
    s.out
}

impl Search<'_> {
    fn visit(&mut self, depth: usize, field: Field, total: Popped) {
        let Some(&step) = self.puzzle.steps.get(depth) else { return };
        if hopeless(&self.puzzle.goal, &field, &self.step_colors[depth], &total) {
            return;
        }
        // States one step from the end are not stored: their subtree is one step deep, and
        // they are most of the nodes (the table would cost more than it saves).
        let key_total = if self.accum { total } else { Popped::default() };
        if depth + 1 < self.puzzle.steps.len() && !self.seen.insert((depth as u8, field, key_total)) {
            return;
        }
        let mut popped_children = Vec::new();
        match step {
            Step::Pair(p) => {
                for &placement in Placement::for_pair(p.is_double()) {
                    self.child(depth, &field, total, step, Some(placement), &mut popped_children);
                }
            }
            Step::Garbage(_) => self.child(depth, &field, total, step, None, &mut popped_children),
        }
    }

    /// Plays one placement of the step at `depth` and goes on from there. `popped` holds the
    /// outcomes of this step's placements that popped something: a placement that leaves the
    /// same field by the same pops is equivalent and skipped. (Without pops, two different
    /// placements never leave the same field.)
    fn child(
        &mut self,
        depth: usize,
        field: &Field,
        total: Popped,
        step: Step,
        placement: Option<Placement>,
        popped: &mut Vec<(Field, Vec<Link>)>,
    ) {
        if self.stop {
            return;
        }
        self.out.nodes += 1;
        if self.out.nodes.is_multiple_of(1024) && self.opts.timeout.is_some_and(|t| self.start.elapsed() > t) {
            self.out.timed_out = true;
            self.stop = true;
            return;
        }
        let mut next = *field;
        let mut links = Vec::new();
        if !play_step(&mut next, step, placement, &mut links) {
            return;
        }
        if !links.is_empty() {
            if popped.iter().any(|(f, l)| *f == next && *l == links) {
                return;
            }
            popped.push((next, links.clone()));
        }
        let mut after = total;
        links.iter().for_each(|l| after.add(l));
        self.path.extend(placement);
        if self.puzzle.goal.is_met(&links, &after, &next) {
            self.found();
        } else {
            self.visit(depth + 1, next, after);
        }
        if placement.is_some() {
            self.path.pop();
        }
    }

    fn found(&mut self) {
        self.out.count += 1;
        if self.out.solutions.len() < self.opts.keep.unwrap_or(64) {
            self.out.solutions.push(self.path.clone());
        }
        if self.opts.stop_after.is_some_and(|n| self.out.count >= n) {
            self.stop = true;
        }
    }
}

/// A multiply-rotate hasher (FxHash style) for the transposition table: the keys are
/// bitboards, for which SipHash's protection against chosen keys is not needed.
#[derive(Default)]
struct FastHash(u64);

impl Hasher for FastHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

/// True if no continuation can meet `goal`: counts what could still pop (field plus the
/// colours of the remaining steps; a colour with fewer than 4 can never pop again).
fn hopeless(goal: &Goal, field: &Field, steps: &[u32; MAX_COLORS], total: &Popped) -> bool {
    let on_field: [u32; MAX_COLORS] = std::array::from_fn(|c| field.plane(Puyo::color(c)).count());
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::games::nazo::goal::MainGoal;
    use crate::games::nazo::io::pon2;
    use crate::games::nazo::sim::replay;
    use crate::games::puyo::rules::Pair;

    /// Reference: every one of the 22^k sequences replayed, no dedup, no pruning.
    fn brute_force(puzzle: &Puzzle) -> bool {
        fn go(puzzle: &Puzzle, prefix: &mut Vec<Placement>) -> bool {
            let r = replay(puzzle, prefix);
            if r.solved_at.is_some() {
                return true;
            }
            if r.failed || prefix.len() == puzzle.moves() {
                return false;
            }
            Placement::ALL.iter().any(|&p| {
                prefix.push(p);
                let hit = go(puzzle, prefix);
                prefix.pop();
                hit
            })
        }
        go(puzzle, &mut Vec::new())
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn verdict_matches_brute_force(p in arb_puzzle()) {
            let s = solve(&p, SolveOptions::default());
            prop_assert_eq!(s.count > 0, brute_force(&p), "{}", pon2::write(&p));
            for sol in &s.solutions {
                prop_assert!(replay(&p, sol).solved_at.is_some(), "{}", pon2::write(&p));
            }
        }
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
    }
}
