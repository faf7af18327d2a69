//! Calculation as a whole program: seeded experiments, thread independence, bad input.

use asobi::games::calculation::ai::PlannerParams;
use asobi::games::calculation::cli::{Command, run};
use asobi::games::calculation::experiment::Play;
use asobi::games::calculation::rules::{Deal, Game, Target};
use asobi::lab::runner::{Experiment, Shard, result_json, run_records};
use clap::Parser;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    cmd: Command,
}

fn wins(threads: u64) -> serde_json::Value {
    let exp = Play {
        stacks: 4,
        deals: 3,
        player: PlannerParams { plans: 5, lookahead: 0, pair_limit: 10, ..PlannerParams::default() },
        oracle: None,
    };
    let recs = run_records(&exp, 9, Shard::WHOLE, Some(threads), &indicatif::ProgressBar::hidden()).unwrap().unwrap();
    let mut v = result_json(&exp, 9, Shard::WHOLE, &recs);
    v.as_object_mut().unwrap().remove("ms_per_deal");
    v
}

#[test]
fn play_results_do_not_depend_on_threads() {
    let one = wins(1);
    assert_eq!(one, wins(2));
    for field in ["deals", "wins", "success_rate", "ci95"] {
        assert!(one.get(field).is_some(), "missing {field}");
    }
    assert_eq!(Play::NAME, "calc.play");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for args in
        ["asobi play --stacks 9 --deals 1", "asobi play --lookahead 2 --deals 1", "asobi oracle --stacks 0 --deals 1"]
    {
        let cli = Cli::try_parse_from(args.split_whitespace()).unwrap();
        assert!(run(cli.cmd).is_err(), "{args}");
    }
    // Counts are checked while parsing.
    let e = Cli::try_parse_from("asobi play --plans 0 --deals 1".split_whitespace()).err().unwrap().to_string();
    assert!(e.contains("--plans") && e.contains("must be at least 1"), "{e}");
}

#[test]
fn random_play_conserves_cards() {
    for i in 0..20 {
        let mut g = Game::new(Deal::from_seed(4, i), 3).unwrap();
        let mut k = 0usize;
        while g.current().is_some() {
            let targets = g.legal_targets();
            g.place(targets[k % targets.len()]).unwrap();
            if let Some(&(s, f)) = g.legal_moves().first() {
                g.move_top(s, f).unwrap();
            }
            k = k.wrapping_mul(31).wrapping_add(7);
            assert_eq!(g.card_count(), 52);
        }
        assert!(g.place(Target::Stack(0)).is_err());
    }
}
