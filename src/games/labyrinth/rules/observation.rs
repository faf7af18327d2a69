//! What one player may see (spec §1, §2.4): the board, the spare, every piece, every revealed
//! card, how many cards each player has left, and only its own current card. The type holds
//! no hidden card, so a bot given an [`Observation`] cannot peek.

use serde::{Deserialize, Serialize};

use super::board::{Board, Cell, Cells, Insertion, Maze};
use super::game::Turn;
use super::tile::Treasure;

/// The observer's current goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// A treasure card.
    Treasure(Treasure),
    /// Every card revealed: back to the start corner.
    Home,
}

/// The public part of a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicPlayer {
    /// Start corner.
    pub home: Cell,
    /// Cell the piece stands on.
    pub pos: Cell,
    /// Cards found so far, in order.
    pub revealed: Vec<Treasure>,
    /// Cards still to find (their faces hidden).
    pub cards_left: usize,
}

/// One player's view of the game; built only by `GameState::observe`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The tiles on the board and the spare.
    pub board: Board,
    /// The previous insertion: its opposite is blocked this turn.
    pub last: Option<Insertion>,
    /// The observer's seat.
    pub me: usize,
    /// What the observing seat is after now.
    pub target: Target,
    /// Every seat as all players see it.
    pub players: Vec<PublicPlayer>,
}

impl Observation {
    /// The cell of the observer's target on `board`, `None` while it is the spare.
    pub fn target_cell(&self, board: &Board) -> Option<Cell> {
        match self.target {
            Target::Treasure(t) => board.find(t),
            Target::Home => Some(self.players[self.me].home),
        }
    }

    /// The unrevealed set U (spec §4.2): all 24 cards minus every revealed card minus the
    /// observer's current card, as bits.
    pub fn unrevealed(&self) -> u32 {
        let mut u: u32 = (1 << 24) - 1;
        for p in &self.players {
            for &t in &p.revealed {
                u &= !(1 << t);
            }
        }
        if let Target::Treasure(t) = self.target {
            u &= !(1 << t);
        }
        u
    }

    /// Every legal turn, in canonical order: insertion, rotation, then destination
    /// (the piece's own cell first, then increasing).
    pub fn legal_turns(&self) -> Vec<Turn> {
        let mut out = Vec::new();
        for insertion in Insertion::allowed(self.last) {
            for rotation in 0..4 {
                let mut board = self.board.clone();
                board.insert(insertion, rotation);
                let pos = insertion.push(self.players[self.me].pos);
                for dest in destinations(board.maze(), pos) {
                    out.push(Turn { insertion, rotation, dest });
                }
            }
        }
        out
    }
}

/// The cells reachable from `pos`, `pos` first.
pub fn destinations(maze: Maze, pos: Cell) -> impl Iterator<Item = Cell> {
    let others: Cells = maze.reach_from(pos) & !(1 << pos);
    std::iter::once(pos).chain(super::board::cells_of(others))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::labyrinth::rules::game::{GameState, Player};
    use crate::games::labyrinth::setup::new_game;
    use crate::lab::rng::game_rng;

    /// Three seats: seat 0 after card 2, seat 1 after card 5, seat 2 going home.
    fn mid_game() -> GameState {
        let board = new_game(3, Some(0), &mut game_rng(7, 0)).board;
        let players = vec![
            Player::mid_game(0, 0, vec![0, 1, 2, 3], 2),
            Player::mid_game(6, 6, vec![4, 5, 6], 1),
            Player::mid_game(48, 48, vec![7, 8], 2),
        ];
        GameState::new(board, players, 0)
    }

    fn bits(cards: &[Treasure]) -> u32 {
        cards.iter().map(|&t| 1 << t).sum()
    }

    #[test]
    fn unrevealed_leaves_out_every_revealed_card_and_the_observers_own() {
        let g = mid_game();
        let all = (1 << 24) - 1;
        assert_eq!(g.observe(0).unrevealed(), all & !bits(&[0, 1, 2, 4, 7, 8]));
        assert_eq!(g.observe(1).unrevealed(), all & !bits(&[0, 1, 4, 5, 7, 8]));
        assert_eq!(g.observe(2).target, Target::Home);
        assert_eq!(g.observe(2).unrevealed(), all & !bits(&[0, 1, 4, 7, 8]));
    }

    #[test]
    fn destinations_are_the_reachable_cells_each_once_the_start_first() {
        let board = new_game(2, Some(0), &mut game_rng(9, 0)).board;
        let maze = board.maze();
        for pos in 0..49 {
            let dests: Vec<Cell> = destinations(maze, pos).collect();
            assert_eq!(dests[0], pos);
            let set: Cells = dests.iter().map(|&c| 1u64 << c).fold(0, |a, b| a | b);
            assert_eq!(set, maze.reach_from(pos));
            assert_eq!(dests.len() as u32, set.count_ones(), "no cell twice");
        }
    }
}
