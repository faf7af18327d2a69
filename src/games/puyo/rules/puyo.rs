//! Puyo kinds (five colors, garbage, hard garbage) and pairs.

use rand::Rng;
use serde::{Deserialize, Serialize};

/// What can occupy a cell. The five colors come first so `index() < 5` means colored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Puyo {
    /// Red.
    Red,
    /// Green.
    Green,
    /// Blue.
    Blue,
    /// Yellow.
    Yellow,
    /// Purple.
    Purple,
    /// Ojama: never pops by itself, vanishes when an adjacent group pops.
    Garbage,
    /// Kata-puyo (Nazo Puyo): the first adjacent pop turns it into garbage.
    Hard,
}

/// Most colors a game may use.
pub const MAX_COLORS: usize = 5;
/// Number of puyo kinds (planes of a field).
pub const KINDS: usize = 7;

impl Puyo {
    /// Every kind, in index order.
    pub const ALL: [Puyo; KINDS] =
        [Puyo::Red, Puyo::Green, Puyo::Blue, Puyo::Yellow, Puyo::Purple, Puyo::Garbage, Puyo::Hard];

    /// Plane index: colors 0..5, garbage 5, hard 6.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The color with index `i` (0..5).
    pub fn color(i: usize) -> Puyo {
        assert!(i < MAX_COLORS, "color index {i} out of range");
        Puyo::ALL[i]
    }

    /// Whether this is one of the five colours (not garbage of either kind).
    #[inline]
    pub const fn is_color(self) -> bool {
        (self as usize) < MAX_COLORS
    }

    /// One-letter code used by ASCII fields: R G B Y P, garbage O, hard H.
    pub const fn letter(self) -> char {
        match self {
            Puyo::Red => 'R',
            Puyo::Green => 'G',
            Puyo::Blue => 'B',
            Puyo::Yellow => 'Y',
            Puyo::Purple => 'P',
            Puyo::Garbage => 'O',
            Puyo::Hard => 'H',
        }
    }

    /// Inverse of [`Puyo::letter`] (case-insensitive).
    pub fn from_letter(c: char) -> Option<Puyo> {
        Puyo::ALL.into_iter().find(|p| p.letter() == c.to_ascii_uppercase())
    }
}

/// A falling pair: the axis puyo and the child puyo that rotates around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    /// The puyo the pair turns around.
    pub axis: Puyo,
    /// The puyo that turns around the axis.
    pub child: Puyo,
}

impl Pair {
    /// A pair of these two puyos.
    pub const fn new(axis: Puyo, child: Puyo) -> Pair {
        Pair { axis, child }
    }

    /// Both halves the same color: only 11 placements give distinct results.
    #[inline]
    pub fn is_double(self) -> bool {
        self.axis == self.child
    }

    /// A uniformly random pair of the first `colors` colors.
    pub fn random(rng: &mut impl Rng, colors: usize) -> Pair {
        Pair::new(Puyo::color(rng.random_range(0..colors)), Puyo::color(rng.random_range(0..colors)))
    }
}

/// `len` pairs drawn i.i.d. uniformly (spec §9.14): the same generator state gives the same
/// sequence, which is how both players of a comparison get identical pairs.
pub fn pair_sequence(rng: &mut impl Rng, colors: usize, len: usize) -> Vec<Pair> {
    (0..len).map(|_| Pair::random(rng, colors)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_five_colors_are_colors() {
        let colors: Vec<bool> = Puyo::ALL.iter().map(|p| p.is_color()).collect();
        assert_eq!(colors, [true, true, true, true, true, false, false]);
    }
}
