//! The RON level format of Nazo Puyo: a named set of puzzles, each kept as a pon2 query (the
//! community's exchange form, so sets can be pasted to and from other tools). Compiled twice:
//! in the crate, and by `build.rs`, which validates every file under `levels/nazo/` with it.
//! So a query broken inside is a build error too: `build.rs` compiles the pon2 parser and the
//! Puyo field types it needs along with this file (they use only `serde`, `rand`, `thiserror`
//! and `std`).

use serde::{Deserialize, Serialize};

use super::io::pon2;
use super::puzzle::Puzzle;

/// One file under `levels/nazo/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleSet {
    /// Shown in the puzzle picker.
    pub name: String,
    /// Where the puzzles come from.
    #[serde(default)]
    pub source: String,
    /// The puzzles, in the order the picker shows them.
    pub puzzles: Vec<PuzzleEntry>,
}

/// One puzzle of a set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleEntry {
    /// Shown in the picker.
    pub name: String,
    /// pon2 query: `field=0_…&steps=…&goal=…`.
    pub query: String,
}

/// A parsed set: its name and its (puzzle name, puzzle) entries.
pub type Set = (String, Vec<(String, Puzzle)>);

/// Checks one level file (`name` is its path under `levels/nazo/`): `Err((line, column,
/// message))` on the first problem.
pub fn validate(_name: &str, text: &str) -> Result<(), (usize, usize, String)> {
    parse(text).map(|_| ())
}

/// Parses a set file, or `Err((line, column, message))` at the first problem: a query's
/// error points at the offending character of the file.
pub fn parse(text: &str) -> Result<Set, (usize, usize, String)> {
    let set: PuzzleSet = ron::from_str(text).map_err(|e| (e.span.start.line, e.span.start.col, e.code.to_string()))?;
    let mut puzzles = Vec::with_capacity(set.puzzles.len());
    for entry in set.puzzles {
        let puzzle = pon2::parse(&entry.query).map_err(|err| {
            let (line, column) = query_error_place(text, &entry.query, err.position);
            (line, column, format!("puzzle '{}': {err}", entry.name))
        })?;
        puzzles.push((entry.name, puzzle));
    }
    Ok((set.name, puzzles))
}

/// Line and column (1-based) in `text` of character `position` (1-based) of `query`, found
/// as a quoted string; the file's first line when it is not written verbatim (escapes).
fn query_error_place(text: &str, query: &str, position: usize) -> (usize, usize) {
    let Some(quote) = text.find(&format!("\"{query}\"")) else { return (1, 1) };
    let within = query.char_indices().nth(position.saturating_sub(1)).map_or(query.len(), |(i, _)| i);
    let at = quote + 1 + within;
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}
