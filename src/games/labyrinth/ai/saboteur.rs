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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::labyrinth::ai::test_positions::{board_after, positions};
    use crate::games::labyrinth::level::SaboteurParams;
    use crate::lab::rng::game_rng;

    #[test]
    fn the_saboteur_plays_the_first_turn_of_the_best_score() {
        // Score: share_bonus if the piece ends on another piece's cell, minus reach_penalty per
        // cell each other piece reaches after the insertion.
        let params = SaboteurParams { share_bonus: 10.0, reach_penalty: 2.0 };
        let mut shared = 0;
        for obs in positions() {
            let mut best: Option<(f64, Turn)> = None;
            for turn in obs.legal_turns() {
                let board = board_after(&obs, turn);
                let others: Vec<_> = obs
                    .players
                    .iter()
                    .enumerate()
                    .filter(|(s, _)| *s != obs.me)
                    .map(|(_, p)| turn.insertion.push(p.pos))
                    .collect();
                let reach: u32 = others.iter().map(|&p| board.maze().reach_from(p).count_ones()).sum();
                let share = others.contains(&turn.dest);
                shared += usize::from(share);
                let score = if share { params.share_bonus } else { 0.0 } - params.reach_penalty * f64::from(reach);
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, turn));
                }
            }
            let d = Saboteur(params.clone()).decide(&obs, &mut game_rng(0, 0));
            assert_eq!((d.turn, d.nodes), (best.unwrap().1, obs.legal_turns().len() as u64));
        }
        assert!(shared > 0);
    }
}
