//! The bundled puzzle sets (`levels/nazo/*.ron`), parsed into puzzles.

use super::io::pon2;
pub use super::level::Set;
use super::level::{PuzzleEntry, PuzzleSet, parse};
use super::puzzle::Puzzle;
use crate::levels::LevelError;

/// Every bundled set with its puzzles.
pub fn bundled() -> anyhow::Result<Vec<Set>> {
    crate::levels::embedded_in("nazo").map(|(file, text)| Ok(from_ron(file, text)?)).collect()
}

/// Writes puzzles as a RON set in the format of `levels/nazo/` (loadable as a level file).
pub fn to_ron(name: &str, source: &str, puzzles: &[(String, Puzzle)]) -> String {
    let set = PuzzleSet {
        name: name.to_string(),
        source: source.to_string(),
        puzzles: puzzles.iter().map(|(n, p)| PuzzleEntry { name: n.clone(), query: pon2::write(p) }).collect(),
    };
    ron::ser::to_string_pretty(&set, ron::ser::PrettyConfig::default()).expect("a puzzle set serializes")
}

/// Reads a RON set written by [`to_ron`] (or a user's own), naming the file, line and column
/// on errors.
pub fn from_ron(file: &str, text: &str) -> Result<Set, LevelError> {
    parse(text).map_err(|(line, column, message)| LevelError { file: file.to_string(), line, column, message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_puzzle_parses() {
        let sets = bundled().unwrap();
        assert!(sets.iter().map(|s| s.1.len()).sum::<usize>() >= 91);
    }

    #[test]
    fn ron_sets_round_trip_and_broken_queries_fail_the_build_at_their_character() {
        let sets = bundled().unwrap();
        let puzzles = &sets[0].1;
        let text = to_ron("round trip", "test", puzzles);
        assert_eq!(crate::games::nazo::level::validate("x.ron", &text), Ok(()));
        let (name, back) = from_ron("x.ron", &text).unwrap();
        assert_eq!((name.as_str(), &back), ("round trip", puzzles));
        let broken = text.replacen("field=0_", "field=1_", 1);
        let err = from_ron("x.ron", &broken).unwrap_err();
        assert!(err.to_string().contains("unsupported rule"), "{err}");
        assert_eq!(
            crate::games::nazo::level::validate("x.ron", &broken),
            Err((err.line, err.column, err.message.clone()))
        );
        // The error points at the offending character of the file.
        let line = broken.lines().nth(err.line - 1).unwrap();
        assert_eq!(line.chars().nth(err.column - 1), Some('1'), "{err}");
    }
}
