//! `asobi shanghai ...`: thin clap glue over the experiments, the tuner and the layouts.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, bail, ensure};
use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::ai::risk::RiskJudge;
use super::ai::tune::{TuneOptions, tune};
use super::ai::{MAX_DEPTH, PlayerParams, RISK_WINDOW, SOLVE_NODES, TieBreak};
use super::catalog::{bundled, load, read_weights, weights_for};
use super::experiment::{Deals, Eval, Generate, HIGH_FROM, LOW_BELOW, OnLayout, Oracle, TracedDecision};
use super::generator::{DealSource, backward_play};
use super::io::instances::{Instance, InstanceFile};
use super::layout::Layout;
use super::level::{Weights, WeightsFile};
use super::rules::UNKNOWN;
use crate::lab::rng::game_rng;
use crate::lab::runner::{
    BatchOptions, CommandLine, Experiment, OutputOptions, at_least_one, check_output_file, check_trace_index,
    number_in, print_result, print_text, run_cli, value_name, write_atomic, write_ron,
};

/// The `asobi shanghai` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve rate of the virtual player on generator (or random) deals (paper §4.1, Tables 1-2).
    Eval(EvalArgs),
    /// Perfect-information solvability of deals (the ~97% anchor for random turtle deals).
    Oracle(OracleArgs),
    /// Measure generator instances with a weak and a strong player: the 2-D map (paper §5).
    Generate(GenerateArgs),
    /// List the bundled layouts with their tile counts.
    Layouts(LayoutsArgs),
    /// Tune the five feature weights on a layout by local search; writes a weight preset.
    Tune(TuneArgs),
}

/// The options of `eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Bundled layout name (see `layouts`) or a .layout/.ron file.
    #[arg(long, default_value = "mini_turtle")]
    pub layout: String,
    /// Number of deals.
    #[arg(long, default_value_t = 100, value_parser = at_least_one::<u64>)]
    pub instances: u64,
    /// Plays per deal.
    #[arg(long, default_value_t = 10, value_parser = at_least_one::<u64>)]
    pub plays: u64,
    /// Determinizations of the hidden tiles per decision.
    #[arg(long, default_value_t = 16, value_parser = at_least_one::<u32>)]
    pub n: u32,
    /// Search depth D (1 to 8).
    #[arg(long, default_value_t = 3, value_parser = search_depth)]
    pub depth: u32,
    /// Plain random deals (may be unsolvable) instead of generator deals.
    #[arg(long)]
    pub random: bool,
    /// Evaluate the instances of a file written by `generate --out` (overrides --layout, --instances).
    #[arg(long)]
    pub instance: Option<PathBuf>,
    /// Weight preset file (default: the layout's bundled preset, else the built-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// asobi's extensions of the virtual player.
    #[command(flatten)]
    pub extensions: ExtensionArgs,
    /// Also find in each lost game the move after which the real deal became unsolvable (the
    /// peeking solver, after every move) and count the losses by that move's kind: a certain
    /// move, a guess, a searched move (`blunders` in the result; the decisions are the same).
    #[arg(long)]
    pub blunders: bool,
    /// A diagnostic: the player sees every tile, hidden ones included, so each of its samples
    /// is the real deal (use --n 1) and what it still loses, its search and certain-move rules
    /// lose, not the hidden tiles.
    #[arg(long)]
    pub peek: bool,
    /// With --blunders: judge every legal move of a searched or guessed decision that lost the
    /// real deal on this many more solvable worlds dealt from what the player saw, by the risk
    /// check's solver (`lock_risk` under `blunders`: was a move valued near the one played
    /// less risky, so that the loss was avoidable at that move?).
    #[arg(long, value_name = "WORLDS", default_value_t = 0, requires = "blunders")]
    pub lock_risk: u32,
    /// Play only game INDEX (deal INDEX / plays, play INDEX % plays) and print each decision:
    /// the tiles left, the pair removed, the certain-move rule or the best mean values (with
    /// --blunders, the move that lost the real deal), then the game's record as JSON.
    #[arg(long, value_name = "INDEX", conflicts_with_all = ["json", "shard", "threads"])]
    pub trace: Option<u64>,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// asobi's extensions of the virtual player (all on by default; off = the paper's player).
#[derive(Debug, Args)]
pub struct ExtensionArgs {
    /// Score positions the peeking solver proves lost in a sampled world as 0, check rule 4
    /// with the solver there, rate guesses as such and put moves that are no guess first among
    /// equal values (false: only stuck positions score 0, as in the paper).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub dead_ends: bool,
    /// Redeal samples of the hidden tiles that the peeking solver proves lost (false: uniform
    /// samples, as in the paper).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub solvable_worlds: bool,
    /// With --dead-ends, also decide positions after moves down to this depth with the
    /// peeking solver's search in each sampled world (0: its cheap relaxation only).
    #[arg(long, default_value_t = 1)]
    pub solve_depth: u32,
    /// Node budget of those solver searches (and of the solver's check of rule 4).
    #[arg(long, default_value_t = SOLVE_NODES)]
    pub solve_nodes: u64,
    /// Among moves of equal mean value: the first in tile order, a seeded random one, or the
    /// higher action value (default: value with --dead-ends, first without).
    #[arg(long, value_enum)]
    pub ties: Option<TieBreak>,
    /// Score cleared and stuck positions 1 and 0 also at depth D (the spec's decision; default:
    /// with --dead-ends). false is the paper's rule, the default without --dead-ends: a move at
    /// depth D is worth its action value alone, whatever the sampled world holds.
    #[arg(long, action = clap::ArgAction::Set)]
    pub terminal_at_depth: Option<bool>,
    /// The risk check (asobi's, off by default): the moves whose mean value lies within
    /// --risk-window of the best are also judged on this many more solvable worlds by the
    /// peeking solver alone, and the one that loses the fewest is played (48 is a good value).
    #[arg(long, default_value_t = 0)]
    pub risk_worlds: u32,
    /// The risk check's window of mean values.
    #[arg(long, default_value_t = RISK_WINDOW, value_parser = number_in(0.0, 1.0))]
    pub risk_window: f64,
    /// How the risk check tells that a move loses a world: the peeking solver proves the move
    /// locks it, or the greedy player (seeing only what a player sees) fails to clear it after
    /// the move.
    #[arg(long, value_enum, default_value_t = RiskJudge::Locks)]
    pub risk_judge: RiskJudge,
}

fn search_depth(s: &str) -> Result<u32, String> {
    match at_least_one::<u32>(s)? {
        d if d <= MAX_DEPTH => Ok(d),
        _ => Err(format!("at most {MAX_DEPTH} (each ply multiplies the time by about 3)")),
    }
}

impl ExtensionArgs {
    /// `player` with these extension settings.
    fn apply(&self, player: PlayerParams) -> PlayerParams {
        PlayerParams {
            dead_ends: self.dead_ends,
            solvable_worlds: self.solvable_worlds,
            solve_depth: self.solve_depth,
            solve_nodes: self.solve_nodes,
            ties: self.ties,
            terminal_at_depth: self.terminal_at_depth.unwrap_or(self.dead_ends),
            risk_worlds: self.risk_worlds,
            risk_window: self.risk_window,
            risk_judge: self.risk_judge,
            ..player
        }
    }
}

/// The options of `oracle`.
#[derive(Debug, Args)]
pub struct OracleArgs {
    /// Bundled layout name or a .layout/.ron file.
    #[arg(long, default_value = "turtle")]
    pub layout: String,
    /// Number of deals.
    #[arg(long, default_value_t = 1000, value_parser = at_least_one::<u64>)]
    pub deals: u64,
    /// Plain random deals instead of generator deals.
    #[arg(long)]
    pub random: bool,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Bundled layout name or a .layout/.ron file.
    #[arg(long, default_value = "mini_turtle")]
    pub layout: String,
    /// Number of generator instances.
    #[arg(long, default_value_t = 100, value_parser = at_least_one::<u64>)]
    pub count: u64,
    /// The weak player as nxD.
    #[arg(long, default_value = "1x1")]
    pub weak: String,
    /// The strong player as nxD.
    #[arg(long, default_value = "16x3")]
    pub strong: String,
    /// Plays per instance and player.
    #[arg(long, default_value_t = 20, value_parser = at_least_one::<u64>)]
    pub plays: u64,
    /// Skill instance: weak solve rate below this ...
    #[arg(long, default_value_t = LOW_BELOW, value_parser = number_in(0.0, 1.0))]
    pub weak_max: f64,
    /// ... and strong solve rate at least this.
    #[arg(long, default_value_t = HIGH_FROM, value_parser = number_in(0.0, 1.0))]
    pub strong_min: f64,
    /// Weight preset file of both players (default: the layout's bundled preset, else the
    /// built-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// asobi's extensions of both players (`--dead-ends false --solvable-worlds false`: the
    /// paper's players, as in its §5).
    #[command(flatten)]
    pub extensions: ExtensionArgs,
    /// Write the instances with their rates here (RON; read back by `eval --instance`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `layouts`.
#[derive(Debug, Args)]
pub struct LayoutsArgs {
    /// How to print.
    #[command(flatten)]
    pub output: OutputOptions,
}

/// The options of `tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Bundled layout name or a .layout/.ron file.
    #[arg(long, default_value = "mini_turtle")]
    pub layout: String,
    /// Training deals (generator).
    #[arg(long, default_value_t = 50, value_parser = at_least_one::<u64>)]
    pub instances: u64,
    /// Plays per training deal.
    #[arg(long, default_value_t = 4, value_parser = at_least_one::<u64>)]
    pub plays: u64,
    /// n of the player being tuned.
    #[arg(long, default_value_t = 4, value_parser = at_least_one::<u32>)]
    pub n: u32,
    /// D of the player being tuned (1 to 8).
    #[arg(long, default_value_t = 2, value_parser = search_depth)]
    pub depth: u32,
    /// Weight preset to start from (default: the layout's bundled preset, else the built-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// asobi's extensions of the virtual player.
    #[command(flatten)]
    pub extensions: ExtensionArgs,
    /// Initial step of each weight (halved after a round without a gain).
    #[arg(long, default_value_t = 0.5, value_parser = number_in(0.01, 10.0))]
    pub step: f64,
    /// Rounds of coordinate search (10 trials each).
    #[arg(long, default_value_t = 3)]
    pub rounds: u32,
    /// Seed of the training deals and of the player's draws (as `eval --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Where to write the preset (default: `<layout>.weights.ron`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How to print.
    #[command(flatten)]
    pub output: OutputOptions,
}

/// Parses `nxD`, e.g. `16x3`.
fn parse_player(s: &str, weights: Weights, what: &str) -> anyhow::Result<PlayerParams> {
    let parsed = s.split_once(['x', 'X']).and_then(|(n, d)| Some((n.trim().parse().ok()?, d.trim().parse().ok()?)));
    match parsed {
        Some((n, depth)) if n >= 1 && (1..=MAX_DEPTH).contains(&depth) => {
            Ok(PlayerParams { n, depth, weights, ..PlayerParams::default() })
        }
        _ => bail!("--{what} '{s}': expected nxD with n >= 1 and D from 1 to {MAX_DEPTH}, e.g. 16x3"),
    }
}

/// A layout that the generator can deal (fails early instead of inside a worker).
fn dealable(name: &str) -> anyhow::Result<Arc<Layout>> {
    let layout = load(name)?;
    backward_play(&layout, &mut game_rng(0, 0)).map_err(anyhow::Error::msg)?;
    Ok(layout)
}

fn player_weights(layout: &Layout, file: &Option<PathBuf>) -> anyhow::Result<Weights> {
    file.as_deref().map_or_else(|| Ok(weights_for(&layout.name)), read_weights)
}

/// `eval --trace`: plays game `index` of the batch, printing each decision, then its record.
fn trace_eval(exp: &Eval, index: u64, seed: u64) -> anyhow::Result<()> {
    check_trace_index(index, exp.games())?;
    let layout = exp.layout.layout().clone();
    let (deal, play) = (index / exp.plays, index % exp.plays);
    let mut text = format!("{} deal {deal}, play {play}, seed {seed}\n", layout.name);
    let record = exp.play_traced(seed, index, &mut |m| text += &describe_decision(&layout, m));
    text += &format!("{}\n", serde_json::to_string(&record)?);
    print_text(&text)
}

/// Tile `t` as its index and position.
fn describe_tile(layout: &Layout, t: usize) -> String {
    let p = layout.positions[t];
    format!("{t} ({}, {}, {})", p.x, p.y, p.z)
}

/// A traced decision: the pair removed, the rule or the best values, and at the move that
/// lost the real deal where the rest of that kind lies.
fn describe_decision(layout: &Layout, m: &TracedDecision) -> String {
    let d = m.decision;
    let (a, b) = (d.mv.a as usize, d.mv.b as usize);
    let (tile_a, tile_b) = (describe_tile(layout, a), describe_tile(layout, b));
    let mut text =
        format!("move {}, {} tiles: kind {} at {tile_a} + {tile_b}: {}", m.number, m.tiles_left, m.kind, d.why);
    let mut others: Vec<_> = d.values.iter().filter(|(mv, _)| *mv != d.mv).collect();
    others.sort_by(|x, y| y.1.total_cmp(&x.1));
    for (mv, v) in others.iter().take(2) {
        text += &format!("; next {v:.3} at {} + {}", mv.a, mv.b);
    }
    if m.lost_here {
        let (game, obs) = (m.before, m.before.observation());
        let free = layout.free_tiles(&game.present);
        let rest: Vec<String> = (game.present.iter())
            .filter(|&t| game.kinds[t] == m.kind && t != a && t != b)
            .map(|t| {
                let seen = match (free.contains(t), obs.kinds[t] == UNKNOWN) {
                    (true, _) => "free",
                    (false, true) => "hidden",
                    (false, false) => "seen",
                };
                format!("{} {seen}", describe_tile(layout, t))
            })
            .collect();
        text += &format!(
            "\n  the real deal is unsolvable from here (the peeking solver); the rest of kind {}: {}",
            m.kind,
            rest.join(", ")
        );
        if let Some(r) = m.lock_risk {
            text += &format!(
                "\n  on {} worlds dealt from what the player saw, the move played loses {}, the safest move \
                 valued near it {}, the safest of all {}",
                r.worlds, r.played, r.near, r.least
            );
        }
    }
    text + "\n"
}

/// Runs one subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Eval(a) => eval(a),
        Command::Oracle(a) => oracle(a),
        Command::Generate(a) => generate(a),
        Command::Layouts(a) => {
            layouts(a);
            Ok(())
        }
        Command::Tune(a) => tune_weights(a),
    }
}

/// `shanghai eval`: the player's solve rate on generator, random or saved deals.
fn eval(a: EvalArgs) -> anyhow::Result<()> {
    let exp = eval_experiment(&a)?;
    match a.trace {
        Some(index) => trace_eval(&exp, index, a.batch.seed)?,
        None => drop(run_cli(&exp, &a.batch)?),
    }
    Ok(())
}

pub(crate) fn eval_experiment(a: &EvalArgs) -> anyhow::Result<Eval> {
    let (layout, deals, instances) = match &a.instance {
        Some(path) => {
            let shown = path.display().to_string();
            let text = crate::levels::read_user_file(path)?;
            let (layout, file) = InstanceFile::parse(&shown, &text)?;
            let n = file.instances.len() as u64;
            (Arc::new(layout), Deals::Fixed(file.instances.into_iter().map(|i| i.kinds).collect()), n)
        }
        None => {
            let source = if a.random { DealSource::Random } else { DealSource::Generator };
            (dealable(&a.layout)?, Deals::Source(source), a.instances)
        }
    };
    let weights = player_weights(&layout, &a.weights)?;
    let player = a.extensions.apply(PlayerParams { n: a.n, depth: a.depth, weights, ..PlayerParams::default() });
    Ok(Eval {
        layout: OnLayout::new(&layout),
        instances,
        plays: a.plays,
        player,
        deals,
        blunders: a.blunders,
        peek: a.peek,
        lock_risk: a.lock_risk,
    })
}

/// What `shanghai eval` deals: generator deals of a layout (a bundled name or a file), or the
/// instances of a `generate --out` file.
#[derive(Clone, Copy)]
pub enum EvalDeals<'a> {
    /// A bundled layout name or a layout file.
    Layout(&'a str),
    /// A `generate --out` file.
    Instances(&'a str),
}

/// `asobi shanghai eval` with `player` (what the Shanghai screen's panel sets). Its weights
/// are those of `weights_file`, or else the layout's tuned ones, which the command reads
/// without an option.
pub fn eval_command(deals: EvalDeals, player: &PlayerParams, weights_file: Option<&str>) -> String {
    eval_command_line(deals, player, weights_file).line()
}

/// `asobi shanghai eval --trace` playing deal `index` alone (of batch `seed` on a layout, or of
/// the instance file) with `player`, printing every decision: the deal on the Shanghai screen,
/// played from the command line (with the player's own random draws).
pub fn trace_command(
    deals: EvalDeals,
    player: &PlayerParams,
    weights_file: Option<&str>,
    seed: u64,
    index: u64,
) -> String {
    let on_layout = matches!(deals, EvalDeals::Layout(_));
    let mut command = eval_command_line(deals, player, weights_file);
    if on_layout {
        command.option("instances", index + 1);
    }
    // The seed also picks the player's random stream, on a file's instances too.
    command.option("seed", seed);
    command.option("plays", 1);
    command.option("trace", index);
    command.line()
}

fn eval_command_line(deals: EvalDeals, player: &PlayerParams, weights_file: Option<&str>) -> CommandLine {
    let mut command = CommandLine::new(&["shanghai", "eval"]);
    match deals {
        EvalDeals::Layout(name) => command.option("layout", name),
        EvalDeals::Instances(path) => command.option("instance", path),
    }
    command.option("n", player.n);
    command.option("depth", player.depth);
    if let Some(path) = weights_file {
        command.option("weights", path);
    }
    let base = PlayerParams::default();
    command.option_unless("dead-ends", player.dead_ends, base.dead_ends);
    command.option_unless("solvable-worlds", player.solvable_worlds, base.solvable_worlds);
    command.option_unless("solve-depth", player.solve_depth, base.solve_depth);
    command.option_unless("solve-nodes", player.solve_nodes, base.solve_nodes);
    if let Some(ties) = player.ties {
        command.option("ties", value_name(ties));
    }
    // Without the option the rule at depth D follows --dead-ends.
    command.option_unless("terminal-at-depth", player.terminal_at_depth, player.dead_ends);
    command.option_unless("risk-worlds", player.risk_worlds, base.risk_worlds);
    command.option_unless("risk-window", player.risk_window, base.risk_window);
    command.option_unless("risk-judge", value_name(player.risk_judge), value_name(base.risk_judge));
    command
}

/// `shanghai oracle`: how many deals the peeking solver solves.
fn oracle(a: OracleArgs) -> anyhow::Result<()> {
    let source = if a.random { DealSource::Random } else { DealSource::Generator };
    let layout = if a.random { load(&a.layout)? } else { dealable(&a.layout)? };
    run_cli(&Oracle { layout: OnLayout::new(&layout), deals: a.deals, source }, &a.batch)?;
    Ok(())
}

/// `shanghai generate`: the weak/strong map of generator instances, saved with `--out`.
fn generate(a: GenerateArgs) -> anyhow::Result<()> {
    if let Some(out) = &a.out {
        ensure!(a.batch.shard.is_none(), "--out needs a whole run (no --shard)");
        check_output_file(out)?;
    }
    let exp = generate_experiment(&a)?;
    let layout = exp.layout.layout();
    let result = run_cli(&exp, &a.batch)?;
    if let Some(out) = &a.out {
        let map = result["map"].as_array().context("generate result has a map")?;
        let instances = map
            .iter()
            .enumerate()
            .map(|(i, pair)| Instance {
                index: i as u64,
                kinds: Deals::Source(DealSource::Generator).get(layout, a.batch.seed, i as u64),
                weak_rate: pair[0].as_f64().unwrap_or(0.0),
                strong_rate: pair[1].as_f64().unwrap_or(0.0),
            })
            .collect();
        let file = InstanceFile { layout: layout.to_file(""), instances };
        write_atomic(out, file.to_text().as_bytes())?;
    }
    Ok(())
}

/// The experiment `generate` runs: both players get the weights and extension settings.
pub(crate) fn generate_experiment(a: &GenerateArgs) -> anyhow::Result<Generate> {
    let layout = dealable(&a.layout)?;
    let weights = player_weights(&layout, &a.weights)?;
    Ok(Generate {
        layout: OnLayout::new(&layout),
        count: a.count,
        plays: a.plays.max(1),
        weak: a.extensions.apply(parse_player(&a.weak, weights, "weak")?),
        strong: a.extensions.apply(parse_player(&a.strong, weights, "strong")?),
        weak_max: a.weak_max,
        strong_min: a.strong_min,
    })
}

/// `shanghai layouts`: the bundled layouts with their tile and level counts.
fn layouts(a: LayoutsArgs) {
    let list: Vec<Value> = bundled()
        .iter()
        .map(|f| {
            let levels = f.tiles.iter().map(|t| t.2).max().map_or(0, |z| z + 1);
            json!({"name": f.name, "tiles": f.tiles.len(), "levels": levels, "description": f.description})
        })
        .collect();
    print_result(&json!({ "layouts": list }), &a.output);
}

/// `shanghai tune`: local search over the feature weights, written as a preset file.
fn tune_weights(a: TuneArgs) -> anyhow::Result<()> {
    let layout = dealable(&a.layout)?;
    let out = a.out.unwrap_or_else(|| PathBuf::from(format!("{}.weights.ron", layout.name)));
    check_output_file(&out)?;
    let weights = player_weights(&layout, &a.weights)?;
    let opts = TuneOptions {
        instances: a.instances,
        plays: a.plays,
        player: a.extensions.apply(PlayerParams { n: a.n, depth: a.depth, weights, ..PlayerParams::default() }),
        step: a.step,
        rounds: a.rounds,
        seed: a.seed,
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = a.threads {
        builder = builder.num_threads(t as usize);
    }
    let pool = builder.build().context("could not start the worker threads")?;
    let quiet = a.output.quiet || a.output.json;
    let (best, rate, trials) = pool
        .install(|| {
            tune(&layout, &opts, |t| {
                if !quiet {
                    eprintln!("rate {:.4} {} {:?}", t.solve_rate, if t.accepted { "kept" } else { "    " }, t.weights);
                }
            })
        })
        .map_err(anyhow::Error::msg)?;
    let preset = WeightsFile { layout: layout.name.clone(), weights: best };
    write_ron(&out, &preset)?;
    let result = json!({"layout": layout.name, "weights": best, "solve_rate": rate,
        "trials": trials.len(), "options": opts, "out": out.display().to_string()});
    print_result(&result, &a.output);
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::lab::runner::parse_game_command;

    #[derive(Parser)]
    struct Extensions {
        #[command(flatten)]
        args: ExtensionArgs,
    }

    /// The experiment the command line builds from `line`.
    fn eval_of(line: &str) -> Eval {
        let Command::Eval(args) = parse_game_command(line, "shanghai") else { panic!("{line}: not eval") };
        eval_experiment(&args).expect("the eval runs")
    }

    #[test]
    fn the_panels_eval_command_plays_its_player() {
        let mut player =
            PlayerParams { n: 4, depth: 2, weights: weights_for("mini_turtle"), ..PlayerParams::default() };
        let line = eval_command(EvalDeals::Layout("mini_turtle"), &player, None);
        assert_eq!(line, "asobi shanghai eval --layout mini_turtle --n 4 --depth 2");
        assert_eq!(eval_of(&line).player, player);
        player.dead_ends = false;
        player.solvable_worlds = false;
        player.solve_depth = 2;
        player.solve_nodes = 700;
        player.ties = Some(TieBreak::Random);
        player.terminal_at_depth = true;
        player.risk_worlds = 48;
        player.risk_window = 0.05;
        player.risk_judge = RiskJudge::Rollouts;
        player.weights.unknown = -0.75;
        let dir = tempfile::tempdir().unwrap();
        let preset = dir.path().join("preset.ron");
        write_ron(&preset, &WeightsFile { layout: "mini_turtle".into(), weights: player.weights }).unwrap();
        let line = eval_command(EvalDeals::Layout("mini_turtle"), &player, Some(preset.to_str().unwrap()));
        assert_eq!(eval_of(&line).player, player, "{line}");
    }

    #[test]
    fn the_panels_trace_command_plays_the_deal_on_screen() {
        let player = PlayerParams { n: 2, depth: 1, weights: weights_for("mini_spider"), ..PlayerParams::default() };
        let line = trace_command(EvalDeals::Layout("mini_spider"), &player, None, 7, 130);
        let Command::Eval(args) = parse_game_command(&line, "shanghai") else { panic!("{line}: not eval") };
        assert_eq!((args.trace, args.plays, args.batch.seed), (Some(130), 1, 7), "{line}");
        let exp = eval_experiment(&args).unwrap();
        assert_eq!(exp.player, player, "{line}");
        assert!(130 < exp.games(), "{line}: the index is in the batch");
        let layout = exp.layout.layout();
        let on_screen = crate::games::shanghai::generator::deal(layout, DealSource::Generator, 7, 130).unwrap();
        assert_eq!(exp.deals.get(layout, 7, 130 / exp.plays), on_screen, "{line}");
        let from_file = trace_command(EvalDeals::Instances("set.ron"), &player, None, 7, 3);
        assert!(from_file.ends_with("--instance set.ron --n 2 --depth 1 --seed 7 --plays 1 --trace 3"), "{from_file}");
    }

    fn player(args: &[&str]) -> PlayerParams {
        let parsed = Extensions::try_parse_from(std::iter::once("x").chain(args.iter().copied())).unwrap();
        parsed.args.apply(PlayerParams::default())
    }

    /// The paper's player (extensions off) scores a move at depth D by its action value, as the
    /// paper does; asobi's keeps the spec's 1 / 0 there; either can be set.
    #[test]
    fn the_rule_at_depth_d_follows_the_extensions_unless_set() {
        assert!(player(&[]).terminal_at_depth);
        assert!(!player(&["--dead-ends", "false"]).terminal_at_depth);
        assert!(player(&["--dead-ends", "false", "--terminal-at-depth", "true"]).terminal_at_depth);
        assert!(!player(&["--terminal-at-depth", "false"]).terminal_at_depth);
    }

    /// `--dead-ends false --solvable-worlds false` is the paper's player, on both sides of
    /// `generate` as in `eval`.
    #[test]
    fn the_extensions_off_are_the_papers_player() {
        let paper = PlayerParams::paper(16, 3, Weights::default());
        assert_eq!(player(&["--dead-ends", "false", "--solvable-worlds", "false"]), paper);
        let line = "asobi shanghai generate --weak 1x1 --strong 16x3 --dead-ends false --solvable-worlds false";
        let Command::Generate(args) = parse_game_command(line, "shanghai") else { panic!("{line}: not generate") };
        let exp = generate_experiment(&args).unwrap();
        let weights = weights_for("mini_turtle");
        assert_eq!((exp.weak, exp.strong), (PlayerParams::paper(1, 1, weights), PlayerParams::paper(16, 3, weights)));
    }

    /// The risk check is off unless asked for, and its window is a share of value.
    #[test]
    fn the_risk_check_is_asked_for() {
        assert_eq!(player(&[]).risk_worlds, 0);
        let p = player(&["--risk-worlds", "48", "--risk-window", "0.1"]);
        assert_eq!((p.risk_worlds, p.risk_window, p.risk_judge), (48, 0.1, RiskJudge::Locks));
        assert_eq!(player(&["--risk-judge", "rollouts"]).risk_judge, RiskJudge::Rollouts);
        assert!(Extensions::try_parse_from(["x", "--risk-window", "2"]).is_err());
        assert!(Extensions::try_parse_from(["x", "--risk-judge", "oracle"]).is_err());
    }
}
