//! The RON level format of this game. Compiled twice: in the crate, and by `build.rs`, which
//! validates every file under `levels/<game>/` with it, so it may use only `serde`, `ron`
//! and `std`.

/// Checks one level file (`name` is its path under `levels/<game>/`): `Err((line, column,
/// message))` on the first problem.
pub fn validate(_name: &str, text: &str) -> Result<(), (usize, usize, String)> {
    ron::from_str::<ron::Value>(text).map(|_| ()).map_err(|e| (e.span.start.line, e.span.start.col, e.code.to_string()))
}
