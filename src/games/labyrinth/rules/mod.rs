//! The rules of Labyrinth as the spec fixes them (spec §2): tiles, board and insertions,
//! the game state and what each player may observe.

pub mod board;
pub mod game;
pub mod observation;
pub mod tile;

pub use board::{Board, Cell, Cells, Insertion, Maze, Sides};
pub use game::{GameState, IllegalTurn, Player, Turn};
pub use observation::{Observation, PublicPlayer, Target};
pub use tile::{Shape, TREASURES, Tile, Treasure};
