//! `asobi bench` entries of Nazo Puyo: the solver on the bundled competition puzzles and the
//! generator's type-5 2-move 3-chain puzzles.

use crate::lab::bench::Bench;
use crate::lab::rng::game_rng;

use super::generator::{GenParams, Target, generate};
use super::sets::bundled;
use super::solver::{SolveOptions, solve};

/// The Nazo Puyo benches of `asobi bench`.
pub fn benches() -> Vec<Bench> {
    vec![
        Bench { name: "nazo/solve", unit: "bundled puzzles solved exhaustively", batch: solve_bundled },
        Bench { name: "nazo/solve-long", unit: "bundled 5+ step puzzles solved exhaustively", batch: solve_long },
        Bench { name: "nazo/generate-type5", unit: "type-5 2-move 3-chain unique puzzles", batch: generate_type5 },
    ]
}

fn solve_bundled(seed: u64) -> u64 {
    solve_one_of(seed, 0)
}

fn solve_long(seed: u64) -> u64 {
    solve_one_of(seed, 5)
}

/// Solves the `seed`-th (cyclically) bundled puzzle with at least `min_steps` steps.
fn solve_one_of(seed: u64, min_steps: usize) -> u64 {
    let Ok(sets) = bundled() else { return 0 };
    let puzzles: Vec<_> = sets.into_iter().flat_map(|s| s.1).filter(|(_, p)| p.steps.len() >= min_steps).collect();
    let Some((_, p)) = puzzles.get(seed as usize % puzzles.len().max(1)) else { return 0 };
    solve(p, SolveOptions::default());
    1
}

fn generate_type5(seed: u64) -> u64 {
    let params = GenParams { target: Target::Five, ..GenParams::default() };
    generate(&params, &mut game_rng(seed, 0)).is_some() as u64
}
