//! The 19 fixed tetrominoes (spec §6.1): the 7 free shapes rotated and deduplicated.

/// A shape: four (dx, dy) cells, normalised so the minimum of each coordinate is 0.
pub type Shape = [(u8, u8); 4];

const FREE: [[(i8, i8); 4]; 7] = [
    [(0, 0), (1, 0), (2, 0), (3, 0)], // I
    [(0, 0), (1, 0), (0, 1), (1, 1)], // O
    [(0, 0), (1, 0), (2, 0), (1, 1)], // T
    [(0, 0), (1, 0), (1, 1), (2, 1)], // S
    [(1, 0), (2, 0), (0, 1), (1, 1)], // Z
    [(0, 0), (1, 0), (2, 0), (2, 1)], // L
    [(0, 0), (1, 0), (2, 0), (0, 1)], // J
];

fn normalise(cells: [(i8, i8); 4]) -> Shape {
    let (mx, my) = (cells.iter().map(|c| c.0).min().unwrap_or(0), cells.iter().map(|c| c.1).min().unwrap_or(0));
    let mut out = cells.map(|(x, y)| ((x - mx) as u8, (y - my) as u8));
    out.sort();
    out
}

/// All fixed tetrominoes, in a stable order.
pub fn tetrominoes() -> Vec<Shape> {
    let mut out: Vec<Shape> = Vec::new();
    for free in FREE {
        let mut cells = free;
        for _ in 0..4 {
            let s = normalise(cells);
            if !out.contains(&s) {
                out.push(s);
            }
            cells = cells.map(|(x, y)| (-y, x));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn nineteen_fixed_tetrominoes() {
        assert_eq!(super::tetrominoes().len(), 19);
    }
}
