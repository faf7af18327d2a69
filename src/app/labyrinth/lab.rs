//! The Labyrinth experiments of the Lab screen.

use crate::app::Screen;
use crate::app::lab_screen::{LabEntry, LabPlot, run_for_lab};
use crate::games::labyrinth::ai::BotKind;
use crate::games::labyrinth::experiment::Match;
use crate::games::labyrinth::level::Params;
use crate::lab::stats::wilson95;

/// The Labyrinth experiments of the Lab screen.
pub fn lab_entries() -> Vec<LabEntry> {
    vec![
        LabEntry {
            game: Screen::Labyrinth,
            name: "tournament: asobi vs big-brain (2 players)",
            size_label: "games",
            default_size: 20,
            commands: &[
                "asobi labyrinth match --players asobi,big-brain --games {size} --alternate-first --seed {seed}",
            ],
            run: |size, seed, progress| {
                let exp = Match {
                    players: vec![BotKind::Asobi, BotKind::BigBrain],
                    games: size,
                    alternate_first: true,
                    max_rounds: 300,
                    params: Params::default(),
                };
                run_for_lab(&exp, seed, progress, |records| win_rates(&exp.players, records))
            },
        },
        LabEntry {
            game: Screen::Labyrinth,
            name: "tournament: asobi, big-brain, saboteur, hybrid (4 players)",
            size_label: "games",
            default_size: 12,
            commands: &[
                "asobi labyrinth match --players asobi,big-brain,saboteur,hybrid --games {size} --alternate-first --seed {seed}",
            ],
            run: |size, seed, progress| {
                let exp = Match {
                    players: vec![BotKind::Asobi, BotKind::BigBrain, BotKind::Saboteur, BotKind::Hybrid],
                    games: size,
                    alternate_first: true,
                    max_rounds: 300,
                    params: Params::default(),
                };
                run_for_lab(&exp, seed, progress, |records| win_rates(&exp.players, records))
            },
        },
    ]
}

fn win_rates(players: &[BotKind], records: &[crate::games::labyrinth::experiment::GameRecord]) -> Vec<LabPlot> {
    let games = records.len() as u64;
    let mut bars: Vec<(String, f64, [f64; 2])> = players
        .iter()
        .enumerate()
        .map(|(s, k)| {
            let wins = records.iter().filter(|r| r.winner == Some(s as u8)).count() as u64;
            (format!("{} (P{})", k.name(), s + 1), wins as f64 / games.max(1) as f64, wilson95(wins, games))
        })
        .collect();
    let draws = records.iter().filter(|r| r.winner.is_none()).count() as u64;
    bars.push(("draw".into(), draws as f64 / games.max(1) as f64, wilson95(draws, games)));
    vec![LabPlot::Rates { title: "win rate per seat (95% interval)".into(), bars }]
}
