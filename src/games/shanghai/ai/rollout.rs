//! The greedy player, asobi's rollout policy: it sees only what a player sees and plays a
//! certain move, else the move of highest action value, a move that is no guess first. It
//! clears most mini-turtle deals and somewhat under half of the turtle's generator deals, in
//! well under a millisecond a game, so the risk check can play it to the end of many sampled
//! worlds after each candidate move ([`RiskJudge::Rollouts`](super::risk::RiskJudge)): a
//! world it fails to clear counts the risks the move leaves for later, which the lock judge
//! cannot see.

use std::sync::Arc;

use super::certain::certain_move;
use super::features::{PositionStats, action_value, features};
use super::is_guess;
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::level::Weights;
use crate::games::shanghai::rules::{Game, Kind, Move, Observation};
use crate::games::shanghai::tileset::TileSet;

/// The greedy player's move in `obs`; `None` when no move is legal.
pub fn greedy(obs: &Observation, weights: &Weights) -> Option<Move> {
    if let Some(c) = certain_move(&obs.layout, &obs.present, &obs.kinds, &obs.remaining, weights) {
        return Some(c.mv);
    }
    let stats = PositionStats::of(&obs.layout, &obs.present, &obs.kinds);
    let key = |m: Move| {
        let value = action_value(weights, features(&obs.layout, &obs.present, &stats, &obs.kinds, m));
        (!is_guess(obs, &stats.free, m), value)
    };
    // The first of equal keys, in tile order.
    obs.legal_moves().into_iter().map(|m| (key(m), m)).reduce(|b, c| if c.0 > b.0 { c } else { b }).map(|(_, m)| m)
}

/// Plays `game` to its end with [`greedy`]; true if cleared.
pub fn greedy_clears(game: &mut Game, weights: &Weights) -> bool {
    while let Some(m) = greedy(&game.observation(), weights) {
        game.play(m).expect("the greedy player plays legal moves");
    }
    game.is_won()
}

/// Whether the greedy player clears the deal `kinds` after playing `m` from `present`.
pub fn clears_after(layout: &Arc<Layout>, kinds: &[Kind], present: TileSet, m: Move, weights: &Weights) -> bool {
    let mut game = Game::new(layout.clone(), kinds.to_vec());
    game.present = present;
    game.play(m).expect("rollouts start with a legal move");
    greedy_clears(&mut game, weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::generator::{DealSource, deal};
    use crate::games::shanghai::rules::tests::along_random_play;
    use crate::lab::rng::game_rng;
    use proptest::prelude::*;
    use rand::seq::SliceRandom;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(32)))]

        /// Along random plays, the greedy move is legal whenever a move is, and scrambling the
        /// hidden tiles does not change it.
        #[test]
        fn greedy_moves_are_legal_and_blind_to_hidden_tiles(seed in 0u64..10_000, name in prop::sample::select(vec!["turtle", "mini_turtle"])) {
            let layout = load(name).unwrap();
            let weights = Weights::default();
            along_random_play(&layout, seed, 2, |game| {
                let mv = greedy(&game.observation(), &weights);
                prop_assert_eq!(mv.is_some(), !game.legal_moves().is_empty());
                if let Some(m) = mv {
                    prop_assert!(game.is_legal(m));
                }
                let mut scrambled = game.clone();
                let hidden: Vec<usize> = game.observation().unknown().collect();
                let mut kinds: Vec<Kind> = hidden.iter().map(|&t| game.kinds[t]).collect();
                kinds.shuffle(&mut game_rng(seed, 9));
                hidden.iter().zip(kinds).for_each(|(&t, k)| scrambled.kinds[t] = k);
                prop_assert_eq!(greedy(&scrambled.observation(), &weights), mv);
                Ok(())
            })?;
        }

        /// The greedy move is the certain move when there is one, else a move that is no guess
        /// before a guess, then the highest action value, the first in tile order among equals.
        #[test]
        fn greedy_moves_follow_their_keys(seed in 0u64..10_000, name in prop::sample::select(vec!["turtle", "mini_turtle"])) {
            let layout = load(name).unwrap();
            let weights = Weights::default();
            along_random_play(&layout, seed, 6, |game| {
                let obs = game.observation();
                let Some(chosen) = greedy(&obs, &weights) else { return Ok(()) };
                if let Some(c) = certain_move(&layout, &obs.present, &obs.kinds, &obs.remaining, &weights) {
                    prop_assert_eq!(chosen, c.mv);
                    return Ok(());
                }
                let stats = PositionStats::of(&layout, &obs.present, &obs.kinds);
                let key = |m: Move| {
                    let value = action_value(&weights, features(&layout, &obs.present, &stats, &obs.kinds, m));
                    (!is_guess(&obs, &stats.free, m), value)
                };
                let moves = obs.legal_moves();
                let at = moves.iter().position(|&m| m == chosen).unwrap();
                prop_assert!(moves[..at].iter().all(|&m| key(m) < key(chosen)));
                prop_assert!(moves[at..].iter().all(|&m| key(m) <= key(chosen)));
                Ok(())
            })?;
        }
    }

    /// The greedy player clears most mini-turtle generator deals but not all: strong enough
    /// that its failures say something about a position, weak enough to need the search.
    #[test]
    fn greedy_clears_most_mini_turtle_deals() {
        let layout = load("mini_turtle").unwrap();
        let cleared = (0..200)
            .filter(|&s| {
                let mut game = Game::new(layout.clone(), deal(&layout, DealSource::Generator, 1, s).unwrap());
                greedy_clears(&mut game, &Weights::default())
            })
            .count();
        assert!((120..200).contains(&cleared), "cleared {cleared} of 200");
    }

    /// `clears_after` plays the move and then the greedy player on the deal it is given.
    #[test]
    fn clears_after_plays_the_move_then_the_greedy_player() {
        let layout = load("mini_turtle").unwrap();
        let weights = Weights::default();
        let mut outcomes = Vec::new();
        for s in 0..20 {
            let kinds = deal(&layout, DealSource::Generator, 1, s).unwrap();
            let game = Game::new(layout.clone(), kinds.clone());
            for m in game.legal_moves().into_iter().take(2) {
                let mut after = game.clone();
                after.play(m).unwrap();
                let cleared = greedy_clears(&mut after, &weights);
                assert_eq!(clears_after(&layout, &kinds, game.present, m, &weights), cleared);
                outcomes.push(cleared);
            }
        }
        assert!(outcomes.contains(&true) && outcomes.contains(&false), "{outcomes:?}");
    }
}
