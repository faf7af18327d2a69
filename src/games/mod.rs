//! The five games: rules, AIs, generators, file formats and the papers' experiments.
//! Pure Rust: nothing here depends on Bevy, so everything runs from tests and the command line.

pub mod calculation;
pub mod labyrinth;
pub mod nazo;
pub mod puyo;
pub mod shanghai;

use crate::lab::bench::Bench;
use crate::lab::runner::MergeFn;

/// Every game's benchmarks, for `asobi bench`.
pub fn benches() -> Vec<Bench> {
    [puyo::benches(), nazo::benches(), calculation::benches(), labyrinth::benches(), shanghai::benches()]
        .into_iter()
        .flatten()
        .collect()
}

/// Every batch experiment's merge, for `asobi merge`, by experiment name.
pub fn merger(name: &str) -> Option<MergeFn> {
    [puyo::MERGERS, nazo::MERGERS, calculation::MERGERS, labyrinth::MERGERS, shanghai::MERGERS]
        .into_iter()
        .flatten()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
}
