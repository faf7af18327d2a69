//! The five games: rules, AIs, generators, file formats and the papers' experiments.
//! Pure Rust: nothing here depends on Bevy, so everything runs from tests and the command line.

use crate::lab::bench::Bench;
use crate::lab::runner::MergeFn;

/// Every game's benchmarks, for `asobi bench`.
pub fn benches() -> Vec<Bench> {
    Vec::new()
}

/// Every batch experiment's merge, for `asobi merge`.
pub const MERGERS: &[(&str, MergeFn)] = &[];
