//! The rules of Shanghai (paper §2, spec §2): tiles of kinds, free tiles, moves, the end of
//! a game, and what a player may see.

mod game;
mod observation;

pub use game::Game;
pub use observation::{Observation, UNKNOWN};

use super::layout::Layout;
use super::tileset::TileSet;

/// A tile kind, `0..kinds`. Every kind has 4 tiles (one kind of 2 when the layout's size is
/// 2 mod 4, spec §10.8).
pub type Kind = u8;

/// Removing two free tiles of one kind; `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Move {
    pub a: u16,
    pub b: u16,
}

impl Move {
    pub fn new(a: usize, b: usize) -> Move {
        Move { a: a.min(b) as u16, b: a.max(b) as u16 }
    }

    pub fn tiles(&self) -> [usize; 2] {
        [self.a as usize, self.b as usize]
    }
}

/// How many tiles each kind has in a deal of `n` tiles: n/4 kinds of 4, then a kind of 2
/// if n is 2 mod 4.
pub fn kind_sizes(n: usize) -> Vec<u8> {
    let mut sizes = vec![4; n / 4];
    if n % 4 == 2 {
        sizes.push(2);
    }
    sizes
}

/// The legal moves (unordered pairs of free tiles of one kind) of the tiles in `present`
/// whose kinds are given; tiles of kind [`UNKNOWN`] are never free, so never paired.
pub fn legal_moves(layout: &Layout, present: &TileSet, kinds: &[Kind]) -> Vec<Move> {
    let free: Vec<usize> = layout.free_tiles(present).iter().collect();
    let mut moves = Vec::new();
    for (k, &a) in free.iter().enumerate() {
        for &b in &free[k + 1..] {
            if kinds[a] == kinds[b] && kinds[a] != UNKNOWN {
                moves.push(Move::new(a, b));
            }
        }
    }
    moves
}

/// Number of legal moves without listing them: per kind, c free tiles give c(c-1)/2 pairs.
pub fn count_moves(layout: &Layout, present: &TileSet, kinds: &[Kind]) -> usize {
    let mut free_of = [0u8; 256];
    for i in present.iter().filter(|&i| layout.is_free(present, i)) {
        free_of[kinds[i] as usize] += 1;
    }
    free_of[..UNKNOWN as usize].iter().map(|&c| c as usize * (c as usize).saturating_sub(1) / 2).sum()
}
