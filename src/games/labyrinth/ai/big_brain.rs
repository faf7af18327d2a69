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

impl<'a> Bfs<'a> {
    /// A search from `root`, which counts as visited.
    fn new(params: &'a BigBrainParams, obs: &'a Observation, root: &Node) -> Bfs<'a> {
        Bfs {
            params,
            obs,
            visited_cells: 1 << root.pos[obs.me],
            visited_keys: HashSet::from([root.key()]),
            queue: VecDeque::new(),
            children: 0,
        }
    }

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
        let mut bfs = Bfs::new(&self.0, obs, &root);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::labyrinth::ai::test_positions::{out_of_reach, positions, reaches_target};
    use crate::lab::rng::game_rng;

    fn big_brain(budget: u64, position_only_visited: bool) -> BigBrain {
        BigBrain(BigBrainParams { budget, position_only_visited })
    }

    #[test]
    fn a_target_in_reach_is_taken_by_the_first_turn_reaching_it() {
        let mut reached = 0;
        for obs in positions() {
            let turns = obs.legal_turns();
            let Some(first) = turns.iter().position(|&t| reaches_target(&obs, t)) else { continue };
            for position_only_visited in [true, false] {
                let plan = big_brain(20_000, position_only_visited).search(&obs);
                assert_eq!(plan.first, Some((turns[first], 1)));
                assert_eq!(plan.children, first as u64 + 1, "children generated up to the first hit");
            }
            reached += 1;
        }
        assert!(reached >= 2, "{reached} positions with the target in reach");
    }

    /// The legal turns, in canonical order, that first end on a cell other than the bot's own:
    /// the nodes the web project's rule queues.
    fn first_turn_to_each_new_cell(obs: &Observation) -> Vec<Turn> {
        let mut cells = vec![obs.players[obs.me].pos];
        let mut out = Vec::new();
        for t in obs.legal_turns() {
            if !cells.contains(&t.dest) {
                cells.push(t.dest);
                out.push(t);
            }
        }
        out
    }

    /// Whether some turn from the node after `turn` ends on the target (opponents frozen).
    fn reaches_next_round(obs: &Observation, turn: Turn) -> bool {
        let root = Node::root(obs);
        let after = root.inserted(turn.insertion, turn.rotation).moved(obs.me, turn.dest);
        after.insertions().any(|i| {
            let target = obs.target_cell(&i.node.board);
            destinations(i.maze, i.node.pos[obs.me]).any(|d| Some(d) == target)
        })
    }

    #[test]
    fn out_of_reach_the_search_plans_through_the_first_queued_turn_that_leads_to_the_target() {
        // Breadth first: the first depth-1 node (canonical order) with a hit below it wins. The
        // web project's rule queues only the first node on each cell, the bot's own not at all.
        for obs in out_of_reach() {
            let turns = obs.legal_turns();
            for position_only_visited in [true, false] {
                let queued = if position_only_visited { first_turn_to_each_new_cell(&obs) } else { turns.clone() };
                let want = queued.into_iter().find(|&t| reaches_next_round(&obs, t));
                let plan = big_brain(1_000_000, position_only_visited).search(&obs);
                assert_eq!(plan.first.filter(|p| p.1 == 2).map(|p| p.0), want, "cells only: {position_only_visited}");
                assert!(plan.first.is_some());
            }
        }
    }

    #[test]
    fn the_web_rule_queues_one_node_per_cell_and_none_on_the_bots_own() {
        for obs in out_of_reach() {
            let (root, me) = (Node::root(&obs), obs.me);
            let want: Vec<(Node, Turn, u32)> = first_turn_to_each_new_cell(&obs)
                .into_iter()
                .map(|t| (root.inserted(t.insertion, t.rotation).moved(me, t.dest), t, 2))
                .collect();
            let params = BigBrainParams { budget: 1_000_000, position_only_visited: true };
            let mut bfs = Bfs::new(&params, &obs, &root);
            assert_eq!(bfs.expand(&root, None, 1), None);
            assert_eq!(bfs.queue, want);
        }
    }

    #[test]
    fn a_spent_budget_stops_before_the_next_node_and_plays_a_random_turn() {
        let obs = &out_of_reach()[0];
        let round: u64 = obs.legal_turns().len() as u64;
        for position_only_visited in [true, false] {
            let bot = big_brain(round, position_only_visited);
            assert_eq!((bot.search(obs).first, bot.search(obs).children), (None, round));
            let turns: Vec<Turn> = (0..20).map(|i| bot.decide(obs, &mut game_rng(i, 0)).turn).collect();
            assert!(turns.iter().all(|t| obs.legal_turns().contains(t)));
            assert!(turns.iter().any(|&t| t != turns[0]), "a random turn");
            let d = bot.decide(obs, &mut game_rng(0, 0));
            assert_eq!((d.nodes, d.exhausted), (round, true));
        }
    }
}
