//! The perfect-information ("peeking") solver (spec §9, an extension): sees every kind and
//! decides whether a deal can be cleared.
//!
//! Removing tiles only ever frees tiles, so once every kind's tiles are split into pairs (a
//! "matching"), greedily removing any free matched pair clears the deal if any order does.
//! The search therefore branches on matchings, not on moves: it commits one kind at a time
//! to one of its (at most three) pairings and removes committed pairs as soon as they are
//! free. Every solution commits every kind, so branching on a single kind per node is
//! complete, and no move order is searched twice. Reductions, all sound:
//! - pairs whose partners are settled (committed, or the last two of a kind) are removed as
//!   soon as both are free, and a kind whose four tiles are all free is removed at once;
//! - a pairing is admissible only if neither tile of a pair lies (transitively) on the
//!   other; a kind with a single admissible pairing is committed to it from the start;
//!   certain-move rule 3 (three free, one of them floating: pair the other two) commits
//!   without branching;
//! - a relaxation proves positions lost: let settled pairs go only together, as above, but
//!   any other tile alone once it and an admissible mate are free (or that mate is gone).
//!   Every real play is a play of the relaxation, whose closure is unique (removals only
//!   free), so if the closure leaves a tile, no real play clears the position. It catches
//!   stacked and side-by-side locks ("ABAB" in a row), and pairs waiting on each other;
//! - probing: a pairing the relaxation refutes is never tried, and (after the first run) a
//!   kind left with one unrefuted pairing is committed to it without branching; a probe is
//!   answered without a run from the node's own relaxation closure when, there, one pair's
//!   tiles were freed without waiting for any removal of their kind and the other pair's
//!   waited at most for that first pair (`Closure::keeps_pairing`); a pairing refuted at
//!   a node is not probed again below it (a child only adds commitments and removes pairs
//!   its parent's relaxation removes too, so its relaxation clears no more);
//! - a table of positions (remaining tiles plus commitments, stored exactly) proved lost.
//!
//! Branching takes the kind with two free tiles and the fewest unrefuted pairings, pairings
//! that free more tiles first. A first run of `FIRST_BUDGET` nodes probes only the kinds
//! it may branch on (cheap nodes: most deals are solved here); later runs probe every kind
//! (costly nodes, far fewer of them), with budgets growing by `GROWTH` and, from the third
//! run, shuffled orders, since search times are heavy-tailed. Proofs of lost positions are
//! kept across runs. A "solvable" verdict comes with its witness replayed
//! ([`Solver::solution`]); "unsolvable" is an exhaustive search with the sound reductions
//! above; [`NODE_BUDGET`] spent gives "undecided".

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use rand::Rng;

use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::rules::{Kind, Move, UNKNOWN};
use crate::games::shanghai::tileset::TileSet;
use crate::lab::rng::{GameRng, game_rng, mix64};

/// The verdict on a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// The solver found a way to clear the deal.
    Solvable,
    /// No way to clear it exists.
    Unsolvable,
    /// The node budget ran out first (or the deal has a kind of more than four tiles).
    Undecided,
}

/// Nodes searched before giving up on a deal.
pub const NODE_BUDGET: u64 = 150_000;
/// Node budget of the first, cheap run: most deals are solved in it.
const FIRST_BUDGET: u64 = 300;
/// Runs before probing every kind at every node (slower nodes, far fewer of them).
const STRONG_AFTER: u32 = 1;
/// Each restart multiplies the node budget by this; from the third run on, branching
/// orders are shuffled.
const GROWTH: u64 = 64;

/// The three ways to split a kind's four tiles (by index) into two pairs.
const PAIRINGS: [[(usize, usize); 2]; 3] = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

/// Commitments: two bits per kind, 0 = none, p + 1 = pairing `PAIRINGS[p]`. Only kinds with
/// all four tiles left carry one (with two left the pair is settled anyway).
type Commits = u128;

/// Per kind, a bit per pairing the relaxation refuted at a node or at one of its ancestors.
type Refuted = [u8; 64];

/// Settled partner of each tile (see [`Solver::partners`]).
type Partners = [u8; 256];
/// No settled partner: the tile's kind has four tiles left and no commitment.
const LOOSE: u8 = u8::MAX;

/// The relaxation's worklist of tiles, without allocation.
struct Stack {
    items: [u8; 8 * 256],
    top: usize,
}

impl Stack {
    fn push(&mut self, t: usize) {
        self.items[self.top] = t as u8;
        self.top += 1;
    }
    fn pop(&mut self) -> Option<usize> {
        self.top = self.top.checked_sub(1)?;
        Some(self.items[self.top] as usize)
    }
}

/// What a relaxation's closure that cleared a position waited for: per tile of the position,
/// the removals its freeing needed and those its removal needed (itself included), both
/// transitively. Entries of tiles not in the position are stale.
#[derive(Default)]
struct Closure {
    freed_after: Vec<TileSet>,
    removed_after: Vec<TileSet>,
}

impl Closure {
    fn sized(tiles: usize) -> Closure {
        Closure { freed_after: vec![TileSet::EMPTY; tiles], removed_after: vec![TileSet::EMPTY; tiles] }
    }

    /// Whether the relaxation with a kind's four tiles settled into `pairs` clears too. It
    /// does when one pair's tiles are freed without any removal of the kind's tiles, and the
    /// other's without any but that first pair's: the closure's play, with the removals that
    /// waited for the kind's tiles put off until both pairs have gone, is then a play of the
    /// settled relaxation, since removals only free tiles.
    fn keeps_pairing(&self, pairs: [(usize, usize); 2]) -> bool {
        let tiles = |(a, b): (usize, usize)| {
            let mut set = TileSet::EMPTY;
            set.insert(a);
            set.insert(b);
            set
        };
        let kind = tiles(pairs[0]).or(&tiles(pairs[1]));
        let waits = |(a, b): (usize, usize)| self.freed_after[a].or(&self.freed_after[b]).and(&kind);
        let goes_first = |first: (usize, usize), then: (usize, usize)| {
            waits(first).is_empty() && waits(then).minus(&tiles(first)).is_empty()
        };
        goes_first(pairs[0], pairs[1]) || goes_first(pairs[1], pairs[0])
    }

    /// Records the removal of `go` (one tile, or a settled pair), whose freeing and, for a
    /// lone tile, its mate's state (`mate_waits`) were what it waited for.
    fn removed(&mut self, go: &[usize], mate_waits: TileSet) {
        let mut waits = mate_waits;
        for &g in go {
            waits = waits.or(&self.freed_after[g]);
            waits.insert(g);
        }
        go.iter().for_each(|&g| self.removed_after[g] = waits);
    }

    /// Records that `c` is free now that the tiles on it and on one side of it (`blockers`,
    /// those of the position) are gone.
    fn freed(&mut self, c: usize, blockers: TileSet) {
        self.freed_after[c] = blockers.iter().fold(TileSet::EMPTY, |w, b| w.or(&self.removed_after[b]));
    }
}

/// A position for the table of lost positions, stored exactly (no false "lost" from a hash
/// collision).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    present: TileSet,
    commits: Commits,
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.present.hash64() ^ mix64(self.commits as u64 ^ mix64((self.commits >> 64) as u64)));
    }
}

/// Passes the already mixed key hash through.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.0 = mix64(self.0 ^ b as u64));
    }
    fn write_u64(&mut self, h: u64) {
        self.0 = h;
    }
}

/// Solver state for one deal.
pub struct Solver<'a> {
    layout: &'a Layout,
    /// Dense kind index of each tile.
    kind: Vec<usize>,
    /// The tiles of each kind (two or four).
    groups: Vec<Vec<usize>>,
    /// Per kind with four tiles, a bit per admissible pairing.
    admissible: Vec<u8>,
    /// For each tile, the tiles it is paired with by some admissible pairing.
    mates: Vec<Vec<u8>>,
    beneath: Vec<TileSet>,
    /// A kind has more than four tiles: not handled.
    oversized: bool,
    lost: HashSet<Key, BuildHasherDefault<PassThrough>>,
    /// Positions searched so far.
    pub nodes: u64,
    budget: u64,
    /// Shuffles branching orders after the first restart.
    rng: GameRng,
    restart: u32,
    /// The closure of the node whose children are being chosen (one at a time, so reused).
    closure: Closure,
    /// The solution found, in play order.
    pub solution: Vec<Move>,
}

impl<'a> Solver<'a> {
    /// A solver for the deal `kinds`; tiles of kind [`UNKNOWN`] (those a player saw removed)
    /// belong to no kind and must not be in the positions asked about.
    pub fn new(layout: &'a Layout, kinds: &'a [Kind]) -> Solver<'a> {
        let mut dense = [usize::MAX; 256];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let kind: Vec<usize> = kinds
            .iter()
            .enumerate()
            .map(|(t, &k)| {
                if k == UNKNOWN {
                    return usize::MAX;
                }
                if dense[k as usize] == usize::MAX {
                    dense[k as usize] = groups.len();
                    groups.push(Vec::new());
                }
                groups[dense[k as usize]].push(t);
                dense[k as usize]
            })
            .collect();
        let beneath: Vec<TileSet> = (0..layout.len()).map(|i| layout.beneath(i)).collect();
        let can_pair = |a: usize, b: usize| !beneath[a].contains(b) && !beneath[b].contains(a);
        let admissible: Vec<u8> = groups
            .iter()
            .map(|g| {
                if g.len() != 4 {
                    return 0;
                }
                (0..3).filter(|&p| PAIRINGS[p].iter().all(|&(i, j)| can_pair(g[i], g[j]))).fold(0, |m, p| m | 1 << p)
            })
            .collect();
        let oversized = groups.iter().any(|g| g.len() > 4) || groups.len() > 64 || layout.len() > LOOSE as usize;
        let mut mates = vec![Vec::new(); layout.len()];
        for (k, g) in groups.iter().enumerate() {
            match g.len() {
                2 => (0..2).for_each(|i| mates[g[i]].push(g[1 - i] as u8)),
                4 => {
                    for p in (0..3).filter(|&p| admissible[k] >> p & 1 == 1) {
                        for &(i, j) in &PAIRINGS[p] {
                            mates[g[i]].push(g[j] as u8);
                            mates[g[j]].push(g[i] as u8);
                        }
                    }
                }
                _ => {}
            }
        }
        Solver {
            layout,
            kind,
            groups,
            admissible,
            mates,
            beneath,
            oversized,
            lost: HashSet::default(),
            nodes: 0,
            budget: 0,
            rng: game_rng(0, 0),
            restart: 0,
            closure: Closure::sized(layout.len()),
            solution: Vec::new(),
        }
    }

    /// Decides the position `present`; when solvable, [`Solver::solution`] clears it.
    pub fn solve(&mut self, present: TileSet) -> Verdict {
        self.solve_within(present, NODE_BUDGET)
    }

    /// [`Solver::solve`] with a budget of `max_nodes` more nodes (proofs of lost positions
    /// from earlier calls are kept).
    pub fn solve_within(&mut self, present: TileSet, max_nodes: u64) -> Verdict {
        if self.oversized {
            return Verdict::Undecided;
        }
        let Some(commits) = self.initial_commits(&present) else { return Verdict::Unsolvable };
        let (mut budget, limit) = (FIRST_BUDGET, self.nodes + max_nodes);
        self.restart = 0;
        while self.nodes < limit {
            self.budget = (self.nodes + budget).min(limit);
            self.solution.clear();
            match self.search(present, commits, [0; 64]) {
                // The witness is replayed, so a bug can cost a verdict but never fake one.
                Some(true) if self.witness_clears(present) => return Verdict::Solvable,
                Some(true) => return Verdict::Undecided,
                Some(false) => return Verdict::Unsolvable,
                None => {}
            }
            budget *= GROWTH;
            self.restart += 1;
        }
        Verdict::Undecided
    }

    /// Whether [`Solver::solution`] is a legal play that clears `present`.
    fn witness_clears(&self, mut present: TileSet) -> bool {
        for m in &self.solution {
            let [a, b] = m.tiles();
            let legal = a != b
                && self.kind[a] == self.kind[b]
                && [a, b].iter().all(|&t| present.contains(t) && self.layout.is_free(&present, t));
            if !legal {
                return false;
            }
            present.remove(a);
            present.remove(b);
        }
        present.is_empty()
    }

    /// Kinds with a single admissible pairing are committed to it; `None` when some kind
    /// has an odd number of tiles left or no admissible pairing.
    fn initial_commits(&self, present: &TileSet) -> Option<Commits> {
        let mut commits = 0;
        for k in 0..self.groups.len() {
            let (left, n) = self.left(present, k);
            match n {
                0 => {}
                2 if self.can_pair(left[0], left[1]) => {}
                4 if self.admissible[k] != 0 => {
                    if self.admissible[k].count_ones() == 1 {
                        commits |= ((self.admissible[k].trailing_zeros() + 1) as Commits) << (2 * k);
                    }
                }
                _ => return None,
            }
        }
        Some(commits)
    }

    /// Two tiles can be removed together only if neither lies (transitively) on the other.
    pub fn can_pair(&self, a: usize, b: usize) -> bool {
        !self.beneath[a].contains(b) && !self.beneath[b].contains(a)
    }

    fn commit_of(commits: Commits, k: usize) -> usize {
        (commits >> (2 * k) & 3) as usize
    }

    fn set_commit(commits: &mut Commits, k: usize, value: usize) {
        *commits = *commits & !((3 as Commits) << (2 * k)) | (value as Commits) << (2 * k);
    }

    /// The remaining tiles of kind `k` (at most four).
    fn left(&self, present: &TileSet, k: usize) -> ([usize; 4], usize) {
        let mut out = [0; 4];
        let mut n = 0;
        for &t in self.groups[k].iter().filter(|&&t| present.contains(t)) {
            out[n] = t;
            n += 1;
        }
        (out, n)
    }

    /// The settled pairs of kind `k`: the last two tiles, or the committed pairing's pairs.
    fn settled(&self, present: &TileSet, commits: Commits, k: usize) -> &'static [(usize, usize)] {
        let n = self.groups[k].iter().filter(|&&t| present.contains(t)).count();
        match (n, Self::commit_of(commits, k)) {
            (2, _) => &[(0, 1)],
            (4, c) if c > 0 => &PAIRINGS[c - 1],
            _ => &[],
        }
    }

    /// Partner of each tile of a settled pair, [`LOOSE`] for the others.
    fn partners(&self, present: &TileSet, commits: Commits) -> Partners {
        let mut partner = [LOOSE; 256];
        for k in 0..self.groups.len() {
            let (left, _) = self.left(present, k);
            for &(i, j) in self.settled(present, commits, k) {
                partner[left[i]] = left[j] as u8;
                partner[left[j]] = left[i] as u8;
            }
        }
        partner
    }

    /// Whether `f`, a free tile, can never block another tile: nothing lies under it and no
    /// tile beside it is flanked on both sides (paper's floating tile).
    fn floats(&self, present: &TileSet, f: usize) -> bool {
        let l = &self.layout;
        !present.intersects(&l.below[f])
            && l.left[f]
                .or(&l.right[f])
                .and(present)
                .iter()
                .all(|y| !present.intersects(&l.left[y]) || !present.intersects(&l.right[y]))
    }

    /// Removes settled free pairs and fully free kinds, and commits forced kinds (rule 3),
    /// until nothing changes. Returns the free tiles.
    fn settle(&mut self, present: &mut TileSet, commits: &mut Commits) -> TileSet {
        loop {
            let free = self.layout.free_tiles(present);
            let mut changed = false;
            let mut seen: u128 = 0;
            for t in free.iter() {
                let k = self.kind[t];
                if seen >> k & 1 == 1 || !present.contains(t) {
                    continue;
                }
                seen |= 1 << k;
                let (left, n) = self.left(present, k);
                let free_left = left[..n].iter().filter(|&&u| free.contains(u)).count();
                if n == 4 && free_left == 4 {
                    // All four free: any pairing is removable now.
                    self.take(present, left[0], left[1]);
                    self.take(present, left[2], left[3]);
                    Self::set_commit(commits, k, 0);
                    changed = true;
                    continue;
                }
                if n == 4
                    && Self::commit_of(*commits, k) == 0
                    && free_left == 3
                    && let Some(p) = self.rule3(present, &free, k, &left)
                {
                    Self::set_commit(commits, k, p + 1);
                    changed = true;
                }
                for &(i, j) in self.settled(present, *commits, k) {
                    let (a, b) = (left[i], left[j]);
                    if free.contains(a) && free.contains(b) {
                        self.take(present, a, b);
                        Self::set_commit(commits, k, 0);
                        changed = true;
                    }
                }
            }
            if !changed {
                return free;
            }
        }
    }

    fn take(&mut self, present: &mut TileSet, a: usize, b: usize) {
        present.remove(a);
        present.remove(b);
        self.solution.push(Move::new(a, b));
    }

    /// Certain-move rule 3 with all kinds known: three of the four free, one of those
    /// floating: pair the other two free ones (and the floating one with the fourth). Safe:
    /// the floating tile never blocks, so waiting with it costs nothing.
    fn rule3(&self, present: &TileSet, free: &TileSet, k: usize, left: &[usize; 4]) -> Option<usize> {
        let blocked = (0..4).find(|&i| !free.contains(left[i]))?;
        let f = (0..4).find(|&i| i != blocked && self.floats(present, left[i]))?;
        (0..3)
            .filter(|&p| self.admissible[k] >> p & 1 == 1)
            .find(|&p| PAIRINGS[p].iter().any(|&(i, j)| (i, j) == (f.min(blocked), f.max(blocked))))
    }

    /// The relaxation of the module doc: whether its closure clears `present` (whose free
    /// tiles are `free`), given the settled partners. A worklist of tiles whose removability
    /// may have changed: a tile freed, or a mate freed or gone.
    fn relaxation_clears(&self, present: &TileSet, free: &TileSet, partner: &Partners) -> bool {
        self.relaxation(present, free, partner, &mut None)
    }

    /// [`Solver::relaxation_clears`], recording its closure in `record` when given one.
    fn relaxation(
        &self,
        present: &TileSet,
        free: &TileSet,
        partner: &Partners,
        record: &mut Option<&mut Closure>,
    ) -> bool {
        let l = self.layout;
        let (mut p, mut free) = (*present, *free);
        if let Some(r) = record {
            free.iter().for_each(|t| r.freed_after[t] = TileSet::EMPTY);
        }
        // Each tile is freed and removed once, pushing at most itself, a partner or three
        // mates each time: 8 entries per tile bound the stack.
        let mut work = Stack { items: [0; 8 * 256], top: 0 };
        free.iter().for_each(|t| work.push(t));
        while let Some(t) = work.pop() {
            if !free.contains(t) {
                continue;
            }
            let u = partner[t] as usize;
            let (go, mate): (&[usize], _) = if partner[t] != LOOSE {
                if !free.contains(u) {
                    continue;
                }
                (&[t, u], None)
            } else if let Some(&m) =
                self.mates[t].iter().find(|&&m| !p.contains(m as usize) || free.contains(m as usize))
            {
                (&[t], Some(m as usize))
            } else {
                continue;
            };
            if let Some(r) = record {
                let mate_waits = match mate {
                    Some(m) if present.contains(m) && !p.contains(m) => r.removed_after[m],
                    Some(m) if present.contains(m) => r.freed_after[m],
                    _ => TileSet::EMPTY,
                };
                r.removed(go, mate_waits);
            }
            for &g in go {
                p.remove(g);
                free.remove(g);
            }
            for &g in go {
                if partner[g] == LOOSE {
                    self.mates[g].iter().filter(|&&m| free.contains(m as usize)).for_each(|&m| work.push(m as usize));
                }
                let near = l.below[g].or(&l.left[g]).or(&l.right[g]).and(&p).minus(&free);
                for c in near.iter().filter(|&c| l.is_free(&p, c)) {
                    free.insert(c);
                    if let Some(r) = record {
                        let side = if p.intersects(&l.left[c]) { &l.right[c] } else { &l.left[c] };
                        r.freed(c, l.above[c].or(side).and(present));
                    }
                    work.push(c);
                    if partner[c] != LOOSE {
                        work.push(partner[c] as usize);
                    } else {
                        self.mates[c].iter().for_each(|&m| work.push(m as usize));
                    }
                }
            }
        }
        p.is_empty()
    }

    /// Whether the reductions of a search node, without its probes (forced commitments,
    /// settling, the relaxation), prove `present` lost. Cheap and sound, so the virtual
    /// player uses it to score dead ends in a sampled world.
    pub fn provably_lost(&mut self, mut present: TileSet) -> bool {
        if self.oversized {
            return false;
        }
        let Some(mut commits) = self.initial_commits(&present) else { return true };
        let free = self.settle(&mut present, &mut commits);
        self.solution.clear();
        !present.is_empty() && !self.relaxation_clears(&present, &free, &self.partners(&present, commits))
    }

    /// `None` when the budget ran out.
    fn search(&mut self, mut present: TileSet, mut commits: Commits, mut refuted: Refuted) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let depth = self.solution.len();
        let lost = |s: &mut Self| {
            s.solution.truncate(depth);
            Some(false)
        };
        let free = self.settle(&mut present, &mut commits);
        if present.is_empty() {
            return Some(true);
        }
        let key = Key { present, commits };
        let partner = self.partners(&present, commits);
        let mut closure = std::mem::take(&mut self.closure);
        if self.lost.contains(&key) || !self.relaxation(&present, &free, &partner, &mut Some(&mut closure)) {
            self.closure = closure;
            return lost(self);
        }
        let children = self.branches(&present, &free, commits, &partner, &closure, &mut refuted);
        self.closure = closure;
        for c in children {
            match self.search(present, c, refuted) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => {
                    self.solution.truncate(depth);
                    return None;
                }
            }
        }
        self.lost.insert(key);
        lost(self)
    }

    /// The pairings among `candidates` (a bit per pairing) of an uncommitted kind whose four
    /// tiles are `left` that the relaxation does not refute. `closure`, the relaxation's
    /// closure with `partner`, answers some probes without a run.
    fn viable(
        &self,
        present: &TileSet,
        free: &TileSet,
        partner: &Partners,
        closure: Option<&Closure>,
        left: &[usize; 4],
        candidates: u8,
    ) -> Vec<usize> {
        (0..3)
            .filter(|&p| candidates >> p & 1 == 1)
            .filter(|&p| {
                if closure.is_some_and(|c| c.keeps_pairing(PAIRINGS[p].map(|(i, j)| (left[i], left[j])))) {
                    return true;
                }
                let mut with = *partner;
                for &(i, j) in &PAIRINGS[p] {
                    with[left[i]] = left[j] as u8;
                    with[left[j]] = left[i] as u8;
                }
                self.relaxation_clears(present, free, &with)
            })
            .collect()
    }

    /// The commitments to try. Probes uncommitted kinds with the relaxation: in the cheap
    /// first run only kinds with two free tiles; later every kind, committing those left
    /// with a single unrefuted pairing (one pass). Then branches on the kind with two free
    /// tiles, the fewest unrefuted pairings and the fewest free tiles, pairings that free
    /// more tiles first. Records the refuted pairings in `refuted`, for the children.
    fn branches(
        &mut self,
        present: &TileSet,
        free: &TileSet,
        commits: Commits,
        partner: &Partners,
        closure: &Closure,
        refuted: &mut Refuted,
    ) -> Vec<Commits> {
        let noise = if self.restart <= 1 { 0 } else { 3 };
        let strong = self.restart >= STRONG_AFTER;
        let (mut next, mut partner) = (commits, *partner);
        let mut best: Option<(usize, usize, Vec<usize>)> = None;
        for (k, refuted) in refuted.iter_mut().enumerate().take(self.groups.len()) {
            let (left, n) = self.left(present, k);
            if n != 4 || Self::commit_of(next, k) != 0 {
                continue;
            }
            let free_left = left.iter().filter(|&&u| free.contains(u)).count();
            if !strong && free_left < 2 {
                continue;
            }
            // The closure is the one of the node's own partners, before forced commitments.
            let closure = (next == commits).then_some(closure);
            let viable = self.viable(present, free, &partner, closure, &left, self.admissible[k] & !*refuted);
            *refuted = self.admissible[k] & !viable.iter().fold(0, |m, p| m | 1 << p);
            if viable.is_empty() {
                return Vec::new();
            }
            if viable.len() == 1 && strong {
                Self::set_commit(&mut next, k, viable[0] + 1);
                for &(i, j) in &PAIRINGS[viable[0]] {
                    partner[left[i]] = left[j] as u8;
                    partner[left[j]] = left[i] as u8;
                }
                continue;
            }
            if free_left < 2 {
                continue;
            }
            let score = viable.len() * 1000 + free_left * 100 + self.rng.random_range(0..=noise);
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, k, viable));
            }
        }
        let Some((_, k, viable)) = best else {
            // Nothing to branch on: one child carries the forced commitments, if any.
            return if next != commits { vec![next] } else { Vec::new() };
        };
        let (left, _) = self.left(present, k);
        let mut options: Vec<(usize, usize)> = viable
            .into_iter()
            .map(|p| {
                // Tiles unblocked by the pairs removable now.
                let gain: usize = PAIRINGS[p]
                    .iter()
                    .map(|&(i, j)| (left[i], left[j]))
                    .filter(|&(a, b)| free.contains(a) && free.contains(b))
                    .map(|(a, b)| 1 + self.beneath[a].or(&self.beneath[b]).and(present).len())
                    .sum();
                (gain * 4 + self.rng.random_range(0..=noise), p)
            })
            .collect();
        options.sort_by_key(|&(g, _)| std::cmp::Reverse(g));
        options
            .into_iter()
            .map(|(_, p)| {
                let mut c = next;
                Self::set_commit(&mut c, k, p + 1);
                c
            })
            .collect()
    }
}

/// Whether a full deal is solvable with perfect information.
pub fn solve_deal(layout: &Layout, kinds: &[Kind]) -> Verdict {
    Solver::new(layout, kinds).solve(layout.all())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::generator::{DealSource, backward_play, deal};
    use crate::games::shanghai::rules::{Game, legal_moves};
    use proptest::prelude::*;

    /// Exhaustive search over moves with a table of visited positions: slow, obviously right.
    fn brute_force(layout: &Layout, kinds: &[Kind], present: TileSet, seen: &mut HashMap<TileSet, bool>) -> bool {
        if present.is_empty() {
            return true;
        }
        if let Some(&v) = seen.get(&present) {
            return v;
        }
        let v = legal_moves(layout, &present, kinds).into_iter().any(|m| {
            let mut next = present;
            m.tiles().into_iter().for_each(|t| next.remove(t));
            brute_force(layout, kinds, next, seen)
        });
        seen.insert(present, v);
        v
    }

    /// A solvable verdict's solution replays legally to a cleared board.
    fn replays(layout: &std::sync::Arc<Layout>, kinds: &[Kind], solution: &[Move]) -> bool {
        let mut game = Game::new(layout.clone(), kinds.to_vec());
        solution.iter().all(|&m| game.play(m).is_ok()) && game.is_won()
    }

    /// The game of `kinds` after up to `plies` random moves.
    fn random_play(layout: &std::sync::Arc<Layout>, kinds: &[Kind], seed: u64, plies: usize) -> Game {
        let mut game = Game::new(layout.clone(), kinds.to_vec());
        let mut rng = crate::lab::rng::game_rng(seed, 9);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rand::Rng::random_range(&mut rng, 0..moves.len())]).unwrap();
        }
        game
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(96)))]

        /// On random mini-layout deals, and on positions reached by random play from them,
        /// the verdict matches exhaustive search and solutions replay.
        #[test]
        fn verdicts_match_brute_force(seed in 0u64..1_000_000, spider in any::<bool>(), plies in 0usize..8) {
            let layout = load(if spider { "mini_spider" } else { "mini_turtle" }).unwrap();
            let kinds = deal(&layout, DealSource::Random, seed, 0).unwrap();
            let game = random_play(&layout, &kinds, seed, plies);
            let mut solver = Solver::new(&layout, &kinds);
            let verdict = solver.solve(game.present);
            let truth = brute_force(&layout, &kinds, game.present, &mut HashMap::new());
            prop_assert!(!(truth && Solver::new(&layout, &kinds).provably_lost(game.present)), "dead-end test unsound");
            prop_assert_eq!(verdict, if truth { Verdict::Solvable } else { Verdict::Unsolvable });
            if truth {
                let mut replay = game.clone();
                prop_assert!(solver.solution.iter().all(|&m| replay.play(m).is_ok()) && replay.is_won());
            }
        }
    }

    /// A search node of the solver: the position after settling, its free tiles, its
    /// commitments and settled partners, and its relaxation's closure.
    struct Node {
        present: TileSet,
        free: TileSet,
        commits: Commits,
        partner: Partners,
        closure: Closure,
    }

    /// The node of `present` under `commits`; `None` when its relaxation proves it lost.
    fn node(solver: &mut Solver, mut present: TileSet, mut commits: Commits) -> Option<Node> {
        let free = solver.settle(&mut present, &mut commits);
        let partner = solver.partners(&present, commits);
        let mut closure = Closure::sized(solver.layout.len());
        solver.relaxation(&present, &free, &partner, &mut Some(&mut closure)).then_some(Node {
            present,
            free,
            commits,
            partner,
            closure,
        })
    }

    /// The root node of a random turtle deal after up to `plies` random moves.
    fn random_turtle_node(seed: u64, plies: usize, f: impl FnOnce(&mut Solver, Node)) {
        let layout = load("turtle").unwrap();
        let kinds = deal(&layout, DealSource::Random, seed, 0).unwrap();
        let present = random_play(&layout, &kinds, seed, plies).present;
        let mut solver = Solver::new(&layout, &kinds);
        if let Some(commits) = solver.initial_commits(&present)
            && let Some(root) = node(&mut solver, present, commits)
        {
            f(&mut solver, root);
        }
    }

    /// The children of `n` that its relaxation does not prove lost, and the pairings refuted
    /// at `n`.
    fn children(solver: &mut Solver, n: &Node) -> (Vec<Node>, Refuted) {
        let mut refuted = [0; 64];
        let commits = solver.branches(&n.present, &n.free, n.commits, &n.partner, &n.closure, &mut refuted);
        (commits.into_iter().filter_map(|c| node(solver, n.present, c)).collect(), refuted)
    }

    /// The kinds of `node` that are probed: four left, uncommitted.
    fn probed(solver: &Solver, node: &Node) -> Vec<(usize, [usize; 4])> {
        (0..solver.groups.len())
            .map(|k| (k, solver.left(&node.present, k)))
            .filter(|&(k, (_, n))| n == 4 && Solver::commit_of(node.commits, k) == 0)
            .map(|(k, (left, _))| (k, left))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(48)))]

        /// Probes answered from a node's closure agree with running the relaxation, at
        /// positions reached by random play of random turtle deals and at their children.
        #[test]
        fn closure_probes_match_relaxation_runs(seed in 0u64..1_000_000, plies in 0usize..40) {
            random_turtle_node(seed, plies, |solver, root| {
                let (children, _) = children(solver, &root);
                for n in std::iter::once(&root).chain(&children) {
                    for (k, left) in probed(solver, n) {
                        let admissible = solver.admissible[k];
                        assert_eq!(
                            solver.viable(&n.present, &n.free, &n.partner, Some(&n.closure), &left, admissible),
                            solver.viable(&n.present, &n.free, &n.partner, None, &left, admissible)
                        );
                    }
                }
            });
        }
    }

    /// A pairing the relaxation refutes at a node is refuted at each of its children too,
    /// which is why the search does not probe it again below the node.
    #[test]
    fn refuted_pairings_stay_refuted_in_children() {
        let mut checked = 0;
        for seed in 0..40 {
            random_turtle_node(seed, 20 + seed as usize % 30, |solver, n| {
                let (children, refuted) = children(solver, &n);
                for child in children {
                    for (k, left) in probed(solver, &child).into_iter().filter(|&(k, _)| refuted[k] != 0) {
                        let admissible = solver.admissible[k];
                        let viable =
                            solver.viable(&child.present, &child.free, &child.partner, None, &left, admissible);
                        assert!(viable.iter().all(|&p| refuted[k] >> p & 1 == 0), "seed {seed}, kind {k}");
                        checked += 1;
                    }
                }
            });
        }
        assert!(checked > 0, "no refuted pairing met again");
    }

    /// Random turtle deals are all decided, solutions replay, and some are unsolvable.
    #[test]
    fn turtle_deals_are_decided_and_solutions_replay() {
        let layout = load("turtle").unwrap();
        let mut unsolvable = 0;
        for index in 0..40 {
            let kinds = deal(&layout, DealSource::Random, 1, index).unwrap();
            let mut solver = Solver::new(&layout, &kinds);
            match solver.solve(layout.all()) {
                Verdict::Solvable => assert!(replays(&layout, &kinds, &solver.solution), "deal {index}"),
                Verdict::Unsolvable => unsolvable += 1,
                Verdict::Undecided => panic!("deal {index} undecided"),
            }
        }
        // Deals 8 and 48 of seed 1 are unsolvable.
        assert!(unsolvable >= 1);
    }

    /// Generator instances are solvable by construction: the solver proves every one.
    #[test]
    fn generator_instances_are_all_solvable() {
        for name in ["turtle", "mini_turtle", "mini_spider", "fortress72"] {
            let layout = load(name).unwrap();
            for seed in 0..12 {
                let g = backward_play(&layout, &mut crate::lab::rng::game_rng(seed, 11)).unwrap();
                let mut solver = Solver::new(&layout, &g.kinds);
                assert_eq!(solver.solve(layout.all()), Verdict::Solvable, "{name} seed {seed}");
                assert!(replays(&layout, &g.kinds, &solver.solution));
            }
        }
    }
}
