//! The paper's generation experiment (§7) as a batch experiment: puzzle i is generated from
//! (seed, i), so the result does not depend on the thread count and shards merge.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::lab::rng::game_rng;
use crate::lab::runner::{Experiment, MergeFn, merge};

use super::generator::{GenParams, Generated, generate};
use super::io::pon2;
use super::puzzle::placement_pon2;

/// How `asobi merge` combines this game's shard files, by experiment name.
pub const MERGERS: &[(&str, MergeFn)] = &[(GenerateExperiment::NAME, merge::<GenerateExperiment>)];

/// `asobi nazo generate`: `count` puzzles with `params`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GenerateExperiment {
    /// What to generate and how.
    pub params: GenParams,
    /// Puzzles asked for.
    pub count: u64,
}

/// Puzzle `index` (from 0) of `asobi nazo generate --seed seed` with `params`, as the desktop
/// generator makes it too, so a puzzle made there is reproduced by the command line.
pub fn numbered_puzzle(params: &GenParams, seed: u64, index: u64) -> Option<Generated> {
    generate(params, &mut game_rng(seed, index))
}

/// One generated puzzle (or a give-up after `max_candidates`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GenerateRecord {
    /// Candidate puzzles drawn for this one (all of `max_candidates` on a give-up).
    pub candidates: u64,
    /// Time spent on this puzzle, one thread.
    pub ms: f64,
    /// The puzzle as a pon2 query; `None` if none was accepted.
    pub pon2: Option<String>,
    /// The (unique, by default) solution in pon2 placement notation.
    pub solution: Vec<String>,
    /// Solutions of the accepted puzzle (0 on a give-up).
    pub solutions: u64,
}

impl Experiment for GenerateExperiment {
    const NAME: &'static str = "nazo.generate";
    type Record = GenerateRecord;

    fn games(&self) -> u64 {
        self.count
    }

    fn play(&self, seed: u64, index: u64) -> GenerateRecord {
        let start = std::time::Instant::now();
        let g = numbered_puzzle(&self.params, seed, index);
        GenerateRecord {
            candidates: g.as_ref().map_or(self.params.max_candidates, |g| g.candidates),
            ms: start.elapsed().as_secs_f64() * 1000.0,
            pon2: g.as_ref().map(|g| pon2::write(&g.puzzle)),
            solution: g.as_ref().map(|g| g.solution.iter().map(|&p| placement_pon2(p)).collect()).unwrap_or_default(),
            solutions: g.as_ref().map_or(0, |g| g.solutions),
        }
    }

    /// `seconds` is the summed generation time of all puzzles (one core's worth), so
    /// `per_minute` is the rate per core whatever the thread count.
    fn summarize(&self, records: &[GenerateRecord]) -> Map<String, Value> {
        let accepted = records.iter().filter(|r| r.pon2.is_some()).count() as u64;
        let candidates: u64 = records.iter().map(|r| r.candidates).sum();
        let seconds = records.iter().map(|r| r.ms).sum::<f64>() / 1000.0;
        let unique = records.iter().filter(|r| r.solutions == 1).count() as f64;
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        let out = json!({
            "accepted": accepted,
            "candidates": candidates,
            "accept_rate": ratio(accepted as f64, candidates as f64),
            "seconds": seconds,
            "per_minute": ratio(60.0 * accepted as f64, seconds),
            "unique_share": ratio(unique, accepted as f64),
        });
        match out {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }
}
