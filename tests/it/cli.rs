//! The command line as a user meets it: help, clear errors with non-zero exits, merge.

use std::process::{Command, Output};

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
    for word in ["bench", "merge", "--screenshot", "--game"] {
        assert!(text.contains(word), "--help lacks {word}:\n{text}");
    }
}

#[test]
fn unknown_subcommand_is_an_error_not_a_panic() {
    let out = asobi(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn merge_of_a_malformed_file_names_file_and_line() {
    let dir = std::env::temp_dir().join(format!("asobi-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\n  \"experiment\": \"x\",\n  oops\n}").unwrap();
    let out = asobi(&["merge", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.json:3:"), "{err}");
    let missing = asobi(&["merge", dir.join("none.json").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("none.json"));
}

#[test]
fn bench_rejects_bad_values() {
    let out = asobi(&["bench", "--seconds", "-1"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(!stderr(&out).contains("panicked"));
}
