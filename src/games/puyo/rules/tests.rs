//! Engine tests: hand-made chains, edge rules, and property tests against slow references.

use proptest::prelude::*;
use rand::SeedableRng;

use super::*;
use crate::lab::rng::GameRng;

fn field(text: &str) -> Field {
    Field::from_ascii(text).expect("valid test field")
}

#[test]
fn sandwich_three_chain_reports_each_link() {
    // The spec's sandwich sketch (§6): A pops, B lands on B, then C on C.
    let mut f = field(
        "
        GG....
        BB....
        RR....
        RR....
        BB....
        GG....",
    );
    let (chain, links) = f.resolve_links();
    assert_eq!(chain.links, 3);
    let colors: Vec<Vec<(Puyo, u8)>> = links.iter().map(|l| l.groups().to_vec()).collect();
    assert_eq!(colors, [vec![(Puyo::Red, 4)], vec![(Puyo::Blue, 4)], vec![(Puyo::Green, 4)]]);
    assert_eq!((chain.popped, chain.attack(), chain.score), (12, 18, 40 + 320 + 640));
    assert_eq!(f.count(), 0);
}

#[test]
fn stairs_three_chain() {
    // The spec's stairs sketch (§6).
    let mut f = field(
        "
        G.....
        BG....
        BBG...
        RRG...
        RRB...",
    );
    let (chain, links) = f.resolve_links();
    assert_eq!(chain.links, 3, "{f}");
    assert!(links.iter().all(|l| l.puyos() == 4 && l.colors() == 1));
}

#[test]
fn trigger_pops_and_clears_adjacent_garbage() {
    let mut f = field(
        "
        .O....
        .O....
        .O....
        RO....
        RO....
        RO....",
    );
    let chain = f.play(Pair::new(Puyo::Red, Puyo::Red), Placement { col: 0, rot: Rotation::Up }).unwrap();
    assert_eq!((chain.links, chain.popped, chain.garbage), (1, 5, 5));
    assert_eq!(f.count(), 1);
    assert_eq!(f.get(1, 0), Some(Puyo::Garbage));
    assert_eq!(chain.attack(), 1, "3·1·0 + 1·(5−4)");
}

#[test]
fn garbage_never_pops_by_itself() {
    let mut f = field("OOOO..\nOOOO..");
    assert_eq!(f.resolve().links, 0);
    assert_eq!(f.count(), 8);
}

#[test]
fn hard_garbage_takes_two_hits() {
    let mut f = field(
        "
        H.....
        R.....
        R.....
        R.....",
    );
    let chain = f.play(Pair::new(Puyo::Red, Puyo::Blue), Placement { col: 1, rot: Rotation::Up }).unwrap();
    assert_eq!(chain.links, 1);
    assert_eq!(f.get(0, 0), Some(Puyo::Garbage), "{f}");
    assert_eq!(chain.garbage, 0);
}

#[test]
fn hidden_row_does_not_pop_until_it_falls() {
    // Column 1 full to row 12 with alternating colors, a red in row 13, reds in column 2 rows
    // 10-12: the hidden red does not join them.
    let mut f = Field::new();
    for row in 0..12 {
        f.set(0, row, Some(if row % 2 == 0 { Puyo::Blue } else { Puyo::Green }));
    }
    f.set(0, 12, Some(Puyo::Red));
    for row in 0..9 {
        f.set(1, row, Some(if row % 2 == 0 { Puyo::Yellow } else { Puyo::Purple }));
    }
    for row in 9..12 {
        f.set(1, row, Some(Puyo::Red));
    }
    assert_eq!(f.resolve().links, 0, "{f}");
}

#[test]
fn game_over_is_column_three_row_twelve() {
    let mut f = Field::new();
    for row in 0..11 {
        f.set(2, row, Some(Puyo::ALL[row % 4]));
    }
    assert!(!f.is_dead());
    f.set(2, 11, Some(Puyo::Purple));
    assert!(f.is_dead());
}

#[test]
fn placements_above_row_thirteen_are_illegal() {
    let mut f = Field::new();
    for row in 0..12 {
        f.set(0, row, Some(Puyo::ALL[row % 4]));
    }
    assert!(!f.can_place(Placement { col: 0, rot: Rotation::Up }));
    assert!(f.can_place(Placement { col: 0, rot: Rotation::Right }));
    let double = Pair::new(Puyo::Red, Puyo::Red);
    assert_eq!(Field::new().legal_placements(double).count(), 11);
    assert_eq!(f.legal_placements(Pair::new(Puyo::Red, Puyo::Blue)).count(), 20);
}

#[test]
fn garbage_drop_follows_the_spec() {
    let mut rng = GameRng::seed_from_u64(3);
    let mut f = Field::new();
    assert_eq!(f.drop_garbage(40, &mut rng), 30);
    assert!((0..WIDTH).all(|c| f.height(c) == 5));
    let mut f = Field::new();
    f.drop_garbage(9, &mut rng);
    let heights: Vec<usize> = (0..WIDTH).map(|c| f.height(c)).collect();
    assert_eq!(heights.iter().sum::<usize>(), 9);
    assert!(heights.iter().all(|&h| h == 1 || h == 2));
    // What does not fit in 13 rows is discarded.
    let mut f = Field::new();
    f.drop_garbage_columns([0, 0, 20, 0, 0, 1]);
    assert_eq!((0..WIDTH).map(|c| f.height(c)).collect::<Vec<_>>(), [0, 0, HEIGHT, 0, 0, 1]);
    assert_eq!(f.count(), HEIGHT as u32 + 1);
}

#[test]
fn ascii_round_trip_and_errors() {
    let text =
        "......\n......\n......\n......\n......\n......\n......\n......\n......\n......\n..H...\nRGBYPO\nOPYBGR\n";
    assert_eq!(field(text).to_ascii(), text);
    let err = Field::from_ascii("RGB\n").unwrap_err();
    assert_eq!((err.line, err.column), (1, 1));
    let err = Field::from_ascii("......\n..x...").unwrap_err();
    assert_eq!((err.line, err.column), (2, 3));
    let err = Field::from_ascii(&"......\n".repeat(14)).unwrap_err();
    assert_eq!((err.line, err.column), (1, 1), "the top row does not fit");
    let err = Field::from_ascii(&format!("\n{}", "......\n".repeat(15))).unwrap_err();
    assert_eq!(err.line, 3, "blank lines are counted; the lowest row that does not fit is named");
}

#[test]
fn a_field_prints_as_its_text() {
    let f = field("H.....\nRO....");
    assert_eq!(f.to_string(), f.to_ascii());
    assert_eq!(format!("{f:?}"), format!("Field(\n{})", f.to_ascii()));
}

#[test]
fn garbage_is_occupied_but_not_colored() {
    let f = field("H.....\nRO..P.");
    assert_eq!(f.colored(), Bits::cell(0, 0) | Bits::cell(4, 0));
    assert_eq!(f.occupied(), f.colored() | Bits::cell(1, 0) | Bits::cell(0, 1));
}

/// Slow reference: heights by scanning cells.
fn slow_can_place(f: &Field, p: Placement) -> bool {
    let h = |c: usize| (0..HEIGHT).filter(|&r| f.get(c, r).is_some()).count();
    let (a, c) = (p.col as usize, p.child_col());
    if a == c { h(a) + 2 <= HEIGHT } else { h(a) < HEIGHT && h(c) < HEIGHT }
}

/// Slow reference: does any visible group of >= 4 exist?
fn has_poppable_group(f: &Field) -> bool {
    Puyo::ALL[..MAX_COLORS].iter().any(|&c| {
        let plane = f.plane(c) & Bits::VISIBLE;
        plane.cells().any(|(col, row)| Bits::flood(Bits::cell(col, row), plane).count() >= 4)
    })
}

/// A settled random field from random plays with the given seed.
fn random_field(seed: u64, moves: usize) -> (Field, GameRng) {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut f = Field::new();
    for _ in 0..moves {
        let pair = Pair::random(&mut rng, 4);
        let legal: Vec<Placement> = f.legal_placements(pair).collect();
        if legal.is_empty() || f.is_dead() {
            break;
        }
        let p = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
        f.play(pair, p);
    }
    (f, rng)
}

/// A field as a grid of cells, `grid[col][row]`.
type Grid = [[Option<Puyo>; HEIGHT]; WIDTH];

/// The cells of rows 1-12, where puyos pop.
fn visible_cells() -> impl Iterator<Item = (usize, usize)> {
    (0..WIDTH).flat_map(|col| (0..VISIBLE_HEIGHT).map(move |row| (col, row)))
}

/// The orthogonal neighbours of a cell within rows 1-12.
fn visible_neighbours(col: usize, row: usize) -> impl Iterator<Item = (usize, usize)> {
    [(col.wrapping_sub(1), row), (col + 1, row), (col, row.wrapping_sub(1)), (col, row + 1)]
        .into_iter()
        .filter(|&(c, r)| c < WIDTH && r < VISIBLE_HEIGHT)
}

/// Size of the group of same-kind cells within rows 1-12 around a visible cell.
fn group_size(grid: &Grid, col: usize, row: usize) -> usize {
    let mut group = vec![(col, row)];
    let mut next = 0;
    while let Some(&(c, r)) = group.get(next) {
        for n in visible_neighbours(c, r) {
            if grid[n.0][n.1] == grid[col][row] && !group.contains(&n) {
                group.push(n);
            }
        }
        next += 1;
    }
    group.len()
}

/// Slow reference of the resolution rules (spec §2) on a grid: every column falls, every
/// colored group of 4 or more within rows 1-12 pops, garbage next to a popped puyo in those
/// rows is cleared (hard garbage becomes garbage), and again until nothing pops. Returns the
/// field, the links, the colored puyos popped and the garbage cleared.
fn slow_resolve(f: &Field) -> (Field, u32, u32, u32) {
    let mut grid: Grid = std::array::from_fn(|c| std::array::from_fn(|r| f.get(c, r)));
    let (mut links, mut popped, mut cleared) = (0, 0, 0);
    loop {
        for column in &mut grid {
            let stack: Vec<Puyo> = column.iter().flatten().copied().collect();
            *column = std::array::from_fn(|r| stack.get(r).copied());
        }
        let popping: Vec<(usize, usize)> = visible_cells()
            .filter(|&(c, r)| grid[c][r].is_some_and(Puyo::is_color) && group_size(&grid, c, r) >= 4)
            .collect();
        if popping.is_empty() {
            return (grid_field(&grid), links, popped, cleared);
        }
        let hit: Vec<(usize, usize)> = visible_cells()
            .filter(|&(c, r)| matches!(grid[c][r], Some(Puyo::Garbage | Puyo::Hard)))
            .filter(|&(c, r)| visible_neighbours(c, r).any(|n| popping.contains(&n)))
            .collect();
        links += 1;
        popped += popping.len() as u32;
        for (c, r) in popping {
            grid[c][r] = None;
        }
        for (c, r) in hit {
            if grid[c][r] == Some(Puyo::Hard) {
                grid[c][r] = Some(Puyo::Garbage);
            } else {
                grid[c][r] = None;
                cleared += 1;
            }
        }
    }
}

fn grid_field(grid: &Grid) -> Field {
    let mut f = Field::new();
    for (c, column) in grid.iter().enumerate() {
        for (r, &cell) in column.iter().enumerate() {
            f.set(c, r, cell);
        }
    }
    f
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(200)))]

    #[test]
    fn play_conserves_puyos_and_leaves_a_stable_field(seed in any::<u64>(), moves in 0usize..40) {
        let (f, mut rng) = random_field(seed, moves);
        let pair = Pair::random(&mut rng, 4);
        for &p in &Placement::ALL {
            let mut g = f;
            match g.play(pair, p) {
                None => prop_assert!(!f.can_place(p)),
                Some(chain) => {
                    prop_assert_eq!(f.count() + 2, g.count() + chain.popped + chain.garbage);
                    prop_assert!(g.is_settled());
                    prop_assert!(!has_poppable_group(&g));
                }
            }
        }
    }

    #[test]
    fn fast_resolution_equals_full_rescan(seed in any::<u64>(), moves in 0usize..40) {
        let (f, mut rng) = random_field(seed, moves);
        let pair = Pair::random(&mut rng, 4);
        for p in f.legal_placements(pair) {
            let (mut fast, mut slow) = (f, f);
            let a = fast.play(pair, p).unwrap();
            slow.place(pair, p).unwrap();
            let b = slow.resolve();
            prop_assert_eq!(a, b);
            prop_assert_eq!(fast, slow);
        }
    }

    /// Every placement on random fields with garbage (some of it hard) against the grid
    /// reference: the same field, links, popped puyos and cleared garbage.
    #[test]
    fn play_resolves_as_the_rules_say(seed in any::<u64>(), moves in 0usize..40, garbage in 0u32..20, hard in any::<u128>()) {
        let (mut f, mut rng) = random_field(seed, moves);
        f.drop_garbage(garbage, &mut rng);
        for (c, r) in f.plane(Puyo::Garbage).cells() {
            if hard >> (16 * c + r) & 1 == 1 {
                f.set(c, r, Some(Puyo::Hard));
            }
        }
        let pair = Pair::random(&mut rng, 4);
        for p in f.legal_placements(pair) {
            let mut played = f;
            let chain = played.play(pair, p).unwrap();
            let mut placed = f;
            placed.place(pair, p).unwrap();
            let (want, links, popped, cleared) = slow_resolve(&placed);
            prop_assert_eq!(played, want);
            prop_assert_eq!((chain.links, chain.popped, chain.garbage), (links, popped, cleared));
        }
    }

    #[test]
    fn legal_list_matches_rule_check(seed in any::<u64>(), moves in 0usize..60) {
        let (f, mut rng) = random_field(seed, moves);
        let pair = Pair::random(&mut rng, 4);
        let legal: Vec<Placement> = f.legal_placements(pair).collect();
        let expected: Vec<Placement> =
            Placement::for_pair(pair.is_double()).iter().copied().filter(|&p| slow_can_place(&f, p)).collect();
        prop_assert_eq!(legal, expected);
    }

    #[test]
    fn double_placements_cover_all_results(seed in any::<u64>(), moves in 0usize..30) {
        let (f, _) = random_field(seed, moves);
        let pair = Pair::new(Puyo::Green, Puyo::Green);
        for &p in &Placement::ALL {
            let (mut a, mut b) = (f, f);
            prop_assert_eq!(a.play(pair, p), b.play(pair, p.canonical_for_double()));
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn settle_removes_floating(cells in proptest::collection::vec((0usize..6, 0usize..13, 0usize..7), 0..40)) {
        let mut f = Field::new();
        for (c, r, k) in cells {
            f.set(c, r, Some(Puyo::ALL[k]));
        }
        let floating = f;
        f.settle();
        prop_assert!(f.is_settled());
        prop_assert_eq!(floating.is_settled(), f == floating, "settled exactly when settling moves nothing");
        for col in 0..WIDTH {
            let stack = |g: &Field| (0..HEIGHT).filter_map(|row| g.get(col, row)).collect::<Vec<_>>();
            prop_assert_eq!(stack(&f), stack(&floating), "column {} keeps its order", col);
        }
    }
}
