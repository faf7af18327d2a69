//! Nazo Puyo: puzzles with a fixed sequence of pairs and a goal, after Aoyama, "artistic Nazo
//! Puyo puzzles built with garbage puyos" (JAIST master's thesis, 2024; digest in
//! shared/spec/nazo.md). The chain rules are the Puyo engine's (`games::puyo::rules`); this
//! module adds the puzzle model and goals (§2), the pon2 and IshikawaPuyo formats (§3), an
//! exhaustive solver, the reverse generator with the paper's type-4/5 filters and direct
//! methods (§6, §8) and the type metrics (§5).

pub mod bench;
pub mod cli;
pub mod experiment;
pub mod generator;
pub mod goal;
pub mod io;
pub mod level;
pub mod metrics;
pub mod puzzle;
pub mod sets;
pub mod sim;
pub mod solver;

pub use bench::benches;
pub use experiment::MERGERS;
