//! Nazo Puyo whole-program tests: the bundled competition puzzles, the command line, the
//! generation experiment's determinism and its JSON contract.

use asobi::games::nazo::cli::{self, Command, MetricsArgs, SolveArgs, SolveBatchArgs, read_puzzle};
use asobi::games::nazo::experiment::GenerateExperiment;
use asobi::games::nazo::generator::{GenParams, Method, Target};
use asobi::games::nazo::io::{ishikawa, parse_any, pon2};
use asobi::games::nazo::metrics::compute;
use asobi::games::nazo::puzzle::parse_placement_pon2;
use asobi::games::nazo::sets::bundled;
use asobi::games::nazo::sim::replay;
use asobi::games::nazo::solver::{SolveOptions, solve};
use asobi::lab::runner::{Experiment, OutputOptions};

#[test]
fn every_bundled_competition_puzzle_is_solved_and_its_solutions_replay() {
    let sets = bundled().unwrap();
    let mut n = 0;
    for (_, puzzles) in &sets {
        for (name, p) in puzzles {
            let s = solve(p, SolveOptions::default());
            assert!(s.count > 0 && s.complete(), "{name}: {}", pon2::write(p));
            for sol in &s.solutions {
                assert!(replay(p, sol).solved_at.is_some(), "{name}");
            }
            // Both formats carry it unchanged (no bundled puzzle uses hard garbage).
            assert_eq!(&parse_any(&ishikawa::write(p).unwrap()).unwrap(), p, "{name}");
            n += 1;
        }
    }
    assert!(n >= 91);
}

#[test]
fn puzzle_files_and_batch_command() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("puzzles.txt");
    std::fs::write(&file, "# two puzzles and a broken line\nfield=0_rrbbrr&steps=brbr&goal=2_0_6_0_\n\nfield=9_&steps&goal=\nhttps://ishikawapuyo.net/simu/pn.html?c00_c1__u03\n").unwrap();
    let p = read_puzzle(file.to_str().unwrap()).unwrap();
    assert_eq!(p.steps.len(), 2);
    let args = SolveBatchArgs {
        file: file.clone(),
        timeout_ms: Some(10_000),
        verbose: false,
        output: OutputOptions { json: true, quiet: true },
    };
    cli::run(Command::SolveBatch(args)).unwrap();
    // Lines that cannot be read are counted, and named on stderr even without --verbose.
    let batch = crate::cli::asobi(&["nazo", "solve-batch", file.to_str().unwrap(), "--json", "--quiet"]);
    let summary: serde_json::Value = serde_json::from_slice(&batch.stdout).unwrap();
    assert_eq!((summary["puzzles"].as_u64(), summary["errors"].as_u64()), (Some(3), Some(1)));
    let err = String::from_utf8_lossy(&batch.stderr);
    assert!(err.contains("1 of 3 puzzle lines") && err.contains("puzzles.txt:4: "), "{err}");
    let err = read_puzzle("field=0_rrX&steps&goal=").unwrap_err().to_string();
    assert!(err.contains("character 11"), "{err}");
    let err = format!("{:#}", read_puzzle(dir.join("nope.txt").to_str().unwrap()).unwrap_err());
    assert!(err.contains("nope.txt: no such file, and not a puzzle: pon2 query"), "{err}");
    let missing = SolveBatchArgs {
        file: dir.join("nope.txt"),
        timeout_ms: None,
        verbose: false,
        output: OutputOptions::default(),
    };
    assert!(cli::run(Command::SolveBatch(missing)).is_err());
    // A file with no puzzle line, or none that reads, is an error, not an empty batch.
    for (name, text, says) in [
        ("empty.txt", "# only a comment\n\n", "empty.txt: no puzzle lines"),
        ("bad.txt", "field=0_rrX&steps&goal=\n(\n", "none of the 2 puzzle lines could be read; the first: "),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
        let out = crate::cli::asobi(&["nazo", "solve-batch", dir.join(name).to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(2) && err.contains(says), "{err}");
    }
}

#[test]
fn generation_experiment_is_deterministic_and_keeps_its_contract() {
    let exp = GenerateExperiment {
        params: GenParams { target: Target::Five, method: Method::Direct, ..GenParams::default() },
        count: 4,
    };
    let a: Vec<_> = (0..4).map(|i| exp.play(11, i)).collect();
    let b: Vec<_> = (0..4).rev().map(|i| exp.play(11, i)).collect::<Vec<_>>().into_iter().rev().collect();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((&x.pon2, &x.solution, x.candidates), (&y.pon2, &y.solution, y.candidates));
    }
    let summary = exp.summarize(&a);
    for key in ["accepted", "candidates", "accept_rate", "seconds", "per_minute", "unique_share"] {
        assert!(summary.contains_key(key), "{key}");
    }
    assert_eq!(summary["accepted"], 4);
    // Each generated puzzle re-solves from its exported URL with its recorded solution.
    for r in &a {
        let p = pon2::parse(r.pon2.as_ref().unwrap()).unwrap();
        let back = parse_any(&ishikawa::write(&p).unwrap()).unwrap();
        assert_eq!(solve(&back, SolveOptions::default()).distinct, 1);
        // The recorded solution may be the mirror-image placement of a same-colour pair.
        let recorded: Vec<_> = r.solution.iter().filter_map(|x| parse_placement_pon2(x)).collect();
        assert_eq!(replay(&back, &recorded).solved_at, Some(1));
    }
}

#[test]
fn solve_and_metrics_commands_keep_their_contract() {
    let q = "field=0_o.....y.....y....oo....yy....gb..o.obbyy&steps=byby&goal=0_0_3_0_";
    let output = OutputOptions { json: true, quiet: true };
    let solve_args = SolveArgs { puzzle: q.into(), first: true, timeout_ms: Some(10_000), output: output.clone() };
    cli::run(Command::Solve(solve_args)).unwrap();
    // A threshold out of 0-1 is the parser's to reject (`cli::numbers_out_of_range_...`).
    let metrics_args = MetricsArgs { puzzle: q.into(), budget: 10_000, template_threshold: 0.6, output };
    cli::run(Command::Metrics(metrics_args)).unwrap();
    // The JSON of `metrics`: the five types with the spec's proxies.
    let p = pon2::parse(q).unwrap();
    let s = solve(&p, SolveOptions::default());
    let m = serde_json::to_value(compute(&p, &s.solutions[0]).unwrap()).unwrap();
    for (ty, key) in [
        ("type1", "isolated_ratio"),
        ("type1", "group_pieces"),
        ("type2", "m2"),
        ("type2", "near_component_pairs"),
        ("type3", "m3a"),
        ("type3", "greedy_link_distance"),
        ("type3", "near_miss_share"),
        ("type4", "is_type4"),
        ("type5", "is_type5"),
    ] {
        assert!(m[ty].get(key).is_some(), "{ty}.{key} in {m}");
    }
    assert_eq!(m["type2"]["sequences"], 484, "every sequence of both pairs");
}
