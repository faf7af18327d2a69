//! `asobi labyrinth ...`: the command line of the Labyrinth module (thin clap glue).

use std::path::PathBuf;

use anyhow::{Context, bail};

use super::ai::BotKind;
use super::experiment::Match;
use super::level::Params;
use crate::lab::runner::{BatchGame, BatchOptions, CommandLine, at_least_one, check_trace_index, print_text, run_cli};
use crate::levels::{embedded, embedded_in, parse_ron, read_user_file};

/// The `asobi labyrinth` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Plays a tournament between bots (thesis chapter 4) and prints wins, win rate of the
    /// first bot listed with its 95% interval and chi-square, turns, cards and ms per turn.
    Match(MatchArgs),
    /// Prints every bot constant (the thesis's defaults, or a preset's) as RON.
    Params(ParamsArgs),
}

/// The options of `match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Bots in seat order (2-4, comma-separated): random, big-brain, saboteur, treasure-count,
    /// distance, static-tile, hybrid, slide-direction, asobi. Two players sit on opposite
    /// corners (NW, SE); more go clockwise from NW.
    #[arg(long, value_delimiter = ',', required = true)]
    pub players: Vec<BotKind>,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = at_least_one::<u64>)]
    pub games: u64,
    /// Rotate the first player (game i: seat i mod players), so each bot moves first equally
    /// often; otherwise the first player is drawn from each game's seed.
    #[arg(long)]
    pub alternate_first: bool,
    /// Draw when no one has won after every player had this many turns.
    #[arg(long, default_value_t = 300, value_parser = at_least_one::<u32>)]
    pub max_rounds: u32,
    /// Bot constants: a RON preset file, or the name of a bundled one (`thesis`,
    /// `big-brain-full-state`); fields left out keep the thesis's defaults.
    #[arg(long)]
    pub params: Option<String>,
    /// Play only game INDEX of the seed and print each turn (the bot's insertion, rotation,
    /// destination, search effort and reason; treasures found), then the game's record as JSON.
    #[arg(long, value_name = "INDEX", conflicts_with_all = ["json", "shard", "threads"])]
    pub trace: Option<u64>,
    /// Seed, threads, shard and output options.
    #[command(flatten)]
    pub batch: BatchOptions,
}

/// The options of `params`.
#[derive(Debug, clap::Args)]
pub struct ParamsArgs {
    /// A RON preset file or bundled preset name to print instead of the defaults.
    #[arg(long)]
    pub params: Option<String>,
}

/// Loads `--params`: a bundled preset name (levels/labyrinth/NAME.ron) or a file path.
pub fn load_params(spec: Option<&str>) -> anyhow::Result<Params> {
    let Some(spec) = spec else { return Ok(Params::default()) };
    let bundled = format!("labyrinth/{spec}.ron");
    if let Some(text) = embedded(&bundled) {
        return Ok(parse_ron(&format!("levels/{bundled}"), text)?);
    }
    let path = PathBuf::from(spec);
    if !path.exists() {
        let bundled: Vec<&str> = embedded_in("labyrinth").filter_map(|(name, _)| name.strip_suffix(".ron")).collect();
        bail!("unknown preset '{spec}': not a file and not one of {}", bundled.join(", "));
    }
    let text = read_user_file(&path)?;
    Ok(parse_ron(&path.display().to_string(), &text)?)
}

pub(crate) fn tournament(a: &MatchArgs) -> anyhow::Result<Match> {
    if !(2..=4).contains(&a.players.len()) {
        let n = a.players.len();
        bail!("--players: {n} bot{} given, a game has 2-4 players", if n == 1 { "" } else { "s" });
    }
    Ok(Match {
        players: a.players.clone(),
        games: a.games,
        alternate_first: a.alternate_first,
        max_rounds: a.max_rounds,
        params: load_params(a.params.as_deref())?,
    })
}

/// `asobi labyrinth match` between `players` in seat order (what the Labyrinth screen's seats
/// hold), each bot moving first equally often; the bot constants are the thesis's defaults
/// unless `params` names a preset (a file or a bundled name).
pub fn match_command(players: &[BotKind], params: Option<&str>) -> String {
    match_command_line(players, params).line()
}

/// [`match_command`] playing only `game`, printed turn by turn: the game the Labyrinth screen
/// deals as that game when bots fill its seats.
pub fn trace_command(players: &[BotKind], params: Option<&str>, game: BatchGame) -> String {
    let mut command = match_command_line(players, params);
    command.traced_game(game);
    command.line()
}

fn match_command_line(players: &[BotKind], params: Option<&str>) -> CommandLine {
    let mut command = CommandLine::new(&["labyrinth", "match"]);
    command.option("players", players.iter().map(|p| p.name()).collect::<Vec<_>>().join(","));
    command.flag("alternate-first", true);
    preset_option(&mut command, params);
    command
}

fn preset_option(command: &mut CommandLine, params: Option<&str>) {
    if let Some(preset) = params {
        command.option("params", preset);
    }
}

/// `match --trace`: plays game `index` of the batch, printing each turn, then its record.
fn trace_match(exp: &Match, index: u64, seed: u64) -> anyhow::Result<()> {
    check_trace_index(index, exp.games)?;
    let names: Vec<&str> = exp.players.iter().map(|p| p.name()).collect();
    let mut text = format!("labyrinth game {index}, seed {seed}: {}\n", names.join(" vs "));
    let record = exp.play_traced(seed, index, &mut |t| {
        text += &format!("{}\n", t.decision.describe(t.seat, t.bot));
        if t.found_treasure {
            let left = t.state.players()[t.seat].cards_left();
            text += &format!("player {} found a treasure ({left} left)\n", t.seat + 1);
        }
        if let Some(w) = t.state.winner {
            text += &format!("player {} ({}) wins after {} plies\n", w + 1, exp.players[w], t.state.plies);
        }
    });
    text += &format!("{}\n", serde_json::to_string(&record)?);
    print_text(&text)
}

/// Runs one subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Match(a) => {
            let exp = tournament(&a)?;
            match a.trace {
                Some(index) => trace_match(&exp, index, a.batch.seed)?,
                None => drop(run_cli(&exp, &a.batch)?),
            }
        }
        Command::Params(a) => {
            let params = load_params(a.params.as_deref())?;
            let pretty = ron::ser::PrettyConfig::default();
            println!("{}", ron::ser::to_string_pretty(&params, pretty).context("parameters serialize")?);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::runner::{Experiment, parse_game_command, write_ron};

    fn tournament_of(line: &str) -> Match {
        let Command::Match(args) = parse_game_command(line, "labyrinth") else { panic!("{line}: not match") };
        tournament(&args).unwrap()
    }

    #[test]
    fn the_panels_match_command_plays_its_seats() {
        let seats = [BotKind::Asobi, BotKind::Saboteur, BotKind::BigBrain];
        let exp = tournament_of(&match_command(&seats, None));
        assert_eq!((exp.players.as_slice(), exp.alternate_first), (seats.as_slice(), true));
        assert_eq!(exp.params, Params::default());
        let mut params = Params::default();
        params.asobi.threat *= 2.0;
        let dir = tempfile::tempdir().unwrap();
        let preset = dir.path().join("preset.ron");
        write_ron(&preset, &params).unwrap();
        assert_eq!(tournament_of(&match_command(&seats, Some(preset.to_str().unwrap()))).params, params);
    }

    /// The line under "this game from its start": the screen's game of its seed's batch, each
    /// seat moving first in turn, traced turn by turn as the batch plays it.
    #[test]
    fn the_panels_trace_command_plays_its_game_of_the_batch() {
        let seats = [BotKind::Saboteur, BotKind::BigBrain, BotKind::Random];
        let line = trace_command(&seats, None, BatchGame { seed: 5, index: 4 });
        let Command::Match(args) = parse_game_command(&line, "labyrinth") else { panic!("{line}: not match") };
        assert_eq!((args.trace, args.games, args.batch.seed), (Some(4), 5, 5), "{line}");
        let exp = tournament(&args).unwrap();
        assert_eq!((exp.players.as_slice(), exp.alternate_first), (seats.as_slice(), true), "{line}");
        let (mut turns, mut treasures) = (0, 0);
        let traced = exp.play_traced(5, 4, &mut |t| {
            turns += 1;
            treasures += usize::from(t.found_treasure);
        });
        let played = exp.play(5, 4);
        assert_eq!(played.first, 1, "game 4 of three seats: the second seat first");
        assert_eq!((traced.winner, traced.plies, &traced.nodes), (played.winner, played.plies, &played.nodes));
        assert_eq!(turns, traced.turns.iter().sum::<u32>());
        let found: usize = traced.cards_left.iter().map(|&c| 24 / seats.len() - c as usize).sum();
        assert_eq!(treasures, found, "every treasure found is traced once");
    }
}
