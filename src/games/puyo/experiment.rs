//! The paper's three experiments (chapter 6, spec §7) as batch experiments:
//! E1 `build` (moves to complete a template), E2 `endless` (one chain per game),
//! E3 `versus`. Pairs come from `sub_rng(seed, game, PAIRS)`, so every player and setting
//! sees the same sequences.

use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::ai::template_search::best_template;
use super::ai::{AiKind, AiParams, Decision, Observation, Player, PuyoAi, fires_chain};
use super::rules::{Chain, Field, GarbageRule, Outcome, Pair, Placement, Versus, pair_sequence};
use crate::lab::rng::{GameRng, sub_rng};
use crate::lab::runner::{Experiment, MergeFn, merge, value_name};
use crate::lab::stats::{HeadToHead, mean, mean_ci95, median};

/// Streams of a game's randomness.
const PAIRS: u64 = 1;
const GARBAGE: u64 = 2;

/// Pairs known at each decision (current + 2 previews).
const KNOWN: usize = 3;

fn pairs_for(seed: u64, index: u64, colors: usize, len: usize) -> Vec<Pair> {
    pair_sequence(&mut sub_rng(seed, index, PAIRS), colors, len)
}

/// Pairs a versus game is played with (a sequence both sides share, repeating after it).
pub const VERSUS_PAIRS: usize = 1024;

/// Game `index` of a versus batch of `seed`: its pair sequence and the random stream that
/// places garbage. The Puyo screen deals its games here too, so `versus --trace GAME`
/// replays a game between two AIs on it, and `endless --trace GAME` an AI's endless game up to
/// its first chain (the pairs are the same: a sequence's start does not depend on its length).
pub fn versus_streams(seed: u64, index: u64, colors: usize) -> (Vec<Pair>, GameRng) {
    (pairs_for(seed, index, colors, VERSUS_PAIRS), sub_rng(seed, index, GARBAGE))
}

fn player(kind: AiKind, params: &AiParams) -> Player {
    // The shipped templates are checked at build time and by tests, a user's folder by the CLI
    // before the run.
    Player::new(kind, params.clone()).expect("template groups are checked before the run")
}

/// One move of a traced trial or game (`--trace`): what the player did and what came of it.
pub struct TracedMove<'a> {
    /// The player who moved (0 alone; 0 for player 1 or 1 for player 2 in versus, whichever
    /// board it plays).
    pub side: usize,
    /// The player's 1-based move number.
    pub number: u32,
    /// The pair placed.
    pub pair: Pair,
    /// Garbage waiting to fall on the player when it decided (versus).
    pub pending: u32,
    /// Where the player put it and why.
    pub decision: &'a Decision,
    /// The field after the move and its chain.
    pub field: &'a Field,
    /// The chain the move set off.
    pub chain: Chain,
    /// The other player's field at that time (versus).
    pub opponent: Option<&'a Field>,
}

impl<'a> TracedMove<'a> {
    /// A single-player move.
    fn alone(number: u32, pair: Pair, decision: &'a Decision, field: &'a Field, chain: Chain) -> Self {
        TracedMove { side: 0, number, pair, pending: 0, decision, field, chain, opponent: None }
    }
}

/// Experiments whose games can be replayed move by move (`--trace`); `play` is the same game
/// shown to nobody.
pub trait Traced: Experiment {
    /// Game `index` of `seed`, showing every move to `trace`.
    fn play_traced(&self, seed: u64, index: u64, trace: &mut dyn FnMut(&TracedMove)) -> Self::Record;

    /// What a reader of game `index`'s trace needs to know beyond the seed, if anything.
    fn trace_note(&self, _index: u64) -> Option<String> {
        None
    }
}

/// E1: moves until the template player's best template scores >= the completion threshold.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Build {
    /// The template player's settings.
    pub params: AiParams,
    /// Trials played.
    pub trials: u64,
    /// A trial that has not completed after this many moves (or died) failed.
    pub max_moves: u32,
    /// Colours in play (3-5).
    pub colors: usize,
}

/// One E1 trial.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BuildRecord {
    /// The best template reached the completion score.
    pub completed: bool,
    /// Moves played until then (or until the trial ended).
    pub moves: u32,
    /// Milliseconds per move, decisions and engine together (one thread).
    pub ms: f64,
    /// At completion, the formation fires its chain (the completing move fires it, or a
    /// trigger of at most 3 puyos would): the score threshold does not guarantee it.
    #[serde(default)]
    pub fires: bool,
    /// The first move after which a formation scoring at least the threshold fires its chain
    /// (0 if none did within the move limit): the trial goes on after completion to find it.
    #[serde(default)]
    pub fire_moves: u32,
    /// The best template when the trial completed (empty if it did not): which group a trial
    /// with several groups built.
    #[serde(default)]
    pub template: String,
    /// The first move before completion at which the search was jammed (every leaf conflicted
    /// with every template, so the fallback moved); 0 if it never was.
    #[serde(default)]
    pub jam_move: u32,
    /// The best template's score of the field after each move until completion (0 when every
    /// template conflicts): how far the build had come at any move, e.g. to compare groups
    /// built alone on the same pairs.
    #[serde(default)]
    pub scores: Vec<f64>,
}

impl Experiment for Build {
    const NAME: &'static str = "puyo.build";
    type Record = BuildRecord;

    fn games(&self) -> u64 {
        self.trials
    }

    fn play(&self, seed: u64, index: u64) -> BuildRecord {
        self.play_traced(seed, index, &mut |_| {})
    }

    fn summarize(&self, records: &[BuildRecord]) -> Map<String, Value> {
        let done: Vec<f64> = records.iter().filter(|r| r.completed).map(|r| r.moves as f64).collect();
        let over30 = records.iter().filter(|r| !r.completed || r.moves > 30).count();
        let mut m = Map::new();
        m.insert("trials".into(), json!(records.len()));
        m.insert("completed".into(), json!(done.len()));
        m.insert("mean_moves".into(), json!(mean(&done)));
        m.insert("ci95_moves".into(), json!(mean_ci95(&done)));
        m.insert("median_moves".into(), json!(median(&done)));
        m.insert("over_30_share".into(), json!(over30 as f64 / records.len().max(1) as f64));
        // A jammed trial waits until its conflicting puyos pop (41% of stairs trials at depth 1).
        let jam_free: Vec<f64> =
            records.iter().filter(|r| r.completed && r.jam_move == 0).map(|r| r.moves as f64).collect();
        m.insert("jammed".into(), json!(records.iter().filter(|r| r.jam_move > 0).count()));
        m.insert("mean_moves_jam_free".into(), json!(mean(&jam_free)));
        let fires = records.iter().filter(|r| r.completed && r.fires).count();
        m.insert("fires_share".into(), json!(fires as f64 / done.len().max(1) as f64));
        // Completion as the paper meant it (the chain body placed): the formation fires.
        let fired: Vec<f64> = records.iter().filter(|r| r.fire_moves > 0).map(|r| r.fire_moves as f64).collect();
        m.insert("fired".into(), json!(fired.len()));
        m.insert("mean_fire_moves".into(), json!(mean(&fired)));
        m.insert("median_fire_moves".into(), json!(median(&fired)));
        m.insert("ms_per_move".into(), json!(mean(&records.iter().map(|r| r.ms).collect::<Vec<_>>())));
        m
    }
}

impl Traced for Build {
    fn play_traced(&self, seed: u64, index: u64, trace: &mut dyn FnMut(&TracedMove)) -> BuildRecord {
        let ai = player(AiKind::Template, &self.params);
        let pairs = pairs_for(seed, index, self.colors, self.max_moves as usize + KNOWN);
        let mut field = Field::new();
        let start = Instant::now();
        let mut rec = BuildRecord {
            completed: false,
            moves: self.max_moves,
            ms: 0.0,
            fires: false,
            fire_moves: 0,
            template: String::new(),
            jam_move: 0,
            scores: Vec::new(),
        };
        let mut played = 0;
        for m in 0..self.max_moves as usize {
            let obs = Observation::alone(&field, &pairs[m..m + KNOWN]);
            let Some((d, jammed)) = ai.template_move(&obs) else { break };
            let (formation, chain, score) = play_judging_formation(&ai, &mut field, pairs[m], d.placement, |s| {
                s >= self.params.template.completion
            });
            played = m as u32 + 1;
            if !rec.completed {
                rec.scores.push(score);
            }
            if jammed && rec.jam_move == 0 && !rec.completed {
                rec.jam_move = played;
            }
            trace(&TracedMove::alone(played, pairs[m], &d, &field, chain));
            if let Some((template, fires)) = formation
                && !rec.completed
            {
                (rec.completed, rec.moves, rec.fires) = (true, played, fires);
                rec.template = ai.templates()[template].name.clone();
            }
            if formation.is_some_and(|(_, fires)| fires) {
                rec.fire_moves = played;
                break;
            }
            if field.is_dead() {
                rec.moves = if rec.completed { rec.moves } else { played };
                break;
            }
        }
        rec.ms = ms_per(start, played);
        rec
    }
}

/// Plays `placement` of `pair`, judging the best template before resolution, so the move
/// that fires counts (spec §9.1). Returns, when the best template's score passes `reached`,
/// that template and whether its formation fires its chain (the move fired it, or a trigger
/// of at most 3 puyos would: the score alone does not guarantee it); also the chain the move
/// fired and the best template's score (0 when every template conflicts).
fn play_judging_formation(
    ai: &Player,
    field: &mut Field,
    pair: Pair,
    placement: Placement,
    reached: impl Fn(f64) -> bool,
) -> (Option<(usize, bool)>, Chain, f64) {
    let placed = field.place(pair, placement).expect("AIs return legal moves");
    let best = best_template(ai.templates(), field);
    let chain = field.resolve_from(placed, |_| {});
    let formation = best.filter(|&(_, s)| reached(s)).map(|(t, _)| {
        let links = ai.templates()[t].chain;
        (t, chain.links >= links || fires_chain(field, links))
    });
    (formation, chain, best.map_or(0.0, |(_, s)| s))
}

fn ms_per(start: Instant, moves: u32) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0 / moves.max(1) as f64
}

/// E2: single-player chain building; the game ends when the player fires its chain.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Endless {
    /// The player.
    pub ai: AiKind,
    /// Its settings.
    pub params: AiParams,
    /// Games played.
    pub games: u64,
    /// A game that has not fired after this many moves ends with no chain.
    pub max_moves: u32,
    /// Colours in play (3-5).
    pub colors: usize,
    /// An upper bound on firing: the player never fires because few cells are empty (special
    /// case (a) off), and each game records the largest chain (by attack) that its current
    /// pair could have fired at any move, until the player fired anyway or died. No firing
    /// rule on the same building moves fires more.
    #[serde(default)]
    pub hindsight: bool,
}

/// One E2 game: the fired chain (0 if the player died or never fired).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EndlessRecord {
    /// Links of the fired chain.
    pub chain: u32,
    /// Its attack by the paper's formula.
    pub attack: u32,
    /// 1-based move that fired; 0 if none.
    pub fire_move: u32,
    /// Moves played.
    pub moves: u32,
    /// Milliseconds per move, decisions and engine together (one thread).
    pub ms: f64,
    /// Template-based players: the first move after which the best template scored above the
    /// combined player's switch threshold (0 if never)...
    #[serde(default)]
    pub formation_move: u32,
    /// ...and the first after which that formation also fired its chain (0 if never).
    #[serde(default)]
    pub ready_move: u32,
}

impl Experiment for Endless {
    const NAME: &'static str = "puyo.endless";
    type Record = EndlessRecord;

    fn games(&self) -> u64 {
        self.games
    }

    fn play(&self, seed: u64, index: u64) -> EndlessRecord {
        self.play_traced(seed, index, &mut |_| {})
    }

    fn summarize(&self, records: &[EndlessRecord]) -> Map<String, Value> {
        let col = |f: fn(&EndlessRecord) -> f64| mean(&records.iter().map(f).collect::<Vec<_>>());
        let fired: Vec<f64> = records.iter().filter(|r| r.fire_move > 0).map(|r| r.fire_move as f64).collect();
        let mut m = Map::new();
        m.insert("games".into(), json!(records.len()));
        let chains: Vec<f64> = records.iter().map(|r| r.chain as f64).collect();
        m.insert("mean_chain".into(), json!(mean(&chains)));
        m.insert("ci95_chain".into(), json!(mean_ci95(&chains)));
        let attacks: Vec<f64> = records.iter().map(|r| r.attack as f64).collect();
        m.insert("mean_attack".into(), json!(mean(&attacks)));
        m.insert("ci95_attack".into(), json!(mean_ci95(&attacks)));
        m.insert("mean_fire_move".into(), json!(mean(&fired)));
        if matches!(self.ai, AiKind::Template | AiKind::Combined) {
            // When the template phase reaches the switch score, and when its formation fires.
            let reached = |f: fn(&EndlessRecord) -> u32| -> Vec<f64> {
                records.iter().map(f).filter(|&m| m > 0).map(f64::from).collect()
            };
            m.insert("mean_formation_move".into(), json!(mean(&reached(|r| r.formation_move))));
            m.insert("mean_ready_move".into(), json!(mean(&reached(|r| r.ready_move))));
            let ready = records.iter().filter(|r| r.ready_move > 0).count();
            m.insert("ready_share".into(), json!(ready as f64 / records.len().max(1) as f64));
        }
        m.insert("ms_per_move".into(), json!(col(|r| r.ms)));
        m
    }
}

impl Endless {
    fn player(&self) -> Player {
        let mut params = self.params.clone();
        if self.hindsight {
            // Special case (a) off: the thresholds of potential maximization and of the
            // combined player's extension, which reuses them.
            (params.potential.fire_empty, params.potential.danger_empty) = (0, 0);
        }
        player(self.ai, &params)
    }
}

/// The largest chain (by attack) that `pair` can fire on `field` without topping out.
fn largest_firing(field: &Field, pair: Pair) -> Option<Chain> {
    let fired = field.legal_placements(pair).filter_map(|p| {
        let mut f = *field;
        f.play(pair, p).filter(|c| c.links > 0 && !f.is_dead())
    });
    fired.max_by_key(|c| c.attack())
}

impl Traced for Endless {
    fn play_traced(&self, seed: u64, index: u64, trace: &mut dyn FnMut(&TracedMove)) -> EndlessRecord {
        let ai = self.player();
        let pairs = pairs_for(seed, index, self.colors, self.max_moves as usize + KNOWN);
        let mut field = Field::new();
        let start = Instant::now();
        let mut rec =
            EndlessRecord { chain: 0, attack: 0, fire_move: 0, moves: 0, ms: 0.0, formation_move: 0, ready_move: 0 };
        let uses_templates = self.ai.uses_templates();
        let mut available: Option<(Chain, u32)> = None; // hindsight: the largest chain and its move
        for m in 0..self.max_moves as usize {
            if self.hindsight
                && let Some(c) = largest_firing(&field, pairs[m])
                && available.is_none_or(|(a, _)| c.attack() > a.attack())
            {
                available = Some((c, m as u32 + 1));
            }
            let obs = Observation::alone(&field, &pairs[m..m + KNOWN]);
            let Some(d) = ai.decide(&obs) else { break };
            let (formation, chain, _) = play_judging_formation(&ai, &mut field, pairs[m], d.placement, |s| {
                uses_templates && s > self.params.switch
            });
            rec.moves = m as u32 + 1;
            trace(&TracedMove::alone(rec.moves, pairs[m], &d, &field, chain));
            if let Some((_, fires)) = formation {
                rec.formation_move = if rec.formation_move == 0 { rec.moves } else { rec.formation_move };
                rec.ready_move = if rec.ready_move == 0 && fires { rec.moves } else { rec.ready_move };
            }
            if d.fires && chain.links > 0 {
                (rec.chain, rec.attack, rec.fire_move) = (chain.links, chain.attack(), rec.moves);
                break;
            }
            if field.is_dead() {
                break;
            }
        }
        if let Some((c, m)) = available {
            (rec.chain, rec.attack, rec.fire_move) = (c.links, c.attack(), m);
        }
        rec.ms = ms_per(start, rec.moves);
        rec
    }
}

/// E3: head-to-head games on the tick model.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VersusExp {
    /// Player 1 (side 0).
    pub p1: AiKind,
    /// Player 2 (side 1).
    pub p2: AiKind,
    /// Each player's settings (player 1's, then player 2's).
    pub params: [AiParams; 2],
    /// Games played.
    pub games: u64,
    /// Ticks after which a game is a draw.
    pub max_ticks: u32,
    /// How chains turn into garbage.
    #[serde(default)]
    pub garbage: GarbageRule,
    /// Ticks each chain link takes (spec: 1; see [`Versus::link_ticks`]).
    #[serde(default = "one_tick")]
    pub link_ticks: u32,
    /// Colours in play (3-5).
    pub colors: usize,
    /// Odd games swap the boards: player 1 plays side 1 and player 2 side 0, so that what
    /// favours a side (garbage columns drawn from one stream, the order of actions within a
    /// tick) falls on both players alike. Records stay by player.
    #[serde(default)]
    pub alternate_seats: bool,
}

fn one_tick() -> u32 {
    1
}

/// One E3 game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VersusRecord {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Ticks the game lasted.
    pub ticks: u32,
    /// Milliseconds per move, decisions and engine together (one thread).
    pub ms: f64,
    /// Per side, its first chain of at least `ATTACK_LINKS` links (who attacks first, and
    /// with what, decides most games).
    #[serde(default)]
    pub first_attack: [Option<Attack>; 2],
    /// Per side, its moves.
    #[serde(default)]
    pub moves: [u32; 2],
    /// Per side, the moves its template search chose (how much of a template player's game
    /// its templates played).
    #[serde(default)]
    pub template_moves: [u32; 2],
}

/// A chain fired in a versus game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attack {
    /// The tick it was fired at.
    pub tick: u32,
    /// The side's move that fired it.
    pub moves: u32,
    /// Its links.
    pub links: u32,
}

/// The shortest chain counted as an attack in [`VersusRecord::first_attack`] (a 1-link pop
/// is building or clearing).
const ATTACK_LINKS: u32 = 2;

impl Experiment for VersusExp {
    const NAME: &'static str = "puyo.versus";
    type Record = VersusRecord;

    fn games(&self) -> u64 {
        self.games
    }

    fn play(&self, seed: u64, index: u64) -> VersusRecord {
        self.play_traced(seed, index, &mut |_| {})
    }

    fn summarize(&self, records: &[VersusRecord]) -> Map<String, Value> {
        let count = |o: Outcome| records.iter().filter(|r| r.outcome == o).count() as u64;
        let h = HeadToHead::new(count(Outcome::Win(0)), count(Outcome::Win(1)), count(Outcome::Draw));
        let mut m = Map::new();
        m.insert("games".into(), json!(h.games));
        m.insert("p1_wins".into(), json!(h.wins));
        m.insert("p2_wins".into(), json!(h.losses));
        m.insert("draws".into(), json!(h.draws));
        m.insert("p1_win_rate".into(), json!(h.win_rate));
        m.insert("ci95".into(), json!(h.ci95));
        m.insert("chi2".into(), json!(h.chi2));
        m.insert("elo_diff".into(), json!(h.elo_diff));
        m.insert("ms_per_move".into(), json!(mean(&records.iter().map(|r| r.ms).collect::<Vec<_>>())));
        for (side, name) in ["p1", "p2"].iter().enumerate() {
            let attacks: Vec<Attack> = records.iter().filter_map(|r| r.first_attack[side]).collect();
            let moves: Vec<f64> = attacks.iter().map(|a| a.moves as f64).collect();
            let links: Vec<f64> = attacks.iter().map(|a| a.links as f64).collect();
            m.insert(format!("{name}_first_attack_move"), json!(mean(&moves)));
            m.insert(format!("{name}_first_attack_links"), json!(mean(&links)));
            let moves: u32 = records.iter().map(|r| r.moves[side]).sum();
            let by_template: u32 = records.iter().map(|r| r.template_moves[side]).sum();
            m.insert(format!("{name}_template_share"), json!(by_template as f64 / moves.max(1) as f64));
        }
        // Whether side `s` attacked strictly before the other (or alone).
        let attacked_first = |r: &VersusRecord, s: usize| match (r.first_attack[s], r.first_attack[1 - s]) {
            (Some(a), Some(b)) => a.tick < b.tick,
            (a, b) => a.is_some() && b.is_none(),
        };
        let won_by_first =
            records.iter().filter(|r| matches!(r.outcome, Outcome::Win(w) if attacked_first(r, w))).count();
        m.insert("won_by_first_attacker".into(), json!(won_by_first as f64 / records.len().max(1) as f64));
        m
    }
}

impl VersusExp {
    /// The player (0 or 1) on each side in game `index`: swapped in odd games with
    /// alternating seats.
    pub fn player_at(&self, index: u64) -> [usize; 2] {
        if self.alternate_seats && index % 2 == 1 { [1, 0] } else { [0, 1] }
    }
}

impl Traced for VersusExp {
    fn trace_note(&self, index: u64) -> Option<String> {
        let [p1, p2] = [self.p1, self.p2].map(value_name);
        (self.player_at(index) == [1, 0]).then(|| {
            format!("--alternate-seats: in this odd game player 1 ({p1}) plays board 2 and player 2 ({p2}) board 1")
        })
    }

    fn play_traced(&self, seed: u64, index: u64, trace: &mut dyn FnMut(&TracedMove)) -> VersusRecord {
        let player_at = self.player_at(index);
        let kinds = [self.p1, self.p2];
        let ais = player_at.map(|p| player(kinds[p], &self.params[p]));
        let (pairs, mut rng) = versus_streams(seed, index, self.colors);
        let mut game = Versus::new(pairs, self.garbage);
        game.link_ticks = self.link_ticks;
        let start = Instant::now();
        let mut moves = 0;
        let mut first_attack = [None, None];
        let mut template_moves = [0, 0];
        let outcome = loop {
            let acting: Vec<usize> = game.to_move().collect();
            let mut chosen = Vec::new();
            for &i in &acting {
                game.drop_garbage(i, &mut rng);
                let known: Vec<Pair> = (0..KNOWN).map(|k| game.pair(i, k)).collect();
                let side = &game.sides[i];
                let obs = Observation {
                    field: &side.field,
                    pairs: &known,
                    pending: side.incoming(),
                    opponent: Some(&game.sides[1 - i].field),
                    garbage: self.garbage,
                    garbage_falls_in: side.placements_before_garbage(game.tick),
                };
                let d = if side.field.is_dead() { None } else { ais[i].decide(&obs) };
                chosen.push((i, d, known[0], obs.pending));
            }
            for (i, d, pair, pending) in chosen {
                let tick = game.tick;
                let chain = game.apply(i, d.as_ref().map(|d| d.placement));
                moves += 1;
                let p = player_at[i];
                template_moves[p] += d.as_ref().is_some_and(|d| d.by_template) as u32;
                if let (Some(decision), Some(chain)) = (&d, chain) {
                    let (side, other) = (&game.sides[i], &game.sides[1 - i]);
                    let (field, number, opponent) = (&side.field, side.moves, Some(&other.field));
                    trace(&TracedMove { side: p, number, pair, pending, decision, field, chain, opponent });
                }
                if let Some(c) = chain.filter(|c| c.links >= ATTACK_LINKS) {
                    first_attack[p].get_or_insert(Attack { tick, moves: game.sides[i].moves, links: c.links });
                }
            }
            if let Some(o) = game.end_tick() {
                break o;
            }
            if game.tick >= self.max_ticks {
                break Outcome::Draw;
            }
        };
        VersusRecord {
            outcome: match outcome {
                Outcome::Win(side) => Outcome::Win(player_at[side]),
                draw => draw,
            },
            ticks: game.tick,
            ms: ms_per(start, moves),
            first_attack,
            // `player_at` is its own inverse: player p plays side player_at[p].
            moves: player_at.map(|side| game.sides[side].moves),
            template_moves,
        }
    }
}

/// Mergers of the batch experiments, for `asobi merge`.
pub const MERGERS: &[(&str, MergeFn)] =
    &[(Build::NAME, merge::<Build>), (Endless::NAME, merge::<Endless>), (VersusExp::NAME, merge::<VersusExp>)];

#[cfg(test)]
mod tests {
    use super::*;

    fn record(winner: usize, first_attack: [Option<(u32, u32)>; 2]) -> VersusRecord {
        let attack = |a: Option<(u32, u32)>| a.map(|(tick, links)| Attack { tick, moves: tick, links });
        VersusRecord {
            outcome: Outcome::Win(winner),
            ticks: 50,
            ms: 1.0,
            first_attack: [attack(first_attack[0]), attack(first_attack[1])],
            moves: [40, 40],
            template_moves: [0, 10 * winner as u32],
        }
    }

    #[test]
    fn versus_summary_reports_who_attacked_first() {
        let exp = VersusExp {
            p1: AiKind::Potential,
            p2: AiKind::Combined,
            params: Default::default(),
            games: 4,
            max_ticks: 100,
            garbage: GarbageRule::Paper,
            link_ticks: 1,
            colors: 4,
            alternate_seats: false,
        };
        let records = [
            record(0, [Some((10, 4)), Some((20, 8))]), // p1 first, p1 won
            record(1, [Some((10, 4)), Some((20, 8))]), // p1 first, p2 won
            record(1, [None, Some((30, 6))]),          // p2 alone, p2 won
            record(0, [Some((15, 2)), Some((15, 3))]), // same tick: nobody first
        ];
        let m = exp.summarize(&records);
        assert_eq!(m["won_by_first_attacker"], json!(0.5));
        assert_eq!(m["p1_first_attack_links"], json!((4.0 + 4.0 + 2.0) / 3.0));
        assert_eq!(m["p2_first_attack_move"], json!((20.0 + 20.0 + 30.0 + 15.0) / 4.0));
        assert_eq!((&m["p1_template_share"], &m["p2_template_share"]), (&json!(0.0), &json!(20.0 / 160.0)));
        assert_eq!(exp.trace_note(1), None);
        let alternating = VersusExp { alternate_seats: true, ..exp };
        assert_eq!(alternating.trace_note(0), None);
        let note = alternating.trace_note(1).expect("an odd game swaps the boards");
        assert!(note.contains("player 1 (potential) plays board 2 and player 2 (combined) board 1"), "{note}");
    }

    #[test]
    fn build_records_the_move_at_which_its_search_first_jammed() {
        let mut params = AiParams::default();
        params.template.depth = 1;
        let exp = Build { params, trials: 12, max_moves: 100, colors: 4 };
        let mut jammed = 0;
        for index in 0..12 {
            // The fallback's moves are potential maximization's.
            let mut first_fallback = 0;
            let rec = exp.play_traced(1, index, &mut |mv| {
                if first_fallback == 0 && mv.decision.why.starts_with("potential") {
                    first_fallback = mv.number;
                }
            });
            if rec.jam_move > 0 {
                jammed += 1;
                assert_eq!(rec.jam_move, first_fallback, "trial {index}");
            } else {
                assert!(first_fallback == 0 || (rec.completed && first_fallback > rec.moves), "trial {index}");
            }
        }
        assert!(jammed > 0 && jammed < 12, "{jammed} of 12 trials jammed");
        let records: Vec<BuildRecord> = (0..12).map(|i| exp.play(1, i)).collect();
        assert_eq!(exp.summarize(&records)["jammed"], json!(jammed));
    }
}
