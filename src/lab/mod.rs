//! What the five games share: seeded randomness, statistics, the batch experiment runner,
//! paired comparisons of runs, benchmarks and report output. Nothing here knows about a particular game.

pub mod bench;
pub mod compare;
pub mod rng;
pub mod runner;
pub mod stats;

/// How many cases a property test with the default `n` draws: `n` times the whole number in
/// `ASOBI_PROPTEST_SCALE` when that is set, so that one command soaks every property test
/// (`ASOBI_PROPTEST_SCALE=100 cargo test --release`) while CI keeps the small defaults. Read
/// by tests only; a value that is not a whole number stops the test run with a message.
pub fn proptest_cases(n: u32) -> u32 {
    match std::env::var("ASOBI_PROPTEST_SCALE") {
        Ok(scale) => n.saturating_mul(scale.trim().parse().expect("ASOBI_PROPTEST_SCALE must be a whole number")),
        Err(_) => n,
    }
}
