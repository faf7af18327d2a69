//! `asobi nazo ...`: thin clap glue over the solver, the generator and the metrics.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use serde_json::{Value, json};

use crate::games::puyo::rules::Placement;
use crate::lab::runner::{
    BatchOptions, CommandLine, Experiment, OutputOptions, Shard, at_least_one, check_output_file, insert_records,
    number_in, print_result, result_json, run_records, terminal_bar, value_name, write_atomic,
};
use crate::lab::stats::{median, quantile};

use super::experiment::{GenerateExperiment, GenerateRecord};
use super::generator::{GenParams, Method, Target, Type4Field};
use super::io::{ishikawa, parse_playable, pon2};
use super::metrics::{MetricsOptions, compute, compute_with};
use super::puzzle::{Puzzle, parse_placement_pon2, placement_pon2};
use super::sets::to_ron;
use super::solver::{SolveOptions, solve};

/// The `asobi nazo` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Solve one puzzle exhaustively: every solution, or proof that none exists.
    Solve(SolveArgs),
    /// Solve every puzzle of a file (one pon2 query or IshikawaPuyo URL per line, `#` comments).
    SolveBatch(SolveBatchArgs),
    /// Generate "k moves, n-chain" puzzles by the reverse method (paper §6).
    Generate(GenerateArgs),
    /// The five artistic-type metrics of a puzzle (on its first solution).
    Metrics(MetricsArgs),
}

/// The options of `generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Pairs the solver must place (k, 2-4).
    #[arg(long, default_value_t = 2)]
    pub moves: usize,
    /// Chain length to reach exactly (n, 2-6).
    #[arg(long, default_value_t = 3)]
    pub chain: usize,
    /// Artistic type to aim at: 4 (split puyos), 5 (consecutive same-colour links) or any.
    #[arg(long = "type", value_enum, default_value = "any")]
    pub target: Target,
    /// filter: generate then test (the paper); direct: constrained insertion (spec §6.5).
    #[arg(long, value_enum, default_value = "filter")]
    pub method: Method,
    /// Puzzles to generate.
    #[arg(long, default_value_t = 10, value_parser = at_least_one::<u64>)]
    pub count: u64,
    /// Accept puzzles with several solutions (the default rejects them).
    #[arg(long)]
    pub no_unique: bool,
    /// Palette size (2-5).
    #[arg(long, default_value_t = 4)]
    pub colors: usize,
    /// Probability of garbage in each neighbour cell of a new group (0-1).
    #[arg(long, default_value_t = 0.15, value_parser = number_in(0.0, 1.0))]
    pub garbage_p: f64,
    /// Probability of recolouring with repeated link colours (0-1).
    #[arg(long, default_value_t = 0.5, value_parser = number_in(0.0, 1.0))]
    pub recolor_p: f64,
    /// Placements tried for each group inserted before the candidate is abandoned.
    #[arg(long, default_value_t = GenParams::default().insert_tries, value_parser = at_least_one::<usize>)]
    pub insert_tries: usize,
    /// The field the type-4 test looks at.
    #[arg(long, value_enum, default_value = "firing")]
    pub type4_field: Type4Field,
    /// Reject when solutions start with different link-1 colours (paper §8.1).
    #[arg(long)]
    pub reject_ambiguous_first_link: bool,
    /// Reject when the link-1 colour already has 3 connected puyos (paper §8.2).
    #[arg(long)]
    pub reject_obvious_trigger: bool,
    /// Reject tall or uneven columns (paper §8.3).
    #[arg(long)]
    pub reject_tall_columns: bool,
    /// With --reject-tall-columns: the column height difference that counts as tall.
    #[arg(long, default_value_t = GenParams::default().tall_difference)]
    pub tall_difference: usize,
    /// Reject when some solution lacks the requested type (paper §8.4).
    #[arg(long)]
    pub reject_inconsistent_type: bool,
    /// Give up on a puzzle after this many candidates.
    #[arg(long, default_value_t = 1_000_000, value_parser = at_least_one::<u64>)]
    pub max_candidates: u64,
    /// Write the puzzles here: one JSON line each (pon2 query, IshikawaPuyo URL, solution,
    /// metrics), or, for a `.ron` path, a puzzle set in the level format of levels/nazo/.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed (puzzle i comes from (seed, i)), threads, shard, output.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `metrics`.
#[derive(Debug, clap::Args)]
pub struct MetricsArgs {
    /// A pon2 query, an IshikawaPuyo URL, or a file whose first non-comment line is one.
    pub puzzle: String,
    /// Most placements M2 and M3c play over all sequences; beyond it they cover fewer pairs.
    #[arg(long, default_value_t = MetricsOptions::default().budget)]
    pub budget: u64,
    /// M3a similarity (0-1) from which a template counts as suggesting a chain order.
    #[arg(long, default_value_t = MetricsOptions::default().template_threshold, value_parser = number_in(0.0, 1.0))]
    pub template_threshold: f64,
    /// How to print.
    #[command(flatten)]
    pub output: OutputOptions,
}

/// The options of `solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// A pon2 query, an IshikawaPuyo URL, or a file whose first non-comment line is one.
    pub puzzle: String,
    /// Stop at the first solution. `solutions` counts placement sequences (a same-colour
    /// pair's mirror placements are one); `distinct_solutions` counts them up to transposition
    /// (same solving step, same firing field, same earlier pops).
    #[arg(long)]
    pub first: bool,
    /// Give up after this many milliseconds (the verdict is then unproven).
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// How to print.
    #[command(flatten)]
    pub output: OutputOptions,
}

/// The options of `solve-batch`.
#[derive(Debug, clap::Args)]
pub struct SolveBatchArgs {
    /// File with one pon2 query or IshikawaPuyo URL per line; `#` starts a comment line. Lines
    /// that cannot be read are counted and skipped; a file with none that can is an error.
    pub file: PathBuf,
    /// Give up on a puzzle after this many milliseconds.
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// One line per puzzle on stderr.
    #[arg(long)]
    pub verbose: bool,
    /// How to print.
    #[command(flatten)]
    pub output: OutputOptions,
}

/// Runs one subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Solve(a) => solve_one(a),
        Command::SolveBatch(a) => solve_batch(a),
        Command::Generate(a) => generate_many(a),
        Command::Metrics(a) => metrics(a),
    }
}

/// The puzzle lines of a text: (1-based line number, text), comments and blanks skipped.
fn puzzle_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// A puzzle from the command line: the text itself, or the first puzzle line of a file.
pub fn read_puzzle(arg: &str) -> anyhow::Result<Puzzle> {
    // Every query and URL holds '=' or '?'; anything else is a file name.
    if arg.contains('=') || arg.contains('?') {
        return Ok(parse_playable(arg)?);
    }
    if !std::path::Path::new(arg).exists() {
        // A mistyped file name, most likely: say so before the parser's complaint.
        return parse_playable(arg).with_context(|| format!("{arg}: no such file, and not a puzzle"));
    }
    let text = std::fs::read_to_string(arg).with_context(|| format!("cannot read {arg}"))?;
    let Some((line, q)) = puzzle_lines(&text).next() else { bail!("{arg}: no puzzle line in the file") };
    parse_playable(q).with_context(|| format!("{arg}:{line}"))
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
        "distinct_solutions": s.distinct,
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
    let mut first_error = None;
    for (line, q) in puzzle_lines(&text) {
        puzzles += 1;
        let puzzle = match parse_playable(q) {
            Ok(p) => p,
            Err(e) => {
                errors += 1;
                let message = format!("{}:{line}: {e}", a.file.display());
                if a.verbose {
                    eprintln!("{message}");
                }
                first_error.get_or_insert(message);
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
                "{}:{line}: {verdict}, {} solutions ({} distinct), {} steps, {} nodes, {ms:.1} ms",
                a.file.display(),
                s.count,
                s.distinct,
                puzzle.steps.len(),
                s.nodes
            );
        }
    }
    // A file with no puzzle in it is a mistake (the wrong file), not a batch of nothing.
    ensure!(
        puzzles > 0,
        "{}: no puzzle lines (one pon2 query or IshikawaPuyo URL a line; '#' starts a comment)",
        a.file.display()
    );
    if let (Some(first), true) = (&first_error, errors == puzzles) {
        bail!("none of the {puzzles} puzzle lines could be read; the first: {first}");
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
    if let (Some(first), false) = (first_error, a.verbose) {
        // Without --verbose the counts alone would not say which lines were skipped.
        eprintln!("{errors} of {puzzles} puzzle lines could not be read (--verbose lists each); the first: {first}");
    }
    print_result(&result, &a.output);
    Ok(())
}

fn metrics(a: MetricsArgs) -> anyhow::Result<()> {
    let puzzle = read_puzzle(&a.puzzle)?;
    let s = solve(&puzzle, SolveOptions { stop_after: Some(1), keep: Some(1), timeout: None });
    let Some(solution) = s.solutions.first() else { bail!("{}: the puzzle has no solution, so no metrics", a.puzzle) };
    let opts = MetricsOptions { budget: a.budget, template_threshold: a.template_threshold };
    let m = compute_with(&puzzle, solution, &opts).map_err(anyhow::Error::msg)?;
    print_result(&serde_json::to_value(m)?, &a.output);
    Ok(())
}

pub(crate) fn gen_params(a: &GenerateArgs) -> anyhow::Result<GenParams> {
    let params = GenParams {
        moves: a.moves,
        chain: a.chain,
        target: a.target,
        method: a.method,
        unique: !a.no_unique,
        colors: a.colors,
        garbage_p: a.garbage_p,
        recolor_p: a.recolor_p,
        insert_tries: a.insert_tries,
        type4_field: a.type4_field,
        reject_ambiguous_first_link: a.reject_ambiguous_first_link,
        reject_obvious_trigger: a.reject_obvious_trigger,
        reject_tall_columns: a.reject_tall_columns,
        tall_difference: a.tall_difference,
        reject_inconsistent_type: a.reject_inconsistent_type,
        max_candidates: a.max_candidates,
    };
    params.check().map_err(|e| anyhow::anyhow!("generate: {e}"))?;
    Ok(params)
}

/// `asobi nazo solve QUERY` and `asobi nazo metrics QUERY` for `puzzle` (the one on the Nazo
/// Puyo screen), its pon2 query quoted for the shell.
pub fn puzzle_commands(puzzle: &Puzzle) -> [String; 2] {
    ["solve", "metrics"].map(|sub| {
        let mut command = CommandLine::new(&["nazo", sub]);
        command.arg(pon2::write(puzzle));
        command.line()
    })
}

/// `asobi nazo generate` making `count` puzzles of `seed` with `params` (what the Nazo Puyo
/// screen's generator panel sets; its puzzle #k of the seed is this run's #k).
pub fn generate_command(params: &GenParams, count: u64, seed: u64) -> String {
    let base = GenParams::default();
    let mut command = CommandLine::new(&["nazo", "generate"]);
    command.option("moves", params.moves);
    command.option("chain", params.chain);
    command.option("type", value_name(params.target));
    command.option("method", value_name(params.method));
    command.option("count", count);
    command.option("seed", seed);
    command.flag("no-unique", !params.unique);
    command.option_unless("colors", params.colors, base.colors);
    command.option_unless("garbage-p", params.garbage_p, base.garbage_p);
    command.option_unless("recolor-p", params.recolor_p, base.recolor_p);
    command.option_unless("insert-tries", params.insert_tries, base.insert_tries);
    command.option_unless("type4-field", value_name(params.type4_field), value_name(base.type4_field));
    command.flag("reject-ambiguous-first-link", params.reject_ambiguous_first_link);
    command.flag("reject-obvious-trigger", params.reject_obvious_trigger);
    command.flag("reject-tall-columns", params.reject_tall_columns);
    command.option_unless("tall-difference", params.tall_difference, base.tall_difference);
    command.flag("reject-inconsistent-type", params.reject_inconsistent_type);
    command.option_unless("max-candidates", params.max_candidates, base.max_candidates);
    command.line()
}

fn generate_many(a: GenerateArgs) -> anyhow::Result<()> {
    let params = gen_params(&a)?;
    if let Some(out) = &a.out {
        check_output_file(out)?;
    }
    let exp = GenerateExperiment { params, count: a.count };
    let b = &a.batch;
    let shard = b.shard.unwrap_or(Shard::WHOLE);
    let bar = terminal_bar(exp.count, GenerateExperiment::NAME, b.output.quiet);
    let games = run_records(&exp, b.seed, shard, b.threads, &bar)?.context("generation was cancelled")?;
    bar.finish_and_clear();
    match &a.out {
        Some(path) if path.extension().is_some_and(|e| e == "ron") => {
            let puzzles = games
                .indices
                .iter()
                .zip(&games.records)
                .filter_map(|(i, r)| r.pon2.as_ref().map(|q| pon2::parse(q).map(|p| (format!("#{}", i + 1), p))))
                .collect::<Result<Vec<_>, _>>()?;
            let source = format!("asobi nazo generate, seed {}", b.seed);
            write_atomic(path, to_ron("Generated puzzles", &source, &puzzles).as_bytes())?;
        }
        Some(path) => write_puzzles(path, &games.indices, &games.records)?,
        None => {}
    }
    let mut result = result_json(&exp, b.seed, shard, &games);
    if b.records {
        insert_records(&mut result, &games);
    }
    print_result(&result, &b.output);
    Ok(())
}

/// One JSON line per accepted puzzle: pon2 query, IshikawaPuyo URL, solution and metrics (the
/// puzzle is read back from its query, so the file shows what the exchange format holds).
fn write_puzzles(path: &std::path::Path, indices: &[u64], records: &[GenerateRecord]) -> anyhow::Result<()> {
    let mut lines = String::new();
    for (i, r) in indices.iter().zip(records) {
        let Some(query) = &r.pon2 else { continue };
        let puzzle = pon2::parse(query)?;
        let solution: Vec<Placement> = r.solution.iter().filter_map(|p| parse_placement_pon2(p)).collect();
        let metrics = compute(&puzzle, &solution).map_err(anyhow::Error::msg)?;
        let line = json!({
            "index": i,
            "pon2": query,
            "ishikawa": ishikawa::write(&puzzle)?,
            "solution": r.solution,
            "solutions": r.solutions,
            "candidates": r.candidates,
            "metrics": metrics,
        });
        lines.push_str(&line.to_string());
        lines.push('\n');
    }
    write_atomic(path, lines.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::runner::parse_game_command;

    #[test]
    fn the_panels_puzzle_commands_read_its_puzzle() {
        let puzzle =
            parse_playable("field=0_o.....y.....y....oo....yy....gb..o.obbyy&steps=byby&goal=0_0_3_0_").unwrap();
        let [solve, metrics] = puzzle_commands(&puzzle);
        let Command::Solve(args) = parse_game_command(&solve, "nazo") else { panic!("{solve}: not solve") };
        assert_eq!(read_puzzle(&args.puzzle).unwrap(), puzzle, "{solve}");
        let Command::Metrics(args) = parse_game_command(&metrics, "nazo") else { panic!("{metrics}: not metrics") };
        assert_eq!(read_puzzle(&args.puzzle).unwrap(), puzzle, "{metrics}");
    }

    #[test]
    fn the_panels_generate_command_makes_its_puzzles() {
        let tuned = GenParams {
            moves: 3,
            chain: 4,
            target: Target::Four,
            method: Method::Direct,
            unique: false,
            colors: 5,
            garbage_p: 0.3,
            recolor_p: 0.25,
            insert_tries: 60,
            type4_field: Type4Field::Start,
            reject_ambiguous_first_link: true,
            reject_obvious_trigger: true,
            reject_tall_columns: true,
            tall_difference: 6,
            reject_inconsistent_type: true,
            max_candidates: 5000,
        };
        for params in [GenParams::default(), tuned] {
            let line = generate_command(&params, 25, 7);
            let Command::Generate(args) = parse_game_command(&line, "nazo") else { panic!("{line}: not generate") };
            assert_eq!((gen_params(&args).unwrap(), args.count, args.batch.seed), (params, 25, 7), "{line}");
        }
    }
}
