//! `asobi nazo ...`: thin clap glue over the solver, the generator and the metrics.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::lab::runner::{OutputOptions, print_result};
use crate::lab::stats::{median, quantile};

use super::io::parse_any;
use super::puzzle::{Puzzle, placement_pon2};
use super::solver::{SolveOptions, solve};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Solve one puzzle exhaustively: every solution, or proof that none exists.
    Solve(SolveArgs),
    /// Solve every puzzle of a file (one pon2 query or IshikawaPuyo URL per line, `#` comments).
    SolveBatch(SolveBatchArgs),
}

#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// A pon2 query, an IshikawaPuyo URL, or a file whose first non-comment line is one.
    pub puzzle: String,
    /// Stop at the first solution.
    #[arg(long)]
    pub first: bool,
    /// Give up after this many milliseconds (the verdict is then unproven).
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    #[command(flatten)]
    pub output: OutputOptions,
}

#[derive(Debug, clap::Args)]
pub struct SolveBatchArgs {
    /// File with one pon2 query or IshikawaPuyo URL per line; `#` starts a comment line.
    pub file: PathBuf,
    /// Give up on a puzzle after this many milliseconds.
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// One line per puzzle on stderr.
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub output: OutputOptions,
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Solve(a) => solve_one(a),
        Command::SolveBatch(a) => solve_batch(a),
    }
}

/// The puzzle lines of a text: (1-based line number, text), comments and blanks skipped.
fn puzzle_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// A puzzle from the command line: the text itself, or the first puzzle line of a file.
pub fn read_puzzle(arg: &str) -> anyhow::Result<Puzzle> {
    let path = std::path::Path::new(arg);
    if !arg.contains('=') && !arg.contains('?') && path.exists() {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {arg}"))?;
        let Some((line, q)) = puzzle_lines(&text).next() else { bail!("{arg}: no puzzle line in the file") };
        return parse_any(q).with_context(|| format!("{arg}:{line}"));
    }
    Ok(parse_any(arg)?)
}

fn solve_one(a: SolveArgs) -> anyhow::Result<()> {
    let puzzle = read_puzzle(&a.puzzle)?;
    let opts = SolveOptions {
        stop_after: a.first.then_some(1),
        timeout: a.timeout_ms.map(Duration::from_millis),
        keep: Some(1),
    };
    let start = Instant::now();
    let s = solve(&puzzle, opts);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if s.timed_out {
        eprintln!("timed out after {ms:.0} ms: the verdict is not proven");
    }
    let first: Option<Vec<String>> = s.solutions.first().map(|p| p.iter().map(|&x| placement_pon2(x)).collect());
    let result = json!({
        "solved": s.count > 0,
        "solutions": s.count,
        "first_solution": first,
        "nodes": s.nodes,
        "ms": ms,
    });
    print_result(&result, &a.output);
    Ok(())
}

fn solve_batch(a: SolveBatchArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let timeout = a.timeout_ms.map(Duration::from_millis);
    let (mut puzzles, mut solved, mut no_solution, mut timed_out, mut errors) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut times = Vec::new();
    for (line, q) in puzzle_lines(&text) {
        puzzles += 1;
        let puzzle = match parse_any(q) {
            Ok(p) => p,
            Err(e) => {
                errors += 1;
                if a.verbose {
                    eprintln!("{}:{line}: error: {e}", a.file.display());
                }
                continue;
            }
        };
        let start = Instant::now();
        let s = solve(&puzzle, SolveOptions { timeout, ..SolveOptions::default() });
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        times.push(ms);
        let verdict = if s.timed_out {
            timed_out += 1;
            "timed out"
        } else if s.count > 0 {
            solved += 1;
            "solved"
        } else {
            no_solution += 1;
            "no solution"
        };
        if a.verbose {
            eprintln!(
                "{}:{line}: {verdict}, {} solutions, {} steps, {} nodes, {ms:.1} ms",
                a.file.display(),
                s.count,
                puzzle.steps.len(),
                s.nodes
            );
        }
    }
    let stat = |f: fn(&[f64]) -> f64| if times.is_empty() { Value::Null } else { json!(f(&times)) };
    let result = json!({
        "puzzles": puzzles,
        "supported": puzzles - errors,
        "solved": solved,
        "no_solution": no_solution,
        "timed_out": timed_out,
        "errors": errors,
        "median_ms": stat(median),
        "p95_ms": stat(|t| quantile(t, 0.95)),
        "max_ms": stat(|t| t.iter().copied().fold(0.0, f64::max)),
    });
    print_result(&result, &a.output);
    Ok(())
}
