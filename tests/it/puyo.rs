//! Puyo whole-program tests: experiments are deterministic whatever the thread count, shards
//! merge to the whole run, bad input is an error (not a panic), templates ship complete.

use asobi::games::puyo::ai::template::load_group;
use asobi::games::puyo::ai::{AiKind, AiParams, Extension, labeling::CompileOptions};
use asobi::games::puyo::experiment::{Build, Endless, Traced, VersusExp};
use asobi::games::puyo::rules::GarbageRule;
use asobi::games::puyo::{MERGERS, benches, cli};
use asobi::lab::runner::{Experiment, Shard, merge, result_json, run_records};
use clap::Parser;
use serde_json::{Map, Value};

fn run<E: Experiment>(exp: &E, threads: u64, shard: Shard) -> Value {
    let recs = run_records(exp, 7, shard, Some(threads), &indicatif::ProgressBar::hidden()).unwrap().unwrap();
    result_json(exp, 7, shard, &recs)
}

/// Result without the timing fields, which are measured, not computed.
fn untimed(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        m.remove("ms_per_move");
        if let Some(Value::Array(recs)) = m.get_mut("records") {
            for r in recs {
                if let Some(Value::Object(o)) = r.get_mut(1) {
                    o.remove("ms");
                }
            }
        }
    }
    v
}

fn quick_params() -> AiParams {
    let mut p = AiParams::default();
    p.template.depth = 1;
    p.potential.depth = 2;
    p
}

/// Two quick potential maximizers, two games.
fn quick_versus(garbage: GarbageRule) -> VersusExp {
    let (p1, p2) = (AiKind::Potential, AiKind::Potential);
    VersusExp {
        p1,
        p2,
        params: [quick_params(), quick_params()],
        games: 2,
        max_ticks: 300,
        garbage,
        link_ticks: 1,
        colors: 4,
        alternate_seats: false,
    }
}

#[derive(Parser)]
struct Top {
    #[command(subcommand)]
    cmd: cli::Command,
}

/// `asobi puyo ARGS` parsed.
fn parse(args: &[&str]) -> Result<cli::Command, clap::Error> {
    Top::try_parse_from(std::iter::once("puyo").chain(args.iter().copied())).map(|top| top.cmd)
}

#[test]
fn endless_is_thread_independent_and_shards_merge() {
    let exp =
        Endless { ai: AiKind::Potential, params: quick_params(), games: 6, max_moves: 40, colors: 4, hindsight: false };
    let whole = untimed(run(&exp, 1, Shard::WHOLE));
    assert_eq!(whole, untimed(run(&exp, 2, Shard::WHOLE)));
    let files: Vec<(String, Map<String, Value>)> = (0..2)
        .map(|i| {
            let Value::Object(m) = run(&exp, 1, Shard { index: i, count: 2 }) else { unreachable!() };
            (format!("s{i}.json"), m)
        })
        .collect();
    assert_eq!(untimed(merge::<Endless>(&files).unwrap()), whole);
    let fields = ["games", "mean_chain", "ci95_chain", "mean_attack", "ci95_attack", "mean_fire_move", "ms_per_move"];
    let Value::Object(m) = run(&exp, 1, Shard::WHOLE) else { unreachable!() };
    assert!(fields.iter().all(|f| m.contains_key(*f)), "{m:?}");
}

/// asobi's builder samples unseen pairs from a seed of the position, so its games are
/// reproducible whatever the thread count.
#[test]
fn asobi_endless_is_thread_independent() {
    let mut params = quick_params();
    (params.builder.beam, params.builder.samples, params.builder.unseen_beam) = (8, 2, 4);
    let exp = Endless { ai: AiKind::Asobi, params, games: 2, max_moves: 30, colors: 4, hindsight: false };
    assert_eq!(untimed(run(&exp, 1, Shard::WHOLE)), untimed(run(&exp, 2, Shard::WHOLE)));
}

#[test]
fn build_and_versus_report_the_contract_fields() {
    let build = Build { params: quick_params(), trials: 2, max_moves: 30, colors: 4 };
    let Value::Object(m) = run(&build, 1, Shard::WHOLE) else { unreachable!() };
    for f in [
        "trials",
        "completed",
        "mean_moves",
        "ci95_moves",
        "median_moves",
        "over_30_share",
        "ms_per_move",
        "mean_fire_moves",
        "jammed",
        "mean_moves_jam_free",
    ] {
        assert!(m.contains_key(f), "{f}");
    }
    let vs = quick_versus(GarbageRule::Tsu);
    let Value::Object(m) = run(&vs, 1, Shard::WHOLE) else { unreachable!() };
    for f in
        ["games", "p1_wins", "p2_wins", "draws", "p1_win_rate", "ci95", "chi2", "elo_diff", "won_by_first_attacker"]
    {
        assert!(m.contains_key(f), "{f}");
    }
    assert_eq!(m["games"], 2);
    assert_eq!(MERGERS.len(), 3);
}

/// A build trial names the template it completed (empty when it did not complete), so runs
/// with both groups can tell which group each trial built, and gives the field's score after
/// each move until then, so groups built alone can be compared at any move.
#[test]
fn build_records_name_the_completed_template_and_score_each_move() {
    let params = AiParams { group: "chains8".into(), ..AiParams::default() };
    let completion = params.template.completion;
    let build = Build { params, trials: 3, max_moves: 60, colors: 4 };
    let group = load_group("chains8", &CompileOptions::default()).unwrap();
    let records: Vec<_> = (0..3).map(|i| build.play(7, i)).collect();
    assert!(records.iter().any(|r| r.completed), "{records:?}");
    for r in records {
        assert_eq!(r.completed, group.iter().any(|t| t.name == r.template), "{r:?}");
        assert_eq!(r.scores.len(), r.moves as usize, "{r:?}");
        let last = *r.scores.last().unwrap();
        assert_eq!(r.completed, last >= completion, "{r:?}");
        assert!(r.scores[..r.scores.len() - 1].iter().all(|&s| s < completion), "{r:?}");
    }
    let cut_short = Build { max_moves: 5, ..build }.play(7, 0);
    assert!(!cut_short.completed && cut_short.template.is_empty(), "{cut_short:?}");
    assert_eq!(cut_short.scores.len(), 5);
}

#[test]
fn bad_group_is_an_error_not_a_panic() {
    let bad_group = parse(&["build", "--templates", "nope", "--trials", "1", "--quiet"]).unwrap();
    let err = format!("{:#}", cli::run(bad_group).unwrap_err());
    assert!(err.contains("nope") && err.contains("unknown template group"), "{err}");
    let missing_file = parse(&["build", "--templates", "mine/v01.ron", "--trials", "1", "--quiet"]).unwrap();
    let err = format!("{:#}", cli::run(missing_file).unwrap_err());
    assert!(err.contains("mine/v01.ron") && !err.contains("unknown template group"), "{err}");
    assert_eq!(err.matches("mine/v01.ron").count(), 1, "the file is named once: {err}");
    assert!(parse(&["build", "--depth", "4"]).is_err());
    assert!(parse(&["build", "--weight-power", "9"]).is_err());
    assert!(parse(&["versus", "--p1", "potential", "--p2", "asobi", "--garbage", "nope"]).is_err());
    assert!(parse(&["build", "--weight-power", "x"]).is_err());
    assert!(parse(&["endless", "--virtual-drop", "3"]).is_err());
    assert!(parse(&["versus", "--p1", "potential", "--p2", "asobi", "--fire-empty", "73"]).is_err());
    assert!(parse(&["versus", "--p1", "potential", "--p2", "asobi", "--link-ticks", "11"]).is_err());
    let Ok(cli::Command::Versus(a)) = parse(&["versus", "--p1", "potential", "--p2", "asobi", "--link-ticks", "0"])
    else {
        panic!("--link-ticks not parsed")
    };
    assert_eq!(a.link_ticks, 0);
    let asobi_hindsight = parse(&["endless", "--ai", "asobi", "--hindsight"]).unwrap();
    let err = cli::run(asobi_hindsight).unwrap_err().to_string();
    assert!(err.contains("--hindsight"), "{err}");
    // Potential maximization's options reach the players' parameters.
    let Ok(cli::Command::Endless(a)) =
        parse(&["endless", "--fire-empty", "18", "--danger-empty", "8", "--virtual-drop", "0.8"])
    else {
        panic!("endless options not parsed")
    };
    let mut params = AiParams::default();
    a.potential.apply(&mut params);
    let p = params.potential;
    assert_eq!((p.fire_empty, p.danger_empty, p.virtual_drop), (18, 8, 0.8));
    assert!(parse(&["endless", "--chance", "65"]).is_err());
    assert!(parse(&["endless", "--extension", "nope"]).is_err());
    let Ok(cli::Command::Endless(a)) = parse(&["endless", "--extension", "builder"]) else {
        panic!("--extension not parsed")
    };
    assert_eq!(a.rules.extension, Extension::Builder);
    assert!(parse(&["build", "--weight-power", "2", "--chance", "4"]).is_ok());
    assert!(load_group("chains8", &CompileOptions::default()).unwrap().len() == 22);
    assert_eq!(benches().len(), 3);
}

/// A folder of the user's own templates is a group: `puyo templates --out` creates it, the
/// experiments load every `.ron` file in it (or one file given alone), and a malformed file is
/// named with its line.
#[test]
fn a_folder_of_templates_is_a_group() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = root.join("new").join("sandwich");
    let dir_arg = dir.to_str().unwrap();
    let generate = ["templates", "--style", "sandwich", "--count", "2", "--seed", "3", "--out", dir_arg];
    cli::run(parse(&generate).unwrap()).unwrap();
    assert_eq!(load_group(dir_arg, &CompileOptions::default()).unwrap().len(), 2);
    let build = ["build", "--templates", dir_arg, "--depth", "1", "--trials", "1", "--quiet"];
    cli::run(parse(&build).unwrap()).unwrap();
    let one_file = dir.join("v02.ron");
    let one = load_group(one_file.to_str().unwrap(), &CompileOptions::default()).unwrap();
    assert_eq!(one.len(), 1, "a single file is a group of one");
    std::fs::write(dir.join("v03.ron"), "(\n    name: \"broken\",\n    chain: x,\n)\n").unwrap();
    let err = load_group(dir_arg, &CompileOptions::default()).unwrap_err().to_string();
    assert!(err.contains("v03.ron:3"), "{err}");
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = load_group(empty.to_str().unwrap(), &CompileOptions::default()).unwrap_err().to_string();
    assert!(err.contains("no .ron"), "{err}");
}

/// `puyo templates --turn-backs FILE` writes every relabeling of the file's turn-back as a
/// group (the shipped sandwich family is one of them) keeping the file's overrides, and names a
/// file that is no chain.
#[test]
fn turn_backs_of_a_template_file_are_a_group() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let file = root.join("base.ron");
    // A manual weight override travels to every relabeling.
    let base = include_str!("../../levels/puyo/sandwich8/v03.ron")
        .replace("chain: 8,", "chain: 8,\n    weights: [('A', 700)],");
    std::fs::write(&file, base).unwrap();
    let out = root.join("family");
    let args = ["templates", "--turn-backs", file.to_str().unwrap(), "--out", out.to_str().unwrap()];
    cli::run(parse(&args).unwrap()).unwrap();
    let family = load_group(out.to_str().unwrap(), &CompileOptions::default()).unwrap();
    let shipped = load_group("sandwich8", &CompileOptions::default()).unwrap();
    assert!(family.len() > shipped.len(), "{} relabelings", family.len());
    assert!(family.iter().all(|t| t.weights.contains(&('A', 700))));
    for t in &shipped {
        assert!(family.iter().any(|f| f.labels == t.labels), "{} is not among them", t.name);
    }
    std::fs::write(&file, "(\n    name: \"flat\",\n    chain: 0,\n    table: \"AB....\",\n)\n").unwrap();
    let err = cli::run(parse(&args).unwrap()).unwrap_err().to_string();
    assert!(err.contains("base.ron") && err.contains("fewer than 3 links"), "{err}");
}

/// E2 reports when the combined player's template phase reaches the switch score and when its
/// formation first fires its chain (never before the score).
#[test]
fn endless_reports_when_the_formation_is_ready() {
    let mut params = AiParams::default();
    params.potential.depth = 2;
    let exp = Endless { ai: AiKind::Combined, params, games: 3, max_moves: 60, colors: 4, hindsight: false };
    let records: Vec<_> = (0..3).map(|i| exp.play(1, i)).collect();
    assert!(records.iter().any(|r| r.formation_move > 0), "{records:?}");
    for r in &records {
        assert!(r.ready_move == 0 || (r.formation_move > 0 && r.ready_move >= r.formation_move), "{r:?}");
    }
    let Value::Object(m) = run(&exp, 1, Shard::WHOLE) else { unreachable!() };
    assert!(["mean_formation_move", "mean_ready_move", "ready_share"].iter().all(|f| m.contains_key(*f)), "{m:?}");
}

/// `--hindsight` plays the same building moves without special case (a), for at least as long,
/// so each game's largest firable chain is at least the chain the player fired.
#[test]
fn hindsight_bounds_the_fired_chain() {
    for ai in [AiKind::Potential, AiKind::Combined] {
        let mut params = AiParams::default();
        params.potential.depth = 2;
        let fired = Endless { ai, params, games: 4, max_moves: 80, colors: 4, hindsight: false };
        let bound = Endless { hindsight: true, ..fired.clone() };
        let mut longer = 0;
        for i in 0..4 {
            let (f, b) = (fired.play(3, i), bound.play(3, i));
            assert!(b.attack >= f.attack, "{ai:?} game {i}: {f:?} {b:?}");
            assert!(b.moves >= f.moves, "{ai:?} game {i}: {f:?} {b:?}");
            longer += u32::from(b.attack > f.attack);
        }
        assert!(longer > 0, "{ai:?}: the bound never exceeds the fired chain");
    }
}

/// `--trace` replays exactly the batch's game: one traced move per move played, ending with the
/// chain the record keeps; an index outside the batch is an error.
#[test]
fn a_traced_game_is_the_batch_game() {
    let exp =
        Endless { ai: AiKind::Potential, params: quick_params(), games: 4, max_moves: 80, colors: 4, hindsight: false };
    let mut moves = Vec::new();
    let traced = exp.play_traced(1, 2, &mut |m| moves.push((m.number, m.chain.links, m.field.count())));
    let played = exp.play(1, 2);
    assert_eq!((traced.chain, traced.moves, traced.fire_move), (played.chain, played.moves, played.fire_move));
    assert_eq!(moves.len() as u32, played.moves);
    assert!(moves.iter().enumerate().all(|(i, m)| m.0 == i as u32 + 1));
    assert_eq!(moves.last().unwrap().1, played.chain, "{moves:?}");

    // Versus: both players' moves, each with the other's field; the same game as the batch's.
    let vs = quick_versus(GarbageRule::Paper);
    let mut per_side = [0u32; 2];
    let traced = vs.play_traced(1, 1, &mut |m| {
        per_side[m.side] += 1;
        assert_eq!(m.number, per_side[m.side]);
        assert!(m.opponent.is_some());
    });
    let played = vs.play(1, 1);
    assert_eq!((traced.outcome, traced.ticks), (played.outcome, played.ticks));
    assert!(per_side.iter().all(|&n| n > 5), "{per_side:?}");

    let outside = ["build", "--depth", "1", "--trials", "3", "--trace", "3"];
    let err = cli::run(parse(&outside).unwrap()).unwrap_err().to_string();
    assert!(err.contains("--trace 3"), "{err}");
    assert!(parse(&["endless", "--trace", "0", "--json"]).is_err());
}

/// With alternating seats, even games are the plain run's and odd games are the plain run's
/// with the two players' boards swapped, recorded by player.
#[test]
fn alternating_seats_swap_the_boards_in_odd_games() {
    use asobi::games::puyo::experiment::VersusRecord;
    use asobi::games::puyo::rules::Outcome;
    let mut template_player = quick_params();
    template_player.switch = 0.5;
    let plain = VersusExp {
        p1: AiKind::Combined,
        p2: AiKind::Potential,
        params: [template_player, quick_params()],
        games: 4,
        ..quick_versus(GarbageRule::Paper)
    };
    let alternating = VersusExp { alternate_seats: true, ..plain.clone() };
    let swapped = VersusExp {
        p1: plain.p2,
        p2: plain.p1,
        params: [plain.params[1].clone(), plain.params[0].clone()],
        ..plain.clone()
    };
    let by_player = |r: &VersusRecord| (r.outcome, r.ticks, r.moves, r.template_moves, r.first_attack);
    let mirrored = |r: VersusRecord| VersusRecord {
        outcome: match r.outcome {
            Outcome::Win(side) => Outcome::Win(1 - side),
            draw => draw,
        },
        moves: [r.moves[1], r.moves[0]],
        template_moves: [r.template_moves[1], r.template_moves[0]],
        first_attack: [r.first_attack[1], r.first_attack[0]],
        ..r
    };
    let mut odd_games_change = false;
    for index in 0..4 {
        let game = alternating.play(7, index);
        let want = if index % 2 == 0 { plain.play(7, index) } else { mirrored(swapped.play(7, index)) };
        assert_eq!(by_player(&game), by_player(&want), "game {index}");
        odd_games_change |= index % 2 == 1 && by_player(&game) != by_player(&plain.play(7, index));
        assert!(game.template_moves[0] > 0 && game.template_moves[1] == 0, "game {index}: player 1 plays templates");
    }
    assert!(odd_games_change, "swapping the boards changes the odd games");
}
