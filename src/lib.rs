//! asobi: a desktop game-AI lab. [`games`] holds the five engines and their AIs (no Bevy),
//! [`lab`] what they share (seeded randomness, statistics, the batch runner), [`app`] the
//! Bevy + egui desktop program and [`levels`] the embedded level files. The command line
//! (`src/main.rs`) dispatches to each game's `cli` module; README.md's "Working on asobi"
//! says where a change goes.
//!
//! Read these docs with `cargo doc --no-deps --document-private-items --open`: this crate's
//! library exists for the binary and the tests, so its docs explain private helpers too, and
//! public items may link to them.
#![allow(rustdoc::private_intra_doc_links)]
// Every public item says what it is; CI's clippy (-D warnings) keeps it so.
#![warn(missing_docs)]

pub mod app;
pub mod games;
pub mod lab;
pub mod levels;
