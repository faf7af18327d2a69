//! Exchange formats of Nazo Puyo puzzles (spec §3): the pon2 query and IshikawaPuyo URLs.
//! Both parse into the same [`Puzzle`] and report errors with the
//! 1-based character position of the offending part.

pub mod ishikawa;
pub mod pon2;

use super::puzzle::Puzzle;

/// Why a puzzle text was rejected, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{format} at character {position}: {message}")]
pub struct ParseError {
    /// "pon2 query" or "IshikawaPuyo URL".
    pub format: &'static str,
    /// 1-based character position in the whole input.
    pub position: usize,
    /// What is wrong there.
    pub message: String,
}

/// Why a puzzle cannot be written in a format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write as {format}: {message}")]
pub struct ExportError {
    /// The format asked for.
    pub format: &'static str,
    /// Why the puzzle does not fit it.
    pub message: String,
}

/// Parses either format: IshikawaPuyo URLs are recognised by their `pn.html?`.
pub fn parse_any(text: &str) -> Result<Puzzle, ParseError> {
    let text = text.trim();
    if text.contains("pn.html?") { ishikawa::parse(text) } else { pon2::parse(text) }
}

/// [`parse_any`] for a puzzle to play or solve: one without a pair or a goal is an error at
/// the end of the text, where the missing part would go.
pub fn parse_playable(text: &str) -> Result<Puzzle, ParseError> {
    let puzzle = parse_any(text)?;
    match puzzle.unplayable() {
        None => Ok(puzzle),
        Some(why) => Err(ParseError {
            format: if text.contains("pn.html?") { ishikawa::FORMAT } else { pon2::FORMAT },
            position: text.trim().chars().count() + 1,
            message: why.into(),
        }),
    }
}

/// Position (1-based, in characters) of the character holding byte offset `byte` of `text`
/// (an offset inside a multi-byte character names that character).
fn char_pos(text: &str, byte: usize) -> usize {
    text.char_indices().take_while(|&(i, c)| i + c.len_utf8() <= byte).count() + 1
}

#[cfg(test)]
mod tests;
