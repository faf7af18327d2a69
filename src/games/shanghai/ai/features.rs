//! The action value (paper §4.2, spec §6.3): five features of a move a taking S to S′, one
//! weight each, squashed by the logistic function into the open interval (0, 1), so the
//! exact values 0 and 1 stay reserved for decided outcomes in the tree search.
//!
//! Decisions (spec §10.2): feature I counts distinct tiles (union) dominated by either tile,
//! in S; II counts legal moves (pairs); "change" is S′ minus S, with S′ the position just
//! after a (before certain moves); all counts use the kinds of the world being searched.

use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::level::Weights;
use crate::games::shanghai::rules::{Kind, Move, count_moves};
use crate::games::shanghai::tileset::TileSet;

/// The weights used when a layout has no tuned preset.
pub const DEFAULT_WEIGHTS: Weights = Weights { dominated: 1.0, moves: 0.3, upper: -0.5, floating: 0.3, unknown: -0.5 };

impl Default for Weights {
    fn default() -> Self {
        DEFAULT_WEIGHTS
    }
}

impl Weights {
    pub fn as_array(&self) -> [f64; 5] {
        [self.dominated, self.moves, self.upper, self.floating, self.unknown]
    }

    pub fn from_array(w: [f64; 5]) -> Weights {
        Weights { dominated: w[0], moves: w[1], upper: w[2], floating: w[3], unknown: w[4] }
    }
}

/// What the features need to know about S, computed once per position.
#[derive(Clone, Copy, Debug)]
pub struct PositionStats {
    pub moves: usize,
    pub floating: usize,
}

impl PositionStats {
    pub fn of(layout: &Layout, present: &TileSet, kinds: &[Kind]) -> PositionStats {
        PositionStats { moves: count_moves(layout, present, kinds), floating: layout.floating(present).len() }
    }
}

/// The five features I-V of move `m` in the position `present` (with `stats` of it).
pub fn features(layout: &Layout, present: &TileSet, stats: PositionStats, kinds: &[Kind], m: Move) -> [f64; 5] {
    let [a, b] = m.tiles();
    let dominated = layout.dominated_by(present, a).or(&layout.dominated_by(present, b)).len();
    let mut after = *present;
    after.remove(a);
    after.remove(b);
    let moves = count_moves(layout, &after, kinds) as f64 - stats.moves as f64;
    let upper = -(m.tiles().iter().filter(|&&t| layout.positions[t].z >= 1).count() as f64);
    let floating = layout.floating(&after).len() as f64 - stats.floating as f64;
    // Only tiles under a or b can change from unknown to known.
    let under = layout.below[a].or(&layout.below[b]).and(present);
    let revealed =
        under.iter().filter(|&t| !layout.is_visible(present, t) && layout.is_visible(&after, t)).count() as f64;
    [dominated as f64, moves, upper, floating, -revealed]
}

/// E_own(S, a) = σ(w · f), strictly between 0 and 1.
pub fn action_value(weights: &Weights, f: [f64; 5]) -> f64 {
    let x: f64 = weights.as_array().iter().zip(f).map(|(w, f)| w * f).sum();
    (1.0 / (1.0 + (-x).exp())).clamp(1e-9, 1.0 - 1e-9)
}
