//! Puyo AIs (paper chapters 3-5): the relation-matrix template player, potential
//! maximization, the combined player, and asobi's own player, all behind [`PuyoAi`].

pub mod labeling;
pub mod relation;
pub mod template;
