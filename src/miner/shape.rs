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
}
