//! asobi: a desktop game-AI lab. `games` holds the five engines and their AIs (no Bevy),
//! `lab` what they share, `app` the Bevy + egui desktop program.

pub mod app;
pub mod games;
pub mod lab;
pub mod levels;
