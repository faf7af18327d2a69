//! asobi's chain builder for single-player (endless) play, in the style of strong Puyo AIs
//! rather than the paper's: it builds one long chain and fires it once it reaches a goal.
//!
//! Search: every placement of the current pair and of the first preview (depth 2); the
//! `beam` best depth-2 fields are extended with the second preview (depth 3). A path whose
//! move fires a chain of at least `goal` links ends there and wins (the pairs are known; the
//! one with the largest attack); a pop of at most `clear_links` links on the way is a
//! building pop (it costs `pop`), longer ones are never played as building moves (they would
//! waste the chain). Then Monte-Carlo over unseen pairs: `samples` random futures of `unseen`
//! pairs, each searched by a beam of `unseen_beam` fields from the best known leaves; the first
//! move with the best mean over the futures is played. Every field is scored by [`evaluate`]:
//! - the chain potential: the longest chain that 1-`trigger_puyos` puyos of one color dropped
//!   into one column would fire (the virtual drops of [`super::potential::for_each_trigger`]),
//!   less a cost per puyo the trigger needs;
//! - shape: squared height steps between neighbouring columns measured against a U-shaped
//!   `profile` (sides high, middle low), and column 3 (where the game ends) kept below `safe3`;
//! - connectivity: same-colored groups of 2 and 3 (future links), isolated puyos buried under
//!   others (cells that can no longer join anything).
//!
//! Firing (the endless game ends with the player's one chain): the current pair fires its
//! longest chain when it reaches `goal` links (one more while more than `stretch_empty` cells
//! are empty) and no path over the known pairs fires a larger attack later, when at most
//! `fire_empty` visible cells are empty and no building move keeps a longer potential, or when
//! every building move loses the game within the known pairs.

use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use super::Observation;
use super::potential::{empty_cells, for_each_trigger};
use crate::games::puyo::rules::{Bits, Chain, Field, MAX_COLORS, Pair, Placement, Puyo, VISIBLE_HEIGHT, WIDTH};
use crate::lab::rng::{GameRng, mix64};

/// Parameters of the chain builder (Default = the tuned values).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuilderParams {
    /// Fire as soon as the current pair fires a chain of at least this many links...
    pub goal: u32,
    /// ...or of one link more while more than this many visible cells are empty (72: never).
    pub stretch_empty: u32,
    /// Depth-2 fields extended with the third known pair.
    pub beam: usize,
    /// Most puyos of one color a virtual drop may add to a column (1-3).
    pub trigger_puyos: usize,
    /// Fire the longest available chain once at most this many visible cells are empty and no
    /// building move reaches a longer potential.
    pub fire_empty: u32,
    /// Building pops may have at most this many links (longer ones waste the chain).
    pub clear_links: u32,
    /// Value per link of the potential chain (and of a chain fired in the search).
    pub chain: f64,
    /// Cost per puyo the potential chain's trigger needs.
    pub needed: f64,
    /// Value per same-colored group of 2.
    pub group2: f64,
    /// Value per same-colored group of 3.
    pub group3: f64,
    /// Cost per isolated puyo with another puyo on top of it.
    pub buried: f64,
    /// Cost per squared row of height step between neighbouring columns, beyond `profile`.
    pub bump: f64,
    /// Ideal column heights relative to each other (a U: the sides higher than the middle).
    pub profile: [f64; WIDTH],
    /// Columns may grow to this height before `tall` costs apply...
    pub safe: usize,
    /// ...per squared row above it.
    pub tall: f64,
    /// Column 3 may grow to this height before `tall3` costs apply...
    pub safe3: usize,
    /// ...per squared row above it.
    pub tall3: f64,
    /// Monte-Carlo over unseen pairs: futures sampled...
    pub samples: u64,
    /// ...each this many random pairs deep beyond the known ones...
    pub unseen: usize,
    /// ...searched by a beam this wide.
    pub unseen_beam: usize,
    /// A first move is a candidate only if it stays in the beam in at least this many of the
    /// futures; in a future it drops out of, it scores that future's lowest surviving value.
    pub futures_kept: u64,
    /// Cost of a building pop (a chain of at most `clear_links` links fired on the way).
    pub pop: f64,
}

impl Default for BuilderParams {
    fn default() -> Self {
        BuilderParams {
            goal: 13,
            stretch_empty: 72,
            beam: 48,
            trigger_puyos: 3,
            fire_empty: 6,
            clear_links: 2,
            chain: 100.0,
            needed: 15.0,
            group2: 6.0,
            group3: 12.0,
            buried: 6.0,
            bump: 4.0,
            profile: [2.0, 1.0, 0.0, 0.0, 1.0, 2.0],
            safe: 10,
            tall: 40.0,
            safe3: 9,
            tall3: 60.0,
            pop: 150.0,
            samples: 3,
            unseen: 3,
            unseen_beam: 40,
            futures_kept: 3,
        }
    }
}

impl BuilderParams {
    /// The builder as the combined player's extension phase ([`super::Extension::Builder`]):
    /// no shape terms, since levelling a formation whose turn-back stands to row 8 into the
    /// builder's U tears it down, twice the value per link, and firing at 11 links (combined
    /// endless with asobi's template options, seed 1, 100 games: goal 10 / 11 / 12 10.06 /
    /// 10.44 / 8.68 links without shape terms; 9.69 with them at goal 11; 10.44 -> 10.78 with
    /// `chain` 100 -> 200). Building pops cost nothing and the goal is 12 links while more than
    /// 12 cells are empty: over a formation the field is full by move 30 or so, and junk cleared by
    /// small pops makes the room a longer chain needs (500 games of seed 1, with the template
    /// phase's firing handed to the builder: 11.21 links / 400.2 attack -> 11.75 / 430.4; the
    /// README's builder-extension table). The beam is twice asobi's player's: more depth-2
    /// fields meet the third known pair, among them more plans that fire past the goal (500
    /// games of seeds 1-3: 420.8-430.4 -> 431.9-434.8 attack; of seed 1's first 200 games 30
    /// fire 13 links, against 20; a beam of 192 gains nothing more). Five futures are sampled
    /// and a first move needs to stay in the beam of only three of them (with asobi's template
    /// options, 500 games of seeds 1-5: 431.9-436.3 attack with three futures of which two must
    /// keep the move, 436.0-438.6 with five of which three; seeds 1-3 with all three futures
    /// keeping it: 431.9-434.8). With five futures, the goal stays at 12 down to 14 empty cells
    /// instead of 16 (seeds 1-3: 436.0-437.3 -> 441.2-445.1 attack), and down to 12 instead of
    /// 14 (seeds 1-5: 441.2-445.3 -> 446.2-449.4; on seed 1, 8 / 10 / 13 cells: 445.7 / 446.3 /
    /// 447.3).
    pub fn over_formation() -> Self {
        BuilderParams {
            goal: 11,
            stretch_empty: 12,
            beam: 96,
            samples: 5,
            futures_kept: 3,
            pop: 0.0,
            chain: 200.0,
            bump: 0.0,
            profile: [0.0; WIDTH],
            ..Self::default()
        }
    }

    /// The goal on a field with `empty` visible cells empty.
    fn goal_with(&self, empty: u32) -> u32 {
        if empty > self.stretch_empty { self.goal + 1 } else { self.goal }
    }
}

/// A decision of the builder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildChoice {
    /// Where the pair goes.
    pub placement: Placement,
    /// The move fires the player's chain.
    pub fires: bool,
    /// Links fired, or the longest potential chain of the best leaf.
    pub links: u32,
    /// The best leaf's value.
    pub value: f64,
}

/// A leaf's value and its longest potential chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The leaf's value.
    pub value: f64,
    /// Links of the longest chain the leaf's field can fire.
    pub links: u32,
}

/// Scores a settled field for chain building (see the module doc).
pub fn evaluate(params: &BuilderParams, f: &Field) -> Evaluation {
    let mut potential = 0.0f64;
    let mut links = 0;
    for_each_trigger(f, params.trigger_puyos, |t, _| {
        links = links.max(t.chain.links);
        potential = potential.max(params.chain * t.chain.links as f64 - params.needed * t.puyos as f64);
    });
    let heights: [usize; WIDTH] = std::array::from_fn(|c| f.height(c).min(VISIBLE_HEIGHT));
    let mut shape = 0.0;
    for c in 0..WIDTH - 1 {
        let step = heights[c] as f64 - heights[c + 1] as f64 - (params.profile[c] - params.profile[c + 1]);
        shape -= params.bump * step * step;
    }
    for (c, &h) in heights.iter().enumerate() {
        let over = h.saturating_sub(params.safe) as f64;
        shape -= params.tall * over * over;
        if c == 2 {
            let over = h.saturating_sub(params.safe3) as f64;
            shape -= params.tall3 * over * over;
        }
    }
    Evaluation { value: potential + shape + connectivity(params, f), links }
}

/// Groups of 2 and 3 rewarded, buried single puyos punished.
fn connectivity(params: &BuilderParams, f: &Field) -> f64 {
    let occupied = f.occupied();
    // Cells with an occupied cell right above them.
    let covered = Bits(occupied.0 & (occupied.0 >> 1));
    let mut value = 0.0;
    for &color in &Puyo::ALL[..MAX_COLORS] {
        let mut rest = f.plane(color) & Bits::VISIBLE;
        while !rest.is_empty() {
            let group = Bits::flood(rest.first(), rest);
            rest = Bits(rest.0 & !group.0);
            value += match group.count() {
                1 if !(group & covered).is_empty() => -params.buried,
                2 => params.group2,
                3 => params.group3,
                _ => 0.0,
            };
        }
    }
    value
}

/// A field in the search: the first move it descends from, and the building pops' cost so far.
#[derive(Clone, Copy)]
struct Node {
    first: usize,
    field: Field,
    cost: f64,
}

/// What one placement does to a building node.
enum Step {
    /// It fires a chain of at least `goal` links.
    Fires(Chain),
    /// It builds on (or clears a small pop, at a cost): the child node.
    Builds(Node),
    /// It dies or fires short of the goal.
    Lost,
}

impl Node {
    fn step(&self, params: &BuilderParams, pair: Pair, p: Placement) -> Step {
        let mut f = self.field;
        let Some(chain) = f.play(pair, p) else { return Step::Lost };
        if chain.links >= params.goal {
            Step::Fires(chain)
        } else if !f.is_dead() && chain.links <= params.clear_links {
            let cost = self.cost + if chain.links > 0 { params.pop } else { 0.0 };
            Step::Builds(Node { first: self.first, field: f, cost })
        } else {
            Step::Lost
        }
    }
}

/// The best known continuation of one first move, compared as (attack of the goal chain fired
/// on the way, depth of its leaves, leaf value): a chain of at least `goal` links over the known
/// pairs is certain, and leaves one pair deeper hold two more puyos, so their values are not
/// comparable with shallower ones. `links`: the fired chain's, else the leaf's potential chain's.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
struct Outlook {
    fired_attack: u32,
    depth: usize,
    value: f64,
    links: u32,
}

const NONE: Outlook = Outlook { fired_attack: 0, depth: 0, value: f64::NEG_INFINITY, links: 0 };

/// A chain the current pair fires: (links, attack, placement).
type Fire = (u32, u32, Placement);

/// One decision; `None` only when no legal move exists.
pub fn decide(params: &BuilderParams, obs: &Observation, colors: usize) -> Option<BuildChoice> {
    let field = obs.field;
    let empty = empty_cells(field);
    let params = &BuilderParams { goal: params.goal_with(empty), ..*params };
    let (&pair, previews) = obs.pairs.split_first()?;
    let moves: Vec<Placement> = field.legal_placements(pair).collect();
    let &any = moves.first()?;
    let (fire, frontier) = first_moves(params, field, pair, &moves)?;
    let fire_now = |(links, _, placement): Fire| BuildChoice { placement, fires: true, links, value: 0.0 };
    match fire {
        Some(f) if frontier.is_empty() => return Some(fire_now(f)),
        _ if frontier.is_empty() => return Some(BuildChoice { placement: any, fires: false, links: 0, value: 0.0 }),
        _ => {}
    }
    let (outlook, last) = look_ahead(params, frontier, previews, moves.len());
    let (mut i, best) = outlook.iter().enumerate().fold((0, NONE), |b, (i, &o)| if o > b.1 { (i, o) } else { b });
    if let Some(f) = fire.filter(|f| f.0 >= params.goal) {
        // A goal chain in hand waits only for a certain larger one: the known pairs fire it.
        if best.fired_attack <= f.1 {
            return Some(fire_now(f));
        }
        return Some(BuildChoice { placement: moves[i], fires: false, links: best.links, value: best.value });
    }
    if best == NONE {
        // Every continuation loses: fire what there is.
        return Some(fire.map_or(BuildChoice { placement: any, fires: false, links: 0, value: best.value }, fire_now));
    }
    if best.fired_attack == 0
        && let Some(j) = sample_unseen(params, colors, &last, moves.len(), position_seed(field, obs.pairs))
    {
        i = j;
    }
    let links = outlook[i].links;
    if let Some(f) = fire.filter(|f| empty <= params.fire_empty && f.0 >= links) {
        return Some(fire_now(f));
    }
    Some(BuildChoice { placement: moves[i], fires: false, links, value: outlook[i].value })
}

/// The current `pair`'s placements `moves`: the longest chain one of them fires, and a search
/// node for each that builds on (leaves the field alive, popping at most `clear_links`).
/// `None` if a placement is illegal.
fn first_moves(
    params: &BuilderParams,
    field: &Field,
    pair: Pair,
    moves: &[Placement],
) -> Option<(Option<Fire>, Vec<Node>)> {
    let mut fire: Option<Fire> = None;
    let mut frontier = Vec::new();
    for (i, &p) in moves.iter().enumerate() {
        let mut f = *field;
        let chain = f.play(pair, p)?;
        if chain.links > 0 && fire.is_none_or(|(l, a, _)| (chain.links, chain.attack()) > (l, a)) {
            fire = Some((chain.links, chain.attack(), p));
        }
        if !f.is_dead() && chain.links <= params.clear_links {
            let cost = if chain.links > 0 { params.pop } else { 0.0 };
            frontier.push(Node { first: i, field: f, cost });
        }
    }
    Some((fire, frontier))
}

/// The search over the known `previews` (a beam of the best after the first): the best
/// outlook of each of the `first_moves` first moves, and the deepest leaves with their values
/// (where [`sample_unseen`] goes on).
fn look_ahead(
    params: &BuilderParams,
    mut frontier: Vec<Node>,
    previews: &[Pair],
    first_moves: usize,
) -> (Vec<Outlook>, Vec<(f64, Node)>) {
    let mut outlook = vec![NONE; first_moves];
    let mut record = |first: usize, o: Outlook| {
        if o > outlook[first] {
            outlook[first] = o;
        }
    };
    let mut depth = 1;
    let mut last: Vec<(f64, Node)> = Vec::new();
    for (k, &pair) in previews.iter().take(2).enumerate() {
        let mut next = Vec::with_capacity(frontier.len() * 22);
        for node in &frontier {
            for p in node.field.legal_placements(pair) {
                match node.step(params, pair, p) {
                    Step::Fires(chain) => record(
                        node.first,
                        Outlook { fired_attack: chain.attack(), depth: 0, value: 0.0, links: chain.links },
                    ),
                    Step::Builds(child) => next.push(child),
                    Step::Lost => {}
                }
            }
        }
        if next.is_empty() {
            break;
        }
        depth += 1;
        let mut leaves: Vec<(f64, u32, Node)> = next
            .into_iter()
            .map(|n| {
                let e = evaluate(params, &n.field);
                (e.value - n.cost, e.links, n)
            })
            .collect();
        for &(value, links, n) in &leaves {
            record(n.first, Outlook { fired_attack: 0, depth, value, links });
        }
        if k == 0 && previews.len() > 1 {
            leaves.sort_by(|a, b| b.0.total_cmp(&a.0));
            leaves.truncate(params.beam.max(1));
        }
        frontier = leaves.iter().map(|l| l.2).collect();
        last = leaves.iter().map(|l| (l.0, l.2)).collect();
    }
    if depth == 1 {
        for n in &frontier {
            let e = evaluate(params, &n.field);
            record(n.first, Outlook { fired_attack: 0, depth, value: e.value - n.cost, links: e.links });
            last.push((e.value - n.cost, *n));
        }
    }
    (outlook, last)
}

/// A seed from the position, so the sampled futures (and the decision) are reproducible.
fn position_seed(field: &Field, pairs: &[Pair]) -> u64 {
    let planes = Puyo::ALL.iter().map(|&k| field.plane(k).0);
    let pairs = pairs.iter().map(|p| (p.axis.index() * 8 + p.child.index()) as u128);
    planes.chain(pairs).fold(0, |h, x| mix64(h ^ x as u64 ^ mix64((x >> 64) as u64)))
}

/// Monte-Carlo over unseen pairs: for each of `samples` random futures (seeded by the
/// position, so decisions are reproducible), a beam search from the deepest known leaves
/// `start`; a first move scores the mean over futures of its best final leaf. Only first moves
/// that stay in the beam in `futures_kept` futures are candidates; `None` when there is none.
fn sample_unseen(
    params: &BuilderParams,
    colors: usize,
    start: &[(f64, Node)],
    firsts: usize,
    seed: u64,
) -> Option<usize> {
    if params.samples == 0 || params.unseen == 0 {
        return None;
    }
    let mut start = start.to_vec();
    start.sort_by(|a, b| b.0.total_cmp(&a.0));
    start.truncate(params.unseen_beam.max(1));
    let mut futures = Vec::with_capacity(params.samples as usize);
    for s in 0..params.samples {
        let mut rng = GameRng::seed_from_u64(mix64(seed ^ s));
        let mut beam = start.clone();
        let mut best = vec![f64::NEG_INFINITY; firsts];
        for _ in 0..params.unseen {
            let pair = Pair::random(&mut rng, colors);
            let mut next = Vec::with_capacity(beam.len() * 22);
            for (_, node) in &beam {
                for p in node.field.legal_placements(pair) {
                    match node.step(params, pair, p) {
                        Step::Fires(chain) => {
                            let v = params.chain * chain.links as f64 - node.cost;
                            best[node.first] = best[node.first].max(v);
                        }
                        Step::Builds(child) => next.push((evaluate(params, &child.field).value - child.cost, child)),
                        Step::Lost => {}
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            next.sort_by(|a, b| b.0.total_cmp(&a.0));
            next.truncate(params.unseen_beam.max(1));
            beam = next;
        }
        for (v, n) in &beam {
            best[n.first] = best[n.first].max(*v);
        }
        let lowest = beam.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
        futures.push((best, lowest));
    }
    best_over_futures(&futures, params.futures_kept)
}

/// The first move with the best total over the futures, each given as the best value of every
/// first move (-inf where it dropped out of the beam) and the lowest value that stayed in it.
/// A first move that dropped out of a future scores that lowest value there (at most what it
/// was worth); it is a candidate only if it stayed in `kept` futures or more.
fn best_over_futures(futures: &[(Vec<f64>, f64)], kept: u64) -> Option<usize> {
    let firsts = futures.first()?.0.len();
    let kept = kept.min(futures.len() as u64);
    let mut total = vec![0.0; firsts];
    let mut seen = vec![0; firsts];
    for (best, lowest) in futures {
        for (i, &b) in best.iter().enumerate() {
            if b > f64::NEG_INFINITY {
                total[i] += b;
                seen[i] += 1;
            } else if lowest.is_finite() {
                total[i] += lowest;
            }
        }
    }
    (0..firsts).filter(|&i| seen[i] >= kept).max_by(|&a, &b| total[a].total_cmp(&total[b]).then(b.cmp(&a)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puyo::rules::Puyo::{Blue, Red, Yellow};

    /// Red, green and blue stacked in column 1 over a green and a blue key in column 2: a red
    /// dropped into column 2 fires a 3-chain.
    fn three_chain() -> Field {
        Field::from_ascii("B.....\nB.....\nB.....\nG.....\nG.....\nG.....\nR.....\nRB....\nRG....").unwrap()
    }

    #[test]
    fn evaluation_finds_the_three_chain_potential() {
        let f = three_chain();
        let mut found = Vec::new();
        for_each_trigger(&f, 3, |t, after| found.push((t.col, t.color, t.puyos, t.chain.links, after.count())));
        assert!(found.contains(&(1, Red, 1, 3, 0)), "{found:?}");
        assert_eq!(evaluate(&BuilderParams::default(), &f).links, 3);
    }

    /// The previews hold no red, so no later move fires the chain with a larger attack.
    #[test]
    fn fires_once_the_current_pair_reaches_the_goal() {
        let f = three_chain();
        let pairs = [Pair::new(Red, Blue), Pair::new(Yellow, Yellow), Pair::new(Yellow, Yellow)];
        let obs = Observation::alone(&f, &pairs);
        let params = BuilderParams { goal: 3, ..BuilderParams::default() };
        let c = decide(&params, &obs, 4).unwrap();
        let mut after = f;
        assert!(c.fires && after.play(pairs[0], c.placement).unwrap().links == 3, "{c:?}");
        // Below the goal the chain is kept: building moves never pop it.
        let c = decide(&BuilderParams::default(), &obs, 4).unwrap();
        let mut after = f;
        assert!(!c.fires && after.play(pairs[0], c.placement).unwrap().links == 0, "{c:?}");
        assert_eq!(evaluate(&BuilderParams::default(), &after).links, 3, "{c:?}\n{after}");
    }

    /// While more cells than `stretch_empty` are empty the goal is one link longer, so the same
    /// chain in hand waits.
    #[test]
    fn a_goal_chain_in_hand_waits_while_the_field_has_room() {
        let f = three_chain();
        let pairs = [Pair::new(Red, Blue), Pair::new(Yellow, Yellow), Pair::new(Yellow, Yellow)];
        let obs = Observation::alone(&f, &pairs);
        let roomy = BuilderParams { goal: 3, stretch_empty: empty_cells(&f) - 1, ..BuilderParams::default() };
        let c = decide(&roomy, &obs, 4).unwrap();
        assert!(!c.fires, "{c:?}");
        let full = BuilderParams { stretch_empty: empty_cells(&f), ..roomy };
        assert!(decide(&full, &obs, 4).unwrap().fires);
    }

    /// Game 9 of combined endless (seed 1, asobi's template options, `--extension builder`),
    /// move 31: the pair in hand fires the goal, but the next known pair fires a chain with a
    /// larger attack, certain since the pairs are known, so the builder waits one move.
    #[test]
    fn a_goal_chain_in_hand_waits_for_a_certain_larger_one() {
        use crate::games::puyo::rules::Puyo::Green;
        let field = Field::from_ascii(
            "...R..\n...R..\n...Y..\n..BRR.\n.BRYY.\n.YBGBR\n.RYBGY\n.BRBYG\n.BYGYB\n.YGBRG\n.YGBRY\nGYGBRY\nGGYGBR",
        )
        .unwrap();
        let pairs = [Pair::new(Yellow, Green), Pair::new(Green, Yellow), Pair::new(Red, Red)];
        let params = BuilderParams::over_formation();
        let in_hand = field
            .legal_placements(pairs[0])
            .filter_map(|p| {
                let mut f = field;
                f.play(pairs[0], p)
            })
            .max_by_key(|c| (c.links, c.attack()))
            .unwrap();
        assert!(in_hand.links >= params.goal, "{in_hand:?}");
        let first = decide(&params, &Observation::alone(&field, &pairs), 4).unwrap();
        assert!(!first.fires, "{first:?}");
        let mut after = field;
        after.play(pairs[0], first.placement).unwrap();
        let second = decide(&params, &Observation::alone(&after, &pairs[1..]), 4).unwrap();
        let fired = after.play(pairs[1], second.placement).unwrap();
        assert!(second.fires && fired.attack() > in_hand.attack(), "{second:?}: {fired:?} after {in_hand:?}");
    }

    /// Move 0 is the best in two of three sampled futures and drops out of the third's beam;
    /// move 1 is steady. Scored at the third future's lowest surviving value (not at nothing),
    /// move 0 still leads when two futures are enough to keep it, and is no candidate when all
    /// three must.
    #[test]
    fn a_first_move_may_drop_out_of_one_future() {
        let dropped = f64::NEG_INFINITY;
        let futures = [(vec![100.0, 70.0], 50.0), (vec![100.0, 70.0], 50.0), (vec![dropped, 70.0], 50.0)];
        assert_eq!(best_over_futures(&futures, 2), Some(0));
        assert_eq!(best_over_futures(&futures, 3), Some(1));
        let worse = [(vec![70.0, 60.0], 50.0), (vec![70.0, 60.0], 50.0), (vec![dropped, 60.0], 10.0)];
        assert_eq!(best_over_futures(&worse, 2), Some(1), "the lowest survivor bounds the dropped move");
    }
}
