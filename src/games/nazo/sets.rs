//! The bundled puzzle sets (`levels/nazo/*.ron`), parsed into puzzles.

use super::io::pon2;
use super::level::{PuzzleEntry, PuzzleSet};
use super::puzzle::Puzzle;

/// A bundled set: its name and its (puzzle name, puzzle) entries.
pub type Set = (String, Vec<(String, Puzzle)>);

/// Every bundled set with its puzzles.
pub fn bundled() -> anyhow::Result<Vec<Set>> {
    crate::levels::embedded_in("nazo").map(|(file, text)| from_ron(file, text)).collect()
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

/// Reads a RON set written by [`to_ron`] (or a user's own), naming the file on errors.
pub fn from_ron(file: &str, text: &str) -> anyhow::Result<Set> {
    let set: PuzzleSet = crate::levels::parse_ron(file, text)?;
    let puzzles = set
        .puzzles
        .into_iter()
        .map(|e| {
            pon2::parse(&e.query)
                .map(|p| (e.name.clone(), p))
                .map_err(|err| anyhow::anyhow!("{file}: puzzle '{}': {err}", e.name))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((set.name, puzzles))
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
    fn ron_sets_round_trip_and_pass_the_build_check() {
        let sets = bundled().unwrap();
        let puzzles = &sets[0].1;
        let text = to_ron("round trip", "test", puzzles);
        assert_eq!(crate::games::nazo::level::validate("x.ron", &text), Ok(()));
        let (name, back) = from_ron("x.ron", &text).unwrap();
        assert_eq!((name.as_str(), &back), ("round trip", puzzles));
        let broken = text.replacen("field=0_", "field=1_", 1);
        assert!(from_ron("x.ron", &broken).unwrap_err().to_string().contains("unsupported rule"));
    }
}
