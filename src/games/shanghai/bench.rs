//! Benchmarks of the hot paths: free-tile computation, the perfect-information solver on
//! random turtle deals, and virtual-player decisions (the turtle's searched ones dominate the
//! time of `shanghai eval --layout turtle`).

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

/// The Shanghai benches of `asobi bench`.
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
            batch: |seed| play_decisions("mini_turtle", seed, u64::MAX).0,
        },
        Bench {
            name: "shanghai/turtle-searched",
            unit: "n = 16, D = 3 searched decisions (no certain move) in the first 40 moves on the turtle",
            batch: |seed| play_decisions("turtle", seed, 40).1,
        },
    ]
}

/// Plays up to `moves` decisions of the default player on generator deal `seed` of `layout`;
/// returns how many decisions it made and how many of them were searched.
fn play_decisions(layout: &str, seed: u64, moves: u64) -> (u64, u64) {
    let l = load(layout).expect("bundled layout");
    let mut game = Game::new(l.clone(), deal(&l, DealSource::Generator, seed, 0).expect("deals"));
    let player = VirtualPlayer { params: PlayerParams::default() };
    let mut rng = game_rng(seed, 0);
    let (mut made, mut searched) = (0, 0);
    while made < moves
        && let Some(d) = player.decide(&game.observation(), &mut rng)
    {
        game.play(d.mv).expect("legal");
        made += 1;
        searched += u64::from(d.certain_rule.is_none());
    }
    (made, searched)
}
