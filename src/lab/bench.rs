//! `asobi bench`: each game registers its hot paths; each benchmark runs for a time budget
//! and reports operations per second, so any two machines can be compared.

use std::time::{Duration, Instant};

/// One registered benchmark.
pub struct Bench {
    /// `game/what`, e.g. `puyo/placements`.
    pub name: &'static str,
    /// What one operation is, e.g. "placements with chain resolution".
    pub unit: &'static str,
    /// Runs a batch of operations and returns how many it did; called until the budget is spent.
    pub batch: fn(seed: u64) -> u64,
}

/// The measured throughput of one benchmark.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Throughput {
    /// The benchmark's [`Bench::name`].
    pub name: String,
    /// What one operation is ([`Bench::unit`]).
    pub unit: String,
    /// Operations done in the timed batches...
    pub ops: u64,
    /// ...in this many seconds.
    pub seconds: f64,
    /// Operations per second.
    pub per_second: f64,
}

/// Runs `bench` on the calling thread for about `budget`.
pub fn measure(bench: &Bench, budget: Duration) -> Throughput {
    // One untimed batch first, so one-time setup (compiled templates, prepared positions) is
    // not counted.
    (bench.batch)(u64::MAX);
    let start = Instant::now();
    let mut ops = 0u64;
    let mut seed = 0u64;
    while start.elapsed() < budget {
        ops += (bench.batch)(seed);
        seed += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    Throughput {
        name: bench.name.to_string(),
        unit: bench.unit.to_string(),
        ops,
        seconds,
        per_second: ops as f64 / seconds,
    }
}
