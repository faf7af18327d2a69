//! Certain moves (paper §4.2 ①-④, spec §6.2): moves that can never cause a later failure,
//! played without search. Rules are tried in order 1 → 4, kinds in index order.

use super::features::{PositionStats, action_value, features};
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::level::Weights;
use crate::games::shanghai::rules::{Kind, Move, UNKNOWN};
use crate::games::shanghai::tileset::TileSet;

/// A certain move and the rule (1-4) that found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertainMove {
    /// The move.
    pub mv: Move,
    /// The certain-move rule, 1-4 (spec §6.2).
    pub rule: u8,
    /// Rule 4 only: the dominating tile with the other partner. Not always safe, as the
    /// paper's rule is not: the tile left behind can still end up locked (seen in sampled
    /// worlds), so a searcher that sees every kind may check both.
    pub alt: Option<Move>,
}

/// The first certain move of a position. `kinds` are what the mover knows ([`UNKNOWN`] for
/// hidden tiles), `remaining` the remaining count of each kind; `weights` pick rule 4's
/// partner (the pair with the higher action value).
pub fn certain_move(
    layout: &Layout,
    present: &TileSet,
    kinds: &[Kind],
    remaining: &[u8],
    weights: &Weights,
) -> Option<CertainMove> {
    let free = layout.free_tiles(present);
    let mut free_count = [0u8; 256];
    free.iter().for_each(|i| free_count[kinds[i] as usize] += 1);
    // The free tiles of kind k, in tile order (at most 4).
    let free_of = |k: usize| -> Vec<usize> { free.iter().filter(|&i| kinds[i] as usize == k).collect() };
    let found = |rule: u8, a: usize, b: usize| Some(CertainMove { mv: Move::new(a, b), rule, alt: None });
    // 1: a kind with exactly two tiles left, both free. 2: all four tiles of a kind free.
    for (rule, count) in [(1, 2), (2, 4)] {
        if let Some(k) = (0..remaining.len()).find(|&k| remaining[k] == count && free_count[k] == count) {
            let tiles = free_of(k);
            return found(rule, tiles[0], tiles[1]);
        }
    }
    let triples = || (0..remaining.len()).filter(|&k| remaining[k] == 4 && free_count[k] == 3).map(|k| (k, free_of(k)));
    // 3: three free, one floating: remove the other two.
    for (_, tiles) in triples() {
        if let Some(f) = tiles.iter().position(|&t| layout.is_floating(present, t)) {
            let others: Vec<usize> = (0..3).filter(|&i| i != f).map(|i| tiles[i]).collect();
            return found(3, others[0], others[1]);
        }
    }
    // 4: three free, one directly dominating a (known) tile of its kind: remove it with the
    // partner whose removal scores higher.
    for (k, tiles) in triples() {
        for &x in &tiles {
            let dominates_own =
                layout.dominated_by(present, x).iter().any(|y| kinds[y] == k as Kind && kinds[y] != UNKNOWN);
            if dominates_own {
                let stats = PositionStats::of(layout, present, kinds);
                let value = |p: usize| action_value(weights, features(layout, present, &stats, kinds, Move::new(x, p)));
                let mut partners = tiles.iter().copied().filter(|&p| p != x);
                let (p, q) = (partners.next()?, partners.next()?);
                let (best, other) = if value(q) > value(p) { (q, p) } else { (p, q) };
                return Some(CertainMove { mv: Move::new(x, best), rule: 4, alt: Some(Move::new(x, other)) });
            }
        }
    }
    None
}

/// Remaining count of each kind among `present` (all kinds known).
pub fn remaining_counts(present: &TileSet, kinds: &[Kind], n_kinds: usize) -> Vec<u8> {
    let mut counts = vec![0u8; n_kinds];
    present.iter().for_each(|i| counts[kinds[i] as usize] += 1);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shanghai::ai::solver::{Solver, Verdict};
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::generator::{DealSource, deal};
    use crate::games::shanghai::rules::tests::along_random_play;
    use crate::games::shanghai::rules::{Game, legal_moves};
    use proptest::prelude::*;
    use rand::Rng;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(64)))]

        /// Rules 1-3 never turn a solvable position unsolvable; for rule 4 (whose partner the
        /// paper leaves open, and a wrong one can deadlock) some pair with the dominating
        /// tile keeps it solvable. Checked with the peeking solver along random plays of
        /// random mini-layout deals.
        #[test]
        fn certain_moves_keep_solvable_positions_solvable(seed in 0u64..100_000, spider in any::<bool>()) {
            let layout = load(if spider { "mini_spider" } else { "mini_turtle" }).unwrap();
            let kinds = deal(&layout, DealSource::Random, seed, 0).unwrap();
            let mut game = Game::new(layout.clone(), kinds.clone());
            let mut rng = crate::lab::rng::game_rng(seed, 3);
            let weights = Weights::default();
            while !game.is_over() {
                let remaining = remaining_counts(&game.present, &kinds, 9);
                if let Some(c) = certain_move(&layout, &game.present, &kinds, &remaining, &weights)
                    && Solver::new(&layout, &kinds).solve(game.present) == Verdict::Solvable
                {
                    let solvable_after = |m: Move| {
                        let mut after = game.present;
                        m.tiles().into_iter().for_each(|t| after.remove(t));
                        Solver::new(&layout, &kinds).solve(after) == Verdict::Solvable
                    };
                    if c.rule < 4 {
                        prop_assert!(solvable_after(c.mv), "rule {}", c.rule);
                        prop_assert_eq!(c.alt, None);
                    } else {
                        // The other partner of the dominating tile.
                        let alt = c.alt.expect("rule 4 names its other pair");
                        let shared = alt.tiles().iter().filter(|t| c.mv.tiles().contains(t)).count();
                        prop_assert!(alt != c.mv && shared == 1);
                        let k = kinds[c.mv.a as usize];
                        let free = layout.free_tiles(&game.present);
                        let some_pair_ok = [c.mv.a as usize, c.mv.b as usize].iter().any(|&x| {
                            free.iter().filter(|&p| p != x && kinds[p] == k).any(|p| solvable_after(Move::new(x, p)))
                        });
                        prop_assert!(some_pair_ok, "rule 4");
                    }
                }
                let moves = legal_moves(&layout, &game.present, &kinds);
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
    }

    /// The first certain move as the spec words the rules: rule 1 on every kind in index
    /// order, then rule 2, 3 and 4; the tiles of a kind in tile order.
    fn spec_certain_move(
        layout: &Layout,
        present: &TileSet,
        kinds: &[Kind],
        remaining: &[u8],
        weights: &Weights,
    ) -> Option<CertainMove> {
        let free_of = |k: usize| -> Vec<usize> {
            present.iter().filter(|&t| kinds[t] as usize == k && layout.is_free(present, t)).collect()
        };
        let kinds_with = |left: u8, free: usize| {
            (0..remaining.len()).filter(move |&k| remaining[k] == left && free_of(k).len() == free)
        };
        let certain = |rule, a, b| CertainMove { mv: Move::new(a, b), rule, alt: None };
        if let Some(k) = kinds_with(2, 2).next() {
            return Some(certain(1, free_of(k)[0], free_of(k)[1]));
        }
        if let Some(k) = kinds_with(4, 4).next() {
            return Some(certain(2, free_of(k)[0], free_of(k)[1]));
        }
        for k in kinds_with(4, 3) {
            let free = free_of(k);
            if let Some(f) = free.iter().position(|&t| layout.is_floating(present, t)) {
                let others: Vec<usize> = free.iter().copied().filter(|&t| t != free[f]).collect();
                return Some(certain(3, others[0], others[1]));
            }
        }
        let stats = PositionStats::of(layout, present, kinds);
        for k in kinds_with(4, 3) {
            let free = free_of(k);
            let dominates_own = |x: usize| layout.dominated_by(present, x).iter().any(|y| kinds[y] as usize == k);
            if let Some(&x) = free.iter().find(|&&x| dominates_own(x)) {
                let value = |p: usize| action_value(weights, features(layout, present, &stats, kinds, Move::new(x, p)));
                let partners: Vec<usize> = free.iter().copied().filter(|&p| p != x).collect();
                let (best, other) = if value(partners[1]) > value(partners[0]) {
                    (partners[1], partners[0])
                } else {
                    (partners[0], partners[1])
                };
                return Some(CertainMove { mv: Move::new(x, best), rule: 4, alt: Some(Move::new(x, other)) });
            }
        }
        None
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(32)))]

        /// Along random plays of random deals, the certain move, from the kinds a player sees
        /// and from every kind, is the one of the rules as worded; remaining counts are counts.
        #[test]
        fn certain_moves_follow_the_rules_as_worded(
            seed in 0u64..10_000,
            name in prop::sample::select(vec!["turtle", "mini_turtle", "mini_spider"]),
            zero_weights in any::<bool>(),
        ) {
            let layout = load(name).unwrap();
            // Weights of 0 value both of rule 4's partners alike: the first one is taken.
            let weights = if zero_weights { Weights::from_array([0.0; 5]) } else { Weights::default() };
            along_random_play(&layout, seed, 4, |game| {
                let obs = game.observation();
                let n_kinds = obs.remaining.len();
                let counted: Vec<u8> =
                    (0..n_kinds).map(|k| game.present.iter().filter(|&t| game.kinds[t] as usize == k).count() as u8).collect();
                prop_assert_eq!(&remaining_counts(&game.present, &game.kinds, n_kinds), &counted);
                prop_assert_eq!(&obs.remaining, &counted);
                for kinds in [&obs.kinds, &game.kinds] {
                    prop_assert_eq!(
                        certain_move(&layout, &game.present, kinds, &counted, &weights),
                        spec_certain_move(&layout, &game.present, kinds, &counted, &weights)
                    );
                }
                Ok(())
            })?;
        }
    }
}
