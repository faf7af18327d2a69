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
    use crate::games::labyrinth::ai::test_positions::{board_after, out_of_reach, positions};
    use crate::games::labyrinth::rules::board::cell;
    use crate::games::labyrinth::rules::{Board, Shape, Tile};
    use crate::lab::rng::game_rng;

    /// Figure 3.1's target: the Mouse on (3,3), a corner open S and W.
    fn grid(c: &Criterion) -> Vec<Vec<f64>> {
        let t = (cell(3, 3), Tile::new(Shape::Corner, 2, Some(12)));
        (0..7).map(|y| (0..7).map(|x| position_score(c, Some(t), cell(x, y))).collect()).collect()
    }

    fn rows(text: &str) -> Vec<Vec<f64>> {
        text.lines().map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect()).collect()
    }

    #[test]
    fn walled_checks_only_the_sides_of_t_facing_the_destination() {
        let t = cell(3, 3);
        let (upright, across) = (Tile::new(Shape::Straight, 0, None), Tile::new(Shape::Straight, 1, None));
        let walled_at = |tile, x, y| walled(t, tile, cell(x, y));
        // In line: the one facing side decides.
        assert!(walled_at(upright, 5, 3) && walled_at(upright, 1, 3));
        assert!(!walled_at(upright, 3, 1) && !walled_at(upright, 3, 6));
        assert!(walled_at(across, 3, 1) && walled_at(across, 3, 5));
        assert!(!walled_at(across, 0, 3) && !walled_at(across, 6, 3));
        // Diagonal: walled only when both facing sides are closed.
        assert!(!walled_at(upright, 5, 1) && !walled_at(across, 1, 5));
        assert!(walled_at(Tile::new(Shape::Corner, 2, None), 5, 1), "a corner open S and W, seen from the NE");
        assert!(!walled_at(upright, 3, 3), "T itself faces nothing");
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

    fn root_children(bot: &CriterionBot, obs: &Observation) -> Vec<Child> {
        bot.children(obs, &Node::root(obs), None, obs.unrevealed())
    }

    /// Treasures of U on `board` that a piece on `pos` reaches, counted cell by cell.
    fn reachable_unrevealed(obs: &Observation, board: &Board, pos: Cell) -> f64 {
        let reach = board.maze().reach_from(pos);
        let u = obs.unrevealed();
        let on_board = (0..24).filter(|&t| u >> t & 1 == 1).filter_map(|t| board.find(t));
        on_board.filter(|&c| reach >> c & 1 == 1).count() as f64
    }

    #[test]
    fn a_child_scores_the_criterions_terms_for_its_turn() {
        // level.rs: score = target·[dest = T] + base − distance·d − wall·wall + fixed·fixed
        //   + two_dir·twoDir + mine·mine − opp·opp − opp_home·[an opponent going home reaches it].
        let (mut offboard, mut homes_reached, mut homes_missed) = (0, 0, 0);
        for obs in positions() {
            let mine_only = Criterion { mine: 3.0, ..Criterion::DISTANCE };
            let opp_only = Criterion { opp: 2.0, ..Criterion::DISTANCE };
            for c in [Criterion::TREASURE_COUNT, Criterion::HYBRID, Criterion::SLIDE_DIRECTION, mine_only, opp_only] {
                let children = root_children(&CriterionBot::new(c.clone(), SearchParams::default()), &obs);
                let turns: Vec<Turn> = children.iter().map(|k| k.first).collect();
                assert_eq!(turns, obs.legal_turns());
                for (child, turn) in children.iter().zip(turns) {
                    let board = board_after(&obs, turn);
                    let pos: Vec<Cell> = obs.players.iter().map(|p| turn.insertion.push(p.pos)).collect();
                    let (x, y) = xy(turn.dest);
                    let mut want = c.base + c.fixed * f64::from(is_fixed(turn.dest));
                    want += c.two_dir * f64::from((x + y) % 2 == 1);
                    let target = obs.target_cell(&board);
                    match target {
                        None => want -= c.distance * c.offboard_distance,
                        Some(t) if t == turn.dest => want += c.target,
                        Some(t) => {
                            want -= c.distance * f64::from(manhattan(t, turn.dest));
                            want -= c.wall * f64::from(walled(t, board.tile(t), turn.dest));
                        }
                    }
                    offboard += usize::from(target.is_none());
                    for (seat, p) in obs.players.iter().enumerate() {
                        let count = reachable_unrevealed(&obs, &board, pos[seat]);
                        if seat == obs.me {
                            want += c.mine * count;
                            continue;
                        }
                        want -= c.opp * count;
                        if p.cards_left == 0 {
                            let home = board.maze().reach_from(pos[seat]) >> p.home & 1 == 1;
                            want -= c.opp_home * f64::from(home);
                            (homes_reached, homes_missed) =
                                (homes_reached + usize::from(home), homes_missed + usize::from(!home));
                        }
                    }
                    assert_eq!(child.score, want, "{turn:?} under {c:?}");
                    assert_eq!(child.passes, target == Some(turn.dest), "{turn:?}");
                    let mut moved = pos;
                    moved[obs.me] = turn.dest;
                    assert_eq!(child.node, Node { board, last: Some(turn.insertion), pos: moved });
                }
            }
        }
        assert!(offboard > 0 && homes_reached > 0 && homes_missed > 0, "{offboard} {homes_reached} {homes_missed}");
    }

    #[test]
    fn a_numeric_threshold_passes_the_children_scoring_at_least_it() {
        let obs = &positions()[1];
        let mut scores: Vec<f64> = root_children(&CriterionBot::new(Criterion::HYBRID, SearchParams::default()), obs)
            .iter()
            .map(|k| k.score)
            .collect();
        scores.sort_by(f64::total_cmp);
        let threshold = scores[scores.len() / 2];
        let bot =
            CriterionBot::new(Criterion { threshold: Some(threshold), ..Criterion::HYBRID }, SearchParams::default());
        let children = root_children(&bot, obs);
        for k in &children {
            assert_eq!(k.passes, k.score >= threshold, "{}", k.score);
        }
        assert!(children.iter().any(|k| !k.passes));
    }

    /// Every criterion bot with `search`.
    fn bots(search: &SearchParams) -> impl Iterator<Item = CriterionBot> + '_ {
        [
            Criterion::TREASURE_COUNT,
            Criterion::DISTANCE,
            Criterion::STATIC_TILE,
            Criterion::HYBRID,
            Criterion::SLIDE_DIRECTION,
        ]
        .into_iter()
        .map(|c| CriterionBot::new(c, search.clone()))
    }

    /// The first child of the highest score among `children`.
    fn first_best<'a>(children: impl Iterator<Item = &'a Child>) -> Option<&'a Child> {
        children.fold(None, |best, k| if best.is_some_and(|b: &Child| b.score >= k.score) { best } else { Some(k) })
    }

    #[test]
    fn a_passing_turn_is_played_at_once_the_best_scoring_first_of_equals() {
        let mut played = 0;
        for obs in positions() {
            for bot in bots(&SearchParams::default()) {
                let children = root_children(&bot, &obs);
                let Some(best) = first_best(children.iter().filter(|k| k.passes)) else { continue };
                let d = bot.decide(&obs, &mut game_rng(0, 0));
                assert_eq!((d.turn, d.nodes, d.exhausted), (best.first, children.len() as u64, false));
                played += 1;
            }
        }
        assert!(played >= 10, "{played} positions with a pass at depth 1");
    }

    #[test]
    fn without_a_pass_the_search_plays_the_first_best_parent_of_a_pass() {
        // Each parent's children are searched in descending score order, canonical among
        // equals: every parent before the chosen one has no passing child.
        let search = SearchParams { budget: 1_000_000, max_depth: 2 };
        for obs in out_of_reach() {
            for bot in bots(&search) {
                let parents = root_children(&bot, &obs);
                let d = bot.decide(&obs, &mut game_rng(0, 0));
                let chosen = parents.iter().position(|p| p.first == d.turn).unwrap();
                let has_pass =
                    |p: &Child| bot.children(&obs, &p.node, Some(p.first), obs.unrevealed()).iter().any(|k| k.passes);
                let before = |(i, p): &(usize, &Child)| {
                    p.score > parents[chosen].score || (p.score == parents[chosen].score && *i < chosen)
                };
                assert!(parents.iter().enumerate().filter(before).all(|(_, p)| !has_pass(p)), "{:?}", bot.criterion);
                assert!(has_pass(&parents[chosen]), "{:?}", bot.criterion);
                assert!(d.nodes > parents.len() as u64 && !d.exhausted);
            }
        }
    }

    #[test]
    fn a_search_without_a_pass_expands_each_round_up_to_the_deepest_once() {
        // A threshold above every score: with max_depth 2 each depth-1 parent is expanded
        // once, and their children are queued but never expanded.
        let obs = &out_of_reach()[0];
        let never = Criterion { threshold: Some(f64::INFINITY), ..Criterion::DISTANCE };
        let parents = root_children(&CriterionBot::new(never.clone(), SearchParams::default()), obs);
        let kids = |bot: &CriterionBot, p: &Child| bot.children(obs, &p.node, Some(p.first), obs.unrevealed()).len();
        let bot = CriterionBot::new(never.clone(), SearchParams::default());
        let generated = (parents.len() + parents.iter().map(|p| kids(&bot, p)).sum::<usize>()) as u64;
        let bot = CriterionBot::new(never, SearchParams { budget: 2 * generated, max_depth: 2 });
        let d = bot.decide(obs, &mut game_rng(0, 0));
        assert_eq!((d.turn, d.nodes, d.exhausted), (first_best(parents.iter()).unwrap().first, generated, false));
    }

    #[test]
    fn a_search_out_of_budget_or_depth_plays_the_best_turn_of_this_round() {
        let obs = &out_of_reach()[0];
        for bot in bots(&SearchParams::default()) {
            let parents = root_children(&bot, obs).len() as u64;
            for (budget, max_depth) in [(parents, 8), (1_000_000, 1)] {
                let bot = CriterionBot {
                    search: SearchParams { budget, max_depth },
                    ..CriterionBot::new(bot.criterion.clone(), SearchParams::default())
                };
                let best = first_best(root_children(&bot, obs).iter()).unwrap().first;
                let d = bot.decide(obs, &mut game_rng(0, 0));
                assert_eq!((d.turn, d.nodes, d.exhausted), (best, parents, budget == parents), "depth {max_depth}");
            }
        }
    }
}
