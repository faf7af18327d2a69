//! The rules of Shanghai (paper §2, spec §2): tiles of kinds, free tiles, moves, the end of
//! a game, and what a player may see.

mod faces;
mod game;
mod observation;

pub use faces::{FLOWERS, Face, faces};
pub use game::Game;
pub use observation::{Observation, UNKNOWN};

use super::layout::Layout;
use super::tileset::TileSet;

/// A tile kind, `0..kinds`. Every kind has 4 tiles (one kind of 2 when the layout's size is
/// 2 mod 4, spec §10.8).
pub type Kind = u8;

/// Removing two free tiles of one kind; `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Move {
    /// The lower tile index.
    pub a: u16,
    /// The higher tile index.
    pub b: u16,
}

impl Move {
    /// The removal of tiles `a` and `b`, in either order (stored low index first).
    pub fn new(a: usize, b: usize) -> Move {
        Move { a: a.min(b) as u16, b: a.max(b) as u16 }
    }

    /// Both tile indices, lower first.
    pub fn tiles(&self) -> [usize; 2] {
        [self.a as usize, self.b as usize]
    }
}

/// How many tiles each kind has in a deal of `n` tiles: n/4 kinds of 4, then a kind of 2
/// if n is 2 mod 4.
pub fn kind_sizes(n: usize) -> Vec<u8> {
    let mut sizes = vec![4; n / 4];
    if n % 4 == 2 {
        sizes.push(2);
    }
    sizes
}

/// The legal moves (unordered pairs of free tiles of one kind) of the tiles in `present`
/// whose kinds are given; tiles of kind [`UNKNOWN`] are never free, so never paired.
pub fn legal_moves(layout: &Layout, present: &TileSet, kinds: &[Kind]) -> Vec<Move> {
    let free: Vec<usize> = layout.free_tiles(present).iter().collect();
    let mut moves = Vec::new();
    for (k, &a) in free.iter().enumerate() {
        for &b in &free[k + 1..] {
            if kinds[a] == kinds[b] && kinds[a] != UNKNOWN {
                moves.push(Move::new(a, b));
            }
        }
    }
    moves
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::generator::{DealSource, deal};
    use crate::games::shanghai::layout::tests::free_by_cells;
    use proptest::prelude::*;

    #[test]
    fn turtle_start_matches_the_spec() {
        let t = load("turtle").unwrap();
        assert!(!t.is_empty());
        let per_level: Vec<usize> = (0..5).map(|z| t.positions.iter().filter(|p| p.z == z).count()).collect();
        assert_eq!(per_level, vec![87, 36, 16, 4, 1]);
        let all = t.all();
        assert_eq!(t.free_tiles(&all).len(), 35);
        let hidden: Vec<usize> = all.iter().filter(|&i| !t.is_visible(&all, i)).collect();
        assert_eq!(hidden.len(), 56);
        let hidden_per_level: Vec<usize> =
            (0..3).map(|z| hidden.iter().filter(|&&i| t.positions[i].z == z).count()).collect();
        assert_eq!(hidden_per_level, vec![36, 16, 4]);
        let mini = load("mini_turtle").unwrap();
        let all = mini.all();
        assert_eq!(mini.free_tiles(&all).len(), 11);
        assert_eq!(all.iter().filter(|&i| !mini.is_visible(&all, i)).count(), 12);
    }

    #[test]
    fn kind_sizes_add_a_pair_only_for_sizes_two_mod_four() {
        assert_eq!(kind_sizes(144), vec![4; 36]);
        assert_eq!(kind_sizes(8), vec![4, 4]);
        assert_eq!(kind_sizes(74), [vec![4; 18], vec![2]].concat());
        assert_eq!(kind_sizes(2), vec![2]);
    }

    /// Visits each position of a random play (moves drawn from `stream`) of the random deal
    /// `seed` of `layout`, the last one included.
    pub(crate) fn along_random_play(
        layout: &std::sync::Arc<Layout>,
        seed: u64,
        stream: u64,
        mut visit: impl FnMut(&Game) -> Result<(), TestCaseError>,
    ) -> Result<(), TestCaseError> {
        let mut game = Game::new(layout.clone(), deal(layout, DealSource::Random, seed, 0).unwrap());
        let mut rng = crate::lab::rng::game_rng(seed, stream);
        loop {
            visit(&game)?;
            let moves = game.legal_moves();
            if moves.is_empty() {
                return Ok(());
            }
            game.play(moves[rand::Rng::random_range(&mut rng, 0..moves.len())]).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(64)))]

        /// Free tiles agree with a brute-force check on cells, visible tiles stay visible and
        /// every move removes exactly two tiles, along random plays of random deals.
        #[test]
        fn free_tiles_match_brute_force(seed in 0u64..10_000, name in prop::sample::select(vec!["turtle", "mini_spider", "fortress72"])) {
            let layout = load(name).unwrap();
            let mut before: Option<Observation> = None;
            along_random_play(&layout, seed, 1, |game| {
                for i in game.present.iter() {
                    prop_assert_eq!(layout.is_free(&game.present, i), free_by_cells(&layout, &game.present, i));
                }
                let after = game.observation();
                if let Some(before) = &before {
                    prop_assert_eq!(game.present.len(), before.present.len() - 2);
                    for i in game.present.iter() {
                        prop_assert!(before.kinds[i] == UNKNOWN || after.kinds[i] == before.kinds[i]);
                    }
                }
                before = Some(after);
                Ok(())
            })?;
        }

        /// The legal-move generator (each move listed once) and the rule check
        /// `Game::is_legal` agree with brute force on every pair of positions: two distinct
        /// present tiles of one kind, both free by cells. Along random plays of random deals.
        #[test]
        fn legal_moves_match_the_rule_check(seed in 0u64..10_000, name in prop::sample::select(vec!["mini_turtle", "mini_spider", "fortress72"])) {
            let layout = load(name).unwrap();
            let n = layout.len();
            along_random_play(&layout, seed, 2, |game| {
                let free: Vec<bool> = (0..n).map(|i| game.present.contains(i) && free_by_cells(&layout, &game.present, i)).collect();
                let listed = game.legal_moves();
                let generated: std::collections::HashSet<Move> = listed.iter().copied().collect();
                prop_assert_eq!(generated.len(), listed.len(), "a move listed twice");
                for a in 0..n {
                    for b in a + 1..n {
                        let m = Move::new(a, b);
                        let legal = free[a] && free[b] && game.kinds[a] == game.kinds[b];
                        prop_assert_eq!(game.is_legal(m), legal, "{:?}", m);
                        prop_assert_eq!(generated.contains(&m), legal, "{:?}", m);
                    }
                    let same_tile = Move { a: a as u16, b: a as u16 };
                    prop_assert!(!game.is_legal(same_tile), "a tile paired with itself");
                }
                prop_assert!(!game.is_legal(Move::new(0, n)), "a tile beyond the layout");
                Ok(())
            })?;
        }
    }
}
