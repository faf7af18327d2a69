//! What a tile shows (spec §2.1, open decision 9). Real sets have 34 kinds of 4 plus 4 flowers
//! and 4 seasons, each matching any tile of its group, so a group plays exactly like a kind of
//! 4: the rules only know kinds, and faces are for display. With the option, kinds 35 and 36
//! (indices 34 and 35) of a 144-tile deal show as the flowers and the seasons.

use serde::{Deserialize, Serialize};

use super::Kind;

/// Kind index drawn as the four flowers when bonus faces are on; the next one is the seasons.
pub const FLOWERS: Kind = 34;

/// The face a tile shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Face {
    /// The kind's own face: its four tiles look alike.
    Kind(Kind),
    /// Flower `0..4`; matches any flower.
    Flower(u8),
    /// Season `0..4`; matches any season.
    Season(u8),
}

/// The faces of a deal. With `bonus_faces`, the tiles of kind [`FLOWERS`] show flowers 0-3 and
/// those of the next kind seasons 0-3, in position order; every other tile shows its kind (as
/// do all tiles of deals with fewer kinds).
pub fn faces(kinds: &[Kind], bonus_faces: bool) -> Vec<Face> {
    let mut seen = [0u8; 2];
    kinds
        .iter()
        .map(|&k| {
            let group = k.wrapping_sub(FLOWERS) as usize;
            if !bonus_faces || group >= 2 {
                return Face::Kind(k);
            }
            let i = seen[group];
            seen[group] += 1;
            if group == 0 { Face::Flower(i) } else { Face::Season(i) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::generator::{DealSource, deal};

    /// On the turtle, bonus faces give four distinct flowers and four distinct seasons on
    /// exactly the tiles of kinds 34 and 35; without the option, faces are the kinds.
    #[test]
    fn bonus_faces_are_distinct_within_their_group() {
        let layout = load("turtle").unwrap();
        let kinds = deal(&layout, DealSource::Random, 3, 0).unwrap();
        let plain = faces(&kinds, false);
        assert!(plain.iter().zip(&kinds).all(|(f, &k)| *f == Face::Kind(k)));
        let bonus = faces(&kinds, true);
        let mut flowers: Vec<u8> = Vec::new();
        let mut seasons: Vec<u8> = Vec::new();
        for (f, &k) in bonus.iter().zip(&kinds) {
            match *f {
                Face::Flower(i) if k == FLOWERS => flowers.push(i),
                Face::Season(i) if k == FLOWERS + 1 => seasons.push(i),
                Face::Kind(j) if j == k && k < FLOWERS => {}
                other => panic!("tile of kind {k} shows {other:?}"),
            }
        }
        flowers.sort();
        seasons.sort();
        assert_eq!((flowers, seasons), (vec![0, 1, 2, 3], vec![0, 1, 2, 3]));
        let mini = load("mini_turtle").unwrap();
        let mini_kinds = deal(&mini, DealSource::Random, 3, 0).unwrap();
        assert!(faces(&mini_kinds, true).iter().all(|f| matches!(f, Face::Kind(_))));
    }
}
