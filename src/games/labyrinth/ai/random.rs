//! Random (spec §3): uniform over legal (insertion, rotation) pairs, then uniform over the
//! reachable destinations.

use rand::Rng;

use super::node::Node;
use super::{Bot, Decision};
use crate::games::labyrinth::rules::board::cells_of;
use crate::games::labyrinth::rules::{Insertion, Observation};
use crate::lab::rng::GameRng;

/// A uniformly random legal turn (the baseline).
pub struct RandomBot;

impl Bot for RandomBot {
    fn decide(&self, obs: &Observation, rng: &mut GameRng) -> Decision {
        let points: Vec<Insertion> = Insertion::allowed(obs.last).collect();
        let at = points[rng.random_range(0..points.len())];
        let after = Node::root(obs).inserted(at, rng.random_range(0..4));
        let reach: Vec<_> = cells_of(after.maze.reach_from(after.node.pos[obs.me])).collect();
        let dest = reach[rng.random_range(0..reach.len())];
        Decision::plain(after.turn(dest), format!("random: {at}, {} reachable cells", reach.len()), 0)
    }
}
