//! The weight tuner (paper §4.2: weights tuned per layout by local search; spec §10.1):
//! coordinate search from a start point. Each round tries every weight ± step on a fixed set
//! of generator instances and keeps a change when the mean solve rate rises; a round with no
//! gain halves the step. Training games are seeded like `eval` games, so a tuned rate can be
//! rechecked with `eval` on other seeds.

use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{PlayerParams, VirtualPlayer, play_out};
use crate::games::shanghai::generator::{DealSource, deal};
use crate::games::shanghai::layout::Layout;
use crate::games::shanghai::level::Weights;
use crate::games::shanghai::rules::Game;
use crate::lab::rng::sub_rng;

/// Tuner settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuneOptions {
    /// Generator instances in the training set.
    pub instances: u64,
    /// Plays of each instance.
    pub plays: u64,
    /// The player whose weights are tuned (n, D, extensions); its weights are the start point.
    pub player: PlayerParams,
    /// Starting change tried on each weight; halved after a round with no gain.
    pub step: f64,
    /// Rounds of trying every weight ± step.
    pub rounds: u32,
    /// Seed of the training instances and of the player's draws.
    pub seed: u64,
}

/// One accepted or rejected trial.
#[derive(Clone, Debug, Serialize)]
pub struct Trial {
    /// The weights tried.
    pub weights: Weights,
    /// Their mean solve rate on the training set.
    pub solve_rate: f64,
    /// Whether they were kept.
    pub accepted: bool,
}

/// Stream of the tuner's player randomness.
const TUNE_STREAM: u64 = 0x7C1E;

/// Mean solve rate of `weights` on the training games.
pub fn training_rate(layout: &Arc<Layout>, weights: Weights, opts: &TuneOptions) -> Result<f64, String> {
    let deals: Vec<_> =
        (0..opts.instances).map(|i| deal(layout, DealSource::Generator, opts.seed, i)).collect::<Result<_, _>>()?;
    let player = VirtualPlayer { params: PlayerParams { weights, ..opts.player } };
    let games = opts.instances * opts.plays;
    let solved: u64 = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut game = Game::new(layout.clone(), deals[(g / opts.plays) as usize].clone());
            u64::from(play_out(&mut game, &player, &mut sub_rng(opts.seed, g, TUNE_STREAM)))
        })
        .sum();
    Ok(solved as f64 / games.max(1) as f64)
}

/// Local search from the weights of `opts.player`; returns the best weights, their rate and
/// every trial.
pub fn tune(
    layout: &Arc<Layout>,
    opts: &TuneOptions,
    mut on_trial: impl FnMut(&Trial),
) -> Result<(Weights, f64, Vec<Trial>), String> {
    let mut best = opts.player.weights;
    let mut best_rate = training_rate(layout, best, opts)?;
    let mut trials = vec![Trial { weights: best, solve_rate: best_rate, accepted: true }];
    on_trial(&trials[0]);
    let mut step = opts.step;
    for _ in 0..opts.rounds {
        let mut improved = false;
        for i in 0..5 {
            for sign in [1.0, -1.0] {
                let mut w = best.as_array();
                w[i] += sign * step;
                let candidate = Weights::from_array(w);
                let rate = training_rate(layout, candidate, opts)?;
                let accepted = rate > best_rate;
                if accepted {
                    (best, best_rate, improved) = (candidate, rate, true);
                }
                trials.push(Trial { weights: candidate, solve_rate: rate, accepted });
                on_trial(trials.last().expect("just pushed"));
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    Ok((best, best_rate, trials))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shanghai::catalog::load;

    /// A training rate is the share of the training games (each instance played `plays`
    /// times, seeded like the tuner's) that the player clears. (Weights of 0 leave the paper's
    /// player the first move in tile order: weak enough to lose some.)
    #[test]
    fn training_rates_count_cleared_games() {
        let layout = load("mini_turtle").unwrap();
        let player = PlayerParams::paper(1, 1, Weights::from_array([0.0; 5]));
        let opts = TuneOptions { instances: 5, plays: 3, player, step: 0.5, rounds: 0, seed: 4 };
        let cleared = (0..15)
            .filter(|&g| {
                let mut game = Game::new(layout.clone(), deal(&layout, DealSource::Generator, 4, g / 3).unwrap());
                play_out(&mut game, &VirtualPlayer { params: player }, &mut sub_rng(4, g, TUNE_STREAM))
            })
            .count();
        assert!((1..15).contains(&cleared), "cleared {cleared} of 15");
        assert_eq!(training_rate(&layout, player.weights, &opts).unwrap(), cleared as f64 / 15.0);
    }

    /// Each round tries every weight up and down by the step from the best weights so far,
    /// keeps a trial that beats the best rate, and halves the step after a round without
    /// one; every trial is reported as it is made.
    #[test]
    fn tuning_tries_each_weight_both_ways_and_keeps_gains() {
        let layout = load("mini_turtle").unwrap();
        let player = PlayerParams::paper(1, 1, Weights::from_array([0.0; 5]));
        let opts = TuneOptions { instances: 6, plays: 2, player, step: 0.5, rounds: 3, seed: 4 };
        let mut reported = Vec::new();
        let (best, best_rate, trials) = tune(&layout, &opts, |t| reported.push(t.weights)).unwrap();
        assert_eq!(reported, trials.iter().map(|t| t.weights).collect::<Vec<_>>());
        assert_eq!(trials.len(), 1 + 3 * 10);
        assert_eq!((trials[0].weights, trials[0].accepted), (player.weights, true));
        assert_eq!(trials[0].solve_rate, training_rate(&layout, player.weights, &opts).unwrap());
        let (mut expected_best, mut expected_rate, mut step) = (player.weights, trials[0].solve_rate, 0.5);
        let (mut gains, mut halvings) = (0, 0);
        for round in trials[1..].chunks(10) {
            let mut improved = false;
            for (j, trial) in round.iter().enumerate() {
                let mut w = expected_best.as_array();
                w[j / 2] += if j % 2 == 0 { step } else { -step };
                assert_eq!(trial.weights, Weights::from_array(w));
                assert_eq!(trial.accepted, trial.solve_rate > expected_rate);
                if trial.accepted {
                    (expected_best, expected_rate, improved) = (trial.weights, trial.solve_rate, true);
                    gains += 1;
                }
            }
            if !improved {
                step /= 2.0;
                halvings += 1;
            }
        }
        assert_eq!((best, best_rate), (expected_best, expected_rate));
        assert!(gains > 0 && halvings > 0, "{gains} gains, {halvings} halvings");
    }
}
