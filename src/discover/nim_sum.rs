//! Why some Scoring Nim families provably have no payoff form of the miner's shapes: the
//! members that are normal-play P-positions are not eventually periodic in the parameter.
//!
//! **The sign for a large bonus** (Bouton's theorem, not the paper's). Let p ≠ ∅ and N > |p|.
//! From a position of nim-sum ⊕p ≠ 0 the mover has a move to nim-sum 0, and from nim-sum 0
//! every move leads to a non-zero nim-sum; the empty position has nim-sum 0. So when ⊕p ≠ 0 the
//! mover can force taking the last stone, and whatever the stones she scores on the way, her
//! score difference is at least N − |p| > 0; when ⊕p = 0 the opponent can, and the mover's is
//! at most |p| − N < 0. Hence f_N(p) > 0 exactly when ⊕p ≠ 0, for every N > |p|.
//!
//! **What a form fixes.** Every form the miner looks for — a template, or breakpoints as
//! progressions whose numbers are periodic-linear in k — ends on the right, on each residue
//! class of k modulo its period P and from some k₀ on, with a tail f_N = s·N + (α k + β) with
//! s = ±1 the same for the whole class. So the sign of f_N(p(k)) for all large N is constant on
//! each class from k₀ on, and by the sign lemma the set Z = {k : ⊕p(k) = 0} would be eventually
//! periodic.
//!
//! **Z is not eventually periodic** when, with heaps a_i·k + b_i (a fixed heap has a_i = 0):
//! - some u ≥ 1 has ⊕(a_i u) = 0 and some v ≥ 1 has every a_i v + b_i ≥ 0 and
//!   ⊕(a_i v + b_i) = 0. For 2^j above every a_i v + b_i, a_i(2^j u + v) + b_i is the binary
//!   number a_i u written above the digits of a_i v + b_i, and ⊕ acts digitwise, so
//!   2^j u + v ∈ Z for every such j: Z is infinite;
//! - some u' ≥ 1 has ⊕(a_i u') ≠ 0. For 1 ≤ t ≤ w_j = ⌊(2^j − 1 − max b_i) / max a_i⌋ (and t at
//!   least the first t where every heap is ≥ 0), every a_i t + b_i lies in [0, 2^j), so the nim-sum
//!   at k = 2^j u' + t has the non-zero ⊕(a_i u') above 2^j: none of these k is in Z, a run of
//!   non-members whose length grows without bound.
//!
//! An eventually periodic set with infinitely many elements has one in every P consecutive
//! integers from some point on, which no unbounded run of non-members allows. So no form of
//! the miner's shapes describes such a family, however far it is mined; [`ZeroSetWitness::find`]
//! searches small u, v and u' and returns the witness, which tests replay by brute force.

use std::fmt;

use super::Obstruction;
use super::stated::{AffineHeap, HeapFamily};

/// The largest u and u' tried.
const MAX_BASE: i64 = 64;
/// The largest v tried.
const MAX_MEMBER: i64 = 4096;

/// A witness that the members of a family that are normal-play P-positions (nim-sum 0) are not
/// eventually periodic in k (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZeroSetWitness {
    family: HeapFamily,
    /// The first t ≥ 1 where every heap a_i t + b_i is at least 0: where each run starts.
    start: i64,
    /// u: the nim-sum of the slopes times u is 0.
    pub zero: i64,
    /// v: the member with nim-sum 0 that 2^j u + v repeats.
    pub member: i64,
    /// u': the nim-sum of the slopes times u' is not 0.
    pub nonzero: i64,
    /// j₀: from 2^j₀ on, 2^j u + v has nim-sum 0 and the run after 2^j u' has none.
    pub from_j: u32,
}

/// The nim-sum of the heaps a_i·k + b_i (a heap of 0 is no heap and adds nothing).
fn nim_sum(heaps: &[AffineHeap], k: i64) -> i64 {
    heaps.iter().fold(0, |x, h| x ^ h.at(k))
}

/// The nim-sum of the slopes times u: the digits the heaps carry above 2^j at 2^j u + t.
fn slope_sum(heaps: &[AffineHeap], u: i64) -> i64 {
    heaps.iter().fold(0, |x, h| x ^ (h.slope * u))
}

impl ZeroSetWitness {
    /// The witness for `family`, when small u, v and u' give one.
    pub fn find(family: &HeapFamily) -> Option<ZeroSetWitness> {
        let heaps = &family.0;
        // Bounds that keep every product below 2^63 (2^j u stays under 2^56); a fixed heap
        // below 0 is no family.
        let bounded = |x: i64| x.unsigned_abs() <= 1 << 32;
        if heaps
            .iter()
            .any(|h| h.slope < 0 || !bounded(h.slope) || !bounded(h.offset))
            || heaps.iter().any(|h| h.slope == 0 && h.offset < 0)
        {
            return None;
        }
        let zero = (1..=MAX_BASE).find(|&u| slope_sum(heaps, u) == 0)?;
        let nonzero = (1..=MAX_BASE).find(|&u| slope_sum(heaps, u) != 0)?;
        let member = (1..=MAX_MEMBER)
            .find(|&v| heaps.iter().all(|h| h.at(v) >= 0) && nim_sum(heaps, v) == 0)?;
        let highest = heaps.iter().map(|h| h.at(member)).max()?;
        let start = family.first_member(1);
        // 2^j above every heap of v, and a run w_j that reaches its first t.
        let from_j = (1..62u32).find(|&j| {
            let two = 1i64 << j;
            two > highest && Self::run_end(heaps, two) >= start
        })?;
        Some(ZeroSetWitness {
            family: family.clone(),
            start,
            zero,
            member,
            nonzero,
            from_j,
        })
    }

    /// w_j for 2^j = `two`: the last t of the run of non-members after 2^j u'.
    fn run_end(heaps: &[AffineHeap], two: i64) -> i64 {
        let a = heaps.iter().map(|h| h.slope).max().unwrap_or(1).max(1);
        let b = heaps.iter().map(|h| h.offset).max().unwrap_or(0);
        (two - 1 - b).div_euclid(a)
    }

    /// The member 2^j u + v of nim-sum 0 (j ≥ j₀).
    pub fn member_at(&self, j: u32) -> i64 {
        (1i64 << j) * self.zero + self.member
    }

    /// The run of members 2^j u' + t without nim-sum 0 (j ≥ j₀), first and last.
    pub fn run_at(&self, j: u32) -> (i64, i64) {
        let two = 1i64 << j;
        (
            two * self.nonzero + self.start,
            two * self.nonzero + Self::run_end(&self.family.0, two),
        )
    }

    /// Whether the family's member at k has nim-sum 0 (the definition the witness is about).
    pub fn in_zero_set(&self, k: i64) -> bool {
        nim_sum(&self.family.0, k) == 0
    }
}

impl fmt::Display for ZeroSetWitness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (u, v, w, j, t) = (
            self.zero,
            self.member,
            self.nonzero,
            self.from_j,
            self.start,
        );
        write!(
            f,
            "the members ({}) with nim-sum 0 are not eventually periodic in k (2^j·{u} + {v} has \
             nim-sum 0 and 2^j·{w} + {t} .. 2^j·{w} + w_j none, for every j ≥ {j}, with w_j unbounded), \
             and for N > |p| the sign of the payoff is that of the nim-sum",
            self.family
        )
    }
}

impl Obstruction for ZeroSetWitness {
    fn reason(&self) -> String {
        self.to_string()
    }

    fn kind(&self) -> String {
        "the members of nim-sum 0 are not eventually periodic in k".to_string()
    }

    fn witness_math(&self) -> String {
        let (u, v, w, j) = (self.zero, self.member, self.nonzero, self.from_j);
        // An example a few doublings on, where the run is long enough to see.
        let shown = j + 3;
        let (first, last) = self.run_at(shown);
        format!(
            "$u = {u}$, $v = {v}$, $u' = {w}$, $j_0 = {j}$; at $j = {shown}$ the member at \
             $k = {}$ has nim-sum $0$ and none at $k = {first}, \\dots, {last}$ has",
            self.member_at(shown),
        )
    }

    fn theorem_math(&self) -> String {
        "Let $p(k)$ be a family of positions with heaps $a_i k + b_i$ ($a_i \\ge 0$) and \
         $Z = \\{k : \\bigoplus_i (a_i k + b_i) = 0\\}$ the members that are normal-play \
         $P$-positions. If there are $u, v, u' \\ge 1$ with $\\bigoplus_i a_i u = 0$, \
         $\\bigoplus_i (a_i v + b_i) = 0$ (every $a_i v + b_i \\ge 0$) and \
         $\\bigoplus_i a_i u' \\ne 0$, then $Z$ is not eventually periodic, and no form of the \
         miner's shapes (a template, or breakpoints as progressions in $N$ whose data are \
         periodic-linear in $k$) equals $f_N(p(k))$ for every large $k$."
            .to_string()
    }

    fn proof_math(&self) -> String {
        "For $N > |p|$ the sign of $f_N(p)$ is that of the nim-sum: by Bouton's theorem the \
         player to move from $\\oplus p \\ne 0$ can force taking the last stone, so \
         $f_N(p) \\ge N - |p| > 0$, and from $\\oplus p = 0$ her opponent can, so \
         $f_N(p) \\le |p| - N < 0$. Every form of the miner's shapes ends, on each class of $k$ \
         modulo its period $P$ and from some $k_0$ on, with a tail $f_N = s N + \\alpha k + \\beta$ \
         with one sign $s = \\pm 1$ for the class, so $Z$ would be eventually periodic. For \
         $2^j > a_i v + b_i$ the binary digits of $a_i (2^j u + v) + b_i$ are those of $a_i u$ \
         above those of $a_i v + b_i$, and the nim-sum acts digitwise, so $2^j u + v \\in Z$ for \
         every such $j$: $Z$ is infinite. For $1 \\le t \\le w_j = \
         \\lfloor (2^j - 1 - \\max_i b_i) / \\max_i a_i \\rfloor$ (with every heap $a_i t + b_i \\ge 0$) \
         each heap of the member $2^j u' + t$ is $2^j a_i u'$ plus a number below $2^j$, so its \
         nim-sum has the non-zero $\\bigoplus_i a_i u'$ above $2^j$ and $2^j u' + t \\notin Z$: \
         runs of non-members of unbounded length. An eventually periodic set with infinitely \
         many elements meets every $P$ consecutive integers from some point on, which these runs \
         forbid. $\\square$"
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_k_two_k_k_has_a_witness_and_two_growing_heaps_none() {
        // 3k ⊕ 2k ⊕ k = 0 exactly when k has no two adjacent binary ones.
        let w = ZeroSetWitness::find(&HeapFamily::of_pairs(&[(3, 0), (2, 0), (1, 0)])).unwrap();
        assert_eq!((w.zero, w.member, w.nonzero), (1, 1, 3));
        for k in 1..2000 {
            assert_eq!(w.in_zero_set(k), k & (2 * k) == 0, "k = {k}");
        }
        // k ⊕ k = 0 always: Z is everything, periodic.
        assert!(ZeroSetWitness::find(&HeapFamily::of_pairs(&[(1, 0), (1, 1), (0, 1)])).is_none());
        // 2k ⊕ k ≠ 0 always above the digits of the offsets: no u.
        assert!(ZeroSetWitness::find(&HeapFamily::of_pairs(&[(2, 1), (1, 0), (0, 1)])).is_none());
    }

    /// The sign lemma the obstruction rests on, on the exact solver: for N > |p| the payoff is
    /// positive exactly when the nim-sum is not 0.
    #[test]
    fn for_a_bonus_above_the_stones_the_sign_is_the_nim_sums() {
        use crate::games::scoring::{Limits, Method, nim_heaps, scoring_nim, solve};
        use crate::num::Q;
        for a in 1..=6u32 {
            for b in 0..=a {
                for c in 0..=b {
                    let heaps = [a, b, c];
                    let nim = nim_heaps(&heaps);
                    let payoff = solve(&scoring_nim(), &nim, Method::Exact, &Limits::default())
                        .unwrap()
                        .payoff(&nim)
                        .unwrap();
                    let stones = i64::from(a + b + c);
                    let positive = a ^ b ^ c != 0;
                    for n in [
                        Q::frac(2 * stones + 1, 2),
                        Q::int(stones + 1),
                        Q::int(3 * stones),
                    ] {
                        assert_eq!(
                            payoff.eval(&n) > Q::zero(),
                            positive,
                            "{heaps:?} at N = {n}"
                        );
                        assert_ne!(payoff.eval(&n), Q::zero());
                    }
                }
            }
        }
    }

    /// Every witness found among the 3-heap families with slopes 0..4 and offsets −1..3 is one:
    /// the members it names have nim-sum 0 and the runs it names have none, by the definition,
    /// for several j from j₀, and the runs grow.
    #[test]
    fn every_witness_replays() {
        let heaps: Vec<(i64, i64)> = (0..=4)
            .flat_map(|a| (-1..=3).map(move |b| (a, b)))
            .filter(|&(a, b)| a > 0 || b >= 1)
            .collect();
        let mut witnesses = 0;
        for (i, &x) in heaps.iter().enumerate() {
            for (j, &y) in heaps.iter().enumerate().skip(i) {
                for &z in &heaps[j..] {
                    let fam = HeapFamily::of_pairs(&[x, y, z]);
                    let Some(w) = ZeroSetWitness::find(&fam) else {
                        continue;
                    };
                    witnesses += 1;
                    let mut runs = Vec::new();
                    for j in w.from_j..w.from_j + 5 {
                        assert!(w.in_zero_set(w.member_at(j)), "{w:?} at j = {j}");
                        let (first, last) = w.run_at(j);
                        assert!(last >= first, "{w:?} at j = {j}");
                        runs.push(last - first);
                        for k in first..=last {
                            assert!(fam.0.iter().all(|h| h.at(k) >= 0));
                            assert!(!w.in_zero_set(k), "{w:?}: k = {k}");
                        }
                    }
                    assert!(runs.windows(2).all(|r| r[1] > r[0]), "{w:?}: {runs:?}");
                }
            }
        }
        // The 24 of the default discovery space and more with slope 4.
        assert!(witnesses > 24, "{witnesses}");
    }
}
