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

    /// For each cell, how many of the next player's replies to `after` leave us a turn from
    /// there onto the target; and how many replies there are.
    fn next_turn_counts(&self, obs: &Observation, after: &Inserted, boards: &mut u64) -> ([u32; 49], u32) {
        let target = obs.target_cell(&after.node.board);
        let mut counts = [0u32; 49];
        let mut replies = 0u32;
        for reply in self.replies(after) {
            replies += 1;
            let at = reply.insertion();
            let target = match obs.target {
                Target::Home => None,
                Target::Treasure(_) => at.move_tile(target),
            };
            for c in cells_of(at.pull(Self::ways(obs, &reply.node.board, at, target, boards))) {
                counts[c as usize] += 1;
            }
        }
        (counts, replies)
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
                let walls = wall_distance(after.maze, obs.target_cell(&after.node.board));
                let (counts, replies) = self.next_turn_counts(obs, after, &mut boards);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::labyrinth::ai::test_positions::{out_of_reach, positions};
    use crate::games::labyrinth::rules::board::{cell, xy};
    use crate::games::labyrinth::rules::tile::{E, N, S, W};
    use crate::games::labyrinth::rules::{GameState, Player, Turn};
    use crate::games::labyrinth::setup::new_game;
    use crate::lab::rng::game_rng;

    /// Walls between each cell and `t` the slow way: Dijkstra over neighbours, a step costing 0
    /// where both tiles open towards each other and 1 otherwise.
    fn slow_wall_distance(board: &Board, t: Cell) -> [u8; 49] {
        let mut dist = [u8::MAX; 49];
        dist[t as usize] = 0;
        let mut todo = vec![t];
        while let Some(c) = todo.pop() {
            let (x, y) = xy(c);
            for (out, back, dx, dy) in [(N, S, 0, -1), (S, N, 0, 1), (E, W, 1, 0), (W, E, -1, 0)] {
                let (nx, ny) = (x as i8 + dx, y as i8 + dy);
                if !(0..7).contains(&nx) || !(0..7).contains(&ny) {
                    continue;
                }
                let n = cell(nx as u8, ny as u8);
                let open = board.tile(c).is_open(out) && board.tile(n).is_open(back);
                let d = dist[c as usize] + u8::from(!open);
                if d < dist[n as usize] {
                    dist[n as usize] = d;
                    todo.push(n);
                }
            }
        }
        dist
    }

    #[test]
    fn wall_distance_counts_the_walls_to_break_on_the_cheapest_way() {
        let boards = (0..30).map(|seed| new_game(2, Some(0), &mut game_rng(seed, 3)).board);
        for (i, board) in positions().into_iter().map(|o| o.board).chain(boards).enumerate() {
            for t in 0..49 {
                assert_eq!(
                    wall_distance(board.maze(), Some(t)),
                    slow_wall_distance(&board, t),
                    "board {i}, target {t}"
                );
            }
        }
        assert_eq!(wall_distance(positions()[0].board.maze(), None), [6; 49]);
    }

    fn bot(reply_rotations: u8) -> AsobiBot {
        AsobiBot(AsobiParams { reply_rotations, ..AsobiParams::default() })
    }

    /// Every reply of the next player to `after`: its insertion, rotation and board.
    fn replies(after: &Inserted, rotations: u8) -> Vec<(Insertion, Board)> {
        let allowed = Insertion::allowed(after.node.last);
        allowed
            .flat_map(|at| {
                (0..rotations).map(move |r| {
                    let mut board = after.node.board.clone();
                    board.insert(at, r);
                    (at, board)
                })
            })
            .collect()
    }

    #[test]
    fn the_threat_is_the_share_of_possible_targets_the_next_player_reaches() {
        // Its card is hidden: every card of U is as likely. Going home, the threat is all or
        // nothing. `positions()[6]` hands the turn to a player going home.
        let mut seen = [0; 3]; // threats of 0, between, 1
        for (i, obs) in positions().iter().enumerate() {
            let next = (obs.me + 1) % obs.players.len();
            let p = &obs.players[next];
            for rotations in [4, 2] {
                let bot = bot(rotations);
                for after in Node::root(obs).insertions().step_by(7) {
                    let mut reached = 0u32;
                    let mut home = false;
                    let all = replies(&after, rotations);
                    for (at, board) in &all {
                        let reach = board.maze().reach_from(at.push(after.node.pos[next]));
                        home |= reach >> p.home & 1 == 1;
                        let u = obs.unrevealed();
                        for t in (0..24).filter(|t| u >> t & 1 == 1) {
                            if board.find(t).is_some_and(|c| reach >> c & 1 == 1) {
                                reached |= 1 << t;
                            }
                        }
                    }
                    let want = if p.cards_left == 0 {
                        f64::from(home)
                    } else {
                        f64::from(reached.count_ones()) / f64::from(obs.unrevealed().count_ones())
                    };
                    let mut boards = 0;
                    let threat = bot.threat(obs, &after, &mut boards);
                    if p.cards_left > 0 {
                        assert_eq!(boards as usize, all.len(), "one board looked at per reply");
                    }
                    assert_eq!(threat, want, "position {i}, {} rot {}", after.insertion(), after.rotation);
                    seen[usize::from(threat > 0.0) + usize::from(threat == 1.0)] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    /// Whether some turn of ours on `board` (after the reply `last`) walks from `from` onto the
    /// target, every insertion and rotation tried.
    fn reaches_next_turn(obs: &Observation, board: &Board, last: Insertion, from: Cell) -> bool {
        Insertion::allowed(Some(last)).any(|at| {
            (0..4).any(|r| {
                let mut next = board.clone();
                next.insert(at, r);
                obs.target_cell(&next).is_some_and(|t| next.maze().reach_from(at.push(from)) >> t & 1 == 1)
            })
        })
    }

    #[test]
    fn a_cells_count_is_the_replies_after_which_our_next_turn_reaches_the_target() {
        // Out of reach now, and going home (the target never moves).
        let board = new_game(2, Some(0), &mut game_rng(5, 0)).board;
        let players = vec![Player::mid_game(0, 24, vec![3], 1), Player::mid_game(48, 48, vec![6, 7], 0)];
        let going_home = GameState::new(board, players, 0).observe(0);
        let mut counted = 0;
        for obs in [out_of_reach()[0].clone(), going_home] {
            for rotations in [4, 1] {
                let bot = bot(rotations);
                for after in Node::root(&obs).insertions().step_by(37) {
                    let mut boards = 0;
                    let (counts, replies) = bot.next_turn_counts(&obs, &after, &mut boards);
                    let all = self::replies(&after, rotations);
                    assert_eq!(replies as usize, all.len());
                    if obs.target == Target::Home {
                        assert_eq!(boards, u64::from(replies) * 11 * 4, "11 insertions x 4 rotations a reply");
                    }
                    for dest in cells_of(after.maze.reach_from(after.node.pos[obs.me])) {
                        let want =
                            all.iter().filter(|(at, board)| reaches_next_turn(&obs, board, *at, at.push(dest))).count();
                        assert_eq!(
                            counts[dest as usize] as usize,
                            want,
                            "{} rot {} to {dest}",
                            after.insertion(),
                            after.rotation
                        );
                        counted += usize::from(want > 0);
                    }
                }
            }
        }
        assert!(counted > 0);
    }

    #[test]
    fn the_bot_plays_the_first_turn_of_the_highest_value() {
        // In reach: reach_now − threat·w among the turns onto the target. Otherwise:
        // chance − threat·w + fixed·[fixed tile] − maze_distance·walls.
        let shy = AsobiParams { reply_rotations: 1, ..AsobiParams::default() };
        let wary = AsobiParams { threat: 5.0, ..shy.clone() };
        for (params, obs) in
            [shy, wary].iter().flat_map(|p| positions().into_iter().chain(out_of_reach()).map(move |o| (p, o)))
        {
            let bot = AsobiBot(params.clone());
            let mut best: Option<(f64, Turn)> = None;
            let mut offer = |value: f64, turn| {
                if best.is_none_or(|(b, _)| value > b) {
                    best = Some((value, turn));
                }
            };
            let afters: Vec<Inserted> = Node::root(&obs).insertions().collect();
            let reach = |a: &Inserted| a.maze.reach_from(a.node.pos[obs.me]);
            let in_reach = |a: &Inserted| obs.target_cell(&a.node.board).filter(|&t| reach(a) >> t & 1 == 1);
            let now = afters.iter().any(|a| in_reach(a).is_some());
            for a in &afters {
                let threat = bot.threat(&obs, a, &mut 0);
                if now {
                    if let Some(t) = in_reach(a) {
                        offer(params.reach_now - params.threat * threat, a.turn(t));
                    }
                    continue;
                }
                let (counts, replies) = bot.next_turn_counts(&obs, a, &mut 0);
                let walls = wall_distance(a.maze, obs.target_cell(&a.node.board));
                for dest in cells_of(reach(a)) {
                    let chance = f64::from(counts[dest as usize]) / f64::from(replies);
                    let tie_break = params.fixed * f64::from(is_fixed(dest))
                        - params.maze_distance * f64::from(walls[dest as usize]);
                    offer(chance - params.threat * threat + tie_break, a.turn(dest));
                }
            }
            assert_eq!(bot.decide(&obs, &mut game_rng(0, 0)).turn, best.unwrap().1);
        }
    }
}
