//! The Nazo Puyo experiments of the Lab screen.

use super::PickedPuzzle;
use crate::app::Screen;
use crate::app::lab_screen::{
    LabCommand, LabEntry, LabJob, LabOutcome, LabPlot, games_to_watch, job, no_output_file, parse_words, run_for_lab,
    whole_batch,
};
use crate::games::nazo::cli::{Command, gen_params};
use crate::games::nazo::experiment::{GenerateExperiment, GenerateRecord};
use crate::games::nazo::generator::{GenParams, Method, Target};
use crate::lab::runner::SharedProgress;

/// How the Lab runs `asobi nazo generate` lines.
pub fn lab_command() -> LabCommand {
    LabCommand { game: "nazo", subcommands: "generate", job: command_job }
}

/// The run of the words after `asobi nazo`.
fn command_job(words: &[String]) -> anyhow::Result<LabJob> {
    match parse_words(words)? {
        Command::Generate(a) => {
            no_output_file(&a.out)?;
            let exp = GenerateExperiment { params: gen_params(&a)?, count: a.count };
            Ok(job(exp, whole_batch(&a.batch, None)?, "puzzles", generate_outcome))
        }
        _ => anyhow::bail!("the Lab runs nazo generate; solve a puzzle on the Nazo Puyo screen or in a terminal"),
    }
}

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
    generate_outcome(&GenerateExperiment { params, count: size }, seed, progress)
}

/// A generate run: the candidates each puzzle took and its time, and its puzzles to play.
fn generate_outcome(
    exp: &GenerateExperiment,
    seed: u64,
    progress: &SharedProgress,
) -> anyhow::Result<Option<LabOutcome>> {
    run_for_lab(exp, seed, progress, |records| {
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
            puzzles_to_play(seed, records),
        ]
    })
}

/// The run's puzzles, each played on the Nazo Puyo screen when picked (named as the screen's
/// generator names them: `#k` is record k - 1).
fn puzzles_to_play(seed: u64, records: &[GenerateRecord]) -> LabPlot {
    let queries: Vec<Option<String>> = records.iter().map(|r| r.pon2.clone()).collect();
    let found = queries.iter().enumerate().filter(|(_, q)| q.is_some()).map(|(i, _)| i).collect();
    let deal = move |index: u64| PickedPuzzle {
        title: format!("Lab run, seed {seed} #{}", index + 1),
        query: queries[index as usize].clone().unwrap_or_default(),
    };
    games_to_watch("play a puzzle".into(), vec![("puzzles (record index)".into(), found)], Screen::Nazo, deal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::lab_screen::picked_settings;
    use crate::app::nazo::NazoGame;
    use crate::games::nazo::experiment::numbered_puzzle;
    use crate::lab::runner::Experiment;

    /// A puzzle picked in the Lab opens on the screen as the run generated it.
    #[test]
    fn a_picked_puzzle_is_the_one_the_run_generated() {
        let params =
            GenParams { moves: 2, chain: 3, target: Target::Five, method: Method::Direct, ..GenParams::default() };
        let exp = GenerateExperiment { params: params.clone(), count: 3 };
        let records: Vec<GenerateRecord> = (0..3).map(|i| exp.play(6, i)).collect();
        let plot = puzzles_to_play(6, &records);
        let LabPlot::Picks(list) = &plot else { panic!("a pick list") };
        assert_eq!(list.groups[0].1, [0, 1, 2], "every puzzle was found");
        let picked: PickedPuzzle = picked_settings(&plot, 2);
        assert_eq!(picked.title, "Lab run, seed 6 #3");
        let mut game = NazoGame::new(false);
        game.open_picked(&picked);
        assert_eq!(game.error, None);
        assert_eq!(game.puzzle, numbered_puzzle(&params, 6, 2).expect("found").puzzle);
    }
}
