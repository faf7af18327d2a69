//! Calculation (計算), the one-player card game, and the player of Tetsuro Tanaka's "A
//! Calculation player program without using heuristic rules" (seed paper 002; digest in
//! shared/spec/calculation.md): exact stack-game values for one and two foundations, combined
//! into a 4-foundation estimate, maximised over assignment plans with lookahead 0 or 1.
//! Adds a perfect-information oracle, the ceiling any real player can reach on a deal.
//!
//! Rooms: [`rules`] (deck, deals, moves), [`stack_game`] (the simplified game, exact values),
//! [`plan`] (assignment plans and the 4-foundation estimate, on a plan's graph from `graph`),
//! [`ai`] (the players), [`oracle`], [`log`] (the appendix-style game log), [`experiment`]
//! (the paper's tables), [`cli`], [`mod@bench`].

pub mod ai;
pub mod bench;
pub mod cli;
pub mod experiment;
mod graph;
pub mod level;
pub mod log;
pub mod oracle;
pub mod plan;
pub mod rules;
pub mod stack_game;

pub use bench::benches;
pub use experiment::MERGERS;
