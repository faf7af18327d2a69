//! The Labyrinth experiments of the Lab screen.

use super::{Seat, Settings, default_settings};
use crate::app::Screen;
use crate::app::lab_screen::{
    LabCommand, LabEntry, LabJob, LabOutcome, LabPlot, games_to_watch, job, parse_words, run_for_lab, whole_batch,
};
use crate::games::labyrinth::ai::BotKind;
use crate::games::labyrinth::cli::{Command, tournament};
use crate::games::labyrinth::experiment::{GameRecord, Match};
use crate::games::labyrinth::level::Params;
use crate::lab::runner::SharedProgress;
use crate::lab::stats::wilson95;

/// How the Lab runs `asobi labyrinth match` lines.
pub fn lab_command() -> LabCommand {
    LabCommand { game: "labyrinth", subcommands: "match", job: command_job }
}

/// The run of the words after `asobi labyrinth`.
fn command_job(words: &[String]) -> anyhow::Result<LabJob> {
    match parse_words(words)? {
        Command::Match(a) => Ok(job(tournament(&a)?, whole_batch(&a.batch, a.trace)?, "games", tournament_outcome)),
        _ => anyhow::bail!("the Lab runs labyrinth match; run params in a terminal"),
    }
}

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
                run_for_lab(&exp, seed, progress, |records| tournament_plots(&exp, seed, records))
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
                run_for_lab(&exp, seed, progress, |records| tournament_plots(&exp, seed, records))
            },
        },
    ]
}

/// A tournament: each seat's win rate, and its games to watch.
fn tournament_outcome(exp: &Match, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    run_for_lab(exp, seed, progress, |records| tournament_plots(exp, seed, records))
}

/// Each seat's win rate, and the games by winner to watch on the Labyrinth screen.
fn tournament_plots(exp: &Match, seed: u64, records: &[GameRecord]) -> Vec<LabPlot> {
    let mut plots = win_rates(&exp.players, records);
    let won_by = |winner: Option<u8>| -> Vec<usize> {
        records.iter().enumerate().filter(|(_, r)| r.winner == winner).map(|(i, _)| i).collect()
    };
    let mut groups: Vec<(String, Vec<usize>)> = (0..exp.players.len())
        .map(|s| (format!("{} (P{}) won", exp.players[s].name(), s + 1), won_by(Some(s as u8))))
        .collect();
    groups.push(("no winner".into(), won_by(None)));
    let (players, params) = (exp.players.clone(), exp.params.clone());
    let deal = move |index| replay_settings(&players, &params, seed, index);
    plots.push(games_to_watch("watch a game".into(), groups, Screen::Labyrinth, deal));
    plots
}

/// The screen's settings that deal game `index` of a batch of `seed` between `players` (the
/// screen alternates the first move as the Lab's tournaments do).
fn replay_settings(players: &[BotKind], params: &Params, seed: u64, index: u64) -> Settings {
    let mut seats = default_settings(true).seats;
    for (seat, &bot) in seats.iter_mut().zip(players) {
        *seat = Seat::Bot(bot);
    }
    Settings { players: players.len(), seats, seed, game: index, params: params.clone(), ..default_settings(true) }
}

fn win_rates(players: &[BotKind], records: &[GameRecord]) -> Vec<LabPlot> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::drive_screen;
    use crate::app::labyrinth::{LabyrinthGame, advance_game};
    use crate::lab::runner::Experiment;

    /// A game picked in the Lab is the game the tournament played: the same seat first, the
    /// same winner after the same number of turns.
    #[test]
    fn a_picked_game_is_the_tournaments_game() {
        let exp = Match {
            players: vec![BotKind::BigBrain, BotKind::Random],
            games: 4,
            alternate_first: true,
            max_rounds: 300,
            params: Params::default(),
        };
        let record = exp.play(2, 3);
        assert_eq!(record.first, 1, "game 3 of two seats: the second seat first");
        let game = LabyrinthGame::new(replay_settings(&exp.players, &exp.params, 2, 3));
        let world = drive_screen(game, advance_game, |game| game.state.is_over());
        let game = world.resource::<LabyrinthGame>();
        assert_eq!((game.state.winner.map(|w| w as u8), game.state.plies), (record.winner, record.plies));
    }
}
