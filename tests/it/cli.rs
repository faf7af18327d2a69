//! The command line as a user meets it: help, clear errors with non-zero exits, merge.

use std::process::{Command, Output};

use serde_json::Value;

pub fn asobi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asobi")).args(args).output().expect("asobi runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn help_names_the_subcommands() {
    let out = asobi(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for word in ["bench", "merge", "completions", "--screenshot", "--game"] {
        assert!(text.contains(word), "--help lacks {word}:\n{text}");
    }
}

#[test]
fn completion_scripts_reach_the_games_options() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = asobi(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = String::from_utf8_lossy(&out.stdout);
        for word in ["solve-batch", "risk-judge", "templates", "labyrinth"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    assert_eq!(asobi(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn unknown_subcommand_is_an_error_not_a_panic() {
    let out = asobi(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn merge_of_a_malformed_file_names_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let bad = dir.join("bad.json");
    // Leading blank lines: the line named is the file's, not that of the trimmed text.
    std::fs::write(&bad, "\n\n{\n  \"experiment\": \"x\",\n  oops\n}").unwrap();
    let out = asobi(&["merge", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.json:5:"), "{err}");
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "\n").unwrap();
    let out = asobi(&["merge", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("empty.json: empty file"), "{}", stderr(&out));
    let missing = asobi(&["merge", dir.join("none.json").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("none.json"));
}

/// `compare` pairs two runs of one seed game by game: its means are the runs' own, and a file
/// without records or of another seed is refused.
#[test]
fn compare_pairs_two_runs_of_one_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |depth: &str, seed: &str, records: bool| {
        let mut args = vec!["puyo", "build", "--trials", "12", "--depth", depth, "--seed", seed, "--json", "--quiet"];
        args.extend(records.then_some("--records"));
        let out = asobi(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let path = tmp.path().join(format!("d{depth}-s{seed}-{records}.json"));
        std::fs::write(&path, &out.stdout).unwrap();
        (path.to_str().unwrap().to_string(), serde_json::from_slice::<Value>(&out.stdout).unwrap())
    };
    let ((base, base_run), (variant, variant_run)) = (run("1", "3", true), run("3", "3", true));
    let out = asobi(&["compare", &base, &variant, "--field", "completed", "--json"]);
    let result = printed_json(&out);
    assert_eq!(result["pairs"], 12);
    let rate = |run: &Value| run["completed"].as_f64().unwrap() / 12.0;
    assert_eq!(result["base_mean"].as_f64(), Some(rate(&base_run)));
    assert_eq!(result["variant_mean"].as_f64(), Some(rate(&variant_run)));
    let over = printed_json(&asobi(&["compare", &base, &variant, "--field", "moves", "--over", "30", "--json"]));
    assert_eq!(over["over"], 30.0);
    let (other_seed, _) = run("3", "4", true);
    let out = asobi(&["compare", &base, &other_seed, "--field", "moves"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("seed 4 differs"), "{}", stderr(&out));
    let (no_records, _) = run("1", "3", false);
    let out = asobi(&["compare", &base, &no_records, "--field", "moves"]);
    assert!(stderr(&out).contains("--records"), "{}", stderr(&out));
}

/// Removes what is measured rather than computed: wall-clock times and the rates made of them.
pub fn untimed(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            fields.retain(|key, _| {
                !(key.starts_with("ms_per") || ["ms", "seconds", "per_minute"].contains(&key.as_str()))
            });
            fields.values_mut().for_each(untimed);
        }
        Value::Array(items) => items.iter_mut().for_each(untimed),
        _ => {}
    }
}

fn printed_json(out: &Output) -> Value {
    assert!(out.status.success(), "{}", stderr(out));
    let mut value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    untimed(&mut value);
    value
}

/// Shard files go through text: `merge` recomputes the result from the records it reads back
/// (here each instance's solve rates), and prints what one whole run prints, with `--records`
/// its records too.
#[test]
fn merged_shard_files_print_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let run = [
        "shanghai",
        "generate",
        "--layout",
        "mini_turtle",
        "--count",
        "24",
        "--plays",
        "7",
        "--weak",
        "1x1",
        "--strong",
        "2x1",
        "--seed",
        "2",
        "--json",
        "--quiet",
    ];
    let paths: Vec<String> = (0..3)
        .map(|i| {
            let shard = format!("{i}/3");
            let out = asobi(&[&run[..], &["--shard", &shard]].concat());
            assert!(out.status.success(), "{}", stderr(&out));
            let path = tmp.path().join(format!("s{i}.json"));
            std::fs::write(&path, &out.stdout).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect();
    let merge: Vec<&str> = ["merge", "--json"].into_iter().chain(paths.iter().map(String::as_str)).collect();
    assert_eq!(printed_json(&asobi(&merge)), printed_json(&asobi(&run)));
    let with_records = printed_json(&asobi(&[&merge[..], &["--records"]].concat()));
    assert_eq!(with_records, printed_json(&asobi(&[&run[..], &["--records"]].concat())));
    assert_eq!(with_records["records"].as_array().map(Vec::len), Some(24));
}

#[test]
fn a_screenshot_that_cannot_be_written_fails_before_a_window_opens() {
    // No display is needed: the path is checked first.
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("no-such-folder").join("shot.png");
    let out = asobi(&["--screenshot", missing.to_str().unwrap(), "--frames", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--screenshot") && err.contains("no-such-folder"), "{err}");
}

/// Without a display Bevy panics while it builds its window plugin; asobi says what is missing.
#[cfg(target_os = "linux")]
#[test]
fn the_app_without_a_display_is_an_error_not_a_panic() {
    let out = Command::new(env!("CARGO_BIN_EXE_asobi"))
        .args(["--game", "menu"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .expect("asobi runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the desktop app could not start") && err.contains("DISPLAY"), "{err}");
    assert!(err.contains("xvfb-run") && !err.contains("panicked"), "{err}");
}

#[test]
fn bench_rejects_bad_values() {
    let out = asobi(&["bench", "--seconds", "-1"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn a_puzzle_without_pairs_is_an_error_not_an_unsolved_verdict() {
    let out = asobi(&["nazo", "solve", "field=0_gbyr..&steps=&goal=0_0_3_0_"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no pair to place"), "{}", stderr(&out));
}

/// Every count a batch command takes must be positive: zero would print a vacuous result.
#[test]
fn zero_counts_are_usage_errors_naming_the_option() {
    let cases: [&[&str]; 9] = [
        &["puyo", "build", "--trials", "0"],
        &["puyo", "versus", "--p1", "asobi", "--p2", "potential", "--games", "0"],
        &["nazo", "generate", "--count", "0"],
        &["nazo", "generate", "--max-candidates", "0"],
        &["calc", "play", "--deals", "0"],
        &["labyrinth", "match", "--players", "asobi,big-brain", "--games", "0"],
        &["shanghai", "eval", "--instances", "0"],
        &["shanghai", "oracle", "--deals", "0"],
        &["shanghai", "tune", "--layout", "mini_turtle", "--depth", "0"],
    ];
    for args in cases {
        let out = asobi(args);
        let option = args[args.len() - 2];
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(option) && err.contains("must be at least 1"), "{args:?}: {err}");
    }
    let out = asobi(&["calc", "play", "--deals", "many"]);
    assert!(stderr(&out).contains("'many' is not a whole number"));
}

/// Weights, probabilities and thresholds out of their range (or NaN) are usage errors too, caught
/// before any work (the metrics threshold used to be checked after the solver had run).
#[test]
fn numbers_out_of_range_are_usage_errors_naming_option_and_range() {
    let cases: [(&[&str], &str); 10] = [
        (&["puyo", "endless", "--virtual-drop", "3"], "from 0 to 2"),
        (&["puyo", "versus", "--threat-switch", "5", "--p1", "combined", "--p2", "potential"], "from 0 to 4"),
        (&["puyo", "build", "--weight-power", "NaN"], "from 0.25 to 4"),
        (&["nazo", "metrics", "field=0_&steps=rr&goal=0_0_3_0_", "--template-threshold", "3"], "from 0 to 1"),
        (&["calc", "play", "--lookahead-ratio=-1"], "from 0 to 1"),
        (&["shanghai", "generate", "--weak-max", "5"], "from 0 to 1"),
        (&["shanghai", "eval", "--risk-window", "2"], "from 0 to 1"),
        (&["shanghai", "tune", "--step=-1"], "from 0.01 to 10"),
        (&["shanghai", "tune", "--step", "NaN"], "from 0.01 to 10"),
        (&["shanghai", "tune", "--threads", "0"], "1..=1024"),
    ];
    for (args, range) in cases {
        let out = asobi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let option = args.iter().find(|a| a.starts_with("--")).unwrap().split('=').next().unwrap();
        let err = stderr(&out);
        assert!(err.contains(option) && err.contains(range), "{args:?}: {err}");
    }
}

/// A bad `--out` is reported before the work starts, not after it.
#[test]
fn a_bad_output_path_fails_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("no-such-folder").join("w.ron");
    let tune = ["shanghai", "tune", "--layout", "mini_turtle", "--instances", "2", "--plays", "1"];
    let out = asobi(&[&tune[..], &["--out", missing.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(2));
    // Without --quiet the tuner prints a "rate ..." line per trial it has played.
    let err = stderr(&out);
    assert!(err.contains("there is no folder") && !err.contains("rate "), "{err}");
    let folder = asobi(&["nazo", "generate", "--count", "1", "--out", tmp.path().to_str().unwrap()]);
    assert!(stderr(&folder).contains("it is a folder"), "{}", stderr(&folder));
    // With --json a finished run would have printed its result before failing.
    let map = tmp.path().join("map.txt");
    let generate = ["shanghai", "generate", "--layout", "mini_turtle", "--count", "1", "--plays", "1", "--json"];
    let sharded = asobi(&[&generate[..], &["--shard", "0/2", "--out", map.to_str().unwrap()]].concat());
    assert_eq!(sharded.status.code(), Some(2));
    assert!(sharded.stdout.is_empty() && stderr(&sharded).contains("--out needs a whole run"));
    assert!(std::fs::read_dir(tmp.path()).unwrap().next().is_none(), "nothing written");
}
