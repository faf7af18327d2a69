//! Big Brain (the web project, spec §3): breadth-first search over the bot's own turns with
//! frozen opponents, stopping at the first child that stands on the target; a node budget
//! (generated children) replaces the 5000 ms clock; on exhaustion a random legal turn.

use std::collections::{HashSet, VecDeque};

use rand::Rng;

use super::node::Node;
use super::{Bot, Decision};
use crate::games::labyrinth::level::BigBrainParams;
use crate::games::labyrinth::rules::observation::destinations;
use crate::games::labyrinth::rules::{Observation, Turn};
use crate::lab::rng::GameRng;

/// The Big Brain bot with its node budget.
pub struct BigBrain(pub BigBrainParams);

/// What the search found: the first turn of a plan reaching the target, its depth, and the
/// children generated.
pub struct Plan {
    /// The plan's first turn and how many turns the plan takes; `None` when the budget ran out
    /// (or no plan reaches the target).
    pub first: Option<(Turn, u32)>,
    /// Children generated.
    pub children: u64,
}

/// The search's bookkeeping: visited set, FIFO queue of (node, its depth-1 turn, depth).
struct Bfs<'a> {
    params: &'a BigBrainParams,
    obs: &'a Observation,
    visited_cells: u64,
    visited_keys: HashSet<u64>,
    queue: VecDeque<(Node, Turn, u32)>,
    children: u64,
}

impl Bfs<'_> {
    /// Generates the children of `node`; the first one on the target ends the search.
    fn expand(&mut self, node: &Node, first: Option<Turn>, depth: u32) -> Option<(Turn, u32)> {
        let me = self.obs.me;
        for after in node.insertions() {
            let target = self.obs.target_cell(&after.node.board);
            for dest in destinations(after.maze, after.node.pos[me]) {
                self.children += 1;
                let turn = first.unwrap_or(after.turn(dest));
                if Some(dest) == target {
                    return Some((turn, depth));
                }
                if self.params.position_only_visited {
                    if self.visited_cells >> dest & 1 == 0 {
                        self.visited_cells |= 1 << dest;
                        self.queue.push_back((after.moved(me, dest), turn, depth + 1));
                    }
                } else {
                    let child = after.moved(me, dest);
                    if self.visited_keys.insert(child.key()) {
                        self.queue.push_back((child, turn, depth + 1));
                    }
                }
            }
        }
        None
    }
}

impl BigBrain {
    /// The breadth-first search from the observed position, up to the budget.
    pub fn search(&self, obs: &Observation) -> Plan {
        let root = Node::root(obs);
        let mut bfs = Bfs {
            params: &self.0,
            obs,
            visited_cells: 1 << root.pos[obs.me],
            visited_keys: HashSet::from([root.key()]),
            queue: VecDeque::new(),
            children: 0,
        };
        let mut found = bfs.expand(&root, None, 1);
        while found.is_none() {
            // The budget is checked before each dequeue, like the original's clock.
            if bfs.children >= self.0.budget {
                break;
            }
            let Some((node, first, depth)) = bfs.queue.pop_front() else { break };
            found = bfs.expand(&node, Some(first), depth);
        }
        Plan { first: found, children: bfs.children }
    }
}

impl Bot for BigBrain {
    fn decide(&self, obs: &Observation, rng: &mut GameRng) -> Decision {
        let plan = self.search(obs);
        match plan.first {
            Some((turn, depth)) => Decision::plain(
                turn,
                format!("big-brain: target in {depth} own turn(s), {} children", plan.children),
                plan.children,
            ),
            None => {
                let turns = obs.legal_turns();
                let turn = turns[rng.random_range(0..turns.len())];
                Decision {
                    turn,
                    why: format!("big-brain: no plan in {} children, random turn", plan.children),
                    nodes: plan.children,
                    exhausted: plan.children >= self.0.budget,
                }
            }
        }
    }
}
