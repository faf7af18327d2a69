//! Deals (paper §3, spec §4): the backward-play generator, whose deals are solvable by
//! construction, and plain random deals (may be unsolvable).

use rand::Rng;
use rand::seq::SliceRandom;

use super::layout::Layout;
use super::rules::{Kind, Move, kind_sizes};
use crate::lab::rng::GameRng;

/// A generated deal, its solution, and how many attempts the removal process needed.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The kind at each position.
    pub kinds: Vec<Kind>,
    /// The removal history replayed forward: a solution.
    pub solution: Vec<Move>,
    /// Removal attempts until one did not stall.
    pub attempts: u32,
}

/// Attempts before giving up: a stall needs exactly one free position, which uniform pair
/// selection hits in a few percent of attempts (spec §4).
pub const MAX_ATTEMPTS: u32 = 1000;

/// Backward play: remove uniformly chosen pairs of free positions (kinds ignored) until none
/// remain, restarting on a stall; then give kind k to the (shuffled) pairs 2k and 2k+1.
/// Replaying the removals is a solution, since each pair was free at its time.
pub fn backward_play(layout: &Layout, rng: &mut GameRng) -> Result<Generated, String> {
    for attempt in 1..=MAX_ATTEMPTS {
        let mut present = layout.all();
        let mut pairs = Vec::with_capacity(layout.len() / 2);
        while !present.is_empty() {
            let free: Vec<usize> = layout.free_tiles(&present).iter().collect();
            if free.len() < 2 {
                break;
            }
            let i = rng.random_range(0..free.len());
            let j = (i + 1 + rng.random_range(0..free.len() - 1)) % free.len();
            let m = Move::new(free[i], free[j]);
            m.tiles().into_iter().for_each(|t| present.remove(t));
            pairs.push(m);
        }
        if !present.is_empty() {
            continue;
        }
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.shuffle(rng);
        let mut kinds = vec![0; layout.len()];
        let mut slot = 0;
        for (kind, size) in kind_sizes(layout.len()).into_iter().enumerate() {
            for _ in 0..size / 2 {
                pairs[order[slot]].tiles().into_iter().for_each(|t| kinds[t] = kind as Kind);
                slot += 1;
            }
        }
        return Ok(Generated { kinds, solution: pairs, attempts: attempt });
    }
    Err(format!("layout {}: backward play stalled {MAX_ATTEMPTS} times", layout.name))
}

/// A uniformly random deal: the kinds shuffled over the positions.
pub fn random_deal(layout: &Layout, rng: &mut GameRng) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = kind_sizes(layout.len())
        .into_iter()
        .enumerate()
        .flat_map(|(k, size)| std::iter::repeat_n(k as Kind, size as usize))
        .collect();
    kinds.shuffle(rng);
    kinds
}

/// Where experiment deals come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DealSource {
    /// The backward-play generator (solvable).
    Generator,
    /// A plain shuffle.
    Random,
}

/// Random stream for deals, apart from the players' streams.
const DEAL_STREAM: u64 = 0xDEA1;

/// Deal `index` of a batch with base `seed`: the same for every command given the same
/// seed, so `eval --random` and `oracle --random` see the same deals.
pub fn deal(layout: &Layout, source: DealSource, seed: u64, index: u64) -> Result<Vec<Kind>, String> {
    let mut rng = crate::lab::rng::sub_rng(seed, index, DEAL_STREAM);
    match source {
        DealSource::Generator => backward_play(layout, &mut rng).map(|g| g.kinds),
        DealSource::Random => Ok(random_deal(layout, &mut rng)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::rules::Game;

    /// Kinds of four, and the removal history replays (the solver proving every instance
    /// solvable is tested in `ai::solver`).
    #[test]
    fn generator_deals_replay() {
        for name in ["mini_turtle", "mini_spider", "fortress72", "turtle"] {
            let layout = load(name).unwrap();
            let seeds = if name == "turtle" { 5 } else { 40 };
            for seed in 0..seeds {
                let g = backward_play(&layout, &mut crate::lab::rng::game_rng(seed, 7)).unwrap();
                let mut counts = vec![0; 64];
                g.kinds.iter().for_each(|&k| counts[k as usize] += 1);
                assert!(counts.iter().all(|&c| c == 0 || c == 4), "{name}: kinds of 4");
                let mut game = Game::new(layout.clone(), g.kinds.clone());
                g.solution.iter().for_each(|&m| game.play(m).unwrap());
                assert!(game.is_won());
            }
        }
    }
}
