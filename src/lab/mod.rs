//! What the five games share: seeded randomness, statistics, the batch experiment runner,
//! paired comparisons of runs, benchmarks and report output. Nothing here knows about a particular game.

pub mod bench;
pub mod compare;
pub mod rng;
pub mod runner;
pub mod stats;
