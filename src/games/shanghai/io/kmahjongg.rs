//! KMahjongg `.layout` files (spec §3): both headers, read stricter than KMahjongg (every
//! problem names file, line and column), written as v1.1.
//!
//! KMahjongg is GPL-licensed, so asobi bundles only its own RON transcriptions of layout
//! geometry (tile positions are facts of the board shape); a user's installed KMahjongg
//! layouts are read from their files with `--layout FILE`.

use std::fmt::Write as _;

use super::super::layout::{Layout, Pos};

const V10: &str = "kmahjongg-layout-v1.0";
const V11: &str = "kmahjongg-layout-v1.1";

/// A malformed layout file, with the place of the problem (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct LayoutFileError {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

/// A layout read from a file, with warnings about marks KMahjongg ignores too.
#[derive(Debug, Clone)]
pub struct ReadLayout {
    /// The layout.
    pub layout: Layout,
    /// Marks that were ignored, with their place.
    pub warnings: Vec<String>,
}

/// Parses `text` (the contents of `file`); the layout is named after the file stem.
pub fn read(file: &str, text: &str) -> Result<ReadLayout, LayoutFileError> {
    let (size, grid) = split_header(file, text)?;
    let cells = grid_cells(file, size, &grid)?;
    let (positions, warnings) = anchors(file, size, &grid, &cells)?;
    let name = std::path::Path::new(file).file_stem().map_or(file.to_string(), |s| s.to_string_lossy().into_owned());
    let layout = Layout::new(&name, positions).map_err(|m| error(file, 1, 1, m))?;
    Ok(ReadLayout { layout, warnings })
}

fn error(file: &str, line: usize, column: usize, message: String) -> LayoutFileError {
    LayoutFileError { file: file.to_string(), line, column, message }
}

/// The grid's width, height and depth (levels), in half-tile cells.
#[derive(Clone, Copy)]
struct Size {
    w: usize,
    h: usize,
    d: usize,
}

/// The grid's lines with their 1-based line numbers.
type GridLines<'t> = Vec<(usize, &'t str)>;

/// Reads the header and the size lines (v1.1 only; v1.0 has the fixed 32 x 16 x 5); returns
/// the size and the grid lines, checked to number h * d.
fn split_header<'t>(file: &str, text: &'t str) -> Result<(Size, GridLines<'t>), LayoutFileError> {
    let err = |line, column, message| error(file, line, column, message);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)));
    let (_, header) = lines.next().ok_or_else(|| err(1, 1, "empty file: expected a kmahjongg-layout header".into()))?;
    let v11 = match header {
        V11 => true,
        V10 => false,
        other => return Err(err(1, 1, format!("unknown header '{other}': expected {V10} or {V11}"))),
    };
    let mut size = Size { w: 32, h: 16, d: 5 };
    let mut grid: GridLines = Vec::new();
    for (no, line) in lines {
        if line.starts_with('#') || (line.is_empty() && grid.is_empty()) {
            continue;
        }
        if let Some(letter @ ('w' | 'h' | 'd')) = line.chars().next() {
            if !v11 {
                return Err(err(no, 1, "size lines are allowed only in kmahjongg-layout-v1.1 files".into()));
            }
            if !grid.is_empty() {
                return Err(err(no, 1, "size line after the grid started".into()));
            }
            let value: usize = line[1..].parse().map_err(|_| err(no, 2, format!("'{}' is not a size", &line[1..])))?;
            if value == 0 || value > 1000 {
                return Err(err(no, 2, format!("size {value} must be between 1 and 1000")));
            }
            match letter {
                'w' => size.w = value,
                'h' => size.h = value,
                _ => size.d = value,
            }
            continue;
        }
        grid.push((no, line));
    }
    let Size { h, d, .. } = size;
    if grid.len() != h * d {
        let (no, _) = grid.last().copied().unwrap_or((1, ""));
        return Err(err(no, 1, format!("{} grid lines, expected h*d = {h}*{d} = {}", grid.len(), h * d)));
    }
    Ok((size, grid))
}

/// The grid's marks, level by level and row by row, each line checked for its width and
/// for marks other than `. 1 2 3 4`.
fn grid_cells(file: &str, size: Size, grid: &[(usize, &str)]) -> Result<Vec<u8>, LayoutFileError> {
    let w = size.w;
    let mut cells = vec![b'.'; w * size.h * size.d];
    for (k, &(no, line)) in grid.iter().enumerate() {
        if line.len() != w {
            let message = format!("grid line has {} characters, expected w = {w}", line.len());
            return Err(error(file, no, line.len().min(w) + 1, message));
        }
        if let Some(col) = line.bytes().position(|c| !b".1234".contains(&c)) {
            return Err(error(file, no, col + 1, format!("'{}' is not one of . 1 2 3 4", &line[col..col + 1])));
        }
        cells[k * w..(k + 1) * w].copy_from_slice(line.as_bytes());
    }
    Ok(cells)
}

/// The tiles: each `1` mark is a tile's top-left quarter. A tile sticking out of the board or
/// overlapping another on its level is an error; marks around it other than `12/43` (which
/// KMahjongg ignores too) a warning.
fn anchors(
    file: &str,
    size: Size,
    grid: &[(usize, &str)],
    cells: &[u8],
) -> Result<(Vec<Pos>, Vec<String>), LayoutFileError> {
    let Size { w, h, d } = size;
    let at = |x: usize, y: usize, z: usize| cells[(z * h + y) * w + x];
    let place = |y: usize, z: usize| grid[z * h + y].0;
    let mut positions = Vec::new();
    let mut warnings = Vec::new();
    for z in 0..d {
        for y in 0..h {
            for x in (0..w).filter(|&x| at(x, y, z) == b'1') {
                if x + 1 >= w || y + 1 >= h {
                    let message = format!("tile at column {x}, row {y} sticks out of the board");
                    return Err(error(file, place(y, z), x + 1, message));
                }
                if (at(x + 1, y, z), at(x, y + 1, z), at(x + 1, y + 1, z)) != (b'2', b'4', b'3') {
                    let (line, column) = (place(y, z), x + 1);
                    warnings.push(format!("{file}:{line}:{column}: tile marks around this anchor are not 12/43"));
                }
                if let Some(other) = positions
                    .iter()
                    .find(|p: &&Pos| p.z == z as i32 && (p.x - x as i32).abs() <= 1 && (p.y - y as i32).abs() <= 1)
                {
                    let msg =
                        format!("tile at column {x}, row {y} overlaps the tile at column {}, row {}", other.x, other.y);
                    return Err(error(file, place(y, z), x + 1, msg));
                }
                positions.push(Pos { x: x as i32, y: y as i32, z: z as i32 });
            }
        }
    }
    Ok((positions, warnings))
}

/// Writes a layout as a v1.1 file with size comments and `# Level k` lines.
pub fn write(layout: &Layout) -> String {
    let w = layout.positions.iter().map(|p| p.x + 2).max().unwrap_or(2) as usize;
    let h = layout.positions.iter().map(|p| p.y + 2).max().unwrap_or(2) as usize;
    let d = layout.positions.iter().map(|p| p.z + 1).max().unwrap_or(1) as usize;
    let mut cells = vec![b'.'; w * h * d];
    for p in &layout.positions {
        let (x, y, z) = (p.x as usize, p.y as usize, p.z as usize);
        for (dx, dy, c) in [(0, 0, b'1'), (1, 0, b'2'), (0, 1, b'4'), (1, 1, b'3')] {
            cells[(z * h + y + dy) * w + x + dx] = c;
        }
    }
    let mut s = format!("{V11}\n# Board size in quarter tiles\nw{w}\nh{h}\n# Board depth\nd{d}\n");
    for z in 0..d {
        writeln!(s, "# Level {z}").expect("write to String");
        for y in 0..h {
            let row = &cells[(z * h + y) * w..(z * h + y + 1) * w];
            writeln!(s, "{}", String::from_utf8_lossy(row)).expect("write to String");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_reads() {
        let text = "kmahjongg-layout-v1.1\nw6\nh2\nd2\n121212\n434343\n.12...\n.43...\n";
        let l = read("ex.layout", text).unwrap().layout;
        assert_eq!(l.len(), 4);
        assert_eq!(l.positions[3], Pos { x: 1, y: 0, z: 1 });
        let all = l.all();
        assert!(l.is_visible(&all, 0) && !l.is_free(&all, 0) && l.is_free(&all, 2));
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad = "kmahjongg-layout-v1.1\nw6\nh2\nd1\n12x212\n434343\n";
        let e = read("bad.layout", bad).unwrap_err();
        assert_eq!((e.line, e.column), (5, 3), "{e}");
        let short = "kmahjongg-layout-v1.1\nw6\nh2\nd1\n121212\n";
        assert!(read("s.layout", short).unwrap_err().message.contains("grid lines"));
        let overlap = "kmahjongg-layout-v1.1\nw6\nh3\nd1\n12....\n413...\n.43...\n";
        let e = read("o.layout", overlap).unwrap_err();
        assert_eq!(e.line, 6, "{e}");
        assert!(read("h.layout", "kmahjongg-layout-v2\n").unwrap_err().to_string().starts_with("h.layout:1:1:"));
    }

    #[test]
    fn write_then_read_round_trips() {
        let text = "kmahjongg-layout-v1.1\nw6\nh2\nd2\n121212\n434343\n.12...\n.43...\n";
        let l = read("ex.layout", text).unwrap().layout;
        let again = read("ex.layout", &write(&l)).unwrap().layout;
        assert_eq!(again.positions, l.positions);
    }
}
