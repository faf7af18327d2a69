//! The depth-D tree search of the virtual player (paper §4.2, spec §6.4) in one sampled
//! world, where every kind is known.
//!
//! E(S_d, a) = 1 or 0 when the best child value is 1 or 0, their average with E_own(S_d, a)
//! in between, and E_own(S_d, a) at d = D. Root moves have d = 1. After each move the
//! certain moves are applied until none is left; they do not count as depth. A cleared
//! position is worth 1 and a stuck one 0, at every depth (or only below D, by parameter);
//! so is one the solver proves lost ([`PlayerParams::dead_ends`]), which also prunes it.

use super::PlayerParams;
use super::certain::{certain_move, remaining_counts};
use super::features::{PositionStats, action_value, features};
use super::solver::Solver;
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::rules::{Kind, Move, legal_moves};
use crate::games::shanghai::tileset::TileSet;

/// A search in one world.
pub struct Search<'a> {
    pub layout: &'a Layout,
    /// The kind of every position (sampled where hidden from the player).
    pub kinds: &'a [Kind],
    pub n_kinds: usize,
    pub params: &'a PlayerParams,
    /// The peeking solver of this world, for its dead-end test.
    pub solver: Solver<'a>,
}

impl Search<'_> {
    /// The value of each of `moves` in the position `present`.
    pub fn root_values(&mut self, present: &TileSet, moves: &[Move]) -> Vec<f64> {
        let stats = PositionStats::of(self.layout, present, self.kinds);
        moves.iter().map(|&m| self.value(present, stats, m, 1)).collect()
    }

    /// The position after `m` and then every certain move.
    pub fn advance(&self, present: &TileSet, m: Move) -> TileSet {
        let mut next = *present;
        m.tiles().into_iter().for_each(|t| next.remove(t));
        let mut remaining = remaining_counts(&next, self.kinds, self.n_kinds);
        while let Some(c) = certain_move(self.layout, &next, self.kinds, &remaining, &self.params.weights) {
            c.mv.tiles().into_iter().for_each(|t| next.remove(t));
            remaining[self.kinds[c.mv.a as usize] as usize] -= 2;
        }
        next
    }

    /// E(S_d, m).
    fn value(&mut self, present: &TileSet, stats: PositionStats, m: Move, d: u32) -> f64 {
        let own = action_value(&self.params.weights, features(self.layout, present, stats, self.kinds, m));
        if d >= self.params.depth && !self.params.terminal_at_depth {
            return own;
        }
        let next = self.advance(present, m);
        if next.is_empty() {
            return 1.0;
        }
        let moves = legal_moves(self.layout, &next, self.kinds);
        if moves.is_empty() || (self.params.dead_ends && self.solver.provably_lost(next)) {
            return 0.0;
        }
        if d >= self.params.depth {
            return own;
        }
        let stats = PositionStats::of(self.layout, &next, self.kinds);
        let mut best: f64 = 0.0;
        for mi in moves {
            best = best.max(self.value(&next, stats, mi, d + 1));
            if best >= 1.0 {
                return 1.0;
            }
        }
        if best <= 0.0 { 0.0 } else { (own + best) / 2.0 }
    }
}
