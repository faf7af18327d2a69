//! Setting up a game from a seed (spec §2.2-2.4): the 16 fixed tiles, the 34 loose tiles
//! shuffled with random rotations (33 placed, 1 spare), seats on the corners, cards dealt.

use rand::Rng;
use rand::seq::SliceRandom;

use super::rules::board::{cell, is_fixed};
use super::rules::{Board, Cell, GameState, Player, Shape, Tile, Treasure};
use crate::lab::rng::GameRng;

/// The fixed tiles as (x, y, shape, quarter turns, treasure): the web project's board.
const FIXED: [(u8, u8, Shape, u8, Option<Treasure>); 16] = [
    (0, 0, Shape::Corner, 1, None),
    (2, 0, Shape::T, 1, Some(0)),
    (4, 0, Shape::T, 1, Some(1)),
    (6, 0, Shape::Corner, 2, None),
    (0, 2, Shape::T, 0, Some(2)),
    (2, 2, Shape::T, 0, Some(3)),
    (4, 2, Shape::T, 1, Some(4)),
    (6, 2, Shape::T, 2, Some(5)),
    (0, 4, Shape::T, 0, Some(6)),
    (2, 4, Shape::T, 3, Some(7)),
    (4, 4, Shape::T, 2, Some(8)),
    (6, 4, Shape::T, 2, Some(9)),
    (0, 6, Shape::Corner, 0, None),
    (2, 6, Shape::T, 3, Some(10)),
    (4, 6, Shape::T, 3, Some(11)),
    (6, 6, Shape::Corner, 3, None),
];

/// Start corners in seat (turn) order: clockwise from NW; two players sit on opposite
/// corners, NW and SE (thesis figure 4.1).
pub fn homes(players: usize) -> &'static [Cell] {
    match players {
        2 => &[0, 48],
        3 => &[0, 6, 48],
        _ => &[0, 6, 48, 42],
    }
}

/// The 34 loose tiles, unrotated: 12 plain straights, 10 plain corners, 6 corners and 6 T
/// with treasures 12-17 and 18-23.
pub fn loose_tiles() -> Vec<Tile> {
    let mut v = Vec::with_capacity(34);
    v.extend((0..12).map(|_| Tile::new(Shape::Straight, 0, None)));
    v.extend((0..10).map(|_| Tile::new(Shape::Corner, 0, None)));
    v.extend((12..18).map(|t| Tile::new(Shape::Corner, 0, Some(t))));
    v.extend((18..24).map(|t| Tile::new(Shape::T, 0, Some(t))));
    v
}

/// A shuffled board: fixed tiles in place, loose tiles uniformly shuffled and rotated.
pub fn board(rng: &mut GameRng) -> Board {
    let mut loose = loose_tiles();
    loose.shuffle(rng);
    let mut loose = loose.into_iter().map(|t| t.rotated(rng.random_range(0..4)));
    let mut tiles = [Tile { open: 0, treasure: None }; 49];
    for (x, y, shape, r, t) in FIXED {
        tiles[cell(x, y) as usize] = Tile::new(shape, r, t);
    }
    for c in (0..49).filter(|&c| !is_fixed(c)) {
        tiles[c as usize] = loose.next().expect("34 loose tiles");
    }
    Board::new(tiles, loose.next().expect("the 34th tile is the spare"))
}

/// A new game for `players` (2-4) seats; `first` moves first (`None`: drawn from `rng`).
pub fn new_game(players: usize, first: Option<usize>, rng: &mut GameRng) -> GameState {
    assert!((2..=4).contains(&players), "2-4 players");
    let board = board(rng);
    let mut cards: Vec<Treasure> = (0..24).collect();
    cards.shuffle(rng);
    let per = 24 / players;
    let seats = (0..players).map(|s| Player::new(homes(players)[s], cards[s * per..(s + 1) * per].to_vec())).collect();
    let first = first.unwrap_or_else(|| rng.random_range(0..players));
    GameState::new(board, seats, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::labyrinth::rules::tile::{E, N, S, W};
    use crate::lab::rng::game_rng;

    #[test]
    fn fixed_tiles_match_the_spec_picture() {
        let b = board(&mut game_rng(1, 0));
        let row0: Vec<u8> = [0, 2, 4, 6].iter().map(|&x| b.tile(cell(x, 0)).open).collect();
        assert_eq!(row0, [E | S, E | S | W, E | S | W, S | W]);
        assert_eq!(b.tile(cell(2, 4)).open, N | E | W);
        assert_eq!(b.tile(cell(6, 6)).open, N | W);
        // Every edge T closes its outward side.
        for (x, y, side) in [(2, 0, N), (4, 0, N), (0, 2, W), (0, 4, W), (6, 2, E), (6, 4, E), (2, 6, S), (4, 6, S)] {
            assert!(!b.tile(cell(x, y)).is_open(side));
        }
    }

    #[test]
    fn setup_deals_all_cards_and_every_treasure_once() {
        for n in 2..=4 {
            let g = new_game(n, None, &mut game_rng(9, n as u64));
            let dealt: usize = g.players().iter().map(|p| p.cards_left()).sum();
            assert_eq!(dealt, 24);
            let mut seen: Vec<Treasure> = g.board.tiles().iter().filter_map(|t| t.treasure).collect();
            seen.extend(g.board.spare.treasure);
            seen.sort();
            assert_eq!(seen, (0..24).collect::<Vec<_>>());
        }
    }
}
