//! The Lab screen shows, for each experiment, the command lines of the same run: running the
//! entry and running its commands give the same JSON results, timings aside.

use asobi::app::lab_screen::LabEntry;
use asobi::app::{calculation, labyrinth, nazo, puyo, shanghai};
use asobi::lab::runner::SharedProgress;
use serde_json::Value;

use crate::cli::{asobi, untimed};

/// Runs every entry with 2 games from seed 3, and each of its commands with `--json`.
fn each_run_is_its_command_lines(entries: Vec<LabEntry>) {
    let (size, seed) = (2, 3);
    for entry in entries {
        let outcome = (entry.run)(size, seed, &SharedProgress::default()).unwrap().expect("not cancelled");
        let lines = entry.command_lines(size, seed);
        assert_eq!(outcome.parts.len(), lines.len(), "{}: one result per command", entry.name);
        for (line, part) in lines.iter().zip(&outcome.parts) {
            let words = shlex::split(line).expect("a command splits into words");
            assert_eq!(words[0], "asobi", "{line}: a command starts with asobi");
            let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            let out = asobi(&[args.as_slice(), &["--json", "--quiet"]].concat());
            assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
            let mut printed: Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
            let mut shown = part.clone();
            untimed(&mut printed);
            untimed(&mut shown);
            assert_eq!(shown, printed, "{}: the Lab's run differs from `{line}`", entry.name);
        }
    }
}

#[test]
fn puyo_lab_runs_are_their_command_lines() {
    each_run_is_its_command_lines(puyo::lab_entries());
}

#[test]
fn nazo_lab_runs_are_their_command_lines() {
    each_run_is_its_command_lines(nazo::lab_entries());
}

#[test]
fn calculation_lab_runs_are_their_command_lines() {
    each_run_is_its_command_lines(calculation::lab_entries());
}

#[test]
fn labyrinth_lab_runs_are_their_command_lines() {
    each_run_is_its_command_lines(labyrinth::lab_entries());
}

#[test]
fn shanghai_lab_runs_are_their_command_lines() {
    each_run_is_its_command_lines(shanghai::lab_entries());
}

/// The Lab's own command lines (a screen panel's "run in the Lab") run the experiment the
/// command line runs, and list its games to watch.
#[test]
fn a_command_line_in_the_lab_is_the_command_lines_run() {
    use asobi::app::lab_screen::{LabPlot, command_line_job};
    let commands = [
        puyo::lab_command(),
        nazo::lab_command(),
        calculation::lab_command(),
        labyrinth::lab_command(),
        shanghai::lab_command(),
    ];
    let lines = [
        "asobi puyo build --templates stairs8 --depth 1 --trials 3 --seed 2",
        "asobi puyo endless --ai potential --games 2 --seed 2",
        "asobi puyo versus --p1 combined --p2 combined --p2-options '--combined-potential asobi' --alternate-seats --games 2 --seed 2",
        "asobi calc play --stacks 3 --deals 3 --plans 20 --seed 2",
        "asobi labyrinth match --players asobi,random --games 2 --seed 2",
        "asobi shanghai eval --layout mini-turtle --instances 2 --plays 2 --n 2 --depth 1 --seed 2",
        "asobi shanghai generate --layout mini_turtle --count 2 --weak 1x1 --strong 2x1 --plays 2 --seed 2",
        "asobi nazo generate --moves 2 --chain 3 --count 2 --seed 2",
    ];
    for line in lines {
        let job = command_line_job(&commands, line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let outcome = (job.run)(&SharedProgress::default()).unwrap().expect("not cancelled");
        let words = shlex::split(line).expect("a command splits into words");
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let out = asobi(&[args.as_slice(), &["--json", "--quiet"]].concat());
        assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
        let mut printed: Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
        let mut shown = outcome.parts[0].clone();
        untimed(&mut printed);
        untimed(&mut shown);
        assert_eq!(shown, printed, "the Lab's run differs from `{line}`");
        let opens = |p: &LabPlot| match p {
            LabPlot::Picks(_) => true,
            LabPlot::Scatter(map) => map.opener.is_some(),
            _ => false,
        };
        assert!(outcome.plots.iter().any(opens), "{line}: games to watch");
        let records = outcome.records.as_ref().and_then(|r| r.as_array()).expect("a run's records, to compare");
        assert!(!records.is_empty() && records.iter().all(|pair| pair[0].is_u64()), "{line}: [index, record] pairs");
    }
}

/// A line the Lab cannot run is an error that says why, not a panic or a run of something else.
#[test]
fn a_command_line_the_lab_cannot_run_says_why() {
    use asobi::app::lab_screen::command_line_job;
    let commands = [puyo::lab_command(), shanghai::lab_command()];
    let refused = [
        ("asobi puyo endless --games 3 --trace 1", "--trace plays one game"),
        ("asobi shanghai eval --shard 0/2", "--shard runs part of a batch"),
        ("asobi puyo versus --p1 nobody --p2 asobi", "invalid value 'nobody' for '--p1 <P1>'"),
        ("asobi puyo templates --style stairs", "run it in a terminal"),
        ("asobi shanghai oracle --deals 3", "the Lab runs shanghai eval and generate"),
        ("asobi shanghai generate --count 2 --out x.ron", "--out writes a file"),
        ("asobi calc play --deals 2", "the Lab runs asobi puyo build | endless | versus; shanghai eval | generate"),
        ("asobi puyo versus --p1 asobi --p2 asobi --p1-options '--depth", "unbalanced quotes"),
        ("asobi puyo versus --help", "help and version are printed in a terminal"),
        ("asobi shanghai", "the line names no subcommand"),
    ];
    for (line, why) in refused {
        let Err(e) = command_line_job(&commands, line) else { panic!("{line}: the Lab should refuse it") };
        assert!(e.to_string().contains(why), "{line}: {e}");
    }
}
