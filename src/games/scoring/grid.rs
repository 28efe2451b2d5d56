//! The checked integer-grid fast path for payoffs.
//!
//! Why it is exact. Write M = s·N and F = s·f for a scale s = 2q, q the common denominator of all
//! move points. The terminal payoff F = −M has slope −1 and even intercept; every recursion step
//! F(p) = max(P − F(p′)) negates (slope ±1 stays ±1) and adds an even integer P = s·points. So every
//! candidate line is ±M + (even integer), two such lines cross at an integer M, and the maximum is
//! determined exactly by its values on the integer grid plus its two tail slopes. With s = q the
//! same holds whenever all candidates of a position share one parity class
//! ((F(M) − M) mod 2, constant along unit-slope functions) — Prop 3.1(ii) of Scoring Nim says this
//! is always so for Nim. The class is checked per position in O(moves); on a mismatch the caller
//! retries with s = 2q, where it holds by construction.
//!
//! Each function is stored on a window holding all its breakpoints, found exactly from the tail
//! lines of the candidates (no bound from the papers is assumed), and trimmed to its first and last
//! breakpoint so the window *is* the breakpoint range. Values are `i32` with every magnitude kept
//! below 2^28, so no intermediate can overflow; larger data reports [`GridError::Range`] and the
//! exact path takes over.
//!
//! Storage. Consecutive grid values differ by exactly ±1, so a function is stored as its first
//! and last value and one bit per step (set: the value rises). A whole table of payoffs then
//! costs a bit per grid step instead of 32; a value inside the window is the first value plus
//! twice the rises before it minus the steps, a popcount. The recursion itself works on plain
//! `i32` windows and packs each result once.

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use crate::num::{Pwl, Q};

/// Bound on |points|, window ends and values on the grid; keeps every candidate below 2^31.
pub const GRID_LIMIT: i64 = 1 << 28;

/// Why the grid path cannot represent a payoff exactly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// Candidates of one position fall in different parity classes at this scale.
    #[error("candidate parities differ at this scale")]
    Parity,
    /// A value, point or window end is beyond [`GRID_LIMIT`].
    #[error("values exceed the grid's integer range")]
    Range,
    /// A point is not an integer at this scale.
    #[error("points are not integers at this scale")]
    NotInteger,
}

/// A payoff on the integer grid M = s·N, values F = s·f; slopes are ±1 everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridFn {
    lo: i64,
    /// F(lo).
    first: i32,
    /// F(hi).
    last: i32,
    /// Grid points in the window, hi − lo + 1 ≥ 1.
    len: u32,
    /// Bit i (of word i / 64): F(lo + i + 1) − F(lo + i) = +1; clear: −1. Bits past the last
    /// step are zero, so equal functions compare equal.
    rises: Box<[u64]>,
    left: i8,
    right: i8,
    parity: u8,
}

impl GridFn {
    /// The payoff of a position with no move: f = −N.
    pub fn terminal() -> GridFn {
        GridFn {
            lo: 0,
            first: 0,
            last: 0,
            len: 1,
            rises: Box::new([]),
            left: -1,
            right: -1,
            parity: 0,
        }
    }

    /// First grid point of the window (the first breakpoint, if any).
    pub fn lo(&self) -> i64 {
        self.lo
    }

    /// Last grid point of the window (the last breakpoint, if any).
    pub fn hi(&self) -> i64 {
        self.lo + i64::from(self.len) - 1
    }

    /// Bytes of heap memory held: one bit per grid step, in 64-bit words.
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of_val::<[u64]>(&self.rises)
    }

    /// Bytes of heap memory a function with a window of `len` grid points holds.
    pub(crate) fn heap_bytes_for(len: u64) -> u64 {
        len.saturating_sub(1).div_ceil(64) * 8
    }

    /// F(M) for any integer M.
    pub fn at(&self, m: i64) -> i64 {
        let hi = self.hi();
        if m == hi {
            // The window's ends are stored: no popcount over the steps.
            return i64::from(self.last);
        }
        if m < self.lo {
            i64::from(self.first) + i64::from(self.left) * (m - self.lo)
        } else if m > hi {
            i64::from(self.last) + i64::from(self.right) * (m - hi)
        } else {
            i64::from(self.value_at_index((m - self.lo) as usize))
        }
    }

    /// F(lo + i) for i < len: the first value, plus one per rise, minus one per fall.
    fn value_at_index(&self, i: usize) -> i32 {
        let (words, bits) = (i / 64, i % 64);
        let mut rises: u32 = self.rises[..words].iter().map(|w| w.count_ones()).sum();
        if bits > 0 {
            rises += (self.rises[words] & ((1u64 << bits) - 1)).count_ones();
        }
        self.first + 2 * rises as i32 - i as i32
    }

    /// The `count` values from index `from` on, decoded a byte of steps at a time into `buffer`
    /// (reused between calls); `from + count` must not pass the window.
    fn decode<'b>(&self, from: usize, count: usize, buffer: &'b mut Vec<i32>) -> &'b [i32] {
        debug_assert!(from + count <= self.len as usize);
        buffer.clear();
        let aligned = from / 8 * 8;
        let mut value = self.value_at_index(aligned);
        let mut index = aligned;
        while index < from + count {
            // Bits past the last step are zero: the values they give are cut off below.
            let word = self.rises.get(index / 64).copied().unwrap_or(0);
            let byte = (word >> (index % 64)) as u8;
            let offsets = &BYTE_OFFSETS[usize::from(byte)];
            let block: [i32; 8] = std::array::from_fn(|j| value + i32::from(offsets[j]));
            buffer.extend_from_slice(&block);
            value += 2 * byte.count_ones() as i32 - 8;
            index += 8;
        }
        &buffer[from - aligned..from - aligned + count]
    }

    /// max over candidates (P − F_child), with P already scaled. `cands` must be non-empty.
    pub fn combine(cands: &[(i64, &GridFn)]) -> Result<GridFn, GridError> {
        assert!(!cands.is_empty(), "combine needs at least one candidate");
        let (lo, hi, left, right) = window(cands)?;
        let len = (hi - lo + 1) as usize;
        let mut out = vec![i32::MIN; len];
        for &(p, g) in cands {
            accumulate(&mut out, lo, p, g);
        }
        if out.iter().any(|&v| i64::from(v).abs() > GRID_LIMIT) {
            return Err(GridError::Range);
        }
        Ok(trimmed(lo, &out, left, right))
    }

    /// min over candidates (P + F_cand), with P already scaled: the lower envelope the
    /// running-minimum recursion of the `running_min` module carries. `cands` must be non-empty.
    ///
    /// min(P + F) = −max(−P − F), and negating a payoff keeps it on the grid (slopes ±1, the
    /// parity class (F(M) − M) mod 2 and the knots are unchanged), so this is [`combine`] with
    /// negated points, negated back; the same parity and range checks apply.
    ///
    /// [`combine`]: GridFn::combine
    pub fn lower_envelope(cands: &[(i64, &GridFn)]) -> Result<GridFn, GridError> {
        let negated: Vec<(i64, &GridFn)> = cands.iter().map(|&(p, g)| (-p, g)).collect();
        Ok(GridFn::combine(&negated)?.negated())
    }

    /// −F: the same window and knots, values and tail slopes negated.
    fn negated(mut self) -> GridFn {
        // A rise of F is a fall of −F: flip every step bit, keeping the bits past the end zero.
        let steps = self.len as usize - 1;
        for (w, word) in self.rises.iter_mut().enumerate() {
            let live = (steps - 64 * w).min(64);
            *word = !*word & (u64::MAX >> (64 - live));
        }
        self.first = -self.first;
        self.last = -self.last;
        self.left = -self.left;
        self.right = -self.right;
        self
    }

    /// The exact payoff as a function of N, given the grid scale.
    pub fn to_pwl(&self, scale: i64) -> Pwl {
        let s = Q::int(scale);
        let (left, right) = (Q::int(self.left.into()), Q::int(self.right.into()));
        let points: Vec<(Q, Q)> = self
            .knots()
            .into_iter()
            .map(|(m, v)| (&Q::int(m) / &s, &Q::int(v) / &s))
            .collect();
        Pwl::from_points(left, points, right)
            .expect("grid knots are strictly increasing and non-empty")
    }

    /// The numbers [`Pwl`] reports, straight from the grid with machine integers: the breakpoint
    /// count, c⁻ and c⁺ (the tail intercepts) and the text of `to_pwl(scale)`'s `Display`.
    /// Equal to going through [`to_pwl`](Self::to_pwl) (tested), but without big rationals, so
    /// whole tables print quickly.
    pub fn summary(&self, scale: i64) -> GridSummary {
        let parts = self.summary_parts(scale);
        let mut text = String::new();
        self.write_text(scale, &mut text);
        GridSummary {
            breakpoints: parts.breakpoints,
            c_minus: Q::frac(parts.c_minus.0, parts.c_minus.1),
            c_plus: Q::frac(parts.c_plus.0, parts.c_plus.1),
            text,
        }
    }

    /// [`GridFn::summary`]'s numbers with c∓ as unreduced fractions (numerator, scale): no big
    /// integer, and the breakpoints counted a word of steps at a time.
    pub fn summary_parts(&self, scale: i64) -> SummaryParts {
        let left = i64::from(self.left);
        let right = i64::from(self.right);
        let breakpoints = if self.is_line() {
            0
        } else {
            self.knot_words()
                .map(|(changes, _, _, _)| changes.count_ones() as usize)
                .sum()
        };
        SummaryParts {
            breakpoints,
            c_minus: (i64::from(self.first) - left * self.lo, scale),
            c_plus: (i64::from(self.last) - right * self.hi(), scale),
        }
    }

    /// Appends [`GridFn::summary`]'s text (the [`Pwl`] `Display` form) to `text`.
    pub fn write_text(&self, scale: i64, text: &mut String) {
        let mut bytes = std::mem::take(text).into_bytes();
        self.write_text_bytes(scale, &mut bytes);
        *text = String::from_utf8(bytes).expect("the text is ASCII");
    }

    /// [`GridFn::write_text`] as ASCII bytes: no allocation but the buffer's own growth, and
    /// small numbers written digit pair by digit pair, so a whole table's payoff column is
    /// printed this way.
    pub fn write_text_bytes(&self, scale: i64, text: &mut Vec<u8>) {
        text.push(b'[');
        push_integer(text, self.left.into());
        text.push(b']');
        if self.is_line() {
            // A line is printed with its anchor at N = 0.
            text.extend_from_slice(b" (0,");
            push_fraction(
                text,
                i64::from(self.first) - i64::from(self.left) * self.lo,
                scale,
            );
            text.push(b')');
        } else if scale == 1 && self.knots_are_small() {
            self.write_small_knots(text);
        } else {
            self.for_each_knot(|m, v| {
                text.extend_from_slice(b" (");
                push_fraction(text, m, scale);
                text.push(b',');
                push_fraction(text, i64::from(v), scale);
                text.push(b')');
            });
        }
        text.extend_from_slice(b" [");
        push_integer(text, self.right.into());
        text.push(b']');
    }

    /// Every knot's M and F(M) is below 10⁴ in magnitude: the window's ends are, and no value
    /// on the window is farther from F(lo) than the window is wide.
    fn knots_are_small(&self) -> bool {
        let small = |n: i64| n.unsigned_abs() < SMALL_INTEGER;
        small(self.lo)
            && small(self.hi())
            && small(i64::from(self.first).abs() + i64::from(self.len))
    }

    /// The knots ` (M,F(M))` at scale 1, all small ([`GridFn::knots_are_small`]): the text's
    /// room for the longest knots is made once, each knot is written into it as two words
    /// ([`knot_opening`], [`knot_closing`]), and the unused room is cut off at the end.
    fn write_small_knots(&self, text: &mut Vec<u8>) {
        let knots: usize = self
            .knot_words()
            .map(|(changes, _, _, _)| changes.count_ones() as usize)
            .sum();
        let start = text.len();
        // " (" + "-9999" + "," + "-9999" + ")", and room for the last word's eight bytes.
        text.resize(start + 14 * knots + 8, 0);
        let room = &mut text[start..];
        let mut at = 0;
        // Between two knots the function is a line: each knot's value is the previous one's
        // plus the slope after it times the distance (the slope before the first knot is the
        // left tail's), so no step is counted.
        let (mut index, mut value, mut slope) = (0, i64::from(self.first), i64::from(self.left));
        for (mut changes, base, _, word) in self.knot_words() {
            while changes != 0 {
                let j = changes.trailing_zeros();
                let knot = base + j as usize;
                value += slope * (knot - index) as i64;
                index = knot;
                slope = 2 * ((word >> j) & 1) as i64 - 1;
                let (open, width) = knot_opening(self.lo + knot as i64);
                room[at..at + 8].copy_from_slice(&open.to_le_bytes());
                at += width;
                let (close, width) = knot_closing(value);
                room[at..at + 8].copy_from_slice(&close.to_le_bytes());
                at += width;
                changes &= changes - 1;
            }
        }
        text.truncate(start + at);
    }

    /// One line, no breakpoint: a window of one point with equal tail slopes.
    fn is_line(&self) -> bool {
        self.left == self.right && self.len == 1
    }

    /// Calls `f(M, F(M))` at every point where the slope changes, left to right (the single
    /// anchor for a window of one point), as [`GridFn::knots`] lists them.
    fn for_each_knot(&self, mut f: impl FnMut(i64, i32)) {
        for (mut changes, base, value, word) in self.knot_words() {
            while changes != 0 {
                let j = changes.trailing_zeros();
                let below = (word & ((1u64 << j) - 1)).count_ones() as i32;
                f(
                    self.lo + base as i64 + i64::from(j),
                    value + 2 * below - j as i32,
                );
                changes &= changes - 1;
            }
        }
    }

    /// The knots a word of steps at a time: items `(changes, base, value, word)` with bit j of
    /// `changes` set when index base + j is a knot, `value` = F at index base and `word` the
    /// steps from there (bit j: the step after index base + j).
    ///
    /// An interior index i is a knot when step i differs from step i − 1, so a whole word of
    /// them is one XOR with the word shifted by one; the ends compare their step with the tail
    /// slopes. The value at a knot is the word's first value plus a popcount. An iterator rather
    /// than a callback, so that a caller's running state stays in registers across knots.
    #[inline(always)]
    fn knot_words(&self) -> KnotWords<'_> {
        let n = self.len as usize;
        if n == 1 {
            return KnotWords {
                rises: &[],
                steps: 0,
                next: 0,
                carry: 0,
                value: self.first,
                first_knot: 0,
                last_knot: false,
                extra: Some((1, 0, self.first, 0)),
            };
        }
        let steps = n - 1;
        let rises = &self.rises[..];
        let slope = |i: usize| {
            if (rises[i / 64] >> (i % 64)) & 1 == 1 {
                1
            } else {
                -1
            }
        };
        let last_knot = slope(steps - 1) != self.right;
        KnotWords {
            rises,
            steps,
            next: 0,
            // Index 0: the bit "before" step 0 is step 0 itself, and the left tail decides instead.
            carry: rises[0] & 1,
            value: self.first,
            first_knot: u64::from(self.left != slope(0)),
            last_knot,
            // The last index opens a word of its own.
            extra: (steps.is_multiple_of(64) && last_knot).then_some((1, steps, self.last, 0)),
        }
    }

    /// (M, F(M)) where the slope changes, left to right (the single anchor for a line).
    fn knots(&self) -> Vec<(i64, i64)> {
        let n = self.len as usize;
        if n == 1 {
            return vec![(self.lo, i64::from(self.first))];
        }
        let slope = |i: usize| 2 * ((self.rises[i / 64] >> (i % 64)) & 1) as i8 - 1;
        let mut out = Vec::new();
        let mut before = self.left;
        DECODED.with(|buffer| {
            let mut buffer = buffer.borrow_mut();
            for (i, &v) in self.decode(0, n, &mut buffer).iter().enumerate() {
                let after = if i + 1 == n { self.right } else { slope(i) };
                if before != after {
                    out.push((self.lo + i as i64, i64::from(v)));
                }
                before = after;
            }
        });
        out
    }

    /// f(N) exactly, given the grid scale.
    pub fn eval(&self, n: &Q, scale: i64) -> Q {
        // Integer N within the grid's range: one i64 lookup, no rational arithmetic.
        if let Some(m) = n
            .to_i64()
            .and_then(|n| n.checked_mul(scale))
            .filter(|m| m.abs() <= GRID_LIMIT)
        {
            return Q::frac(self.at(m), scale);
        }
        let s = Q::int(scale);
        let m = n * &s;
        let (lo, hi) = (Q::int(self.lo), Q::int(self.hi()));
        let f_scaled = if m < lo {
            Q::int(self.first.into()) + Q::int(self.left.into()) * (m - lo)
        } else if m > hi {
            Q::int(self.last.into()) + Q::int(self.right.into()) * (m - hi)
        } else {
            let m0 = m.floor();
            let i = (&m0 - BigInt::from(self.lo))
                .to_usize()
                .expect("inside the window");
            let base = Q::int(self.value_at_index(i).into());
            if Q::from_bigint(m0.clone()) == m {
                base
            } else {
                let step = Q::int((self.value_at_index(i + 1) - self.value_at_index(i)).into());
                base + step * (m - Q::from_bigint(m0))
            }
        };
        f_scaled / s
    }
}

/// The running minimum's kernels: the same functions as [`GridFn::combine`] and
/// [`GridFn::lower_envelope`] give (tested bit for bit), computed on the packed steps
/// themselves, 64 grid points at a time, with no value decoded.
///
/// **Why steps suffice.** The candidates p − g of a maximum lie in one parity class (checked by
/// [`window`] as the generic combine checks it), so two of them differ by an even number at every
/// grid point. Where a(M) > b(M), then a(M) ≥ b(M) + 2, and one unit step later a still is at
/// least b: the maximum's next step is a's step. Where a(M) = b(M) the maximum rises exactly
/// when one of them rises. So the maximum's step bits follow from the candidates' step bits and
/// the signs of their differences, and a difference d at the start of a word of 64 steps moves
/// by 2 at each of the n points where the two step bits differ and nowhere else: with
/// |d| ≥ 2n one candidate wins the whole word, a few differing points are visited one by one,
/// and with many a byte with |d| ≥ 16 goes to one candidate whole; only the bytes where two
/// candidates come within 14 of each other are compared point by point (eight lanes of small
/// integers). The values at the window's ends
/// are the first value plus twice the rises minus the steps, popcounts.
///
/// **What stays the generic combine's.** The window and the tails come from the same exact
/// tail-line analysis ([`window`]), and the result is trimmed to its first and last knot as
/// [`trimmed`] trims, found a word at a time as [`GridFn::summary_parts`] finds knots. The range
/// check is a bound: every value on the window is at most max |p − g(lo)| + (hi − lo) in
/// magnitude (unit slopes), and when that bound passes [`GRID_LIMIT`] the kernel hands the
/// candidates to [`GridFn::combine`] itself, so a refusal is the generic one.
///
/// A minimum is a maximum of negated candidates, negated back: [`GridFn::lower_envelope`]'s
/// construction, with the same result.
impl GridFn {
    /// T + c: the same window and steps, every value raised by c. Equal to
    /// `lower_envelope(&[(c, self)])`: one candidate's envelope is the candidate, on its own
    /// (trimmed) window.
    pub(crate) fn shifted(&self, c: i64) -> Result<GridFn, GridError> {
        let first = i64::from(self.first) + c;
        let last = i64::from(self.last) + c;
        if c.abs() > GRID_LIMIT || first.abs() > GRID_LIMIT || last.abs() > GRID_LIMIT {
            return Err(GridError::Range);
        }
        Ok(GridFn {
            first: first as i32,
            last: last as i32,
            parity: (first - self.lo).rem_euclid(2) as u8,
            ..self.clone()
        })
    }

    /// min(t, c + g): one step of the running minimum, equal to
    /// `lower_envelope(&[(0, t), (c, g)])`.
    pub(crate) fn min_step(
        t: &GridFn,
        c: i64,
        g: &GridFn,
        scratch: &mut Scratch,
    ) -> Result<GridFn, GridError> {
        // min(P + F) = −max(−P − F).
        Ok(GridFn::max_of_differences(&[(0, t), (-c, g)], scratch)?.negated())
    }

    /// max over (p − g): equal to [`GridFn::combine`].
    pub(crate) fn max_of_differences(
        cands: &[(i64, &GridFn)],
        scratch: &mut Scratch,
    ) -> Result<GridFn, GridError> {
        let (lo, hi, left, right) = window(cands)?;
        let span = hi - lo;
        let Scratch { words, values } = scratch;
        values.clear();
        values.extend(cands.iter().map(|&(p, g)| p - g.at(lo)));
        let widest = values.iter().map(|v| v.abs()).max().expect("non-empty");
        if widest + span > GRID_LIMIT {
            // Some value may be out of range: the generic combine checks every one.
            return GridFn::combine(cands);
        }
        let first_value = *values.iter().max().expect("non-empty");
        // The maximum's steps on the window, and one more word when the point after the last
        // step starts one (the knot search reads the right tail there).
        let steps = span as usize;
        words.clear();
        words.resize(
            steps.div_ceil(64) + usize::from(steps.is_multiple_of(64)),
            0,
        );
        for (w, word) in words.iter_mut().enumerate().take(steps.div_ceil(64)) {
            let from = lo + 64 * w as i64;
            let mut best = (0u64, i64::MIN);
            for (&(_, g), value) in cands.iter().zip(values.iter_mut()) {
                // p − g falls where g rises.
                let bits = !g.steps_from(from - g.lo);
                best = if best.1 == i64::MIN {
                    (bits, *value)
                } else {
                    (max_steps(best.0, best.1, bits, *value), best.1.max(*value))
                };
                *value += 2 * i64::from(bits.count_ones()) - 64;
            }
            *word = best.0;
        }
        Ok(trimmed_steps(lo, first_value, words, steps, left, right))
    }
}

/// The window [lo, hi] and the tail slopes of max over (p − g), with [`GridFn::combine`]'s
/// parity and range checks. `cands` must be non-empty.
fn window(cands: &[(i64, &GridFn)]) -> Result<(i64, i64, i8, i8), GridError> {
    let class = |&(p, g): &(i64, &GridFn)| (p + i64::from(g.parity)).rem_euclid(2);
    let c0 = class(&cands[0]);
    if cands.iter().any(|c| class(c) != c0) {
        return Err(GridError::Parity);
    }
    if cands.iter().any(|&(p, _)| p.abs() > GRID_LIMIT) {
        return Err(GridError::Range);
    }
    let (hi, right) = right_edge(cands);
    let (lo, left) = left_edge(cands);
    if lo.abs() > GRID_LIMIT || hi.abs() > GRID_LIMIT {
        return Err(GridError::Range);
    }
    Ok((lo, hi, left, right))
}

/// Buffers the kernels reuse from call to call, one per thread.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// The maximum's steps on its window.
    words: Vec<u64>,
    /// Each candidate's value at the start of the current word.
    values: Vec<i64>,
}

impl GridFn {
    /// Bit j: the step from index r + j to r + j + 1 of the window (indices relative to `lo`)
    /// rises, with the tail slopes outside the window.
    fn steps_from(&self, r: i64) -> u64 {
        let steps = i64::from(self.len) - 1;
        if r >= 0 && r + 64 <= steps {
            return funnel(&self.rises, r as usize);
        }
        let tail = |slope: i8| if slope > 0 { u64::MAX } else { 0 };
        // Bits below `inside_from` read the left tail, bits from `inside_to` on the right one.
        let inside_from = (-r).clamp(0, 64) as u32;
        let inside_to = (steps - r).clamp(0, 64) as u32;
        let mut bits =
            (tail(self.left) & low_bits(inside_from)) | (tail(self.right) & !low_bits(inside_to));
        if inside_from < inside_to {
            let inside = funnel(&self.rises, (r + i64::from(inside_from)) as usize) << inside_from;
            bits |= inside & low_bits(inside_to) & !low_bits(inside_from);
        }
        bits
    }
}

/// The 64 bits of `words` from bit `pos` on (zeros past the end).
fn funnel(words: &[u64], pos: usize) -> u64 {
    let (w, s) = (pos / 64, pos % 64);
    let low = words.get(w).copied().unwrap_or(0) >> s;
    if s == 0 {
        low
    } else {
        low | (words.get(w + 1).copied().unwrap_or(0) << (64 - s))
    }
}

/// The lowest n bits set (n ≤ 64).
fn low_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The steps of max(a, b) over 64 grid points, given the steps of a and b there and their
/// values va, vb at the first point (va − vb even).
///
/// Where a and b take the same step, the difference stays and so does the maximum's step (a's
/// step, which is b's); only the n points where they differ move it, by ±2 each. So with
/// d ≥ 2n one candidate stays above at each of those points (the difference there is at least
/// d − 2(n − 1) > 0) and wins the word, and so on for d ≤ −2n. A few such points are visited
/// one by one; many go through the bytes.
fn max_steps(a: u64, va: i64, b: u64, vb: i64) -> u64 {
    let mut d = va - vb;
    let differ = a ^ b;
    let n = i64::from(differ.count_ones());
    if d >= 2 * n {
        return a;
    }
    if d <= -2 * n {
        return b;
    }
    if n <= SPARSE_DIFFERENCES {
        return max_steps_sparse(a, d, differ);
    }
    let mut out = 0u64;
    for k in 0..8 {
        let (ba, bb) = ((a >> (8 * k)) as u8, (b >> (8 * k)) as u8);
        let byte = if d >= 16 {
            ba
        } else if d <= -16 {
            bb
        } else {
            max_steps_byte(ba, bb, d as i8)
        };
        out |= u64::from(byte) << (8 * k);
        d += i64::from(BYTE_NET[usize::from(ba)] - BYTE_NET[usize::from(bb)]);
    }
    out
}

/// At most this many points where two candidates' steps differ are visited one by one in
/// [`max_steps`] (a branch-free handful of operations each); more go a byte at a time.
const SPARSE_DIFFERENCES: i64 = 12;

/// [`max_steps`] at the points where a and b differ (`differ` = a ^ b), visited in order with
/// the difference d there: a's step where a is above, b's (not a's) where b is, and a rise
/// where they meet (one of them rises). Elsewhere the maximum's step is a's.
fn max_steps_sparse(a: u64, mut d: i64, mut differ: u64) -> u64 {
    let mut out = a & !differ;
    while differ != 0 {
        let i = differ.trailing_zeros();
        let rise_a = (a >> i) & 1;
        let (above, meet, below) = (u64::from(d > 0), u64::from(d == 0), u64::from(d < 0));
        out |= ((above & rise_a) | meet | (below & (rise_a ^ 1))) << i;
        // a rises and b falls: the difference grows by 2; the other way round it shrinks.
        d += 4 * rise_a as i64 - 2;
        differ &= differ - 1;
    }
    out
}

/// [`max_steps`] over eight points, |d| ≤ 14: the difference at each point from the steps'
/// offsets, then a's step where a is above, b's where b is, either's rise where they meet.
fn max_steps_byte(ba: u8, bb: u8, d: i8) -> u8 {
    let (oa, ob) = (
        &BYTE_OFFSETS[usize::from(ba)],
        &BYTE_OFFSETS[usize::from(bb)],
    );
    let diff: [i8; 8] = std::array::from_fn(|j| d + oa[j] - ob[j]);
    let flags = |f: fn(i8) -> bool| {
        let bytes: [u8; 8] = std::array::from_fn(|j| u8::from(f(diff[j])));
        gather_bits(u64::from_le_bytes(bytes)) as u8
    };
    let (above, below) = (flags(|x| x > 0), flags(|x| x < 0));
    let meet = !(above | below);
    (ba & above) | (bb & below) | ((ba | bb) & meet)
}

/// The function with value `first_value` at `lo`, the `steps` step bits of `words` after it
/// and these tails, trimmed to its first and last knot as [`trimmed`] trims a window of values.
/// `words` must hold a bit for the point after the last step (its content is overwritten).
fn trimmed_steps(
    lo: i64,
    first_value: i64,
    words: &mut [u64],
    steps: usize,
    left: i8,
    right: i8,
) -> GridFn {
    // The stream of slopes: bits past the last step read the right tail, bit −1 the left one.
    let (lbit, rbit) = (u64::from(left > 0), u64::from(right > 0));
    let (w_end, b_end) = (steps / 64, steps % 64);
    words[w_end] = (words[w_end] & low_bits(b_end as u32)) | ((rbit * u64::MAX) << b_end);
    let used = &words[..=w_end];
    // Point i is a knot when the slopes before and after it differ (i ≤ steps).
    let knots = |w: usize| {
        let carry = if w == 0 { lbit } else { used[w - 1] >> 63 };
        let x = used[w] ^ ((used[w] << 1) | carry);
        if w == w_end {
            x & low_bits(b_end as u32 + 1)
        } else {
            x
        }
    };
    let first_knot = (0..=w_end)
        .find_map(|w| {
            let x = knots(w);
            (x != 0).then(|| 64 * w + x.trailing_zeros() as usize)
        })
        .unwrap_or(0);
    let last_knot = (0..=w_end)
        .rev()
        .find_map(|w| {
            let x = knots(w);
            (x != 0).then(|| 64 * w + 63 - x.leading_zeros() as usize)
        })
        .unwrap_or(0);
    let rises_before = count_ones_below(used, first_knot);
    let first = first_value + 2 * rises_before as i64 - first_knot as i64;
    let kept = last_knot - first_knot;
    let mut rises = vec![0u64; kept.div_ceil(64)];
    for (j, word) in rises.iter_mut().enumerate() {
        *word = funnel(used, first_knot + 64 * j);
    }
    if let Some(end) = rises.last_mut() {
        *end &= low_bits((kept - 64 * (kept.div_ceil(64) - 1)) as u32);
    }
    let up: u32 = rises.iter().map(|w| w.count_ones()).sum();
    let last = first + 2 * i64::from(up) - kept as i64;
    let new_lo = lo + first_knot as i64;
    GridFn {
        lo: new_lo,
        first: first as i32,
        last: last as i32,
        len: kept as u32 + 1,
        rises: rises.into_boxed_slice(),
        left,
        right,
        parity: (first - new_lo).rem_euclid(2) as u8,
    }
}

/// Set bits of `words` below bit `n`.
fn count_ones_below(words: &[u64], n: usize) -> u32 {
    let (w, b) = (n / 64, n % 64);
    let full: u32 = words[..w].iter().map(|x| x.count_ones()).sum();
    full + words
        .get(w)
        .map_or(0, |x| (x & low_bits(b as u32)).count_ones())
}

/// [`GridFn::knot_words`]'s iterator.
struct KnotWords<'a> {
    rises: &'a [u64],
    steps: usize,
    /// The next word of `rises`.
    next: usize,
    /// The step before the next word (the first step itself before word 0).
    carry: u64,
    /// F at the start of the next word.
    value: i32,
    /// Bit 0 set when index 0 is a knot (the left tail differs from the first step).
    first_knot: u64,
    /// The last index, `steps`, is a knot (the last step differs from the right tail).
    last_knot: bool,
    /// The item after the words: the last index when it opens a word of its own, or the single
    /// point of a one-point window.
    extra: Option<(u64, usize, i32, u64)>,
}

impl Iterator for KnotWords<'_> {
    type Item = (u64, usize, i32, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let w = self.next;
        let Some(&word) = self.rises.get(w) else {
            return self.extra.take();
        };
        // Interior indices 64w + j ≤ steps − 1 compare two steps; the bits past the last step
        // are zero.
        let live = (self.steps - 64 * w).min(64);
        let mut changes = (word ^ ((word << 1) | self.carry)) & low_bits(live as u32);
        if w == 0 {
            changes |= self.first_knot;
        }
        if live < 64 && self.last_knot {
            // The last index, steps, falls in this word.
            changes |= 1 << live;
        }
        let item = (changes, 64 * w, self.value, word);
        self.next = w + 1;
        self.carry = word >> 63;
        self.value += 2 * word.count_ones() as i32 - 64;
        Some(item)
    }
}

/// What a table row shows of one payoff; see [`GridFn::summary`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridSummary {
    /// Number of breakpoints.
    pub breakpoints: usize,
    /// c⁻: the intercept of the left tail line.
    pub c_minus: Q,
    /// c⁺: the intercept of the right tail line.
    pub c_plus: Q,
    /// The payoff in [`Pwl`]'s `Display` form.
    pub text: String,
}

/// [`GridFn::summary`]'s numbers without the text, as [`GridFn::summary_parts`] returns them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SummaryParts {
    /// Number of breakpoints.
    pub breakpoints: usize,
    /// c⁻ as (numerator, denominator), not reduced.
    pub c_minus: (i64, i64),
    /// c⁺ as (numerator, denominator), not reduced.
    pub c_plus: (i64, i64),
}

/// Appends a/s in lowest terms as [`Q`] prints it (s > 0). Whole tables print millions of
/// these, so integers (s = 1, Scoring Nim's scale) skip the gcd and `fmt`'s machinery.
fn push_fraction(text: &mut Vec<u8>, a: i64, s: i64) {
    if s == 1 {
        push_integer(text, a);
        return;
    }
    let g = num_integer::Integer::gcd(&a, &s);
    push_integer(text, a / g);
    if s != g {
        text.push(b'/');
        push_integer(text, s / g);
    }
}

/// Appends an integer in decimal, as `Display` writes it: [`put_small_integer`] below 10⁴ in
/// magnitude (almost all of a table's knots), `itoa` above.
fn push_integer(text: &mut Vec<u8>, n: i64) {
    if n.unsigned_abs() >= SMALL_INTEGER {
        text.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
        return;
    }
    let len = text.len();
    text.resize(len + 8, 0);
    let width = put_small_integer(text, len, n);
    text.truncate(len + width);
}

/// Integers below this in magnitude are written by [`put_small_integer`].
const SMALL_INTEGER: u64 = 10_000;

/// Writes n (|n| < 10⁴) in decimal at `room[at..]`, as `Display` writes it, and returns its
/// length; `room` must have eight bytes from `at`, some of which may be overwritten past the
/// number. The lengths vary from knot to knot, so a branch on them would be mispredicted
/// often: the sign and the digits ([`SMALL_DIGITS`]) go into one word, which is stored whole.
fn put_small_integer(room: &mut [u8], at: usize, n: i64) -> usize {
    let u = n.unsigned_abs() as usize;
    debug_assert!(u < SMALL_INTEGER as usize);
    let width = 1 + usize::from(u >= 10) + usize::from(u >= 100) + usize::from(u >= 1000);
    let negative = usize::from(n < 0);
    let word = (u64::from(SMALL_DIGITS[u]) << (8 * negative)) | (u64::from(b'-') * negative as u64);
    room[at..at + 8].copy_from_slice(&word.to_le_bytes());
    width + negative
}

/// The sign and digits of n (|n| < 10⁴) as [`put_small_integer`] writes them, in the low
/// bytes of a word from bit `shift` on, and their length: no branch, the width read off the
/// digits' highest byte.
#[inline(always)]
fn small_integer_word(n: i64, shift: u32) -> (u64, usize) {
    let u = n.unsigned_abs() as usize;
    debug_assert!(u < SMALL_INTEGER as usize);
    let digits = u64::from(SMALL_DIGITS[u]);
    // The digits are non-zero bytes ('0' is 0x30), so the highest set bit tells their count.
    let width = (64 - digits.leading_zeros() as usize).div_ceil(8);
    let negative = u64::from(n < 0);
    let word = (u64::from(b'-') * negative) | (digits << (8 * negative));
    (word << shift, width + negative as usize)
}

/// ` (M,` of a knot at M (|M| < 10⁴) as one word of at most seven bytes, and its length.
#[inline(always)]
fn knot_opening(m: i64) -> (u64, usize) {
    let (number, width) = small_integer_word(m, 16);
    (u64::from_le_bytes(*b" (\0\0\0\0\0\0") | number, 2 + width)
}

/// `,F)` of a knot with value F (|F| < 10⁴) as one word of at most seven bytes, and its
/// length.
#[inline(always)]
fn knot_closing(value: i64) -> (u64, usize) {
    let (number, width) = small_integer_word(value, 8);
    (
        u64::from(b',') | number | (u64::from(b')') << (8 * (1 + width))),
        2 + width,
    )
}

/// The decimal digits of every integer below [`SMALL_INTEGER`], in reading order from the
/// lowest byte, with no leading zero: one load per integer.
static SMALL_DIGITS: [u32; SMALL_INTEGER as usize] = {
    let mut table = [0u32; SMALL_INTEGER as usize];
    let mut u = 0;
    while u < SMALL_INTEGER as usize {
        let [a, b] = DIGIT_PAIRS[u / 100];
        let [c, d] = DIGIT_PAIRS[u % 100];
        let digits = u32::from_le_bytes([a, b, c, d]);
        let width = 1 + (u >= 10) as usize + (u >= 100) as usize + (u >= 1000) as usize;
        table[u] = digits >> (8 * (4 - width));
        u += 1;
    }
    table
};

/// "00" to "99".
const DIGIT_PAIRS: [[u8; 2]; 100] = {
    let mut pairs = [[0u8; 2]; 100];
    let mut i = 0;
    while i < 100 {
        pairs[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    pairs
};

/// Right end of the parent window and its right tail slope, from the candidates' tail lines.
fn right_edge(cands: &[(i64, &GridFn)]) -> (i64, i8) {
    let x = cands.iter().map(|(_, g)| g.hi()).max().expect("non-empty");
    let (mut best, mut best_up, mut best_plus) = (i64::MIN, false, None::<i64>);
    for &(p, g) in cands {
        let (v, up) = (p - g.at(x), g.right < 0);
        if v > best {
            (best, best_up) = (v, up);
        } else if v == best && up {
            best_up = true;
        }
        if up {
            best_plus = Some(best_plus.map_or(v, |b| b.max(v)));
        }
    }
    match (best_up, best_plus) {
        (true, _) => (x, 1),
        // A rising line overtakes the best falling one where they meet; parity makes this integral.
        (false, Some(vp)) => (x + (best - vp) / 2, 1),
        (false, None) => (x, -1),
    }
}

/// Left end of the parent window and its left tail slope (mirror image of [`right_edge`]).
fn left_edge(cands: &[(i64, &GridFn)]) -> (i64, i8) {
    let y = cands.iter().map(|(_, g)| g.lo).min().expect("non-empty");
    let (mut best, mut best_down, mut best_minus) = (i64::MIN, false, None::<i64>);
    for &(p, g) in cands {
        // The candidate's slope left of its window is −g.left; "down" = slope −1 = grows leftwards.
        let (w, down) = (p - g.at(y), g.left > 0);
        if w > best {
            (best, best_down) = (w, down);
        } else if w == best && down {
            best_down = true;
        }
        if down {
            best_minus = Some(best_minus.map_or(w, |b| b.max(w)));
        }
    }
    match (best_down, best_minus) {
        (true, _) => (y, -1),
        (false, Some(wm)) => (y - (best - wm) / 2, -1),
        (false, None) => (y, 1),
    }
}

/// out[M − lo] = max(out[M − lo], p − g(M)) over the whole window.
fn accumulate(out: &mut [i32], lo: i64, p: i64, g: &GridFn) {
    let hi = lo + out.len() as i64 - 1;
    let (glo, ghi) = (g.lo, g.hi());
    // Left of the child's window: p − g(M) is an arithmetic progression with step −g.left.
    let left_end = hi.min(glo - 1);
    if lo <= left_end {
        let mut c = p - g.at(lo);
        let step = -i64::from(g.left);
        for slot in &mut out[..=((left_end - lo) as usize)] {
            *slot = (*slot).max(c as i32);
            c += step;
        }
    }
    let (mid_lo, mid_hi) = (lo.max(glo), hi.min(ghi));
    if mid_lo <= mid_hi {
        let p32 = p as i32;
        let dst = &mut out[(mid_lo - lo) as usize..=(mid_hi - lo) as usize];
        DECODED.with(|buffer| {
            let mut buffer = buffer.borrow_mut();
            let src = g.decode((mid_lo - glo) as usize, dst.len(), &mut buffer);
            for (d, &v) in dst.iter_mut().zip(src) {
                *d = (*d).max(p32 - v);
            }
        });
    }
    let right_start = lo.max(ghi + 1);
    if right_start <= hi {
        let mut c = p - g.at(right_start);
        let step = -i64::from(g.right);
        for slot in &mut out[(right_start - lo) as usize..] {
            *slot = (*slot).max(c as i32);
            c += step;
        }
    }
}

thread_local! {
    /// Scratch space for [`GridFn::decode`] in [`accumulate`], one per thread.
    static DECODED: std::cell::RefCell<Vec<i32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// For each byte of step bits, the values after 0, 1, …, 7 of its steps relative to the value
/// before them: decoding eight steps is then one table row plus a constant.
const BYTE_OFFSETS: [[i8; 8]; 256] = {
    let mut table = [[0i8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut offset = 0i8;
        let mut step = 0;
        while step < 8 {
            table[byte][step] = offset;
            offset += if (byte >> step) & 1 == 1 { 1 } else { -1 };
            step += 1;
        }
        byte += 1;
    }
    table
};

/// For each byte of step bits, the value after its eight steps relative to the value before
/// them (twice the rises minus eight): a table, as the build targets plain x86-64, where a
/// popcount is a dozen instructions.
const BYTE_NET: [i8; 256] = {
    let mut table = [0i8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = 2 * (byte as u8).count_ones() as i8 - 8;
        byte += 1;
    }
    table
};

/// Trims a freshly computed window to its first and last breakpoint.
fn trimmed(lo: i64, out: &[i32], left: i8, right: i8) -> GridFn {
    let n = out.len();
    debug_assert!(
        out.windows(2).all(|w| (w[1] - w[0]).abs() == 1),
        "unit slopes"
    );
    let slope_after = |i: usize| {
        if i + 1 == n {
            i32::from(right)
        } else {
            out[i + 1] - out[i]
        }
    };
    let slope_before = |i: usize| {
        if i == 0 {
            i32::from(left)
        } else {
            out[i] - out[i - 1]
        }
    };
    let is_knot = |i: usize| slope_before(i) != slope_after(i);
    let (first, last) = match (
        (0..n).find(|&i| is_knot(i)),
        (0..n).rev().find(|&i| is_knot(i)),
    ) {
        (Some(a), Some(b)) => (a, b),
        _ => (0, 0),
    };
    let new_lo = lo + first as i64;
    let values = &out[first..=last];
    let rises = pack_rises(values);
    let parity = (i64::from(values[0]) - new_lo).rem_euclid(2) as u8;
    GridFn {
        lo: new_lo,
        first: values[0],
        last: values[values.len() - 1],
        len: values.len() as u32,
        rises: rises.into_boxed_slice(),
        left,
        right,
        parity,
    }
}

/// The step bits of consecutive values: word w holds the steps from value 64·w to value
/// 64·w + 64, bit j set when the value rises. Eight steps at a time become eight bytes of 0 or 1
/// (compares the compiler vectorizes), gathered into a byte by one multiplication.
fn pack_rises(values: &[i32]) -> Vec<u64> {
    let steps = values.len() - 1;
    let mut rises = vec![0u64; steps.div_ceil(64)];
    for (w, word) in rises.iter_mut().enumerate() {
        let base = 64 * w;
        let end = (base + 64).min(steps);
        let mut bits = 0u64;
        let mut j = base;
        while j + 8 <= end {
            let run: &[i32; 9] = values[j..j + 9].try_into().expect("nine values");
            let flags: [u8; 8] = std::array::from_fn(|i| u8::from(run[i + 1] > run[i]));
            bits |= gather_bits(u64::from_le_bytes(flags)) << (j - base);
            j += 8;
        }
        for j in j..end {
            bits |= u64::from(values[j + 1] > values[j]) << (j - base);
        }
        *word = bits;
    }
    rises
}

/// Bit j of the result is byte j of `bytes`, each byte 0 or 1: the product adds byte j, shifted
/// to bit 56 + j, to the top byte, and the other partial products stay below bit 56 or
/// overflow away (checked for all 256 patterns in the tests).
fn gather_bits(bytes: u64) -> u64 {
    bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

#[cfg(test)]
mod tests {
    use proptest::prelude::RngExt;
    use proptest::test_runner::{RngAlgorithm, TestRng};

    use super::*;

    #[test]
    fn one_heap_payoffs_match_equation_1() {
        // f(1) = 1 + N; f(x) = x − 1 + |1 + N| for x ≥ 2 (Scoring Nim eq. (1)).
        let t = GridFn::terminal();
        let mut heaps = vec![t.clone()];
        for x in 1..=6i64 {
            let cands: Vec<(i64, &GridFn)> = (0..x)
                .map(|left| (x - left, &heaps[left as usize]))
                .collect();
            let f = GridFn::combine(&cands).unwrap();
            heaps.push(f);
        }
        assert_eq!(heaps[1].to_pwl(1), Pwl::linear(Q::int(1), Q::int(1)));
        for x in 2..=6 {
            for n in -10..=10 {
                assert_eq!(
                    heaps[x as usize].at(n),
                    x - 1 + (1 + n).abs(),
                    "x={x} N={n}"
                );
            }
        }
    }

    #[test]
    fn eval_agrees_with_the_exact_pwl_inside_and_outside_the_window() {
        let t = GridFn::terminal();
        let two = GridFn::combine(&[(1, &t)]).unwrap();
        let f = GridFn::combine(&[(4, &t), (1, &two), (5, &two)]).unwrap();
        for (g, scale) in [(&f, 2), (&two, 1)] {
            let pwl = g.to_pwl(scale);
            for i in -40..=40 {
                let n = Q::frac(i, 4);
                assert_eq!(g.eval(&n, scale), pwl.eval(&n), "N = {n}, scale {scale}");
            }
        }
    }

    #[test]
    fn summary_matches_the_exact_pwl_at_every_scale() {
        // Random-ish trees of combines with even and odd points, printed at several scales.
        let t = GridFn::terminal();
        let mut fns = vec![t.clone()];
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut next = |m: u64| rng.random_range(0..m);
        for _ in 0..300 {
            let k = 1 + next(4) as usize;
            let parity = next(2) as i64;
            let picks: Vec<(i64, usize)> = (0..k)
                .map(|_| (next(fns.len() as u64) as usize, next(9) as i64 - 4))
                .map(|(i, p)| (2 * p + ((parity + i64::from(fns[i].parity)) % 2), i))
                .collect();
            let cands: Vec<(i64, &GridFn)> = picks.iter().map(|&(p, i)| (p, &fns[i])).collect();
            let f = GridFn::combine(&cands).expect("one parity class");
            fns.push(f);
        }
        for f in &fns {
            for scale in [1, 2, 3, 4, 6] {
                let pwl = f.to_pwl(scale);
                let s = f.summary(scale);
                assert_eq!(s.text, pwl.to_string());
                assert_eq!(s.breakpoints, pwl.breakpoints().len());
                assert_eq!(s.c_minus, pwl.left_intercept());
                assert_eq!(s.c_plus, pwl.right_intercept());
            }
        }
    }

    #[test]
    fn fractions_print_as_rationals_do() {
        for a in [
            0,
            1,
            -1,
            9,
            -10,
            12345,
            i64::from(i32::MIN),
            i64::MAX,
            i64::MIN + 1,
        ] {
            for s in [1, 2, 3, 6] {
                let mut text = Vec::new();
                push_fraction(&mut text, a, s);
                assert_eq!(text, Q::frac(a, s).to_string().as_bytes(), "{a}/{s}");
            }
        }
        // Every integer around the digit-pair path's bounds, and the extremes.
        let around = (-10_100..=10_100).chain([i64::MIN, i64::MAX, -99_999, 123_456]);
        for n in around {
            let mut text = b"x".to_vec();
            push_integer(&mut text, n);
            assert_eq!(text, format!("x{n}").as_bytes());
        }
    }

    #[test]
    fn knots_near_ten_thousand_print_as_the_exact_pwl() {
        // Windows and values on both sides of the small-integer writer's bound, at scale 1
        // (the fast path) and 2.
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        for (lo, start) in [
            (9_960, 0),
            (-10_030, 0),
            (0, 9_970),
            (-40, -9_990),
            (9_990, 9_993),
            (-30, 0),
        ] {
            for len in [2, 20, 60, 130] {
                let f = walk(
                    &mut rng,
                    lo,
                    start + (lo - i64::from(start)).rem_euclid(2) as i32,
                    len,
                );
                for scale in [1, 2] {
                    let mut text = b"x".to_vec();
                    f.write_text_bytes(scale, &mut text);
                    assert_eq!(text, format!("x{}", f.to_pwl(scale)).as_bytes());
                }
            }
        }
    }

    /// The maximum's steps point by point: the plain definition [`max_steps`] must equal.
    fn max_steps_pointwise(a: u64, va: i64, b: u64, vb: i64) -> u64 {
        let (mut x, mut y, mut out) = (va, vb, 0u64);
        for j in 0..64 {
            let (sa, sb) = (2 * ((a >> j) & 1) as i64 - 1, 2 * ((b >> j) & 1) as i64 - 1);
            if (x + sa).max(y + sb) > x.max(y) {
                out |= 1 << j;
            }
            (x, y) = (x + sa, y + sb);
        }
        out
    }

    #[test]
    fn maximum_steps_are_the_pointwise_maximum() {
        // Words differing in few and in many points (both of max_steps' paths), differences
        // near and beyond the shortcuts' bounds.
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        for _ in 0..20_000 {
            let a: u64 = rng.random();
            let flips = match rng.random_range(0..3) {
                0 => 0,
                1 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
                _ => rng.random::<u64>(),
            };
            let b = a ^ flips;
            let d = 2 * rng.random_range(-70i64..=70);
            let vb = rng.random_range(-1000i64..1000);
            assert_eq!(
                max_steps(a, vb + d, b, vb),
                max_steps_pointwise(a, vb + d, b, vb),
                "a {a:#x} b {b:#x} d {d}"
            );
        }
    }

    #[test]
    fn gathered_bits_are_the_bytes_in_order() {
        for pattern in 0u64..256 {
            let bytes = (0..8).fold(0u64, |b, j| b | (((pattern >> j) & 1) << (8 * j)));
            assert_eq!(gather_bits(bytes), pattern);
        }
    }

    #[test]
    fn packed_steps_decode_to_the_values_at_every_offset() {
        // Random walks of many lengths around byte and word boundaries, every start.
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        for len in 1..=200usize {
            let mut walk = vec![0i32];
            for _ in 1..len {
                walk.push(walk[walk.len() - 1] + if rng.random() { 1 } else { -1 });
            }
            let f = trimmed(-3, &walk, -1, 1);
            // The window kept: from the first knot to the last.
            let first = (f.lo + 3) as usize;
            let kept = &walk[first..first + f.len as usize];
            let mut buffer = Vec::new();
            for from in 0..kept.len() {
                assert_eq!(
                    f.decode(from, kept.len() - from, &mut buffer),
                    &kept[from..]
                );
                let direct: Vec<i32> = (from..kept.len()).map(|i| f.value_at_index(i)).collect();
                assert_eq!(direct, &kept[from..]);
                assert_eq!(f.at(f.lo + from as i64), i64::from(kept[from]));
            }
            let negated = f.clone().negated();
            assert_eq!(negated.at(-3), -f.at(-3));
            assert_eq!(negated.negated(), f);
        }
    }

    /// Grid functions of every shape: random trees of generic combines over the terminal
    /// payoff, in both parity classes, with windows of one point up to a few words of steps.
    fn random_functions(seed: [u8; 32], count: usize) -> Vec<GridFn> {
        let mut fns = vec![GridFn::terminal()];
        let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut next = |m: u64| rng.random_range(0..m);
        while fns.len() < count {
            let k = 1 + next(4) as usize;
            let parity = next(2) as i64;
            let spread = [9, 40, 300][next(3) as usize];
            let picks: Vec<(i64, usize)> = (0..k)
                .map(|_| {
                    (
                        next(fns.len() as u64) as usize,
                        next(spread) as i64 - spread as i64 / 2,
                    )
                })
                .map(|(i, p)| (2 * p + ((parity + i64::from(fns[i].parity)) % 2), i))
                .collect();
            let cands: Vec<(i64, &GridFn)> = picks.iter().map(|&(p, i)| (p, &fns[i])).collect();
            let f = GridFn::combine(&cands).expect("one parity class");
            fns.push(f);
        }
        fns
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// The running minimum's kernels give the generic combines' functions bit for bit
        /// (window, steps, tails) and their refusals, on random functions and offsets.
        #[test]
        fn kernels_equal_the_generic_combines(
            seed in proptest::prelude::any::<[u8; 32]>(),
            picks in proptest::collection::vec((0usize..60, -300i64..300), 1..5),
            mixed in proptest::prelude::any::<bool>(),
        ) {
            let fns = random_functions(seed, 60);
            let mut scratch = Scratch::default();
            // One parity class (P + parity of F, for a minimum as for a maximum), unless mixed.
            let class = |p: i64, i: usize| (p + i64::from(fns[i].parity)).rem_euclid(2);
            let (p0, i0) = (picks[0].1, picks[0].0);
            let cands: Vec<(i64, &GridFn)> = picks
                .iter()
                .map(|&(i, p)| {
                    let p = if mixed || class(p, i) == class(p0, i0) { p } else { p + 1 };
                    (p, &fns[i])
                })
                .collect();
            proptest::prop_assert_eq!(
                GridFn::max_of_differences(&cands, &mut scratch),
                GridFn::combine(&cands)
            );
            let (c, g) = cands[0];
            proptest::prop_assert_eq!(g.shifted(c), GridFn::lower_envelope(&[(c, g)]));
            for &(pt, t) in &cands[1..] {
                // T + pt is in the class of c + g unless mixed.
                let Ok(t) = GridFn::lower_envelope(&[(pt, t)]) else { continue };
                proptest::prop_assert_eq!(
                    GridFn::min_step(&t, c, g, &mut scratch),
                    GridFn::lower_envelope(&[(0, &t), (c, g)])
                );
            }
        }

        /// Knots found a word at a time are the knots of the decoded values, and the summary's
        /// numbers are the exact ones.
        #[test]
        fn knots_by_words_are_the_decoded_knots(seed in proptest::prelude::any::<[u8; 32]>()) {
            for f in random_functions(seed, 40) {
                let mut found = Vec::new();
                f.for_each_knot(|m, v| found.push((m, i64::from(v))));
                proptest::prop_assert_eq!(&found, &f.knots());
                let pwl = f.to_pwl(2);
                let parts = f.summary_parts(2);
                proptest::prop_assert_eq!(parts.breakpoints, pwl.breakpoints().len());
                proptest::prop_assert_eq!(Q::frac(parts.c_minus.0, 2), pwl.left_intercept());
                proptest::prop_assert_eq!(Q::frac(parts.c_plus.0, 2), pwl.right_intercept());
            }
        }
    }

    /// A random walk of `len` points from `start`, as a grid function on [lo, lo + len − 1]
    /// with random tails (trimmed to its knots).
    fn walk(rng: &mut TestRng, lo: i64, start: i32, len: usize) -> GridFn {
        let mut values = vec![start];
        for _ in 1..len {
            let step = if rng.random() { 1 } else { -1 };
            values.push(values[values.len() - 1] + step);
        }
        let tail = |up: bool| if up { 1 } else { -1 };
        trimmed(lo, &values, tail(rng.random()), tail(rng.random()))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Long walks that stay close to each other (the kernels compare them point by point
        /// within a byte), cross now and then (a byte or a word decided at once) or lie far
        /// apart: the kernels give the generic combines' functions, window for window.
        #[test]
        fn kernels_equal_the_generic_combines_on_long_close_walks(
            seed in proptest::prelude::any::<[u8; 32]>(),
            count in 1usize..=4,
            apart in proptest::prelude::prop_oneof![0i64..4, 0i64..40, 0i64..400],
        ) {
            let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
            let fns: Vec<GridFn> = (0..count)
                .map(|_| {
                    let lo: i64 = rng.random_range(-150..150);
                    let len = rng.random_range(1..700);
                    // Same parity class: the start's parity follows lo's.
                    let start = 2 * rng.random_range(-10..10) + (lo.rem_euclid(2) as i32);
                    walk(&mut rng, lo, start, len)
                })
                .collect();
            let cands: Vec<(i64, &GridFn)> = fns
                .iter()
                .map(|g| (2 * rng.random_range(-apart..=apart), g))
                .collect();
            let mut scratch = Scratch::default();
            proptest::prop_assert_eq!(
                GridFn::max_of_differences(&cands, &mut scratch),
                GridFn::combine(&cands)
            );
            if let [(c, g), (pt, t), ..] = cands[..] {
                let t = GridFn::lower_envelope(&[(pt, t)]).expect("in range");
                proptest::prop_assert_eq!(
                    GridFn::min_step(&t, c, g, &mut scratch),
                    GridFn::lower_envelope(&[(0, &t), (c, g)])
                );
            }
        }
    }

    #[test]
    fn kernels_near_the_range_limit_are_the_generic_combines() {
        // Values within a window's width of GRID_LIMIT: the kernel's bound sends them to the
        // generic combine, which keeps what fits and refuses what does not.
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut scratch = Scratch::default();
        for len in [1, 2, 65, 300] {
            let g = walk(&mut rng, -40, 0, len);
            let h = walk(&mut rng, 10, 0, len);
            for p in [
                GRID_LIMIT - 400,
                GRID_LIMIT - 2,
                -GRID_LIMIT + 2,
                GRID_LIMIT,
            ] {
                let cands = [(p, &g), (p, &h)];
                assert_eq!(
                    GridFn::max_of_differences(&cands, &mut scratch),
                    GridFn::combine(&cands),
                    "len {len}, p {p}"
                );
                assert_eq!(
                    GridFn::min_step(&g, p, &h, &mut scratch),
                    GridFn::lower_envelope(&[(0, &g), (p, &h)]),
                    "len {len}, p {p}"
                );
            }
        }
    }

    #[test]
    fn kernels_refuse_what_the_generic_combines_refuse() {
        let t = GridFn::terminal();
        let two = GridFn::combine(&[(1, &t)]).unwrap();
        let mut scratch = Scratch::default();
        // Mixed parity classes.
        assert_eq!(
            GridFn::max_of_differences(&[(1, &t), (2, &t)], &mut scratch),
            Err(GridError::Parity)
        );
        assert_eq!(
            GridFn::min_step(&t, 1, &t, &mut scratch),
            Err(GridError::Parity)
        );
        // Points and values past the grid's range.
        let big = GRID_LIMIT + 2;
        assert_eq!(t.shifted(big), Err(GridError::Range));
        assert_eq!(two.shifted(GRID_LIMIT), Err(GridError::Range));
        assert_eq!(
            GridFn::min_step(&t, big, &t, &mut scratch),
            GridFn::lower_envelope(&[(0, &t), (big, &t)])
        );
        assert_eq!(
            GridFn::max_of_differences(&[(big, &t), (0, &t)], &mut scratch),
            Err(GridError::Range)
        );
    }

    #[test]
    fn mixed_parity_is_refused() {
        let t = GridFn::terminal();
        assert_eq!(GridFn::combine(&[(1, &t), (2, &t)]), Err(GridError::Parity));
        // At scale 2 the same candidates (points doubled) combine to max(2 + M, 4 + M) = 4 + M.
        let f = GridFn::combine(&[(2, &t), (4, &t)]).unwrap();
        assert_eq!(f.to_pwl(2), Pwl::linear(Q::int(1), Q::int(2)));
    }
}
