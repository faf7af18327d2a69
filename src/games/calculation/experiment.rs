//! The paper's experiments (§6, Tables 3–4) as batch experiments: the player's success rate
//! on N seeded deals, and the oracle's winnability on the same deals (spec §9).

use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::ai::{Planner, PlannerParams, play_deal};
use super::oracle::{self, Verdict};
use super::rules::Deal;
use crate::lab::runner::{Experiment, MergeFn, merge};
use crate::lab::stats::wilson95;

/// `asobi calc play`: the assignment-plan player on deals 0..N of the seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Play {
    /// Waste stacks (the paper: 3 or 4).
    pub stacks: usize,
    /// Deals played: 0..deals of the seed.
    pub deals: u64,
    /// The player's settings.
    pub player: PlannerParams,
    /// Also run the oracle on each deal (within these limits), to report wins as a share of
    /// the winnable deals; `None` = player only.
    pub oracle: Option<oracle::Limits>,
}

/// One deal played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayRecord {
    /// Every card reached the foundations.
    pub won: bool,
    /// Milliseconds the game took.
    pub ms: f64,
    /// The oracle's verdict when asked for.
    pub oracle: Option<OracleVerdict>,
}

/// A verdict without its witness, as records keep it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OracleVerdict {
    /// The oracle found a winning play.
    Winnable,
    /// The oracle proved that no play wins.
    Unwinnable,
    /// The oracle's limits ran out first.
    Unknown,
}

impl From<&Verdict> for OracleVerdict {
    fn from(v: &Verdict) -> Self {
        match v {
            Verdict::Winnable(_) => OracleVerdict::Winnable,
            Verdict::Unwinnable => OracleVerdict::Unwinnable,
            Verdict::Unknown => OracleVerdict::Unknown,
        }
    }
}

fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn rate(count: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { count as f64 / n as f64 }
}

impl Experiment for Play {
    const NAME: &'static str = "calc.play";
    type Record = PlayRecord;

    fn games(&self) -> u64 {
        self.deals
    }

    fn play(&self, seed: u64, index: u64) -> PlayRecord {
        let deal = Deal::from_seed(seed, index);
        let start = Instant::now();
        let game = play_deal(&deal, self.stacks, &mut Planner::new(self.player.clone()), None)
            .expect("the player only makes legal moves");
        let ms = ms_since(start);
        // A win is its own witness: the oracle runs only on the deals the player lost.
        let oracle = self.oracle.map(|limits| {
            if game.is_won() {
                OracleVerdict::Winnable
            } else {
                OracleVerdict::from(&oracle::solve(&deal, self.stacks, limits))
            }
        });
        PlayRecord { won: game.is_won(), ms, oracle }
    }

    fn summarize(&self, records: &[PlayRecord]) -> Map<String, Value> {
        let n = records.len() as u64;
        let wins = records.iter().filter(|r| r.won).count() as u64;
        let ms: f64 = records.iter().map(|r| r.ms).sum();
        let mut m = Map::new();
        m.insert("deals".into(), json!(n));
        m.insert("wins".into(), json!(wins));
        m.insert("success_rate".into(), json!(rate(wins, n)));
        m.insert("ci95".into(), json!(wilson95(wins, n)));
        m.insert("ms_per_deal".into(), json!(if n == 0 { 0.0 } else { ms / n as f64 }));
        if self.oracle.is_some() {
            let count = |v| records.iter().filter(|r| r.oracle == Some(v)).count() as u64;
            let (winnable, unknown) = (count(OracleVerdict::Winnable), count(OracleVerdict::Unknown));
            m.insert("winnable".into(), json!(winnable));
            m.insert("unknown".into(), json!(unknown));
            // Every win is a winnable deal, so wins/winnable is a binomial proportion.
            m.insert("share_of_winnable".into(), json!(rate(wins, winnable)));
            m.insert("share_ci95".into(), json!(wilson95(wins, winnable)));
        }
        m
    }
}

/// `asobi calc oracle`: the perfect-information oracle on deals 0..N of the seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Oracle {
    /// Waste stacks.
    pub stacks: usize,
    /// Deals decided: 0..deals of the seed.
    pub deals: u64,
    /// What the oracle may spend per deal ([`oracle::solve`]).
    #[serde(flatten)]
    pub limits: oracle::Limits,
}

/// One deal decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OracleRecord {
    /// Whether the deal can be won.
    pub verdict: OracleVerdict,
    /// Milliseconds the oracle took.
    pub ms: f64,
}

impl Experiment for Oracle {
    const NAME: &'static str = "calc.oracle";
    type Record = OracleRecord;

    fn games(&self) -> u64 {
        self.deals
    }

    fn play(&self, seed: u64, index: u64) -> OracleRecord {
        let deal = Deal::from_seed(seed, index);
        let start = Instant::now();
        let verdict = oracle::solve(&deal, self.stacks, self.limits);
        if let Verdict::Winnable(w) = &verdict {
            let replayed = oracle::replay(&deal, self.stacks, w).map(|g| g.is_won());
            assert_eq!(replayed, Ok(true), "deal {index}: the oracle's witness must win");
        }
        OracleRecord { verdict: OracleVerdict::from(&verdict), ms: ms_since(start) }
    }

    fn summarize(&self, records: &[OracleRecord]) -> Map<String, Value> {
        let n = records.len() as u64;
        let count = |v| records.iter().filter(|r| r.verdict == v).count() as u64;
        let (winnable, unknown) = (count(OracleVerdict::Winnable), count(OracleVerdict::Unknown));
        let ms: f64 = records.iter().map(|r| r.ms).sum();
        let mut m = Map::new();
        m.insert("deals".into(), json!(n));
        m.insert("winnable".into(), json!(winnable));
        m.insert("winnability".into(), json!(rate(winnable, n)));
        m.insert("ci95".into(), json!(wilson95(winnable, n)));
        m.insert("ms_per_deal".into(), json!(if n == 0 { 0.0 } else { ms / n as f64 }));
        m.insert("unknown".into(), json!(unknown));
        // Counting the unknown deals as lost, then as won.
        m.insert("winnability_bounds".into(), json!([rate(winnable, n), rate(winnable + unknown, n)]));
        m
    }
}

/// The merges of this game's batch experiments, for `asobi merge`.
pub const MERGERS: &[(&str, MergeFn)] = &[(Play::NAME, merge::<Play>), (Oracle::NAME, merge::<Oracle>)];
