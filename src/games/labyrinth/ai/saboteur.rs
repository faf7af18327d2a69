//! Saboteur (the web project, spec §3): one ply; +bonus for sharing a tile with another
//! piece, −penalty per tile the other players can reach; the first maximum wins, and each
//! insertion lists the bot's own cell first, so it rarely leaves home.

use super::node::Node;
use super::{Bot, Decision};
use crate::games::labyrinth::level::SaboteurParams;
use crate::games::labyrinth::rules::observation::destinations;
use crate::games::labyrinth::rules::{Observation, Turn};
use crate::lab::rng::GameRng;

/// The Saboteur bot with its bonus and penalty.
pub struct Saboteur(pub SaboteurParams);

impl Bot for Saboteur {
    fn decide(&self, obs: &Observation, _rng: &mut GameRng) -> Decision {
        let me = obs.me;
        let mut best: Option<(f64, Turn)> = None;
        let mut nodes = 0;
        for after in Node::root(obs).insertions() {
            let others: Vec<_> = (0..obs.players.len()).filter(|&s| s != me).map(|s| after.node.pos[s]).collect();
            let reach: u32 = others.iter().map(|&p| after.maze.reach_from(p).count_ones()).sum();
            for dest in destinations(after.maze, after.node.pos[me]) {
                nodes += 1;
                let share = if others.contains(&dest) { self.0.share_bonus } else { 0.0 };
                let score = share - self.0.reach_penalty * reach as f64;
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, after.turn(dest)));
                }
            }
        }
        let (score, turn) = best.expect("there is always a legal turn");
        Decision::plain(turn, format!("saboteur: score {score}"), nodes)
    }
}
