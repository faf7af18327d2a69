//! What a player sees (spec §2.4): the remaining positions, the kinds of the known tiles
//! (any part of the top face uncovered) and how many tiles of each kind remain. Hidden kinds
//! are not in this type, so a player given only an observation cannot read them.

use std::sync::Arc;

use super::{Game, Kind, Move, legal_moves};
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::tileset::TileSet;

/// Marks a tile whose kind the player does not know.
pub const UNKNOWN: Kind = Kind::MAX;

/// A player's view of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The tile positions.
    pub layout: Arc<Layout>,
    /// Tiles not yet removed.
    pub present: TileSet,
    /// Kind of each known remaining tile; [`UNKNOWN`] for hidden (and removed) ones.
    pub kinds: Vec<Kind>,
    /// Remaining tiles of each kind (known from the removal history).
    pub remaining: Vec<u8>,
}

impl Observation {
    /// What a player sees of `game`: the kinds of visible tiles only.
    pub fn of(game: &Game) -> Observation {
        Observation::showing(game, |i| game.layout.is_visible(&game.present, i))
    }

    /// The view of a player who sees every remaining tile, hidden ones included (the
    /// diagnostic `shanghai eval --peek`: what such a player loses, its search and certain-move
    /// rules lose, not the hidden tiles).
    pub fn peeking(game: &Game) -> Observation {
        Observation::showing(game, |_| true)
    }

    /// The view in which the remaining tiles for which `known` holds show their kinds.
    fn showing(game: &Game, known: impl Fn(usize) -> bool) -> Observation {
        let n = game.layout.len();
        let mut remaining = vec![0u8; game.kinds.iter().map(|&k| k as usize + 1).max().unwrap_or(0)];
        let mut kinds = vec![UNKNOWN; n];
        for i in game.present.iter() {
            remaining[game.kinds[i] as usize] += 1;
            if known(i) {
                kinds[i] = game.kinds[i];
            }
        }
        Observation { layout: game.layout.clone(), present: game.present, kinds, remaining }
    }

    /// Every legal move among the tiles whose kinds are seen.
    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.layout, &self.present, &self.kinds)
    }

    /// The hidden remaining tiles.
    pub fn unknown(&self) -> impl Iterator<Item = usize> + '_ {
        self.present.iter().filter(|&i| self.kinds[i] == UNKNOWN)
    }

    /// The kinds the hidden tiles must have, as a multiset (one entry per hidden tile).
    pub fn hidden_kinds(&self) -> Vec<Kind> {
        let mut missing = self.remaining.clone();
        for i in self.present.iter().filter(|&i| self.kinds[i] != UNKNOWN) {
            missing[self.kinds[i] as usize] -= 1;
        }
        missing.iter().enumerate().flat_map(|(k, &c)| std::iter::repeat_n(k as Kind, c as usize)).collect()
    }
}
