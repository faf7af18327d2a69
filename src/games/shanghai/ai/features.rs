//! The action value (paper §4.2, spec §6.3): five features of a move a taking S to S′, one
//! weight each, squashed by the logistic function into the open interval (0, 1), so the
//! exact values 0 and 1 stay reserved for decided outcomes in the tree search.
//!
//! Decisions (spec §10.2): feature I counts distinct tiles (union) dominated by either tile,
//! in S; II counts legal moves (pairs); "change" is S′ minus S, with S′ the position just
//! after a (before certain moves); all counts use the kinds of the world being searched.

use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::level::Weights;
use crate::games::shanghai::rules::{Kind, Move, UNKNOWN};
use crate::games::shanghai::tileset::TileSet;

/// The weights used when a layout has no tuned preset.
pub const DEFAULT_WEIGHTS: Weights = Weights { dominated: 1.0, moves: 0.3, upper: -0.5, floating: 0.3, unknown: -0.5 };

impl Default for Weights {
    fn default() -> Self {
        DEFAULT_WEIGHTS
    }
}

impl Weights {
    /// The weights in feature order: dominated, moves, upper, floating, unknown.
    pub fn as_array(&self) -> [f64; 5] {
        [self.dominated, self.moves, self.upper, self.floating, self.unknown]
    }

    /// Weights from an array in the order of [`Weights::as_array`].
    pub fn from_array(w: [f64; 5]) -> Weights {
        Weights { dominated: w[0], moves: w[1], upper: w[2], floating: w[3], unknown: w[4] }
    }
}

/// What the features need to know about S, computed once per position: its free tiles and
/// how many of each known kind are free, from which a move's change in legal moves follows
/// by looking only at the tiles it frees.
#[derive(Clone, Debug)]
pub struct PositionStats {
    /// The free tiles of S.
    pub free: TileSet,
    free_of: [u8; 256],
}

impl PositionStats {
    /// The statistics of the tiles `present` on `layout`, whose kinds (or `UNKNOWN`) are `kinds`.
    pub fn of(layout: &Layout, present: &TileSet, kinds: &[Kind]) -> PositionStats {
        let free = layout.free_tiles(present);
        let mut free_of = [0u8; 256];
        free.iter().filter(|&t| kinds[t] != UNKNOWN).for_each(|t| free_of[kinds[t] as usize] += 1);
        PositionStats { free, free_of }
    }

    /// Legal moves after removing the free pair `a`, `b` from `present` minus those before,
    /// without listing either (tiles of unknown kind pair with none): c free tiles of a kind
    /// make c(c-1)/2 pairs, so a tile leaving (joining) a kind's c free ones changes the
    /// count by -(c-1) (+c), and only tiles beside or under the pair can become free.
    fn moves_change(&self, layout: &Layout, present: &TileSet, kinds: &[Kind], [a, b]: [usize; 2]) -> i32 {
        debug_assert!(self.free.contains(a) && self.free.contains(b) && kinds[a] != UNKNOWN);
        let mut after = *present;
        after.remove(a);
        after.remove(b);
        let mut free_of = self.free_of;
        let mut change = 0;
        for t in [a, b] {
            free_of[kinds[t] as usize] -= 1;
            change -= free_of[kinds[t] as usize] as i32;
        }
        let near =
            [a, b].iter().fold(TileSet::EMPTY, |n, &t| n.or(&layout.below[t]).or(&layout.left[t]).or(&layout.right[t]));
        for t in near.and(&after).minus(&self.free).iter() {
            if kinds[t] != UNKNOWN && layout.is_free(&after, t) {
                change += free_of[kinds[t] as usize] as i32;
                free_of[kinds[t] as usize] += 1;
            }
        }
        change
    }
}

/// The five features I-V of move `m` in the position `present` (with `stats` of it).
pub fn features(layout: &Layout, present: &TileSet, stats: &PositionStats, kinds: &[Kind], m: Move) -> [f64; 5] {
    let [a, b] = m.tiles();
    let dominated = layout.dominated_by(present, a).or(&layout.dominated_by(present, b)).len();
    let mut gone = TileSet::EMPTY;
    gone.insert(a);
    gone.insert(b);
    let after = present.minus(&gone);
    let moves = stats.moves_change(layout, present, kinds, [a, b]) as f64;
    let upper = -(m.tiles().iter().filter(|&&t| layout.positions[t].z >= 1).count() as f64);
    let floating = layout.floating_change(present, &gone) as f64;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::rules::legal_moves;
    use crate::games::shanghai::rules::tests::along_random_play;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(32)))]

        /// The changes in legal moves and floating tiles that features II and IV take from
        /// the tiles near a move equal those of counting both positions whole, for every
        /// legal move along random plays, with every kind known and as the player sees them.
        #[test]
        fn local_changes_match_whole_counts(seed in 0u64..10_000, name in prop::sample::select(vec!["turtle", "mini_spider", "fortress72"])) {
            let layout = load(name).unwrap();
            along_random_play(&layout, seed, 2, |game| {
                let present = game.present;
                let floating = layout.floating(&present);
                for x in present.iter() {
                    prop_assert_eq!(layout.is_floating(&present, x), floating.contains(x));
                }
                let seen = game.observation().kinds;
                for kinds in [&game.kinds, &seen] {
                    let stats = PositionStats::of(&layout, &present, kinds);
                    let before = legal_moves(&layout, &present, kinds).len() as i32;
                    for m in legal_moves(&layout, &present, kinds) {
                        let mut gone = TileSet::EMPTY;
                        m.tiles().into_iter().for_each(|t| gone.insert(t));
                        let after = present.minus(&gone);
                        let moves_after = legal_moves(&layout, &after, kinds).len() as i32;
                        prop_assert_eq!(stats.moves_change(&layout, &present, kinds, m.tiles()), moves_after - before);
                        let floating_after = layout.floating(&after).len() as i32;
                        prop_assert_eq!(layout.floating_change(&present, &gone), floating_after - floating.len() as i32);
                    }
                }
                Ok(())
            })?;
        }

        /// Each feature of every legal move, as the player sees the kinds, equals its
        /// definition counted on the whole positions before and after the move.
        #[test]
        fn features_match_their_definitions(seed in 0u64..10_000, name in prop::sample::select(vec!["turtle", "mini_spider"])) {
            let layout = load(name).unwrap();
            along_random_play(&layout, seed, 3, |game| {
                let (present, kinds) = (game.present, game.observation().kinds);
                let stats = PositionStats::of(&layout, &present, &kinds);
                let moves_before = legal_moves(&layout, &present, &kinds).len() as f64;
                for m in legal_moves(&layout, &present, &kinds) {
                    let [a, b] = m.tiles();
                    let mut after = present;
                    after.remove(a);
                    after.remove(b);
                    let dominated = present
                        .iter()
                        .filter(|&y| layout.dominated_by(&present, a).contains(y) || layout.dominated_by(&present, b).contains(y))
                        .count();
                    let upper = [a, b].iter().filter(|&&t| layout.positions[t].z > 0).count();
                    let floating = layout.floating(&after).len() as f64 - layout.floating(&present).len() as f64;
                    let revealed =
                        after.iter().filter(|&t| layout.is_visible(&after, t) && !layout.is_visible(&present, t)).count();
                    let expected = [
                        dominated as f64,
                        legal_moves(&layout, &after, &kinds).len() as f64 - moves_before,
                        -(upper as f64),
                        floating,
                        -(revealed as f64),
                    ];
                    prop_assert_eq!(features(&layout, &present, &stats, &kinds, m), expected);
                }
                Ok(())
            })?;
        }
    }

    /// The action value is the logistic function of the weighted features, kept off 0 and 1.
    #[test]
    fn action_values_are_the_logistic_of_the_weighted_sum() {
        let weights = Weights::from_array([1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(weights, Weights { dominated: 1.0, moves: 2.0, upper: 3.0, floating: 4.0, unknown: 5.0 });
        assert_eq!(weights.as_array(), [1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(Weights::default(), DEFAULT_WEIGHTS);
        // The defaults count each feature's progress for the move: dominated tiles freed, more
        // legal moves, upper tiles taken (III falls), more floating tiles, tiles revealed (V falls).
        for (i, progress) in [1.0, 1.0, -1.0, 1.0, -1.0].into_iter().enumerate() {
            let mut f = [0.0; 5];
            f[i] = progress;
            assert!(action_value(&DEFAULT_WEIGHTS, f) > 0.5, "feature {i}");
        }
        let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
        for (f, x) in [([0.0; 5], 0.0), ([1.0, 0.0, 0.0, 0.0, -1.0], -4.0), ([0.5, -1.0, 1.0, 0.0, 0.2], 2.5)] {
            assert!((action_value(&weights, f) - logistic(x)).abs() < 1e-12, "{f:?}");
        }
        assert_eq!(action_value(&weights, [100.0, 0.0, 0.0, 0.0, 0.0]), 1.0 - 1e-9);
        assert_eq!(action_value(&weights, [-100.0, 0.0, 0.0, 0.0, 0.0]), 1e-9);
    }
}
