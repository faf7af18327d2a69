//! Round trips in both formats and across them, the spec's examples, every rejection path,
//! and fuzzing with malformed strings (errors, never panics).

use proptest::prelude::*;

use super::super::goal::{Goal, GoalColor, GoalKind, MainGoal, Operator};
use crate::games::puyo::rules::{Field, HEIGHT, Pair, Puyo, WIDTH};

use super::super::puzzle::{Puzzle, Step};
use super::{ishikawa, parse_any, parse_playable, pon2};

fn goal(kind: GoalKind, color: GoalColor, value: u32, operator: Operator, clear: Option<GoalColor>) -> Goal {
    Goal { main: Some(MainGoal { kind, color, value, operator }), clear }
}

#[test]
fn paper_examples_in_both_formats() {
    let chain3 = goal(GoalKind::Chain, GoalColor::All, 3, Operator::Exact, None);
    let cases = [
        ("0_0_3_0_", "u03", chain3),
        ("_0", "200", Goal { main: None, clear: Some(GoalColor::All) }),
        ("0_0_3_0_0", "w03", Goal { clear: Some(GoalColor::All), ..chain3 }),
        ("_6", "240", Goal { main: None, clear: Some(GoalColor::Puyo(Puyo::Yellow)) }),
    ];
    for (p, i, g) in cases {
        let q = format!("field=0_&steps&goal={p}");
        assert_eq!(pon2::parse(&q).unwrap().goal, g, "{p}");
        let u = format!("{}_{}__{i}", ishikawa::PREFIX, "");
        assert_eq!(ishikawa::parse(&u).unwrap().goal, g, "{i}");
        assert_eq!(pon2::write_goal(&g), p);
        assert!(ishikawa::write(&Puzzle { goal: g, ..Puzzle::default() }).unwrap().ends_with(&format!("__{i}")));
    }
}

/// A field without pairs or goal parses (the formats allow it), but is no puzzle to play.
#[test]
fn a_puzzle_to_play_needs_a_pair_and_a_goal() {
    let full = "field=0_gbyr..&steps=rrgg&goal=0_0_3_0_";
    assert_eq!(parse_playable(full), parse_any(full));
    for (text, missing) in [("field=0_gbyr..&steps=&goal=0_0_3_0_", "pair"), ("field=0_gbyr..&steps=rrgg ", "goal")] {
        assert!(parse_any(text).is_ok(), "{text}");
        let e = parse_playable(text).unwrap_err();
        assert_eq!(e.position, text.trim().len() + 1, "{text}");
        assert!(e.message.contains(missing), "{text}: {e}");
    }
    let ishikawa_without_pairs = format!("{}_{}__u03", ishikawa::PREFIX, "");
    assert_eq!(parse_playable(&ishikawa_without_pairs).unwrap_err().format, "IshikawaPuyo URL");
}

#[test]
fn field_and_step_encodings_match_the_spec() {
    let mut p = Puzzle::default();
    p.field.set(0, 0, Some(Puyo::Red));
    p.field.set(1, 0, Some(Puyo::Yellow));
    p.steps.push(Step::Pair(Pair::new(Puyo::Red, Puyo::Green)));
    let url = ishikawa::write(&p).unwrap();
    assert_eq!(url, format!("{}c00_c1__", ishikawa::PREFIX));
    assert_eq!(pon2::write(&p), "field=0_ry....&steps=rg&goal=");
    let mut g = Field::default();
    g.set(4, 5, Some(Puyo::Garbage));
    g.set(5, 5, Some(Puyo::Garbage));
    let u = ishikawa::write(&Puzzle { field: g, ..Puzzle::default() }).unwrap();
    assert!(u.contains("?S"), "{u}");
    let q = "field=0_&steps=o1_0_0_0_0_2org&goal=_1";
    let p = pon2::parse(q).unwrap();
    assert_eq!(p.steps[0], Step::Garbage([1, 0, 0, 0, 0, 2]));
    assert_eq!(pon2::write(&p), q);
    // A recorded placement (`rg3N`) is accepted and dropped; a placed Ishikawa pair likewise.
    assert_eq!(pon2::parse("field=0_&steps=rg3Nbb12&goal=").unwrap().steps.len(), 2);
    assert_eq!(ishikawa::parse(&format!("{}_c4__", ishikawa::PREFIX)).unwrap().steps.len(), 1);
}

#[test]
fn every_rejection_names_a_position() {
    let bad_pon2 = [
        ("field=1_rr&steps&goal=", 7, "unsupported rule"),
        ("field=0_rrX&steps&goal=", 11, "unknown cell"),
        (&format!("field=0_{}&steps&goal=", "r".repeat(79)), 87, "cells"),
        ("field=0_&steps=rR&goal=", 17, "unknown step"),
        ("field=0_&steps=rgC&goal=", 18, "unknown step"),
        ("field=0_&steps=hrrh&goal=", 16, "unknown step"),
        ("field=0_&steps=o1_0o&goal=", 16, "counts"),
        ("field=0_&steps=o1_0_0_0_0_0&goal=", 16, "closing"),
        ("field=0_&steps=r&goal=", 17, "two colours"),
        ("field=0_&steps=rg7N&goal=", 18, "placement"),
        ("field=0_&steps&goal=7_0_3_0_", 21, "goal kind"),
        ("field=0_&steps&goal=2_8_3_0_", 23, "goal colour"),
        ("field=0_&steps&goal=0_0_3_2_", 27, "operator"),
        ("field=0_&steps&goal=0_0_3", 21, "parts"),
        ("field=0_&steps&goal=3_1_3_0_", 21, "garbage"),
        ("field=0_&steps&goal=_9", 22, "clear colour"),
        ("field=0_&mode=1&goal=", 10, "unknown key"),
        ("steps=rg", 1, "missing"),
        ("field=0_&field=0_", 10, "twice"),
        ("https://example.com/puzzle", 27, "without a query"),
    ];
    for (q, pos, what) in bad_pon2 {
        let e = pon2::parse(q).unwrap_err();
        assert_eq!(e.position, pos, "{q}: {e}");
        assert!(e.message.contains(what), "{q}: {e}");
    }
    let p = ishikawa::PREFIX.len();
    let bad_ishikawa = [
        ("~c00_c1__u03", 1, "'~'"),
        ("c0!_c1__u03", 3, "unknown field"),
        ("70_c1__u03", 1, "code 7"),
        (&format!("{}_c1__u03", "1".repeat(40)), 40, "at most 39"),
        ("c00_c__u03", 5, "needs a pair"),
        ("c00_a0__u03", 5, "garbage steps"),
        ("c00_!1__u03", 5, "unknown pair"),
        ("c00_cZ__u03", 6, "placement"),
        ("c00_c1__z03", 9, "goal kind"),
        ("c00_c1__u93", 10, "goal colour"),
        ("c00_c1__u0!", 11, "goal value"),
        ("c00_c1__u0", 9, "3 characters"),
        ("c00_c1__I63", 9, "garbage"),
    ];
    for (u, pos, what) in bad_ishikawa {
        let e = ishikawa::parse(&format!("{}{u}", ishikawa::PREFIX)).unwrap_err();
        assert_eq!(e.position, p + pos, "{u}: {e}");
        assert!(e.message.contains(what), "{u}: {e}");
    }
    assert!(ishikawa::parse("https://example.com/?u03").is_err());
    assert!(ishikawa::parse(&format!("{}c00_c1u03", ishikawa::PREFIX)).unwrap_err().message.contains("'__'"));
}

#[test]
fn exports_that_cannot_be_written_fail_clearly() {
    let mut p = Puzzle::default();
    p.field.set(0, 0, Some(Puyo::Hard));
    assert!(ishikawa::write(&p).unwrap_err().message.contains("hard garbage"));
    let p = Puzzle { steps: vec![Step::Garbage([1; 6])], ..Puzzle::default() };
    assert!(ishikawa::write(&p).unwrap_err().message.contains("garbage steps"));
    let big = goal(GoalKind::AccumCount, GoalColor::All, 64, Operator::Exact, None);
    assert!(ishikawa::write(&Puzzle { goal: big, ..Puzzle::default() }).unwrap_err().message.contains("63"));
    let cc = goal(GoalKind::Count, GoalColor::All, 6, Operator::Exact, Some(GoalColor::All));
    assert!(ishikawa::write(&Puzzle { goal: cc, ..Puzzle::default() }).unwrap_err().message.contains("clear colour"));
}

#[test]
fn colourless_kinds_normalise_to_all() {
    let p = pon2::parse("field=0_&steps&goal=0_2_5_0_").unwrap();
    assert_eq!(p.goal.main.unwrap().color, GoalColor::All);
}

fn arb_cell(hard: bool) -> impl Strategy<Value = Option<Puyo>> {
    let n: usize = if hard { 8 } else { 7 };
    (0..n).prop_map(|i| if i == 0 { None } else { Some(Puyo::ALL[i - 1]) })
}

fn arb_pair() -> impl Strategy<Value = Step> {
    (0..5usize, 0..5usize).prop_map(|(a, c)| Step::Pair(Pair::new(Puyo::color(a), Puyo::color(c))))
}

fn arb_goal_color() -> impl Strategy<Value = GoalColor> {
    (0..8usize).prop_map(|i| GoalColor::from_index(i).unwrap())
}

/// Any valid goal; `ishikawa` restricts to what that format can hold.
fn arb_goal(ishikawa: bool) -> impl Strategy<Value = Goal> {
    let max: u32 = if ishikawa { 63 } else { 500 };
    (0..7usize, arb_goal_color(), 0..=max, any::<bool>(), proptest::option::of(arb_goal_color()), any::<bool>())
        .prop_map(move |(k, c, value, at_least, clear, has_main)| {
            let kind = GoalKind::ALL[k];
            let mut color = if kind.has_color() { c } else { GoalColor::All };
            if matches!(kind, GoalKind::Place | GoalKind::Connection) && color == GoalColor::Garbage {
                color = GoalColor::Colored;
            }
            let operator = if at_least { Operator::AtLeast } else { Operator::Exact };
            let main = has_main.then_some(MainGoal { kind, color, value, operator });
            let clear = if ishikawa && main.is_some_and(|m| m.kind != GoalKind::Chain) { None } else { clear };
            Goal { main, clear }
        })
}

fn arb_puzzle(ishikawa: bool) -> impl Strategy<Value = Puzzle> {
    let step = prop_oneof![arb_pair(), proptest::array::uniform6(0..=3u8).prop_map(Step::Garbage),];
    let steps = if ishikawa {
        proptest::collection::vec(arb_pair(), 0..8).boxed()
    } else {
        proptest::collection::vec(step, 0..8).boxed()
    };
    (proptest::collection::vec(arb_cell(!ishikawa), HEIGHT * WIDTH), 0..=HEIGHT * WIDTH, steps, arb_goal(ishikawa))
        .prop_map(|(cells, empty_top, steps, goal)| {
            let mut field = Field::default();
            for (k, c) in cells.into_iter().enumerate().skip(empty_top) {
                field.set(k % WIDTH, HEIGHT - 1 - k / WIDTH, c);
            }
            Puzzle { field, steps, goal }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(256)))]

    #[test]
    fn pon2_round_trips(p in arb_puzzle(false)) {
        let q = pon2::write(&p);
        prop_assert_eq!(pon2::parse(&q).unwrap(), p.clone());
        prop_assert_eq!(parse_any(&q).unwrap(), p);
    }

    #[test]
    fn ishikawa_round_trips_and_crosses_formats(p in arb_puzzle(true)) {
        let u = ishikawa::write(&p).unwrap();
        prop_assert_eq!(ishikawa::parse(&u).unwrap(), p.clone());
        let via_pon2 = pon2::parse(&pon2::write(&p)).unwrap();
        prop_assert_eq!(ishikawa::write(&via_pon2).unwrap(), u.clone());
        prop_assert_eq!(parse_any(&u).unwrap(), p);
    }

    #[test]
    fn malformed_pon2_never_panics(s in "(field=|steps=|goal=|&|[0-9_.rgbyphoRC~é]){0,40}") {
        let _ = pon2::parse(&s);
    }

    #[test]
    fn malformed_ishikawa_never_panics(s in "[0-9a-zA-Z_.~é!-]{0,50}") {
        let _ = ishikawa::parse(&format!("{}{s}", ishikawa::PREFIX));
    }

    #[test]
    fn mutated_real_queries_never_panic(i in 0usize..40, at in 0usize..80, ch in any::<char>()) {
        let q = "field=0_b....brrr.bbbbbrrr&steps=yrbr&goal=0_0_4_0_";
        let mut chars: Vec<char> = q.chars().collect();
        let at = at % chars.len();
        if i % 2 == 0 { chars[at] = ch } else { chars.insert(at, ch) }
        let s: String = chars.into_iter().collect();
        let _ = pon2::parse(&s);
        let _ = ishikawa::parse(&format!("{}{}", ishikawa::PREFIX, s));
    }
}
