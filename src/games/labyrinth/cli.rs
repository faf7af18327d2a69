//! `asobi labyrinth ...`: the command line of the Labyrinth module (thin clap glue).

use std::path::PathBuf;

use anyhow::{Context, bail};

use super::ai::BotKind;
use super::experiment::Match;
use super::level::Params;
use crate::lab::runner::{BatchOptions, CommandLine, at_least_one, run_cli};
use crate::levels::{embedded, parse_ron, read_user_file};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Plays a tournament between bots (thesis chapter 4) and prints wins, win rate of the
    /// first bot listed with its 95% interval and chi-square, turns, cards and ms per turn.
    Match(MatchArgs),
    /// Prints every bot constant (the thesis's defaults, or a preset's) as RON.
    Params(ParamsArgs),
}

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
    /// Bot constants: a RON preset file, or the name of a bundled one (`thesis`); fields
    /// left out keep the thesis's defaults.
    #[arg(long)]
    pub params: Option<String>,
    #[command(flatten)]
    pub batch: BatchOptions,
}

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
    let text = read_user_file(&path)?;
    Ok(parse_ron(&path.display().to_string(), &text)?)
}

fn tournament(a: &MatchArgs) -> anyhow::Result<Match> {
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
    let mut command = CommandLine::new(&["labyrinth", "match"]);
    command.option("players", players.iter().map(|p| p.name()).collect::<Vec<_>>().join(","));
    command.flag("alternate-first", true);
    if let Some(preset) = params {
        command.option("params", preset);
    }
    command.line()
}

pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Match(a) => drop(run_cli(&tournament(&a)?, &a.batch)?),
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
    use crate::lab::runner::{parse_game_command, write_ron};

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
}
