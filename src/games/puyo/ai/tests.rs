//! AI tests: legality over many random positions; potential maximization's special cases (c)
//! and (d) and its firing over a formation it cannot keep; the combined player's switch, its
//! extension, its templates left once garbage lands, its optional asobi reading and threat
//! switch; which players need a template group.

use rand::{Rng, SeedableRng};

use super::*;
use crate::games::puyo::rules::{Chain, Puyo, pair_sequence};
use crate::lab::rng::GameRng;

/// A field after up to `moves` random placements of random pairs (fewer if it dies).
fn random_field(rng: &mut GameRng, moves: usize) -> Field {
    let mut f = Field::new();
    for _ in 0..moves {
        let pair = Pair::random(rng, 4);
        let legal: Vec<Placement> = f.legal_placements(pair).collect();
        f.play(pair, legal[rng.random_range(0..legal.len())]);
        if f.is_dead() {
            break;
        }
    }
    f
}

#[test]
fn ais_never_return_illegal_moves() {
    let mut rng = GameRng::seed_from_u64(11);
    let players: Vec<Player> = [AiKind::Template, AiKind::Potential, AiKind::Combined, AiKind::Asobi]
        .into_iter()
        .map(|k| {
            let mut p = AiParams::default();
            p.template.depth = 1;
            p.potential.depth = 2;
            p.builder.beam = 8;
            p.builder.samples = 1;
            p.builder.unseen_beam = 4;
            Player::new(k, p).unwrap()
        })
        .collect();
    let mut checked = 0;
    while checked < 1200 {
        let moves = rng.random_range(0..40);
        let f = random_field(&mut rng, moves);
        if f.is_dead() {
            continue;
        }
        let pairs = pair_sequence(&mut rng, 4, 3);
        let obs = Observation::alone(&f, &pairs);
        for p in &players {
            let d = p.decide(&obs).expect("a live field has a legal move");
            assert!(f.can_place(d.placement), "{:?} {d:?}\n{f}", p.kind);
            checked += 1;
        }
    }
}

/// Special case (d)'s position: a red group on column 4 blocks a chain that the next pair
/// fires once it has popped.
pub(super) const BLOCKING_REDS: &str = "..R...\n..G...\n..G...\n..B...\n..B...\n..R...\n..R...\nG.GR..\nGRBB..\nYYRY..";

/// Potential maximization (two pairs read) placing a red-blue pair on [`BLOCKING_REDS`] while
/// keeping `keep`: the choice and the chain it set off.
fn decide_over_blocking_reds(keep: impl Fn(&Field) -> bool) -> (potential::PotentialChoice, Chain) {
    use crate::games::puyo::rules::Puyo::{Blue, Red, Yellow};
    let field = Field::from_ascii(BLOCKING_REDS).unwrap();
    let pairs = [Pair { axis: Red, child: Blue }, Pair { axis: Yellow, child: Blue }];
    let params = potential::PotentialParams { depth: 2, ..Default::default() };
    let choice = potential::decide_keeping(&params, &Observation::alone(&field, &pairs), keep, 8).unwrap();
    let mut after = field;
    (choice, after.play(pairs[0], choice.placement).unwrap())
}

/// Special case (d): popping the red group on column 4 (one link) opens a chain for the next
/// pair, so potential maximization plays it as a building move, not as its fired chain.
#[test]
fn potential_pops_blocking_puyos_to_open_a_chain() {
    let (c, chain) = decide_over_blocking_reds(|_| true);
    assert!(!c.fires && chain.links > 0 && c.attack > 0.0, "{c:?}");
}

/// Special case (c): a row of garbage is incoming. With three placements before it falls,
/// potential maximization reads for the largest chain, fired by the third pair; with two, it
/// plays for the smaller chain that the second pair fires, and then fires it.
#[test]
fn potential_counters_with_a_chain_fired_before_the_garbage_falls() {
    use crate::games::puyo::rules::Puyo::{Blue, Green};
    let field = Field::from_ascii(".G....\n.RB...\n.GB...\n.GG.B.").unwrap();
    let pairs =
        [Pair { axis: Green, child: Blue }, Pair { axis: Green, child: Green }, Pair { axis: Blue, child: Green }];
    let opponent = Field::new();
    let under_attack = |field, pairs, garbage_falls_in| Observation {
        pending: 6,
        opponent: Some(&opponent),
        garbage_falls_in,
        ..Observation::alone(field, pairs)
    };
    let params = potential::PotentialParams::default();
    let unhurried = potential::decide(&params, &under_attack(&field, &pairs, 3)).unwrap();
    let hurried = potential::decide(&params, &under_attack(&field, &pairs, 2)).unwrap();
    assert!(!hurried.fires && hurried.attack >= 3.0 && unhurried.attack > hurried.attack, "{hurried:?} {unhurried:?}");
    // The counter is played while it cancels at least half of what is pending.
    let twice_its_garbage = 2 * hurried.attack as u32;
    let pending = |pending| Observation { pending, ..under_attack(&field, &pairs, 2) };
    assert_eq!(potential::decide(&params, &pending(twice_its_garbage)).unwrap(), hurried);
    assert!(potential::decide(&params, &pending(twice_its_garbage + 1)).unwrap().attack > hurried.attack);
    let mut after = field;
    after.play(pairs[0], hurried.placement).unwrap();
    let fired = potential::decide(&params, &under_attack(&after, &pairs[1..], 1)).unwrap();
    let chain = after.play(pairs[1], fired.placement).unwrap();
    assert!(fired.fires && 2 * chain.attack() >= 6, "{fired:?}\n{after}");
}

/// Special case (b): two links (6 garbage) fill the opponent's column 3, eleven high. The
/// paper's reading fires them; asobi's fires them only when the opponent holds no counter, here
/// a two-link chain that one red dropped into column 5 starts.
#[test]
fn a_lethal_chain_waits_for_the_opponents_counter_with_asobis_reading() {
    use crate::games::puyo::rules::Puyo::{Green, Red, Yellow};
    let field = Field::from_ascii(".B....\n.R....\nRRBBB.").unwrap();
    let pairs =
        [Pair { axis: Red, child: Green }, Pair { axis: Yellow, child: Yellow }, Pair { axis: Green, child: Yellow }];
    let tower = "..B...\n..G...\n..R...\n..Y...\n..B...\n..G...\n..R...\n..Y...\n..B...\n..G...\n..R...";
    let bare = Field::from_ascii(tower).unwrap();
    // The same tower, and beside it the counter: reds on column 6 under a blue that falls
    // onto three blues once they pop.
    let countering =
        Field::from_ascii("..B...\n..G...\n..R...\n..Y...\n..B...\n..G...\n..R..B\n..Y..R\n..B.GR\n..G.BR\n..R.BB")
            .unwrap();
    let fires = |opponent: &Field, lethal_after_counter: bool| {
        let params = potential::PotentialParams { lethal_after_counter, ..Default::default() };
        let obs = Observation { opponent: Some(opponent), ..Observation::alone(&field, &pairs) };
        let choice = potential::decide(&params, &obs).unwrap();
        let mut after = field;
        let links = after.play(pairs[0], choice.placement).unwrap().links;
        assert_eq!(choice.fires, links > 0, "{choice:?}");
        choice.fires
    };
    assert!(fires(&bare, false) && fires(&bare, true));
    assert!(fires(&countering, false));
    assert!(!fires(&countering, true));
    // One row lower the tower needs two more rows of garbage: not lethal by either reading.
    let lower = Field::from_ascii(&tower[tower.find('\n').unwrap() + 1..]).unwrap();
    assert!(!fires(&lower, false) && !fires(&lower, true));
}

/// Potential maximization over a one-link "formation" (three reds, a red in the pair) that
/// `keep` protects, with formation length `ready`.
fn decide_over_three_reds(keep: impl Fn(&Field) -> bool, ready: u32) -> potential::PotentialChoice {
    use crate::games::puyo::rules::Puyo::{Blue, Red};
    let field = Field::from_ascii("RRR...").unwrap();
    let pairs = [Pair { axis: Red, child: Blue }, Pair { axis: Blue, child: Blue }];
    let obs = Observation::alone(&field, &pairs);
    let params = potential::PotentialParams { depth: 2, ..Default::default() };
    potential::decide_keeping(&params, &obs, keep, ready).unwrap()
}

/// When every building move breaks what `keep` protects, only a chain as long as the
/// formation's fires; a smaller one would end a single-player game with next to nothing, so a
/// building move that breaks the formation is played instead.
#[test]
fn a_broken_formation_fires_only_a_chain_as_long_as_it() {
    let breaks_everything = |_: &Field| false;
    let small = decide_over_three_reds(breaks_everything, 8);
    assert!(!small.fires, "{small:?}");
    let long_enough = decide_over_three_reds(breaks_everything, 1);
    assert!(long_enough.fires, "{long_enough:?}");
}

/// A stairs formation can score above the switch (0.9) long before its chain fires: the
/// combined player then keeps to its templates, and switches on the score alone only with
/// `switch_ready` off (the paper's rule).
#[test]
fn the_combined_player_switches_once_its_formation_fires() {
    let paper = Player::new(AiKind::Combined, AiParams { switch_ready: false, ..AiParams::default() }).unwrap();
    let asobi = Player::new(AiKind::Combined, AiParams::default()).unwrap();
    let pairs = pair_sequence(&mut crate::lab::rng::sub_rng(1, 15, 1), 4, 63);
    let mut field = Field::new();
    for m in 0..60 {
        let obs = Observation::alone(&field, &pairs[m..m + 3]);
        let d = asobi.decide(&obs).unwrap();
        let switched = |d: &Decision| d.why.starts_with("potential over");
        if best_template(asobi.templates(), &field).is_some_and(|(t, s)| s > 0.9 && !asobi.formation_ready(&field, t)) {
            assert!(!switched(&d), "{d:?}\n{field}");
            assert!(switched(&paper.decide(&obs).unwrap()), "{field}");
            return;
        }
        field.play(pairs[m], d.placement);
    }
    panic!("the formation never scored above the switch before it fired");
}

/// Special case (a) as the paper words it: a formation's chain that nothing larger within the
/// known pairs beats still waits while many cells are empty (it may grow with later pairs).
#[test]
fn a_ready_formation_waits_for_few_empty_cells() {
    let c = decide_over_three_reds(|_| true, 1);
    assert!(!c.fires, "{c:?}");
}

/// Game 356's field at move 42, where the template phase fires its formation (the tests below).
const FORMATION_THE_TEMPLATE_PHASE_FIRES: &str =
    "......\n......\n...B..\n.BBG..\n.RBYBY\n.BGGRG\n.BRGRY\n.GYRBY\n.RRBBY\n.BGRGR\n.BGRGY\nYBGRGB\nYYBGRG\n";

/// Game 356 of `puyo endless --ai combined --seed 1`, move 42: the pair in hand fires the
/// finished stairs formation (8 links, attack 211) though no drop of one colour into one column
/// does, so the extension phase has not begun. The template phase alone fires it; the combined
/// player reads a larger attack by building on (it fired 11 links two moves later).
#[test]
fn the_combined_player_builds_on_a_formation_its_template_phase_would_fire() {
    let field = Field::from_ascii(FORMATION_THE_TEMPLATE_PHASE_FIRES).unwrap();
    let pairs = [
        Pair::new(Puyo::Yellow, Puyo::Green),
        Pair::new(Puyo::Yellow, Puyo::Yellow),
        Pair::new(Puyo::Yellow, Puyo::Yellow),
    ];
    let obs = Observation::alone(&field, &pairs);
    let player = Player::new(AiKind::Combined, AiParams::default()).unwrap();
    let template_phase = player.template(&obs).unwrap();
    assert!(template_phase.fires, "{template_phase:?}");
    let combined = player.decide(&obs).unwrap();
    assert!(!combined.fires && combined.why.starts_with("potential over"), "{combined:?}");
}

/// Once garbage has landed on its field the combined player leaves its templates (garbage
/// counts as empty in their state matrix) for potential maximization.
#[test]
fn the_combined_player_leaves_its_templates_once_garbage_lands() {
    use crate::games::puyo::rules::Puyo::{Blue, Red};
    let player = Player::new(AiKind::Combined, AiParams::default()).unwrap();
    let pairs = [Pair { axis: Red, child: Blue }, Pair { axis: Blue, child: Blue }, Pair { axis: Red, child: Red }];
    let opponent = Field::new();
    let why = |rows: &str| {
        let field = Field::from_ascii(rows).unwrap();
        player.decide(&Observation { opponent: Some(&opponent), ..Observation::alone(&field, &pairs) }).unwrap().why
    };
    assert!(why("R.....\nRB....").starts_with("template"));
    assert!(why("O.....\nRB....").starts_with("potential"));
}

/// With [`Extension::Builder`] the combined player hands its ready formation to asobi's chain
/// builder in single-player games; in versus it keeps potential maximization.
#[test]
fn the_builder_extension_takes_over_a_ready_formation_alone_only() {
    let player =
        Player::new(AiKind::Combined, AiParams { extension: Extension::Builder, ..AiParams::default() }).unwrap();
    let pairs = pair_sequence(&mut crate::lab::rng::sub_rng(1, 15, 1), 4, 103);
    let mut field = Field::new();
    for m in 0..100 {
        let obs = Observation::alone(&field, &pairs[m..m + 3]);
        if best_template(player.templates(), &field).is_some_and(|(t, s)| s > 0.9 && player.formation_ready(&field, t))
        {
            let alone = player.decide(&obs).unwrap();
            assert!(alone.why.starts_with("builder"), "{alone:?}\n{field}");
            let opponent = Field::new();
            let versus = player.decide(&Observation { opponent: Some(&opponent), ..obs }).unwrap();
            assert!(versus.why.starts_with("potential over"), "{versus:?}\n{field}");
            return;
        }
        field.play(pairs[m], player.decide(&obs).unwrap().placement);
    }
    panic!("the formation was never ready");
}

/// The combined player's reasons on `rows` with `pairs` known, with the builder as its extension
/// and with the paper's, after `check` has looked at the field and the builder's player.
fn reasons_with_and_without_builder(
    rows: &str,
    pairs: [(Puyo, Puyo); 3],
    check: impl Fn(&Field, &Player, &Observation),
) -> (String, String) {
    let field = Field::from_ascii(rows).unwrap();
    let pairs = pairs.map(|(axis, child)| Pair::new(axis, child));
    let obs = Observation::alone(&field, &pairs);
    let builder =
        Player::new(AiKind::Combined, AiParams { extension: Extension::Builder, ..AiParams::default() }).unwrap();
    check(&field, &builder, &obs);
    let paper = Player::new(AiKind::Combined, AiParams::default()).unwrap();
    (builder.decide(&obs).unwrap().why, paper.decide(&obs).unwrap().why)
}

/// A field the builder extended past every template (game 139 of combined endless, seed 1,
/// asobi's template options, after move 25): it fires 9 links, so the builder keeps it instead
/// of handing it to the template phase, whose fallback would fire 5 links.
#[test]
fn the_builder_extension_keeps_a_long_chain_that_no_template_matches() {
    use Puyo::*;
    let (builder, paper) = reasons_with_and_without_builder(
        "....R.\n....GR\n....GG\n....RR\n....RG\n..BRYR\n.RRBBY\n.BBYBY\n.YBGGG\n.BRYRB\n.BRYRB\nRBRYRG\nRRBRYR",
        [(Red, Green), (Blue, Blue), (Yellow, Red)],
        |field, player, _| {
            assert!(best_template(player.templates(), field).is_none_or(|(_, s)| s <= 0.9));
            assert!(fires_chain(field, 9));
        },
    );
    assert!(builder.starts_with("builder"), "{builder}");
    assert!(!paper.starts_with("builder"), "{paper}");
}

/// Where every template conflicts and the field fires no chain as long as the formation's
/// (game 21 of the same run, after move 31), the builder moves instead of the template phase's
/// fallback, potential maximization, whose firing would end the game with a short chain.
#[test]
fn the_builder_extension_moves_where_every_template_conflicts() {
    use Puyo::*;
    let (builder, paper) = reasons_with_and_without_builder(
        "......\n......\n...R..\n...YG.\n.YBRR.\n.BYBRY\n.BYRBG\n.GYRRB\n.GBGGB\n.BYRYR\nRBYRYG\nGBYRYG\nGGBYRY",
        [(Yellow, Blue), (Red, Green), (Blue, Green)],
        |field, player, obs| {
            assert!(!fires_chain(field, 8));
            assert!(player.template_search(obs).is_none());
        },
    );
    assert!(builder.starts_with("builder"), "{builder}");
    assert!(paper.starts_with("potential"), "{paper}");
}

/// The formation that the template phase would fire (game 356's, above) goes to the builder,
/// which builds on toward its goal (combined endless with asobi's template options and
/// `--extension builder`, seed 2: 6 of 200 games fired the bare 8-9 links at moves 23-34).
#[test]
fn the_builder_extension_builds_on_a_formation_its_template_phase_would_fire() {
    use Puyo::*;
    let (builder, paper) = reasons_with_and_without_builder(
        FORMATION_THE_TEMPLATE_PHASE_FIRES,
        [(Yellow, Green), (Yellow, Yellow), (Yellow, Yellow)],
        |field, player, obs| {
            assert!(player.template(obs).unwrap().fires);
            assert!(!fires_chain(field, 8));
        },
    );
    assert!(builder.starts_with("builder: build"), "{builder}");
    assert!(paper.starts_with("potential over"), "{paper}");
}

/// The domino (no chain) in the group does not hand an empty field to the builder.
#[test]
fn the_builder_extension_leaves_an_empty_field_to_the_templates() {
    let params = AiParams { group: "all".into(), extension: Extension::Builder, ..AiParams::default() };
    let player = Player::new(AiKind::Combined, params).unwrap();
    let pairs =
        [Pair::new(Puyo::Red, Puyo::Green), Pair::new(Puyo::Blue, Puyo::Blue), Pair::new(Puyo::Yellow, Puyo::Red)];
    let decision = player.decide(&Observation::alone(&Field::new(), &pairs)).unwrap();
    assert!(decision.why.starts_with("template"), "{decision:?}");
}

/// The bundled groups need 4 colours; only the players that use them refuse 3.
#[test]
fn only_template_players_need_their_groups_colours() {
    let mut params = AiParams::default();
    params.compile.colors = 3;
    for kind in [AiKind::Template, AiKind::Potential, AiKind::Combined, AiKind::Asobi] {
        assert_eq!(Player::new(kind, params.clone()).is_ok(), !kind.uses_templates(), "{kind:?}");
    }
}

/// `combined_potential: Asobi` gives the combined player, and only it, asobi's versus reading;
/// the seat it plays against keeps the shared settings.
#[test]
fn asobi_reading_goes_to_the_combined_player_only() {
    let params = AiParams { combined_potential: CombinedPotential::Asobi, ..AiParams::default() };
    let reads = |kind| {
        let p = Player::new(kind, params.clone()).unwrap().params.potential;
        (p.virtual_drop, p.lethal_after_counter, p.depth)
    };
    assert_eq!(reads(AiKind::Combined), (0.8, true, 3));
    assert_eq!(reads(AiKind::Potential), (0.0, false, 3));
    assert_eq!(reads(AiKind::Asobi), (0.8, true, 3));
    let paper = Player::new(AiKind::Combined, AiParams::default()).unwrap().params.potential;
    assert_eq!((paper.virtual_drop, paper.lethal_after_counter), (0.0, false));
}

/// With `threat_switch`, the combined player leaves its template phase while the opponent's
/// ready chain sends at least that share of the garbage that fills its column 3, and only then.
#[test]
fn the_threat_switch_leaves_templates_while_the_opponent_holds_a_ready_chain() {
    // A red dropped into column 2 fires three links.
    let opponent = Field::from_ascii("B.....\nB.....\nB.....\nG.....\nG.....\nG.....\nR.....\nRB....\nRG....").unwrap();
    let own = Field::new();
    let ready = potential::ready_garbage(&opponent, GarbageRule::default());
    let fills_column_3 = potential::kill_garbage(&own);
    assert!(0 < ready && ready < fills_column_3, "{ready} of {fills_column_3}");
    let pairs =
        [Pair::new(Puyo::Red, Puyo::Green), Pair::new(Puyo::Blue, Puyo::Blue), Pair::new(Puyo::Yellow, Puyo::Red)];
    let versus = Observation { opponent: Some(&opponent), ..Observation::alone(&own, &pairs) };
    let by_template = |threat_switch, obs: &Observation| {
        let params = AiParams { threat_switch, ..AiParams::default() };
        Player::new(AiKind::Combined, params).unwrap().decide(obs).unwrap().by_template
    };
    let share = ready as f64 / fills_column_3 as f64;
    assert!(by_template(None, &versus));
    assert!(by_template(Some(share + 0.01), &versus));
    assert!(!by_template(Some(share), &versus));
    assert!(by_template(Some(0.0), &Observation::alone(&own, &pairs)), "alone nothing threatens");
}

/// In versus asobi's player is potential maximization with asobi's reading at the paper's depth
/// of three pairs (reading two, it lost to that player; see [`Player::new`]).
#[test]
fn asobis_versus_player_reads_as_deep_as_potential_maximization() {
    let mut rng = GameRng::seed_from_u64(5);
    let asobi = Player::new(AiKind::Asobi, AiParams::default()).unwrap();
    let mut reading = PotentialParams::default();
    read_like_asobi(&mut reading);
    let two_pairs = PotentialParams { depth: 2, ..reading };
    let mut differs_at_two_pairs = 0;
    for _ in 0..12 {
        let (own, opponent) = (random_field(&mut rng, 16), random_field(&mut rng, 16));
        if own.is_dead() || opponent.is_dead() {
            continue;
        }
        let pairs = pair_sequence(&mut rng, 4, 3);
        let obs = Observation { opponent: Some(&opponent), ..Observation::alone(&own, &pairs) };
        let played = asobi.decide(&obs).unwrap().placement;
        assert_eq!(played, potential::decide(&reading, &obs).unwrap().placement, "\n{own}");
        differs_at_two_pairs += usize::from(potential::decide(&two_pairs, &obs).unwrap().placement != played);
    }
    assert!(differs_at_two_pairs > 0, "the positions do not tell the depths apart");
}

/// Three reds on column 1 and garbage elsewhere, `empty` visible cells left (at least 10).
fn three_reds_and_garbage(empty: u32) -> Field {
    let mut f = Field::from_ascii("R.....\nR.....\nR.....").unwrap();
    // Column 3 stops at 11 rows: a 12th would end the game.
    for (col, rows) in [(1, 12), (3, 12), (4, 12), (5, 12), (2, 11)] {
        while f.height(col) < rows && potential::empty_cells(&f) > empty {
            f.drop_puyo(col, Puyo::Garbage);
        }
    }
    assert_eq!(potential::empty_cells(&f), empty);
    f
}

/// Special case (a) with nothing to build (one pair read, no chain beyond the red one): the
/// red link fires once at most `fire_empty` cells are empty, and with (a)'s first half off
/// once at most `danger_empty` are.
#[test]
fn potential_fires_at_the_empty_cell_thresholds() {
    let pairs = [Pair { axis: Puyo::Red, child: Puyo::Blue }];
    let choice = |empty, fire_empty| {
        let params = potential::PotentialParams { depth: 1, fire_empty, ..Default::default() };
        potential::decide(&params, &Observation::alone(&three_reds_and_garbage(empty), &pairs)).unwrap()
    };
    let fires = |empty, fire_empty| choice(empty, fire_empty).fires;
    assert!(fires(24, 24) && !fires(25, 24));
    assert!(fires(12, 0) && !fires(13, 0));
    // Of the equal chains (one link of four reds), the first in enumeration order fires.
    let first_pop = first_placement(&three_reds_and_garbage(24), pairs[0], |_, chain| chain.links > 0);
    assert_eq!(Some(choice(24, 24).placement), first_pop);
}

/// The first placement of `pair` on `field` in enumeration order whose result satisfies `wanted`.
fn first_placement(field: &Field, pair: Pair, wanted: impl Fn(&Field, Chain) -> bool) -> Option<Placement> {
    field.legal_placements(pair).find(|&p| {
        let mut after = *field;
        let chain = after.play(pair, p).unwrap();
        wanted(&after, chain)
    })
}

/// With no chain in reach, potential maximization keeps colours together (a red beside the
/// red on column 6), then stays off column 3, whose height ends the game, then takes the first
/// such placement in enumeration order (spec §9.3).
#[test]
fn potential_ties_go_to_connections_then_off_column_three() {
    let pair = Pair { axis: Puyo::Red, child: Puyo::Blue };
    let params = potential::PotentialParams { depth: 1, ..Default::default() };
    // What the best moves leave, given the field before and after.
    type Best = fn(&Field, &Field) -> bool;
    let beside_the_red: Best = |_, after| after.get(4, 0) == Some(Puyo::Red) || after.get(5, 1) == Some(Puyo::Red);
    let off_column_three: Best = |before, after| after.occupied().column_bits(2) == before.occupied().column_bits(2);
    let cases = [(".....R", beside_the_red), ("......", off_column_three), ("..G...", off_column_three)];
    for (ascii, best) in cases {
        let field = Field::from_ascii(ascii).unwrap();
        let choice = potential::decide(&params, &Observation::alone(&field, &[pair])).unwrap();
        let first_best = first_placement(&field, pair, |after, _| best(&field, after));
        assert_eq!(Some(choice.placement), first_best, "{choice:?}\n{field}");
    }
}

/// Of the chains at hand, the one with the largest attack fires: the pair upright in column 5
/// pops the reds and drops both blues onto the blues (two links, the second of five: attack
/// 3·2·1 + 2·1), other reds pop two links of four (6), a blue in columns 1-3 one link.
#[test]
fn potential_fires_its_largest_chain() {
    let field = Field::from_ascii("...B..\nBBBRRR").unwrap();
    let pairs = [Pair { axis: Puyo::Red, child: Puyo::Blue }];
    let params = potential::PotentialParams { depth: 1, fire_empty: 72, ..Default::default() };
    let choice = potential::decide(&params, &Observation::alone(&field, &pairs)).unwrap();
    let mut after = field;
    let chain = after.play(pairs[0], choice.placement).unwrap();
    assert!(choice.fires && chain.links == 2 && choice.attack == 8.0, "{choice:?}\n{after}");
}

/// Special case (d)'s pop is a building move, so it too must keep what `keep` protects: with a
/// formation every move breaks, the pop that opens a chain is not played.
#[test]
fn a_clearing_pop_must_keep_the_formation_too() {
    let (c, chain) = decide_over_blocking_reds(|_| false);
    assert_eq!(chain.links, 0, "{c:?}");
}
