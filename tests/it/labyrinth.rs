//! Labyrinth as a whole: card privacy of observations, bots always legal, games always end,
//! the match experiment's JSON contract, determinism across threads and shards, presets.

use asobi::games::labyrinth::ai::BotKind;
use asobi::games::labyrinth::cli::load_params;
use asobi::games::labyrinth::experiment::{Match, play_game};
use asobi::games::labyrinth::level::Params;
use asobi::games::labyrinth::rules::{GameState, Player, Target};
use asobi::games::labyrinth::setup::new_game;
use asobi::lab::rng::game_rng;
use asobi::lab::runner::{Shard, merge, result_json, run_records};
use rand::Rng;
use serde_json::{Map, Value};

/// A position after `plies` random turns of a `players`-seat game.
fn scrambled(seed: u64, players: usize, plies: u32) -> GameState {
    let mut rng = game_rng(seed, 77);
    let mut g = new_game(players, None, &mut rng);
    let random = BotKind::Random.build(&Params::default());
    while g.plies < plies && !g.is_over() {
        let d = random.decide(&g.observe(g.current), &mut rng);
        g.apply(d.turn).unwrap();
    }
    g
}

/// The same game with the other seats' hidden cards dealt among them in reverse order.
fn with_other_hidden_cards(g: &GameState, seat: usize) -> GameState {
    let ps = g.players();
    let mut pool: Vec<u8> = (0..ps.len()).filter(|&s| s != seat).flat_map(|s| ps[s].hidden().to_vec()).collect();
    pool.reverse();
    let players = ps
        .iter()
        .enumerate()
        .map(|(s, p)| {
            let hidden: Vec<u8> = if s == seat { p.hidden().to_vec() } else { pool.drain(..p.cards_left()).collect() };
            let cards = [p.revealed(), &hidden].concat();
            Player::mid_game(p.home, p.pos, cards, p.revealed().len())
        })
        .collect();
    let mut h = GameState::new(g.board.clone(), players, g.current);
    h.last = g.last;
    h
}

#[test]
fn observations_hold_no_hidden_card_and_bots_ignore_them() {
    let params = Params::default();
    for seed in 0..6 {
        let g = scrambled(seed, 2 + (seed as usize % 3), 5 + seed as u32 * 3);
        let me = g.current;
        let h = with_other_hidden_cards(&g, me);
        let next = (me + 1) % g.players().len();
        assert_ne!(g.players()[next].hidden(), h.players()[next].hidden());
        let (a, b) = (g.observe(me), h.observe(me));
        assert_eq!(a, b, "an observation must not change with other seats' hidden cards");
        let text = serde_json::to_string(&a).unwrap();
        assert!(!text.contains("cards\""), "no card stack in an observation: {text}");
        for kind in BotKind::ALL {
            let bot = kind.build(&params);
            assert_eq!(bot.decide(&a, &mut game_rng(seed, 1)), bot.decide(&b, &mut game_rng(seed, 1)), "{kind}");
        }
        // The observer does see its own current card.
        let own = g.players()[me].current_card();
        assert_eq!(a.target, own.map_or(Target::Home, Target::Treasure));
    }
}

#[test]
fn bots_never_return_an_illegal_turn() {
    let params = Params::default();
    let mut rng = game_rng(5, 5);
    for kind in BotKind::ALL {
        let positions = match kind {
            BotKind::Random | BotKind::Saboteur | BotKind::BigBrain => 600,
            BotKind::Asobi => 60,
            _ => 150,
        };
        let bot = kind.build(&params);
        for i in 0..positions {
            let g = scrambled(rng.random(), 2 + i % 3, rng.random_range(0..80));
            if g.is_over() {
                continue;
            }
            let d = bot.decide(&g.observe(g.current), &mut game_rng(i as u64, 3));
            assert_eq!(g.check(d.turn), Ok(()), "{kind} chose {:?} ({})", d.turn, d.why);
            assert!(!d.why.is_empty());
        }
    }
}

#[test]
fn a_game_always_ends_with_a_win_or_a_recorded_draw() {
    let params = Params::default();
    let r = play_game(&[BotKind::Saboteur, BotKind::Saboteur], &params, Some(0), 25, 1, 0);
    assert_eq!((r.winner, r.rounds), (None, 25), "saboteurs never win: a draw at the cap");
    assert_eq!(r.turns, [25, 25]);
    let r = play_game(&[BotKind::BigBrain, BotKind::StaticTile], &params, Some(1), 300, 1, 1);
    let w = r.winner.expect("a real game ends") as usize;
    assert_eq!(r.cards_left[w], 0);
    assert_eq!(r.first, 1);
}

fn small_match(players: Vec<BotKind>) -> Match {
    Match { players, games: 6, alternate_first: true, max_rounds: 300, params: Params::default() }
}

/// Records without their wall-clock times.
fn outcome(v: &Value) -> Value {
    let mut v = v.clone();
    for k in ["ms_per_turn", "records"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn match_json_has_the_contract_fields_and_ignores_thread_count() {
    let exp = small_match(vec![BotKind::StaticTile, BotKind::BigBrain]);
    let hidden = indicatif::ProgressBar::hidden();
    let one = run_records(&exp, 9, Shard::WHOLE, Some(1), &hidden).unwrap().unwrap();
    let two = run_records(&exp, 9, Shard::WHOLE, Some(2), &hidden).unwrap().unwrap();
    let (a, b) = (result_json(&exp, 9, Shard::WHOLE, &one), result_json(&exp, 9, Shard::WHOLE, &two));
    assert_eq!(outcome(&a), outcome(&b));
    for f in [
        "games",
        "wins",
        "first_player_wins",
        "win_rate",
        "ci95",
        "chi2",
        "mean_turns",
        "mean_loser_cards",
        "ms_per_turn",
    ] {
        assert!(a.get(f).is_some(), "missing {f}: {a}");
    }
    assert_eq!(a["games"], 6);
    let wins = a["wins"].as_object().unwrap();
    assert_eq!(wins.len(), 2);
    let total: u64 = wins.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(total + a["draws"].as_u64().unwrap(), 6);
    assert!(a["ms_per_turn"]["big-brain"].as_f64().unwrap() >= 0.0);
    // --alternate-first: each bot moves first in half the games.
    assert_eq!(a["by_first"]["static-tile"]["games"], 3);
    assert_eq!(a["by_first"]["big-brain"]["games"], 3);
    let rate = a["win_rate"].as_f64().unwrap();
    let ci = a["ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
}

#[test]
fn merged_shards_equal_one_run() {
    let exp = small_match(vec![BotKind::Distance, BotKind::Random, BotKind::BigBrain]);
    let hidden = indicatif::ProgressBar::hidden();
    let whole = run_records(&exp, 4, Shard::WHOLE, Some(2), &hidden).unwrap().unwrap();
    let whole = result_json(&exp, 4, Shard::WHOLE, &whole);
    let files: Vec<(String, Map<String, Value>)> = (0..2)
        .map(|i| {
            let shard = Shard { index: i, count: 2 };
            let recs = run_records(&exp, 4, shard, Some(1), &hidden).unwrap().unwrap();
            let Value::Object(m) = result_json(&exp, 4, shard, &recs) else { unreachable!() };
            (format!("s{i}.json"), m)
        })
        .collect();
    assert_eq!(outcome(&merge::<Match>(&files).unwrap()), outcome(&whole));
}

#[test]
fn presets_load_and_bad_ones_say_where() {
    assert_eq!(load_params(Some("thesis")).unwrap(), Params::default(), "the bundled preset is the thesis");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let good = dir.join("good.ron");
    std::fs::write(&good, "(static_tile: (target: 0, base: 150, distance: 10, wall: 20, fixed: 9, two_dir: 0, mine: 0, opp: 0, opp_home: 0, threshold: None, offboard_distance: 12))").unwrap();
    let p = load_params(Some(good.to_str().unwrap())).unwrap();
    assert_eq!(p.static_tile.fixed, 9.0);
    assert_eq!(p.distance, Params::default().distance);
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(\n  big_brain: (budget: -3),\n)").unwrap();
    let err = load_params(Some(bad.to_str().unwrap())).unwrap_err().to_string();
    assert!(err.contains("bad.ron:2:"), "{err}");
    assert!(load_params(Some("/no/such/file.ron")).is_err());
    let err = load_params(Some("thesys")).unwrap_err().to_string();
    assert!(err.contains("'thesys'") && err.contains("big-brain-full-state, thesis"), "{err}");
    assert!("nobody".parse::<BotKind>().unwrap_err().contains("big-brain"));
}

/// `match --trace` prints a header, a line per turn and the game's record, the batch's game;
/// an index outside the batch or with `--json` is an error.
#[test]
fn a_traced_match_prints_each_turn_and_the_batch_record() {
    let base =
        ["labyrinth", "match", "--players", "saboteur,random", "--games", "3", "--seed", "6", "--max-rounds", "40"];
    let traced = crate::cli::asobi(&[&base[..], &["--trace", "2"]].concat());
    assert!(traced.status.success(), "{}", String::from_utf8_lossy(&traced.stderr));
    let text = String::from_utf8(traced.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "labyrinth game 2, seed 6: saboteur vs random");
    let turns = lines.iter().filter(|l| l.contains(" rot ") && l.contains(" nodes")).count();
    let mut record: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    let batch = crate::cli::asobi(&[&base[..], &["--json", "--records", "--quiet"]].concat());
    let batch: Value = serde_json::from_slice(&batch.stdout).unwrap();
    let mut played = batch["records"][2][1].clone();
    // Thinking times differ between runs.
    record.as_object_mut().unwrap().remove("ms");
    played.as_object_mut().unwrap().remove("ms");
    assert_eq!(record, played);
    assert_eq!(turns as u64, record["turns"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap()).sum::<u64>());
    let outside = crate::cli::asobi(&[&base[..], &["--trace", "3"]].concat());
    assert!(String::from_utf8_lossy(&outside.stderr).contains("--trace 3"));
    assert_eq!(crate::cli::asobi(&[&base[..], &["--trace", "0", "--json"]].concat()).status.code(), Some(2));
}
