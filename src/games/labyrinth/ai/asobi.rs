//! asobi's own bot (spec §7): instead of a distance proxy it measures the chance of reaching
//! the target by its next own turn, averaged over every reply insertion of the next player,
//! and it hinders that player.
//!
//! 1. If some turn reaches the target now, among those play the one that leaves the next
//!    player the fewest possible targets within reach (its card is hidden, so every card of
//!    the unrevealed set U is equally likely; once its cards are all revealed, its home).
//! 2. Otherwise score every (insertion, rotation, destination) by the fraction of the next
//!    player's replies (insertion × rotation of the spare we hand over, wrap included) after
//!    which some own insertion lets us walk onto the target, minus the same threat term, plus
//!    small tie-breakers: a fixed tile, and fewer walls between us and the target (0-1 BFS).
//!
//! All of it is bit-set work: the cells from which the target is reachable next turn are
//! pulled back through each insertion ([`Insertion::pull`]) instead of replaying pieces.

use super::node::{Inserted, Node};
use super::{Bot, Decision};
use crate::games::labyrinth::level::AsobiParams;
use crate::games::labyrinth::rules::board::{ALL, cells_of, is_fixed};
use crate::games::labyrinth::rules::{Board, Cell, Cells, Insertion, Maze, Observation, Target};
use crate::lab::rng::GameRng;

/// asobi's Labyrinth bot with its weights.
pub struct AsobiBot(pub AsobiParams);

/// Cells in column 0 and column 6.
const WEST_EDGE: Cells = 1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28 | 1 << 35 | 1 << 42;
const EAST_EDGE: Cells = WEST_EDGE << 6;

/// Walls to break through from each cell to `target` (0-1 BFS: passages cost 0, any other
/// step to a neighbour 1); 6 everywhere when the target is off the board.
pub fn wall_distance(maze: Maze, target: Option<Cell>) -> [u8; 49] {
    let mut dist = [6u8; 49];
    let Some(t) = target else { return dist };
    let mut seen = maze.reach_from(t);
    let mut layer = seen;
    let mut k = 0u8;
    while layer != 0 {
        for c in cells_of(layer) {
            dist[c as usize] = k;
        }
        let near = ((seen << 1) & !WEST_EDGE) | ((seen >> 1) & !EAST_EDGE) | (seen << 7) | (seen >> 7);
        layer = maze.reach(near & ALL & !seen) & !seen;
        seen |= layer;
        k += 1;
    }
    dist
}

impl AsobiBot {
    /// The share of possible targets the next player can reach on its coming turn.
    fn threat(&self, obs: &Observation, after: &Inserted, boards: &mut u64) -> f64 {
        let opp = (obs.me + 1) % obs.players.len();
        let p = &obs.players[opp];
        let unrevealed = obs.unrevealed();
        let mut reached: u32 = 0;
        for reply in self.replies(after) {
            *boards += 1;
            let reach = reply.maze.reach_from(reply.node.pos[opp]);
            if p.cards_left == 0 {
                if reach >> p.home & 1 != 0 {
                    return 1.0;
                }
                continue;
            }
            for c in cells_of(reach & reply.node.board.treasure_cells(unrevealed)) {
                reached |= 1 << reply.node.board.tile(c).treasure.expect("a treasure cell");
            }
        }
        if p.cards_left == 0 {
            0.0
        } else {
            f64::from(reached.count_ones()) / f64::from(unrevealed.count_ones().max(1))
        }
    }

    /// The next player's possible insertions after `after`.
    fn replies<'a>(&self, after: &'a Inserted) -> impl Iterator<Item = Inserted> + 'a {
        let rotations = self.0.reply_rotations.clamp(1, 4);
        let node = &after.node;
        Insertion::allowed(node.last).flat_map(move |at| (0..rotations).map(move |r| node.inserted(at, r)))
    }

    /// Cells of `board` (after insertion `last`, the target on `target`) from which some own
    /// insertion lets us walk onto the target.
    fn ways(obs: &Observation, board: &Board, last: Insertion, target: Option<Cell>, boards: &mut u64) -> Cells {
        let mut ways = 0;
        for at in Insertion::allowed(Some(last)) {
            let t = match obs.target {
                Target::Home => Some(obs.players[obs.me].home),
                Target::Treasure(_) => at.move_tile(target),
            };
            let Some(t) = t else { continue };
            // The four rotations differ only in the inserted tile.
            let mut next = board.clone();
            next.insert(at, 0);
            let sides = next.sides();
            for r in 0..4 {
                *boards += 1;
                let maze = sides.with_tile(at.line()[0], board.spare.rotated(r).open).maze();
                ways |= at.pull(maze.reach_from(t));
            }
        }
        ways
    }
}

impl Bot for AsobiBot {
    fn decide(&self, obs: &Observation, _rng: &mut GameRng) -> Decision {
        let me = obs.me;
        let afters: Vec<Inserted> = Node::root(obs).insertions().collect();
        let reaching: Vec<(&Inserted, Cell)> = afters
            .iter()
            .filter_map(|a| {
                let t = obs.target_cell(&a.node.board)?;
                (a.maze.reach_from(a.node.pos[me]) >> t & 1 != 0).then_some((a, t))
            })
            .collect();
        let mut best: Option<(f64, _, String)> = None;
        let mut boards = afters.len() as u64;
        let mut offer = |value: f64, turn, why: &dyn Fn() -> String| {
            if best.as_ref().is_none_or(|(b, _, _)| value > *b) {
                best = Some((value, turn, why()));
            }
        };
        if !reaching.is_empty() {
            for (after, t) in reaching {
                let threat = self.threat(obs, after, &mut boards);
                let value = self.0.reach_now - self.0.threat * threat;
                offer(value, after.turn(t), &|| format!("asobi: target now; next player's threat {threat:.2}"));
            }
        } else {
            for after in &afters {
                let threat = self.threat(obs, after, &mut boards);
                let target = obs.target_cell(&after.node.board);
                let walls = wall_distance(after.maze, target);
                let mut counts = [0u32; 49];
                let mut replies = 0u32;
                for reply in self.replies(after) {
                    replies += 1;
                    let at = reply.insertion();
                    let target = match obs.target {
                        Target::Home => None,
                        Target::Treasure(_) => at.move_tile(target),
                    };
                    for c in cells_of(at.pull(Self::ways(obs, &reply.node.board, at, target, &mut boards))) {
                        counts[c as usize] += 1;
                    }
                }
                for dest in cells_of(after.maze.reach_from(after.node.pos[me])) {
                    let chance = f64::from(counts[dest as usize]) / f64::from(replies);
                    let value = chance - self.0.threat * threat + self.0.fixed * f64::from(is_fixed(dest))
                        - self.0.maze_distance * f64::from(walls[dest as usize]);
                    offer(value, after.turn(dest), &|| {
                        format!(
                            "asobi: next-turn chance {chance:.2}, threat {threat:.2}, walls {}",
                            walls[dest as usize]
                        )
                    });
                }
            }
        }
        let (_, turn, why) = best.expect("there is always a legal turn");
        Decision::plain(turn, why, boards)
    }
}
