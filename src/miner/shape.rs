//! The shape of a piecewise-linear function: where its breakpoints sit and what it takes there.
//!
//! For a family of PWL functions (one per parameter value k), a shape is "breakpoints at
//! x₀, x₀ + s, …, x₁ (an arithmetic progression) with values repeating a short cycle along it".
//! Fitting x₀, x₁, s and the cycle across k (with [`super::fit_periodic_linear`]) turns data
//! like the payoffs of (2k+1, 2k, 1) into "breakpoints at −(2k−2)…2k−2 step 1, values 2, 1, 2, …".

use serde::Serialize;

use crate::num::{Pwl, Q};

/// Breakpoints in arithmetic progression with a periodic cycle of values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PwlShape {
    /// The first breakpoint.
    pub first: Q,
    /// The last breakpoint.
    pub last: Q,
    /// The common difference (0 with a single breakpoint).
    pub step: Q,
    /// Values at the breakpoints repeat this cycle (the least one), from the first.
    pub value_cycle: Vec<Q>,
}

/// The shape of `f`, if its breakpoints form an arithmetic progression; `None` for a line or
/// for irregular breakpoints.
pub fn pwl_shape(f: &Pwl) -> Option<PwlShape> {
    let bps = f.breakpoints();
    let (first, last) = (bps.first()?.0.clone(), bps.last()?.0.clone());
    let step = if bps.len() > 1 {
        &bps[1].0 - &bps[0].0
    } else {
        Q::zero()
    };
    if bps.windows(2).any(|w| &w[1].0 - &w[0].0 != step) {
        return None;
    }
    let values: Vec<&Q> = bps.iter().map(|(_, y)| y).collect();
    let n = values.len();
    let cycle = (1..=n)
        .find(|&p| (p..n).all(|i| values[i] == values[i - p]))
        .expect("n itself qualifies");
    Some(PwlShape {
        first,
        last,
        step,
        value_cycle: values[..cycle].iter().map(|&v| v.clone()).collect(),
    })
}

/// A "zigzag": f(N) = top − min over the peaks j of |N − j|, the peaks forming the arithmetic
/// progression first_peak, first_peak + peak_step, …, last_peak. The shape of F_k in Scoring
/// Nim (Def 6.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zigzag {
    /// The value at every peak.
    pub top: Q,
    /// The first peak.
    pub first_peak: Q,
    /// The last peak.
    pub last_peak: Q,
    /// The distance between peaks (0 with a single peak).
    pub peak_step: Q,
}

/// `f` as a zigzag, when it is one: slopes ±1 everywhere, breakpoints in arithmetic progression
/// with values alternating top, top − step, …, top (peaks at both ends), rising into the first
/// peak from the left and falling after the last. Then f(N) = top − min_j |N − j| for every N:
/// between two peaks the two unit slopes meet at the valley, and the tails are the outer
/// slopes of the first and last peak.
pub fn zigzag(f: &Pwl) -> Option<Zigzag> {
    let one = Q::one();
    if f.left_slope() != &one || f.right_slope() != &-one.clone() {
        return None;
    }
    let bps = f.breakpoints();
    let shape = pwl_shape(f)?;
    let top = bps[0].1.clone();
    let peak = |i: usize| i.is_multiple_of(2);
    if bps.len().is_multiple_of(2) {
        return None;
    }
    let step = shape.step.clone();
    let valley = &top - &step;
    if bps
        .iter()
        .enumerate()
        .any(|(i, (_, y))| y != if peak(i) { &top } else { &valley })
    {
        return None;
    }
    Some(Zigzag {
        top,
        first_peak: shape.first,
        last_peak: shape.last,
        peak_step: &step + &step,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_zigzags_and_lines() {
        // 2 − min_j |N − j| over j ∈ {−2, 0, 2}: breakpoints −2..2 step 1, values 2, 1, 2, 1, 2.
        let f: Pwl = "[1] (-2,2) (-1,1) (0,2) (1,1) (2,2) [-1]".parse().unwrap();
        let s = pwl_shape(&f).unwrap();
        assert_eq!(
            (s.first, s.last, s.step),
            (Q::int(-2), Q::int(2), Q::int(1))
        );
        assert_eq!(s.value_cycle, [Q::int(2), Q::int(1)]);
        assert!(pwl_shape(&Pwl::linear(Q::int(1), Q::int(3))).is_none());
        let irregular: Pwl = "[0] (0,0) (1,1) (3,-1) [0]".parse().unwrap();
        assert!(pwl_shape(&irregular).is_none());
    }

    #[test]
    fn zigzags_are_recognized_and_equal_their_formula() {
        let f: Pwl = "[1] (-2,2) (-1,1) (0,2) (1,1) (2,2) [-1]".parse().unwrap();
        let z = zigzag(&f).unwrap();
        assert_eq!(
            (
                z.top.clone(),
                z.first_peak.clone(),
                z.last_peak.clone(),
                z.peak_step.clone()
            ),
            (Q::int(2), Q::int(-2), Q::int(2), Q::int(2))
        );
        for i in -16..=16 {
            let n = Q::frac(i, 4);
            let nearest = [-2, 0, 2]
                .iter()
                .map(|&j| (&n - &Q::int(j)).abs())
                .min()
                .unwrap();
            assert_eq!(f.eval(&n), &z.top - &nearest, "N = {n}");
        }
        // A single peak, and shapes that are not zigzags.
        assert!(zigzag(&"[1] (3,5) [-1]".parse().unwrap()).is_some());
        assert!(zigzag(&"[1] (-1,2) (0,1) (1,2) [1]".parse().unwrap()).is_none());
        assert!(zigzag(&"[1] (0,2) (1,1) (3,3) [-1]".parse().unwrap()).is_none());
    }
}
