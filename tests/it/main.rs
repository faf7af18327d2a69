//! The integration tests, in one binary (one link of the Bevy-sized crate instead of many).

mod ai_task;
mod calculation;
mod cli;
mod lab;
mod labyrinth;
mod levels;
mod nazo;
mod puyo;
mod shanghai;
