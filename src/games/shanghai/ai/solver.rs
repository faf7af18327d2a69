//! The perfect-information ("peeking") solver (spec §9, an extension): sees every kind and
//! decides whether a deal can be cleared. Depth-first search over remaining-tile sets with
//! three reductions:
//! - kinds whose remaining tiles are all free are removed at once (never harmful: they
//!   block nothing they are needed for), and certain-move rule 3 (three free, one
//!   floating: take the other two) is applied without branching;
//! - a dead-position test: two tiles can pair only if neither lies (transitively) on the
//!   other; each kind needs a perfect matching of such pairs, and where the matching is
//!   forced, the pairs plus "lies on" must not form a cycle (a pair removed together can
//!   never wait for itself);
//! - a table of positions already proved lost.
//!
//! Search times are heavy-tailed (an early wrong pairing can hide a huge lost subtree), so
//! the search restarts with doubling node budgets and shuffled move orders; proofs of lost
//! positions are kept across restarts.

use std::collections::HashSet;

use rand::Rng;

use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::rules::{Kind, Move, legal_moves};
use crate::games::shanghai::tileset::TileSet;
use crate::lab::rng::{GameRng, game_rng};

/// The verdict on a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Solvable,
    Unsolvable,
    /// The node budget ran out first.
    Undecided,
}

/// Solver state for one deal.
pub struct Solver<'a> {
    layout: &'a Layout,
    kinds: &'a [Kind],
    /// For each tile, the other tiles of its kind.
    mates: Vec<TileSet>,
    beneath: Vec<TileSet>,
    lost: HashSet<u64>,
    pub nodes: u64,
    budget: u64,
    /// Shuffles move orders after the first restart.
    rng: GameRng,
    restart: u32,
    /// The solution found, in play order.
    pub solution: Vec<Move>,
}

/// Nodes searched before giving up on a deal.
pub const NODE_BUDGET: u64 = 2_000_000;
/// Node budget of the first run; each restart doubles it.
const FIRST_BUDGET: u64 = 2_000;

impl<'a> Solver<'a> {
    pub fn new(layout: &'a Layout, kinds: &'a [Kind]) -> Solver<'a> {
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
            kinds,
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
            match self.search(present) {
                Some(true) => return Verdict::Solvable,
                Some(false) => return Verdict::Unsolvable,
                None => {}
            }
            budget *= 2;
            self.restart += 1;
        }
        Verdict::Undecided
    }

    /// `None` when the budget ran out.
    fn search(&mut self, mut present: TileSet) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let depth = self.solution.len();
        let free = self.layout.free_tiles(&present);
        // Kinds whose remaining tiles are all free.
        for i in free.iter() {
            let rest = self.mates[i].and(&present);
            if present.contains(i) && rest.minus(&free).is_empty() {
                let mut group = rest;
                group.insert(i);
                let tiles: Vec<usize> = group.iter().collect();
                for pair in tiles.chunks(2) {
                    self.solution.push(Move::new(pair[0], pair[1]));
                    pair.iter().for_each(|&t| present.remove(t));
                }
            }
        }
        if self.solution.len() == depth
            && let Some(m) = self.rule3(&present, &free)
        {
            self.solution.push(m);
            m.tiles().into_iter().for_each(|t| present.remove(t));
        }
        if self.solution.len() > depth {
            let r = self.search(present);
            if r != Some(true) {
                self.solution.truncate(depth);
            }
            return r;
        }
        if present.is_empty() {
            return Some(true);
        }
        if self.is_dead(&present) {
            return Some(false);
        }
        let key = present.hash64();
        if self.lost.contains(&key) {
            return Some(false);
        }
        let moves = legal_moves(self.layout, &present, self.kinds);
        // Moves that unblock more tiles first: they tend to reach solutions sooner. Restarts
        // perturb the order.
        let noise = if self.restart == 0 { 0 } else { 4 };
        let mut keyed: Vec<(usize, Move)> = moves
            .into_iter()
            .map(|m| {
                let blocked: usize = m.tiles().iter().map(|&t| self.beneath[t].and(&present).len()).sum();
                (blocked * 4 + self.rng.random_range(0..=noise), m)
            })
            .collect();
        keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let moves: Vec<Move> = keyed.into_iter().map(|(_, m)| m).collect();
        for m in moves {
            let mut next = present;
            m.tiles().into_iter().for_each(|t| next.remove(t));
            self.solution.push(m);
            match self.search(next)? {
                true => return Some(true),
                false => self.solution.truncate(depth),
            }
        }
        self.lost.insert(key);
        Some(false)
    }

    /// Certain-move rule 3 with all kinds known: a kind with four tiles left, three of them
    /// free and one of those floating: the other two (property-tested safe in `certain`).
    fn rule3(&self, present: &TileSet, free: &TileSet) -> Option<Move> {
        let floating = self.layout.floating(present);
        for f in floating.and(free).iter() {
            let rest = self.mates[f].and(present);
            let rest_free = rest.and(free);
            if rest.len() == 3 && rest_free.len() == 2 {
                let mut pair = rest_free.iter();
                return Some(Move::new(pair.next()?, pair.next()?));
            }
        }
        None
    }

    /// The dead-position test described in the module doc.
    fn is_dead(&self, present: &TileSet) -> bool {
        let n = self.layout.len();
        // unit[t]: the node of tile t in the ordering graph (its forced pair's smaller tile).
        let mut unit: Vec<usize> = (0..n).collect();
        let mut seen = TileSet::EMPTY;
        for t in present.iter() {
            if seen.contains(t) {
                continue;
            }
            let mut group = self.mates[t].and(present);
            group.insert(t);
            seen = seen.or(&group);
            let tiles: Vec<usize> = group.iter().collect();
            let can_pair = |a: usize, b: usize| !self.beneath[a].contains(b) && !self.beneath[b].contains(a);
            let matchings: Vec<[(usize, usize); 2]> = match tiles.len() {
                2 => {
                    if !can_pair(tiles[0], tiles[1]) {
                        return true;
                    }
                    unit[tiles[1]] = tiles[0];
                    continue;
                }
                4 => [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]]
                    .into_iter()
                    .map(|m| m.map(|(i, j)| (tiles[i], tiles[j])))
                    .filter(|m| m.iter().all(|&(a, b)| can_pair(a, b)))
                    .collect(),
                _ => continue,
            };
            match matchings.as_slice() {
                [] => return true,
                [only] => only.iter().for_each(|&(a, b)| unit[b] = a),
                _ => {}
            }
        }
        self.has_cycle(present, &unit)
    }

    /// Whether "tile lies on tile" between units (forced pairs merged) has a cycle.
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
