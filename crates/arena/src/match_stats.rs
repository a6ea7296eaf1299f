//! Match statistics: Elo difference with a 95% interval, likelihood of
//! superiority, and the sequential probability ratio test on game pairs
//! (pentanomial, as fastchess and fishtest count them).

use std::collections::HashMap;

/// White's points in a game of PGN result `result` (`1-0`, `0-1`, and
/// anything else a draw).
pub fn white_points(result: &str) -> f64 {
    match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    }
}

/// The first engine's points in a game of PGN result `result`, by whether
/// it had White.
pub fn first_engine_points(result: &str, first_is_white: bool) -> f64 {
    let white = white_points(result);
    if first_is_white {
        white
    } else {
        1.0 - white
    }
}

/// Elo difference that a score fraction means (logistic model).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The Elo difference of a result and the half-width of its 95% interval
/// (normal approximation over the games' scores).
pub fn elo_with_margin(wins: u32, draws: u32, losses: u32) -> (f64, f64) {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let mu = (f64::from(wins) + f64::from(draws) / 2.0) / n;
    let var =
        (f64::from(wins) * (1.0 - mu).powi(2) + f64::from(draws) * (0.5 - mu).powi(2) + f64::from(losses) * mu.powi(2))
            / n;
    let se = (var / n).sqrt();
    let (lo, hi) = (elo(mu - 1.96 * se), elo(mu + 1.96 * se));
    (elo(mu), (hi - lo) / 2.0)
}

/// The probability that the first engine is the stronger, from wins and
/// losses (draws say nothing about it).
pub fn los(wins: u32, losses: u32) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((f64::from(wins) - f64::from(losses)) / (2.0 * f64::from(wins + losses)).sqrt()))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// Counts of game pairs (same opening, colours swapped) by the first
/// engine's points in the pair: 0, 0.5, 1, 1.5, 2.
pub type Pentanomial = [u32; 5];

/// The first engine's results as games finish: wins, draws and losses,
/// and game pairs (numbers 2k and 2k + 1, one opening with colours
/// swapped) counted once both have finished.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub pairs: Pentanomial,
    /// Points of games whose partner has not finished, by game number.
    unpaired: HashMap<usize, f64>,
}

impl Tally {
    /// Counts game `number`, where the first engine made `points`.
    pub fn add(&mut self, number: usize, points: f64) {
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        match self.unpaired.remove(&(number ^ 1)) {
            Some(other) => self.pairs[((points + other) * 2.0).round() as usize] += 1,
            None => {
                self.unpaired.insert(number, points);
            }
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score, 0 to 1 (0 before any game).
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games().max(1))
    }
}

/// The SPRT's log-likelihood ratio of H1 (elo1) against H0 (elo0) for the
/// pairs played, by the normal approximation fishtest uses.
pub fn sprt_llr(pairs: &Pentanomial, elo0: f64, elo1: f64) -> f64 {
    let n: f64 = pairs.iter().map(|&c| f64::from(c)).sum();
    if n == 0.0 {
        return 0.0;
    }
    let score = |i: usize| i as f64 / 4.0;
    let mu: f64 = pairs.iter().enumerate().map(|(i, &c)| f64::from(c) * score(i)).sum::<f64>() / n;
    let var: f64 = pairs.iter().enumerate().map(|(i, &c)| f64::from(c) * (score(i) - mu).powi(2)).sum::<f64>() / n;
    if var <= 0.0 {
        return 0.0;
    }
    let expected = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (expected(elo0), expected(elo1));
    n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
}

/// The SPRT's bounds: stop for H0 below the first, for H1 above the second.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert!((elo(0.25) + 190.85).abs() < 0.01);
        let (e, margin) = elo_with_margin(27, 46, 27);
        assert!(e.abs() < 1e-9 && margin > 30.0 && margin < 80.0, "{e} {margin}");
    }

    #[test]
    fn likelihood_of_superiority() {
        assert!((los(10, 10) - 0.5).abs() < 1e-9);
        assert!(los(20, 5) > 0.99 && los(5, 20) < 0.01);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
    }

    #[test]
    fn the_first_engines_points_follow_its_colour() {
        assert_eq!((first_engine_points("1-0", true), first_engine_points("1-0", false)), (1.0, 0.0));
        assert_eq!((first_engine_points("0-1", true), first_engine_points("0-1", false)), (0.0, 1.0));
        assert_eq!(first_engine_points("1/2-1/2", false), 0.5);
    }

    #[test]
    fn a_tally_counts_games_and_pairs_in_any_order() {
        let mut t = Tally::default();
        t.add(1, 0.5);
        assert_eq!((t.games(), t.pairs), (1, [0; 5]));
        t.add(0, 1.0);
        t.add(3, 0.0);
        t.add(4, 1.0);
        t.add(2, 0.0);
        // Pairs 0-1 (1.5 points) and 2-3 (none); game 4 waits for 5.
        assert_eq!(t.pairs, [1, 0, 0, 1, 0]);
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 2));
        assert!((t.score() - 0.5).abs() < 1e-9);
        assert_eq!(Tally::default().score(), 0.0);
    }

    #[test]
    fn sprt_leans_the_right_way() {
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!((upper - 2.944).abs() < 0.001 && (lower + 2.944).abs() < 0.001);
        // Pairs that mostly win lean to H1, pairs that mostly lose to H0.
        assert!(sprt_llr(&[2, 10, 40, 30, 18], 0.0, 10.0) > 0.0);
        assert!(sprt_llr(&[18, 30, 40, 10, 2], 0.0, 10.0) < 0.0);
        // Decisive enough evidence crosses a bound.
        assert!(sprt_llr(&[0, 5, 20, 60, 40], 0.0, 20.0) > upper);
        assert_eq!(sprt_llr(&[0, 0, 0, 0, 0], 0.0, 10.0), 0.0);
    }
}
