//! Puyo Puyo: the engine, the relation-matrix template AI, potential maximization and versus
//! play of D. Tomizawa, *Template (joseki) placement for falling-block puzzle games and its
//! application to Puyo Puyo* (JAIST, 2014; spec `puyo.md`).

pub mod level;
pub mod rules;
pub mod ai;
pub mod generate;
