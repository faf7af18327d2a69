//! The `asobi` command line. With no subcommand it opens the desktop app; subcommands run
//! the games' experiments, benchmarks and tools headless.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{CommandFactory, Parser, Subcommand};

use asobi::app::{self, AppOptions, Screen};
use asobi::games;
use asobi::lab::runner::{self, OutputOptions};
use asobi::lab::{bench, compare};

/// asobi: a desktop game-AI lab. Play Puyo Puyo, Nazo Puyo, Calculation, Labyrinth and
/// Shanghai, watch and tune their AIs, and reproduce the papers' experiments.
///
/// Without a subcommand the desktop app opens.
#[derive(Parser, Debug)]
#[command(name = "asobi", version, about, long_about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    window: WindowArgs,
}

/// How the desktop app opens (no subcommand).
#[derive(clap::Args, Debug)]
struct WindowArgs {
    /// Screen to open instead of the menu.
    #[arg(long, value_enum, default_value_t = Screen::Menu)]
    game: Screen,
    /// Start with AIs in every seat (spectator mode); the Lab runs its first experiment.
    #[arg(long)]
    demo: bool,
    /// Save a PNG of the window after --frames frames, then exit.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Frames to wait before the screenshot.
    #[arg(long, default_value_t = 60, requires = "screenshot")]
    frames: u32,
    /// Before --game, show these screens in turn, --frames frames each (e.g. to check that
    /// leaving a screen leaves nothing of it behind).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SCREEN,...", requires = "screenshot")]
    visit: Vec<Screen>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure the throughput of each engine's hot paths.
    Bench(BenchArgs),
    /// Combine the JSON files of a sharded experiment (`--shard I/N --json`) into one result.
    Merge(MergeArgs),
    /// Compare two runs of one experiment on the same seed game by game (`--json --records`
    /// files): the paired difference of a record field and a sign test.
    Compare(CompareArgs),
    /// Puyo Puyo: template building, endless chains and versus matches.
    #[command(subcommand)]
    Puyo(games::puyo::cli::Command),
    /// Nazo Puyo: solve, batch-solve, generate and rate puzzles.
    #[command(subcommand)]
    Nazo(games::nazo::cli::Command),
    /// Calculation solitaire: the stack-game player and the perfect-information oracle.
    #[command(subcommand)]
    Calc(games::calculation::cli::Command),
    /// Labyrinth: bot tournaments.
    #[command(subcommand)]
    Labyrinth(games::labyrinth::cli::Command),
    /// Shanghai: the imperfect-information player, the solver, the instance generator.
    #[command(subcommand)]
    Shanghai(games::shanghai::cli::Command),
    /// Print the shell's completion script for every subcommand and option, e.g.
    /// `asobi completions bash > ~/.local/share/bash-completion/completions/asobi`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Run only benchmarks whose name contains this (e.g. `puyo`).
    filter: Option<String>,
    /// Seconds per benchmark.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// List the benchmarks without running them.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    output: OutputOptions,
}

#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// Shard result files, one per shard I/N, all of the same experiment.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also write the merged result to this file (atomically).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep every game's record in the merged result, as a whole run's `--records` does (for
    /// `asobi compare`).
    #[arg(long)]
    records: bool,
    #[command(flatten)]
    output: OutputOptions,
}

#[derive(clap::Args, Debug)]
struct CompareArgs {
    /// The baseline's result file (`--json --records`).
    base: PathBuf,
    /// The variant's result file: the same experiment and seed, other parameters.
    variant: PathBuf,
    /// The record field to compare, e.g. `solved`, `moves`, `chain`, `won` (a dotted path for
    /// a nested one); `--records` output shows a record's fields.
    #[arg(long)]
    field: String,
    /// Compare whether the field equals this value (JSON or a plain string), e.g.
    /// `--field outcome --equals '{"Win":0}'`.
    #[arg(long, conflicts_with = "over")]
    equals: Option<String>,
    /// Compare whether the field is above this number, e.g. `--field moves --over 30`.
    #[arg(long)]
    over: Option<f64>,
    #[command(flatten)]
    output: OutputOptions,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => open_app(cli.window),
        Some(Command::Bench(args)) => run_bench(args),
        Some(Command::Merge(args)) => run_merge(args),
        Some(Command::Compare(args)) => run_compare(args),
        Some(Command::Puyo(cmd)) => games::puyo::cli::run(cmd),
        Some(Command::Nazo(cmd)) => games::nazo::cli::run(cmd),
        Some(Command::Calc(cmd)) => games::calculation::cli::run(cmd),
        Some(Command::Labyrinth(cmd)) => games::labyrinth::cli::run(cmd),
        Some(Command::Shanghai(cmd)) => games::shanghai::cli::run(cmd),
        Some(Command::Completions { shell }) => print_completions(shell),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn print_completions(shell: clap_complete::Shell) -> anyhow::Result<()> {
    // Generated into memory first: clap_complete panics on a failed write (a closed pipe).
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "asobi", &mut script);
    runner::print_text(&String::from_utf8_lossy(&script))
}

fn open_app(args: WindowArgs) -> anyhow::Result<()> {
    // A screenshot that cannot be written fails here, before a window opens.
    if let Some(path) = &args.screenshot {
        runner::check_output_file(path).context("--screenshot")?;
    }
    let options = AppOptions {
        screen: args.game,
        demo: args.demo,
        screenshot: args.screenshot.map(|path| (path, args.frames)),
        visit: args.visit,
    };
    match app::run(options).map_err(anyhow::Error::msg)? {
        bevy::app::AppExit::Success => Ok(()),
        bevy::app::AppExit::Error(code) => bail!("the app stopped with error code {code}"),
    }
}

fn run_bench(args: BenchArgs) -> anyhow::Result<()> {
    if !(args.seconds > 0.0 && args.seconds <= 600.0) {
        bail!("--seconds must be in (0, 600], got {}", args.seconds);
    }
    let all = games::benches();
    let chosen: Vec<_> =
        all.iter().filter(|b| args.filter.as_ref().is_none_or(|f| b.name.contains(f.as_str()))).collect();
    if chosen.is_empty() {
        let names: Vec<_> = all.iter().map(|b| b.name).collect();
        bail!("no benchmark matches '{}'; there are: {}", args.filter.unwrap_or_default(), names.join(", "));
    }
    if args.list {
        for b in chosen {
            println!("{:<32} {}", b.name, b.unit);
        }
        return Ok(());
    }
    let mut results = Vec::new();
    for b in chosen {
        let t = bench::measure(b, Duration::from_secs_f64(args.seconds));
        if !args.output.json {
            println!("{:<32} {:>14.0} {} per second (one thread)", t.name, t.per_second, t.unit);
        }
        results.push(t);
    }
    if args.output.json {
        println!("{}", serde_json::json!({ "benchmarks": results }));
    }
    Ok(())
}

fn run_merge(args: MergeArgs) -> anyhow::Result<()> {
    if let Some(out) = &args.out {
        runner::check_output_file(out)?;
    }
    let (name, files) = runner::read_result_files(&args.files)?;
    let merge =
        games::merger(&name).with_context(|| format!("unknown experiment '{name}' in {}", args.files[0].display()))?;
    let mut result = merge(&files)?;
    if args.records {
        result["records"] = runner::shard_records(&files);
    }
    if let Some(out) = &args.out {
        runner::write_atomic(out, serde_json::to_string_pretty(&result)?.as_bytes())?;
    }
    runner::print_result(&result, &args.output);
    Ok(())
}

fn run_compare(args: CompareArgs) -> anyhow::Result<()> {
    let (experiment, files) = runner::read_result_files(&[&args.base, &args.variant])?;
    let test = match (args.equals, args.over) {
        (Some(value), _) => compare::Test::Equals(compare::parse_equals(&value)),
        (None, Some(limit)) => compare::Test::Over(limit),
        (None, None) => compare::Test::Value,
    };
    let field = compare::Field { path: args.field, test };
    runner::print_result(&compare::compare(&files, &experiment, &field)?, &args.output);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words that start a subcommand, so that inline code such as `puyo build --trials 500`
    /// counts as a command line too.
    const SUBCOMMANDS: [&str; 9] =
        ["bench", "merge", "compare", "puyo", "nazo", "calc", "labyrinth", "shanghai", "completions"];

    /// A word a reader replaces (FILE, N, I/N, KxD ...) or shell syntax: such lines are
    /// templates, not commands.
    fn is_placeholder(word: &str) -> bool {
        let letters: String = word.chars().filter(|c| c.is_ascii_alphabetic()).collect();
        let upper =
            !letters.is_empty() && letters.chars().filter(|c| c.is_ascii_uppercase()).count() * 2 > letters.len();
        upper || ["...", "…", "[", "|", "*", "<", ">", "$", "~"].iter().any(|s| word.contains(s))
    }

    /// A command line as README writes it, without the program name, a trailing comment or a
    /// pipe; None unless it starts with `asobi` or a subcommand and gives it an option (prose
    /// names commands such as `puyo versus` alone).
    fn command_words(text: &str) -> Option<Vec<String>> {
        let text = text.trim().trim_start_matches("$ ");
        let text = text.split(" #").next()?.split(" | ").next()?.split(" > ").next()?;
        // Words as a shell splits them (a line cut short by the cuts above may not split).
        let mut words = shlex::split(text).unwrap_or_else(|| text.split_whitespace().map(String::from).collect());
        if words.first().is_some_and(|w| w == "asobi") {
            words.remove(0);
        }
        let starts = words
            .first()
            .is_some_and(|w| SUBCOMMANDS.contains(&w.as_str()) || w == "--game" || w.starts_with("--game="));
        let has_option = words.iter().any(|w| w.starts_with("--"));
        (starts && has_option && !words.iter().any(|w| is_placeholder(w))).then_some(words)
    }

    /// Every command line of README: each line of its code blocks (continuations joined) and
    /// each piece of inline code (wrapped lines joined).
    fn readme_commands() -> Vec<Vec<String>> {
        let readme = include_str!("../README.md");
        let mut lines = Vec::new();
        for (i, part) in readme.split("```").enumerate() {
            if i % 2 == 1 {
                lines.extend(part.replace("\\\n", " ").lines().map(str::to_string));
            } else {
                lines.extend(part.split('`').skip(1).step_by(2).map(|code| code.replace('\n', " ")));
            }
        }
        lines.iter().filter_map(|line| command_words(line)).collect()
    }

    /// README's commands are how its figures are rerun: an option renamed or removed must not
    /// leave them stale.
    #[test]
    fn every_command_line_in_the_readme_parses() {
        let commands = readme_commands();
        assert!(commands.len() >= 50, "only {} command lines found in README", commands.len());
        let stale: Vec<String> = commands
            .iter()
            .filter_map(|words| {
                let args = std::iter::once("asobi".to_string()).chain(words.iter().cloned());
                Cli::try_parse_from(args).err().map(|e| format!("asobi {}\n  {}", words.join(" "), e.kind()))
            })
            .collect();
        assert!(stale.is_empty(), "README commands that no longer parse:\n{}", stale.join("\n"));
    }
}
