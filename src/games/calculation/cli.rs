//! `asobi calc ...`: thin clap glue over the experiments and the game log.

use anyhow::{bail, ensure};
use serde_json::json;

use super::ai::{Planner, PlannerParams, play_deal};
use super::experiment::{Oracle, Play};
use super::log::GameLog;
use super::oracle::{DEFAULT_BUDGET, DEFAULT_CONFLICTS, Limits};
use super::rules::{Deal, Game, MAX_STACKS};
use super::stack_game;
use crate::lab::runner::{BatchOptions, CommandLine, OutputOptions, at_least_one, number_in, print_result, run_cli};

/// The `asobi calc` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// The paper's player on N seeded deals: success rate (Tables 3 and 4).
    Play(PlayArgs),
    /// The perfect-information oracle on the same deals: how many can be won at all.
    Oracle(OracleArgs),
    /// Plays one deal and prints the game log in the layout of the paper's appendix.
    Log(LogArgs),
}

/// The player's parameters (defaults: the paper's best, lookahead 1 with 200 plans).
#[derive(Debug, Clone, clap::Args)]
pub struct PlayerArgs {
    /// L: assignment plans kept.
    #[arg(long, default_value_t = 200, value_parser = at_least_one::<usize>)]
    pub plans: usize,
    /// Lookahead level: 0 or 1.
    #[arg(long, default_value_t = 1)]
    pub lookahead: u8,
    /// Two-foundation stack games are solved exactly on the last pair_limit/2 stock cards of
    /// each foundation; longer foundations get the reduction factor of those tails (24 = always
    /// exact; much slower at the start of a game).
    #[arg(long, default_value_t = PlannerParams::default().pair_limit)]
    pub pair_limit: usize,
    /// Lookahead 1 only for options scoring at least R times the best at level 0, none when
    /// one is left (asobi's bound; 0 = every option, as the paper).
    #[arg(long, default_value_t = 0.0, value_name = "R", value_parser = number_in(0.0, 1.0))]
    pub lookahead_ratio: f64,
    /// Lookahead 1 scores each reply with the best M plans of the option's beam (asobi's
    /// bound; 0 = all plans, as the paper).
    #[arg(long, default_value_t = 0, value_name = "M")]
    pub lookahead_plans: usize,
}

impl PlayerArgs {
    fn params(&self) -> anyhow::Result<PlannerParams> {
        ensure!(self.lookahead <= 1, "--lookahead must be 0 or 1, not {}", self.lookahead);
        ensure!(self.pair_limit <= 24, "--pair-limit must be at most 24 (two foundations of 12 cards)");
        Ok(PlannerParams {
            plans: self.plans,
            lookahead: self.lookahead,
            pair_limit: self.pair_limit,
            lookahead_ratio: self.lookahead_ratio,
            lookahead_plans: self.lookahead_plans,
        })
    }
}

fn player_stacks(stacks: usize) -> anyhow::Result<usize> {
    if !(1..=stack_game::MAX_STACKS).contains(&stacks) {
        bail!("--stacks {stacks}: the player handles 1..={} stacks", stack_game::MAX_STACKS);
    }
    Ok(stacks)
}

/// The options of `play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Waste stacks (the paper: 3 or 4).
    #[arg(long, default_value_t = 3)]
    pub stacks: usize,
    /// Deals to play.
    #[arg(long, default_value_t = 1000, value_parser = at_least_one::<u64>)]
    pub deals: u64,
    /// The player's settings.
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Also run the oracle on every deal and report wins as a share of the winnable deals.
    #[arg(long)]
    pub oracle: bool,
    /// The oracle's node budget per deal.
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    pub oracle_budget: u64,
    /// The oracle's SAT conflict limit per deal.
    #[arg(long, default_value_t = DEFAULT_CONFLICTS)]
    pub oracle_conflicts: u32,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `oracle`.
#[derive(Debug, clap::Args)]
pub struct OracleArgs {
    /// Waste stacks.
    #[arg(long, default_value_t = 3)]
    pub stacks: usize,
    /// Deals to decide.
    #[arg(long, default_value_t = 1000, value_parser = at_least_one::<u64>)]
    pub deals: u64,
    /// Search nodes per deal before the SAT solver decides it.
    #[arg(long, default_value_t = DEFAULT_BUDGET, value_parser = at_least_one::<u64>)]
    pub budget: u64,
    /// The SAT solver's conflict limit per deal (about 12,000 a second); a deal it does not
    /// decide within them stays unknown.
    #[arg(long, default_value_t = DEFAULT_CONFLICTS)]
    pub conflicts: u32,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `log`.
#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Waste stacks.
    #[arg(long, default_value_t = 3)]
    pub stacks: usize,
    /// The run seed (as in `play`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which deal of the run (0-based).
    #[arg(long, default_value_t = 0)]
    pub deal: u64,
    /// The player's settings.
    #[command(flatten)]
    pub player: PlayerArgs,
    /// How to print.
    #[command(flatten)]
    pub output: OutputOptions,
}

pub(crate) fn play(a: &PlayArgs) -> anyhow::Result<Play> {
    Ok(Play {
        stacks: player_stacks(a.stacks)?,
        deals: a.deals,
        player: a.player.params()?,
        oracle: a.oracle.then_some(Limits { budget: a.oracle_budget, conflicts: a.oracle_conflicts }),
    })
}

/// `asobi calc play` with the planner as `params` sets it (what the Calculation screen's
/// panel sets) on `stacks` waste stacks.
pub fn play_command(stacks: usize, params: &PlannerParams) -> String {
    let mut command = CommandLine::new(&["calc", "play"]);
    command.option("stacks", stacks);
    planner_options(&mut command, params);
    command.line()
}

/// `asobi calc log`: deal `deal` of run `seed` played by the planner as `params` sets it,
/// printed as the paper's appendix prints a game (the deal on the Calculation screen).
pub fn log_command(stacks: usize, params: &PlannerParams, seed: u64, deal: u64) -> String {
    let mut command = CommandLine::new(&["calc", "log"]);
    command.option("stacks", stacks);
    command.option("seed", seed);
    command.option("deal", deal);
    planner_options(&mut command, params);
    command.line()
}

fn planner_options(command: &mut CommandLine, params: &PlannerParams) {
    let base = PlannerParams::default();
    command.option("plans", params.plans);
    command.option("lookahead", params.lookahead);
    command.option_unless("pair-limit", params.pair_limit, base.pair_limit);
    command.option_unless("lookahead-ratio", params.lookahead_ratio, base.lookahead_ratio);
    command.option_unless("lookahead-plans", params.lookahead_plans, base.lookahead_plans);
}

/// Runs one subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Play(a) => drop(run_cli(&play(&a)?, &a.batch)?),
        Command::Oracle(a) => {
            ensure!((1..=MAX_STACKS).contains(&a.stacks), "--stacks {}: the oracle handles 1..={MAX_STACKS}", a.stacks);
            let limits = Limits { budget: a.budget, conflicts: a.conflicts };
            run_cli(&Oracle { stacks: a.stacks, deals: a.deals, limits }, &a.batch)?;
        }
        Command::Log(a) => {
            let (game, log) = logged_game(&a)?;
            if a.output.json {
                print_result(&json!({"won": game.is_won(), "log": log.text}), &a.output);
            } else {
                print!("{}", log.text);
            }
        }
    }
    Ok(())
}

/// `calc log`: the planner's game on the deal, and its log.
pub(crate) fn logged_game(a: &LogArgs) -> anyhow::Result<(Game, GameLog)> {
    let params = a.player.params()?;
    let stacks = player_stacks(a.stacks)?;
    let header = format!(
        "Calculation: seed {} deal {} stacks {stacks} plans {} lookahead {}",
        a.seed, a.deal, params.plans, params.lookahead
    );
    let mut log = GameLog::new(&header);
    let deal = Deal::from_seed(a.seed, a.deal);
    let game = play_deal(&deal, stacks, &mut Planner::new(params), Some(&mut log))?;
    Ok((game, log))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::runner::parse_game_command;

    #[test]
    fn the_panels_play_command_plays_its_planner() {
        let tuned = PlannerParams { plans: 40, lookahead: 0, pair_limit: 8, lookahead_ratio: 0.5, lookahead_plans: 12 };
        for (stacks, params) in [(3, PlannerParams::default()), (4, tuned)] {
            let line = play_command(stacks, &params);
            let Command::Play(args) = parse_game_command(&line, "calc") else { panic!("{line}: not play") };
            let exp = play(&args).unwrap();
            assert_eq!((exp.stacks, exp.player), (stacks, params.clone()), "{line}");
            let line = log_command(stacks, &params, 9, 41);
            let Command::Log(args) = parse_game_command(&line, "calc") else { panic!("{line}: not log") };
            let played = (args.stacks, args.seed, args.deal, args.player.params().unwrap());
            assert_eq!(played, (stacks, 9, 41, params), "{line}");
        }
    }
}
