//! Shanghai (mahjong solitaire): layouts, the imperfect-information virtual player and the
//! skill-testing instance generator of H. Omachi, N. Sato, K. Ikeda, "Instance Generator of
//! Mahjong Solitaire using Multiple Solvers" (paper `004_a2eac5ed37996e17`, digested in
//! spec/shanghai.md), plus a perfect-information solver as an oracle.
//!
//! Rooms: [`layout`] and [`tileset`] (geometry, §2.2), [`rules`] (moves, visibility, §2.3-2.4),
//! [`io`] (KMahjongg layouts, instance files), [`generator`] (backward play, §3), [`ai`] (virtual
//! player §4.2, solver, tuner), [`experiment`] (§4.3, §5), [`cli`], [`mod@bench`].

pub mod ai;
pub mod bench;
pub mod catalog;
pub mod cli;
pub mod experiment;
pub mod generator;
pub mod io;
pub mod layout;
pub mod level;
pub mod rules;
pub mod tileset;

pub use bench::benches;
pub use experiment::MERGERS;
