//! Statistics for experiment reports: Wilson intervals for rates, chi-square against an even
//! split and Elo differences for head-to-head results, and simple summaries of samples.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval (95%) for `successes` out of `trials`; (0, 1) when there are no trials.
pub fn wilson95(successes: u64, trials: u64) -> [f64; 2] {
    if trials == 0 {
        return [0.0, 1.0];
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Pearson chi-square statistic of a win/loss split against the even split (1 degree of
/// freedom; > 3.841 is significant at 5%). Draws are left out.
pub fn chi2_even(wins: u64, losses: u64) -> f64 {
    let n = (wins + losses) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let expected = n / 2.0;
    let dw = wins as f64 - expected;
    let dl = losses as f64 - expected;
    (dw * dw + dl * dl) / expected
}

/// Elo difference implied by a score share (wins + draws/2 over games), clamped so that a
/// perfect score gives a large finite number rather than infinity.
pub fn elo_diff(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean of a sample; 0 for an empty one.
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 }
}

/// Normal-approximation 95% interval of a sample's mean (mean ± z·s/√n, s the sample
/// standard deviation); the mean itself for fewer than two values.
pub fn mean_ci95(xs: &[f64]) -> [f64; 2] {
    let m = mean(xs);
    if xs.len() < 2 {
        return [m, m];
    }
    let n = xs.len() as f64;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    let half = Z95 * (var / n).sqrt();
    [m - half, m + half]
}

/// The q-quantile (0..=1) by the nearest-rank method on a copy of the sample; 0 when empty.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((q.clamp(0.0, 1.0) * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// Median as the average of the two middle values for even sizes.
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 }
}

/// A head-to-head result between two sides, with everything the reports print about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    /// Games played.
    pub games: u64,
    /// Games the first side won.
    pub wins: u64,
    /// Games the first side lost.
    pub losses: u64,
    /// Games neither side won.
    pub draws: u64,
    /// Wins over games (draws count as not won).
    pub win_rate: f64,
    /// Wilson 95% interval of `win_rate`.
    pub ci95: [f64; 2],
    /// Chi-square of wins against losses under an even split ([`chi2_even`]).
    pub chi2: f64,
    /// Elo difference of the score, a draw counting half ([`elo_diff`]).
    pub elo_diff: f64,
}

impl HeadToHead {
    /// The result of `wins`, `losses` and `draws` of the first side, with its statistics.
    pub fn new(wins: u64, losses: u64, draws: u64) -> Self {
        let games = wins + losses + draws;
        let win_rate = if games == 0 { 0.0 } else { wins as f64 / games as f64 };
        let score = if games == 0 { 0.5 } else { (wins as f64 + draws as f64 / 2.0) / games as f64 };
        HeadToHead {
            games,
            wins,
            losses,
            draws,
            win_rate,
            ci95: wilson95(wins, games),
            chi2: chi2_even(wins, losses),
            elo_diff: elo_diff(score),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_textbook_value() {
        // 709 / 1000: the Calculation paper's best; interval from the closed form.
        let [lo, hi] = wilson95(709, 1000);
        assert!((lo - 0.6798).abs() < 1e-3 && (hi - 0.7365).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson95(0, 0), [0.0, 1.0]);
        let [lo, hi] = wilson95(10, 10);
        assert!(lo > 0.69 && hi > 0.999_999, "{lo} {hi}");
    }

    #[test]
    fn chi2_and_elo() {
        assert_eq!(chi2_even(50, 50), 0.0);
        assert!((chi2_even(60, 40) - 4.0).abs() < 1e-12);
        assert!(elo_diff(0.5).abs() < 1e-9);
        assert!((elo_diff(0.75) - 190.85).abs() < 0.1);
        assert!(elo_diff(1.0).is_finite());
    }

    #[test]
    fn mean_interval() {
        // 1..=5: mean 3, s = sqrt(2.5), half-width 1.96 * sqrt(2.5 / 5) = 1.386.
        let [lo, hi] = mean_ci95(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((lo - 1.614).abs() < 1e-3 && (hi - 4.386).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(mean_ci95(&[7.0]), [7.0, 7.0]);
        assert_eq!(mean_ci95(&[]), [0.0, 0.0]);
    }

    #[test]
    fn quantiles() {
        let xs = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(median(&xs), 3.0);
        assert_eq!(median(&[1.0, 2.0]), 1.5);
        assert_eq!(quantile(&xs, 0.95), 5.0);
        assert_eq!(quantile(&xs, 0.5), 3.0);
        assert_eq!(mean(&[]), 0.0);
    }
}
