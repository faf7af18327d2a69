//! The perfect-information ("peeking") solver (spec §9, an extension): sees every kind and
//! decides whether a deal can be cleared. Depth-first search over remaining-tile sets with
//! three reductions:
//! - kinds whose remaining tiles are all free are removed at once (never harmful: they
//!   block nothing they are needed for);
//! - a dead-position test: a tile with every other remaining tile of its kind beneath it
//!   (transitively) can never be freed together with a partner;
//! - a table of positions already proved lost.

use std::collections::HashSet;

use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::rules::{Kind, Move, legal_moves};
use crate::games::shanghai::tileset::TileSet;

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
    /// The solution found, in play order.
    pub solution: Vec<Move>,
}

/// Nodes searched before giving up on a deal.
pub const NODE_BUDGET: u64 = 2_000_000;

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
        Solver { layout, kinds, mates, beneath, lost: HashSet::new(), nodes: 0, budget: NODE_BUDGET, solution: Vec::new() }
    }

    /// Decides the position `present`.
    pub fn solve(&mut self, present: TileSet) -> Verdict {
        match self.search(present) {
            Some(true) => Verdict::Solvable,
            Some(false) => Verdict::Unsolvable,
            None => Verdict::Undecided,
        }
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
        let mut moves = legal_moves(self.layout, &present, self.kinds);
        // Moves that uncover more tiles first: they tend to reach solutions sooner.
        moves.sort_by_key(|m| std::cmp::Reverse(m.tiles().iter().map(|&t| self.layout.below[t].len()).sum::<usize>()));
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

    /// Some remaining tile has all remaining tiles of its kind beneath it.
    fn is_dead(&self, present: &TileSet) -> bool {
        present.iter().any(|i| {
            let rest = self.mates[i].and(present);
            !rest.is_empty() && rest.minus(&self.beneath[i]).is_empty()
        })
    }
}

/// Whether a full deal is solvable with perfect information.
pub fn solve_deal(layout: &Layout, kinds: &[Kind]) -> Verdict {
    Solver::new(layout, kinds).solve(layout.all())
}
