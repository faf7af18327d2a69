//! `asobi puyo ...`: the paper's experiments and the template generator (thin clap glue).

use std::path::PathBuf;

use anyhow::Context;
use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use super::ai::labeling::WeightRule;
use super::ai::potential::PotentialParams;
use super::ai::template::{check_text, load_group};
use super::ai::template_search::Select;
use super::ai::{AiKind, AiParams, CombinedPotential, Extension};
use super::experiment::{Build, Endless, Traced, TracedMove, VersusExp};
use super::generate::{Style, turn_back_relabelings, variants};
use super::level::TemplateFile;
use super::rules::GarbageRule;
use crate::lab::runner::{
    BatchGame, BatchOptions, CommandLine, at_least_one, check_trace_index, clap_message, number_in, print_text,
    run_cli, value_name, write_atomic,
};

/// The `asobi puyo` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// E1: moves until the template player completes a template (score >= 0.95).
    Build(BuildArgs),
    /// E2: single-player games, one chain fired per game.
    Endless(EndlessArgs),
    /// E3: head-to-head games on the tick model.
    Versus(VersusArgs),
    /// Generate 8-chain template variants as RON files: random ones, or the turn-backs of one file.
    Templates(TemplatesArgs),
}

/// Templates and colors, shared by the experiments.
#[derive(Debug, Args)]
pub struct TemplateArgs {
    /// Template group: stairs8, sandwich8, domino6, chains8 (stairs8 + sandwich8), all, a folder
    /// of your own .ron template files, or one such file (asobi's player uses none).
    #[arg(long, default_value = "stairs8")]
    pub templates: String,
    /// The template search's depth (pairs read: current + previews).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub depth: u8,
    /// The template search's leaf selection rule.
    #[arg(long, value_enum, default_value_t = Select::Max)]
    pub select: Select,
    /// Pair weight from the two label weights (paper: mean; min also promising).
    #[arg(long, value_enum, default_value_t = WeightRule::Mean)]
    pub weights: WeightRule,
    /// Compile without the boundary rule (paper ch. 5 leaves it to the user): a boundary cell
    /// must then differ from a body neighbour only where sharing its color breaks the chain.
    #[arg(long)]
    pub no_boundary_rule: bool,
    /// asobi: the truth table's link-by-link refinement also moves the boundary cells filled
    /// before firing, so a boundary puyo falling beside a later link must differ from it where
    /// sharing its color would break the chain.
    #[arg(long)]
    pub boundary_sim: bool,
    /// Number of colors (3-5).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=5))]
    pub colors: u8,
    /// asobi: the default label weight w becomes 100 (w / 100)^P (1 = the paper; 2 places the
    /// constrained labels still earlier).
    #[arg(long, default_value_t = 1.0, value_parser = number_in(0.25, 4.0))]
    pub weight_power: f64,
    /// asobi: the template search rates the best K leaves below each first move by the expected value after one
    /// more, unseen pair (0 = the paper).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=64))]
    pub chance: u16,
    /// The combined player leaves its templates once their score passes S (the paper: 0.9)...
    #[arg(long, value_name = "S", default_value_t = AiParams::default().switch, value_parser = number_in(0.0, 1.0))]
    pub switch: f64,
    /// ...as soon as it passes S (the paper), not only once its formation fires its chain
    /// (asobi's default).
    #[arg(long)]
    pub switch_on_score: bool,
    /// How the combined player extends its formation in single-player games: potential
    /// maximization (the paper) or asobi's chain builder, fired at 11 links, 12 while more than
    /// 12 cells are empty (versus keeps potential maximization).
    #[arg(long, value_enum, default_value_t = Extension::Potential)]
    pub extension: Extension,
    /// The combined player's potential maximization (its extension in versus, its counters,
    /// over garbage and where every template conflicts): the settings every seat shares, or
    /// asobi's versus reading (virtual drops at 0.8, a kill only through the opponent's counter).
    #[arg(long, value_enum, default_value_t = CombinedPotential::Paper)]
    pub combined_potential: CombinedPotential,
    /// asobi, versus: the combined player leaves its template phase for potential maximization
    /// while the opponent holds a ready chain (one that 1-2 puyos of one colour dropped into
    /// one column start) sending at least K times the garbage that fills its own column 3
    /// (unset: the paper, which builds its templates whatever the opponent holds).
    #[arg(long, value_name = "K", value_parser = number_in(0.0, 4.0))]
    pub threat_switch: Option<f64>,
}

/// Potential maximization's open decisions (spec §9.7), shared by `endless` and `versus`.
#[derive(Debug, Args)]
pub struct PotentialArgs {
    /// Special case (a): fire the best chain once at most N visible cells are empty and
    /// nothing larger is reachable...
    #[arg(long, value_name = "N", default_value_t = PotentialParams::default().fire_empty,
          value_parser = clap::value_parser!(u32).range(0..=72))]
    pub fire_empty: u32,
    /// ...and always once at most N are.
    #[arg(long, value_name = "N", default_value_t = PotentialParams::default().danger_empty,
          value_parser = clap::value_parser!(u32).range(0..=72))]
    pub danger_empty: u32,
    /// asobi: potential maximization also counts the chains that 1-2 unseen puyos of one colour
    /// dropped into one column would start, at W times their attack (0 = the paper, which reads
    /// the known pairs only). In versus both seats read so, except asobi's player and a combined
    /// player with `--combined-potential asobi` (0.8 always).
    #[arg(long, value_name = "W", default_value_t = 0.0, value_parser = number_in(0.0, 2.0))]
    pub virtual_drop: f64,
    /// asobi: special case (b) fires to kill only when the garbage still fills the opponent's
    /// column 3 after the opponent's ready counter (a chain 1-2 puyos of one colour start) has
    /// cancelled its share (versus, both seats; asobi's player always reads so, and a combined
    /// player with `--combined-potential asobi`).
    #[arg(long)]
    pub lethal_after_counter: bool,
}

impl PotentialArgs {
    /// Writes these options into `params`.
    pub fn apply(&self, params: &mut AiParams) {
        params.potential.fire_empty = self.fire_empty;
        params.potential.danger_empty = self.danger_empty;
        params.potential.virtual_drop = self.virtual_drop;
        params.potential.lethal_after_counter = self.lethal_after_counter;
    }
}

/// `--trace`, shared by the experiments.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Play only trial (game) INDEX of the seed and print each move: the pair, the player's
    /// reason, the field after it (versus: both fields and the garbage pending) and any chain;
    /// then its record as JSON.
    #[arg(long, value_name = "INDEX", conflicts_with_all = ["json", "shard", "threads"])]
    pub trace: Option<u64>,
}

/// The options of `build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Number of trials (pair sequences).
    #[arg(long, default_value_t = 500, value_parser = at_least_one::<u64>)]
    pub trials: u64,
    /// A trial fails if it has not completed after this many moves.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_moves: u32,
    /// `--trace`: one game, move by move.
    #[command(flatten)]
    pub trace: TraceArgs,
    /// The template player's settings.
    #[command(flatten)]
    pub rules: TemplateArgs,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `endless`.
#[derive(Debug, Args)]
pub struct EndlessArgs {
    /// The player.
    #[arg(long, value_enum, default_value_t = AiKind::Combined)]
    pub ai: AiKind,
    /// Number of games.
    #[arg(long, default_value_t = 500, value_parser = at_least_one::<u64>)]
    pub games: u64,
    /// A game that has not fired after this many moves scores no chain.
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_moves: u32,
    /// An upper bound on firing (potential, combined, template): special case (a) is off, so the
    /// player does not fire because few cells are empty, and each game scores the largest chain
    /// its current pair could have fired at any move (`mean_fire_move`: the move it was there).
    #[arg(long)]
    pub hindsight: bool,
    /// Potential maximization's settings.
    #[command(flatten)]
    pub potential: PotentialArgs,
    /// `--trace`: one game, move by move.
    #[command(flatten)]
    pub trace: TraceArgs,
    /// The template player's settings.
    #[command(flatten)]
    pub rules: TemplateArgs,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `versus`.
#[derive(Debug, Args)]
pub struct VersusArgs {
    /// Player 1.
    #[arg(long, value_enum)]
    pub p1: AiKind,
    /// Player 2.
    #[arg(long, value_enum)]
    pub p2: AiKind,
    /// Number of games.
    #[arg(long, default_value_t = 500, value_parser = at_least_one::<u64>)]
    pub games: u64,
    /// Ticks after which a game is a draw.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_ticks: u32,
    /// Garbage a chain sends: the paper's attack formula 6.1, or the Tsu score / 70.
    #[arg(long, value_enum, default_value_t = GarbageRule::Paper)]
    pub garbage: GarbageRule,
    /// Ticks a chain link takes, during which the other side keeps placing (a placement takes
    /// 1). The spec's model takes 1; 0 resolves a chain at once, as on a turn-based platform.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=10))]
    pub link_ticks: u32,
    /// Odd games swap the boards (player 1 plays board 2), so that what favours a board falls
    /// on both players alike; results stay by player.
    #[arg(long)]
    pub alternate_seats: bool,
    /// Player 1's own template and potential-maximization options, read after the shared ones
    /// (those outside, which both seats take), so that a value given here wins for this seat:
    /// e.g. `--p1-options '--combined-potential asobi --threat-switch 0.2'`. A flag given
    /// outside cannot be taken back here; `--colors` is the game's and stays outside.
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    pub p1_options: Option<String>,
    /// Player 2's own options, as `--p1-options`.
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    pub p2_options: Option<String>,
    /// Potential maximization's settings.
    #[command(flatten)]
    pub potential: PotentialArgs,
    /// `--trace`: one game, move by move.
    #[command(flatten)]
    pub trace: TraceArgs,
    /// The template player's settings.
    #[command(flatten)]
    pub rules: TemplateArgs,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of one versus seat (`--p1-options`, `--p2-options`), read like the shared ones;
/// a later value of an option replaces an earlier one.
#[derive(Debug, Parser)]
#[command(no_binary_name = true, args_override_self = true, disable_help_flag = true)]
struct SeatArgs {
    #[command(flatten)]
    rules: TemplateArgs,
    #[command(flatten)]
    potential: PotentialArgs,
}

/// The options of `templates`.
#[derive(Debug, Args)]
pub struct TemplatesArgs {
    /// Formation style of random variants.
    #[arg(long, value_enum, required_unless_present = "turn_backs")]
    pub style: Option<Style>,
    /// Instead of random variants: every relabeling of this template file's turn-back (the
    /// cells of its last three links) that fires the same chain, the file's own first.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["style", "count", "tries", "seed"])]
    pub turn_backs: Option<PathBuf>,
    /// How many variants.
    #[arg(long, default_value_t = 10, value_parser = at_least_one::<usize>)]
    pub count: usize,
    /// Random construction attempts.
    #[arg(long, default_value_t = 20000)]
    pub tries: u64,
    /// Seed of the attempts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write v01.ron, v02.ron, ... into this folder instead of printing them.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs the experiment, or with `--trace` plays one of its games, printing each move, then its
/// record.
fn run_or_trace<E: Traced>(exp: &E, trace: &TraceArgs, batch: &BatchOptions) -> anyhow::Result<()> {
    let Some(index) = trace.trace else {
        return run_cli(exp, batch).map(drop);
    };
    check_trace_index(index, exp.games())?;
    let mut text = format!("index {index} of seed {}\n", batch.seed);
    if let Some(note) = exp.trace_note(index) {
        text += &format!("{note}\n");
    }
    let record = exp.play_traced(batch.seed, index, &mut |m| text += &describe_move(m));
    text += &format!("\n{}\n", serde_json::to_string(&record)?);
    print_text(&text)
}

/// A traced move: a header line, then the field (versus: both fields, player 1 on the left).
fn describe_move(m: &TracedMove) -> String {
    let (axis, child) = (m.pair.axis.letter(), m.pair.child.letter());
    let chain = match m.chain.links {
        0 => String::new(),
        n => format!("; {n}-link chain, attack {}", m.chain.attack()),
    };
    let Some(opponent) = m.opponent else {
        return format!("\nmove {} pair {axis}{child}: {}{chain}\n{}", m.number, m.decision.why, m.field);
    };
    let pending = if m.pending > 0 { format!(", {} garbage pending", m.pending) } else { String::new() };
    let mut text =
        format!("\nP{} move {} pair {axis}{child}{pending}: {}{chain}\n", m.side + 1, m.number, m.decision.why);
    let (left, right) = if m.side == 0 { (m.field, opponent) } else { (opponent, m.field) };
    for (l, r) in left.to_string().lines().zip(right.to_string().lines()) {
        text += &format!("{l}   {r}\n");
    }
    text
}

/// The players' parameters; the template group is compiled (and checked) only when one of
/// `players` plays by templates.
fn ai_params(rules: &TemplateArgs, players: &[AiKind]) -> anyhow::Result<AiParams> {
    let group = rules.templates.as_str();
    let mut params = AiParams { group: group.to_string(), ..AiParams::default() };
    params.compile.colors = rules.colors as usize;
    params.compile.weight_rule = rules.weights;
    params.compile.boundary_rule = !rules.no_boundary_rule;
    params.compile.boundary_sim = rules.boundary_sim;
    params.compile.weight_power = rules.weight_power;
    params.template.depth = rules.depth as usize;
    params.template.select = rules.select;
    params.template.chance = rules.chance as usize;
    params.switch = rules.switch;
    params.switch_ready = !rules.switch_on_score;
    params.extension = rules.extension;
    params.combined_potential = rules.combined_potential;
    params.threat_switch = rules.threat_switch;
    // Checked here, before the workers start: an unknown group or a malformed file of the
    // user's is one error naming it (the error names the file, or the group when unknown).
    if players.iter().any(|p| p.uses_templates()) {
        load_group(group, &params.compile)?;
    }
    Ok(params)
}

/// Runs one subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Build(a) => run_or_trace(&build(&a)?, &a.trace, &a.batch)?,
        Command::Endless(a) => run_or_trace(&endless(&a)?, &a.trace, &a.batch)?,
        Command::Versus(a) => run_or_trace(&versus(&a)?, &a.trace, &a.batch)?,
        Command::Templates(a) => templates(&a)?,
    }
    Ok(())
}

pub(crate) fn build(a: &BuildArgs) -> anyhow::Result<Build> {
    let params = ai_params(&a.rules, &[AiKind::Template])?;
    Ok(Build { params, trials: a.trials, max_moves: a.max_moves, colors: a.rules.colors as usize })
}

pub(crate) fn endless(a: &EndlessArgs) -> anyhow::Result<Endless> {
    if a.hindsight && a.ai == AiKind::Asobi {
        anyhow::bail!("--hindsight bounds potential maximization's firing; asobi's player fires at a goal length");
    }
    let mut params = ai_params(&a.rules, &[a.ai])?;
    a.potential.apply(&mut params);
    Ok(Endless {
        ai: a.ai,
        params,
        games: a.games,
        max_moves: a.max_moves,
        colors: a.rules.colors as usize,
        hindsight: a.hindsight,
    })
}

pub(crate) fn versus(a: &VersusArgs) -> anyhow::Result<VersusExp> {
    let mut shared = ai_params(&a.rules, &[a.p1, a.p2])?;
    a.potential.apply(&mut shared);
    let seat = |player, options: &Option<String>, option| match options {
        Some(own) => seat_params(&shared, player, own, option),
        None => Ok(shared.clone()),
    };
    Ok(VersusExp {
        p1: a.p1,
        p2: a.p2,
        params: [seat(a.p1, &a.p1_options, "p1-options")?, seat(a.p2, &a.p2_options, "p2-options")?],
        games: a.games,
        max_ticks: a.max_ticks,
        garbage: a.garbage,
        link_ticks: a.link_ticks,
        colors: a.rules.colors as usize,
        alternate_seats: a.alternate_seats,
    })
}

/// The parameters of a versus seat whose `player` has its own options (`own`, the value of
/// `--{option}`): the shared options (`shared`, written out as options) followed by its own.
fn seat_params(shared: &AiParams, player: AiKind, own: &str, option: &str) -> anyhow::Result<AiParams> {
    let in_option = |e: clap::Error| anyhow::anyhow!("--{option} '{own}': {}", clap_message(&e));
    let own_words = shlex::split(own).ok_or_else(|| anyhow::anyhow!("--{option} '{own}': unbalanced quotes"))?;
    let given = SeatArgs::command().try_get_matches_from(&own_words).map_err(in_option)?;
    if given.value_source("colors") == Some(ValueSource::CommandLine) {
        anyhow::bail!("--{option} '{own}': --colors is the game's, the same for both seats; give it outside");
    }
    let mut shared_words = CommandLine::empty();
    player_options(&mut shared_words, shared);
    let words = shared_words.words().iter().chain(&own_words);
    let mut seat = SeatArgs::command()
        .try_get_matches_from(words)
        .and_then(|m| SeatArgs::from_arg_matches(&m))
        .map_err(in_option)?;
    seat.rules.colors = shared.compile.colors as u8;
    let mut params = ai_params(&seat.rules, &[player])?;
    seat.potential.apply(&mut params);
    Ok(params)
}

/// `asobi puyo endless` with `ai` playing by `params` (what the Puyo screen's panel sets).
pub fn endless_command(ai: AiKind, params: &AiParams) -> String {
    endless_command_line(ai, params).line()
}

/// [`endless_command`] playing only `game`, printed move by move: the endless game the Puyo
/// screen dealt as that game, up to its first chain (where the experiment's game ends).
pub fn endless_trace_command(ai: AiKind, params: &AiParams, game: BatchGame) -> String {
    let mut command = endless_command_line(ai, params);
    command.traced_game(game);
    command.line()
}

fn endless_command_line(ai: AiKind, params: &AiParams) -> CommandLine {
    let mut command = CommandLine::new(&["puyo", "endless"]);
    command.option("ai", value_name(ai));
    colors_option(&mut command, params);
    player_options(&mut command, params);
    command
}

/// `asobi puyo versus` between `players` playing by `params` (each seat's), on the game's
/// garbage rule and link time.
pub fn versus_command(players: [AiKind; 2], garbage: GarbageRule, link_ticks: u32, params: &[AiParams; 2]) -> String {
    versus_command_line(players, garbage, link_ticks, params).line()
}

/// [`versus_command`] playing only `game`, printed move by move: the game two AIs play on the
/// Puyo screen dealt as that game.
pub fn versus_trace_command(
    players: [AiKind; 2],
    garbage: GarbageRule,
    link_ticks: u32,
    params: &[AiParams; 2],
    game: BatchGame,
) -> String {
    let mut command = versus_command_line(players, garbage, link_ticks, params);
    command.traced_game(game);
    command.line()
}

fn versus_command_line(
    players: [AiKind; 2],
    garbage: GarbageRule,
    link_ticks: u32,
    params: &[AiParams; 2],
) -> CommandLine {
    let mut command = CommandLine::new(&["puyo", "versus"]);
    command.option("p1", value_name(players[0]));
    command.option("p2", value_name(players[1]));
    command.option_unless("garbage", value_name(garbage), value_name(GarbageRule::default()));
    command.option_unless("link-ticks", link_ticks, 1);
    colors_option(&mut command, &params[0]);
    if params[0] == params[1] {
        player_options(&mut command, &params[0]);
    } else {
        // Each seat's own options in full, so that neither needs a flag taken back.
        for (option, seat) in ["p1-options", "p2-options"].into_iter().zip(params) {
            let mut own = CommandLine::empty();
            player_options(&mut own, seat);
            if !own.words().is_empty() {
                command.option(option, own.line());
            }
        }
    }
    command
}

/// `--colors`, unless the default: the game's, the same for every seat.
fn colors_option(command: &mut CommandLine, params: &AiParams) {
    command.option_unless("colors", params.compile.colors, AiParams::default().compile.colors);
}

/// The template and potential-maximization options that give a player `params`, but the
/// game's colours. (The builder's constants and `extend_drop` have none.)
fn player_options(command: &mut CommandLine, params: &AiParams) {
    let base = AiParams::default();
    let (template, compile, potential) = (&params.template, &params.compile, &params.potential);
    command.option_unless("templates", params.group.as_str(), &base.group);
    command.option_unless("depth", template.depth, base.template.depth);
    command.option_unless("select", value_name(template.select), value_name(base.template.select));
    command.option_unless("weights", value_name(compile.weight_rule), value_name(base.compile.weight_rule));
    command.flag("no-boundary-rule", !compile.boundary_rule);
    command.flag("boundary-sim", compile.boundary_sim);
    command.option_unless("weight-power", compile.weight_power, base.compile.weight_power);
    command.option_unless("chance", template.chance, base.template.chance);
    command.option_unless("switch", params.switch, base.switch);
    command.flag("switch-on-score", !params.switch_ready);
    command.option_unless("extension", value_name(params.extension), value_name(base.extension));
    command.option_unless(
        "combined-potential",
        value_name(params.combined_potential),
        value_name(base.combined_potential),
    );
    if let Some(share) = params.threat_switch {
        command.option("threat-switch", share);
    }
    command.option_unless("fire-empty", potential.fire_empty, base.potential.fire_empty);
    command.option_unless("danger-empty", potential.danger_empty, base.potential.danger_empty);
    command.option_unless("virtual-drop", potential.virtual_drop, base.potential.virtual_drop);
    command.flag("lethal-after-counter", potential.lethal_after_counter);
}

/// `puyo templates`: generated variants of a style, or the relabelings of a file's turn-back,
/// written as template files to `--out` (or printed).
fn templates(a: &TemplatesArgs) -> anyhow::Result<()> {
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let files = match (&a.turn_backs, a.style) {
        (Some(path), _) => {
            let shown = path.display().to_string();
            let text = crate::levels::read_user_file(path)?;
            check_text(&shown, &text)?;
            let file: TemplateFile = crate::levels::parse_ron(&shown, &text)?;
            turn_back_relabelings(&file, 4).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?
        }
        (None, Some(style)) => variants(style, a.count, a.tries, a.seed, 4),
        (None, None) => unreachable!("clap requires --style without --turn-backs"),
    };
    for (k, f) in files.iter().enumerate() {
        let text = template_ron(f)?;
        match &a.out {
            Some(dir) => write_atomic(&dir.join(format!("v{:02}.ron", k + 1)), text.as_bytes())?,
            None => println!("{text}"),
        }
    }
    Ok(())
}

/// A template file as `levels/puyo/` holds them: the table as a raw string, and the manual
/// overrides a relabeled file keeps (generated ones have none).
fn template_ron(f: &TemplateFile) -> anyhow::Result<String> {
    let mut overrides = String::new();
    if !f.differ.is_empty() {
        overrides += &format!("    differ: {},\n", ron::to_string(&f.differ)?);
    }
    if !f.weights.is_empty() {
        overrides += &format!("    weights: {},\n", ron::to_string(&f.weights)?);
    }
    Ok(format!("(\n    name: {:?},\n    chain: {},\n    table: r#\"\n{}\"#,\n{overrides})\n", f.name, f.chain, f.table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::runner::parse_game_command;

    fn parse(line: &str) -> Command {
        parse_game_command(line, "puyo")
    }

    /// Every setting the Puyo panel changes, away from its default.
    fn tuned() -> AiParams {
        let mut p = AiParams { group: "sandwich8".into(), ..AiParams::default() };
        p.template.depth = 2;
        p.template.select = Select::Mean;
        p.template.chance = 4;
        p.compile.weight_rule = WeightRule::Min;
        p.compile.boundary_rule = false;
        p.compile.boundary_sim = true;
        p.compile.colors = 5;
        p.compile.weight_power = 2.5;
        p.switch = 0.85;
        p.switch_ready = false;
        p.extension = Extension::Builder;
        p.combined_potential = CombinedPotential::Asobi;
        p.threat_switch = Some(0.3);
        p.potential.fire_empty = 18;
        p.potential.danger_empty = 8;
        p.potential.virtual_drop = 0.8;
        p.potential.lethal_after_counter = true;
        p
    }

    #[test]
    fn the_panels_endless_command_plays_its_settings() {
        for params in [AiParams::default(), tuned()] {
            let line = endless_command(AiKind::Combined, &params);
            let Command::Endless(args) = parse(&line) else { panic!("{line}: not endless") };
            let exp = endless(&args).unwrap();
            assert_eq!((exp.ai, &exp.params, exp.colors), (AiKind::Combined, &params, params.compile.colors), "{line}");
        }
        assert_eq!(endless_command(AiKind::Potential, &AiParams::default()), "asobi puyo endless --ai potential");
    }

    #[test]
    fn the_panels_endless_trace_command_plays_its_game_of_the_batch() {
        let params = tuned();
        let line = endless_trace_command(AiKind::Asobi, &params, BatchGame { seed: 9, index: 4 });
        let Command::Endless(args) = parse(&line) else { panic!("{line}: not endless") };
        assert_eq!((args.trace.trace, args.games, args.batch.seed), (Some(4), 5, 9), "{line}");
        let exp = endless(&args).unwrap();
        assert_eq!((exp.ai, &exp.params, exp.hindsight), (AiKind::Asobi, &params, false), "{line}");
    }

    /// Seats with the same settings, and seats that differ in every setting either way (each
    /// seat's flags on where the other's are off).
    #[test]
    fn the_panels_versus_command_plays_its_settings() {
        let mut default_in_5_colors = AiParams::default();
        default_in_5_colors.compile.colors = 5;
        for params in [[tuned(), tuned()], [tuned(), default_in_5_colors.clone()], [default_in_5_colors, tuned()]] {
            let line = versus_command([AiKind::Combined, AiKind::Template], GarbageRule::Tsu, 3, &params);
            let Command::Versus(args) = parse(&line) else { panic!("{line}: not versus") };
            let exp = versus(&args).unwrap();
            assert_eq!(
                (exp.p1, exp.p2, exp.garbage, exp.link_ticks, exp.colors),
                (AiKind::Combined, AiKind::Template, GarbageRule::Tsu, 3, 5)
            );
            assert_eq!(exp.params, params, "{line}");
        }
    }

    #[test]
    fn a_seats_options_change_the_shared_ones_for_that_seat_only() {
        let line = "asobi puyo versus --p1 combined --p2 combined --templates sandwich8 --virtual-drop 0.5 \
                    --p2-options '--virtual-drop 0.8 --threat-switch 0.2 --switch-on-score'";
        let Command::Versus(args) = parse(line) else { panic!("not versus") };
        let [p1, p2] = versus(&args).unwrap().params;
        assert_eq!((p1.group.as_str(), p1.potential.virtual_drop, p1.threat_switch), ("sandwich8", 0.5, None));
        assert!(p1.switch_ready);
        assert_eq!((p2.group.as_str(), p2.potential.virtual_drop, p2.threat_switch), ("sandwich8", 0.8, Some(0.2)));
        assert!(!p2.switch_ready);
    }

    #[test]
    fn bad_seat_options_name_the_seat() {
        for (own, says) in [
            ("--colors 5", "--colors is the game's"),
            ("--threat-switch", "a value is required"),
            ("--no-such-option", "unexpected argument"),
            ("--templates 'stairs8", "unbalanced quotes"),
            ("--templates nowhere", "nowhere"),
        ] {
            let line = format!("asobi puyo versus --p1 combined --p2 potential --p1-options \"{own}\"");
            let Command::Versus(args) = parse(&line) else { panic!("not versus") };
            let error = versus(&args).unwrap_err().to_string();
            assert!(error.contains("--p1-options") || own.contains("nowhere"), "{own}: {error}");
            assert!(error.contains(says), "{own}: {error}");
        }
    }

    #[test]
    fn the_panels_versus_trace_command_plays_its_game_of_the_batch() {
        let params = [tuned(), tuned()];
        let game = BatchGame { seed: 9, index: 0 };
        let line = versus_trace_command([AiKind::Potential, AiKind::Combined], GarbageRule::Paper, 2, &params, game);
        let Command::Versus(args) = parse(&line) else { panic!("{line}: not versus") };
        assert_eq!((args.trace.trace, args.games, args.batch.seed), (Some(0), 1, 9), "{line}");
        let exp = versus(&args).unwrap();
        assert_eq!((exp.p1, exp.p2, exp.link_ticks, &exp.params), (AiKind::Potential, AiKind::Combined, 2, &params));
    }
}
