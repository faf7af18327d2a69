//! The relation-matrix method in its textbook form (paper chapter 3, spec §3): dense state
//! and template matrices over any number of cells and the match score of formula 3.7 (with
//! the numerator corrected). The search uses the sparse, incremental form in
//! [`super::template`]; tests check that both agree.

/// One cell of a board for the state matrix: `None` empty (garbage counts as empty), or a
/// kind (color index).
pub type Cell = Option<u8>;

/// The state matrix S: s_ij = +1 same kind, −1 different kinds, 0 if either is empty;
/// s_ii = +1 if occupied.
pub fn state_matrix(cells: &[Cell]) -> Vec<Vec<i8>> {
    cells
        .iter()
        .map(|a| {
            cells
                .iter()
                .map(|b| match (a, b) {
                    (Some(x), Some(y)) if x == y => 1,
                    (Some(_), Some(_)) => -1,
                    _ => 0,
                })
                .collect()
        })
        .collect()
}

/// Formula 3.7: −∞ if any s_ij·t_ij < 0, else Σ max(0, s_ij·t_ij) / Σ |t_ij|, both sums over
/// the full matrix, diagonal included.
pub fn match_score(s: &[Vec<i8>], t: &[Vec<f64>]) -> f64 {
    let mut num = 0.0;
    let mut den = 0.0;
    for (srow, trow) in s.iter().zip(t) {
        for (&sij, &tij) in srow.iter().zip(trow) {
            let p = sij as f64 * tij;
            if p < 0.0 {
                return f64::NEG_INFINITY;
            }
            num += p;
            den += tij.abs();
        }
    }
    if den == 0.0 { 0.0 } else { num / den }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's worked example (§3.2-3.4): cells 1, 2, 6 = ○, cell 4 = △, 3 and 5 empty;
    /// template groups {1, 2, 5, 6} and {3, 4}, all weights 10.
    #[test]
    fn worked_example_scores_0_444() {
        let cells: [Cell; 6] = [Some(0), Some(0), None, Some(1), None, Some(0)];
        let group = [0, 0, 1, 1, 0, 0];
        let t: Vec<Vec<f64>> =
            (0..6).map(|i| (0..6).map(|j| if group[i] == group[j] { 10.0 } else { -10.0 }).collect()).collect();
        let s = state_matrix(&cells);
        assert_eq!(s[0], vec![1, 1, 0, -1, 0, 1]);
        let score = match_score(&s, &t);
        assert!((score - 160.0 / 360.0).abs() < 1e-12, "{score}");
        assert_eq!(format!("{score:.3}"), "0.444");
        // Cell 3 = ○ would meet −10 against cells 1, 2, 6: a hard conflict.
        let conflicting: [Cell; 6] = [Some(0), Some(0), Some(0), Some(1), None, Some(0)];
        assert_eq!(match_score(&state_matrix(&conflicting), &t), f64::NEG_INFINITY);
    }
}
