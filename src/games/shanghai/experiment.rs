//! The paper's experiments (paper §4.3 and §5, spec §7-§9) as batch experiments:
//! `eval` (solve rate of a virtual player), `oracle` (perfect-information solvability) and
//! `generate` (the weak-versus-strong map and its skill instances).

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::ai::risk::{RiskJudge, losses};
use super::ai::solver::{Solver, Verdict};
use super::ai::{Decision, Player, PlayerParams, VirtualPlayer, is_guess, play_out};
use super::generator::{DealSource, deal};
use super::layout::Layout;
use super::level::LayoutFile;
use super::rules::{Game, Kind, Move, Observation};
use crate::lab::rng::{GameRng, sub_rng};
use crate::lab::runner::{Experiment, MergeFn, merge};
use crate::lab::stats::{mean, median, wilson95};

/// Stream of the players' randomness (the deals have their own, see [`deal`]).
const PLAY_STREAM: u64 = 0x91A4;
/// Stream of the worlds that judge a losing decision ([`Eval::lock_risk`]); its own, so
/// that judging changes no decision.
const LOCK_RISK_STREAM: u64 = 0x10C4;

/// The layout an experiment runs on, carried in its parameters so that shard files are
/// self-contained; built once per process.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OnLayout {
    /// The layout as its file holds it.
    pub file: LayoutFile,
    #[serde(skip)]
    built: OnceLock<Arc<Layout>>,
}

impl OnLayout {
    /// An experiment's copy of `layout`.
    pub fn new(layout: &Layout) -> OnLayout {
        OnLayout { file: layout.to_file(""), built: OnceLock::from(Arc::new(layout.clone())) }
    }

    /// The layout, built from the file on first use.
    pub fn layout(&self) -> &Arc<Layout> {
        self.built.get_or_init(|| Arc::new(Layout::from_file(&self.file).expect("experiment layouts were validated")))
    }
}

/// Where the deals come from: the generator or random deals by index, or a fixed list.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Deals {
    /// Deal `index` of the generator or of random dealing.
    Source(DealSource),
    /// A list of deals (instance files), played in order.
    Fixed(Vec<Vec<Kind>>),
}

impl Deals {
    /// The kinds of deal `index` (the same for every player and run with this `seed`).
    pub fn get(&self, layout: &Layout, seed: u64, index: u64) -> Vec<Kind> {
        match self {
            Deals::Source(s) => deal(layout, *s, seed, index).expect("layouts that stall were rejected up front"),
            Deals::Fixed(list) => list[index as usize].clone(),
        }
    }
}

/// The random stream the player draws its samples from in game `index` of an eval batch of
/// `seed`. The Shanghai screen's AI draws from it too, so `eval --trace` replays its moves.
pub fn play_stream(seed: u64, index: u64) -> GameRng {
    sub_rng(seed, index, PLAY_STREAM)
}

/// Milliseconds since `start`.
fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// `eval`: a virtual player on `instances` deals, `plays` times each (paper §4.1).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Eval {
    /// The layout played.
    pub layout: OnLayout,
    /// Deals played.
    pub instances: u64,
    /// Plays of each deal.
    pub plays: u64,
    /// The player's settings.
    pub player: PlayerParams,
    /// Where the deals come from.
    pub deals: Deals,
    /// Also find, in each lost game, the move after which the real deal became unsolvable.
    #[serde(default)]
    pub blunders: bool,
    /// The player sees every tile, hidden ones included (a diagnostic: it separates what the
    /// search loses from what the hidden tiles cost).
    #[serde(default)]
    pub peek: bool,
    /// With `blunders`, judge every legal move of a searched or guessed decision that lost the
    /// real deal on this many solvable worlds dealt from what the player saw, as the risk
    /// check does (0: off): was a move at hand that risked less?
    #[serde(default)]
    pub lock_risk: u32,
}

/// One play of one deal.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EvalRecord {
    /// Every tile was removed.
    pub solved: bool,
    /// Milliseconds the play took.
    pub ms: f64,
    /// With [`Eval::blunders`], for a lost game: why it was lost and the tiles left then.
    #[serde(default)]
    pub blunder: Option<(Blunder, u32)>,
    /// For a searched blunder: how far the chosen move's mean value led the best-valued move
    /// that kept the real deal solvable (`None`: every move lost it).
    #[serde(default)]
    pub safe_lead: Option<f64>,
    /// With [`Eval::lock_risk`]: the losing decision judged on worlds the player could not
    /// tell from the real deal.
    #[serde(default)]
    pub lock_risk: Option<LockRisk>,
}

/// A decision judged on solvable worlds dealt from what the player saw: in how many of them
/// the solver proves the position after a move lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockRisk {
    /// The worlds judged.
    pub worlds: u32,
    /// Worlds the move played loses.
    pub played: u32,
    /// The fewest worlds lost by a move whose mean value is at least the played move's less
    /// the player's risk window (the played move and any valued higher included).
    pub near: u32,
    /// The fewest worlds lost by any legal move.
    pub least: u32,
}

impl LockRisk {
    /// A move valued about as high as the one played risked less than half as much: better
    /// judgement of the same information could have avoided this loss, at least at this move.
    pub fn avoidable(&self) -> bool {
        2 * self.near < self.played
    }
}

/// What lost a game: the kind of decision after which the peeking solver proves the real
/// deal unsolvable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Blunder {
    /// A certain move of this rule (1-4).
    Certain(u8),
    /// Two of three free tiles of a kind paired while the fourth is hidden.
    Guess,
    /// A move chosen by the search over sampled worlds.
    Search,
    /// The deal was unsolvable as dealt (random deals).
    Dealt,
    /// No move was proven to lose within [`BLUNDER_NODES`].
    Unproven,
}

/// Solver nodes spent on the real deal after each move when looking for the blunder.
pub const BLUNDER_NODES: u64 = 2_000_000;

/// One decision of a traced game (`shanghai eval --trace`).
pub struct TracedDecision<'a> {
    /// 1-based move number.
    pub number: u32,
    /// Tiles on the board before the move.
    pub tiles_left: u32,
    /// The player's move and why.
    pub decision: &'a Decision,
    /// The kind of the two tiles removed.
    pub kind: Kind,
    /// With [`Eval::blunders`]: the real deal was solvable before this move and is proven
    /// unsolvable after it.
    pub lost_here: bool,
    /// The real game before the move, hidden tiles included (for the reader; the player saw
    /// only its observation).
    pub before: &'a Game,
    /// At the losing move, with [`Eval::lock_risk`]: the decision judged on more worlds.
    pub lock_risk: Option<LockRisk>,
}

/// Plays `game` to its end like [`play_out`] (the same decisions), showing each to `trace`.
/// With `exp.blunders`, checks after each move whether the real deal is still solvable and
/// records, for a lost game, the blunder with the tiles left after it and, for a searched
/// one, the lead of the chosen move over the best-valued move that kept the deal solvable;
/// with `exp.lock_risk`, judges the losing decision on worlds drawn from `judge_rng`. With
/// `exp.peek` the player sees every tile.
fn play_recorded(
    exp: &Eval,
    game: &mut Game,
    rng: &mut GameRng,
    judge_rng: &mut GameRng,
    trace: &mut dyn FnMut(&TracedDecision),
) -> EvalRecord {
    let (find_blunder, peek) = (exp.blunders, exp.peek);
    let player = VirtualPlayer { params: exp.player };
    let lost = |game: &Game| {
        Solver::new(&game.layout, &game.kinds).solve_within(game.present, BLUNDER_NODES) == Verdict::Unsolvable
    };
    let mut blunder = (find_blunder && lost(game)).then_some((Blunder::Dealt, game.present.len() as u32));
    let (mut safe_lead, mut lock_risk) = (None, None);
    let mut number = 0;
    loop {
        let obs = if peek { Observation::peeking(game) } else { game.observation() };
        let Some(d) = player.decide(&obs, rng) else { break };
        let cause = match d.certain_rule {
            Some(rule) => Blunder::Certain(rule),
            None if is_guess(&obs, &obs.layout.free_tiles(&obs.present), d.mv) => Blunder::Guess,
            None => Blunder::Search,
        };
        let before = game.clone();
        game.play(d.mv).expect("players choose legal moves");
        let lost_here = find_blunder && blunder.is_none() && lost(game);
        if lost_here {
            blunder = Some((cause, game.present.len() as u32));
            let chosen = d.values.iter().find(|(m, _)| *m == d.mv).map_or(0.0, |v| v.1);
            let safe = |&&(m, _): &&(Move, f64)| {
                let mut g = before.clone();
                g.play(m).is_ok() && !lost(&g)
            };
            let best_safe = d.values.iter().filter(|(m, _)| *m != d.mv).filter(safe).map(|v| v.1).reduce(f64::max);
            safe_lead = best_safe.filter(|_| cause == Blunder::Search).map(|v| chosen - v);
            if exp.lock_risk > 0 {
                lock_risk = judge_lock_risk(&obs, &d, exp.lock_risk, &exp.player, judge_rng);
            }
        }
        number += 1;
        let (tiles_left, kind) = (before.present.len() as u32, before.kinds[d.mv.a as usize]);
        let judged_here = lock_risk.filter(|_| lost_here);
        let traced = TracedDecision {
            number,
            tiles_left,
            decision: &d,
            kind,
            lost_here,
            before: &before,
            lock_risk: judged_here,
        };
        trace(&traced);
    }
    let solved = game.is_won();
    let blunder = if solved || !find_blunder { None } else { blunder.or(Some((Blunder::Unproven, 0))) };
    EvalRecord { solved, ms: 0.0, blunder, safe_lead, lock_risk }
}

/// Decision `d` judged on `worlds` solvable worlds dealt from `obs` by the risk check's
/// judge ([`losses`]); `None` for a certain move (it has no values to compare).
fn judge_lock_risk(
    obs: &Observation,
    d: &Decision,
    worlds: u32,
    params: &PlayerParams,
    rng: &mut GameRng,
) -> Option<LockRisk> {
    let moves: Vec<Move> = d.values.iter().map(|v| v.0).collect();
    let played = moves.iter().position(|&m| m == d.mv)?;
    let judged = losses(obs, &moves, worlds, RiskJudge::Locks, params, rng);
    let floor = d.values[played].1 - params.risk_window;
    let lost_near = d.values.iter().zip(&judged.lost).filter(|((_, v), _)| *v >= floor).map(|(_, &l)| l);
    Some(LockRisk {
        worlds: judged.worlds,
        played: judged.lost[played],
        near: lost_near.min()?,
        least: *judged.lost.iter().min()?,
    })
}

impl Experiment for Eval {
    const NAME: &'static str = "shanghai.eval";
    type Record = EvalRecord;
    fn games(&self) -> u64 {
        // Saturates, so that a batch too large for the runner is refused rather than wrapped.
        self.instances.saturating_mul(self.plays)
    }
    fn play(&self, seed: u64, index: u64) -> EvalRecord {
        self.play_traced(seed, index, &mut |_| {})
    }
    fn summarize(&self, records: &[EvalRecord]) -> Map<String, Value> {
        let solved = records.iter().filter(|r| r.solved).count() as u64;
        let n = records.len() as u64;
        let times: Vec<f64> = records.iter().map(|r| r.ms).collect();
        let mut m = Map::new();
        m.insert("instances".into(), json!(self.instances));
        m.insert("plays".into(), json!(self.plays));
        m.insert("solve_rate".into(), json!(solved as f64 / n.max(1) as f64));
        m.insert("ci95".into(), json!(wilson95(solved, n)));
        m.insert("ms_per_game".into(), json!(mean(&times)));
        if self.blunders {
            m.insert("blunders".into(), blunder_summary(records));
        }
        m
    }
}

impl Eval {
    /// Game `index` (deal `index / plays`) of `seed`, showing every decision to `trace`.
    pub fn play_traced(&self, seed: u64, index: u64, trace: &mut dyn FnMut(&TracedDecision)) -> EvalRecord {
        let start = Instant::now();
        let layout = self.layout.layout();
        let mut game = Game::new(layout.clone(), self.deals.get(layout, seed, index / self.plays));
        let mut rng = play_stream(seed, index);
        let mut judge_rng = sub_rng(seed, index, LOCK_RISK_STREAM);
        let record = play_recorded(self, &mut game, &mut rng, &mut judge_rng, trace);
        EvalRecord { ms: ms(start), ..record }
    }
}

/// Lost games by the decision that lost them, the mean tiles left after it, and how many
/// searched blunders had a move that kept the deal solvable, with the chosen move's mean lead
/// in value over the best such move.
fn blunder_summary(records: &[EvalRecord]) -> Value {
    let found: Vec<(Blunder, u32)> = records.iter().filter_map(|r| r.blunder).collect();
    let leads: Vec<f64> = records.iter().filter_map(|r| r.safe_lead).collect();
    let count = |f: fn(&Blunder) -> bool| found.iter().filter(|(b, _)| f(b)).count();
    let left: Vec<f64> = found
        .iter()
        .filter(|(b, _)| !matches!(b, Blunder::Dealt | Blunder::Unproven))
        .map(|&(_, l)| l as f64)
        .collect();
    json!({
        "certain": count(|b| matches!(b, Blunder::Certain(_))),
        "certain_by_rule": (1..=4u8).map(|r| found.iter().filter(|(b, _)| *b == Blunder::Certain(r)).count()).collect::<Vec<_>>(),
        "guess": count(|b| *b == Blunder::Guess),
        "search": count(|b| *b == Blunder::Search),
        "dealt": count(|b| *b == Blunder::Dealt),
        "unproven": count(|b| *b == Blunder::Unproven),
        "mean_tiles_left": mean(&left),
        "search_with_safe_move": leads.len(),
        "mean_lead_over_safe_move": mean(&leads),
        "lock_risk": lock_risk_summary(records),
    })
}

/// The judged losing decisions ([`Eval::lock_risk`]): how many, how many were
/// [`LockRisk::avoidable`], and the mean share of the worlds lost by the move played, by the
/// safest move valued near it and by the safest move of all (`null` when none was judged).
fn lock_risk_summary(records: &[EvalRecord]) -> Value {
    let judged: Vec<LockRisk> = records.iter().filter_map(|r| r.lock_risk).filter(|r| r.worlds > 0).collect();
    if judged.is_empty() {
        return Value::Null;
    }
    let share = |count: fn(&LockRisk) -> u32| {
        mean(&judged.iter().map(|r| count(r) as f64 / r.worlds as f64).collect::<Vec<_>>())
    };
    json!({
        "judged": judged.len(),
        "avoidable": judged.iter().filter(|r| r.avoidable()).count(),
        "played_share_lost": share(|r| r.played),
        "near_share_lost": share(|r| r.near),
        "least_share_lost": share(|r| r.least),
    })
}

/// `oracle`: perfect-information solvability of deals (spec §9).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Oracle {
    /// The layout.
    pub layout: OnLayout,
    /// Deals decided.
    pub deals: u64,
    /// Generator or random deals.
    pub source: DealSource,
}

/// One deal decided.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OracleRecord {
    /// Solvable, unsolvable or undecided.
    pub verdict: Verdict,
    /// Positions the solver searched.
    pub nodes: u64,
    /// Milliseconds it took.
    pub ms: f64,
}

impl Experiment for Oracle {
    const NAME: &'static str = "shanghai.oracle";
    type Record = OracleRecord;
    fn games(&self) -> u64 {
        self.deals
    }
    fn play(&self, seed: u64, index: u64) -> OracleRecord {
        let layout = self.layout.layout();
        let kinds = deal(layout, self.source, seed, index).expect("layouts that stall were rejected up front");
        let start = Instant::now();
        let mut solver = Solver::new(layout, &kinds);
        let verdict = solver.solve(layout.all());
        OracleRecord { verdict, nodes: solver.nodes, ms: ms(start) }
    }
    fn summarize(&self, records: &[OracleRecord]) -> Map<String, Value> {
        let count = |v: Verdict| records.iter().filter(|r| r.verdict == v).count() as u64;
        let solvable = count(Verdict::Solvable);
        let n = records.len() as u64;
        let times: Vec<f64> = records.iter().map(|r| r.ms).collect();
        let mut m = Map::new();
        m.insert("deals".into(), json!(n));
        m.insert("solvable".into(), json!(solvable));
        m.insert("solvable_rate".into(), json!(solvable as f64 / n.max(1) as f64));
        m.insert("ci95".into(), json!(wilson95(solvable, n)));
        m.insert("ms_per_deal".into(), json!(mean(&times)));
        m.insert("ms_median".into(), json!(median(&times)));
        m.insert("unsolvable".into(), json!(count(Verdict::Unsolvable)));
        m.insert("undecided".into(), json!(count(Verdict::Undecided)));
        m
    }
}

/// A solve rate below this is low (spec §8: low < 0.33 <= middle < 0.67 <= high); by default a
/// skill instance's weak rate is low ...
pub const LOW_BELOW: f64 = 0.33;
/// ... and its strong rate high: at least this.
pub const HIGH_FROM: f64 = 0.67;

/// The spec's bin of a solve rate: 0 low, 1 middle, 2 high.
fn rate_bin(rate: f64) -> usize {
    usize::from(rate >= LOW_BELOW) + usize::from(rate >= HIGH_FROM)
}

/// `generate`: generator instances measured by a weak and a strong player (paper §3, §5).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Generate {
    /// The layout.
    pub layout: OnLayout,
    /// Instances generated.
    pub count: u64,
    /// Plays of each instance by each player.
    pub plays: u64,
    /// The weak player's settings.
    pub weak: PlayerParams,
    /// The strong player's settings.
    pub strong: PlayerParams,
    /// A skill instance: weak rate below this ...
    pub weak_max: f64,
    /// ... and strong rate at least this.
    pub strong_min: f64,
}

/// One generated instance: its solve rate by the weak and by the strong player.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GenerateRecord {
    /// The weak player's solve rate.
    pub weak_rate: f64,
    /// The strong player's solve rate.
    pub strong_rate: f64,
    /// Milliseconds both took.
    pub ms: f64,
}

impl Generate {
    /// Whether the instance tests skill: the weak player mostly fails, the strong one wins.
    pub fn is_skill(&self, r: &GenerateRecord) -> bool {
        r.weak_rate < self.weak_max && r.strong_rate >= self.strong_min
    }

    /// Mean solve rate of `params` on one deal over `plays` plays.
    fn rate(&self, kinds: &[Kind], params: PlayerParams, seed: u64, index: u64, stream: u64) -> f64 {
        let layout = self.layout.layout();
        let player = VirtualPlayer { params };
        let solved = (0..self.plays)
            .filter(|&p| {
                let mut game = Game::new(layout.clone(), kinds.to_vec());
                play_out(&mut game, &player, &mut sub_rng(seed, index * self.plays + p, stream))
            })
            .count();
        solved as f64 / self.plays.max(1) as f64
    }
}

impl Experiment for Generate {
    const NAME: &'static str = "shanghai.generate";
    type Record = GenerateRecord;
    fn games(&self) -> u64 {
        self.count
    }
    fn play(&self, seed: u64, index: u64) -> GenerateRecord {
        let start = Instant::now();
        let kinds = Deals::Source(DealSource::Generator).get(self.layout.layout(), seed, index);
        let weak_rate = self.rate(&kinds, self.weak, seed, index, PLAY_STREAM);
        let strong_rate = self.rate(&kinds, self.strong, seed, index, PLAY_STREAM + 1);
        GenerateRecord { weak_rate, strong_rate, ms: ms(start) }
    }
    fn summarize(&self, records: &[GenerateRecord]) -> Map<String, Value> {
        let skill = records.iter().filter(|r| self.is_skill(r)).count();
        let map: Vec<[f64; 2]> = records.iter().map(|r| [r.weak_rate, r.strong_rate]).collect();
        let mut m = Map::new();
        m.insert("instances".into(), json!(records.len()));
        m.insert("skill_instances".into(), json!(skill));
        // The paper's reading of the map (its §5: high-high too easy, middle-middle rewarding).
        let mut bins = [[0u64; 3]; 3];
        for r in records {
            bins[rate_bin(r.weak_rate)][rate_bin(r.strong_rate)] += 1;
        }
        let [low, middle, high] = bins;
        m.insert("bins".into(), json!({"weak_low": low, "weak_middle": middle, "weak_high": high}));
        m.insert("map".into(), json!(map));
        m.insert("weak_mean".into(), json!(mean(&records.iter().map(|r| r.weak_rate).collect::<Vec<_>>())));
        m.insert("strong_mean".into(), json!(mean(&records.iter().map(|r| r.strong_rate).collect::<Vec<_>>())));
        m
    }
}

/// Merge functions of the batch experiments, for `asobi merge`.
pub const MERGERS: &[(&str, MergeFn)] =
    &[(Eval::NAME, merge::<Eval>), (Oracle::NAME, merge::<Oracle>), (Generate::NAME, merge::<Generate>)];
