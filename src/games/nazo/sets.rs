//! The bundled puzzle sets (`levels/nazo/*.ron`), parsed into puzzles.

use super::io::pon2;
use super::level::PuzzleSet;
use super::puzzle::Puzzle;

/// Every bundled set with its puzzles, as (set name, [(puzzle name, puzzle)]).
pub fn bundled() -> anyhow::Result<Vec<(String, Vec<(String, Puzzle)>)>> {
    let mut sets = Vec::new();
    for (file, text) in crate::levels::embedded_in("nazo") {
        let set: PuzzleSet = crate::levels::parse_ron(file, text)?;
        let puzzles = set
            .puzzles
            .into_iter()
            .map(|e| pon2::parse(&e.query).map(|p| (e.name.clone(), p)).map_err(|err| anyhow::anyhow!("{file}: puzzle '{}': {err}", e.name)))
            .collect::<anyhow::Result<Vec<_>>>()?;
        sets.push((set.name, puzzles));
    }
    Ok(sets)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bundled_puzzle_parses() {
        let sets = super::bundled().unwrap();
        assert!(sets.iter().map(|s| s.1.len()).sum::<usize>() >= 91);
    }
}
