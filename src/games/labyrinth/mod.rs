//! Labyrinth (Ravensburger), after Miyamoto's bachelor thesis "A study of efficient
//! action-selection criteria for the board game Labyrinth" (2024; shared/spec/labyrinth.md):
//! the rules engine with bit-set reachability, the web project's bots (Random, Big Brain,
//! Saboteur), the thesis's five criteria on its common search framework, asobi's own bot,
//! and the thesis's tournaments.

pub mod ai;
pub mod bench;
pub mod cli;
pub mod experiment;
pub mod level;
pub mod rules;
pub mod setup;

pub use bench::benches;
pub use experiment::MERGERS;
