//! The template player's search (paper §3.5, spec §3 "Search and selection"): every move
//! sequence over the current and previewed pairs to depth 1-3, each leaf scored against every
//! template, the leaf chosen by rule (a) max, (b) count or (c) mean.
//!
//! Pruning (the paper's suggestions): a conflicting template is never revisited in children
//! unless something popped on the edge; scores are updated incrementally from the two new
//! cells; only nonzero template entries are visited.
//!
//! Decisions (spec §9): a template whose trigger cell is filled before the rest of its link-1
//! group counts as conflicting (it could only fire with its body unbuilt); a leaf whose move popped is scored on the resolved board, except that
//! a firing move whose unresolved board reaches the completion threshold scores that board
//! (9.1, 9.2); ties go to the leaf with more templates alive, then to the lower, flatter field
//! (puyos outside the templates are dumped where they stack least; without this, enumeration
//! order piled them on column 1 over the trigger), then enumeration order (9.3); game-over
//! leaves are excluded (9.5).
//!
//! asobi's chance ply (`TemplateParams::chance`, off by default) looks one unseen pair past
//! the known ones at the best few leaves of each first move: a greedy max-score search commits
//! labels to colours without asking whether the next pairs can still be placed.

use serde::{Deserialize, Serialize};

use super::template::{Match, Template};
use crate::games::puyo::rules::{Field, Pair, Placement, Puyo};

/// The leaf selection rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Select {
    /// (a) The highest template score (the paper's choice).
    #[default]
    Max,
    /// (b) The most non-conflicting templates.
    Count,
    /// (c) The highest mean score over the non-conflicting templates.
    Mean,
}

/// Parameters of the template player.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TemplateParams {
    /// Plies searched: 1-3, the current pair and the previewed ones.
    pub depth: usize,
    /// How a leaf's value is read from its templates' scores.
    pub select: Select,
    /// A template counts as complete at this score (paper: 0.95).
    pub completion: f64,
    /// asobi: the best `chance` leaves below each first move are rated by their value plus the
    /// expected value after one more, unseen pair (the mean over every pair of colours of the
    /// best placement's value); 0 = the paper (leaves rated by their own value).
    #[serde(default)]
    pub chance: usize,
}

impl Default for TemplateParams {
    fn default() -> Self {
        TemplateParams { depth: 3, select: Select::Max, completion: 0.95, chance: 0 }
    }
}

/// The best first move found.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateChoice {
    /// The first move towards the best leaf.
    pub placement: Placement,
    /// The leaf's value under the selection rule.
    pub value: f64,
    /// Best template at that leaf and its score.
    pub template: usize,
    /// That template's match score.
    pub score: f64,
    /// The first move fires a completed template.
    pub fires: bool,
}

/// A leaf's evaluation: (value, best template, its score, templates still alive, stack cost).
type Leaf = (f64, usize, f64, usize, u32);

/// The worst leaf.
const LOST: Leaf = (f64::NEG_INFINITY, 0, f64::NEG_INFINITY, 0, u32::MAX);

/// Leaves compare by value, ties by the number of templates still alive (more options), then
/// by the lower stack cost.
fn better(a: &Leaf, b: &Leaf) -> bool {
    (a.0, a.3, std::cmp::Reverse(a.4)) > (b.0, b.3, std::cmp::Reverse(b.4))
}

/// Σ height² over the columns: low and flat is cheap.
fn stack_cost(field: &Field) -> u32 {
    (0..crate::games::puyo::rules::WIDTH).map(|c| (field.height(c) * field.height(c)) as u32).sum()
}

/// The template scores of a field, best template first.
pub fn best_template(templates: &[Template], field: &Field) -> Option<(usize, f64)> {
    templates.iter().enumerate().map(|(i, t)| (i, t.score(t.full_match(field)))).filter(|(_, s)| s.is_finite()).fold(
        None,
        |best: Option<(usize, f64)>, (i, s)| match best {
            Some((_, b)) if b >= s => best,
            _ => Some((i, s)),
        },
    )
}

/// Searches all sequences of placements of `pairs[..depth]` (`colors` in play, for the
/// chance ply); `None` when every leaf is lost (all templates conflict or every sequence dies).
pub fn search(
    templates: &[Template],
    params: &TemplateParams,
    field: &Field,
    pairs: &[Pair],
    colors: usize,
) -> Option<TemplateChoice> {
    let depth = params.depth.clamp(1, pairs.len().max(1)).min(pairs.len());
    if depth == 0 {
        return None;
    }
    let root: Vec<Match> = templates.iter().map(|t| t.full_match(field)).collect();
    let mut best: Option<((bool, Leaf), TemplateChoice)> = None;
    for p in field.legal_placements(pairs[0]) {
        let Some(node) = expand(templates, params, field, &root, pairs[0], p) else { continue };
        let fires = node.fired;
        let rated = if params.chance == 0 {
            Some((false, best_below(templates, params, node, &pairs[1..depth])))
        } else {
            let mut kept = Vec::with_capacity(params.chance + 1);
            keep_best(templates, params, node, &pairs[1..depth], &mut kept);
            kept.iter()
                .map(|k| rate(templates, params, k, colors))
                .reduce(|a, b| if ranks_above(&b, &a) { b } else { a })
        };
        let Some(rated) = rated.filter(|(_, leaf)| leaf.0.is_finite()) else { continue };
        if best.as_ref().is_none_or(|(b, _)| ranks_above(&rated, b)) {
            let leaf = rated.1;
            let choice = TemplateChoice { placement: p, value: leaf.0, template: leaf.1, score: leaf.2, fires };
            best = Some((rated, choice));
        }
    }
    best.map(|(_, choice)| choice)
}

/// Rated leaves compare completion first (only the chance ply sets it), then as leaves.
fn ranks_above(a: &(bool, Leaf), b: &(bool, Leaf)) -> bool {
    (a.0 && !b.0) || (a.0 == b.0 && better(&a.1, &b.1))
}

/// The best leaf below (or at) a node.
fn best_below(templates: &[Template], params: &TemplateParams, node: Node, pairs: &[Pair]) -> Leaf {
    if pairs.is_empty() || node.fired {
        node.leaf
    } else {
        subtree(templates, params, &node.field, &node.matches, pairs)
    }
}

/// Collects the best `params.chance` leaves below (or at) a node into `kept`.
fn keep_best(templates: &[Template], params: &TemplateParams, node: Node, pairs: &[Pair], kept: &mut Vec<Node>) {
    if !(pairs.is_empty() || node.fired) {
        for p in node.field.legal_placements(pairs[0]) {
            if let Some(child) = expand(templates, params, &node.field, &node.matches, pairs[0], p) {
                keep_best(templates, params, child, &pairs[1..], kept);
            }
        }
        return;
    }
    if !node.leaf.0.is_finite() {
        return;
    }
    if kept.len() < params.chance {
        kept.push(node);
    } else if let Some(worst) = (0..kept.len()).reduce(|w, i| if better(&kept[w].leaf, &kept[i].leaf) { i } else { w })
        && better(&node.leaf, &kept[worst].leaf)
    {
        kept[worst] = node;
    }
}

/// A kept leaf rated by the chance ply: a completed template ranks above everything, other
/// leaves add to their value the mean over the unseen pair's colours of the best value one
/// placement reaches (rating by that mean alone prefers leaves that have placed less).
fn rate(templates: &[Template], params: &TemplateParams, leaf: &Node, colors: usize) -> (bool, Leaf) {
    if leaf.fired || leaf.leaf.2 >= params.completion {
        return (true, leaf.leaf);
    }
    let mut total = 0.0;
    for a in 0..colors {
        for b in a..colors {
            let pair = Pair::new(Puyo::color(a), Puyo::color(b));
            // A pair no placement survives counts as a leaf worth nothing.
            let best = leaf
                .field
                .legal_placements(pair)
                .filter_map(|p| expand(templates, params, &leaf.field, &leaf.matches, pair, p))
                .map(|n| n.leaf.0)
                .fold(0.0, f64::max);
            total += if a == b { best } else { 2.0 * best };
        }
    }
    let mut rated = leaf.leaf;
    rated.0 += total / (colors * colors) as f64;
    (false, rated)
}

/// The best leaf below a node.
fn subtree(templates: &[Template], params: &TemplateParams, field: &Field, matches: &[Match], pairs: &[Pair]) -> Leaf {
    let mut best: Leaf = LOST;
    for p in field.legal_placements(pairs[0]) {
        let Some(node) = expand(templates, params, field, matches, pairs[0], p) else { continue };
        let leaf = best_below(templates, params, node, &pairs[1..]);
        if better(&leaf, &best) {
            best = leaf;
        }
    }
    best
}

struct Node {
    field: Field,
    matches: Vec<Match>,
    leaf: Leaf,
    /// The move fired a completed template (a leaf: nothing to build after it).
    fired: bool,
}

/// Plays one placement: incremental matches if nothing popped, a full rescore otherwise.
fn expand(
    templates: &[Template],
    params: &TemplateParams,
    field: &Field,
    matches: &[Match],
    pair: Pair,
    p: Placement,
) -> Option<Node> {
    let mut f = *field;
    let ((ac, ar), (cc, cr)) = f.landing(p)?;
    let placed = f.place(pair, p)?;
    let mut mid = *field;
    mid.set(ac, ar, Some(pair.axis));
    let axis = crate::games::puyo::rules::Bits::cell(ac, ar);
    let child = crate::games::puyo::rules::Bits::cell(cc, cr);
    let unresolved: Vec<Match> = templates
        .iter()
        .zip(matches)
        .map(|(t, &m)| t.add_puyo(t.add_puyo(m, field, axis, pair.axis), &mid, child, pair.child))
        .collect();
    let unresolved_field = f;
    let chain = f.resolve_from(placed, |_| {});
    if f.is_dead() {
        return None;
    }
    if chain.links == 0 {
        let leaf = evaluate(templates, params.select, &unresolved, &f);
        return Some(Node { field: f, matches: unresolved, leaf, fired: false });
    }
    // Only firing the best template's whole chain counts as completing it.
    let before = evaluate(templates, Select::Max, &unresolved, &unresolved_field);
    let whole = templates[before.1].chain;
    if before.2 >= params.completion && whole > 0 && chain.links >= whole {
        let leaf = evaluate(templates, params.select, &unresolved, &unresolved_field);
        return Some(Node { field: f, matches: unresolved, leaf, fired: true });
    }
    let resolved: Vec<Match> = templates.iter().map(|t| t.full_match(&f)).collect();
    let leaf = evaluate(templates, params.select, &resolved, &f);
    Some(Node { field: f, matches: resolved, leaf, fired: false })
}

/// A leaf's value under the selection rule, with the best template and its score.
fn evaluate(templates: &[Template], select: Select, matches: &[Match], field: &Field) -> Leaf {
    let mut best = (0, f64::NEG_INFINITY);
    let mut alive = 0usize;
    let mut total = 0.0;
    let occupied = field.occupied();
    for (i, (t, &m)) in templates.iter().zip(matches).enumerate() {
        let s = if t.triggered_early(occupied) { f64::NEG_INFINITY } else { t.score(m) };
        if s.is_finite() {
            alive += 1;
            total += s;
            if s > best.1 {
                best = (i, s);
            }
        }
    }
    if alive == 0 {
        return LOST;
    }
    let value = match select {
        Select::Max => best.1,
        // Ties in the count are broken by the best score (which lies in [0, 1]).
        Select::Count => alive as f64 + best.1 * 0.5,
        Select::Mean => total / alive as f64,
    };
    (value, best.0, best.1, alive, stack_cost(field))
}
