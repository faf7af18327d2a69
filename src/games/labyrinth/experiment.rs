//! The thesis's experiment (chapter 4): tournaments between bots, recording the winner, the
//! rounds played (the winner's own turns, as the thesis counts "turns") and the losers'
//! remaining cards; summarized with a Wilson interval, chi-square and a Table 4.2 breakdown.

use std::collections::BTreeMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::ai::{BotKind, Decision};
use super::level::Params;
use super::rules::GameState;
use super::setup::new_game;
use crate::lab::rng::{GameRng, sub_rng};
use crate::lab::runner::{Experiment, MergeFn, merge};
use crate::lab::stats::{elo_diff, mean, wilson95};

/// `asobi labyrinth match`: `games` games between `players` (seat order = turn order).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Match {
    /// The bots, in seat order.
    pub players: Vec<BotKind>,
    /// Games played.
    pub games: u64,
    /// First player = game index mod players (each bot first in an equal share of games);
    /// otherwise drawn from the game's seed.
    pub alternate_first: bool,
    /// A game still running after every player had this many turns is a draw.
    pub max_rounds: u32,
    /// The bots' constants.
    pub params: Params,
}

/// One game's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The seat that moved first.
    pub first: u8,
    /// The seat that won; `None` for a draw.
    pub winner: Option<u8>,
    /// The winner's own turns (the cap for a draw).
    pub rounds: u32,
    /// Turns of all seats together.
    pub plies: u32,
    /// Unrevealed cards of each seat at the end.
    pub cards_left: Vec<u8>,
    /// Thinking time of each seat, in milliseconds.
    pub ms: Vec<f64>,
    /// Turns each seat played.
    pub turns: Vec<u32>,
    /// Search nodes each seat generated.
    pub nodes: Vec<u64>,
    /// Turns on which each seat's search ran out of budget.
    pub exhausted: Vec<u32>,
}

/// One turn of a traced game: the seat that moved, its bot's decision and the game after it.
pub struct TracedTurn<'a> {
    /// The seat that moved.
    pub seat: usize,
    /// Its bot.
    pub bot: BotKind,
    /// What the bot chose and why.
    pub decision: &'a Decision,
    /// The game after the turn.
    pub state: &'a GameState,
    /// The turn reached the seat's target treasure.
    pub found_treasure: bool,
}

/// Game `index` of batch `seed` before its first turn, and each seat's random stream: the deal
/// comes from stream 0 of (seed, index), seat s's bot from 1 + s. The Labyrinth screen starts
/// its games here too (the seat of [`first_in_turn`] first), so `match --alternate-first
/// --trace INDEX` replays them.
pub fn game_start(players: usize, first: Option<usize>, seed: u64, index: u64) -> (GameState, Vec<GameRng>) {
    let state = new_game(players, first, &mut sub_rng(seed, index, 0));
    (state, (0..players).map(|s| sub_rng(seed, index, 1 + s as u64)).collect())
}

/// The seat that moves first in game `index` with `--alternate-first`: each seat in turn.
pub fn first_in_turn(players: usize, index: u64) -> usize {
    (index % players as u64) as usize
}

/// Plays one game from [`game_start`].
pub fn play_game(
    players: &[BotKind],
    params: &Params,
    first: Option<usize>,
    max_rounds: u32,
    seed: u64,
    index: u64,
) -> GameRecord {
    play_game_traced(players, params, first, max_rounds, (seed, index), &mut |_| {})
}

/// [`play_game`], calling `trace` after every turn.
fn play_game_traced(
    players: &[BotKind],
    params: &Params,
    first: Option<usize>,
    max_rounds: u32,
    (seed, index): (u64, u64),
    trace: &mut dyn FnMut(&TracedTurn),
) -> GameRecord {
    let n = players.len();
    let (mut state, mut rngs) = game_start(n, first, seed, index);
    let first = state.current;
    let bots: Vec<_> = players.iter().map(|k| k.build(params)).collect();
    let mut ms = vec![0.0; n];
    let mut turns = vec![0u32; n];
    let mut nodes = vec![0u64; n];
    let mut exhausted = vec![0u32; n];
    while !state.is_over() && turns[state.current] < max_rounds {
        let seat = state.current;
        let start = Instant::now();
        let decision = bots[seat].decide(&state.observe(seat), &mut rngs[seat]);
        ms[seat] += start.elapsed().as_secs_f64() * 1e3;
        turns[seat] += 1;
        nodes[seat] += decision.nodes;
        exhausted[seat] += u32::from(decision.exhausted);
        let cards_before = state.players()[seat].cards_left();
        if let Err(e) = state.apply(decision.turn) {
            unreachable!("bot {} chose an illegal turn: {e}", players[seat]);
        }
        let found_treasure = state.players()[seat].cards_left() < cards_before;
        trace(&TracedTurn { seat, bot: players[seat], decision: &decision, state: &state, found_treasure });
    }
    GameRecord {
        first: first as u8,
        winner: state.winner.map(|w| w as u8),
        rounds: state.winner.map_or(max_rounds, |w| turns[w]),
        plies: state.plies,
        cards_left: state.players().iter().map(|p| p.cards_left() as u8).collect(),
        ms,
        turns,
        nodes,
        exhausted,
    }
}

impl Match {
    /// Game `index` of the batch, calling `trace` after every turn (`match --trace`).
    pub fn play_traced(&self, seed: u64, index: u64, trace: &mut dyn FnMut(&TracedTurn)) -> GameRecord {
        let first = self.alternate_first.then(|| first_in_turn(self.players.len(), index));
        play_game_traced(&self.players, &self.params, first, self.max_rounds, (seed, index), trace)
    }
}

impl Experiment for Match {
    const NAME: &'static str = "labyrinth.match";
    type Record = GameRecord;

    fn games(&self) -> u64 {
        self.games
    }

    fn play(&self, seed: u64, index: u64) -> GameRecord {
        self.play_traced(seed, index, &mut |_| {})
    }

    fn summarize(&self, records: &[GameRecord]) -> Map<String, Value> {
        let names: Vec<&str> = self.players.iter().map(|k| k.name()).collect();
        let mut distinct = names.clone();
        distinct.dedup_by(|a, b| a == b);
        distinct.sort();
        distinct.dedup();
        let name_of = |seat: u8| names[seat as usize];
        let decided: Vec<&GameRecord> = records.iter().filter(|r| r.winner.is_some()).collect();
        let wins_of =
            |name: &str, rs: &[&GameRecord]| rs.iter().filter(|r| r.winner.map(name_of) == Some(name)).count();
        let wins: BTreeMap<&str, usize> = distinct.iter().map(|&n| (n, wins_of(n, &decided))).collect();
        // Per bot name: a per-seat quantity summed over its seats and games, per turn.
        let per_turn = |f: &dyn Fn(&GameRecord, usize) -> f64| -> BTreeMap<&str, f64> {
            distinct
                .iter()
                .map(|&n| {
                    let seats: Vec<usize> = (0..names.len()).filter(|&s| names[s] == n).collect();
                    let total: f64 = records.iter().flat_map(|r| seats.iter().map(move |&s| f(r, s))).sum();
                    let turns: u32 = records.iter().flat_map(|r| seats.iter().map(|&s| r.turns[s])).sum();
                    (n, total / f64::from(turns.max(1)))
                })
                .collect()
        };
        let games = records.len() as u64;
        let w = wins[names[0]] as u64;
        let share = names.iter().filter(|&&n| n == names[0]).count() as f64 / names.len() as f64;
        let mut m = Map::new();
        m.insert("games".into(), json!(games));
        m.insert("wins".into(), json!(wins));
        m.insert("draws".into(), json!(games - decided.len() as u64));
        m.insert("first_player_wins".into(), json!(decided.iter().filter(|r| r.winner == Some(r.first)).count()));
        m.insert("win_rate".into(), json!(if games == 0 { 0.0 } else { w as f64 / games as f64 }));
        m.insert("ci95".into(), json!(wilson95(w, games)));
        m.insert("chi2".into(), json!(chi2_share(w, decided.len() as u64, share)));
        m.insert(
            "elo_diff".into(),
            json!(elo_diff(if games == 0 {
                0.5
            } else {
                (w as f64 + (games - decided.len() as u64) as f64 * share) / games as f64
            })),
        );
        m.insert("mean_turns".into(), json!(mean(&decided.iter().map(|r| f64::from(r.rounds)).collect::<Vec<_>>())));
        m.insert("mean_loser_cards".into(), json!(mean(&loser_cards(&decided))));
        m.insert("ms_per_turn".into(), json!(per_turn(&|r, s| r.ms[s])));
        m.insert("nodes_per_turn".into(), json!(per_turn(&|r, s| r.nodes[s] as f64)));
        m.insert("exhausted_share".into(), json!(per_turn(&|r, s| f64::from(r.exhausted[s]))));
        m.insert("by_first".into(), by_first(&distinct, &names, records));
        m
    }
}

/// Pearson chi-square of `wins` out of `decided` games against the expected share `p`
/// (the bot's share of the seats: 1/2 in a two-bot match).
fn chi2_share(wins: u64, decided: u64, p: f64) -> f64 {
    let n = decided as f64;
    if n == 0.0 || p <= 0.0 || p >= 1.0 {
        return 0.0;
    }
    let (ew, el) = (n * p, n * (1.0 - p));
    let (w, l) = (wins as f64, n - wins as f64);
    (w - ew).powi(2) / ew + (l - el).powi(2) / el
}

fn loser_cards(rs: &[&GameRecord]) -> Vec<f64> {
    rs.iter()
        .flat_map(|r| {
            let w = r.winner.map(usize::from);
            r.cards_left.iter().enumerate().filter(move |(s, _)| Some(*s) != w).map(|(_, &c)| f64::from(c))
        })
        .collect()
}

/// Thesis Table 4.2: per first mover, the wins of each bot and the mean rounds and losers'
/// cards of the games each bot won.
fn by_first(distinct: &[&str], names: &[&str], records: &[GameRecord]) -> Value {
    let mut out = Map::new();
    for &first in distinct {
        let block: Vec<&GameRecord> = records.iter().filter(|r| names[r.first as usize] == first).collect();
        let mut per_winner = Map::new();
        for &winner in distinct {
            let won: Vec<&GameRecord> =
                block.iter().copied().filter(|r| r.winner.map(|w| names[w as usize]) == Some(winner)).collect();
            per_winner.insert(
                winner.into(),
                json!({
                    "wins": won.len(),
                    "mean_turns": mean(&won.iter().map(|r| f64::from(r.rounds)).collect::<Vec<_>>()),
                    "mean_loser_cards": mean(&loser_cards(&won)),
                }),
            );
        }
        out.insert(first.into(), json!({ "games": block.len(), "winners": per_winner }));
    }
    Value::Object(out)
}

/// How `asobi merge` combines this game's shard files, by experiment name.
pub const MERGERS: &[(&str, MergeFn)] = &[(Match::NAME, merge::<Match>)];
