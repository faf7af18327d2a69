//! The RON level files of Shanghai: bundled layouts (`levels/shanghai/layouts/*.ron`) and
//! tuned feature weights (`levels/shanghai/weights/*.ron`). Compiled twice: in the crate,
//! and by `build.rs`, which validates every file with it, so it may use only `serde`, `ron`
//! and `std`.

use serde::{Deserialize, Serialize};

/// A layout: tile anchors `(x, y, z)` in half-tile units, `z` = level (0 on the table),
/// as in KMahjongg (spec §2.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayoutFile {
    /// Its name, as commands and the app name it.
    pub name: String,
    /// Where it comes from, shown by `shanghai layouts`.
    pub description: String,
    /// Tile anchors `(x, y, z)`.
    pub tiles: Vec<(i32, i32, i32)>,
}

/// The five action-value feature weights of the virtual player (paper §4.2, spec §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// I: tiles dominated by the two removed tiles.
    pub dominated: f64,
    /// II: change in the number of legal moves.
    pub moves: f64,
    /// III: change in the number of tiles on level z >= 1 (paper layer >= 2).
    pub upper: f64,
    /// IV: change in the number of floating tiles.
    pub floating: f64,
    /// V: change in the number of unknown tiles.
    pub unknown: f64,
}

/// A weight preset: the weights tuned for one layout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightsFile {
    /// The layout's name.
    pub layout: String,
    /// The tuned weights.
    pub weights: Weights,
}

/// Geometric problems of a tile list: empty, odd, negative coordinates, too many tiles,
/// or two tiles of one level overlapping. `Err((tile index, message))`.
pub fn check_tiles(tiles: &[(i32, i32, i32)]) -> Result<(), (usize, String)> {
    if tiles.is_empty() || tiles.len() % 2 == 1 {
        return Err((0, format!("a layout needs an even, non-zero number of tiles, not {}", tiles.len())));
    }
    if tiles.len() > MAX_TILES {
        return Err((0, format!("{} tiles: at most {MAX_TILES} are supported", tiles.len())));
    }
    for (i, &(x, y, z)) in tiles.iter().enumerate() {
        if x < 0 || y < 0 || z < 0 || x > 1000 || y > 1000 || z > 100 {
            return Err((i, format!("tile ({x}, {y}, {z}) is out of range (0..=1000, 0..=1000, 0..=100)")));
        }
        if let Some(j) = tiles[..i].iter().position(|&(a, b, c)| c == z && (a - x).abs() <= 1 && (b - y).abs() <= 1) {
            let (a, b, _) = tiles[j];
            return Err((i, format!("tile ({x}, {y}, {z}) overlaps tile ({a}, {b}, {z}) on the same level")));
        }
    }
    Ok(())
}

/// Largest layout supported (the tile sets are 256-bit; KMahjongg's largest has 228).
pub const MAX_TILES: usize = 256;

/// Checks one level file (`name` is its path under `levels/shanghai/`): `Err((line, column,
/// message))` on the first problem.
pub fn validate(name: &str, text: &str) -> Result<(), (usize, usize, String)> {
    let syntax = |e: ron::error::SpannedError| (e.span.start.line, e.span.start.col, e.code.to_string());
    if name.starts_with("weights/") {
        ron::from_str::<WeightsFile>(text).map_err(syntax)?;
        return Ok(());
    }
    if !name.starts_with("layouts/") {
        return Err((1, 1, "shanghai level files go in layouts/ or weights/".into()));
    }
    let layout = ron::from_str::<LayoutFile>(text).map_err(syntax)?;
    check_tiles(&layout.tiles).map_err(|(i, msg)| {
        let (x, y, z) = layout.tiles.get(i).copied().unwrap_or_default();
        let (line, col) = locate(text, &format!("({x}, {y}, {z})"));
        (line, col, msg)
    })
}

/// Line and column (1-based) of the first occurrence of `needle`, or (1, 1).
fn locate(text: &str, needle: &str) -> (usize, usize) {
    let Some(at) = text.find(needle) else { return (1, 1) };
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = at - before.rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, col)
}
