//! Benchmarks of Calculation's hot paths for `asobi bench`.

use super::ai::{Planner, PlannerParams, play_deal};
use super::oracle;
use super::rules::Deal;
use crate::lab::bench::Bench;

/// Plays one 4-stack deal with L = 50, lookahead 0 (stack-game tables warm after the first).
fn decisions(seed: u64) -> u64 {
    let params = PlannerParams { plans: 50, lookahead: 0, ..PlannerParams::default() };
    let game = play_deal(&Deal::from_seed(seed, 0), 4, &mut Planner::new(params), None).expect("legal play");
    game.drawn_count() as u64
}

/// Solves one 4-stack deal with the oracle.
fn oracle_deals(seed: u64) -> u64 {
    oracle::solve(&Deal::from_seed(seed, 0), 4, oracle::Limits::default());
    1
}

/// The Calculation benches of `asobi bench`.
pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            name: "calculation/decisions",
            unit: "player decisions (4 stacks, L=50, lookahead 0)",
            batch: decisions,
        },
        Bench { name: "calculation/oracle", unit: "4-stack deals decided by the oracle", batch: oracle_deals },
    ]
}
