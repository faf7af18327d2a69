//! The Puyo experiments of the Lab screen.

use std::sync::atomic::Ordering;

use super::{Seat, Settings, default_settings};
use crate::app::Screen;
use crate::app::lab_screen::{
    LabCommand, LabEntry, LabJob, LabOutcome, LabPlot, games_to_watch, job, parse_words, run_for_lab, whole_batch,
};
use crate::games::puyo::ai::{AiKind, AiParams, CombinedPotential};
use crate::games::puyo::cli::{self, Command};
use crate::games::puyo::experiment::{Build, BuildRecord, Endless, EndlessRecord, VersusExp, VersusRecord};
use crate::games::puyo::rules::{GarbageRule, Outcome};
use crate::lab::runner::{Shard, SharedProgress, result_json, run_records, value_name};
use crate::lab::stats::HeadToHead;

/// The versus players of the ladder, strongest first by the README's 500-game runs: asobi's,
/// the combined player with asobi's reading and threat switch ("combined+", the CLI's
/// `--combined-potential asobi --threat-switch 0.2`), potential maximization and the paper's
/// combined player.
fn ladder_players() -> [(&'static str, AiKind, AiParams); 4] {
    let combined_plus =
        AiParams { combined_potential: CombinedPotential::Asobi, threat_switch: Some(0.2), ..AiParams::default() };
    [
        ("asobi", AiKind::Asobi, AiParams::default()),
        ("combined+", AiKind::Combined, combined_plus),
        ("potential", AiKind::Potential, AiParams::default()),
        ("combined", AiKind::Combined, AiParams::default()),
    ]
}

/// Every pair of ladder players, the stronger as player 1, in the order of the entry's commands
/// (played with alternating seats).
const LADDER_PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

/// Player 1's wins, losses and draws.
fn head_to_head(records: &[VersusRecord]) -> HeadToHead {
    let wins = records.iter().filter(|r| r.outcome == Outcome::Win(0)).count() as u64;
    let losses = records.iter().filter(|r| r.outcome == Outcome::Win(1)).count() as u64;
    HeadToHead::new(wins, losses, records.len() as u64 - wins - losses)
}

/// The screen's settings that deal game `index` of `exp`'s batch of `seed`, each player on the
/// board it played (swapped in odd games with alternating seats).
fn replay_settings(exp: &VersusExp, seed: u64, index: u64) -> Settings {
    let player_at = exp.player_at(index);
    let kinds = [exp.p1, exp.p2];
    let params = player_at.map(|p| exp.params[p].clone());
    Settings {
        seats: player_at.map(|p| Seat::Ai(kinds[p])),
        seed,
        game: index,
        colors: exp.colors,
        garbage: exp.garbage,
        link_ticks: exp.link_ticks,
        own_settings: params[0] != params[1],
        params,
        ..default_settings(true)
    }
}

/// The games of a versus run by outcome (`names`: the players'), each replayed on the Puyo
/// screen when picked.
fn versus_games_to_watch(exp: &VersusExp, seed: u64, names: [&str; 2], records: &[VersusRecord]) -> LabPlot {
    let with = |outcome: Outcome| -> Vec<usize> {
        records.iter().enumerate().filter(|(_, r)| r.outcome == outcome).map(|(i, _)| i).collect()
    };
    let groups = vec![
        (format!("{} won", names[0]), with(Outcome::Win(0))),
        (format!("{} won", names[1]), with(Outcome::Win(1))),
        ("drawn".to_string(), with(Outcome::Draw)),
    ];
    let exp = exp.clone();
    let title = format!("{} v {}: watch a game", names[0], names[1]);
    games_to_watch(title, groups, Screen::Puyo, move |index| replay_settings(&exp, seed, index))
}

/// The trials of a template build run by the moves they took to complete, each replayed on the
/// Puyo screen by the template player (move for move up to completion) when picked.
fn trials_to_watch(exp: &Build, seed: u64, records: &[BuildRecord]) -> LabPlot {
    let with = |keep: fn(&BuildRecord) -> bool| -> Vec<usize> {
        records.iter().enumerate().filter(|(_, r)| keep(r)).map(|(i, _)| i).collect()
    };
    let groups = vec![
        ("not completed".to_string(), with(|r| !r.completed)),
        ("over 30 moves".to_string(), with(|r| r.completed && r.moves > 30)),
        ("30 moves or fewer".to_string(), with(|r| r.completed && r.moves <= 30)),
    ];
    let as_endless = Endless {
        ai: AiKind::Template,
        params: exp.params.clone(),
        games: exp.trials,
        max_moves: exp.max_moves,
        colors: exp.colors,
        hindsight: false,
    };
    games_to_watch("watch a trial".into(), groups, Screen::Puyo, move |index| {
        endless_settings(&as_endless, seed, index)
    })
}

/// The games of an endless run by the length of the chain fired, each replayed on the Puyo
/// screen (up to that chain, where the run's game ends) when picked.
fn endless_games_to_watch(exp: &Endless, seed: u64, records: &[EndlessRecord]) -> LabPlot {
    let with = |links: std::ops::Range<u32>| -> Vec<usize> {
        records.iter().enumerate().filter(|(_, r)| links.contains(&r.chain)).map(|(i, _)| i).collect()
    };
    let groups = vec![
        ("under 8 links".to_string(), with(0..8)),
        ("8 to 10 links".to_string(), with(8..11)),
        ("11 links or more".to_string(), with(11..u32::MAX)),
    ];
    let exp = exp.clone();
    games_to_watch("watch a game".into(), groups, Screen::Puyo, move |index| endless_settings(&exp, seed, index))
}

/// The screen's settings that deal game `index` of `exp`'s batch of `seed` to its AI alone.
fn endless_settings(exp: &Endless, seed: u64, index: u64) -> Settings {
    Settings {
        versus: false,
        seats: [Seat::Ai(exp.ai), Seat::Human],
        seed,
        game: index,
        colors: exp.colors,
        params: [exp.params.clone(), exp.params.clone()],
        ..default_settings(false)
    }
}

/// Each pair of ladder players over `size` games: player 1's win rate, one bar per pair.
fn run_ladder(size: u64, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    let players = ladder_players();
    progress.total.store(size * LADDER_PAIRS.len() as u64, Ordering::Relaxed);
    let (mut bars, mut results, mut picks) = (Vec::new(), Vec::new(), Vec::new());
    for (a, b) in LADDER_PAIRS {
        let exp = VersusExp {
            p1: players[a].1,
            p2: players[b].1,
            params: [players[a].2.clone(), players[b].2.clone()],
            games: size,
            max_ticks: 3000,
            garbage: GarbageRule::default(),
            link_ticks: 1,
            colors: 4,
            alternate_seats: true,
        };
        let Some(games) = run_records(&exp, seed, Shard::WHOLE, None, progress)? else { return Ok(None) };
        let h = head_to_head(&games.records);
        bars.push((format!("{} v {}", players[a].0, players[b].0), h.win_rate, h.ci95));
        picks.push(versus_games_to_watch(&exp, seed, [players[a].0, players[b].0], &games.records));
        results.push(result_json(&exp, seed, Shard::WHOLE, &games));
    }
    let summary =
        bars.iter().map(|(name, rate, ci)| (name.clone(), serde_json::json!({"p1_win_rate": rate, "ci95": ci})));
    Ok(Some(LabOutcome {
        result: serde_json::Value::Object(summary.collect()),
        plots: std::iter::once(LabPlot::Rates {
            title: "player 1's win rate, each pair (player 1: the stronger over 500 games)".into(),
            bars,
        })
        .chain(picks)
        .collect(),
        parts: results,
        records: None,
    }))
}

/// A template build run: the moves each completed trial took, and its trials to watch.
fn build_outcome(exp: &Build, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    run_for_lab(exp, seed, progress, |records| {
        let moves = records.iter().filter(|r| r.completed).map(|r| r.moves as f64).collect();
        vec![
            LabPlot::Histogram { title: "moves to completion".into(), values: moves },
            trials_to_watch(exp, seed, records),
        ]
    })
}

/// An endless run: the chain each game fired, and its games to watch.
fn endless_outcome(exp: &Endless, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    run_for_lab(exp, seed, progress, |records| {
        let chains = records.iter().map(|r| r.chain as f64).collect();
        vec![
            LabPlot::Histogram { title: "chain length".into(), values: chains },
            endless_games_to_watch(exp, seed, records),
        ]
    })
}

/// A versus run: player 1's win rate, and the games to watch by winner.
fn versus_outcome(exp: &VersusExp, seed: u64, progress: &SharedProgress) -> anyhow::Result<Option<LabOutcome>> {
    let [p1, p2] = [exp.p1, exp.p2].map(value_name);
    // Two players of one kind (two settings of it) are told apart by their seat.
    let names = if p1 == p2 { [format!("player 1 ({p1})"), format!("player 2 ({p2})")] } else { [p1, p2] };
    run_for_lab(exp, seed, progress, |records| {
        let h = head_to_head(records);
        vec![
            LabPlot::Rates {
                title: format!("{} win rate vs {}", names[0], names[1]),
                bars: vec![(names[0].clone(), h.win_rate, h.ci95)],
            },
            versus_games_to_watch(exp, seed, [&names[0], &names[1]], records),
        ]
    })
}

/// How the Lab runs `asobi puyo build|endless|versus` lines.
pub fn lab_command() -> LabCommand {
    LabCommand { game: "puyo", subcommands: "build | endless | versus", job: command_job }
}

/// The run of the words after `asobi puyo`.
fn command_job(words: &[String]) -> anyhow::Result<LabJob> {
    Ok(match parse_words(words)? {
        Command::Build(a) => job(cli::build(&a)?, whole_batch(&a.batch, a.trace.trace)?, "trials", build_outcome),
        Command::Endless(a) => job(cli::endless(&a)?, whole_batch(&a.batch, a.trace.trace)?, "games", endless_outcome),
        Command::Versus(a) => job(cli::versus(&a)?, whole_batch(&a.batch, a.trace.trace)?, "games", versus_outcome),
        Command::Templates(_) => anyhow::bail!("puyo templates writes template files: run it in a terminal"),
    })
}

/// The Puyo experiments of the Lab screen.
pub fn lab_entries() -> Vec<LabEntry> {
    vec![
        LabEntry {
            game: Screen::Puyo,
            name: "moves to complete a template (stairs, depth 3)",
            size_label: "trials",
            default_size: 100,
            commands: &[
                "asobi puyo build --templates stairs8 --depth 3 --select max --trials {size} --max-moves 100 --seed {seed}",
            ],
            run: |size, seed, progress| {
                let exp = Build { params: AiParams::default(), trials: size, max_moves: 100, colors: 4 };
                build_outcome(&exp, seed, progress)
            },
        },
        LabEntry {
            game: Screen::Puyo,
            name: "endless: chain length (combined)",
            size_label: "games",
            default_size: 50,
            commands: &["asobi puyo endless --ai combined --games {size} --seed {seed}"],
            run: |size, seed, progress| {
                let exp = Endless {
                    ai: AiKind::Combined,
                    params: AiParams::default(),
                    games: size,
                    max_moves: 150,
                    colors: 4,
                    hindsight: false,
                };
                endless_outcome(&exp, seed, progress)
            },
        },
        LabEntry {
            game: Screen::Puyo,
            name: "versus: asobi vs combined",
            size_label: "games",
            default_size: 40,
            commands: &["asobi puyo versus --p1 asobi --p2 combined --games {size} --seed {seed}"],
            run: |size, seed, progress| {
                let exp = VersusExp {
                    p1: AiKind::Asobi,
                    p2: AiKind::Combined,
                    params: Default::default(),
                    games: size,
                    max_ticks: 3000,
                    garbage: GarbageRule::default(),
                    link_ticks: 1,
                    colors: 4,
                    alternate_seats: false,
                };
                versus_outcome(&exp, seed, progress)
            },
        },
        LabEntry {
            game: Screen::Puyo,
            name: "versus ladder: asobi, combined+, potential, combined",
            size_label: "games per pair",
            default_size: 20,
            commands: &[
                "asobi puyo versus --p1 asobi --p2 combined --p2-options '--combined-potential asobi --threat-switch 0.2' --alternate-seats --games {size} --seed {seed}",
                "asobi puyo versus --p1 asobi --p2 potential --alternate-seats --games {size} --seed {seed}",
                "asobi puyo versus --p1 asobi --p2 combined --alternate-seats --games {size} --seed {seed}",
                "asobi puyo versus --p1 combined --p1-options '--combined-potential asobi --threat-switch 0.2' --p2 potential --alternate-seats --games {size} --seed {seed}",
                "asobi puyo versus --p1 combined --p1-options '--combined-potential asobi --threat-switch 0.2' --p2 combined --alternate-seats --games {size} --seed {seed}",
                "asobi puyo versus --p1 potential --p2 combined --alternate-seats --games {size} --seed {seed}",
            ],
            run: run_ladder,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::drive_screen;
    use crate::app::puyo::{PuyoGame, advance_game};
    use crate::lab::runner::Experiment;

    /// A build trial picked in the Lab is the run's: the template player on the screen makes
    /// the trial's moves up to its completion.
    #[test]
    fn a_picked_build_trial_is_the_runs_trial() {
        use crate::games::puyo::experiment::Traced;
        let exp = Build { params: AiParams::default(), trials: 3, max_moves: 100, colors: 4 };
        let mut traced = Vec::new();
        let record = exp.play_traced(5, 2, &mut |m| traced.push(*m.field));
        assert!(record.completed && traced.len() >= 20, "{record:?}");
        let plot = trials_to_watch(&exp, 5, &[record.clone(), record.clone(), record]);
        let settings: Settings = crate::app::lab_screen::picked_settings(&plot, 2);
        let mut screen = Vec::new();
        drive_screen(PuyoGame::new(settings), advance_game, |game| {
            let side = &game.game.sides[0];
            if side.moves as usize > screen.len() {
                screen.push(side.field);
            }
            screen.len() == traced.len() || side.dead
        });
        assert_eq!(screen, traced);
    }

    /// An endless game picked in the Lab is the run's: the screen's trace line plays it with
    /// the run's AI and settings.
    #[test]
    fn a_picked_endless_game_is_the_runs_game() {
        use crate::app::puyo::command_lines;
        use crate::games::puyo::cli::{Command, endless};
        use crate::lab::runner::parse_game_command;
        let params = AiParams { threat_switch: Some(0.3), ..AiParams::default() };
        let exp = Endless { ai: AiKind::Combined, params, games: 5, max_moves: 150, colors: 4, hindsight: false };
        let game = PuyoGame::new(endless_settings(&exp, 7, 3));
        let (_, line) = command_lines(&game).expect("an AI plays");
        let Command::Endless(args) = parse_game_command(&line, "puyo") else { panic!("{line}: not endless") };
        assert_eq!((args.batch.seed, args.trace.trace), (7, Some(3)), "{line}");
        let traced = endless(&args).unwrap();
        assert_eq!((traced.ai, &traced.params, traced.colors), (exp.ai, &exp.params, exp.colors), "{line}");
    }

    /// A game picked in the Lab is the game the run played: in an odd game with alternating
    /// seats player 1 plays board 2, each with its own settings, and the game on the boards
    /// ends as the run's record says.
    #[test]
    fn a_picked_game_is_the_runs_game_on_the_boards_its_players_played() {
        let [_, combined_plus, potential, _] = ladder_players();
        let exp = VersusExp {
            p1: combined_plus.1,
            p2: potential.1,
            params: [combined_plus.2, potential.2],
            games: 2,
            max_ticks: 3000,
            garbage: GarbageRule::default(),
            link_ticks: 1,
            colors: 4,
            alternate_seats: true,
        };
        let record = exp.play(5, 1);
        let settings = replay_settings(&exp, 5, 1);
        assert_eq!(settings.seats, [Seat::Ai(AiKind::Potential), Seat::Ai(AiKind::Combined)]);
        assert!(settings.own_settings && settings.params[1].threat_switch.is_some());
        let world = drive_screen(PuyoGame::new(settings), advance_game, |game| game.outcome.is_some());
        let game = world.resource::<PuyoGame>();
        let by_player = match game.outcome.expect("the game ended") {
            Outcome::Win(board) => Outcome::Win(1 - board),
            draw => draw,
        };
        assert_eq!(by_player, record.outcome);
        assert_eq!([game.game.sides[1].moves, game.game.sides[0].moves], record.moves);
    }
}
