//! Playing a puzzle's steps with the Puyo engine: one step at a time (the solver), or a whole
//! placement sequence with every link recorded (replays, filters, the desktop animation).

use crate::games::puyo::rules::{Bits, Field, HEIGHT, Link, Placement, WIDTH};

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

/// Which puyo is where, followed through placements, pops and falls: the per-puyo link labels
/// that the type-4 filter and the metrics need. (The engine reports each link's cells where
/// they are at that moment; this adapter keeps the identities.)
struct Tracker {
    /// ids[col][row]: the id of the puyo at that cell.
    ids: [Vec<usize>; WIDTH],
    /// Per id: the (0-based step, 1-based link) in which it popped.
    fate: Vec<Option<(usize, u8)>>,
}

impl Tracker {
    fn new(field: &Field) -> Tracker {
        let mut t = Tracker { ids: Default::default(), fate: Vec::new() };
        for c in 0..WIDTH {
            for _ in 0..field.height(c) {
                t.push(c);
            }
        }
        t
    }

    fn push(&mut self, col: usize) {
        self.ids[col].push(self.fate.len());
        self.fate.push(None);
    }

    /// Resolves `field` as step `step`, recording who pops in which link.
    fn resolve(&mut self, field: &mut Field, step: usize) -> Vec<Link> {
        let mut links = Vec::new();
        field.resolve_from(Bits::ALL, |link| {
            let gone = link.cells | link.cleared;
            for (c, col) in self.ids.iter_mut().enumerate() {
                for r in (0..col.len()).rev() {
                    if link.cells.has(c, r) {
                        self.fate[col[r]] = Some((step, link.index as u8));
                    }
                    if gone.has(c, r) {
                        col.remove(r);
                    }
                }
            }
            links.push(*link);
        });
        links
    }

    fn fates_of_start(&self, start: &[Vec<usize>; WIDTH]) -> [[Option<(usize, u8)>; HEIGHT]; WIDTH] {
        std::array::from_fn(|c| std::array::from_fn(|r| start[c].get(r).and_then(|&id| self.fate[id])))
    }
}

/// For each cell of a settled `field`, the link in which the puyo there pops when the field
/// resolves (0 = never).
pub fn link_labels(field: &Field) -> [[u8; HEIGHT]; WIDTH] {
    let mut t = Tracker::new(field);
    let start = t.ids.clone();
    t.resolve(&mut field.clone(), 0);
    t.fates_of_start(&start).map(|col| col.map(|f| f.map_or(0, |(_, link)| link)))
}

/// For each cell of the start field, the (0-based step, 1-based link) in which that puyo pops
/// when `placements` are played (`None`: it never pops, or the sequence fails first).
pub fn start_fates(puzzle: &Puzzle, placements: &[Placement]) -> [[Option<(usize, u8)>; HEIGHT]; WIDTH] {
    let mut field = puzzle.field;
    let mut t = Tracker::new(&field);
    let start = t.ids.clone();
    let mut next = placements.iter();
    for (i, &step) in puzzle.steps.iter().enumerate() {
        match step {
            Step::Pair(pair) => {
                let Some(&p) = next.next() else { break };
                let Some(((ac, ar), (cc, cr))) = field.landing(p) else { break };
                field.place(pair, p);
                let mut landed = [(ar, ac), (cr, cc)];
                landed.sort();
                landed.iter().for_each(|&(_, c)| t.push(c));
            }
            Step::Garbage(counts) => {
                let before: [usize; WIDTH] = std::array::from_fn(|c| field.height(c));
                field.drop_garbage_columns(counts);
                for (c, &h) in before.iter().enumerate() {
                    (h..field.height(c)).for_each(|_| t.push(c));
                }
            }
        }
        t.resolve(&mut field, i);
    }
    t.fates_of_start(&start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nazo::io::pon2;

    #[test]
    fn labels_follow_puyos_through_falls() {
        // The reds pop first; the Bs above them fall onto the other Bs and pop second.
        let f = Field::from_ascii("B.....\nR.....\nRBB...\nRRBO..").unwrap();
        let labels = link_labels(&f);
        assert_eq!(labels[0][..4], [1, 1, 1, 2]);
        assert_eq!(labels[1][..2], [1, 2]);
        assert_eq!(labels[2][..2], [2, 2]);
        assert_eq!(labels[3][0], 0, "garbage is cleared, not popped");
    }

    #[test]
    fn start_fates_cover_several_steps() {
        let p = pon2::parse("field=0_rrbbrr&steps=brbr&goal=2_0_6_0_").unwrap();
        let sol = crate::games::nazo::solver::solve(&p, Default::default()).solutions[0].clone();
        let fates = start_fates(&p, &sol);
        let popped = (0..WIDTH).filter(|&c| fates[c][0].is_some()).count();
        assert!(popped >= 2, "{fates:?}");
        assert_eq!(replay(&p, &sol).solved_at, Some(sol.len() - 1));
    }
}
