//! Puyo Puyo: the engine, the relation-matrix template AI, potential maximization and versus
//! play of D. Tomizawa, *Template (joseki) placement for falling-block puzzle games and its
//! application to Puyo Puyo* (JAIST, 2014; spec `puyo.md`).
//!
//! Rooms: `rules` (engine, shared with Nazo Puyo), `ai` (players behind `ai::PuyoAi`),
//! `generate` (the 8-chain variant generator), `level` (template RON files), `experiment`
//! (the paper's E1-E3), `cli`, `bench`.

pub mod ai;
pub mod bench;
pub mod cli;
pub mod experiment;
pub mod generate;
pub mod level;
pub mod rules;

pub use bench::benches;
pub use experiment::MERGERS;
