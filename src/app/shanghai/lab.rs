//! The Shanghai experiments of the Lab screen.

use std::sync::Arc;

use bevy::prelude::*;

use super::PickedInstance;
use crate::app::Screen;
use crate::app::lab_screen::{LabEntry, LabPlot, Opener, ScatterPlot, run_for_lab};
use crate::games::shanghai::ai::PlayerParams;
use crate::games::shanghai::catalog::{load, weights_for};
use crate::games::shanghai::experiment::{Deals, Eval, Generate, HIGH_FROM, LOW_BELOW, OnLayout};
use crate::games::shanghai::generator::DealSource;
use crate::games::shanghai::layout::Layout;
use crate::lab::stats::wilson95;

/// Mini turtle layout for the Lab; the bundled layouts always load.
fn lab_layout() -> anyhow::Result<Arc<Layout>> {
    load("mini_turtle")
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
            run: |size, seed, progress| {
                let layout = lab_layout()?;
                let player =
                    PlayerParams { n: 4, depth: 2, weights: weights_for(&layout.name), ..PlayerParams::default() };
                let exp = Eval {
                    layout: OnLayout::new(&layout),
                    instances: size,
                    plays: 1,
                    player,
                    deals: Deals::Source(DealSource::Generator),
                    blunders: false,
                    peek: false,
                    lock_risk: 0,
                };
                run_for_lab(&exp, seed, progress, |records| {
                    let solved = records.iter().filter(|r| r.solved).count() as u64;
                    let n = records.len() as u64;
                    vec![LabPlot::Rates {
                        title: "solve rate (generator deals)".into(),
                        bars: vec![("n=4 D=2".into(), solved as f64 / n.max(1) as f64, wilson95(solved, n))],
                    }]
                })
            },
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
                run_for_lab(&exp, seed, progress, |records| {
                    let name = layout.name.clone();
                    let open = move |commands: &mut Commands, index: usize| {
                        commands.insert_resource(PickedInstance { layout: name.clone(), seed, index: index as u64 });
                    };
                    vec![LabPlot::Scatter(ScatterPlot {
                        title: "instances".into(),
                        x_label: "weak solve rate".into(),
                        y_label: "strong solve rate".into(),
                        points: records.iter().map(|r| [r.weak_rate, r.strong_rate]).collect(),
                        marked: records.iter().map(|r| exp.is_skill(r)).collect(),
                        marked_label: "skill instances (play one)".into(),
                        opener: Some(Opener { screen: Screen::Shanghai, open: Arc::new(open) }),
                    })]
                })
            },
        },
    ]
}
