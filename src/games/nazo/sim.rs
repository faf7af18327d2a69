//! Playing a puzzle's steps with the Puyo engine: one step at a time (the solver), or a whole
//! placement sequence with every link recorded (replays, filters, the desktop animation).

use crate::games::puyo::rules::{Bits, Field, HEIGHT, Link, Placement, Puyo, WIDTH};

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
    /// `ids[col][row]`: the id of the puyo at that cell.
    ids: [Vec<usize>; WIDTH],
    /// Per id: its kind.
    kind: Vec<Puyo>,
    /// Per id: the (0-based step, 1-based link) in which it popped.
    fate: Vec<Option<(usize, u8)>>,
    /// Every popped group: (0-based step, 1-based link, colour, the ids in it).
    groups: Vec<(usize, u8, Puyo, Vec<usize>)>,
}

impl Tracker {
    fn new(field: &Field) -> Tracker {
        let mut t = Tracker { ids: Default::default(), kind: Vec::new(), fate: Vec::new(), groups: Vec::new() };
        for c in 0..WIDTH {
            for r in 0..field.height(c) {
                t.push(c, field.get(c, r).unwrap_or(Puyo::Garbage));
            }
        }
        t
    }

    fn push(&mut self, col: usize, kind: Puyo) {
        self.ids[col].push(self.fate.len());
        self.kind.push(kind);
        self.fate.push(None);
    }

    /// Resolves `field` as step `step`, recording who pops in which link and group.
    fn resolve(&mut self, field: &mut Field, step: usize) -> Vec<Link> {
        let mut links = Vec::new();
        field.resolve_from(Bits::ALL, |link| {
            let id_at = |c: usize, r: usize| self.ids[c][r];
            for color in Puyo::ALL.into_iter().filter(|p| p.is_color() && link.popped[p.index()] > 0) {
                let mut cells = Bits(
                    link.cells
                        .cells()
                        .filter(|&(c, r)| self.kind[id_at(c, r)] == color)
                        .fold(0, |a, (c, r)| a | Bits::cell(c, r).0),
                );
                while !cells.is_empty() {
                    let group = Bits::flood(cells.first(), cells);
                    cells = Bits(cells.0 & !group.0);
                    let ids = group.cells().map(|(c, r)| id_at(c, r)).collect();
                    self.groups.push((step, link.index as u8, color, ids));
                }
            }
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

/// A group popped while a placement sequence is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoppedGroup {
    /// 0-based step and 1-based link.
    pub step: usize,
    /// The link it popped in, 1-based.
    pub link: u8,
    /// The colour popped.
    pub color: Puyo,
    /// Its start-field puyos as (column, row) on the start field.
    pub start_cells: Vec<(usize, usize)>,
    /// Its puyos that came with the steps.
    pub step_puyos: u32,
}

/// What playing `placements` does to the start field's puyos.
pub struct Fates {
    /// Per start-field cell: the (0-based step, 1-based link) in which that puyo pops (`None`:
    /// it never pops, or the sequence fails first).
    pub start: [[Option<(usize, u8)>; HEIGHT]; WIDTH],
    /// Every popped group, in order.
    pub groups: Vec<PoppedGroup>,
}

/// Plays `placements` (one per pair step) following every puyo.
pub fn fates(puzzle: &Puzzle, placements: &[Placement]) -> Fates {
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
                let mut landed = [(ar, ac, pair.axis), (cr, cc, pair.child)];
                landed.sort_by_key(|&(r, c, _)| (r, c));
                landed.iter().for_each(|&(_, c, kind)| t.push(c, kind));
            }
            Step::Garbage(counts) => {
                let before: [usize; WIDTH] = std::array::from_fn(|c| field.height(c));
                field.drop_garbage_columns(counts);
                for (c, &h) in before.iter().enumerate() {
                    (h..field.height(c)).for_each(|_| t.push(c, Puyo::Garbage));
                }
            }
        }
        t.resolve(&mut field, i);
    }
    // Where each start id sat.
    let mut home = vec![None; t.kind.len()];
    for (c, col) in start.iter().enumerate() {
        for (r, &id) in col.iter().enumerate() {
            home[id] = Some((c, r));
        }
    }
    let groups = t
        .groups
        .iter()
        .map(|(step, link, color, ids)| PoppedGroup {
            step: *step,
            link: *link,
            color: *color,
            start_cells: ids.iter().filter_map(|&id| home[id]).collect(),
            step_puyos: ids.iter().filter(|&&id| home[id].is_none()).count() as u32,
        })
        .collect();
    Fates { start: t.fates_of_start(&start), groups }
}

/// For each cell of the start field, the (0-based step, 1-based link) in which that puyo pops
/// when `placements` are played (`None`: it never pops, or the sequence fails first).
pub fn start_fates(puzzle: &Puzzle, placements: &[Placement]) -> [[Option<(usize, u8)>; HEIGHT]; WIDTH] {
    fates(puzzle, placements).start
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
        let start = start_fates(&p, &sol);
        let popped = (0..WIDTH).filter(|&c| start[c][0].is_some()).count();
        assert!(popped >= 2, "{start:?}");
        assert_eq!(replay(&p, &sol).solved_at, Some(sol.len() - 1));
        // The groups hold exactly the puyos the links popped.
        let f = fates(&p, &sol);
        let in_groups: usize = f.groups.iter().map(|g| g.start_cells.len() + g.step_puyos as usize).sum();
        let in_links: u32 = replay(&p, &sol).links.iter().flatten().map(|l| l.puyos()).sum();
        assert_eq!(in_groups as u32, in_links, "{:?}", f.groups);
    }

    #[test]
    fn groups_know_their_start_cells_and_step_puyos() {
        // Two reds in column 1, two blues in column 2; each pair completes one colour.
        let p = pon2::parse("field=0_rb....rb....&steps=rrbb&goal=0_0_2_0_").unwrap();
        let up = |col| Placement { col, rot: crate::games::puyo::rules::Rotation::Up };
        let f = fates(&p, &[up(1), up(0)]);
        assert!(f.groups.is_empty(), "{:?}", f.groups);
        let f = fates(&p, &[up(0), up(1)]);
        let shape: Vec<_> =
            f.groups.iter().map(|g| (g.step, g.link, g.color, g.start_cells.clone(), g.step_puyos)).collect();
        assert_eq!(
            shape,
            vec![(0, 1, Puyo::Red, vec![(0, 0), (0, 1)], 2), (1, 1, Puyo::Blue, vec![(1, 0), (1, 1)], 2)]
        );
    }
}
