//! The shallow greedy player of M3b (spec §5.1, type 3): it sees only one step ahead and
//! plays what a hurried player would, so where its chain differs from the solution's, the
//! field "suggests" another order than the real one.

use crate::games::puyo::rules::{Bits, Field, MAX_COLORS, Placement, Puyo};

use super::super::puzzle::{Puzzle, Step};

/// Plays every step greedily: the placement with the longest immediate chain, then the most
/// groups of exactly 3 left on the field, ties to the first in `Placement::ALL` order; stops
/// when no placement is legal and alive.
pub fn greedy_placements(puzzle: &Puzzle) -> Vec<Placement> {
    let mut field = puzzle.field;
    let mut out = Vec::new();
    for &step in &puzzle.steps {
        match step {
            Step::Pair(pair) => {
                let mut best: Option<((u32, u32), Placement, Field)> = None;
                for &p in Placement::for_pair(pair.is_double()) {
                    let mut f = field;
                    let Some(chain) = f.play(pair, p) else { continue };
                    let score = (chain.links, three_groups(&f));
                    if !f.is_dead() && best.is_none_or(|(b, _, _)| score > b) {
                        best = Some((score, p, f));
                    }
                }
                let Some((_, p, f)) = best else { break };
                out.push(p);
                field = f;
            }
            Step::Garbage(counts) => {
                field.drop_garbage_columns(counts);
            }
        }
    }
    out
}

/// Groups of exactly three same-coloured puyos (rows 1-12): one puyo from popping.
pub fn three_groups(field: &Field) -> u32 {
    let mut n = 0;
    for c in 0..MAX_COLORS {
        let mut plane = field.plane(Puyo::color(c)) & Bits::VISIBLE;
        while !plane.is_empty() {
            let group = Bits::flood(plane.first(), plane);
            plane = Bits(plane.0 & !group.0);
            n += (group.count() == 3) as u32;
        }
    }
    n
}

/// Levenshtein distance between two sequences.
pub fn edit_distance<T: PartialEq>(a: &[T], b: &[T]) -> u32 {
    let mut row: Vec<u32> = (0..=b.len() as u32).collect();
    for (i, x) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i as u32 + 1;
        for (j, y) in b.iter().enumerate() {
            let next = (diag + (x != y) as u32).min(row[j] + 1).min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nazo::io::pon2;
    use crate::games::nazo::sim::replay;

    #[test]
    fn greedy_pops_what_it_can_at_once() {
        // Three reds on the floor: the red pair pops them at once wherever it touches.
        let p = pon2::parse("field=0_rrr...&steps=rrbb&goal=0_0_1_0_").unwrap();
        let g = greedy_placements(&p);
        assert_eq!(g.len(), 2);
        assert_eq!(replay(&p, &g).solved_at, Some(0));
        let f = Field::from_ascii("RRR...\nBBGGG.").unwrap();
        assert_eq!(three_groups(&f), 2);
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance(&[1, 2, 3], &[1, 2, 3]), 0);
        assert_eq!(edit_distance(&[1, 2, 3], &[1, 3]), 1);
        assert_eq!(edit_distance(&[1, 2], &[2, 1, 4]), 2);
        assert_eq!(edit_distance::<u8>(&[], &[4, 4]), 2);
    }
}
