//! Normal play as a game in its own right: take-and-break games given by an octal or
//! hexadecimal code, their Sprague–Grundy values, and their periods proven by the periodicity
//! theorem — what CGT researchers read in Winning Ways, Flammenkamp's tables and CGSuite's
//! `CheckPeriodicity`, without the scoring machinery.
//!
//! **Rules.** A code 0.d₁d₂…d_k allows removing i beans from a heap when d_i ≠ 0, and the bits of
//! d_i say what may be left of it: bit 1 nothing (only when the heap had exactly i beans), bit 2
//! one non-empty heap, bit 4 two non-empty heaps, bit 8 three (a hexadecimal digit 8–F). The
//! player who cannot move loses. A subtraction set S is the code with d_i = 3 for i ∈ S.
//!
//! **Values.** g(n) = mex of the values of the options of a heap of n, an option's value being
//! the XOR of its heaps' values (Sprague–Grundy); a sum of heaps is worth the XOR of their values
//! and is a second-player win exactly when that is 0.
//!
//! **Periods.** A move removes at most k beans and leaves at most `parts` heaps (1 without bits
//! 4 and 8, 2 for octal codes that break heaps, 3 for hexadecimal ones). If g(n + P) = g(n) for
//! n₀ ≤ n < parts·n₀ + (parts − 1)·P + k (+1 when n₀ = 0), then for every n ≥ n₀: the
//! periodicity theorem of Guy and Smith, extended to three heaps; the proof is at
//! [`prove_take_break_period`]. The search computes doubling prefixes until the check succeeds.
//! Hexadecimal games are often *arithmetic-periodic*, g(n + P) = g(n) + s for n ≥ n₀ with a
//! saltus s > 0; that shape is reported as observed only (nimlab proves no arithmetic period).
//!
//! Octal codes use the scoring engine's memoised branch-free kernel
//! ([`super::scoring::octal_grundy_values`]); hexadecimal codes a direct scan of the three-heap
//! splits, O(n²) per heap, which stops as soon as every value below the next power of two is an
//! option (the mex can then be nothing else).

use std::fmt;
use std::str::FromStr;

use super::scoring::{HeapSize, OctalRules, octal_grundy_values};
use crate::error::{Error, Result};
use crate::miner::{
    ArithmeticPeriodicity, Periodicity, observe_arithmetic_period, observe_period,
    prove_take_break_period,
};
use crate::progress::Progress;

/// The most digits a code may have (as for scoring codes).
pub const MAX_CODE_DIGITS: usize = super::scoring::MAX_DIGITS;

/// The first prefix a period search examines (or 8 windows of k, when larger).
const FIRST_CHECK: usize = 64;

/// A take-and-break code 0.d₁…d_k with hexadecimal digits d_i ≤ 15, trailing zeros removed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeBreakCode {
    digits: Vec<u8>,
}

impl TakeBreakCode {
    /// A code from its digits d₁…d_k (each 0–15).
    pub fn new(mut digits: Vec<u8>) -> Result<TakeBreakCode> {
        if let Some(&d) = digits.iter().find(|&&d| d > 15) {
            return Err(Error::invalid(format!(
                "{d} is not a digit of a take-and-break code (0–15, hexadecimal 0–F)"
            )));
        }
        if digits.len() > MAX_CODE_DIGITS {
            return Err(Error::invalid(format!(
                "a code may have at most {MAX_CODE_DIGITS} digits ({} given)",
                digits.len()
            )));
        }
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            return Err(Error::invalid(
                "the code allows no move at all (every digit is 0)",
            ));
        }
        Ok(TakeBreakCode { digits })
    }

    /// The subtraction game S: d_i = 3 for i ∈ S.
    pub fn subtraction(set: &[HeapSize]) -> Result<TakeBreakCode> {
        let rules =
            OctalRules::subtraction(set, None).map_err(|e| Error::invalid(e.to_string()))?;
        TakeBreakCode::new(rules.digits().to_vec())
    }

    /// The digits d₁…d_k.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The most beans a move removes, k.
    pub fn max_take(&self) -> usize {
        self.digits.len()
    }

    /// The most heaps a move leaves: 3 with a digit ≥ 8, 2 with bit 4, else 1.
    pub fn max_parts(&self) -> usize {
        let bits = self.digits.iter().fold(0u8, |acc, &d| acc | d);
        if bits & 8 != 0 {
            3
        } else if bits & 4 != 0 {
            2
        } else {
            1
        }
    }

    /// Whether every digit is octal (0–7).
    pub fn is_octal(&self) -> bool {
        self.digits.iter().all(|&d| d < 8)
    }

    /// Options examined for the heaps 0..=max_n at most (every split of every heap), the unit of
    /// progress and of the time estimate.
    pub fn option_count(&self, max_n: HeapSize) -> u128 {
        let n = u128::from(max_n);
        self.digits
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let take = i as u128 + 1;
                if take > n {
                    return 0;
                }
                // Heaps rest = 0..=n − take; splits into two: Σ rest/2; into three: Σ rest²/12.
                let m = n - take;
                u128::from(d & 3 != 0) * (m + 1)
                    + u128::from(d & 4 != 0) * (m * (m + 1) / 4)
                    + u128::from(d & 8 != 0) * (m * (m + 1) * (2 * m + 1) / 72)
            })
            .sum()
    }

    /// g(0..=max_n), reporting the options examined to `progress`.
    pub fn grundy_values(&self, max_n: HeapSize, progress: &dyn Progress) -> Vec<u32> {
        let mut g = Vec::new();
        self.extend_grundy_values(&mut g, max_n, progress);
        g
    }

    /// Extends g(0..) to g(0..=max_n).
    fn extend_grundy_values(&self, g: &mut Vec<u32>, max_n: HeapSize, progress: &dyn Progress) {
        if g.len() > max_n as usize {
            return;
        }
        if self.is_octal() {
            let rules = OctalRules::new(self.digits.clone(), None)
                .expect("the digits of an octal take-and-break code are an octal code");
            *g = octal_grundy_values(&rules, max_n, progress);
            return;
        }
        let first = HeapSize::try_from(g.len()).expect("values are kept for heap sizes");
        let before = if first == 0 {
            0
        } else {
            self.option_count(first - 1)
        };
        progress.start(u64::try_from(self.option_count(max_n) - before).unwrap_or(u64::MAX));
        g.reserve(max_n as usize + 1 - g.len());
        let mut seen = Options::default();
        let mut largest = g.iter().copied().max().unwrap_or(0);
        for n in first as usize..=max_n as usize {
            seen.reset(largest);
            let mut examined = 0u64;
            'moves: for (i, &d) in self.digits.iter().enumerate() {
                let take = i + 1;
                if take > n {
                    break;
                }
                let rest = n - take;
                if d & 1 != 0 && rest == 0 {
                    seen.mark(0);
                }
                if d & 2 != 0 && rest >= 1 {
                    seen.mark(g[rest]);
                }
                if d & 4 != 0 && rest >= 2 {
                    for b in 1..=rest / 2 {
                        seen.mark(g[b] ^ g[rest - b]);
                    }
                    examined += (rest / 2) as u64;
                    if seen.all() {
                        break 'moves;
                    }
                }
                if d & 8 != 0 && rest >= 3 {
                    // Heaps a ≤ b ≤ c with a + b + c = rest.
                    for a in 1..=rest / 3 {
                        let (ga, s) = (g[a], rest - a);
                        for b in a..=s / 2 {
                            seen.mark(ga ^ g[b] ^ g[s - b]);
                        }
                        examined += (s / 2 + 1 - a) as u64;
                        if seen.all() {
                            break 'moves;
                        }
                    }
                }
            }
            let mex = seen.mex();
            largest = largest.max(mex);
            g.push(mex);
            progress.advance(examined.max(1));
        }
    }

    /// The least preperiod and period of g, proven by the periodicity theorem on doubling
    /// prefixes g(0..=n), n ≤ `max_n`, or what the data shows when no proof comes by `max_n` or
    /// by the prefix whose options would pass `max_options`.
    pub fn period(
        &self,
        max_n: HeapSize,
        max_options: u128,
        progress: &dyn Progress,
    ) -> NormalPeriod {
        let (k, parts) = (self.max_take(), self.max_parts());
        let mut n = FIRST_CHECK.max(8 * (k + 1)).min(max_n as usize) as HeapSize;
        let mut g = Vec::new();
        let theorem = format!(
            "by the periodicity theorem for moves that remove at most {k} bean{} and leave at most {parts} heap{}",
            if k == 1 { "" } else { "s" },
            if parts == 1 { "" } else { "s" },
        );
        loop {
            self.extend_grundy_values(&mut g, n, progress);
            if let Some(p) = prove_take_break_period(&g, k, parts, &g) {
                let crate::miner::PeriodStatus::Proven {
                    window_start,
                    window_len,
                } = p.status
                else {
                    unreachable!("the theorem's periods are proven")
                };
                return NormalPeriod {
                    shape: GrundyPeriod::Periodic(p.clone()),
                    terms: g.len(),
                    argument: format!(
                        "proven {theorem}: g(n + {}) = g(n) checked for {window_start} ≤ n < {}",
                        p.period,
                        window_start + window_len
                    ),
                    stop: None,
                };
            }
            let next = n.saturating_mul(2).min(max_n);
            let stop = if n >= max_n {
                Some(SearchStop::MaxHeap(max_n))
            } else if self.option_count(next) > max_options {
                Some(SearchStop::Cost(n))
            } else {
                None
            };
            if let Some(stop) = stop {
                return NormalPeriod::observed(&g, stop, &theorem);
            }
            n = next;
        }
    }
}

/// The option values seen at one heap, below the next power of two above every value so far.
#[derive(Default)]
struct Options {
    seen: Vec<bool>,
    count: usize,
}

impl Options {
    /// Starts a heap whose options' values are XORs of values at most `largest`.
    fn reset(&mut self, largest: u32) {
        let full = (largest as usize + 1).next_power_of_two();
        self.seen.clear();
        self.seen.resize(full, false);
        self.count = 0;
    }

    fn mark(&mut self, v: u32) {
        let slot = &mut self.seen[v as usize];
        self.count += usize::from(!*slot);
        *slot = true;
    }

    /// Every value below the power of two is an option: the mex is that power, whatever else.
    fn all(&self) -> bool {
        self.count == self.seen.len()
    }

    fn mex(&self) -> u32 {
        let m = self
            .seen
            .iter()
            .position(|&s| !s)
            .unwrap_or(self.seen.len());
        u32::try_from(m).expect("a mex is at most the number of options")
    }
}

/// The shape of a Grundy sequence's tail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrundyPeriod {
    /// g(n + P) = g(n) for n ≥ n₀, proven or observed.
    Periodic(Periodicity),
    /// g(n + P) = g(n) + s for n ≥ n₀ with s > 0, observed only.
    ArithmeticPeriodic(ArithmeticPeriodicity),
    /// Neither shape in the data examined.
    Unknown,
}

/// Why a period search stopped without a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchStop {
    /// The largest heap allowed was reached.
    MaxHeap(HeapSize),
    /// The next prefix would pass the options budget; the search stopped at this heap.
    Cost(HeapSize),
}

/// The outcome of [`TakeBreakCode::period`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalPeriod {
    /// The shape found.
    pub shape: GrundyPeriod,
    /// Grundy values examined, g(0..terms).
    pub terms: usize,
    /// Why the shape holds, in words.
    pub argument: String,
    /// Why the search stopped short of a proof (`None` when proven).
    pub stop: Option<SearchStop>,
}

impl NormalPeriod {
    fn observed(g: &[u32], stop: SearchStop, theorem: &str) -> NormalPeriod {
        let wide: Vec<u64> = g.iter().map(|&v| u64::from(v)).collect();
        let shape = if let Some(p) = observe_period(g, 3) {
            GrundyPeriod::Periodic(p)
        } else if let Some(a) = observe_arithmetic_period(&wide, 3) {
            GrundyPeriod::ArithmeticPeriodic(a)
        } else {
            GrundyPeriod::Unknown
        };
        let why = match stop {
            SearchStop::MaxHeap(n) => format!("no proof {theorem} on n ≤ {n} (the --max-heap)"),
            SearchStop::Cost(n) => format!(
                "no proof {theorem} on n ≤ {n}; the next prefix would pass the search's budget of options"
            ),
        };
        let argument = match &shape {
            GrundyPeriod::Periodic(_) => format!("{why}; the period is observed only"),
            GrundyPeriod::ArithmeticPeriodic(_) => format!(
                "{why}; the arithmetic period is observed only (nimlab proves no arithmetic periodicity)"
            ),
            GrundyPeriod::Unknown => format!("{why}; no period or arithmetic period is observed"),
        };
        NormalPeriod {
            shape,
            terms: g.len(),
            argument,
            stop: Some(stop),
        }
    }

    /// The last n where the sequence breaks its (arithmetic) period: n₀ − 1, when n₀ > 0.
    pub fn last_exceptional(&self) -> Option<usize> {
        let n0 = match &self.shape {
            GrundyPeriod::Periodic(p) => p.preperiod,
            GrundyPeriod::ArithmeticPeriodic(a) => a.preperiod,
            GrundyPeriod::Unknown => return None,
        };
        n0.checked_sub(1)
    }
}

impl fmt::Display for TakeBreakCode {
    /// `0.137`, `0.F`: hexadecimal digits in upper case.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body: String = self
            .digits
            .iter()
            .map(|&d| char::from_digit(u32::from(d), 16).expect("digits are below 16"))
            .collect();
        write!(f, "0.{}", body.to_uppercase())
    }
}

impl FromStr for TakeBreakCode {
    type Err = Error;

    /// Accepts `0.137`, `.137`, hexadecimal digits (`0.F`, `0.8`), and subtraction sets `{1,2,3}`.
    fn from_str(s: &str) -> Result<TakeBreakCode> {
        let t = s.trim();
        if t.starts_with('{') {
            let set = super::scoring::parse_set(t).map_err(|e| Error::invalid(e.to_string()))?;
            return TakeBreakCode::subtraction(&set);
        }
        let Some((whole, body)) = t.split_once('.') else {
            return Err(Error::invalid(format!(
                "`{}` is not a take-and-break code; write `0.` and its digits, e.g. `0.137` or `0.F`, or a subtraction set such as `{{1,2,3}}`",
                crate::num::excerpt(t)
            )));
        };
        if !(whole.is_empty() || whole == "0") {
            return Err(Error::invalid(format!(
                "`{}`: the digit before the point, `{whole}` (moves that remove no bean), is not supported; only codes 0.d₁d₂… are",
                crate::num::excerpt(t)
            )));
        }
        if body.is_empty() {
            return Err(Error::invalid(format!("`{t}`: the code has no digits")));
        }
        let digits = body
            .chars()
            .enumerate()
            .map(|(i, c)| {
                c.to_digit(16).map(|d| d as u8).ok_or_else(|| {
                    Error::invalid(format!(
                        "`{}`: `{c}` (digit {}) is not a hexadecimal digit 0–9, A–F",
                        crate::num::excerpt(t),
                        i + 1
                    ))
                })
            })
            .collect::<Result<Vec<u8>>>()?;
        TakeBreakCode::new(digits).map_err(|e| Error::invalid(format!("`{t}`: {e}")))
    }
}

/// Most digits a code survey ranges over: 8⁶ − 1 = 262,143 codes.
pub const MAX_SURVEY_DIGITS: u32 = 6;

/// The number of octal codes of at most `max_digits` digits whose last digit is not 0:
/// 7·(1 + 8 + … + 8^(K−1)) = 8^K − 1.
pub fn code_count(max_digits: u32) -> Result<u64> {
    if !(1..=MAX_SURVEY_DIGITS).contains(&max_digits) {
        return Err(Error::invalid(format!(
            "{max_digits} digits: a code survey ranges over codes of 1 to {MAX_SURVEY_DIGITS} digits (8^K − 1 codes)"
        )));
    }
    Ok(8u64.pow(max_digits) - 1)
}

/// Code number `item` of a survey of codes of at most `max_digits` digits: the codes of one
/// digit first, then of two, …; within a length, in lexicographic order of their digits.
pub fn code_at(max_digits: u32, item: u64) -> Result<TakeBreakCode> {
    let mut rest = item;
    for len in 1..=max_digits {
        let of_len = 7 * 8u64.pow(len - 1);
        if rest < of_len {
            // The first len − 1 digits are the base-8 number rest / 7, the last 1 + rest % 7.
            let (mut prefix, last) = (rest / 7, (1 + rest % 7) as u8);
            let mut digits = vec![0u8; len as usize];
            digits[len as usize - 1] = last;
            for d in digits[..len as usize - 1].iter_mut().rev() {
                *d = (prefix % 8) as u8;
                prefix /= 8;
            }
            return TakeBreakCode::new(digits);
        }
        rest -= of_len;
    }
    Err(Error::invalid(format!(
        "code {item} of a survey of {} codes",
        code_count(max_digits)?
    )))
}

/// One surveyed code: its Grundy values' period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeSurveyRow {
    /// The code.
    pub code: TakeBreakCode,
    /// The period search on its Grundy values.
    pub period: NormalPeriod,
}

/// The tally of a code survey.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CodeTally {
    /// Codes surveyed.
    pub codes: u64,
    /// … whose period is proven.
    pub proven: u64,
    /// … with a period observed only.
    pub observed: u64,
    /// … with an arithmetic period observed.
    pub arithmetic: u64,
    /// … with neither.
    pub unknown: u64,
}

impl CodeTally {
    /// Counts one more surveyed code.
    pub fn add(&mut self, row: &CodeSurveyRow) {
        self.codes += 1;
        match &row.period.shape {
            GrundyPeriod::Periodic(p) if p.is_proven() => self.proven += 1,
            GrundyPeriod::Periodic(_) => self.observed += 1,
            GrundyPeriod::ArithmeticPeriodic(_) => self.arithmetic += 1,
            GrundyPeriod::Unknown => self.unknown += 1,
        }
    }

    /// Adds the tally of the codes that follow in survey order (a later shard's).
    pub fn absorb(&mut self, next: CodeTally) {
        self.codes += next.codes;
        self.proven += next.proven;
        self.observed += next.observed;
        self.arithmetic += next.arithmetic;
        self.unknown += next.unknown;
    }
}

/// The codes numbered `items` (see [`code_at`]) surveyed `chunk` at a time in parallel, each
/// period searched up to heap `max_heap`, handed to `each` a batch at a time in survey order.
pub fn survey_codes_in_chunks(
    max_digits: u32,
    items: std::ops::Range<u64>,
    max_heap: HeapSize,
    chunk: usize,
    progress: &dyn Progress,
    each: impl FnMut(Vec<CodeSurveyRow>) -> Result<()>,
) -> Result<()> {
    let total = code_count(max_digits)?;
    if items.end > total {
        return Err(Error::invalid(format!(
            "codes {}..{} of a survey of {total} codes",
            items.start, items.end
        )));
    }
    crate::progress::in_parallel_batches(
        items,
        chunk,
        progress,
        |item| {
            let code = code_at(max_digits, item)?;
            let period = code.period(max_heap, u128::MAX, &crate::progress::Silent);
            Ok(CodeSurveyRow { code, period })
        },
        each,
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::progress::Silent;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// g(n) straight from the definition: every split listed as a multiset of heaps (also the
    /// reference of the octal kernel's sparse-space tests).
    pub(crate) fn naive_grundy(digits: &[u8], max_n: usize) -> Vec<u32> {
        fn splits(total: usize, parts: usize, least: usize, out: &mut Vec<Vec<usize>>) {
            if parts == 0 {
                if total == 0 {
                    out.push(Vec::new());
                }
                return;
            }
            for first in least.max(1)..=total {
                let mut rest = Vec::new();
                splits(total - first, parts - 1, first, &mut rest);
                for mut r in rest {
                    r.insert(0, first);
                    out.push(r);
                }
            }
        }
        let mut g: Vec<u32> = Vec::new();
        for n in 0..=max_n {
            let mut options = BTreeSet::new();
            for (i, &d) in digits.iter().enumerate() {
                let take = i + 1;
                if take > n {
                    break;
                }
                for parts in 0..4 {
                    if d & (1 << parts) == 0 {
                        continue;
                    }
                    let mut all = Vec::new();
                    splits(n - take, parts, 1, &mut all);
                    for heaps in all {
                        options.insert(heaps.iter().fold(0, |acc, &h| acc ^ g[h]));
                    }
                }
            }
            g.push((0..).find(|v| !options.contains(v)).unwrap());
        }
        g
    }

    proptest! {
        /// The fast paths (octal kernel, hexadecimal scan) are the definition, digit by digit.
        #[test]
        fn grundy_values_are_the_definition(digits in proptest::collection::vec(0u8..16, 1..5)) {
            prop_assume!(digits.iter().any(|&d| d != 0));
            let code = TakeBreakCode::new(digits.clone()).unwrap();
            prop_assert_eq!(code.grundy_values(40, &Silent), naive_grundy(&digits, 40));
        }

        /// A proven period holds on data far beyond the prefix that proved it.
        #[test]
        fn proven_periods_hold_beyond_their_proof(digits in proptest::collection::vec(0u8..16, 1..4)) {
            prop_assume!(digits.iter().any(|&d| d != 0));
            let code = TakeBreakCode::new(digits).unwrap();
            let r = code.period(512, 1 << 26, &Silent);
            if let (GrundyPeriod::Periodic(p), None) = (&r.shape, r.stop) {
                let far = code.grundy_values((4 * r.terms) as HeapSize, &Silent);
                for n in p.preperiod..far.len() - p.period {
                    prop_assert_eq!(far[n], far[n + p.period], "n = {}", n);
                }
                prop_assert!(p.preperiod == 0 || far[p.preperiod - 1] != far[p.preperiod - 1 + p.period]);
            }
        }
    }

    #[test]
    fn a_code_survey_lists_every_code_once_in_order() {
        let all: Vec<String> = (0..code_count(2).unwrap())
            .map(|i| code_at(2, i).unwrap().to_string())
            .collect();
        assert_eq!(all.len(), 63);
        assert_eq!(
            &all[..8],
            ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.01"]
        );
        assert_eq!(all.last().unwrap(), "0.77");
        let mut distinct = all.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 63);
        assert!(code_at(2, 63).is_err());
        assert!(code_count(7).is_err());
    }

    #[test]
    fn codes_are_read_in_the_usual_spellings() {
        assert_eq!("0.77".parse::<TakeBreakCode>().unwrap().digits(), [7, 7]);
        assert_eq!(
            ".137".parse::<TakeBreakCode>().unwrap().to_string(),
            "0.137"
        );
        assert_eq!("0.f".parse::<TakeBreakCode>().unwrap().to_string(), "0.F");
        assert_eq!(
            "{1,2}".parse::<TakeBreakCode>().unwrap().to_string(),
            "0.33"
        );
        assert_eq!("0.F".parse::<TakeBreakCode>().unwrap().max_parts(), 3);
        for (bad, named) in [
            ("4.07", "`4`"),
            ("0.7G", "`G`"),
            ("0.00", "no move"),
            ("77", "`77`"),
        ] {
            let e = bad.parse::<TakeBreakCode>().unwrap_err().to_string();
            assert!(e.contains(named), "{bad}: {e}");
        }
    }

    #[test]
    fn kayles_and_dawsons_kayles_have_their_published_periods() {
        // Kayles (0.77): period 12, last exceptional value at n = 70; Dawson's Kayles (0.07):
        // period 34, its values those of Dawson's chess (0.137) one heap later.
        let kayles = "0.77"
            .parse::<TakeBreakCode>()
            .unwrap()
            .period(1 << 12, 1 << 30, &Silent);
        let GrundyPeriod::Periodic(p) = &kayles.shape else {
            panic!("{kayles:?}")
        };
        assert_eq!((p.preperiod, p.period, p.is_proven()), (71, 12, true));
        assert_eq!(kayles.last_exceptional(), Some(70));
        let chess = "0.137".parse::<TakeBreakCode>().unwrap();
        let dawson = "0.07".parse::<TakeBreakCode>().unwrap();
        let (c, d) = (
            chess.grundy_values(300, &Silent),
            dawson.grundy_values(301, &Silent),
        );
        assert_eq!(c[..], d[1..]);
        let GrundyPeriod::Periodic(p) = dawson.period(1 << 12, 1 << 30, &Silent).shape else {
            panic!()
        };
        assert_eq!((p.period, p.is_proven()), (34, true));
    }

    #[test]
    fn published_periods_are_reproduced() {
        // (code, least preperiod n₀, period) from tczajka/octal-games' recomputation of
        // Flammenkamp's tables (prefix = n₀, heaps from 0), CGSuite's tests and OEIS.
        let table = [
            ("0.07", 53, 34),
            ("0.4", 54, 34),
            ("0.15", 1, 10),
            ("0.17", 33, 34),
            ("0.35", 1, 6),
            ("0.44", 143, 24),
            ("0.45", 498, 20),
            ("0.51", 1, 1),
            ("0.53", 11, 9),
            ("0.54", 3, 7),
            ("0.71", 3, 2),
            ("0.72", 1, 4),
            ("0.75", 1, 2),
            ("0.144", 4, 10),
            ("0.141", 14, 11),
            ("0.176", 24, 8),
            ("0.055", 259, 148),
        ];
        for (code, n0, period) in table {
            let r = code
                .parse::<TakeBreakCode>()
                .unwrap()
                .period(1 << 16, 1 << 34, &Silent);
            let GrundyPeriod::Periodic(p) = &r.shape else {
                panic!("{code}: {r:?}")
            };
            assert_eq!(
                (p.preperiod, p.period, p.is_proven()),
                (n0, period, true),
                "{code}"
            );
        }
    }

    #[test]
    fn a_hexadecimal_game_can_be_arithmetic_periodic() {
        // 0.3F (CGSuite's tests give heaps 1..=20); its values grow by 3 every 6 heaps, which is
        // observed with its saltus and never claimed proven.
        let code = "0.3F".parse::<TakeBreakCode>().unwrap();
        let g = code.grundy_values(400, &Silent);
        assert_eq!(
            g[1..=20],
            [1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8, 6, 7, 8, 9, 10, 11]
        );
        let r = code.period(400, 1 << 30, &Silent);
        let GrundyPeriod::ArithmeticPeriodic(a) = &r.shape else {
            panic!("{r:?}")
        };
        for n in a.preperiod..g.len() - a.period {
            assert_eq!(g[n + a.period], g[n] + a.saltus as u32);
        }
        assert_eq!((a.period, a.saltus), (6, 3));
        assert_eq!(r.stop, Some(SearchStop::MaxHeap(400)));
    }
}
