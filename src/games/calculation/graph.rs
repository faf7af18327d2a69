//! The real position under an assignment plan as the stack game's graph (spec §4 conversion):
//! nodes are the stack cards (by stack, bottom first) then each foundation's stock slots in
//! order; every node has at most two edges (the next slot of its foundation and, for a stack
//! card, the card beneath it), so reachability is one depth-first pass.
//!
//! A decision values every plan of the beam with the drawn card on every stack (and the
//! lookahead, every next rank on every stack), so [`Graph::stacked`] derives the graph with one
//! more stack card from the plan's graph without the card: the card's stock slot becomes a
//! stack card with one new edge, to the card beneath it.

use super::plan::{Plan, Table};
use super::rules::{DECK, FOUNDATIONS, FULL, MAX_STACKS, slot_of};
use super::stack_game::{MAX_CHAIN, Position};

const NONE: u8 = u8::MAX;

/// A table under a plan, closed into reachability (see the module doc). A graph from
/// [`Graph::stacked`] keeps only what valuing reads (stock slots' masks and reach).
#[derive(Clone, Debug)]
pub struct Graph {
    stacks: usize,
    /// Nodes in all; the first `stack_nodes` are stack cards.
    n: usize,
    stack_nodes: usize,
    /// `reach[v]`: the nodes that must be played after v.
    reach: [u64; DECK],
    /// Foundation f's stock slots are nodes `start[f]..start[f] + len[f]`.
    start: [usize; FOUNDATIONS],
    len: [usize; FOUNDATIONS],
    /// Forbidden stacks of each node (read for the stock slots).
    masks: [u8; DECK],
    /// Foundation heights after the plan's cascade.
    heights: [u8; FOUNDATIONS],
    /// Each stack's top node after the cascade; `NONE` when empty.
    top_node: [u8; MAX_STACKS],
    /// The node of each (foundation, slot) above the height; `NONE` for the head.
    node_of_slot: [[u8; FULL as usize + 1]; FOUNDATIONS],
    /// Stacks the cascade took cards from.
    cascaded: u32,
}

/// A node's two edges: its foundation successor, then the card beneath it.
type Edges = [[u8; 2]; DECK];

/// What [`Graph::stacked`] found.
pub enum Stacked {
    /// The card's slot is taken or the card closes a cycle: the stack game is lost.
    Lost,
    Graph(Box<Graph>),
    /// The card changes the cascade: build the graph from the table.
    Rebuild,
}

impl Graph {
    /// `None` when the plan no longer fits the table or leaves a cycle (some card waits for
    /// itself): the stack game is lost.
    pub fn new(table: &Table, plan: &Plan) -> Option<Graph> {
        let stacks = table.stacks.len();
        let mut heights = table.foundations;
        let mut tops: Vec<usize> = table.stacks.iter().map(Vec::len).collect();
        let mut cascaded = 0u32;
        for (s, f) in table.cascade(plan) {
            heights[f as usize] += 1;
            tops[s as usize] -= 1;
            cascaded |= 1 << s;
        }
        let mut node_of_slot = [[NONE; FULL as usize + 1]; FOUNDATIONS];
        let mut edges: Edges = [[NONE; 2]; DECK];
        let mut top_node = [NONE; MAX_STACKS];
        let mut n = 0usize;
        for (s, stack) in table.stacks.iter().enumerate() {
            for &card in &stack[..tops[s]] {
                let f = plan.label(card)? as usize;
                let k = slot_of(f, card.rank) as usize;
                if k <= heights[f] as usize || node_of_slot[f][k] != NONE {
                    return None; // a plan the table no longer allows
                }
                node_of_slot[f][k] = n as u8;
                edges[n][1] = top_node[s]; // the card above is played before the one beneath
                top_node[s] = n as u8;
                n += 1;
            }
        }
        let stack_nodes = n;
        let (mut start, mut len) = ([0; FOUNDATIONS], [0; FOUNDATIONS]);
        for f in 0..FOUNDATIONS {
            start[f] = n;
            let mut prev = NONE;
            for k in heights[f] + 1..=FULL {
                let node = match node_of_slot[f][k as usize] {
                    // The head rule: the next card of a foundation, when in the stock, is left out.
                    NONE if k == heights[f] + 1 => continue,
                    NONE => {
                        node_of_slot[f][k as usize] = n as u8;
                        n += 1;
                        (n - 1) as u8
                    }
                    x => x,
                };
                if prev != NONE {
                    edges[prev as usize][0] = node;
                }
                prev = node;
            }
            len[f] = n - start[f];
        }
        debug_assert!(len.iter().all(|&l| l <= MAX_CHAIN));
        let mut g = Graph {
            stacks,
            n,
            stack_nodes,
            reach: [0; DECK],
            start,
            len,
            masks: [0; DECK],
            heights,
            top_node,
            node_of_slot,
            cascaded,
        };
        let mut state = [Visit::New; DECK];
        for v in 0..n {
            g.visit(v, &edges, &mut state)?;
        }
        g.fill_masks();
        Some(g)
    }

    /// Fills `reach[v]`; `None` on a cycle.
    fn visit(&mut self, v: usize, edges: &Edges, state: &mut [Visit; DECK]) -> Option<u64> {
        match state[v] {
            Visit::Done => return Some(self.reach[v]),
            Visit::Open => return None,
            Visit::New => {}
        }
        state[v] = Visit::Open;
        let mut r = 0u64;
        for &w in &edges[v] {
            if w != NONE {
                r |= 1 << w | self.visit(w as usize, edges, state)?;
            }
        }
        state[v] = Visit::Done;
        self.reach[v] = r;
        Some(r)
    }

    /// A stack's top reaches every card beneath it, so what it reaches is forbidden there.
    fn fill_masks(&mut self) {
        self.masks = [0; DECK];
        for (s, &top) in self.top_node[..self.stacks].iter().enumerate() {
            if top != NONE {
                let mut later = self.reach[top as usize];
                while later != 0 {
                    self.masks[later.trailing_zeros() as usize] |= 1 << s;
                    later &= later - 1;
                }
            }
        }
    }

    /// The graph of the same table and plan with one more card, of `rank`, on stack `s` and
    /// sent to foundation `f`: what [`Graph::new`] gives on that table and extended plan.
    pub fn stacked(&self, s: usize, rank: u8, f: usize) -> Stacked {
        let k = slot_of(f, rank);
        if self.cascaded >> s & 1 == 1 || k == self.heights[f] + 1 {
            return Stacked::Rebuild; // the card blocks the cascade or joins it
        }
        let z = self.node_of_slot[f][k as usize] as usize;
        if k <= self.heights[f] || z < self.stack_nodes {
            return Stacked::Lost; // a slot the table or another stack card already has
        }
        let mut g = Box::new(self.clone());
        let below = self.top_node[s];
        if below != NONE {
            let t = below as usize;
            if self.reach[t] >> z & 1 == 1 {
                return Stacked::Lost;
            }
            let add = 1 << t | self.reach[t];
            for w in 0..self.n {
                if w == z || self.reach[w] >> z & 1 == 1 {
                    g.reach[w] |= add;
                }
            }
        }
        g.top_node[s] = z as u8;
        g.fill_masks();
        g.remove_stock_slot(f, z);
        Stacked::Graph(g)
    }

    /// Drops node z, the stock slot of foundation f that became a stack card, from the stock
    /// numbering (only the masks and reach of stock slots are read from here on).
    fn remove_stock_slot(&mut self, f: usize, z: usize) {
        let low = (1u64 << z) - 1;
        for r in &mut self.reach[..self.n] {
            *r = (*r & low) | (*r >> 1 & !low);
        }
        self.reach.copy_within(z + 1..self.n, z);
        self.masks.copy_within(z + 1..self.n, z);
        self.n -= 1;
        self.len[f] -= 1;
        for start in &mut self.start {
            if *start > z {
                *start -= 1;
            }
        }
    }

    /// The forbidden stacks of foundation f's stock slots from index `from` on.
    fn chain_masks(&self, f: usize, from: usize) -> &[u8] {
        &self.masks[self.start[f] + from..self.start[f] + self.len[f]]
    }

    /// The stack game of foundation f's stock slots from index `from` on.
    pub fn single(&self, f: usize, from: usize) -> Position {
        Position::single(self.stacks, self.chain_masks(f, from))
    }

    /// For each stock slot of foundation a from index `oa` on: the first slot of foundation b
    /// from `ob` on that must come after it (counted from `ob`; the tail's length when none).
    fn cross(&self, a: usize, b: usize, oa: usize, ob: usize) -> [u8; MAX_CHAIN] {
        let tail = self.len[b] - ob;
        let mut out = [0; MAX_CHAIN];
        for (i, x) in out.iter_mut().enumerate().take(self.len[a] - oa) {
            let later = self.reach[self.start[a] + oa + i] >> (self.start[b] + ob) & ((1 << tail) - 1);
            *x = (later.trailing_zeros() as usize).min(tail) as u8;
        }
        out
    }

    /// The stack game of the slots of foundations a and b from `oa` and `ob` on.
    fn pair(&self, a: usize, b: usize, oa: usize, ob: usize) -> Position {
        let (ma, mb) = (self.chain_masks(a, oa), self.chain_masks(b, ob));
        Position::pair(self.stacks, ma, mb, &self.cross(a, b, oa, ob), &self.cross(b, a, ob, oa))
    }

    /// Where foundation f's chain is cut for pairs: the first of its last `window` cards.
    pub fn cut(&self, f: usize, window: usize) -> usize {
        self.len[f].saturating_sub(window)
    }

    /// p_ab, exact when neither chain is cut; otherwise `pa · pb` times the reduction factor
    /// of the cut pair, `tail[f]` being the value of chain f's tail alone (see
    /// [`super::plan::estimate`]).
    pub fn pair_value(&self, (a, b): (usize, usize), window: usize, single: &[f64], tail: &[f64]) -> f64 {
        let (oa, ob) = (self.cut(a, window), self.cut(b, window));
        if oa == 0 && ob == 0 {
            return self.pair(a, b, 0, 0).value();
        }
        let (ha, hb) = (tail[a], tail[b]);
        let factor = if ha * hb > 0.0 { self.pair(a, b, oa, ob).value() / (ha * hb) } else { 1.0 };
        single[a] * single[b] * factor
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    New,
    Open,
    Done,
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;
    use crate::games::calculation::rules::{Card, Deal};

    /// Calls `visit` with the table, the plan and the card drawn next, before each of the first
    /// 40 cards of a dozen games stacked at random under random plans, from foundations 0, 3
    /// or 6 high (so that chains come in every length). The plan's cascade is played after
    /// some cards only, so some tables come with a cascade pending.
    fn walk(mut visit: impl FnMut(&Table, &Plan, Card)) {
        let mut rng = crate::lab::rng::game_rng(9, 0);
        for deal in 0..12u64 {
            let stacks = 3 + deal as usize % 2;
            let mut table = Table { foundations: [deal as u8 % 3 * 3; FOUNDATIONS], stacks: vec![Vec::new(); stacks] };
            let mut plan = Plan::default();
            for (id, &rank) in Deal::from_seed(9, deal).ranks.iter().enumerate().take(40) {
                let card = Card { rank, id: id as u8 };
                visit(&table, &plan, card);
                let free: Vec<u8> = plan.free_slots(&table, rank).collect();
                let Some(&f) = free.get(rng.random_range(0..free.len().max(1))) else { continue };
                table.stacks[rng.random_range(0..stacks)].push(card);
                plan = plan.with(card, f);
                if rng.random_bool(0.5) {
                    for (s, f) in table.cascade(&plan) {
                        let top = table.stacks[s as usize].pop().expect("cascade moves a top");
                        plan = plan.after_play(&table, top, f, true).swap_remove(0);
                        table.foundations[f as usize] += 1;
                    }
                }
            }
        }
    }

    /// What valuing reads of a graph: each foundation's stock-slot masks and, for every
    /// foundation, the first of its stock slots each of them must wait for.
    fn read(g: &Graph) -> Vec<(Vec<u8>, Vec<[u8; MAX_CHAIN]>)> {
        (0..FOUNDATIONS)
            .map(|a| (g.chain_masks(a, 0).to_vec(), (0..FOUNDATIONS).map(|b| g.cross(a, b, 0, 0)).collect()))
            .collect()
    }

    #[test]
    fn a_derived_graph_reads_as_the_graph_built_from_its_table() {
        let (mut derived, mut lost, mut blocked_cascades) = (0, 0, 0);
        walk(|table, plan, card| {
            let Some(base) = Graph::new(table, plan) else { return };
            for s in 0..table.stacks.len() {
                let mut after = table.clone();
                after.stacks[s].push(card);
                // Every foundation, taken slots too: the derivation must find those lost.
                for f in 0..FOUNDATIONS {
                    let built = Graph::new(&after, &plan.with(card, f as u8));
                    match base.stacked(s, card.rank, f) {
                        Stacked::Graph(g) => {
                            derived += 1;
                            assert_eq!(read(&g), read(&built.expect("a derived graph is live")), "{after:?} to {f}");
                        }
                        Stacked::Lost => {
                            lost += 1;
                            assert!(built.is_none(), "{after:?} to {f}");
                        }
                        Stacked::Rebuild => blocked_cascades += usize::from(base.cascaded >> s & 1 == 1),
                    }
                }
            }
        });
        assert!(derived > 500 && lost > 100 && blocked_cascades > 10, "{derived} {lost} {blocked_cascades}");
    }

    #[test]
    fn a_cut_cross_is_the_whole_cross_counted_from_the_cuts() {
        // A foundation's slots are played in order: the slots of b that must wait for a slot
        // of a are the tail of b's chain from the first of them on.
        let mut cut_both = 0;
        walk(|table, plan, _| {
            let Some(g) = Graph::new(table, plan) else { return };
            for (a, b) in (0..FOUNDATIONS).flat_map(|a| (0..FOUNDATIONS).map(move |b| (a, b))).filter(|(a, b)| a != b) {
                let whole = g.cross(a, b, 0, 0);
                for (oa, ob) in (0..=g.len[a]).flat_map(|oa| (0..=g.len[b]).map(move |ob| (oa, ob))) {
                    let want: Vec<u8> = whole[oa..g.len[a]].iter().map(|&w| w.max(ob as u8) - ob as u8).collect();
                    assert_eq!(g.cross(a, b, oa, ob)[..g.len[a] - oa], want, "{table:?} ({a}, {b}) from ({oa}, {ob})");
                    cut_both += usize::from(oa > 0 && ob > 0 && oa < g.len[a]);
                }
            }
        });
        assert!(cut_both > 10_000, "{cut_both}");
    }

    #[test]
    fn a_cut_pair_is_its_singles_times_the_reduction_factor_of_its_tails() {
        // Pairs with neither chain cut, a's only, b's only, both.
        let mut cut = [0; 4];
        walk(|table, plan, _| {
            let Some(g) = Graph::new(table, plan) else { return };
            let single: Vec<f64> = (0..FOUNDATIONS).map(|f| g.single(f, 0).value()).collect();
            for window in [2, 4, 6] {
                let tail: Vec<f64> = (0..FOUNDATIONS).map(|f| g.single(f, g.cut(f, window)).value()).collect();
                for (a, b) in (0..FOUNDATIONS).flat_map(|a| (a + 1..FOUNDATIONS).map(move |b| (a, b))) {
                    let (oa, ob) = (g.cut(a, window), g.cut(b, window));
                    let want = match (oa, ob) {
                        (0, 0) => g.pair(a, b, 0, 0).value(),
                        _ if tail[a] * tail[b] == 0.0 => single[a] * single[b],
                        _ => single[a] * single[b] * (g.pair(a, b, oa, ob).value() / (tail[a] * tail[b])),
                    };
                    assert_eq!(
                        g.pair_value((a, b), window, &single, &tail),
                        want,
                        "{table:?} ({a}, {b}) window {window}"
                    );
                    cut[usize::from(oa > 0) + 2 * usize::from(ob > 0)] += 1;
                }
            }
        });
        assert!(cut.iter().all(|&n| n > 50), "{cut:?}");
    }
}
