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
