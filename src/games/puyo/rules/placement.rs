//! The 22 placements of a pair (spec §2 "Moves").

use serde::{Deserialize, Serialize};

use super::bits::WIDTH;

/// Where the child puyo sits relative to the axis puyo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    /// Child above the axis.
    Up,
    /// Child right of the axis.
    Right,
    /// Child below the axis.
    Down,
    /// Child left of the axis.
    Left,
}

/// A placement: the axis puyo's column (0-based) and the rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    /// The axis puyo's column, 0..6.
    pub col: u8,
    /// Where the child puyo sits relative to the axis.
    pub rot: Rotation,
}

const fn all_placements() -> [Placement; 22] {
    let mut out = [Placement { col: 0, rot: Rotation::Up }; 22];
    let mut i = 0;
    let mut c = 0;
    while c < WIDTH {
        out[i] = Placement { col: c as u8, rot: Rotation::Up };
        out[i + 1] = Placement { col: c as u8, rot: Rotation::Down };
        i += 2;
        if c + 1 < WIDTH {
            out[i] = Placement { col: c as u8, rot: Rotation::Right };
            i += 1;
        }
        if c > 0 {
            out[i] = Placement { col: c as u8, rot: Rotation::Left };
            i += 1;
        }
        c += 1;
    }
    out
}

const fn distinct_for_double() -> [Placement; 11] {
    let mut out = [Placement { col: 0, rot: Rotation::Up }; 11];
    let mut i = 0;
    let mut c = 0;
    while c < WIDTH {
        out[i] = Placement { col: c as u8, rot: Rotation::Up };
        i += 1;
        if c + 1 < WIDTH {
            out[i] = Placement { col: c as u8, rot: Rotation::Right };
            i += 1;
        }
        c += 1;
    }
    out
}

impl Placement {
    /// All 22 placements: per column Up, Down, then Right (columns 1-5), Left (columns 2-6).
    pub const ALL: [Placement; 22] = all_placements();
    /// The 11 placements that give distinct results for a same-color pair (Up and Right only;
    /// Down equals Up, and Left at column c equals Right at column c-1).
    pub const DOUBLE: [Placement; 11] = distinct_for_double();
    /// Where each new pair appears, as in the arcade game: column 3, the child above the axis.
    pub const SPAWN: Placement = Placement { col: 2, rot: Rotation::Up };

    /// The placements worth trying for a pair: all 22, or the 11 distinct ones for a double.
    pub fn for_pair(double: bool) -> &'static [Placement] {
        if double { &Placement::DOUBLE } else { &Placement::ALL }
    }

    /// The column of the child puyo.
    #[inline]
    pub const fn child_col(self) -> usize {
        match self.rot {
            Rotation::Right => self.col as usize + 1,
            Rotation::Left => self.col as usize - 1,
            _ => self.col as usize,
        }
    }

    /// The placement that gives the same result when both puyos share a color
    /// (Down -> Up, Left -> Right of the column to the left); itself otherwise.
    pub const fn canonical_for_double(self) -> Placement {
        match self.rot {
            Rotation::Down => Placement { col: self.col, rot: Rotation::Up },
            Rotation::Left => Placement { col: self.col - 1, rot: Rotation::Right },
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn twenty_two_distinct_placements_and_eleven_for_doubles() {
        let all: HashSet<Placement> = Placement::ALL.into_iter().collect();
        assert_eq!(all.len(), 22);
        assert!(Placement::ALL.iter().all(|p| p.child_col() < WIDTH));
        let canon: HashSet<Placement> = Placement::ALL.iter().map(|p| p.canonical_for_double()).collect();
        assert_eq!(canon, Placement::DOUBLE.into_iter().collect());
    }
}
