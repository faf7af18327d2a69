//! The Nazo Puyo experiments of the Lab screen.

use crate::app::Screen;
use crate::app::lab_screen::{LabEntry, LabOutcome, LabPlot, run_for_lab};
use crate::games::nazo::experiment::GenerateExperiment;
use crate::games::nazo::generator::{GenParams, Method, Target};
use crate::lab::runner::SharedProgress;

/// The generation experiment (paper §7) for the Lab: 2 moves, 3-chain, unique solution, type 5,
/// by the paper's filter and by asobi's direct construction.
pub fn lab_entries() -> Vec<LabEntry> {
    let entry = |name, commands, run| LabEntry {
        game: Screen::Nazo,
        name,
        size_label: "puzzles",
        default_size: 20,
        commands,
        run,
    };
    vec![
        entry(
            "generate: type 5, 2 moves 3-chain, filter (paper)",
            &["asobi nazo generate --moves 2 --chain 3 --type 5 --method filter --count {size} --seed {seed}"],
            |size, seed, progress| lab_generate(Method::Filter, size, seed, progress),
        ),
        entry(
            "generate: type 5, 2 moves 3-chain, direct",
            &["asobi nazo generate --moves 2 --chain 3 --type 5 --method direct --count {size} --seed {seed}"],
            |size, seed, progress| lab_generate(Method::Direct, size, seed, progress),
        ),
    ]
}

fn lab_generate(method: Method, size: u64, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    let params = GenParams { moves: 2, chain: 3, target: Target::Five, method, ..GenParams::default() };
    let exp = GenerateExperiment { params, count: size };
    run_for_lab(&exp, seed, progress, |records| {
        let accepted: Vec<_> = records.iter().filter(|r| r.pon2.is_some()).collect();
        vec![
            LabPlot::Histogram {
                title: "candidates tried per accepted puzzle (hundreds)".into(),
                values: accepted.iter().map(|r| r.candidates as f64 / 100.0).collect(),
            },
            LabPlot::Histogram {
                title: "generation time per puzzle (ms, one core)".into(),
                values: records.iter().map(|r| r.ms).collect(),
            },
        ]
    })
}
