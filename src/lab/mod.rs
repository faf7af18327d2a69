//! What the five games share: seeded randomness, statistics, the batch experiment runner,
//! benchmarks and report output. Nothing here knows about a particular game.

pub mod bench;
pub mod rng;
pub mod runner;
pub mod stats;
