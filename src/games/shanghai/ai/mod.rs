//! Players of Shanghai behind one trait, and the perfect-information solver.
//!
//! The virtual player (paper §4.2, spec §6) sees only an [`Observation`]: certain moves
//! first; otherwise n determinizations of the hidden tiles, each searched to depth D with
//! the five-feature action value, and the move with the best mean value is played.
//!
//! Two extensions, on by default and switchable in [`PlayerParams`]: a sample of the hidden
//! tiles that the peeking solver proves lost from here is dealt again (spec §10.6; generator
//! deals are solvable, so such a world cannot be the real one), and inside a sample a
//! position the solver's node reductions prove lost scores 0 like a stuck one. Without them
//! the player misses locks (a stack or an ABAB row of two kinds) far beyond depth D, the
//! main way it lost on the full turtle. `dead_ends` also brings the solver's search to the
//! positions after root moves ([`PlayerParams::solve_depth`]: the action value of a position
//! the search cannot finish stays near 1, so a move that loses the sampled world scored
//! like a safe one), the solver's check of rule 4 and the rating of guesses in the search
//! (see [`search`]), and among equal mean values a move that is no guess goes first. A
//! third, the risk check ([`risk`]), judges the moves valued near the best on more worlds,
//! by the solver or by rollouts of a greedy player ([`rollout`]), and plays the one that
//! loses the fewest.
//!
//! Equal mean values are common (every sampled world cleared within depth D scores 1), and
//! the paper does not say how it breaks them (spec §10.4): [`TieBreak`] does. With the first
//! move in tile order, one sample (n = 1) gets worse with depth, the paper's "conviction"; with
//! the higher action value, n = 1 gains from depth up to D = 3 and n = 16 is best at D = 4
//! (README, Tables 1 and 2).

pub mod certain;
pub mod features;
pub mod risk;
pub mod rollout;
pub mod search;
pub mod solver;
pub mod tune;

use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::level::Weights;
use super::rules::{Game, Kind, Move, Observation, UNKNOWN};
use crate::games::shanghai::tileset::TileSet;
use crate::lab::rng::GameRng;
use certain::certain_move;
use features::{PositionStats, action_value, features};
use risk::RiskJudge;
use search::Search;
use solver::{Solver, Verdict};

/// Deals of the hidden tiles tried per sample before taking one the solver proves lost
/// (every world is lost once the player has blundered).
const SAMPLE_TRIES: u32 = 8;
/// Solver nodes spent on a sampled world; undecided worlds are kept.
const SAMPLE_NODES: u64 = 300;

/// A decision and why it was taken (shown in the app's log).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move to play.
    pub mv: Move,
    /// Why: a certain-move rule, or the searched value.
    pub why: String,
    /// Mean value of every legal move searched (empty for a certain move).
    pub values: Vec<(Move, f64)>,
    /// The rule of a certain move (1-4); `None` for a searched one.
    pub certain_rule: Option<u8>,
}

/// How the virtual player chooses among moves of equal mean value (spec §10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum TieBreak {
    /// The first move in tile order (a plain arg-max).
    First,
    /// A seeded random one.
    Random,
    /// The one with the higher action value in the observed position.
    Value,
}

/// A Shanghai player: decides from what the player may see. `None` when no move is legal.
pub trait Player: Send + Sync {
    /// The pair to remove, with the values behind the choice.
    fn decide(&self, obs: &Observation, rng: &mut GameRng) -> Option<Decision>;
}

/// The virtual player's parameters; the default is the paper's strong player (n = 16, D = 3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerParams {
    /// Determinizations of the hidden tiles per decision.
    pub n: u32,
    /// Search depth D (root moves are depth 1).
    pub depth: u32,
    /// The action value's feature weights.
    pub weights: Weights,
    /// Score cleared/stuck positions 1/0 also at depth D (spec §6.4 default; false is the
    /// paper's rule: a move at depth D is worth its action value alone).
    pub terminal_at_depth: bool,
    /// Score a position 0 when the peeking solver's node reductions prove it lost in the
    /// sampled world (an extension: the paper scores only stuck positions 0); also turns on
    /// the solver's check of rule 4 in sampled worlds, the rating of guesses in the search
    /// and, among equal values, moves that are no guess first (module doc). Old files lack
    /// the field and ran without it, hence `false` when missing.
    #[serde(default)]
    pub dead_ends: bool,
    /// Redeal a sample of the hidden tiles that the peeking solver proves lost from here
    /// (spec §10.6: the sampler conditioned on a solvable world; generator deals are).
    #[serde(default)]
    pub solvable_worlds: bool,
    /// With `dead_ends`, positions after moves at depths 1..=solve_depth are also decided by
    /// the solver's search, not only its relaxation: a move that loses the sampled world
    /// beyond depth D would otherwise score like a good one, as the action value of a
    /// position the search cannot finish stays near 1. Missing in old files: 0 (off).
    #[serde(default)]
    pub solve_depth: u32,
    /// Solver nodes per position for `solve_depth` and rule 4; undecided positions are valued
    /// by the search. More nodes prove more moves lost in the sampled world, but not better
    /// play: on 200 full-turtle instances 1,000 nodes solved 166, 300 nodes 176 in one play and
    /// 346 of 400 in two more, 100 nodes 172 in a quarter less time (the player's own draws
    /// move such a count by about ±5).
    #[serde(default = "default_solve_nodes")]
    pub solve_nodes: u64,
    /// Among equal mean values; `None` (also what old files ran with): [`TieBreak::Value`]
    /// with `dead_ends`, [`TieBreak::First`] without.
    #[serde(default)]
    pub ties: Option<TieBreak>,
    /// The risk check ([`risk`]): the moves whose mean value lies within `risk_window` of
    /// the best are also judged on this many more solvable worlds by the solver alone, and
    /// the one that loses the fewest is played (0: off, the paper's choice; also what old
    /// files ran with).
    #[serde(default)]
    pub risk_worlds: u32,
    /// Moves whose mean value lies within this of the best one's are judged by the risk check.
    #[serde(default = "default_risk_window")]
    pub risk_window: f64,
    /// How the risk check tells that a move loses a world (old files: the lock judge).
    #[serde(default)]
    pub risk_judge: RiskJudge,
}

/// The default of [`PlayerParams::solve_nodes`], also what files without the field ran with.
pub const SOLVE_NODES: u64 = 300;

fn default_solve_nodes() -> u64 {
    SOLVE_NODES
}

/// The default of [`PlayerParams::risk_window`].
pub const RISK_WINDOW: f64 = 0.03;

/// The deepest search the command line accepts: each ply multiplies the time by about 3
/// (n = 16 on the turtle: D = 3 about 8 s a game, D = 6 about 80 s), so D = 9 would take
/// about half an hour a game.
pub const MAX_DEPTH: u32 = 8;

fn default_risk_window() -> f64 {
    RISK_WINDOW
}

impl Default for PlayerParams {
    fn default() -> Self {
        PlayerParams {
            n: 16,
            depth: 3,
            weights: Weights::default(),
            terminal_at_depth: true,
            dead_ends: true,
            solvable_worlds: true,
            solve_depth: 1,
            solve_nodes: SOLVE_NODES,
            ties: None,
            risk_worlds: 0,
            risk_window: RISK_WINDOW,
            risk_judge: RiskJudge::Locks,
        }
    }
}

impl PlayerParams {
    /// The paper's own player at n and D: none of asobi's extensions, a move at depth D worth
    /// its action value alone, ties to the first move in tile order.
    pub fn paper(n: u32, depth: u32, weights: Weights) -> Self {
        PlayerParams {
            n,
            depth,
            weights,
            terminal_at_depth: false,
            dead_ends: false,
            solvable_worlds: false,
            ..PlayerParams::default()
        }
    }

    /// The tie rule in force (see [`PlayerParams::ties`]).
    pub fn tie_break(&self) -> TieBreak {
        self.ties.unwrap_or(if self.dead_ends { TieBreak::Value } else { TieBreak::First })
    }
}

/// The paper's virtual player.
#[derive(Clone, Debug, Default)]
pub struct VirtualPlayer {
    /// n, D, weights and asobi's extensions.
    pub params: PlayerParams,
}

impl Player for VirtualPlayer {
    fn decide(&self, obs: &Observation, rng: &mut GameRng) -> Option<Decision> {
        let moves = obs.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let p = &self.params;
        if let Some(c) = certain_move(&obs.layout, &obs.present, &obs.kinds, &obs.remaining, &p.weights) {
            let why = format!("certain move (rule {})", c.rule);
            return Some(Decision { mv: c.mv, why, values: Vec::new(), certain_rule: Some(c.rule) });
        }
        let mut totals = vec![0.0; moves.len()];
        let hidden: Vec<usize> = obs.unknown().collect();
        let mut pool = obs.hidden_kinds();
        let mut world = obs.kinds.clone();
        for _ in 0..p.n.max(1) {
            let witness = sample_world(obs, &hidden, &mut pool, &mut world, p.solvable_worlds, rng);
            let mut search = Search::new(&obs.layout, &world, obs.remaining.len(), p);
            if let Some(solution) = &witness {
                search = search.with_witness(obs.present, solution);
            }
            for (t, v) in totals.iter_mut().zip(search.root_values(&obs.present, &moves)) {
                *t += v;
            }
        }
        let values: Vec<(Move, f64)> = moves.iter().zip(&totals).map(|(&m, &t)| (m, t / p.n.max(1) as f64)).collect();
        let keys = tie_keys(obs, &moves, p, rng);
        let better = |i: usize, b: usize| {
            let (vi, vb) = (values[i].1, values[b].1);
            vi > vb + TIE || (vi >= vb - TIE && keys[i] > keys[b])
        };
        let best = (0..moves.len()).fold(0, |b, i| if better(i, b) { i } else { b });
        let why =
            format!("best mean value {:.3} over {} moves (n = {}, D = {})", values[best].1, moves.len(), p.n, p.depth);
        let (best, why) = match risk::choose(obs, &values, best, better, p, rng) {
            Some((pick, check)) => (pick, format!("{why}; {check}")),
            None => (best, why),
        };
        let best = values[best];
        debug_assert!(world.iter().enumerate().all(|(i, &k)| !obs.present.contains(i) || k != UNKNOWN));
        Some(Decision { mv: best.0, why, values, certain_rule: None })
    }
}

/// Mean values closer than this are a tie.
const TIE: f64 = 1e-9;

/// Tie-break keys of `moves` in the observed position, the larger wins: (no guess, the
/// [`TieBreak`] key). With `dead_ends` a move that is no guess goes first: a guess pairs two
/// of three free tiles of a kind whose fourth is hidden; which one to leave is better decided
/// once the fourth shows, which determinized worlds cannot tell (each knows where it lies),
/// so they often rate a guess as high as waiting. Only [`TieBreak::Random`] draws from `rng`.
fn tie_keys(obs: &Observation, moves: &[Move], params: &PlayerParams, rng: &mut GameRng) -> Vec<(bool, f64)> {
    let layout = &obs.layout;
    let free = layout.free_tiles(&obs.present);
    let stats = PositionStats::of(layout, &obs.present, &obs.kinds);
    let rule = params.tie_break();
    moves
        .iter()
        .map(|&m| {
            let key = match rule {
                TieBreak::First => 0.0,
                TieBreak::Random => rng.random::<f64>(),
                TieBreak::Value => action_value(&params.weights, features(layout, &obs.present, &stats, &obs.kinds, m)),
            };
            (params.dead_ends && !is_guess(obs, &free, m), key)
        })
        .collect()
}

/// Whether `m` pairs two of three `free` tiles of a kind whose fourth is hidden from view.
pub fn is_guess(obs: &Observation, free: &TileSet, m: Move) -> bool {
    let k = obs.kinds[m.a as usize];
    let of_kind = |set: &TileSet| set.iter().filter(|&t| obs.kinds[t] == k).count();
    obs.remaining[k as usize] == 4 && of_kind(free) == 3 && of_kind(&obs.present) == 3
}

/// Deals `pool` (the hidden kinds) uniformly onto the `hidden` tiles of `world`; with
/// `solvable`, deals again, up to [`SAMPLE_TRIES`] times, while the solver proves the world
/// lost from the observed position. Returns the solver's solution of the world when it
/// found one.
fn sample_world(
    obs: &Observation,
    hidden: &[usize],
    pool: &mut [Kind],
    world: &mut [Kind],
    solvable: bool,
    rng: &mut GameRng,
) -> Option<Vec<Move>> {
    for _ in 0..SAMPLE_TRIES {
        pool.shuffle(rng);
        hidden.iter().zip(pool.iter()).for_each(|(&t, &k)| world[t] = k);
        if !solvable {
            return None;
        }
        let mut solver = Solver::new(&obs.layout, world);
        match solver.solve_within(obs.present, SAMPLE_NODES) {
            Verdict::Solvable => return Some(solver.solution),
            Verdict::Undecided => return None,
            Verdict::Unsolvable => {}
        }
    }
    None
}

/// Plays `game` to its end with `player`; true if cleared.
pub fn play_out(game: &mut Game, player: &dyn Player, rng: &mut GameRng) -> bool {
    while let Some(d) = player.decide(&game.observation(), rng) {
        game.play(d.mv).expect("players choose legal moves");
    }
    game.is_won()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;
    use crate::games::shanghai::generator::{DealSource, deal};
    use crate::games::shanghai::rules::tests::along_random_play;
    use crate::lab::rng::game_rng;
    use proptest::prelude::*;

    /// Plays the mini turtle's generator deals `seeds` with a virtual player of `params`,
    /// showing `visit` the deal's seed, each position, the decision taken there and the
    /// player's rng before the move is played.
    pub(crate) fn along_player_games(
        params: PlayerParams,
        seeds: std::ops::Range<u64>,
        mut visit: impl FnMut(u64, &Game, &Decision, &mut GameRng),
    ) {
        let layout = load("mini_turtle").unwrap();
        let player = VirtualPlayer { params };
        for seed in seeds {
            let mut game = Game::new(layout.clone(), deal(&layout, DealSource::Generator, seed, 0).unwrap());
            let mut rng = game_rng(seed, 1);
            while let Some(d) = player.decide(&game.observation(), &mut rng) {
                visit(seed, &game, &d, &mut rng);
                game.play(d.mv).unwrap();
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(24)))]

        /// Scrambling the hidden tiles of the real game never changes a decision, and every
        /// decision is legal.
        #[test]
        fn decisions_ignore_hidden_tiles(seed in 0u64..10_000) {
            let layout = load("mini_turtle").unwrap();
            let player = VirtualPlayer { params: PlayerParams { n: 4, depth: 2, ..PlayerParams::default() } };
            let mut game = Game::new(layout.clone(), deal(&layout, DealSource::Generator, seed, 0).unwrap());
            let mut step = 0;
            while !game.is_over() {
                let mut scrambled = game.clone();
                let hidden: Vec<usize> = game.observation().unknown().collect();
                let mut shuffled: Vec<_> = hidden.iter().map(|&i| game.kinds[i]).collect();
                shuffled.shuffle(&mut game_rng(seed, step + 100));
                hidden.iter().zip(shuffled).for_each(|(&i, k)| scrambled.kinds[i] = k);
                let a = player.decide(&game.observation(), &mut game_rng(seed, step)).unwrap();
                let b = player.decide(&scrambled.observation(), &mut game_rng(seed, step)).unwrap();
                prop_assert_eq!(a.mv, b.mv);
                prop_assert!(game.is_legal(a.mv));
                game.play(a.mv).unwrap();
                step += 1;
            }
        }
    }

    /// Among moves of equal mean value the player takes the first in tile order (`First`) or
    /// the one of highest action value in the observed position (`Value`); with `dead_ends`
    /// a move that is no guess goes before a guess.
    #[test]
    fn ties_follow_the_rule() {
        for (ties, dead_ends) in [(TieBreak::First, false), (TieBreak::Value, false), (TieBreak::Value, true)] {
            let params = PlayerParams {
                n: 2,
                depth: 3,
                dead_ends,
                solvable_worlds: false,
                ties: Some(ties),
                ..PlayerParams::default()
            };
            let (mut tied, mut guesses_tied) = (0, 0);
            along_player_games(params, 0..6, |_, game, d, _| {
                let best = d.values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
                let top: Vec<Move> = d.values.iter().filter(|v| v.1 >= best - TIE).map(|v| v.0).collect();
                if top.len() < 2 {
                    return;
                }
                tied += 1;
                let (obs, layout) = (game.observation(), &game.layout);
                let free = layout.free_tiles(&obs.present);
                let stats = PositionStats::of(layout, &obs.present, &obs.kinds);
                let key = |m: Move| {
                    let value = match ties {
                        TieBreak::Value => {
                            action_value(&params.weights, features(layout, &obs.present, &stats, &obs.kinds, m))
                        }
                        _ => 0.0,
                    };
                    (dead_ends && !is_guess(&obs, &free, m), value)
                };
                guesses_tied += usize::from(top.iter().any(|&m| is_guess(&obs, &free, m)));
                let expected = top.iter().copied().fold(top[0], |b, m| if key(m) > key(b) { m } else { b });
                assert_eq!(d.mv, expected, "{ties:?}, dead ends {dead_ends}");
            });
            assert!(tied > 0 && guesses_tied > 0, "{ties:?}: {tied} ties, {guesses_tied} with a guess");
        }
    }

    #[test]
    fn strong_player_usually_clears_the_mini_turtle() {
        let layout = load("mini_turtle").unwrap();
        let player = VirtualPlayer { params: PlayerParams { n: 4, depth: 2, ..PlayerParams::default() } };
        let won = (0..30)
            .filter(|&s| {
                let mut game = Game::new(layout.clone(), deal(&layout, DealSource::Generator, s, 0).unwrap());
                play_out(&mut game, &player, &mut game_rng(s, 1))
            })
            .count();
        assert!(won >= 20, "won {won} of 30");
    }

    /// A file written before a field existed reads it as the runs that wrote it had it.
    #[test]
    fn params_missing_a_field_read_as_before_it() {
        let mut json = serde_json::to_value(PlayerParams::default()).unwrap();
        let added_later = [
            "dead_ends",
            "solvable_worlds",
            "solve_depth",
            "solve_nodes",
            "ties",
            "risk_worlds",
            "risk_window",
            "risk_judge",
        ];
        for field in added_later {
            json.as_object_mut().unwrap().remove(field).unwrap();
        }
        let read: PlayerParams = serde_json::from_value(json).unwrap();
        let before = PlayerParams {
            dead_ends: false,
            solvable_worlds: false,
            solve_depth: 0,
            solve_nodes: SOLVE_NODES,
            risk_window: RISK_WINDOW,
            ..PlayerParams::default()
        };
        assert_eq!(read, before);
    }

    /// Once no tile is hidden every sampled world is the real deal, so a searched decision's
    /// values are the search's root values in it, whatever n; a certain move comes with its
    /// rule and no values.
    #[test]
    fn with_nothing_hidden_values_are_the_real_deals() {
        let params = PlayerParams { n: 3, depth: 2, ..PlayerParams::default() };
        let (mut searched, mut certain) = (0, 0);
        along_player_games(params, 0..10, |_, game, d, _| {
            let (obs, layout) = (game.observation(), &game.layout);
            let rule = certain_move(layout, &obs.present, &obs.kinds, &obs.remaining, &params.weights);
            assert_eq!(d.certain_rule, rule.map(|c| c.rule));
            if let Some(c) = rule {
                assert_eq!((d.mv, d.values.len()), (c.mv, 0));
                certain += 1;
            } else if obs.unknown().count() == 0 {
                let moves = obs.legal_moves();
                let mut solver = Solver::new(layout, &game.kinds);
                let mut search = Search::new(layout, &game.kinds, 9, &params);
                if solver.solve_within(obs.present, SAMPLE_NODES) == Verdict::Solvable {
                    search = search.with_witness(obs.present, &solver.solution);
                }
                let real = search.root_values(&obs.present, &moves);
                assert_eq!(d.values.iter().map(|v| v.0).collect::<Vec<_>>(), moves);
                for (v, r) in d.values.iter().zip(&real) {
                    assert!((v.1 - r).abs() < 1e-12, "{} against {r}", v.1);
                }
                searched += 1;
            }
        });
        assert!(searched > 0 && certain > 0, "{searched} searched, {certain} certain");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::lab::proptest_cases(32)))]

        /// A move is a guess when all four tiles of its kind are left, three of them free and
        /// the fourth hidden from the player.
        #[test]
        fn guesses_pair_free_tiles_whose_fourth_is_hidden(seed in 0u64..10_000, name in prop::sample::select(vec!["turtle", "mini_turtle"])) {
            let layout = load(name).unwrap();
            along_random_play(&layout, seed, 5, |game| {
                let obs = game.observation();
                let free = layout.free_tiles(&game.present);
                for m in obs.legal_moves() {
                    let kind = game.kinds[m.a as usize];
                    let of_kind: Vec<usize> = game.present.iter().filter(|&t| game.kinds[t] == kind).collect();
                    let blocked: Vec<usize> = of_kind.iter().copied().filter(|&t| !free.contains(t)).collect();
                    let guess = of_kind.len() == 4 && blocked.len() == 1 && obs.kinds[blocked[0]] == UNKNOWN;
                    prop_assert_eq!(is_guess(&obs, &free, m), guess);
                }
                Ok(())
            })?;
        }
    }

    /// A sampled world keeps every kind the player sees and deals the hidden kinds onto the
    /// hidden tiles; asked for a solvable one, it comes with the solver's solution from the
    /// observed position when the solver finds one, and otherwise never.
    #[test]
    fn sampled_worlds_deal_the_hidden_kinds() {
        let params = PlayerParams { n: 2, depth: 1, ..PlayerParams::default() };
        let mut witnessed = 0;
        along_player_games(params, 0..4, |_, game, _, rng| {
            let obs = game.observation();
            let hidden: Vec<usize> = obs.unknown().collect();
            for solvable in [false, true] {
                let (mut pool, mut world) = (obs.hidden_kinds(), obs.kinds.clone());
                let witness = sample_world(&obs, &hidden, &mut pool, &mut world, solvable, rng);
                let seen = obs.present.iter().filter(|&t| obs.kinds[t] != UNKNOWN);
                assert!(seen.into_iter().all(|t| world[t] == obs.kinds[t]));
                let mut dealt: Vec<Kind> = hidden.iter().map(|&t| world[t]).collect();
                dealt.sort_unstable();
                assert_eq!(dealt, obs.hidden_kinds());
                let Some(solution) = witness else { continue };
                assert!(solvable, "a witness without asking for one");
                let mut replay = Game::new(game.layout.clone(), world);
                replay.present = obs.present;
                solution.into_iter().for_each(|m| replay.play(m).unwrap());
                assert!(replay.is_won());
                witnessed += 1;
            }
        });
        assert!(witnessed > 0);
    }

    /// `play_out` plays to the end and says whether the deal was cleared (random deals, some
    /// of which no player clears).
    #[test]
    fn play_out_reports_the_end_of_the_game() {
        let layout = load("mini_spider").unwrap();
        let player = VirtualPlayer { params: PlayerParams::paper(1, 1, Weights::default()) };
        let mut results = Vec::new();
        for s in 0..20 {
            let mut game = Game::new(layout.clone(), deal(&layout, DealSource::Random, s, 0).unwrap());
            let won = play_out(&mut game, &player, &mut game_rng(s, 1));
            assert!(game.is_over());
            assert_eq!(won, game.is_won());
            results.push(won);
        }
        assert!(results.contains(&true) && results.contains(&false), "{results:?}");
    }
}
