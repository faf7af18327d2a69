//! Assignment plans and their evaluation (paper §4, spec §4–5): a plan names the foundation of
//! every stack card; under a plan the real position becomes a stack game, whose 4-foundation
//! success is approximated from exact 1- and 2-foundation values:
//! P ≈ Π_{i<j} p_ij / (Π_i p_i)².

use serde::{Deserialize, Serialize};

use super::rules::{Card, DECK, FOUNDATIONS, FULL, next_rank, slot_of};
use super::stack_game::{MAX_CHAIN, Position};

const NONE: u8 = u8::MAX;

/// The destination foundation of each stack card, by card id.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    label: [u8; DECK],
    /// `claims[rank]`: foundations whose slot for `rank` a stack card of this plan takes.
    claims: [u8; 14],
}

impl Default for Plan {
    fn default() -> Self {
        Plan { label: [NONE; DECK], claims: [0; 14] }
    }
}

/// The foundations and stacks a plan is evaluated on (the player's view of the table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub foundations: [u8; FOUNDATIONS],
    pub stacks: Vec<Vec<Card>>,
}

impl Plan {
    /// The foundation this plan sends `card` to.
    pub fn label(&self, card: Card) -> Option<u8> {
        let l = self.label[card.id as usize];
        (l != NONE).then_some(l)
    }

    /// Foundations whose slot for `rank` is still open on `table` and not taken by this plan.
    pub fn free_slots(&self, table: &Table, rank: u8) -> impl Iterator<Item = u8> + '_ {
        let open: Vec<u8> =
            (0..FOUNDATIONS).filter(|&f| table.foundations[f] < slot_of(f, rank)).map(|f| f as u8).collect();
        let claims = self.claims[rank as usize];
        open.into_iter().filter(move |&f| claims >> f & 1 == 0)
    }

    /// This plan with `card` (just stacked) sent to foundation `f`.
    pub fn with(&self, card: Card, f: u8) -> Plan {
        let mut p = self.clone();
        p.label[card.id as usize] = f;
        p.claims[card.rank as usize] |= 1 << f;
        p
    }

    /// The plans that remain possible after a card of `card.rank` reached foundation `f`
    /// (before `table` is updated): `card` itself left its stack (`from_stack`) or was drawn.
    /// A plan that gave that slot to another stack card moves it to the slot `card` had in
    /// the plan, or (a drawn card) to each other free slot; none left drops the plan.
    pub fn after_play(&self, table: &Table, card: Card, f: u8, from_stack: bool) -> Vec<Plan> {
        let r = card.rank as usize;
        let mut p = self.clone();
        let own = if from_stack { self.label(card) } else { None };
        if from_stack {
            p.label[card.id as usize] = NONE;
        }
        let displaced = (self.claims[r] >> f & 1 == 1 && own != Some(f))
            .then(|| table.stacks.iter().flatten().find(|c| c.rank == card.rank && self.label(**c) == Some(f)))
            .flatten()
            .copied();
        p.claims[r] &= !(1 << f);
        match (displaced, own) {
            (None, Some(g)) => {
                p.claims[r] &= !(1 << g);
                vec![p]
            }
            (None, None) => vec![p],
            (Some(d), Some(g)) => {
                p.label[d.id as usize] = g;
                vec![p]
            }
            (Some(d), None) => {
                let mut after = table.clone();
                after.foundations[f as usize] += 1;
                p.free_slots(&after, card.rank).map(|g| p.with(d, g)).collect()
            }
        }
    }
}

impl Table {
    /// The stack tops this plan would play now, in order: each top whose planned foundation
    /// needs it next, repeatedly. Returns (stack, foundation) moves.
    pub fn cascade(&self, plan: &Plan) -> Vec<(u8, u8)> {
        let mut heights = self.foundations;
        let mut tops: Vec<usize> = self.stacks.iter().map(Vec::len).collect();
        let mut moves = Vec::new();
        loop {
            let before = moves.len();
            for (s, top) in tops.iter_mut().enumerate() {
                while *top > 0 {
                    let card = self.stacks[s][*top - 1];
                    let Some(f) = plan.label(card) else { break };
                    if next_rank(f as usize, heights[f as usize]) != Some(card.rank) {
                        break;
                    }
                    heights[f as usize] += 1;
                    *top -= 1;
                    moves.push((s as u8, f));
                }
            }
            if moves.len() == before {
                return moves;
            }
        }
    }
}

/// How a two-foundation stack game with more stock cards than the pair limit is valued
/// (an asobi bound on time; the paper solves every pair exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LargePairs {
    /// The pair factor p_ij / (p_i·p_j) of the pair cut down to the limit, keeping the tails
    /// of both chains (where the stacks' constraints gather).
    Tail,
    /// Pair factor 1: the two foundations taken as independent.
    One,
}

impl LargePairs {
    /// The better rule for `stacks` stacks, measured with `calc play --plans 50 --lookahead 0
    /// --deals 200 --large-pairs tail|one`: 3 stacks 53.5% (tail) vs 34.5% (one), 4 stacks
    /// 54.5% (tail) vs 85.0% (one); the tail factor over-penalises 4-stack positions.
    pub fn for_stacks(stacks: usize) -> LargePairs {
        if stacks >= 4 { LargePairs::One } else { LargePairs::Tail }
    }
}

/// The stack-game values of one table under one plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// p_i: each foundation alone.
    pub single: [f64; FOUNDATIONS],
    /// p_ij for the pairs (0,1), (0,2), (0,3), (1,2), (1,3), (2,3).
    pub pair: [f64; 6],
    /// The combined 4-foundation estimate.
    pub value: f64,
}

const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

impl Estimate {
    const ZERO: Estimate = Estimate { single: [0.0; FOUNDATIONS], pair: [0.0; 6], value: 0.0 };
}

/// Evaluates `table` under `plan` after the plan's own cascade (spec §4 conversion). Pairs
/// whose stock holds more than `pair_limit` cards are not solved exactly but valued by
/// `large` (see [`LargePairs`]).
pub fn estimate(table: &Table, plan: &Plan, pair_limit: usize, large: LargePairs) -> Estimate {
    let stacks = table.stacks.len();
    let mut heights = table.foundations;
    let mut tops: Vec<usize> = table.stacks.iter().map(Vec::len).collect();
    for (s, _) in table.cascade(plan) {
        let card = table.stacks[s as usize][tops[s as usize] - 1];
        heights[plan.label(card).expect("cascade follows labels") as usize] += 1;
        tops[s as usize] -= 1;
    }
    // Nodes: stack cards first (by stack, bottom first), then stock slots.
    let mut node_of_slot = [[NONE; FULL as usize + 1]; FOUNDATIONS];
    let mut succ = [0u64; DECK];
    let mut on_stack = vec![0u64; stacks];
    let mut n = 0usize;
    for (s, stack) in table.stacks.iter().enumerate() {
        for (d, &card) in stack[..tops[s]].iter().enumerate() {
            let Some(f) = plan.label(card) else { return Estimate::ZERO };
            let k = slot_of(f as usize, card.rank);
            if k <= heights[f as usize] || node_of_slot[f as usize][k as usize] != NONE {
                return Estimate::ZERO; // a plan the table no longer allows
            }
            node_of_slot[f as usize][k as usize] = n as u8;
            if d > 0 {
                succ[n] |= 1 << (n - 1); // the card above is played before the one beneath
            }
            on_stack[s] |= 1 << n;
            n += 1;
        }
    }
    let stack_nodes = n;
    let mut chain_nodes: [Vec<usize>; FOUNDATIONS] = Default::default();
    for f in 0..FOUNDATIONS {
        // The head rule: the next card of a foundation, when in the stock, is left out.
        let mut prev: Option<usize> = None;
        for k in heights[f] + 1..=FULL {
            let node = match node_of_slot[f][k as usize] {
                NONE if k == heights[f] + 1 => continue,
                NONE => {
                    chain_nodes[f].push(n);
                    n += 1;
                    n - 1
                }
                x => x as usize,
            };
            if let Some(p) = prev {
                succ[p] |= 1 << node;
            }
            prev = Some(node);
        }
    }
    // Transitive closure (Warshall on bit rows).
    for k in 0..n {
        for i in 0..n {
            if succ[i] >> k & 1 == 1 {
                succ[i] |= succ[k];
            }
        }
    }
    if (0..n).any(|i| succ[i] >> i & 1 == 1) {
        return Estimate::ZERO; // a cycle: some card waits for itself
    }
    let reach_from_stack: Vec<u64> = on_stack
        .iter()
        .map(|&cards| (0..stack_nodes).filter(|&i| cards >> i & 1 == 1).fold(0u64, |acc, i| acc | succ[i]))
        .collect();
    let forbid =
        |z: usize| reach_from_stack.iter().enumerate().fold(0u8, |acc, (s, &r)| acc | (((r >> z & 1) as u8) << s));
    let masks: Vec<Vec<u8>> = chain_nodes.iter().map(|c| c.iter().map(|&z| forbid(z)).collect()).collect();
    let mut est = Estimate::ZERO;
    for (single, chain) in est.single.iter_mut().zip(&masks) {
        debug_assert!(chain.len() <= MAX_CHAIN);
        *single = Position::single(stacks, chain).value();
    }
    let product: f64 = est.single.iter().product();
    if product == 0.0 {
        return est;
    }
    let cross = |a: usize, b: usize| -> Vec<u8> {
        chain_nodes[a]
            .iter()
            .map(|&x| chain_nodes[b].iter().position(|&y| succ[x] >> y & 1 == 1).unwrap_or(chain_nodes[b].len()) as u8)
            .collect()
    };
    let mut pairs = 1.0;
    for (k, &(a, b)) in PAIRS.iter().enumerate() {
        let (ca, cb) = (cross(a, b), cross(b, a));
        est.pair[k] = if masks[a].len() + masks[b].len() <= pair_limit {
            Position::pair(stacks, &masks[a], &masks[b], &ca, &cb).value()
        } else if large == LargePairs::One {
            est.single[a] * est.single[b]
        } else {
            // Too big to solve here: the pair factor of the last `pair_limit` cards in
            // foundation order (where the stacks' constraints gather).
            let (na, nb) = split_limit(masks[a].len(), masks[b].len(), pair_limit);
            let (oa, ob) = (masks[a].len() - na, masks[b].len() - nb);
            let shift = |c: &[u8], from: usize, off: usize| {
                c[from..].iter().map(|&x| x.saturating_sub(off as u8)).collect::<Vec<u8>>()
            };
            let (ta, tb) = (&masks[a][oa..], &masks[b][ob..]);
            let head = Position::pair(stacks, ta, tb, &shift(&ca, oa, ob), &shift(&cb, ob, oa));
            let (ha, hb) = (Position::single(stacks, ta).value(), Position::single(stacks, tb).value());
            let factor = if ha * hb > 0.0 { head.value() / (ha * hb) } else { 1.0 };
            est.single[a] * est.single[b] * factor
        };
        pairs *= est.pair[k];
    }
    est.value = pairs / (product * product);
    est
}

/// How many cards of two chains of `a` and `b` cards to keep so that at most `limit` remain:
/// the longer chain is cut first, then both alike.
fn split_limit(a: usize, b: usize, limit: usize) -> (usize, usize) {
    let half = limit / 2;
    match (a <= half, b <= half) {
        (true, _) => (a, (limit - a).min(b)),
        (_, true) => ((limit - b).min(a), b),
        _ => (half, limit - half),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a table from "rank-foundation" stack strings, e.g. "8-2 5-2 Q-2 A-1".
    fn table_with_plan(foundations: [u8; 4], stacks: &[&str]) -> (Table, Plan) {
        let rank = |c: char| "A23456789TJQK".find(c).unwrap() as u8 + 1;
        let mut plan = Plan::default();
        let mut id = 0u8;
        let stacks = stacks
            .iter()
            .map(|s| {
                s.split_whitespace()
                    .map(|t| {
                        let card = Card { rank: rank(t.chars().next().unwrap()), id };
                        id += 1;
                        plan = plan.with(card, t[2..].parse().unwrap());
                        card
                    })
                    .collect()
            })
            .collect();
        (Table { foundations, stacks }, plan)
    }

    #[test]
    fn the_papers_worked_example() {
        // Spec §4: 3 stacks, 29 stock cards, P = 0.007281463 in the paper.
        let (table, plan) =
            table_with_plan([2, 4, 0, 3], &["8-2 5-2 Q-2 A-1", "9-1 A-3 Q-0 J-0 6-3", "K-3 K-1 9-3 5-3 J-1"]);
        let e = estimate(&table, &plan, 24, LargePairs::Tail);
        let single = [0.3910466, 0.8333333, 0.06856813, 0.9583333];
        let pair = [0.2739771, 0.01547976, 0.3513412, 0.05273561, 0.7986111, 0.05320396];
        for (f, (got, want)) in e.single.iter().zip(single).enumerate() {
            assert!((got - want).abs() < 1e-7, "p{f} = {got}");
        }
        for (k, (got, want)) in e.pair.iter().zip(pair).enumerate() {
            assert!((got - want).abs() < 1e-7, "pair {k} = {got}");
        }
        assert!((e.value - 0.007281463).abs() < 1e-8, "P = {}", e.value);
    }

    #[test]
    fn a_cycle_or_a_blocked_card_scores_zero() {
        // 6-0 on top of 7-0 is fine.
        let (ok, plan) = table_with_plan([0; 4], &["7-0 6-0", "", ""]);
        assert!(estimate(&ok, &plan, 10, LargePairs::Tail).value > 0.0);
        // 6-0 under 7-0 can never be freed.
        let (bad, plan) = table_with_plan([0; 4], &["6-0 7-0", "", ""]);
        assert_eq!(estimate(&bad, &plan, 10, LargePairs::Tail).value, 0.0);
    }

    #[test]
    fn cascade_follows_the_plan() {
        let (table, plan) = table_with_plan([0, 0, 0, 0], &["2-0 A-0", "2-1", ""]);
        assert_eq!(table.cascade(&plan), vec![(0, 0), (0, 0), (1, 1)]);
    }
}
