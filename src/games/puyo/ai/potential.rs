//! Potential maximization (paper §4.2, the PojeMaster baseline) and asobi's chain seeker.
//!
//! Building: among first moves that pop nothing, take the one whose continuations over the known
//! pairs fire the largest attack at move 2 or 3. Decisions (spec §9.3, §9.6-9.8): ties (e.g. no
//! chain reachable) go to the move leaving the most same-color connections, then the fewest puyos
//! in column 3 (whose row 12 ends the game), then enumeration order; special case (a) fires the
//! best first-move chain when at most `fire_empty` cells are empty and it is at least the best
//! build potential, or when at most `danger_empty` are empty; (b) fires a chain whose garbage would
//! fill the opponent's column 3 (with asobi's reading, after the opponent's ready counter has
//! cancelled its share: [`lethal`]); (c) counters when at least a row of garbage is incoming and a
//! chain fired before it falls cancels half of it ([`counter`]); (d) plays a pop of at most 2 links
//! as a building move when it makes more attack reachable than any non-popping move (in
//! single-player games such a pop is not the game's fired chain). A sequence's garbage follows the
//! game's garbage rule, the potential uses the paper's attack.

use serde::{Deserialize, Serialize};

use super::Observation;
use crate::games::puyo::rules::{
    Bits, Chain, Field, GarbageRule, MAX_COLORS, Pair, Placement, Puyo, VISIBLE_HEIGHT, WIDTH,
};

/// Parameters of potential maximization.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PotentialParams {
    /// Plies read (current pair plus previews).
    pub depth: usize,
    /// Special case (a): fire the best chain once this few cells are empty...
    pub fire_empty: u32,
    /// ...and always once this few are.
    pub danger_empty: u32,
    /// asobi's extension: also count chains triggered by 1-2 unseen puyos of one color
    /// dropped into one column at the leaves ("virtual drops"), weighted by this factor (0 off).
    pub virtual_drop: f64,
    /// asobi's reading of special case (b): a chain is lethal only when its garbage still
    /// fills the opponent's column 3 after the opponent's ready counter ([`ready_garbage`])
    /// has cancelled its share (false = the paper's baseline; asobi's versus player sets it).
    #[serde(default)]
    pub lethal_after_counter: bool,
}

impl Default for PotentialParams {
    fn default() -> Self {
        PotentialParams { depth: 3, fire_empty: 24, danger_empty: 12, virtual_drop: 0.0, lethal_after_counter: false }
    }
}

/// A decision of the potential player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PotentialChoice {
    /// Where the pair goes.
    pub placement: Placement,
    /// The move is played to fire (special cases a-c, or forced).
    pub fires: bool,
    /// Build potential (attack) or, when firing, the attack fired; for a move of special case
    /// (c), the garbage its counter sends.
    pub attack: f64,
}

/// Special case (d): a pop of at most this many links (it removes puyos that block chain
/// growth) is played as a building move when it makes more attack reachable than every move
/// that pops nothing (measured: mean chain 6.71 -> 7.30 over 200 endless games).
const MAX_CLEAR_LINKS: u32 = 2;

/// Empty visible cells.
pub fn empty_cells(f: &Field) -> u32 {
    72 - (f.occupied() & Bits::VISIBLE).count()
}

/// Same-color orthogonal neighbours in rows 1-12 (the tie-breaker).
fn connections(f: &Field) -> u32 {
    Puyo::ALL[..MAX_COLORS]
        .iter()
        .map(|&c| {
            let p = (f.plane(c) & Bits::VISIBLE).0;
            ((p & (p >> 1)).count_ones()) + ((p & (p >> 16)).count_ones())
        })
        .sum()
}

/// A chain started by virtual drops: `puyos` puyos of `color` dropped into column `col`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trigger {
    /// Column the puyos are dropped into.
    pub col: usize,
    /// Their colour.
    pub color: Puyo,
    /// How many are dropped.
    pub puyos: u32,
    /// The chain they set off.
    pub chain: Chain,
}

/// Calls `found` for every chain started by dropping 1..=`max_puyos` (at most 3) puyos of one
/// color into one column of `f` (per column and color, the fewest puyos that pop), with the
/// field the chain leaves. Fewer than 4 dropped puyos pop only with a same-colored neighbour,
/// so colors touching none of the drop cells are skipped.
pub fn for_each_trigger(f: &Field, max_puyos: usize, mut found: impl FnMut(Trigger, &Field)) {
    let max_puyos = max_puyos.min(3);
    for col in 0..WIDTH {
        let h = f.height(col);
        let cells = (h..(h + max_puyos).min(VISIBLE_HEIGHT)).fold(Bits::EMPTY, |a, r| a | Bits::cell(col, r));
        let near = cells.neighbours();
        for &color in &Puyo::ALL[..MAX_COLORS] {
            if (f.plane(color) & near).is_empty() {
                continue;
            }
            let mut g = *f;
            for puyos in 1..=max_puyos as u32 {
                let row = g.height(col);
                if !g.drop_puyo(col, color) {
                    break;
                }
                let chain = g.resolve_from(Bits::cell(col, row), |_| {});
                if chain.links > 0 {
                    found(Trigger { col, color, puyos, chain }, &g);
                    break;
                }
            }
        }
    }
}

/// The largest attack (paper 6.1) of a chain started by 1-2 puyos of one color dropped into
/// one column of `f`.
pub fn virtual_potential(f: &Field) -> u32 {
    best_trigger(f, Chain::attack)
}

/// The largest `value` of a chain started by 1-2 puyos of one color dropped into one column.
fn best_trigger(f: &Field, value: impl Fn(&Chain) -> u32) -> u32 {
    let mut best = 0;
    for_each_trigger(f, 2, |t, _| best = best.max(value(&t.chain)));
    best
}

/// The best attack over continuations of `field` with `pairs` (chains fired within them).
fn continuation(params: &PotentialParams, field: &Field, pairs: &[Pair]) -> f64 {
    let base =
        |f: &Field| if params.virtual_drop > 0.0 { params.virtual_drop * virtual_potential(f) as f64 } else { 0.0 };
    best_first_chain(field, pairs, &|chain: &Chain| chain.attack() as f64, &base)
}

/// The best `value` of the first chain fired over continuations of `field` with `pairs`; a
/// position reached without firing is worth `base` of it.
fn best_first_chain(
    field: &Field,
    pairs: &[Pair],
    value: &impl Fn(&Chain) -> f64,
    base: &impl Fn(&Field) -> f64,
) -> f64 {
    let mut best = base(field);
    let Some((&pair, rest)) = pairs.split_first() else { return best };
    for p in field.legal_placements(pair) {
        let mut f = *field;
        let Some(chain) = f.play(pair, p) else { continue };
        if f.is_dead() {
            continue;
        }
        best = best.max(if chain.links > 0 { value(&chain) } else { best_first_chain(&f, rest, value, base) });
    }
    best
}

/// Special case (c) made concrete (spec §9.8): with at least a row of garbage incoming, the
/// first move of the sequence over the known pairs that fires, before the garbage falls, the
/// chain cancelling the most of it, if that is at least half; ties go to the larger garbage,
/// then to firing now. (Firing only a chain at hand, as before, let a formation one or two
/// moves from firing be buried: combined vs potential .232 -> .336, 500 games of seed 1.)
fn counter(obs: &Observation) -> Option<PotentialChoice> {
    if obs.pending < COUNTER_PENDING {
        return None;
    }
    let plies = (obs.garbage_falls_in as usize).min(obs.pairs.len());
    let (&pair, rest) = obs.pairs[..plies].split_first()?;
    let garbage = |chain: &Chain| obs.garbage.garbage(chain) as f64;
    let mut best: Option<(u32, u32, bool, Placement)> = None;
    for p in obs.field.legal_placements(pair) {
        let mut f = *obs.field;
        let Some(chain) = f.play(pair, p) else { continue };
        if f.is_dead() {
            continue;
        }
        let fires = chain.links > 0;
        let sent = if fires { garbage(&chain) } else { best_first_chain(&f, rest, &garbage, &|_: &Field| 0.0) } as u32;
        let key = (sent.min(obs.pending), sent, fires);
        if best.is_none_or(|(c, g, n, _)| key > (c, g, n)) {
            best = Some((key.0, key.1, key.2, p));
        }
    }
    let (cancelled, sent, fires, placement) = best?;
    (2 * cancelled >= obs.pending).then_some(PotentialChoice { placement, fires, attack: sent as f64 })
}

/// Special case (c) answers at least this much incoming garbage (a row).
const COUNTER_PENDING: u32 = 6;

/// Garbage that fills `field`'s column 3 up to row 12 (and so ends its player's game).
pub fn kill_garbage(field: &Field) -> u32 {
    6 * (VISIBLE_HEIGHT - field.height(2).min(VISIBLE_HEIGHT)) as u32
}

/// Garbage of the chain `field`'s player holds ready: its largest chain that 1-2 puyos of one
/// colour dropped into one column start, which its next placements can fire (against an
/// attack, while the attacking chain is still running: its counter).
pub fn ready_garbage(field: &Field, rule: GarbageRule) -> u32 {
    best_trigger(field, |chain| rule.garbage(chain))
}

/// Special case (b): `garbage` sent now tops out the opponent. The paper's reading fires into
/// a counter that cancels enough to survive and returns the rest; asobi's versus player waits
/// for it (500 games of seed 1: asobi vs potential .750 -> .850, vs combined .730 -> .740).
fn lethal(params: &PotentialParams, obs: &Observation, garbage: u32) -> bool {
    obs.opponent.is_some_and(|o| {
        let counter = if params.lethal_after_counter { ready_garbage(o, obs.garbage) } else { 0 };
        garbage > 0 && garbage >= kill_garbage(o) + counter
    })
}

/// One decision of potential maximization; `None` only when no legal move survives.
pub fn decide(params: &PotentialParams, obs: &Observation) -> Option<PotentialChoice> {
    decide_keeping(params, obs, |_| true, 0)
}

/// Potential maximization whose building moves must satisfy `keep` on the field they leave
/// (the combined player uses it to protect its finished formation). When no building move
/// does, the best chain fires if it has at least `ready` links (firing the formation beats
/// breaking it); a smaller one would end a single-player game with next to nothing, so the
/// best building move that breaks `keep` is played instead (combined endless, 500 games:
/// mean chain 7.89 -> 8.06). Otherwise firing is judged as in [`decide`]. (Firing a chain
/// of `ready` links as soon as nothing larger was reachable, however empty the field, helped
/// while the combined player switched on the score alone; once it switches on a formation
/// that fires, waiting for few empty cells as in (a) extends more: 8.36 -> 8.60 mean chain.)
pub fn decide_keeping(
    params: &PotentialParams,
    obs: &Observation,
    keep: impl Fn(&Field) -> bool,
    ready: u32,
) -> Option<PotentialChoice> {
    if let Some(answer) = counter(obs) {
        return Some(answer);
    }
    let field = obs.field;
    let pairs = &obs.pairs[..params.depth.clamp(1, obs.pairs.len().max(1)).min(obs.pairs.len())];
    let (&pair, rest) = pairs.split_first()?;
    // Building moves as (potential, connections, -puyos in column 3, placement); every one adds
    // the same two puyos. `fallback` breaks `keep`.
    let mut build: Option<(f64, u32, i32, Placement)> = None;
    let mut fallback: Option<(f64, u32, i32, Placement)> = None;
    let mut fire: Option<(u32, u32, u32, Placement)> = None; // (attack, garbage, links, placement)
    let mut any = None;
    // Special case (d): the small pop after which the most potential is reachable.
    let mut clear: Option<(f64, Placement)> = None;
    for p in field.legal_placements(pair) {
        let mut f = *field;
        let chain = f.play(pair, p)?;
        any.get_or_insert(p);
        if f.is_dead() {
            continue;
        }
        if chain.links > 0 {
            let key = (chain.attack(), obs.garbage.garbage(&chain));
            if fire.is_none_or(|(a, _, _, _)| key.0 > a) {
                fire = Some((key.0, key.1, chain.links, p));
            }
            if chain.links <= MAX_CLEAR_LINKS && keep(&f) {
                let pot = continuation(params, &f, rest);
                if clear.is_none_or(|(c, _)| pot > c) {
                    clear = Some((pot, p));
                }
            }
            continue;
        }
        let pot = continuation(params, &f, rest);
        let key = (pot, connections(&f), -(f.occupied().column_bits(2).count_ones() as i32));
        let slot = if keep(&f) { &mut build } else { &mut fallback };
        if slot.is_none_or(|(bp, bc, bh, _)| (key.0, key.1, key.2) > (bp, bc, bh)) {
            *slot = Some((key.0, key.1, key.2, p));
        }
    }
    let kept = build.is_some();
    let build = build.or(fallback);
    let empty = empty_cells(field);
    if let Some((attack, garbage, links, p)) = fire {
        let potential = build.map_or(0.0, |b| b.0);
        let a = empty <= params.danger_empty || (empty <= params.fire_empty && attack as f64 >= potential);
        let b = lethal(params, obs, garbage);
        let broken = !kept && (build.is_none() || links >= ready);
        if a || b || broken {
            return Some(PotentialChoice { placement: p, fires: true, attack: attack as f64 });
        }
    }
    if let Some((pot, p)) = clear.filter(|&(c, _)| build.is_none_or(|b| c > b.0)) {
        return Some(PotentialChoice { placement: p, fires: false, attack: pot });
    }
    match build {
        Some((pot, _, _, p)) => Some(PotentialChoice { placement: p, fires: false, attack: pot }),
        // Every move dies: play any legal one.
        None => any.map(|p| PotentialChoice { placement: p, fires: false, attack: 0.0 }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puyo::rules::Puyo::{Blue, Garbage, Green, Red, Yellow};

    fn field(ascii: &str) -> Field {
        Field::from_ascii(ascii).unwrap()
    }

    #[test]
    fn empty_cells_and_connections_count_the_visible_rows_only() {
        // Reds: 3 vertical + 1 horizontal neighbours, greens 1 + 1, yellows 1.
        let mut f = field("R.....\nRG....\nRR....\nRGGY..\nYYGB..");
        assert_eq!((empty_cells(&f), connections(&f)), (72 - 13, 4 + 2 + 1));
        // Columns 2-3 filled with blues that touch no blue, then two greens side by side on
        // the hidden 13th row.
        for col in 1..=2 {
            while f.height(col) < 12 {
                f.drop_puyo(col, if (f.height(col) + col) % 2 == 1 { Blue } else { Garbage });
            }
            f.drop_puyo(col, Green);
        }
        assert_eq!(f.height(1), 13);
        assert_eq!((empty_cells(&f), connections(&f)), (72 - 13 - 18, 4 + 2 + 1));
    }

    #[test]
    fn triggers_are_the_fewest_puyos_of_one_colour_that_pop_in_each_column() {
        // One red dropped into column 1 or 2 pops the reds, the blue falls onto three blues:
        // two links. One blue beside the blues pops them (with the blue on column 3: five).
        let f = field("..B...\nRRRBBB");
        let mut found = Vec::new();
        for_each_trigger(&f, 2, |t, after| {
            found.push((t.col, t.color, t.puyos, t.chain.links, t.chain.popped, after.count()))
        });
        let expected = [
            (0, Red, 1, 2, 8, 0),
            (1, Red, 1, 2, 8, 0),
            (3, Blue, 1, 1, 5, 3),
            (4, Blue, 1, 1, 4, 4),
            (5, Blue, 1, 1, 4, 4),
        ];
        assert_eq!(found, expected);
        assert_eq!(virtual_potential(&f), 6, "3·2·1: two links of four");
        assert_eq!(ready_garbage(&f, GarbageRule::Paper), 6);
        assert_eq!(ready_garbage(&f, GarbageRule::Tsu), 360 / 70, "40 + 320 points of the two-link chain");
        // Two reds need two more: found with two puyos, not with one.
        let pair = field("RR....");
        let mut two = Vec::new();
        for_each_trigger(&pair, 2, |t, _| two.push((t.col, t.puyos)));
        assert_eq!(two, [(0, 2), (1, 2), (2, 2)]);
        for_each_trigger(&pair, 1, |t, _| panic!("one puyo cannot pop two: {t:?}"));
    }

    #[test]
    fn kill_garbage_fills_column_three_to_row_twelve() {
        assert_eq!(kill_garbage(&Field::new()), 72);
        let mut f = field("..R...\n..G...");
        assert_eq!(kill_garbage(&f), 60);
        while f.drop_puyo(2, Garbage) {}
        assert_eq!(kill_garbage(&f), 0, "thirteen high");
    }

    /// With virtual drops on, a building move is worth (one pair read) the weighted attack of
    /// the chain that 1-2 dropped puyos start on the field it leaves.
    #[test]
    fn virtual_drops_weigh_the_chain_a_dropped_puyo_would_start() {
        let f = field("RR.BBB");
        let pairs = [Pair { axis: Red, child: Blue }];
        let obs = Observation::alone(&f, &pairs);
        for virtual_drop in [0.0, 0.5, 2.0] {
            let params = PotentialParams { depth: 1, virtual_drop, ..Default::default() };
            let choice = decide(&params, &obs).unwrap();
            let mut after = f;
            assert_eq!(after.play(pairs[0], choice.placement).unwrap().links, 0);
            assert_eq!(choice.attack, virtual_drop * virtual_potential(&after) as f64, "{choice:?}\n{after}");
            assert!(virtual_drop == 0.0 || choice.attack >= virtual_drop * 6.0, "{choice:?}\n{after}");
        }
    }

    /// Special case (d) takes, of the pops of at most two links, the one after which the most
    /// attack is reachable: here the pair upright on column 4, its blue falling where the reds
    /// were, not the pair lying across columns 3-4, which comes first in enumeration order.
    #[test]
    fn the_clearing_pop_opens_the_most_attack() {
        let f = field(super::super::tests::BLOCKING_REDS);
        let pairs = [Pair { axis: Blue, child: Red }, Pair { axis: Yellow, child: Blue }];
        let params = PotentialParams { depth: 2, ..Default::default() };
        let choice = decide(&params, &Observation::alone(&f, &pairs)).unwrap();
        let pops: Vec<(Placement, f64)> = f
            .legal_placements(pairs[0])
            .filter_map(|p| {
                let mut after = f;
                let links = after.play(pairs[0], p).unwrap().links;
                (1..=MAX_CLEAR_LINKS).contains(&links).then(|| (p, continuation(&params, &after, &pairs[1..])))
            })
            .collect();
        let best = pops.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert!(pops[0].1 < best.1, "{pops:?}");
        assert_eq!((choice.placement, choice.fires, choice.attack), (best.0, false, best.1), "{pops:?}");
    }
}
