//! The RON level format of Nazo Puyo: a named set of puzzles, each kept as a pon2 query (the
//! community's exchange form, so sets can be pasted to and from other tools). Compiled twice:
//! in the crate, and by `build.rs`, which validates every file under `levels/nazo/` with it, so
//! it may use only `serde`, `ron` and `std`; the game code parses the queries with `io::pon2`.

use serde::{Deserialize, Serialize};

/// One file under `levels/nazo/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleSet {
    /// Shown in the puzzle picker.
    pub name: String,
    /// Where the puzzles come from.
    #[serde(default)]
    pub source: String,
    pub puzzles: Vec<PuzzleEntry>,
}

/// One puzzle of a set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleEntry {
    pub name: String,
    /// pon2 query: `field=0_…&steps=…&goal=…`.
    pub query: String,
}

/// Checks one level file (`name` is its path under `levels/nazo/`): `Err((line, column,
/// message))` on the first problem. The queries get a shape check here (the full parse needs
/// the crate); the crate's tests parse every bundled query.
pub fn validate(_name: &str, text: &str) -> Result<(), (usize, usize, String)> {
    let set: PuzzleSet = ron::from_str(text).map_err(|e| (e.span.start.line, e.span.start.col, e.code.to_string()))?;
    for entry in &set.puzzles {
        if !entry.query.starts_with("field=") {
            // The query's first line (a RON string may span lines), else the file's first.
            let opening = format!("\"{}", entry.query.lines().next().unwrap_or_default());
            let line = text.lines().position(|l| l.contains(&opening)).map_or(1, |i| i + 1);
            return Err((line, 1, format!("puzzle '{}': query must start with 'field='", entry.name)));
        }
    }
    Ok(())
}
