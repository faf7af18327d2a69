//! The batch experiment runner: plays games `0..n` of an [`Experiment`] on a rayon pool,
//! optionally only one shard of them, and turns the records into the JSON result.
//!
//! Every game is a pure function of (experiment parameters, base seed, game index), so a run
//! gives the same records whatever the thread count, and shards merged give the same result
//! as one run ([`merge`]).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use anyhow::{Context, bail, ensure};
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// A batch experiment: independent games, each producing one record, summarized at the end.
pub trait Experiment: Serialize + DeserializeOwned + Sync {
    /// Unique name written into result files, e.g. `"puyo.endless"`.
    const NAME: &'static str;
    /// What one game produces; kept in shard files so shards can be merged.
    type Record: Serialize + DeserializeOwned + Send;
    /// Number of games (indices `0..games()`).
    fn games(&self) -> u64;
    /// Plays game `index`; must depend only on `self`, `seed` and `index`.
    fn play(&self, seed: u64, index: u64) -> Self::Record;
    /// The result object (the command's JSON contract) from all records in index order.
    fn summarize(&self, records: &[Self::Record]) -> Map<String, Value>;
}

/// `--shard I/N`: run only the games whose index is I modulo N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Shard {
    /// I: this shard's games are those with index I modulo `count`.
    pub index: u64,
    /// N: how many shards share the batch.
    pub count: u64,
}

impl Shard {
    /// The whole batch in one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` of the batch is this shard's.
    pub fn contains(&self, game: u64) -> bool {
        game % self.count == self.index
    }

    /// This shard's games of a batch of `games`, in index order.
    pub fn games_of(&self, games: u64) -> impl Iterator<Item = u64> {
        (self.index..games).step_by(usize::try_from(self.count).unwrap_or(usize::MAX))
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s.split_once('/').ok_or_else(|| format!("shard '{s}' is not of the form I/N (e.g. 0/4)"))?;
        let index: u64 = i.trim().parse().map_err(|_| format!("shard index '{i}' is not a number"))?;
        let count: u64 = n.trim().parse().map_err(|_| format!("shard count '{n}' is not a number"))?;
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: need 0 <= I < N"));
        }
        Ok(Shard { index, count })
    }
}

/// A value's name on the command line.
pub fn value_name(value: impl clap::ValueEnum) -> String {
    value.to_possible_value().expect("every value has a name").get_name().to_string()
}

/// Game `index` of the batch of `seed`: what a screen deals from the experiment's own streams,
/// so that `--seed SEED --trace INDEX` replays it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchGame {
    /// The batch's `--seed`.
    pub seed: u64,
    /// The game's index in the batch (`--trace`).
    pub index: u64,
}

/// A command line built from settings, as a panel shows it: `asobi`, the subcommand, then an
/// option for each setting (those at the command's default may be left out).
pub struct CommandLine(Vec<String>);

impl CommandLine {
    /// `asobi` and the subcommand's words.
    pub fn new(subcommand: &[&str]) -> CommandLine {
        CommandLine(std::iter::once("asobi").chain(subcommand.iter().copied()).map(String::from).collect())
    }

    /// No words yet: options to pass as one value of another option (a versus seat's).
    pub fn empty() -> CommandLine {
        CommandLine(Vec::new())
    }

    /// The words so far.
    pub fn words(&self) -> &[String] {
        &self.0
    }

    /// A positional argument.
    pub fn arg(&mut self, value: impl ToString) {
        self.0.push(value.to_string());
    }

    /// `--name value`.
    pub fn option(&mut self, name: &str, value: impl ToString) {
        self.0.extend([format!("--{name}"), value.to_string()]);
    }

    /// `--name value`, unless the value is the command's default.
    pub fn option_unless<T: PartialEq + ToString>(&mut self, name: &str, value: T, default: T) {
        if value != default {
            self.option(name, value);
        }
    }

    /// `--name` when `on`.
    pub fn flag(&mut self, name: &str, on: bool) {
        if on {
            self.0.push(format!("--{name}"));
        }
    }

    /// The options that play only `game` of its batch, printed move by move (`--trace`).
    pub fn traced_game(&mut self, game: BatchGame) {
        self.option("games", game.index + 1);
        self.option("seed", game.seed);
        self.option("trace", game.index);
    }

    /// The words joined into a line a POSIX shell reads back as the same words.
    pub fn line(&self) -> String {
        let quote = |word: &String| {
            let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
            if plain { word.clone() } else { format!("'{}'", word.replace('\'', r"'\''")) }
        };
        self.0.iter().map(quote).collect::<Vec<_>>().join(" ")
    }
}

/// A game's subcommands, parsed alone (the Lab's command lines, and tests of the lines panels
/// show).
#[derive(clap::Parser)]
#[command(name = "asobi")]
struct GameCommandLine<C: clap::Subcommand> {
    #[command(subcommand)]
    command: C,
}

/// Parses a game's subcommand and its options (`words` as after `asobi GAME`, the subcommand
/// first); the error is clap's first line, without its "error: ".
pub fn parse_subcommand<C: clap::Subcommand>(words: &[String]) -> Result<C, String> {
    use clap::Parser;
    use clap::error::ErrorKind;
    let line = std::iter::once("asobi").chain(words.iter().map(String::as_str));
    GameCommandLine::<C>::try_parse_from(line).map(|line| line.command).map_err(|e| match e.kind() {
        // Help is clap's "error" to stop parsing; its first line would read as a complaint.
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            "help and version are printed in a terminal (`asobi GAME SUBCOMMAND --help`), not run".to_string()
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => "the line names no subcommand".to_string(),
        _ => clap_message(&e),
    })
}

/// A clap error as one line: its first, without the "error: " clap starts it with.
pub fn clap_message(e: &clap::Error) -> String {
    let message = e.to_string();
    message.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string()
}

/// Parses `asobi GAME ...` (split into words as a POSIX shell would) into that game's
/// subcommand.
#[cfg(test)]
pub fn parse_game_command<C: clap::Subcommand>(line: &str, game: &str) -> C {
    let words = shlex::split(line).unwrap_or_else(|| panic!("{line}: unbalanced quotes"));
    assert_eq!(words.get(1).map(String::as_str), Some(game), "{line}: not asobi {game}");
    parse_subcommand(&words[2..]).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Value parser for counts that must be positive (games, trials, deals, plays, n, depth...):
/// `#[arg(value_parser = at_least_one::<u64>)]`. A zero count would run an empty batch and
/// print a vacuous result, so it is a usage error naming the option, like any bad value.
pub fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(s: &str) -> Result<T, String> {
    match s.trim().parse::<T>() {
        Ok(v) if v >= T::from(1) => Ok(v),
        Ok(_) => Err("must be at least 1".into()),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}

/// Value parser for a real number from `lo` to `hi` (weights, probabilities, thresholds):
/// `#[arg(value_parser = number_in(0.0, 1.0))]`. NaN and values out of range are usage errors
/// naming the option and the range.
pub fn number_in(lo: f64, hi: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s| match s.trim().parse::<f64>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a number from {lo} to {hi}")),
    }
}

/// Options shared by every batch subcommand.
#[derive(Clone, Debug, clap::Args)]
pub struct BatchOptions {
    /// Base seed; game i is seeded from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Run only games with index = I (mod N); combine the files with `asobi merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Also give every game's record, as [index, record] pairs under "records" (shard files
    /// always carry them): per-game figures for your own analysis.
    #[arg(long, requires = "json")]
    pub records: bool,
    /// How to print.
    #[command(flatten)]
    pub output: OutputOptions,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions { seed: 1, threads: None, shard: None, records: false, output: OutputOptions::default() }
    }
}

/// Options for how any subcommand prints.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct OutputOptions {
    /// Print one JSON object with the results on stdout and nothing else there.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Where a run reports progress and learns it should stop: a terminal bar or the Lab screen.
pub trait ProgressSink: Sync {
    /// One more game (trial, deal, instance) of the run finished.
    fn game_done(&self);
    /// Whether the run should stop early (the Lab's Cancel); a terminal run never does.
    fn cancelled(&self) -> bool {
        false
    }
}

impl ProgressSink for indicatif::ProgressBar {
    fn game_done(&self) {
        self.inc(1);
    }
}

/// Progress shared with a GUI: counters it can poll each frame, and a cancel flag.
#[derive(Debug, Default)]
pub struct SharedProgress {
    /// Games finished so far.
    pub done: AtomicU64,
    /// Games the run will play.
    pub total: AtomicU64,
    /// Set by the GUI to stop the run early.
    pub cancel: AtomicBool,
}

impl ProgressSink for SharedProgress {
    fn game_done(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// The records of the games played, in index order.
#[derive(Debug, Clone, PartialEq)]
pub struct Games<R> {
    /// Each record's game index.
    pub indices: Vec<u64>,
    /// The records, in index order.
    pub records: Vec<R>,
}

impl<R> FromIterator<(u64, R)> for Games<R> {
    fn from_iter<I: IntoIterator<Item = (u64, R)>>(iter: I) -> Self {
        let (indices, records) = iter.into_iter().unzip();
        Games { indices, records }
    }
}

/// The most games one run (or one shard of a run) plays: its records are held in memory until
/// it ends, so a larger batch is split with `--shard` and put together with `asobi merge`.
pub const MAX_RUN_GAMES: u64 = 10_000_000;

/// Plays the games of `shard` on `threads` workers; `None` if cancelled.
pub fn run_records<E: Experiment>(
    exp: &E,
    seed: u64,
    shard: Shard,
    threads: Option<u64>,
    progress: &dyn ProgressSink,
) -> anyhow::Result<Option<Games<E::Record>>> {
    let games = exp.games();
    anyhow::ensure!(
        games.div_ceil(shard.count) <= MAX_RUN_GAMES,
        "{games} games in one run: at most {MAX_RUN_GAMES} a run or a shard (split it with --shard I/N, then asobi merge)"
    );
    let indices: Vec<u64> = shard.games_of(games).collect();
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(t as usize);
    }
    let pool = builder.build().context("could not start the worker threads")?;
    let records: Vec<Option<(u64, E::Record)>> = pool.install(|| {
        indices
            .par_iter()
            .map(|&i| {
                if progress.cancelled() {
                    return None;
                }
                let record = exp.play(seed, i);
                progress.game_done();
                Some((i, record))
            })
            .collect()
    });
    Ok(records.into_iter().collect::<Option<Games<E::Record>>>())
}

/// A terminal progress bar on stderr, hidden when stderr is not a terminal or with `--quiet`.
pub fn terminal_bar(total: u64, label: &str, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} games, {elapsed} (eta {eta})")
        .expect("static template")
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(label.to_string());
    bar
}

/// The full result object: the summary fields, then what identifies the run. Shard runs also
/// carry their records so that `asobi merge` can combine them.
pub fn result_json<E: Experiment>(exp: &E, seed: u64, shard: Shard, games: &Games<E::Record>) -> Value {
    let mut out = exp.summarize(&games.records);
    out.insert("experiment".into(), json!(E::NAME));
    out.insert("seed".into(), json!(seed));
    out.insert("params".into(), serde_json::to_value(exp).expect("parameters serialize"));
    let mut out = Value::Object(out);
    if shard != Shard::WHOLE {
        out["shard"] = json!(format!("{}/{}", shard.index, shard.count));
        insert_records(&mut out, games);
    }
    out
}

/// Adds the games' records to a result object as [index, record] pairs (`--records`).
pub fn insert_records<R: Serialize>(result: &mut Value, games: &Games<R>) {
    let pairs: Vec<(u64, &R)> = games.indices.iter().copied().zip(&games.records).collect();
    result["records"] = serde_json::to_value(pairs).expect("records serialize");
}

/// Runs an experiment from the command line: progress bar, then the result printed as JSON
/// (`--json`) or as aligned `key: value` lines.
pub fn run_cli<E: Experiment>(exp: &E, opts: &BatchOptions) -> anyhow::Result<Value> {
    let shard = opts.shard.unwrap_or(Shard::WHOLE);
    let total = shard.games_of(exp.games()).take(MAX_RUN_GAMES as usize + 1).count() as u64;
    let bar = terminal_bar(total, E::NAME, opts.output.quiet);
    let records = run_records(exp, opts.seed, shard, opts.threads, &bar)?.expect("a terminal run is never cancelled");
    bar.finish_and_clear();
    let mut result = result_json(exp, opts.seed, shard, &records);
    if opts.records {
        insert_records(&mut result, &records);
    }
    print_result(&result, &opts.output);
    Ok(result)
}

/// `--trace INDEX` must name one of the batch's `games`.
pub fn check_trace_index(index: u64, games: u64) -> anyhow::Result<()> {
    anyhow::ensure!(
        index < games,
        "--trace {index}: the batch has {games} games (indices 0 to {})",
        games.saturating_sub(1)
    );
    Ok(())
}

/// Writes `text` to stdout at once; a reader that stops early (`| head`) is not an error.
pub fn print_text(text: &str) -> anyhow::Result<()> {
    match std::io::stdout().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Prints a result object as the output options ask.
pub fn print_result(result: &Value, output: &OutputOptions) {
    if output.json {
        println!("{}", serde_json::to_string(result).expect("JSON value prints"));
    } else {
        print!("{}", text_report(result, "--json"));
    }
}

/// Longest value [`text_report`] prints whole (a layout in the parameters can run to pages).
const REPORT_VALUE_CHARS: usize = 200;

/// `text` cut to `max` characters, saying how much was left out and what shows it whole.
fn elide(text: &str, max: usize, whole: &str) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max).collect();
    format!("{kept} ... ({} more characters; {whole} shows all)", total - max)
}

/// `key: value` lines for people; nested objects inline, records left out, long values elided
/// with a pointer to `whole`, where the reader finds them in full (e.g. "--json").
pub fn text_report(result: &Value, whole: &str) -> String {
    let Value::Object(map) = result else { return format!("{result}\n") };
    let width = map.keys().map(String::len).max().unwrap_or(0);
    let mut s = String::new();
    for (k, v) in map {
        if k == "records" {
            continue;
        }
        s.push_str(&format!("{k:>width$}: {}\n", elide(&shown(v), REPORT_VALUE_CHARS, whole)));
    }
    s
}

/// Items of a list inside an object that the text report still lists; a longer one (a
/// layout's tiles, a deal) shows as its length.
const REPORT_NESTED_ITEMS: usize = 8;

/// A result value for people: floating-point numbers rounded (see [`rounded`]), also inside
/// lists (an interval, a map of points) and objects (`{key: value, ...}`, strings quoted there);
/// strings unquoted; other lists as JSON. Inside an object (parameters), a list longer than
/// [`REPORT_NESTED_ITEMS`] shows as its length, however deep it lies (a layout's tiles, deals).
fn shown(v: &Value) -> String {
    shown_at(v, false)
}

fn shown_at(v: &Value, in_object: bool) -> String {
    match v {
        Value::Number(n) if n.is_f64() => rounded(n.as_f64().unwrap_or(0.0)),
        Value::String(_) if in_object => v.to_string(),
        Value::String(t) => t.clone(),
        Value::Array(items) if in_object && items.len() > REPORT_NESTED_ITEMS => format!("[{} items]", items.len()),
        Value::Array(items) if items.iter().all(|v| v.is_number() || v.is_array()) => {
            format!("[{}]", items.iter().map(|v| shown_at(v, in_object)).collect::<Vec<_>>().join(", "))
        }
        Value::Object(map) => {
            let field = |(k, v): (&String, &Value)| format!("{k}: {}", shown_at(v, true));
            format!("{{{}}}", map.iter().map(field).collect::<Vec<_>>().join(", "))
        }
        other => other.to_string(),
    }
}

/// A fraction or mean to at most 4 places, without the zeros that say nothing: 0.1235, 23.5,
/// 20.0 (one place kept, so that a float still reads as one). A nonzero number too small for
/// 4 places (a p-value) keeps 3 significant digits: 1.23e-9.
fn rounded(x: f64) -> String {
    if x != 0.0 && x.abs() < 5e-5 {
        return format!("{x:.2e}");
    }
    let fixed = format!("{x:.4}");
    let trimmed = fixed.trim_end_matches('0');
    if trimmed.ends_with('.') { format!("{trimmed}0") } else { trimmed.to_string() }
}

/// A result file as read back by `asobi merge` or `asobi compare`.
struct ResultFile {
    path: String,
    value: Map<String, Value>,
}

/// Result files as (path, JSON object), the input of [`merge`].
pub type ResultFiles = Vec<(String, Map<String, Value>)>;

/// A merge for one experiment type, e.g. `merge::<Endless>`: how games register theirs.
pub type MergeFn = fn(&[(String, Map<String, Value>)]) -> anyhow::Result<Value>;

/// Reads result files written by `--json` runs (the shards of `asobi merge`, the two runs of
/// `asobi compare`). Returns the experiment name they share and their contents.
pub fn read_result_files(paths: &[impl AsRef<Path>]) -> anyhow::Result<(String, ResultFiles)> {
    ensure!(!paths.is_empty(), "no result file given");
    let mut files = Vec::new();
    for p in paths {
        let path = p.as_ref().display().to_string();
        let text = std::fs::read_to_string(p.as_ref()).with_context(|| format!("cannot read {path}"))?;
        ensure!(!text.trim().is_empty(), "{path}: empty file: expected the JSON result of a --json run");
        // Parsed untrimmed so that the error's line and column are the file's.
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{path}:{}:{}: not a JSON result: {e}", e.line(), e.column()))?;
        let Value::Object(value) = value else { bail!("{path}: expected a JSON object") };
        files.push(ResultFile { path, value });
    }
    let name = experiment_name(&files[0])?;
    for f in &files[1..] {
        let other = experiment_name(f)?;
        ensure!(other == name, "{}: experiment '{other}' differs from '{name}' in {}", f.path, files[0].path);
    }
    Ok((name, files.into_iter().map(|f| (f.path, f.value)).collect()))
}

fn experiment_name(f: &ResultFile) -> anyhow::Result<String> {
    f.value
        .get("experiment")
        .and_then(Value::as_str)
        .map(str::to_string)
        .with_context(|| format!("{}: no \"experiment\" field: not an asobi result file", f.path))
}

/// Combines shard results of experiment `E` into the result of one whole run. Checks that the
/// files agree on parameters and seed and that the shards cover every game exactly once.
pub fn merge<E: Experiment>(files: &[(String, Map<String, Value>)]) -> anyhow::Result<Value> {
    let (first_path, first) = &files[0];
    let params = first.get("params").cloned().with_context(|| format!("{first_path}: no \"params\""))?;
    let seed = first.get("seed").and_then(Value::as_u64).with_context(|| format!("{first_path}: no \"seed\""))?;
    let exp: E = serde_json::from_value(params.clone())
        .with_context(|| format!("{first_path}: parameters do not fit experiment {}", E::NAME))?;
    let mut records: Vec<(u64, E::Record)> = Vec::new();
    let mut shard_count = None;
    let mut seen_shards = Vec::new();
    for (path, file) in files {
        ensure!(file.get("params") == Some(&params), "{path}: parameters differ from {first_path}");
        ensure!(file.get("seed").and_then(Value::as_u64) == Some(seed), "{path}: seed differs from {first_path}");
        let shard: Shard = match file.get("shard").and_then(Value::as_str) {
            Some(s) => s.parse().map_err(|e| anyhow::anyhow!("{path}: {e}"))?,
            None => bail!("{path}: not a shard file (run with --shard I/N --json)"),
        };
        ensure!(
            shard_count.is_none_or(|n| n == shard.count),
            "{path}: shard {}/{} does not match the other files' N",
            shard.index,
            shard.count
        );
        shard_count = Some(shard.count);
        ensure!(!seen_shards.contains(&shard.index), "{path}: shard {}/{} given twice", shard.index, shard.count);
        seen_shards.push(shard.index);
        let recs = file.get("records").cloned().with_context(|| format!("{path}: no \"records\""))?;
        let recs: Vec<(u64, E::Record)> =
            serde_json::from_value(recs).with_context(|| format!("{path}: malformed records"))?;
        ensure!(
            recs.iter().all(|(i, _)| shard.contains(*i)),
            "{path}: holds games outside shard {}/{}",
            shard.index,
            shard.count
        );
        records.extend(recs);
    }
    let n = shard_count.unwrap_or(1);
    let missing: Vec<u64> = (0..n).filter(|i| !seen_shards.contains(i)).collect();
    ensure!(missing.is_empty(), "shards {missing:?} of {n} are missing");
    records.sort_by_key(|(i, _)| *i);
    ensure!(
        records.len() as u64 == exp.games(),
        "the files hold {} games, the experiment has {}",
        records.len(),
        exp.games()
    );
    Ok(result_json(&exp, seed, Shard::WHOLE, &records.into_iter().collect()))
}

/// The `[index, record]` pairs of shard files that [`merge`] accepted, in index order: the
/// whole run's `--records`.
pub fn shard_records(files: &[(String, Map<String, Value>)]) -> Value {
    let mut pairs: Vec<&Value> =
        files.iter().filter_map(|(_, file)| file.get("records")?.as_array()).flatten().collect();
    pairs.sort_by_key(|pair| pair.get(0).and_then(Value::as_u64));
    Value::Array(pairs.into_iter().cloned().collect())
}

/// The folder and file name of an output path, checked: a file name whose folder exists.
fn output_parts(path: &Path) -> anyhow::Result<(&Path, &std::ffi::OsStr)> {
    let name = path.file_name().with_context(|| format!("cannot write {}: not a file path", path.display()))?;
    ensure!(!path.is_dir(), "cannot write {}: it is a folder", path.display());
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    ensure!(dir.is_dir(), "cannot write {}: there is no folder {}", path.display(), dir.display());
    Ok((dir, name))
}

/// Checks, before a long run, that [`write_atomic`] can put its result at `path`. Commands
/// with `--out` call it first, so that a mistyped path costs no work.
pub fn check_output_file(path: &Path) -> anyhow::Result<()> {
    output_parts(path).map(|_| ())
}

/// Writes a file atomically: a temporary file in the same folder, then a rename, so an
/// interrupted write never leaves a half-written file in place of the user's data.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let (dir, name) = output_parts(path)?;
    let tmp = dir.join(format!(".{}.tmp{}", name.to_string_lossy(), std::process::id()));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp); // may not exist; the write's error is the one to report
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    Ok(())
}

/// Writes `value` as pretty RON with [`write_atomic`]: the presets that the command line
/// reads back (weights, bot constants, templates).
pub fn write_ron<T: Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    let text = ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())?;
    write_atomic(path, format!("{text}\n").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::rng::game_rng;
    use rand::Rng;

    #[test]
    fn a_word_the_shell_would_split_is_quoted() {
        let mut command = CommandLine::new(&["puyo", "build"]);
        command.option("templates", "/home/me/my templates/it's");
        command.option_unless("depth", 3, 3);
        command.option_unless("select", "", "max");
        command.flag("boundary-sim", false);
        assert_eq!(command.line(), r"asobi puyo build --templates '/home/me/my templates/it'\''s' --select ''");
    }

    #[test]
    fn text_report_elides_long_values_only() {
        let long = "x".repeat(REPORT_VALUE_CHARS + 50);
        let report = text_report(&serde_json::json!({"short": "abc", "long": long}), "--json");
        assert!(report.contains("short: abc\n"));
        assert!(report.contains(" ... (50 more characters; --json shows all)"));
        assert!(!report.contains(&long));
    }

    #[test]
    fn text_report_rounds_fractions_also_in_lists() {
        let result = serde_json::json!({"rate": 0.123456, "ci95": [0.1, 1.0], "games": 7, "counts": [1, 2], "map": [[0.5, 2.0 / 3.0]]});
        let report = text_report(&result, "--json");
        assert!(report.contains("rate: 0.1235\n"), "{report}");
        assert!(report.contains("ci95: [0.1, 1.0]\n"), "{report}");
        assert!(report.contains("games: 7\n") && report.contains("counts: [1, 2]\n"), "{report}");
        assert!(report.contains("map: [[0.5, 0.6667]]\n"), "{report}");
    }

    #[test]
    fn rounded_numbers_drop_zeros_that_say_nothing() {
        let cases = [
            (20.0, "20.0"),
            (0.123456, "0.1235"),
            (-1.25, "-1.25"),
            (0.99999, "1.0"),
            (1.234e-9, "1.23e-9"),
            (0.0, "0.0"),
        ];
        for (x, text) in cases {
            assert_eq!(rounded(x), text, "{x}");
        }
    }

    #[test]
    fn text_report_shows_objects_field_by_field_with_fractions_rounded() {
        let result = serde_json::json!({"S=3": {"ci95": [0.25819, 0.65791], "name": "x", "wins": 9, "rate": 0.45}});
        let report = text_report(&result, "--json");
        assert!(report.contains(r#"S=3: {ci95: [0.2582, 0.6579], name: "x", rate: 0.45, wins: 9}"#), "{report}");
    }

    #[test]
    fn text_report_shows_long_lists_inside_objects_as_their_length() {
        let tiles: Vec<[u8; 3]> = (0..36).map(|i| [i, 0, 0]).collect();
        let deals = vec![vec![0u8; 36]; 2];
        let result = serde_json::json!({"params": {"layout": {"name": "mini", "tiles": tiles}, "kinds": [1, 2], "deals": {"Fixed": deals}}});
        let report = text_report(&result, "--json");
        let expected = r#"params: {deals: {Fixed: [[36 items], [36 items]]}, kinds: [1, 2], layout: {name: "mini", tiles: [36 items]}}"#;
        assert!(report.contains(expected), "{report}");
    }

    /// A toy experiment: each game draws a number; the summary counts the even ones.
    #[derive(Serialize, serde::Deserialize)]
    struct Coin {
        games: u64,
    }

    impl Experiment for Coin {
        const NAME: &'static str = "test.coin";
        type Record = u32;
        fn games(&self) -> u64 {
            self.games
        }
        fn play(&self, seed: u64, index: u64) -> u32 {
            game_rng(seed, index).random_range(0..1000)
        }
        fn summarize(&self, records: &[u32]) -> Map<String, Value> {
            let even = records.iter().filter(|r| *r % 2 == 0).count();
            let mut m = Map::new();
            m.insert("games".into(), json!(records.len()));
            m.insert("even".into(), json!(even));
            m.insert("first".into(), json!(records.first()));
            m
        }
    }

    fn run(threads: u64, shard: Shard) -> Value {
        let exp = Coin { games: 101 };
        let recs = run_records(&exp, 5, shard, Some(threads), &indicatif::ProgressBar::hidden()).unwrap().unwrap();
        result_json(&exp, 5, shard, &recs)
    }

    #[test]
    fn a_shards_games_are_those_it_contains() {
        for (games, count) in [(0, 1), (1, 1), (7, 3), (9, 3), (10, 4), (3, 5)] {
            for index in 0..count {
                let shard = Shard { index, count };
                let listed: Vec<u64> = shard.games_of(games).collect();
                assert_eq!(
                    listed,
                    (0..games).filter(|&i| shard.contains(i)).collect::<Vec<_>>(),
                    "{shard:?} of {games}"
                );
            }
        }
    }

    /// A batch too large to hold is refused before a game is played, in one run and per shard.
    #[test]
    fn a_batch_too_large_to_hold_is_refused() {
        let bar = indicatif::ProgressBar::hidden();
        let exp = Coin { games: 3 * MAX_RUN_GAMES };
        let err = run_records(&exp, 1, Shard::WHOLE, None, &bar).expect_err("refused").to_string();
        assert!(err.starts_with("30000000 games in one run") && err.contains("--shard"), "{err}");
        let err = run_records(&exp, 1, Shard { index: 0, count: 2 }, None, &bar).expect_err("refused").to_string();
        assert!(err.contains("at most 10000000 a run or a shard"), "{err}");
        let exp = Coin { games: 3 * MAX_RUN_GAMES + 1 };
        let ok = run_records(&exp, 1, Shard { index: 0, count: 4_000_000 }, None, &bar).unwrap().unwrap();
        assert_eq!(ok.records.len(), 8, "indices 0, 4M, ..., 28M");
    }

    #[test]
    fn thread_count_does_not_change_results() {
        assert_eq!(run(1, Shard::WHOLE), run(3, Shard::WHOLE));
    }

    #[test]
    fn merged_shards_equal_one_run() {
        let whole = run(2, Shard::WHOLE);
        let files: Vec<(String, Map<String, Value>)> = (0..3)
            .map(|i| {
                let Value::Object(m) = run(1, Shard { index: i, count: 3 }) else { unreachable!() };
                (format!("shard{i}.json"), m)
            })
            .collect();
        assert_eq!(merge::<Coin>(&files).unwrap(), whole);
        let err = merge::<Coin>(&files[..2]).unwrap_err().to_string();
        assert!(err.contains("missing"), "{err}");
    }

    /// `--records` gives the whole run's records in index order, as the shards carry theirs.
    #[test]
    fn records_list_every_game_in_index_order() {
        let exp = Coin { games: 7 };
        let games = run_records(&exp, 5, Shard::WHOLE, Some(2), &indicatif::ProgressBar::hidden()).unwrap().unwrap();
        let mut result = result_json(&exp, 5, Shard::WHOLE, &games);
        assert!(result.get("records").is_none());
        insert_records(&mut result, &games);
        let expected: Vec<Value> = (0..7).map(|i| json!([i, exp.play(5, i)])).collect();
        assert_eq!(result["records"], json!(expected));
        assert_eq!(result["games"], json!(7));
    }

    #[test]
    fn shard_parsing() {
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
