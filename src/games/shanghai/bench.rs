//! Benchmarks of the hot paths: free-tile computation, the perfect-information solver on
//! random turtle deals, and virtual-player decisions.

use super::ai::solver::solve_deal;
use super::ai::{Player, PlayerParams, VirtualPlayer};
use super::catalog::load;
use super::generator::{DealSource, deal};
use super::rules::Game;
use crate::lab::bench::Bench;
use crate::lab::rng::game_rng;

fn turtle() -> std::sync::Arc<super::layout::Layout> {
    load("turtle").expect("the turtle is bundled")
}

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            name: "shanghai/free-tiles",
            unit: "free-tile sets of the full turtle",
            batch: |_| {
                let t = turtle();
                let all = t.all();
                for _ in 0..10_000 {
                    std::hint::black_box(t.free_tiles(std::hint::black_box(&all)));
                }
                10_000
            },
        },
        Bench {
            name: "shanghai/oracle",
            unit: "random turtle deals decided with perfect information",
            batch: |seed| {
                let t = turtle();
                let kinds = deal(&t, DealSource::Random, seed, 0).expect("random deals never fail");
                std::hint::black_box(solve_deal(&t, &kinds));
                1
            },
        },
        Bench {
            name: "shanghai/decisions",
            unit: "n = 16, D = 3 decisions on the mini turtle",
            batch: |seed| {
                let l = load("mini_turtle").expect("the mini turtle is bundled");
                let mut game = Game::new(l.clone(), deal(&l, DealSource::Generator, seed, 0).expect("deals"));
                let player = VirtualPlayer { params: PlayerParams::default() };
                let mut rng = game_rng(seed, 0);
                let mut n = 0;
                while let Some(d) = player.decide(&game.observation(), &mut rng) {
                    game.play(d.mv).expect("legal");
                    n += 1;
                }
                n
            },
        },
    ]
}
