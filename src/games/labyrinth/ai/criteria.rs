//! The thesis's five criteria (Miyamoto 2024, §3.2-3.3; spec §4) on its common search
//! framework (§3.1): score every (insertion, rotation, destination); if a child passes the
//! threshold play the best passing one, else expand children level by level, each node's
//! children in descending score order, until one passes (play its depth-1 ancestor) or the
//! node budget runs out (play the best depth-1 child).

use std::collections::{HashSet, VecDeque};

use super::node::{Inserted, Node};
use super::{Bot, Decision};
use crate::games::labyrinth::level::{Criterion, SearchParams};
use crate::games::labyrinth::rules::board::{is_fixed, manhattan, xy};
use crate::games::labyrinth::rules::observation::destinations;
use crate::games::labyrinth::rules::tile::{E, N, S, W};
use crate::games::labyrinth::rules::{Cell, Cells, Observation, Tile, Turn};
use crate::lab::rng::GameRng;

/// A bot that plays by one of the thesis's five criteria on its common search framework.
pub struct CriterionBot {
    /// Which criterion scores the children.
    pub criterion: Criterion,
    /// The search framework's settings.
    pub search: SearchParams,
}

/// The destination-dependent part of a score: target bonus, distance, wall, fixed, twoDir.
/// `target` is T's cell and tile after the insertion, `None` while T is the spare.
pub fn position_score(c: &Criterion, target: Option<(Cell, Tile)>, dest: Cell) -> f64 {
    let (x, y) = xy(dest);
    let two_dir = (x % 2 == 1) != (y % 2 == 1);
    let mut s = c.base + c.fixed * f64::from(is_fixed(dest)) + c.two_dir * f64::from(two_dir);
    match target {
        None => s -= c.distance * c.offboard_distance,
        Some((t, _)) if t == dest => s += c.target,
        Some((t, tile)) => {
            s -= c.distance * f64::from(manhattan(t, dest));
            if walled(t, tile, dest) {
                s -= c.wall;
            }
        }
    }
    s
}

/// The thesis's wall rule (spec §4.2): every side of T facing the destination is closed.
pub fn walled(t: Cell, tile: Tile, dest: Cell) -> bool {
    let ((tx, ty), (dx, dy)) = (xy(t), xy(dest));
    let mut facing = 0;
    facing |= if dy < ty {
        N
    } else if dy > ty {
        S
    } else {
        0
    };
    facing |= if dx < tx {
        W
    } else if dx > tx {
        E
    } else {
        0
    };
    facing != 0 && tile.open & facing == 0
}

/// The insertion-dependent part: treasure counts and the opponents-going-home term.
fn insertion_score(c: &Criterion, obs: &Observation, after: &Inserted, unrevealed: u32) -> f64 {
    let mut s = 0.0;
    let counting = c.mine != 0.0 || c.opp != 0.0;
    let treasures: Cells = if counting { after.node.board.treasure_cells(unrevealed) } else { 0 };
    for (seat, p) in obs.players.iter().enumerate() {
        let reach = after.maze.reach_from(after.node.pos[seat]);
        let count = f64::from((reach & treasures).count_ones());
        if seat == obs.me {
            s += c.mine * count;
        } else {
            s -= c.opp * count;
            if p.cards_left == 0 && reach >> p.home & 1 != 0 {
                s -= c.opp_home;
            }
        }
    }
    s
}

/// A scored child: its depth-1 turn, score, whether it passes, and the node after the move.
struct Child {
    first: Turn,
    score: f64,
    passes: bool,
    node: Node,
}

impl CriterionBot {
    /// A bot playing by `criterion`.
    pub fn new(criterion: Criterion, search: SearchParams) -> CriterionBot {
        CriterionBot { criterion, search }
    }

    /// Every child of `node`, scored, in canonical order.
    fn children(&self, obs: &Observation, node: &Node, first: Option<Turn>, unrevealed: u32) -> Vec<Child> {
        let c = &self.criterion;
        let mut out = Vec::new();
        for after in node.insertions() {
            let board = &after.node.board;
            let target = obs.target_cell(board).map(|t| (t, board.tile(t)));
            let base = insertion_score(c, obs, &after, unrevealed);
            for dest in destinations(after.maze, after.node.pos[obs.me]) {
                let score = base + position_score(c, target, dest);
                let passes = match c.threshold {
                    None => target.is_some_and(|(t, _)| t == dest),
                    Some(x) => score >= x,
                };
                out.push(Child {
                    first: first.unwrap_or(after.turn(dest)),
                    score,
                    passes,
                    node: after.moved(obs.me, dest),
                });
            }
        }
        out
    }

    /// The best passing child, the first of equals.
    fn best_passing(children: &[Child]) -> Option<&Child> {
        children.iter().filter(|c| c.passes).fold(None, |b: Option<&Child>, c| match b {
            Some(b) if b.score >= c.score => Some(b),
            _ => Some(c),
        })
    }
}

impl Bot for CriterionBot {
    fn decide(&self, obs: &Observation, _rng: &mut GameRng) -> Decision {
        let unrevealed = obs.unrevealed();
        let root = Node::root(obs);
        let mut level = self.children(obs, &root, None, unrevealed);
        let mut generated = level.len() as u64;
        if let Some(best) = Self::best_passing(&level) {
            return Decision::plain(best.first, format!("passes at depth 1 with score {}", best.score), generated);
        }
        level.sort_by(|a, b| b.score.total_cmp(&a.score));
        let fallback = (level[0].first, level[0].score);
        let mut seen: HashSet<u64> = level.iter().map(|c| c.node.key()).collect();
        seen.insert(root.key());
        let mut queue: VecDeque<(Child, u32)> = level.into_iter().map(|c| (c, 2)).collect();
        while let Some((parent, depth)) = queue.pop_front() {
            if depth > self.search.max_depth || generated >= self.search.budget {
                break;
            }
            let mut kids = self.children(obs, &parent.node, Some(parent.first), unrevealed);
            generated += kids.len() as u64;
            if let Some(best) = Self::best_passing(&kids) {
                return Decision::plain(
                    best.first,
                    format!("passes at depth {depth} (score {}), {generated} children", best.score),
                    generated,
                );
            }
            kids.sort_by(|a, b| b.score.total_cmp(&a.score));
            for k in kids {
                if seen.insert(k.node.key()) {
                    queue.push_back((k, depth + 1));
                }
            }
        }
        Decision {
            turn: fallback.0,
            why: format!("nothing passes in {generated} children; best depth-1 score {}", fallback.1),
            nodes: generated,
            exhausted: generated >= self.search.budget,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::labyrinth::rules::board::cell;
    use crate::games::labyrinth::rules::{Shape, Tile};

    /// Figure 3.1's target: the Mouse on (3,3), a corner open S and W.
    fn grid(c: &Criterion) -> Vec<Vec<f64>> {
        let t = (cell(3, 3), Tile::new(Shape::Corner, 2, Some(12)));
        (0..7).map(|y| (0..7).map(|x| position_score(c, Some(t), cell(x, y))).collect()).collect()
    }

    fn rows(text: &str) -> Vec<Vec<f64>> {
        text.lines().map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect()).collect()
    }

    #[test]
    fn distance_grid_matches_figure_3_4() {
        let want = rows(
            "9 10 11 10 9 8 7\n10 11 12 11 10 9 8\n11 12 13 12 11 10 9\n12 13 14 15 12 11 10\n\
             11 12 13 14 13 12 11\n10 11 12 13 12 11 10\n9 10 11 12 11 10 9",
        );
        assert_eq!(grid(&Criterion::DISTANCE), want);
    }

    #[test]
    fn static_tile_grid_matches_figure_3_5() {
        let want = rows(
            "95 100 115 100 95 80 75\n100 110 120 110 100 90 80\n115 120 135 120 115 100 95\n\
             120 130 140 150 120 110 100\n115 120 135 140 135 120 115\n100 110 120 130 120 110 100\n\
             95 100 115 120 115 100 95",
        );
        assert_eq!(grid(&Criterion::STATIC_TILE), want);
    }

    #[test]
    fn slide_grid_matches_figure_3_6() {
        let want = rows(
            "190 205 230 205 190 165 150\n205 220 245 220 205 180 165\n230 245 270 245 230 205 190\n\
             245 260 285 300 245 220 205\n230 245 270 285 270 245 230\n205 220 245 260 245 220 205\n\
             190 205 230 245 230 205 190",
        );
        assert_eq!(grid(&Criterion::SLIDE_DIRECTION), want);
    }
}
