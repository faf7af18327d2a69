//! A game in progress with full information: the deal's kinds, the remaining tiles and the
//! removal history (for undo).

use std::sync::Arc;

use super::{Kind, Move, Observation, legal_moves};
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::tileset::TileSet;

/// A deal being played. The player sees it only through [`Game::observation`].
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The tile positions.
    pub layout: Arc<Layout>,
    /// The kind at each position of the layout (the deal).
    pub kinds: Vec<Kind>,
    /// Tiles not yet removed.
    pub present: TileSet,
    /// Moves played, in order.
    pub history: Vec<Move>,
}

impl Game {
    /// A game of the deal `kinds` (one kind per position of `layout`).
    pub fn new(layout: Arc<Layout>, kinds: Vec<Kind>) -> Game {
        assert_eq!(layout.len(), kinds.len(), "a deal gives one kind per position");
        Game { present: layout.all(), layout, kinds, history: Vec::new() }
    }

    /// Every legal move: pairs of free tiles of one kind.
    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.layout, &self.present, &self.kinds)
    }

    /// Whether `m` removes two present free tiles of one kind.
    pub fn is_legal(&self, m: Move) -> bool {
        let [a, b] = m.tiles();
        a != b
            && b < self.layout.len()
            && self.present.contains(a)
            && self.present.contains(b)
            && self.kinds[a] == self.kinds[b]
            && self.layout.is_free(&self.present, a)
            && self.layout.is_free(&self.present, b)
    }

    /// Plays `m`; `Err` names why it is illegal.
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        if !self.is_legal(m) {
            return Err(format!("move {m:?} is not legal here"));
        }
        m.tiles().into_iter().for_each(|t| self.present.remove(t));
        self.history.push(m);
        Ok(())
    }

    /// Takes back the last move; `false` if there was none.
    pub fn undo(&mut self) -> bool {
        let Some(m) = self.history.pop() else { return false };
        m.tiles().into_iter().for_each(|t| self.present.insert(t));
        true
    }

    /// Whether every tile is removed.
    pub fn is_won(&self) -> bool {
        self.present.is_empty()
    }

    /// Over: cleared, or tiles remain and no pair is removable.
    pub fn is_over(&self) -> bool {
        self.is_won() || self.legal_moves().is_empty()
    }

    /// What the player sees (spec §2.4).
    pub fn observation(&self) -> Observation {
        Observation::of(self)
    }
}
