//! The perfect-information ("peeking") solver (spec §9, an extension): sees every kind and
//! decides whether a deal can be cleared.
//!
//! Removing tiles only ever frees tiles, so once every kind's tiles are split into pairs (a
//! "matching"), greedily removing any free matched pair clears the deal if any order does.
//! The search therefore branches on matchings, not on moves: it commits one kind at a time
//! to one of its (at most three) pairings and removes committed pairs as soon as they are
//! free. Every solution commits every kind, so branching on a single kind per node is
//! complete, and no move order is ever searched twice. Reductions:
//! - committed pairs that are free are removed at once (safe by the argument above); a kind
//!   whose remaining tiles are all free is committed arbitrarily; certain-move rule 3 (three
//!   free, one of them floating: pair the other two) commits without branching;
//! - a dead-position test: two tiles can pair only if neither lies (transitively) on the
//!   other; a kind with no admissible matching is dead, one with a single one is committed
//!   to it; pairs plus "lies on" must not form a cycle (a pair removed together can never
//!   wait for itself);
//! - a table of positions (remaining tiles plus commitments) already proved lost.
//!
//! Search times are heavy-tailed, so the search restarts with doubling node budgets and
//! shuffled branching orders; proofs of lost positions are kept across restarts.

use std::collections::HashSet;

use rand::Rng;

use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::rules::{Kind, Move};
use crate::games::shanghai::tileset::TileSet;
use crate::lab::rng::{GameRng, game_rng, mix64};

/// The verdict on a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Solvable,
    Unsolvable,
    /// The node budget ran out first.
    Undecided,
}

/// No partner committed yet.
const NONE: u8 = u8::MAX;

/// Committed partners: `partner[t]` is the tile `t` will be removed with, or [`NONE`].
type Partners = [u8; 256];

/// Solver state for one deal.
pub struct Solver<'a> {
    layout: &'a Layout,
    /// For each tile, the other tiles of its kind.
    mates: Vec<TileSet>,
    beneath: Vec<TileSet>,
    lost: HashSet<u64>,
    pub nodes: u64,
    budget: u64,
    /// Shuffles branching orders after the first restart.
    rng: GameRng,
    restart: u32,
    /// The solution found, in play order.
    pub solution: Vec<Move>,
}

/// Nodes searched before giving up on a deal.
pub const NODE_BUDGET: u64 = 2_000_000;
/// Node budget of the first run; each restart doubles it.
const FIRST_BUDGET: u64 = 2_000;

/// Two pairs of tiles that a kind's four remaining tiles are split into.
type Pairing = [(usize, usize); 2];

/// The three ways to split four tiles (by index) into two pairs.
const PAIRINGS: [[(usize, usize); 2]; 3] = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

impl<'a> Solver<'a> {
    pub fn new(layout: &'a Layout, kinds: &'a [Kind]) -> Solver<'a> {
        assert!(layout.len() <= NONE as usize, "tile indices fit in a byte");
        let mates = (0..layout.len())
            .map(|i| {
                let mut s = TileSet::EMPTY;
                (0..layout.len()).filter(|&j| j != i && kinds[j] == kinds[i]).for_each(|j| s.insert(j));
                s
            })
            .collect();
        let beneath = (0..layout.len()).map(|i| layout.beneath(i)).collect();
        Solver {
            layout,
            mates,
            beneath,
            lost: HashSet::new(),
            nodes: 0,
            budget: 0,
            rng: game_rng(0, 0),
            restart: 0,
            solution: Vec::new(),
        }
    }

    /// Decides the position `present`.
    pub fn solve(&mut self, present: TileSet) -> Verdict {
        let mut budget = FIRST_BUDGET;
        while self.nodes < NODE_BUDGET {
            self.budget = (self.nodes + budget).min(NODE_BUDGET);
            self.solution.clear();
            match self.search(present, [NONE; 256]) {
                Some(true) => return Verdict::Solvable,
                Some(false) => return Verdict::Unsolvable,
                None => {}
            }
            budget *= 2;
            self.restart += 1;
        }
        Verdict::Undecided
    }

    /// The remaining tiles of `t`'s kind, `t` included.
    fn group(&self, present: &TileSet, t: usize) -> TileSet {
        let mut g = self.mates[t].and(present);
        g.insert(t);
        g
    }

    /// Two tiles can be removed together only if neither lies (transitively) on the other.
    fn can_pair(&self, a: usize, b: usize) -> bool {
        !self.beneath[a].contains(b) && !self.beneath[b].contains(a)
    }

    /// `t`'s committed partner: its commitment, or the last other tile of its kind.
    fn partner(&self, present: &TileSet, partners: &Partners, t: usize) -> Option<usize> {
        if partners[t] != NONE {
            return Some(partners[t] as usize);
        }
        let rest = self.mates[t].and(present);
        (rest.len() == 1).then(|| rest.iter().next()).flatten()
    }

    /// `None` when the budget ran out.
    fn search(&mut self, mut present: TileSet, mut partners: Partners) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let depth = self.solution.len();
        let free = loop {
            let free = self.remove_committed(&mut present, &mut partners);
            if present.is_empty() {
                return Some(true);
            }
            match self.propagate(&present, &free, &mut partners) {
                None => {
                    self.solution.truncate(depth);
                    return Some(false);
                }
                Some(false) => break free,
                Some(true) => {}
            }
        };
        let key = self.key(&present, &partners);
        if self.lost.contains(&key) {
            self.solution.truncate(depth);
            return Some(false);
        }
        let branches = self.branches(&present, &free, &partners);
        for pairing in branches {
            let mut next = partners;
            for (a, b) in pairing {
                next[a] = b as u8;
                next[b] = a as u8;
            }
            let inner = self.solution.len();
            match self.search(present, next) {
                Some(true) => return Some(true),
                Some(false) => self.solution.truncate(inner),
                None => {
                    self.solution.truncate(depth);
                    return None;
                }
            }
        }
        self.solution.truncate(depth);
        self.lost.insert(key);
        Some(false)
    }

    /// Removes free committed pairs until none is left; returns the free tiles after.
    fn remove_committed(&mut self, present: &mut TileSet, partners: &mut Partners) -> TileSet {
        loop {
            let free = self.layout.free_tiles(present);
            let mut progress = false;
            for t in free.iter() {
                if !present.contains(t) {
                    continue;
                }
                let group = self.group(present, t);
                if partners[t] == NONE && group.len() == 4 && group.minus(&free).is_empty() {
                    // All four free: any pairing is removable now.
                    let g: Vec<usize> = group.iter().collect();
                    for (a, b) in [(g[0], g[1]), (g[2], g[3])] {
                        partners[a] = b as u8;
                        partners[b] = a as u8;
                    }
                }
                if let Some(p) = self.partner(present, partners, t)
                    && free.contains(p)
                    && present.contains(p)
                {
                    self.solution.push(Move::new(t, p));
                    present.remove(t);
                    present.remove(p);
                    progress = true;
                }
            }
            if !progress {
                return free;
            }
        }
    }

    /// Commits kinds without branching (rule 3, forced matchings) and tests for a dead
    /// position: `None` if dead, else whether anything was committed.
    fn propagate(&self, present: &TileSet, free: &TileSet, partners: &mut Partners) -> Option<bool> {
        let n = self.layout.len();
        let floating = self.layout.floating(present);
        // unit[t]: the node of tile t in the ordering graph (its pair's smaller tile).
        let mut unit: Vec<usize> = (0..n).collect();
        let mut seen = TileSet::EMPTY;
        let mut changed = false;
        for t in present.iter() {
            if seen.contains(t) {
                continue;
            }
            let group = self.group(present, t);
            seen = seen.or(&group);
            let tiles: Vec<usize> = group.iter().collect();
            if self.partner(present, partners, t).is_some() {
                // Committed (or two left): the pairs are fixed.
                for &a in &tiles {
                    let b = self.partner(present, partners, a)?;
                    if !self.can_pair(a, b) {
                        return None;
                    }
                    unit[a] = a.min(b);
                }
                continue;
            }
            if tiles.len() != 4 {
                continue;
            }
            let admissible: Vec<Pairing> = PAIRINGS
                .iter()
                .map(|m| m.map(|(i, j)| (tiles[i], tiles[j])))
                .filter(|m| m.iter().all(|&(a, b)| self.can_pair(a, b)))
                .collect();
            let chosen = match admissible.as_slice() {
                [] => return None,
                [only] => Some(*only),
                _ => self.rule3(&tiles, free, &floating),
            };
            if let Some(m) = chosen {
                for (a, b) in m {
                    partners[a] = b as u8;
                    partners[b] = a as u8;
                    unit[a] = a.min(b);
                    unit[b] = a.min(b);
                }
                changed = true;
            }
        }
        if self.has_cycle(present, &unit) { None } else { Some(changed) }
    }

    /// Certain-move rule 3 with all kinds known: four tiles left, three free, one of those
    /// floating: pair the other two free ones (and the floating one with the fourth).
    fn rule3(&self, tiles: &[usize], free: &TileSet, floating: &TileSet) -> Option<Pairing> {
        let blocked: Vec<usize> = tiles.iter().copied().filter(|&t| !free.contains(t)).collect();
        let [d] = blocked.as_slice() else { return None };
        let f = tiles.iter().copied().find(|&t| t != *d && floating.contains(t))?;
        let mut others = tiles.iter().copied().filter(|&t| t != *d && t != f);
        let pair = (others.next()?, others.next()?);
        (self.can_pair(f, *d) && self.can_pair(pair.0, pair.1)).then_some([pair, (f, *d)])
    }

    /// The table key: the remaining tiles and the commitments of kinds with four left.
    fn key(&self, present: &TileSet, partners: &Partners) -> u64 {
        let committed =
            |t: usize| partners[t] != NONE && partners[t] as usize > t && self.mates[t].and(present).len() == 3;
        present
            .iter()
            .filter(|&t| committed(t))
            .fold(present.hash64(), |h, t| mix64(h ^ ((t as u64) << 8 | partners[t] as u64)))
    }

    /// The pairings to try: those of one uncommitted kind with at least two free tiles (the
    /// most constrained such kind), pairings that free more tiles first.
    fn branches(&mut self, present: &TileSet, free: &TileSet, partners: &Partners) -> Vec<Pairing> {
        let noise = if self.restart == 0 { 0 } else { 3 };
        let mut best: Option<(usize, Vec<(usize, Pairing)>)> = None;
        let mut seen = TileSet::EMPTY;
        for t in free.iter() {
            if seen.contains(t) || partners[t] != NONE {
                continue;
            }
            let group = self.group(present, t);
            seen = seen.or(&group);
            if group.len() != 4 || group.and(free).len() < 2 {
                continue;
            }
            let tiles: Vec<usize> = group.iter().collect();
            let options: Vec<(usize, Pairing)> = PAIRINGS
                .iter()
                .map(|m| m.map(|(i, j)| (tiles[i], tiles[j])))
                .filter(|m| m.iter().all(|&(a, b)| self.can_pair(a, b)))
                .map(|m| {
                    // Tiles unblocked by the pairs removable now.
                    let gain: usize = m
                        .iter()
                        .filter(|&&(a, b)| free.contains(a) && free.contains(b))
                        .map(|&(a, b)| 1 + self.beneath[a].or(&self.beneath[b]).and(present).len())
                        .sum();
                    (gain * 4, m)
                })
                .collect();
            let options: Vec<(usize, Pairing)> =
                options.into_iter().map(|(k, m)| (k + self.rng.random_range(0..=noise), m)).collect();
            let score = options.len() * 1000 + self.rng.random_range(0..=noise);
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, options));
            }
        }
        let Some((_, mut options)) = best else { return Vec::new() };
        options.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        options.into_iter().map(|(_, m)| m).collect()
    }

    /// Whether "tile lies on tile" between units (pairs merged) has a cycle.
    fn has_cycle(&self, present: &TileSet, unit: &[usize]) -> bool {
        let n = self.layout.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for t in present.iter() {
            for u in self.layout.below[t].and(present).iter() {
                if unit[t] == unit[u] {
                    return true;
                }
                edges[unit[t]].push(unit[u]);
            }
        }
        // Iterative three-colour depth-first search.
        let mut colour = vec![0u8; n];
        for start in present.iter().filter(|&t| unit[t] == t) {
            if colour[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            colour[start] = 1;
            while let Some(&mut (v, ref mut next)) = stack.last_mut() {
                if let Some(&w) = edges[v].get(*next) {
                    *next += 1;
                    match colour[w] {
                        0 => {
                            colour[w] = 1;
                            stack.push((w, 0));
                        }
                        1 => return true,
                        _ => {}
                    }
                } else {
                    colour[v] = 2;
                    stack.pop();
                }
            }
        }
        false
    }
}

/// Whether a full deal is solvable with perfect information.
pub fn solve_deal(layout: &Layout, kinds: &[Kind]) -> Verdict {
    Solver::new(layout, kinds).solve(layout.all())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::generator::{DealSource, deal};
    use crate::games::shanghai::rules::Game;

    /// A solvable verdict comes with a legal removal sequence that clears the deal.
    #[test]
    fn solutions_replay() {
        let layout = load("mini_turtle").unwrap();
        let mut solved = 0;
        for index in 0..16 {
            let kinds = deal(&layout, DealSource::Random, 5, index).unwrap();
            let mut solver = Solver::new(&layout, &kinds);
            if solver.solve(layout.all()) == Verdict::Solvable {
                let mut game = Game::new(layout.clone(), kinds.clone());
                solver.solution.iter().for_each(|&m| game.play(m).unwrap());
                assert!(game.is_won());
                solved += 1;
            }
        }
        assert!(solved >= 1, "no random mini-turtle deal solved");
    }
}
