//! The all-sequences proxies (spec §5.1): M2 (type 2: simultaneous pops and wasteful large
//! groups are likely) and M3c (type 3: near misses) count events over every placement
//! sequence, with the solver's equivalence (a same-colour pair's mirror placements are one
//! move). A table keyed on (step, field, popped so far) counts each state's continuations
//! once, so all steps are covered; a budget of placements bounds the work, and when a puzzle
//! exceeds it the first pairs that fit are enumerated instead (`pairs` says how many).

use std::collections::HashMap;

use crate::games::puyo::rules::{Field, Link};

use super::super::goal::{GoalKind, Popped};
use super::super::puzzle::{Puzzle, Step};
use super::super::solver::{Outcomes, placements, play};

/// Sequences counted below a state, by what happens in them (a sequence ends when it meets
/// the goal, when the steps run out, or when every placement is illegal or kills).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Sequences in all.
    pub sequences: u64,
    /// Sequences that meet the goal.
    pub solved: u64,
    /// Some link pops two or more groups.
    pub simultaneous: u64,
    /// Some popping group has five or more puyos.
    pub large: u64,
    /// Either of the two.
    pub either: u64,
    /// Some step reaches at least n-1 links of a chain goal n, yet the goal is never met.
    pub near_miss: u64,
}

impl Counts {
    const LEAF: Counts = Counts { sequences: 1, solved: 0, simultaneous: 0, large: 0, either: 0, near_miss: 0 };

    /// Adds a child reached by a step with these events: an event of the step counts for
    /// every continuation.
    fn add(&mut self, child: Counts, ev: Events) {
        let all = child.sequences;
        self.sequences += all;
        self.solved += child.solved;
        self.simultaneous += if ev.simultaneous { all } else { child.simultaneous };
        self.large += if ev.large { all } else { child.large };
        self.either += if ev.simultaneous || ev.large { all } else { child.either };
        self.near_miss += if ev.near { all - child.solved } else { child.near_miss };
    }
}

/// What one step's links show.
#[derive(Clone, Copy, Debug, Default)]
struct Events {
    simultaneous: bool,
    large: bool,
    near: bool,
}

fn events(links: &[Link], chain_goal: Option<usize>) -> Events {
    Events {
        simultaneous: links.iter().any(|l| l.groups().len() >= 2),
        large: links.iter().any(|l| l.groups().iter().any(|&(_, n)| n >= 5)),
        near: chain_goal.is_some_and(|n| links.len() + 1 >= n && !links.is_empty()),
    }
}

/// The enumeration's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Pair steps enumerated (all of them unless the budget was too small).
    pub pairs: usize,
    /// What the sequences did.
    pub counts: Counts,
    /// The first pair's placements alone: how many, and how many pop with an M2 event.
    pub first_step: (u64, u64),
    /// Placements played, retries included.
    pub plays: u64,
}

struct Walk<'a> {
    puzzle: &'a Puzzle,
    /// Steps before this index are enumerated.
    limit: usize,
    chain_goal: Option<usize>,
    accum: bool,
    table: HashMap<(u8, Field, Popped), Counts>,
    plays: u64,
    budget: u64,
}

impl Walk<'_> {
    /// Counts below the state before step `depth`; `None` once the budget is spent.
    fn count(&mut self, depth: usize, field: Field, total: Popped) -> Option<Counts> {
        if depth >= self.limit {
            return Some(Counts::LEAF);
        }
        let key = (depth as u8, field, if self.accum { total } else { Popped::default() });
        if let Some(&c) = self.table.get(&key) {
            return Some(c);
        }
        let step = self.puzzle.steps[depth];
        let (mut out, mut seen, mut links) = (Counts::default(), Outcomes::new(), Vec::new());
        for &placement in placements(step) {
            self.plays += 1;
            if self.plays > self.budget {
                return None;
            }
            let Some(next) = play(&field, step, placement, &mut links, &mut seen) else { continue };
            let mut after = total;
            links.iter().for_each(|l| after.add(l));
            let ev = events(&links, self.chain_goal);
            let child = if self.puzzle.goal.is_met(&links, &after, &next) {
                Counts { solved: 1, ..Counts::LEAF }
            } else {
                self.count(depth + 1, next, after)?
            };
            out.add(child, ev);
        }
        if out.sequences == 0 {
            out = Counts::LEAF;
        }
        self.table.insert(key, out);
        Some(out)
    }
}

/// Enumerates the placement sequences of `puzzle` within `budget` placements (then of fewer
/// pairs, down to one).
pub fn enumerate(puzzle: &Puzzle, budget: u64) -> Enumeration {
    let chain_goal = puzzle.goal.main.filter(|m| m.kind == GoalKind::Chain).map(|m| m.value as usize);
    let accum = puzzle.goal.main.is_some_and(|m| matches!(m.kind, GoalKind::AccumColor | GoalKind::AccumCount));
    // Step index after the k-th pair, for each k.
    let pair_ends: Vec<usize> =
        puzzle.steps.iter().enumerate().filter(|(_, s)| matches!(s, Step::Pair(_))).map(|(i, _)| i + 1).collect();
    let mut plays = 0;
    let mut found = None;
    for pairs in (1..=pair_ends.len()).rev() {
        // Garbage drops after the last enumerated pair belong to it.
        let limit = pair_ends.get(pairs).map_or(puzzle.steps.len(), |&next| next - 1);
        let mut walk = Walk { puzzle, limit, chain_goal, accum, table: HashMap::new(), plays: 0, budget };
        let counts = walk.count(0, puzzle.field, Popped::default());
        plays += walk.plays;
        if let Some(c) = counts {
            found = Some((pairs, c));
            break;
        }
    }
    let (pairs, counts) = found.unwrap_or((0, Counts::LEAF));
    Enumeration { pairs, counts, first_step: first_step(puzzle, chain_goal), plays }
}

/// The first pair's placements (after any garbage drops before it) and how many of them pop
/// with a simultaneous pop or a large group.
fn first_step(puzzle: &Puzzle, chain_goal: Option<usize>) -> (u64, u64) {
    let mut field = puzzle.field;
    let (mut seen, mut links) = (Outcomes::new(), Vec::new());
    for &step in &puzzle.steps {
        if matches!(step, Step::Garbage(_)) {
            match play(&field, step, None, &mut links, &mut seen) {
                Some(next) => field = next,
                None => return (0, 0),
            }
            continue;
        }
        let (mut n, mut hit) = (0, 0);
        for &placement in placements(step) {
            if play(&field, step, placement, &mut links, &mut seen).is_some() {
                let ev = events(&links, chain_goal);
                n += 1;
                hit += (ev.simultaneous || ev.large) as u64;
            }
        }
        return (n, hit);
    }
    (0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nazo::io::pon2;
    use crate::games::nazo::sim::replay;
    use crate::games::puyo::rules::Placement;

    /// Reference: replays every sequence of the 22^k placements, merging those whose
    /// placements give the same outcomes step by step (the solver's equivalence).
    fn brute(puzzle: &Puzzle) -> Counts {
        fn go(puzzle: &Puzzle, prefix: &mut Vec<Placement>, out: &mut Counts) {
            let mut seen = Vec::new();
            let mut any = false;
            for p in Placement::ALL {
                prefix.push(p);
                let r = replay(puzzle, prefix);
                let outcome = (r.fields.last().copied(), r.links.clone());
                if !r.failed && !seen.contains(&outcome) {
                    seen.push(outcome);
                    any = true;
                    if r.solved_at.is_none() && prefix.len() < puzzle.moves() {
                        go(puzzle, prefix, out);
                    } else {
                        let links: Vec<&Link> = r.links.iter().flatten().collect();
                        let chain_goal = puzzle.goal.main.map(|m| m.value as usize);
                        let solved = r.solved_at.is_some();
                        let simultaneous = links.iter().any(|l| l.groups().len() >= 2);
                        let large = links.iter().any(|l| l.groups().iter().any(|g| g.1 >= 5));
                        let near = r.links.iter().any(|l| !l.is_empty() && l.len() + 1 >= chain_goal.unwrap());
                        out.sequences += 1;
                        out.solved += solved as u64;
                        out.simultaneous += simultaneous as u64;
                        out.large += large as u64;
                        out.either += (simultaneous || large) as u64;
                        out.near_miss += (near && !solved) as u64;
                    }
                }
                prefix.pop();
            }
            if !any {
                out.sequences += 1;
            }
        }
        let mut out = Counts::default();
        go(puzzle, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn counts_match_replaying_every_sequence() {
        for q in [
            "field=0_rrbbrr&steps=brbr&goal=0_0_2_0_",
            "field=0_b.....rb....rr....&steps=bbrrbr&goal=0_0_2_0_",
            "field=0_bbg...bgg...gbb...ggb...&steps=bgbgbg&goal=0_0_4_0_",
        ] {
            let p = pon2::parse(q).unwrap();
            let e = enumerate(&p, u64::MAX);
            assert_eq!(e.pairs, p.moves(), "{q}");
            assert_eq!(e.counts, brute(&p), "{q}");
            assert!(e.counts.either > 0 && e.counts.near_miss > 0, "{q}: {:?}", e.counts);
        }
    }

    #[test]
    fn a_small_budget_enumerates_fewer_pairs() {
        let p = pon2::parse("field=0_bbg...bgg...gbb...ggb...&steps=bgbgbg&goal=0_0_4_0_").unwrap();
        let e = enumerate(&p, 2_000);
        assert!(e.pairs < 3 && e.pairs >= 1, "{e:?}");
        assert_eq!(e.first_step.0, 22);
    }
}
