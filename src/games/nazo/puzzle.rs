//! The puzzle model (spec §2.2): a start field, a fixed sequence of steps and a goal. The
//! field, pairs and placements are the Puyo engine's own types, so the solver plays them with
//! the engine's rules; this file adds the steps and the pon2 placement notation.

use crate::games::puyo::rules::{Field, Pair, Placement, Puyo, Rotation, WIDTH};

use super::goal::{Goal, GoalColor, GoalKind, MainGoal, Operator};

/// One entry of the puzzle's sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A pair to place.
    Pair(Pair),
    /// A garbage drop: how many garbage puyos fall into each column.
    Garbage([u8; WIDTH]),
}

/// A Nazo Puyo puzzle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// The start field.
    pub field: Field,
    /// The pairs and garbage drops, in order.
    pub steps: Vec<Step>,
    /// What solves the puzzle.
    pub goal: Goal,
}

impl Puzzle {
    /// Number of pair steps (the "moves" of "k moves, n-chain").
    pub fn moves(&self) -> usize {
        self.steps.iter().filter(|s| matches!(s, Step::Pair(_))).count()
    }

    /// Why the puzzle cannot be played, if so: it places no pair, or it has no goal to meet
    /// (a pon2 editor link may carry a field alone).
    pub fn unplayable(&self) -> Option<&'static str> {
        if self.moves() == 0 {
            Some("the puzzle has no pair to place (steps=)")
        } else if self.goal.main.is_none() && self.goal.clear.is_none() {
            Some("the puzzle has no goal (goal=)")
        } else {
            None
        }
    }

    /// A Puyo game's position as a puzzle: `field` and the known `pairs`, the goal being the
    /// longest chain any placement of them fires (at any move, as a chain goal counts).
    /// `None` when no placement of the pairs starts a chain.
    pub fn longest_chain(field: &Field, pairs: &[Pair]) -> Option<Puzzle> {
        let links = most_links(field, pairs);
        let goal = MainGoal { kind: GoalKind::Chain, color: GoalColor::All, value: links, operator: Operator::AtLeast };
        (links > 0).then(|| Puzzle {
            field: *field,
            steps: pairs.iter().map(|&pair| Step::Pair(pair)).collect(),
            goal: Goal { main: Some(goal), clear: None },
        })
    }
}

/// The most links one move fires when `pairs` are placed in turn on `field`, over every
/// placement sequence that never kills (0 if none fires).
fn most_links(field: &Field, pairs: &[Pair]) -> u32 {
    let Some((&pair, rest)) = pairs.split_first() else { return 0 };
    let after = field.legal_placements(pair).filter_map(|placement| {
        let mut next = *field;
        let chain = next.play(pair, placement).filter(|_| !next.is_dead())?;
        Some(chain.links.max(most_links(&next, rest)))
    });
    after.max().unwrap_or(0)
}

/// The pon2 letter of a puyo kind: `r g b y p`, garbage `o`, hard garbage `h`.
pub fn letter(p: Puyo) -> char {
    p.letter().to_ascii_lowercase()
}

/// Inverse of [`letter`]; capitals are not pon2 and give `None`.
pub fn from_letter(c: char) -> Option<Puyo> {
    if c.is_ascii_lowercase() { Puyo::from_letter(c) } else { None }
}

/// The pon2 notation of a placement: `3N` (child up), `3S` (child down), `34` / `43` (axis
/// column, then child column).
pub fn placement_pon2(p: Placement) -> String {
    let a = p.col + 1;
    match p.rot {
        Rotation::Up => format!("{a}N"),
        Rotation::Down => format!("{a}S"),
        _ => format!("{a}{}", p.child_col() + 1),
    }
}

/// Parses the pon2 placement notation; `None` if it is not one of the 22 placements.
pub fn parse_placement_pon2(s: &str) -> Option<Placement> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'1'..=b'6').contains(&b[0]) {
        return None;
    }
    let col = b[0] - b'1';
    let rot = match b[1] {
        b'N' => Rotation::Up,
        b'S' => Rotation::Down,
        c if c == b[0] + 1 && c <= b'6' => Rotation::Right,
        c if c + 1 == b[0] && c >= b'1' => Rotation::Left,
        _ => return None,
    };
    Some(Placement { col, rot })
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::games::nazo::solver::{SolveOptions, solve};
    use crate::lab::rng::GameRng;

    /// A field after `moves` random placements, and the next three pairs.
    fn random_position(seed: u64, moves: usize) -> (Field, Vec<Pair>) {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut field = Field::new();
        for _ in 0..moves {
            let pair = Pair::random(&mut rng, 4);
            let legal: Vec<Placement> = field.legal_placements(pair).collect();
            let mut next = field;
            next.play(pair, legal[rng.random_range(0..legal.len())]);
            if next.is_dead() {
                break;
            }
            field = next;
        }
        (field, (0..3).map(|_| Pair::random(&mut rng, 4)).collect())
    }

    /// The goal is the longest chain there is: the solver meets it, and one link more it cannot.
    #[test]
    fn a_position_becomes_the_puzzle_of_its_longest_chain() {
        let mut chains = Vec::new();
        for seed in 0..40 {
            let (field, pairs) = random_position(seed, 10 + seed as usize % 20);
            let fires_at_least = |links: u32| {
                let goal = MainGoal {
                    kind: GoalKind::Chain,
                    color: GoalColor::All,
                    value: links,
                    operator: Operator::AtLeast,
                };
                let puzzle = Puzzle {
                    field,
                    steps: pairs.iter().map(|&p| Step::Pair(p)).collect(),
                    goal: Goal { main: Some(goal), clear: None },
                };
                solve(&puzzle, SolveOptions { stop_after: Some(1), ..SolveOptions::default() }).count > 0
            };
            match Puzzle::longest_chain(&field, &pairs) {
                Some(puzzle) => {
                    let links = puzzle.goal.main.expect("a chain goal").value;
                    assert_eq!((puzzle.field, puzzle.moves()), (field, 3));
                    assert!(fires_at_least(links), "seed {seed}: {links} links");
                    assert!(!fires_at_least(links + 1), "seed {seed}: more than {links} links");
                    chains.push(links);
                }
                None => assert!(!fires_at_least(1), "seed {seed}: a chain was missed"),
            }
        }
        assert!(chains.len() >= 10 && chains.iter().any(|&l| l >= 2), "the positions fire chains: {chains:?}");
    }

    #[test]
    fn every_placement_round_trips_in_pon2() {
        for p in Placement::ALL {
            assert_eq!(parse_placement_pon2(&placement_pon2(p)), Some(p), "{}", placement_pon2(p));
        }
        for bad in ["13", "6N7", "67", "0N", "1", "1NN"] {
            assert_eq!(parse_placement_pon2(bad), None, "{bad}");
        }
    }
}
