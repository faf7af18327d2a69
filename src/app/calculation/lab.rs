//! The Calculation experiments of the Lab screen.

use crate::app::Screen;
use crate::app::lab_screen::{LabEntry, LabOutcome, LabPlot};
use crate::games::calculation::ai::PlannerParams;
use crate::games::calculation::experiment::Play;
use crate::lab::runner::{Shard, SharedProgress, result_json, run_records};
use crate::lab::stats::wilson95;

/// Success rate with 3 and 4 stacks, lookahead 0 and 1, one bar per configuration (in the
/// order of the entry's commands).
fn run_rates(size: u64, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    use std::sync::atomic::Ordering;
    let configs: Vec<(usize, u8)> = vec![(3, 0), (3, 1), (4, 0), (4, 1)];
    progress.total.store(size * configs.len() as u64, Ordering::Relaxed);
    let mut results = Vec::new();
    let mut bars = Vec::new();
    for (stacks, lookahead) in configs {
        let exp = Play {
            stacks,
            deals: size,
            player: PlannerParams { plans: 20, lookahead, ..PlannerParams::default() },
            oracle: None,
        };
        let Some(games) = run_records(&exp, seed, Shard::WHOLE, None, progress)? else { return Ok(None) };
        let wins = games.records.iter().filter(|r| r.won).count() as u64;
        let n = games.records.len() as u64;
        let rate = if n == 0 { 0.0 } else { wins as f64 / n as f64 };
        bars.push((format!("S={stacks} la={lookahead}"), rate, wilson95(wins, n)));
        results.push(result_json(&exp, seed, Shard::WHOLE, &games));
    }
    let mut summary = serde_json::Map::new();
    for ((name, rate, ci), r) in bars.iter().zip(&results) {
        summary.insert(
            name.clone(),
            serde_json::json!({"success_rate": rate, "ci95": ci, "ms_per_deal": r["ms_per_deal"]}),
        );
    }
    Ok(Some(LabOutcome {
        result: serde_json::Value::Object(summary),
        plots: vec![LabPlot::Rates { title: "success rate by configuration (L = 20)".into(), bars }],
        parts: results,
    }))
}

/// The Calculation experiment of the Lab screen.
pub fn lab_entries() -> Vec<LabEntry> {
    vec![LabEntry {
        game: Screen::Calculation,
        name: "success rate: 3/4 stacks, lookahead 0/1 (L=20)",
        size_label: "deals",
        default_size: 20,
        commands: &[
            "asobi calc play --stacks 3 --deals {size} --plans 20 --lookahead 0 --seed {seed}",
            "asobi calc play --stacks 3 --deals {size} --plans 20 --lookahead 1 --seed {seed}",
            "asobi calc play --stacks 4 --deals {size} --plans 20 --lookahead 0 --seed {seed}",
            "asobi calc play --stacks 4 --deals {size} --plans 20 --lookahead 1 --seed {seed}",
        ],
        run: run_rates,
    }]
}
