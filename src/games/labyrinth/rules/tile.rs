//! Tiles: open sides as a 4-bit mask, a treasure, and clockwise rotation (spec §2.1).

use serde::{Deserialize, Serialize};

/// Open-side bits. A rotation by 90° clockwise turns N into E, E into S, and so on.
pub const N: u8 = 1;
/// Bit of an open east side.
pub const E: u8 = 2;
/// Bit of an open south side.
pub const S: u8 = 4;
/// Bit of an open west side.
pub const W: u8 = 8;

/// The three shapes, as open sides at the web project's rotation 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// Open N+S.
    Straight,
    /// Open N+E.
    Corner,
    /// Open N+E+S.
    T,
}

impl Shape {
    /// The open sides of this shape unrotated.
    pub fn open_at_zero(self) -> u8 {
        match self {
            Shape::Straight => N | S,
            Shape::Corner => N | E,
            Shape::T => N | E | S,
        }
    }
}

/// One of the 24 treasures (index into [`TREASURES`]).
pub type Treasure = u8;

/// The treasures: 0-11 on the fixed tiles, 12-17 on loose corners, 18-23 on loose T-tiles.
pub const TREASURES: [&str; 24] = [
    "Knight helmet",
    "Candles",
    "Dagger",
    "Diamond",
    "Treasure",
    "Ring",
    "Holy grail",
    "Keys",
    "Crown",
    "Potion",
    "Coins",
    "Book",
    "Mouse",
    "Bomb",
    "Cat",
    "Owl",
    "Lizard",
    "Bug",
    "Pony",
    "Bat",
    "Ghost",
    "Mermaid",
    "Dinosaur",
    "Cannon",
];

/// A tile: which sides are open and which treasure (if any) it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tile {
    /// Open sides, [`N`] | [`E`] | [`S`] | [`W`] bits.
    pub open: u8,
    /// The treasure drawn on the tile, if any.
    pub treasure: Option<Treasure>,
}

impl Tile {
    /// A tile of `shape` turned clockwise `quarter_turns` times from its rotation 0.
    pub fn new(shape: Shape, quarter_turns: u8, treasure: Option<Treasure>) -> Tile {
        Tile { open: shape.open_at_zero(), treasure }.rotated(quarter_turns)
    }

    /// The tile turned clockwise by `quarter_turns` × 90°.
    pub fn rotated(self, quarter_turns: u8) -> Tile {
        let r = quarter_turns % 4;
        let open = ((self.open << r) | (self.open >> (4 - r))) & 0xF;
        Tile { open, ..self }
    }

    /// Whether `side` ([`N`], [`E`], [`S`] or [`W`]) is open.
    pub fn is_open(self, side: u8) -> bool {
        self.open & side != 0
    }

    /// Straight, corner or T, whatever the rotation.
    pub fn shape(self) -> Shape {
        match self.open.count_ones() {
            3 => Shape::T,
            _ if self.open == N | S || self.open == E | W => Shape::Straight,
            _ => Shape::Corner,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_is_clockwise_like_the_web_project() {
        assert_eq!(Tile::new(Shape::Corner, 1, None).open, E | S);
        assert_eq!(Tile::new(Shape::Corner, 2, None).open, S | W);
        assert_eq!(Tile::new(Shape::Corner, 3, None).open, N | W);
        assert_eq!(Tile::new(Shape::T, 1, None).open, E | S | W);
        assert_eq!(Tile::new(Shape::Straight, 1, None).open, E | W);
        for s in [Shape::Straight, Shape::Corner, Shape::T] {
            for r in 0..4 {
                assert_eq!(Tile::new(s, r, None).shape(), s);
                assert_eq!(Tile::new(s, r, None).rotated(4 - r).open, s.open_at_zero());
            }
        }
    }
}
