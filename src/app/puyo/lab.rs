//! The Puyo experiments of the Lab screen.

use crate::app::Screen;
use crate::app::lab_screen::{LabEntry, LabPlot, run_for_lab};
use crate::games::puyo::ai::{AiKind, AiParams};
use crate::games::puyo::experiment::{Build, Endless, VersusExp};
use crate::games::puyo::rules::{GarbageRule, Outcome};
use crate::lab::stats::HeadToHead;

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
                run_for_lab(&exp, seed, progress, |records| {
                    let moves = records.iter().filter(|r| r.completed).map(|r| r.moves as f64).collect();
                    vec![LabPlot::Histogram { title: "moves to completion".into(), values: moves }]
                })
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
                run_for_lab(&exp, seed, progress, |records| {
                    let chains = records.iter().map(|r| r.chain as f64).collect();
                    vec![LabPlot::Histogram { title: "chain length".into(), values: chains }]
                })
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
                };
                run_for_lab(&exp, seed, progress, |records| {
                    let wins = records.iter().filter(|r| r.outcome == Outcome::Win(0)).count() as u64;
                    let losses = records.iter().filter(|r| r.outcome == Outcome::Win(1)).count() as u64;
                    let h = HeadToHead::new(wins, losses, records.len() as u64 - wins - losses);
                    vec![LabPlot::Rates {
                        title: "asobi win rate vs combined".into(),
                        bars: vec![("asobi".into(), h.win_rate, h.ci95)],
                    }]
                })
            },
        },
    ]
}
