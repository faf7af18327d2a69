//! The Shanghai experiments of the Lab screen.

use std::sync::Arc;

use bevy::prelude::*;

use super::PickedInstance;
use crate::app::Screen;
use crate::app::lab_screen::{
    LabCommand, LabEntry, LabJob, LabOutcome, LabPlot, Opener, ScatterPlot, games_to_watch, job, no_output_file,
    parse_words, run_for_lab, whole_batch,
};
use crate::games::shanghai::ai::PlayerParams;
use crate::games::shanghai::catalog::{bundled, load, weights_for};
use crate::games::shanghai::cli::{Command, eval_experiment, generate_experiment};
use crate::games::shanghai::experiment::{Deals, Eval, EvalRecord, Generate, HIGH_FROM, LOW_BELOW, OnLayout};
use crate::games::shanghai::generator::DealSource;
use crate::games::shanghai::layout::Layout;
use crate::lab::runner::SharedProgress;
use crate::lab::stats::wilson95;

/// Mini turtle layout for the Lab; the bundled layouts always load.
fn lab_layout() -> anyhow::Result<Arc<Layout>> {
    load("mini_turtle")
}

/// `shanghai eval` of `instances` generator deals on `layout`, one play each, by the n x D
/// player with the layout's weights.
fn eval_one_play(layout: &Arc<Layout>, n: u32, depth: u32, instances: u64) -> Eval {
    let player = PlayerParams { n, depth, weights: weights_for(&layout.name), ..PlayerParams::default() };
    Eval {
        layout: OnLayout::new(layout),
        instances,
        plays: 1,
        player,
        deals: Deals::Source(DealSource::Generator),
        blunders: false,
        peek: false,
        lock_risk: 0,
    }
}

/// The deals of an eval run by outcome, when the screen can deal them (generator deals of a
/// bundled layout); a deal picked is dealt on the Shanghai screen and played by the run's
/// player, with the run's random draws when it played each deal once.
fn deals_to_watch(exp: &Eval, seed: u64, records: &[EvalRecord]) -> Option<LabPlot> {
    let layout = exp.layout.layout().name.clone();
    let dealable =
        matches!(exp.deals, Deals::Source(DealSource::Generator)) && bundled().iter().any(|f| f.name == layout);
    if !dealable {
        return None;
    }
    // Game i of the run is play i % plays of deal i / plays.
    let plays = exp.plays as usize;
    let solved_plays: Vec<usize> = records.chunks(plays).map(|deal| deal.iter().filter(|r| r.solved).count()).collect();
    let with = |keep: &dyn Fn(usize) -> bool| -> Vec<usize> {
        solved_plays.iter().enumerate().filter(|(_, n)| keep(**n)).map(|(i, _)| i).collect()
    };
    let (groups, title) = match plays {
        1 => (
            vec![("unsolved".to_string(), with(&|n| n == 0)), ("solved".to_string(), with(&|n| n == 1))],
            "watch the player on a deal".to_string(),
        ),
        _ => (
            vec![
                ("solved in no play".to_string(), with(&|n| n == 0)),
                ("in some plays".to_string(), with(&|n| n > 0 && n < plays)),
                ("in every play".to_string(), with(&|n| n == plays)),
            ],
            format!("watch the player on a deal (a play of its own: the run played each deal {plays} times)"),
        ),
    };
    let player = exp.player;
    let deal = move |index| PickedInstance { layout: layout.clone(), seed, index, player: Some(player) };
    Some(games_to_watch(title, groups, Screen::Shanghai, deal))
}

/// An eval run: the solve rate, and its deals to watch.
fn eval_outcome(exp: &Eval, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    run_for_lab(exp, seed, progress, |records| {
        let solved = records.iter().filter(|r| r.solved).count() as u64;
        let n = records.len() as u64;
        let label = format!("n={} D={}", exp.player.n, exp.player.depth);
        let rate = LabPlot::Rates {
            title: "solve rate".into(),
            bars: vec![(label, solved as f64 / n.max(1) as f64, wilson95(solved, n))],
        };
        std::iter::once(rate).chain(deals_to_watch(exp, seed, records)).collect()
    })
}

/// A generate run: the weak and the strong player's solve rate of each instance, the skill
/// instances marked; a click on an instance of a bundled layout opens it for you to play.
fn generate_outcome(exp: &Generate, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    let name = exp.layout.layout().name.clone();
    let opener = bundled().iter().any(|f| f.name == name).then(|| {
        let deal = move |index| PickedInstance { layout: name.clone(), seed, index, player: None };
        Opener::dealing(Screen::Shanghai, deal)
    });
    run_for_lab(exp, seed, progress, |records| {
        vec![LabPlot::Scatter(ScatterPlot {
            title: "instances".into(),
            x_label: "weak solve rate".into(),
            y_label: "strong solve rate".into(),
            points: records.iter().map(|r| [r.weak_rate, r.strong_rate]).collect(),
            marked: records.iter().map(|r| exp.is_skill(r)).collect(),
            marked_label: "skill instances (play one)".into(),
            opener,
        })]
    })
}

/// How the Lab runs `asobi shanghai eval` and `generate` lines.
pub fn lab_command() -> LabCommand {
    LabCommand { game: "shanghai", subcommands: "eval | generate", job: command_job }
}

/// The run of the words after `asobi shanghai`.
fn command_job(words: &[String]) -> anyhow::Result<LabJob> {
    match parse_words(words)? {
        Command::Eval(a) => Ok(job(eval_experiment(&a)?, whole_batch(&a.batch, a.trace)?, "games", eval_outcome)),
        Command::Generate(a) => {
            no_output_file(&a.out)?;
            Ok(job(generate_experiment(&a)?, whole_batch(&a.batch, None)?, "instances", generate_outcome))
        }
        _ => anyhow::bail!("the Lab runs shanghai eval and generate; run the others in a terminal"),
    }
}

/// The Shanghai experiments of the Lab screen.
pub fn lab_entries() -> Vec<LabEntry> {
    vec![
        LabEntry {
            game: Screen::Shanghai,
            name: "eval: solve rate on mini turtle (n = 4, D = 2)",
            size_label: "deals",
            default_size: 20,
            commands: &[
                "asobi shanghai eval --layout mini_turtle --instances {size} --plays 1 --n 4 --depth 2 --seed {seed}",
            ],
            run: |size, seed, progress| eval_outcome(&eval_one_play(&lab_layout()?, 4, 2, size), seed, progress),
        },
        LabEntry {
            game: Screen::Shanghai,
            name: "generate: the paper's weak (1x1) vs strong (16x3) player, map on mini turtle",
            size_label: "instances",
            default_size: 40,
            commands: &[
                "asobi shanghai generate --layout mini_turtle --count {size} --weak 1x1 --strong 16x3 --plays 10 --dead-ends false --solvable-worlds false --seed {seed}",
            ],
            // The paper's players, as in its §5: asobi's are both strong enough on the mini
            // turtle that few instances part them.
            run: |size, seed, progress| {
                let layout = lab_layout()?;
                let weights = weights_for(&layout.name);
                let exp = Generate {
                    layout: OnLayout::new(&layout),
                    count: size,
                    plays: 10,
                    weak: PlayerParams::paper(1, 1, weights),
                    strong: PlayerParams::paper(16, 3, weights),
                    weak_max: LOW_BELOW,
                    strong_min: HIGH_FROM,
                };
                generate_outcome(&exp, seed, progress)
            },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::drive_screen;
    use crate::app::lab_screen::picked_settings;
    use crate::app::shanghai::{ShanghaiGame, advance_ai};
    use crate::lab::runner::Experiment;

    /// A deal picked among an eval run's is played on the screen by the run's player to the
    /// run's outcome: an unsolved deal and a solved one.
    #[test]
    fn a_picked_deal_ends_on_the_screen_as_in_the_run() {
        let layout = lab_layout().unwrap();
        let exp = eval_one_play(&layout, 2, 1, 30);
        let player = exp.player;
        let records: Vec<EvalRecord> = (0..exp.instances).map(|i| exp.play(4, i)).collect();
        let plot = deals_to_watch(&exp, 4, &records).expect("generator deals of a bundled layout");
        for solved in [false, true] {
            let index = records.iter().position(|r| r.solved == solved).expect("seed 4 has both among 30");
            let picked: PickedInstance = picked_settings(&plot, index);
            assert_eq!((picked.seed, picked.index, picked.player), (4, index as u64, Some(player)));
            let world = drive_screen(picked.game(), advance_ai, |game| game.game.is_over());
            assert_eq!(world.resource::<ShanghaiGame>().game.is_won(), records[index].solved, "instance {index}");
        }
    }
}
