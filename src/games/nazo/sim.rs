//! Playing a puzzle's steps with the Puyo engine: one step at a time (the solver), or a whole
//! placement sequence with every link recorded (replays, filters, the desktop animation).

use crate::games::puyo::rules::{Field, Link, Placement};

use super::goal::Popped;
use super::puzzle::{Puzzle, Step};

/// Plays one step on `field`, appending its links to `links`. Pairs need a placement; `false`
/// if it is illegal or missing (field unchanged) or the step kills (column 3, row 12 filled).
pub fn play_step(field: &mut Field, step: Step, placement: Option<Placement>, links: &mut Vec<Link>) -> bool {
    match step {
        Step::Pair(pair) => {
            let Some(p) = placement else { return false };
            if field.play_with(pair, p, |l| links.push(*l)).is_none() {
                return false;
            }
        }
        // Garbage only falls; it never starts a chain.
        Step::Garbage(counts) => {
            field.drop_garbage_columns(counts);
        }
    }
    !field.is_dead()
}

/// A replayed placement sequence.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// Field before each step and after the last one played.
    pub fields: Vec<Field>,
    /// The links of each step played.
    pub links: Vec<Vec<Link>>,
    /// 0-based step at which the goal was met.
    pub solved_at: Option<usize>,
    /// A placement was illegal or missing, or the field died.
    pub failed: bool,
}

/// Plays `placements` (one per pair step, in order) until the goal is met or they run out.
pub fn replay(puzzle: &Puzzle, placements: &[Placement]) -> Replay {
    let mut field = puzzle.field;
    let mut total = Popped::default();
    let mut next = placements.iter();
    let mut out = Replay { fields: vec![field], ..Replay::default() };
    for (i, &step) in puzzle.steps.iter().enumerate() {
        let placement = match step {
            Step::Pair(_) => match next.next() {
                Some(&p) => Some(p),
                None => break,
            },
            Step::Garbage(_) => None,
        };
        let mut links = Vec::new();
        let alive = play_step(&mut field, step, placement, &mut links);
        links.iter().for_each(|l| total.add(l));
        out.fields.push(field);
        let met = alive && puzzle.goal.is_met(&links, &total, &field);
        out.links.push(links);
        if !alive {
            out.failed = true;
            break;
        }
        if met {
            out.solved_at = Some(i);
            break;
        }
    }
    out
}
