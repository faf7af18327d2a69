//! The Calculation experiments of the Lab screen.

use super::{Settings, default_settings};
use crate::app::Screen;
use crate::app::lab_screen::{
    LabCommand, LabEntry, LabJob, LabOutcome, LabPlot, games_to_watch, job, parse_words, run_for_lab, whole_batch,
};
use crate::games::calculation::ai::PlannerParams;
use crate::games::calculation::cli::{Command, play};
use crate::games::calculation::experiment::{Play, PlayRecord};
use crate::lab::runner::{Shard, SharedProgress, result_json, run_records};
use crate::lab::stats::wilson95;

/// One configuration's run: its success-rate bar, its deals to watch and its JSON result;
/// `None` when cancelled.
type ConfigRun = (Bar, LabPlot, serde_json::Value);

/// A bar of a rates plot: label, rate and 95% interval.
type Bar = (String, f64, [f64; 2]);

/// The success-rate bar of `exp`'s deals.
fn success_bar(exp: &Play, records: &[PlayRecord]) -> Bar {
    let wins = records.iter().filter(|r| r.won).count() as u64;
    let n = records.len() as u64;
    let rate = if n == 0 { 0.0 } else { wins as f64 / n as f64 };
    (format!("S={} la={}", exp.stacks, exp.player.lookahead), rate, wilson95(wins, n))
}

/// Runs `exp` from `seed` as one configuration of a rates plot.
fn run_config(exp: &Play, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<ConfigRun>> {
    let Some(games) = run_records(exp, seed, Shard::WHOLE, None, progress)? else { return Ok(None) };
    let bar = success_bar(exp, &games.records);
    Ok(Some((bar, deals_to_watch(exp, seed, &games.records), result_json(exp, seed, Shard::WHOLE, &games))))
}

/// A `calc play` run: its success rate and its deals to watch.
fn play_outcome(exp: &Play, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    run_for_lab(exp, seed, progress, |records| {
        let title = format!("success rate (L = {})", exp.player.plans);
        vec![LabPlot::Rates { title, bars: vec![success_bar(exp, records)] }, deals_to_watch(exp, seed, records)]
    })
}

/// Success rate with 3 and 4 stacks, lookahead 0 and 1, one bar per configuration (in the
/// order of the entry's commands), each configuration's rate, interval and time as the result.
fn run_rates(size: u64, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    use std::sync::atomic::Ordering;
    let configs = [(3, 0), (3, 1), (4, 0), (4, 1)].map(|(stacks, lookahead)| Play {
        stacks,
        deals: size,
        player: PlannerParams { plans: 20, lookahead, ..PlannerParams::default() },
        oracle: None,
    });
    progress.total.store(size * configs.len() as u64, Ordering::Relaxed);
    let (mut results, mut bars, mut picks) = (Vec::new(), Vec::new(), Vec::new());
    for exp in &configs {
        let Some((bar, pick, result)) = run_config(exp, seed, progress)? else { return Ok(None) };
        bars.push(bar);
        picks.push(pick);
        results.push(result);
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
        plots: std::iter::once(LabPlot::Rates { title: "success rate by configuration (L = 20)".into(), bars })
            .chain(picks)
            .collect(),
        parts: results,
        records: None,
    }))
}

/// How the Lab runs `asobi calc play` lines.
pub fn lab_command() -> LabCommand {
    LabCommand { game: "calc", subcommands: "play", job: command_job }
}

/// The run of the words after `asobi calc`.
fn command_job(words: &[String]) -> anyhow::Result<LabJob> {
    match parse_words(words)? {
        Command::Play(a) => Ok(job(play(&a)?, whole_batch(&a.batch, None)?, "deals", play_outcome)),
        _ => anyhow::bail!("the Lab runs calc play; run oracle and log in a terminal"),
    }
}

/// The deals of a run by outcome, each played by the run's planner on the Calculation screen
/// when picked.
fn deals_to_watch(exp: &Play, seed: u64, records: &[PlayRecord]) -> LabPlot {
    let with = |won: bool| -> Vec<usize> {
        records.iter().enumerate().filter(|(_, r)| r.won == won).map(|(i, _)| i).collect()
    };
    let groups = vec![("lost".to_string(), with(false)), ("won".to_string(), with(true))];
    let (stacks, player) = (exp.stacks, exp.player.clone());
    let title = format!("S={stacks} la={}: watch a deal", player.lookahead);
    let deal = move |index| Settings { stacks, seed, deal: index, params: player.clone(), ..default_settings(true) };
    games_to_watch(title, groups, Screen::Calculation, deal)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::calculation::{CalcGame, advance_game};
    use crate::app::drive_screen;
    use crate::app::lab_screen::picked_settings;
    use crate::lab::runner::Experiment;

    /// A deal picked in the Lab is played on the screen by the run's planner to the run's end:
    /// a lost deal and a won one.
    #[test]
    fn a_picked_deal_ends_on_the_screen_as_in_the_run() {
        let exp =
            Play { stacks: 3, deals: 8, player: PlannerParams { plans: 20, ..PlannerParams::default() }, oracle: None };
        let records: Vec<PlayRecord> = (0..exp.deals).map(|i| exp.play(3, i)).collect();
        let plot = deals_to_watch(&exp, 3, &records);
        for won in [false, true] {
            let index = records.iter().position(|r| r.won == won).expect("seed 3 has a lost and a won deal among 8");
            let settings: Settings = picked_settings(&plot, index);
            assert_eq!((settings.stacks, settings.seed, settings.deal), (3, 3, index as u64));
            let world = drive_screen(CalcGame::new(settings), advance_game, CalcGame::finished);
            assert_eq!(world.resource::<CalcGame>().game.is_won(), records[index].won, "deal {index}");
        }
    }
}
