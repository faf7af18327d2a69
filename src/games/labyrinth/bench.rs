//! `asobi bench` entries of Labyrinth: the engine's hot paths and one decision per bot.

use super::ai::BotKind;
use super::level::Params;
use super::rules::Insertion;
use super::setup::new_game;
use crate::lab::bench::Bench;
use crate::lab::rng::game_rng;

/// The Labyrinth benches of `asobi bench`.
pub fn benches() -> Vec<Bench> {
    vec![
        Bench { name: "labyrinth/insert+reach", unit: "insertions with reachability", batch: insert_reach },
        Bench {
            name: "labyrinth/big-brain",
            unit: "decisions on fresh boards",
            batch: |s| decide(BotKind::BigBrain, s),
        },
        Bench {
            name: "labyrinth/static-tile",
            unit: "decisions on fresh boards",
            batch: |s| decide(BotKind::StaticTile, s),
        },
        Bench { name: "labyrinth/asobi", unit: "decisions on fresh boards", batch: |s| decide(BotKind::Asobi, s) },
    ]
}

fn insert_reach(seed: u64) -> u64 {
    let g = new_game(2, Some(0), &mut game_rng(seed, 0));
    let mut board = g.board.clone();
    let mut pos = 0;
    let mut reached = 0u64;
    for round in 0..100u8 {
        for at in Insertion::ALL {
            board.insert(at, round % 4);
            pos = at.push(pos);
            reached += u64::from(board.maze().reach_from(pos).count_ones());
        }
    }
    std::hint::black_box(reached);
    1200
}

fn decide(kind: BotKind, seed: u64) -> u64 {
    let g = new_game(2, Some(0), &mut game_rng(seed, 1));
    let bot = kind.build(&Params::default());
    std::hint::black_box(bot.decide(&g.observe(0), &mut game_rng(seed, 2)));
    1
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_runs_a_batch() {
        for b in super::benches() {
            assert!((b.batch)(3) > 0, "{}", b.name);
        }
    }
}
