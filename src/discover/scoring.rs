//! Scoring Nim's space of discovery: the families of positions whose heaps are affine in one
//! parameter, each heap a·k + b with the slope a and the offset b in given ranges — by default
//! three heaps, a ∈ {0, …, 3}, b ∈ {−1, …, 3}, mined on k = 1..16 and re-verified on k ≤ 32.
//!
//! **The space.** A heap with a = 0 is a fixed heap b ≥ 1 (a = 0 with b ≤ 0 is no heap, and is
//! left out); a family needs one heap that grows. Scoring Nim does not depend on the order of
//! the heaps, so a family is a multiset of heaps, written largest slope first. Two families
//! that differ by a shift of the parameter — F(k) = G(k + c), every offset b of F being
//! b' + a·c for the heap a·k + b' of G — are one family: the one whose offsets are least is
//! kept, and the other is listed as its duplicate. A member where a heap is 0 is the position
//! without it; members with a negative heap are not members (the family starts after them).
//!
//! **The solve.** Nim never splits a heap, so every member of every family is a position of
//! the table of all positions with as many heaps, each at most the largest heap of any member
//! up to the re-verification bound; that table is solved once
//! ([`crate::games::scoring::solve_table`], its memory estimated and refused over the limit
//! before any work), and every family reads its members' exact payoffs from it.
//!
//! **A second look.** A family whose form needs a longer run of members than k₀..K shows (a
//! period of 12 in k from k = 31, say) has none there. So, unless it is turned off, every
//! family without a re-verified form is mined again on k₀..K′, K′ as large as `retry_to`
//! allows and the table of heaps at most twice the first pass's largest heap holds it with its
//! re-verification (to 2K′ − k₀ + 1); the outcome of that longer run replaces the first. The
//! one table, solved before the first pass, serves both.
//!
//! **Proven absence.** When the members of nim-sum 0 are not eventually periodic in k, no form
//! of the miner's shapes exists, however far the family is mined (the proof is in
//! [`super::ZeroSetWitness`]'s module): such a family's outcome is that proof with its witness,
//! whatever the data gave.
//!
//! **Novelty.** A claim states a closed form for a family when it has an equation (an
//! `actual = expected` check, or a conjunct `A == B == …` of a truth-valued check) with one
//! side explicit — no game's function in it (Candy Nim's V = c⁺ states no closed form) — and
//! another side
//! that is one of those functions of a heap list specialising to the family: some substitution
//! of the claim's variables by affine functions of k (rational coefficients) turns its heaps into
//! the family's, in some order. So Prop 4.2 (ii), f_N(x, y) = x − y + |1 − |1 + N|| for all
//! x > y ≥ 2, states every two-heap family of two growing heaps; a reduction such as
//! f_N(a, b, c, 1, 1) = f_N(a, b, c) (both sides payoffs) or a bound states none. The claim's
//! range and conditions are not compared: the family is *stated for a family containing it*.

use std::sync::Arc;

use rayon::prelude::*;

pub use super::stated::{AffineHeap, HeapFamily};
use super::stated::{affine_families, novelty, stated_families};
use super::{
    Atlas, AtlasEntry, Duplicate, FamilyData, NoPayoffForm, Novelty, PayoffOutcome, Proven,
    QuantityCall, Statements, ZeroSetWitness, discover_family, twice, validate_mined,
};
use crate::claims::Registry;
use crate::error::{Error, Result};
use crate::family::Family;
use crate::games::scoring::{HeapSize, Limits, Method, scoring_nim, solve_table, table_bytes};
use crate::num::IntRange;
use crate::progress::Progress;
use crate::tables::scoring::{ScoringFamily, ScoringMember};

/// A space of Scoring Nim families (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringSpace {
    /// The number of heaps of every family.
    pub heaps: usize,
    /// The slopes a (at least 0).
    pub slopes: IntRange,
    /// The offsets b.
    pub offsets: IntRange,
    /// The members the miner sees, k = k₀..K.
    pub k: IntRange,
    /// The last member re-verified (at least K).
    pub verify_to: i64,
    /// The furthest member a family without a form is mined to on its second look (beyond
    /// K; `None`: no second look). See the module doc.
    pub retry_to: Option<i64>,
}

/// The most heaps a family of the space may have: the table of all positions with more heaps
/// is beyond any budget at the sizes a family reaches.
pub const MAX_SPACE_HEAPS: usize = 6;

/// The Scoring Nim functions whose equations state a family's form.
const STATING: [&str; 4] = ["payoff", "cplus", "cminus", "breakpoints"];

/// The scalar quantities of a member the atlas shows forms for.
const QUANTITIES: [&str; 3] = ["breakpoints", "c_minus", "c_plus"];

impl Default for ScoringSpace {
    fn default() -> ScoringSpace {
        let k = IntRange::new(1, 16).expect("1 ≤ 16");
        ScoringSpace {
            heaps: 3,
            slopes: IntRange::new(0, 3).expect("0 ≤ 3"),
            offsets: IntRange::new(-1, 3).expect("−1 ≤ 3"),
            verify_to: twice(k),
            retry_to: Some(default_retry_to(k)),
            k,
        }
    }
}

/// The default furthest member of a second look: four times the mined range's end.
pub fn default_retry_to(k: IntRange) -> i64 {
    k.end().saturating_mul(4)
}

/// The size of a space's work, known before any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceCost {
    /// Families kept.
    pub families: usize,
    /// Families left out as shifts.
    pub duplicates: usize,
    /// The largest heap of the table solved.
    pub max_heap: HeapSize,
    /// The table's estimated peak bytes.
    pub bytes: u64,
}

impl ScoringSpace {
    /// Refuses a space that has no family or is out of range, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if self.heaps == 0 || self.heaps > MAX_SPACE_HEAPS {
            return Err(Error::invalid(format!(
                "--heaps {}: a family of the space has 1 to {MAX_SPACE_HEAPS} heaps",
                self.heaps
            )));
        }
        if self.slopes.start() < 0 {
            return Err(Error::invalid(format!(
                "--slopes {}: slopes are at least 0 (a heap that shrinks as k grows is soon negative)",
                self.slopes
            )));
        }
        if self.slopes.end() < 1 {
            return Err(Error::invalid(format!(
                "--slopes {}: a family needs a heap that grows with k, so the slopes must reach 1",
                self.slopes
            )));
        }
        if self.slopes.end() > 1 << 20
            || self.offsets.start().abs().max(self.offsets.end().abs()) > 1 << 20
        {
            return Err(Error::invalid(format!(
                "--slopes {} --offsets {}: heaps this large are beyond any table",
                self.slopes, self.offsets
            )));
        }
        validate_mined("k", self.k, 1 << 20, self.verify_to, 1 << 21)?;
        match self.retry_to {
            Some(to) if to <= self.k.end() || to > 1 << 20 => Err(Error::invalid(format!(
                "--retry-to {to}: a second look mines beyond the mined range's end {}, to at most {}",
                self.k.end(),
                1 << 20
            ))),
            _ => Ok(()),
        }
    }

    /// The families of the space in order, and those left out as shifts of them.
    pub fn families(&self) -> (Vec<HeapFamily>, Vec<Duplicate>) {
        affine_families(self.heaps, self.slopes, self.offsets)
    }

    /// The largest heap of the table: twice the first pass's (below) with a second look.
    fn max_heap(&self) -> Result<HeapSize> {
        let first = self.first_pass_max_heap()?;
        if self.retry_to.is_none() {
            return Ok(first);
        }
        first.checked_mul(2).ok_or_else(|| {
            Error::invalid(format!(
                "the second look's table of heaps ≤ 2 · {first} is beyond any table; use --no-retry"
            ))
        })
    }

    /// The last member a family is mined to on its second look (see the module doc), when
    /// that is beyond K: its members up to the re-verification of k₀..K′ stay within the
    /// table's heaps ≤ `max_heap`.
    fn retry_end(&self, fam: &HeapFamily, first: i64, max_heap: HeapSize) -> Option<i64> {
        let to = self.retry_to?;
        let fits = |end: i64| {
            let verify = end + (end - first + 1);
            fam.0.iter().all(|h| h.at(verify) <= i64::from(max_heap))
        };
        // The heaps grow with k, so the members that fit form a range: the last by bisection.
        let (mut lo, mut hi) = (self.k.end(), to);
        if !fits(lo + 1) {
            return None;
        }
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            if fits(mid) { lo = mid } else { hi = mid - 1 }
        }
        Some(lo)
    }

    /// The largest heap any member up to the re-verification bound has.
    fn first_pass_max_heap(&self) -> Result<HeapSize> {
        let largest = self
            .slopes
            .end()
            .checked_mul(self.verify_to)
            .and_then(|h| h.checked_add(self.offsets.end().max(0)))
            .filter(|&h| h <= i64::from(HeapSize::MAX));
        largest.map(|h| h as HeapSize).ok_or_else(|| {
            Error::invalid(format!(
                "the space's heaps reach {} · {} + {}, beyond any table",
                self.slopes.end(),
                self.verify_to,
                self.offsets.end()
            ))
        })
    }

    /// The work before it starts: families, and the table's size and memory.
    pub fn cost(&self) -> Result<SpaceCost> {
        self.validate()?;
        let (families, duplicates) = self.families();
        let max_heap = self.max_heap()?;
        let bytes = table_bytes(&scoring_nim(), self.heaps, max_heap).ok_or_else(|| {
            Error::invalid(format!(
                "the table of {} heaps ≤ {max_heap} is too large to estimate",
                self.heaps
            ))
        })?;
        Ok(SpaceCost {
            families: families.len(),
            duplicates: duplicates.len(),
            max_heap,
            bytes,
        })
    }

    /// The space in words.
    pub fn describe(&self) -> String {
        let retry = match self.retry_to {
            Some(to) => format!(
                "; a family without a form there mined again on k up to {to}, as far as a table twice as large holds"
            ),
            None => String::new(),
        };
        format!(
            "Scoring Nim families of {} heaps a·k + b with a in {}, b in {} (fixed heaps b ≥ 1), mined on k = {}, re-verified on k ≤ {}{retry}",
            self.heaps, self.slopes, self.offsets, self.k, self.verify_to
        )
    }

    /// [`ScoringSpace::describe`] with `$…$` mathematics, for the rendered atlas.
    pub fn describe_math(&self) -> String {
        format!(
            "Scoring Nim families of ${}$ heaps $a k + b$ with {} and {} (fixed heaps $b \\ge 1$), mined on {}, re-verified on $k \\le {}$",
            self.heaps,
            super::range_math("a", self.slopes),
            super::range_math("b", self.offsets),
            super::range_math("k", self.k),
            self.verify_to
        ) + &match self.retry_to {
            Some(to) => format!(
                "; a family without a form there mined again on $k \\le {to}$, as far as a table twice as large holds"
            ),
            None => String::new(),
        }
    }
}

/// The atlas of `space`: every family mined on its data and re-verified on the members beyond
/// it, novelty judged against `registries` (none: every result `unchecked`). The table's
/// memory is refused over `limits` before any work; `progress` hears the table's solve, then
/// one more unit of work per family.
pub fn discover(
    space: &ScoringSpace,
    registries: &[Registry],
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<Atlas> {
    space.validate()?;
    let (families, duplicates) = space.families();
    let max_heap = space.max_heap()?;
    progress.stage(&format!(
        "solving all {}-heap positions with heaps ≤ {max_heap}",
        space.heaps
    ));
    let table = solve_table(
        &scoring_nim(),
        space.heaps,
        max_heap,
        Method::Auto,
        limits,
        progress,
    )?;
    let stated = stated_families(registries, &STATING);
    // One count for the whole run: the table's positions, then one unit per family.
    progress.stage(&format!("mining {} families", families.len()));
    progress.add_work(families.len() as u64);
    let quantities: Vec<String> = QUANTITIES.iter().map(|q| q.to_string()).collect();
    // A family mined on k₀..`mined_to` and re-verified to `verify_to`.
    let mine = |fam: &HeapFamily, mined_to: i64, verify_to: i64| -> Result<AtlasEntry> {
        let first = fam.first_member(space.k.start());
        let members = (first..=verify_to)
            .map(|k| {
                let heaps: Vec<HeapSize> = fam.0.iter().map(|h| h.at(k) as HeapSize).collect();
                Ok(ScoringMember {
                    payoff: table.payoff(&heaps)?,
                    params: vec![k],
                    heaps,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let columns = ScoringFamily {
            params: vec!["k".to_string()],
            heap_count: space.heaps,
            grid: None,
            members,
        }
        .typed_columns();
        let novelty = if registries.is_empty() {
            Novelty::Unchecked
        } else {
            novelty(fam, &stated)
        };
        let mut entry = discover_family(
            &FamilyData {
                name: fam.to_string(),
                columns,
                mined_to: mined_to.max(first),
                novelty,
                position: fam.position(),
            },
            &quantities,
        )?;
        // A proof that no form of the miner's shapes exists outranks whatever the data gave:
        // a form found there fails for some member beyond any finite check.
        if let Some(witness) = ZeroSetWitness::find(fam) {
            entry.payoff = PayoffOutcome::NotFound {
                reason: NoPayoffForm::NoneExists(Proven(Arc::new(witness))),
            };
        }
        progress.advance(1);
        Ok(entry)
    };
    let mut entries = families
        .par_iter()
        // One task per family: their costs differ widely (see `check_chosen` of the claims).
        .with_max_len(1)
        .map(|fam| mine(fam, space.k.end(), space.verify_to))
        .collect::<Result<Vec<_>>>()?;
    // The second look (see the module doc): each family without a re-verified form, on the
    // longest run of members the table holds.
    let again: Vec<(usize, i64, i64)> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.covered() && !e.proven_without_form())
        .filter_map(|(i, _)| {
            let first = families[i].first_member(space.k.start());
            let end = space.retry_end(&families[i], first, max_heap)?;
            Some((i, end, end + (end - first + 1)))
        })
        .collect();
    if !again.is_empty() {
        progress.stage(&format!(
            "mining {} families again on longer runs",
            again.len()
        ));
        progress.add_work(again.len() as u64);
        let longer = again
            .par_iter()
            .with_max_len(1)
            .map(|&(i, end, verify_to)| Ok((i, mine(&families[i], end, verify_to)?)))
            .collect::<Result<Vec<_>>>()?;
        for (i, entry) in longer {
            entries[i] = entry;
        }
    }
    Ok(Atlas::new(
        (space.describe(), space.describe_math()),
        "k".to_string(),
        quantities,
        entries,
        duplicates,
        Statements {
            payoff: Some("payoff"),
            quantities: vec![
                ("breakpoints", QuantityCall::Count("breakpoints")),
                ("c_minus", QuantityCall::Value("cminus")),
                ("c_plus", QuantityCall::Value("cplus")),
            ],
        },
    ))
}

/// The proof that a one-parameter family of Nim positions (`"3k,2k,k"`) has no payoff form of
/// the miner's shapes, when its members of nim-sum 0 are not eventually periodic (see
/// [`ZeroSetWitness`]); `None` for a family of several parameters or a heap that shrinks.
pub fn no_form_witness(family: &Family) -> Option<ZeroSetWitness> {
    let params = family.params();
    let [param] = params.as_slice() else {
        return None;
    };
    let heaps = family
        .heaps()
        .iter()
        .map(|h| AffineHeap {
            slope: h.coefficients().get(param).copied().unwrap_or(0),
            offset: h.constant(),
        })
        .collect();
    ZeroSetWitness::find(&HeapFamily::new(heaps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::expr::ExprKind;
    use crate::claims::expr::parse_expr;
    use crate::discover::stated::{Linear, specialises};
    use crate::num::Q;

    fn heap(slope: i64, offset: i64) -> AffineHeap {
        AffineHeap { slope, offset }
    }

    fn linear(src: &str) -> Vec<Linear> {
        let e = parse_expr(src).unwrap();
        let ExprKind::List(xs) = &e.kind else {
            panic!("a list")
        };
        xs.iter().map(|x| Linear::of(x).unwrap()).collect()
    }

    #[test]
    fn heaps_and_families_print_as_the_family_parser_reads_them() {
        let fam = HeapFamily::new(vec![heap(0, 1), heap(2, 1), heap(2, 0), heap(1, -1)]);
        assert_eq!(fam.to_string(), "2k+1,2k,k-1,1");
        let parsed: crate::family::Family = fam.to_string().parse().unwrap();
        assert_eq!(parsed.heaps().len(), 4);
        assert_eq!(heap(3, -1).to_string(), "3k-1");
    }

    #[test]
    fn the_default_space_counts_multisets_and_shifts() {
        let space = ScoringSpace::default();
        let (kept, dups) = space.families();
        // 18 heap choices (20 pairs less a = 0 with b ≤ 0), multisets of 3: C(20, 3) = 1140,
        // less the 10 of fixed heaps only.
        assert_eq!(kept.len() + dups.len(), 1130);
        // Every duplicate is a kept family shifted.
        for d in &dups {
            assert!(kept.iter().any(|f| f.to_string() == d.same_as), "{d:?}");
        }
        // k+1,k+1,1 is k-1,k-1,1 at k + 2.
        assert!(
            dups.iter()
                .any(|d| d.family == "k+1,k+1,1" && d.same_as == "k-1,k-1,1" && d.shift == 2)
        );
        assert!(kept.iter().all(|f| f.0.iter().any(|h| h.slope > 0)));
    }

    #[test]
    fn a_family_starts_where_no_heap_is_negative() {
        let fam = HeapFamily::new(vec![heap(2, -3), heap(1, -1)]);
        assert_eq!(fam.first_member(0), 2);
        assert_eq!(fam.first_member(5), 5);
        assert_eq!(HeapFamily::new(vec![heap(3, -1)]).first_member(0), 1);
    }

    #[test]
    fn a_claim_states_the_families_its_heaps_specialise_to() {
        let fam = HeapFamily::new(vec![heap(2, 1), heap(2, 0), heap(0, 1)]);
        assert!(specialises(&linear("[x, 2k, 1]"), &fam));
        assert!(specialises(&linear("[2k+1, 2k, 1]"), &fam));
        assert!(specialises(&linear("[1, 2*k, 2*k + 1]"), &fam));
        // x = 2k, and the claim's k is the family's: the heaps in another order.
        assert!(specialises(&linear("[x, 2k+1, 1]"), &fam));
        assert!(!specialises(&linear("[x, 2k+1, 2]"), &fam));
        assert!(!specialises(&linear("[x, x, 1]"), &fam));
        assert!(!specialises(&linear("[x, 2k, 2]"), &fam));
        assert!(specialises(
            &linear("[x, x, z]"),
            &HeapFamily::new(vec![heap(1, 0), heap(1, 0), heap(0, 2)])
        ));
        // A zero heap is no heap.
        assert!(specialises(
            &linear("[0, x, 1]"),
            &HeapFamily::new(vec![heap(1, 2), heap(0, 1)])
        ));
    }

    #[test]
    fn equations_with_an_explicit_side_state_their_heap_lists() {
        let reg = Registry::parse(
            std::path::Path::new("t.toml"),
            r#"
paper = "t"
[[claim]]
id = "reduction"
label = "L"
statement = "s"
for = "a in 1..3, b in 1..3, c in 1..3, N in -2..2"
actual = "payoff(N, [a, b, c, 1, 1])"
expected = "payoff(N, [a, b, c])"
[[claim]]
id = "bound"
label = "L"
statement = "s"
for = "a in 1..3, b in 1..3, c in 1..3, N in -2..2"
holds = "payoff(N, [a, b, c]) <= a + b + c"
[[claim]]
id = "form"
label = "L"
statement = "s"
for = "k in 1..3, x in 1..3, N in -2..2"
holds = "payoff(N, [1, 1]) == 1 + N and payoff(N, [2k+1, 2k, 1]) == 2 + N and x == x"
[[claim]]
id = "pairs"
label = "L"
statement = "s"
for = "x in 3..5, y in 2..x-1, N in -2..2"
actual = "payoff(N, [x, y])"
expected = "x - y + abs(1 - abs(1 + N))"
"#,
        )
        .unwrap();
        let stated = stated_families(&[reg], &STATING);
        let names: Vec<&str> = stated.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["t/form", "t/form", "t/pairs"]);
        let fam = HeapFamily::new(vec![heap(2, 1), heap(2, 0), heap(0, 1)]);
        assert_eq!(
            novelty(&fam, &stated),
            Novelty::Known {
                claims: vec!["t/form".to_string()]
            }
        );
        assert_eq!(
            novelty(
                &HeapFamily::new(vec![heap(3, 0), heap(2, 0), heap(1, 0)]),
                &stated
            ),
            Novelty::New
        );
        assert_eq!(
            novelty(&HeapFamily::new(vec![heap(2, 0), heap(1, 3)]), &stated),
            Novelty::Known {
                claims: vec!["t/pairs".to_string()]
            }
        );
    }

    /// A small space: 3 heaps, slopes 0..2, offsets 0..1, mined on k = 1..10.
    fn small() -> ScoringSpace {
        ScoringSpace {
            heaps: 3,
            slopes: IntRange::new(0, 2).unwrap(),
            offsets: IntRange::new(0, 1).unwrap(),
            k: IntRange::new(1, 10).unwrap(),
            verify_to: 20,
            retry_to: None,
        }
    }

    /// The payoff of the family `fam` at k, solved alone (not read from the atlas's table).
    fn alone(fam: &HeapFamily, k: i64) -> crate::num::Pwl {
        let heaps: Vec<HeapSize> = fam.0.iter().map(|h| h.at(k) as HeapSize).collect();
        let nim = crate::games::scoring::nim_heaps(&heaps);
        crate::games::scoring::solve(&scoring_nim(), &nim, Method::Auto, &Limits::default())
            .unwrap()
            .payoff(&nim)
            .unwrap()
    }

    #[test]
    fn every_formula_the_atlas_prints_rebuilds_its_members() {
        use crate::claims::engines::Engines;
        use crate::claims::eval::{Definitions, Evaluator};
        use crate::claims::value::Value;
        let space = small();
        let atlas = discover(&space, &[], &Limits::default(), &crate::progress::Silent).unwrap();
        let (kept, _) = space.families();
        assert_eq!(atlas.entries.len(), kept.len());
        let defs = Definitions::new();
        let mut engines = Engines::new();
        let mut ev = Evaluator::new(&defs, &mut engines);
        let mut checked = 0;
        for e in &atlas.entries {
            let super::super::PayoffOutcome::Found {
                formula,
                from,
                status,
                ..
            } = &e.payoff
            else {
                continue;
            };
            assert_eq!(
                status,
                &super::super::FormStatus::Reverified { to: 20 },
                "{}",
                e.family
            );
            // The printed formula, parsed back as a reader would, at every breakpoint of the
            // member solved on its own, between them and beyond both ends.
            let expr = parse_expr(&formula.to_string()).unwrap();
            let fam = kept.iter().find(|f| f.to_string() == e.family).unwrap();
            for k in (*from..=20).step_by(3) {
                let f = alone(fam, k);
                let xs: Vec<Q> = f.breakpoints().iter().map(|(x, _)| x.clone()).collect();
                let mut probes = vec![Q::int(-60), Q::int(60)];
                for w in xs.windows(2) {
                    probes.push(&(&w[0] + &w[1]) / &Q::int(2));
                }
                probes.extend(xs);
                for n in probes {
                    let mut env = vec![("N", Value::Num(n.clone())), ("k", Value::Num(Q::int(k)))];
                    let v = ev.eval(&expr, &mut env).unwrap();
                    assert_eq!(
                        v,
                        Value::Num(f.eval(&n)),
                        "{} at k = {k}, N = {n}",
                        e.family
                    );
                }
            }
            checked += 1;
        }
        assert!(checked >= 20, "{checked} of {}", atlas.entries.len());
    }

    /// The second look changes only the families without a form on the first range: those it
    /// gives one are mined beyond K and re-verified there (`k,k-1,3` has period 12 in k from
    /// k = 8, more than k ≤ 16 shows); every other entry is the first pass's.
    #[test]
    fn a_second_look_gives_a_form_to_a_family_that_needs_longer_data() {
        let first = ScoringSpace {
            heaps: 3,
            slopes: IntRange::new(0, 1).unwrap(),
            offsets: IntRange::new(-1, 3).unwrap(),
            k: IntRange::new(1, 16).unwrap(),
            verify_to: 32,
            retry_to: None,
        };
        let again = ScoringSpace {
            retry_to: Some(64),
            ..first.clone()
        };
        let silent = &crate::progress::Silent;
        let before = discover(&first, &[], &Limits::default(), silent).unwrap();
        let after = discover(&again, &[], &Limits::default(), silent).unwrap();
        assert_eq!(before.entries.len(), after.entries.len());
        let mut gained = Vec::new();
        for b in &before.entries {
            // The atlases rank their entries by outcome: matched by family.
            let a = after.entries.iter().find(|a| a.family == b.family).unwrap();
            if b.covered() || b.proven_without_form() {
                assert_eq!(b, a, "{}", b.family);
                continue;
            }
            assert!(
                a.mined.1 > 16,
                "{} was not mined again: {:?}",
                a.family,
                a.mined
            );
            if a.covered() {
                gained.push(a.family.as_str());
            }
        }
        assert!(gained.contains(&"k,k-1,3"), "{gained:?}");
        assert!(after.coverage().0 > before.coverage().0);
        assert!(
            after.space.contains("mined again on k up to 64"),
            "{}",
            after.space
        );
        assert!(!before.space.contains("mined again"), "{}", before.space);
    }

    #[test]
    fn families_whose_p_positions_are_not_periodic_are_proven_without_a_form() {
        let space = ScoringSpace {
            heaps: 3,
            slopes: IntRange::new(0, 3).unwrap(),
            offsets: IntRange::new(0, 0).unwrap(),
            k: IntRange::new(1, 8).unwrap(),
            verify_to: 16,
            retry_to: None,
        };
        let atlas = discover(&space, &[], &Limits::default(), &crate::progress::Silent).unwrap();
        let proven: Vec<&str> = atlas
            .entries
            .iter()
            .filter(|e| e.proven_without_form())
            .map(|e| e.family.as_str())
            .collect();
        // 3k ⊕ 2k ⊕ k = 0 exactly when k has no two adjacent binary ones: the only family of
        // the space whose slopes allow a nim-sum 0 above the offsets and also forbid it.
        assert_eq!(proven, ["3k,2k,k"]);
        assert_eq!(atlas.proven_without_form(), 1);
        assert!(atlas.summary().contains("proven without a form: 1"));
        assert!(
            atlas
                .text()
                .contains("(3k,2k,k) on k = 1..8: no form of the miner's shapes exists (proven): "),
            "{}",
            atlas.text()
        );
        let csv = String::from_utf8(atlas.table().render(crate::export::Format::Csv)).unwrap();
        assert!(
            csv.contains("\"3k,2k,k\",k = 1..8,none,,NONE (proven),"),
            "{csv}"
        );
        // On the data itself the right tail's sign follows the nim-sum, as the proof says.
        let fam = HeapFamily::new(vec![heap(3, 0), heap(2, 0), heap(1, 0)]);
        for k in 1..=16 {
            let f = alone(&fam, k);
            let big = Q::int(6 * k + 1);
            assert_eq!(f.eval(&big) < Q::zero(), k & (2 * k) == 0, "k = {k}");
        }
    }

    #[test]
    fn a_written_family_has_the_witness_of_its_heaps() {
        let fam: Family = "3k,2k,k".parse().unwrap();
        let w = no_form_witness(&fam).unwrap();
        assert_eq!((w.zero, w.member, w.nonzero), (1, 1, 3));
        // The heaps in another order are the same family.
        let same: Family = "k,3k,2k".parse().unwrap();
        assert_eq!(no_form_witness(&same), Some(w));
        for none in ["2k+1,2k,1", "x,2k,1", "3k,2k,k,1"] {
            let fam: Family = none.parse().unwrap();
            assert!(no_form_witness(&fam).is_none(), "{none}");
        }
    }

    #[test]
    fn a_perturbed_member_is_flagged_and_a_wrong_member_beyond_breaks_the_form() {
        let fam = HeapFamily::new(vec![heap(2, 1), heap(2, 0), heap(0, 2)]);
        let columns = |perturb: Option<i64>| {
            let members = (1..=24)
                .map(|k| {
                    let mut payoff = alone(&fam, k);
                    if perturb == Some(k) {
                        payoff = payoff.add_const(&Q::one());
                    }
                    ScoringMember {
                        payoff,
                        params: vec![k],
                        heaps: fam.0.iter().map(|h| h.at(k) as HeapSize).collect(),
                    }
                })
                .collect();
            ScoringFamily {
                params: vec!["k".to_string()],
                heap_count: 3,
                grid: None,
                members,
            }
            .typed_columns()
        };
        let quantities = vec!["c_plus".to_string()];
        let entry = |perturb| {
            discover_family(
                &FamilyData {
                    name: fam.to_string(),
                    columns: columns(perturb),
                    mined_to: 14,
                    novelty: Novelty::Unchecked,
                    position: fam.position(),
                },
                &quantities,
            )
            .unwrap()
        };
        let clean = entry(None);
        assert!(clean.covered(), "{clean:?}");
        // A member of the data perturbed: an anomaly, with the member's value and the form's.
        let flagged = entry(Some(11));
        let super::super::PayoffOutcome::Found {
            anomalies, status, ..
        } = &flagged.payoff
        else {
            panic!("{flagged:?}")
        };
        assert_eq!(anomalies.len(), 1, "{flagged:?}");
        assert_eq!(anomalies[0].member, 11);
        assert_eq!(&anomalies[0].data - &anomalies[0].form, Q::one());
        assert!(status.holds());
        // A member beyond the data perturbed: the form FAILS there.
        let broken = entry(Some(20));
        let super::super::PayoffOutcome::Found { status, .. } = &broken.payoff else {
            panic!("{broken:?}")
        };
        let super::super::FormStatus::BrokenBeyond(m) = status else {
            panic!("{status:?}")
        };
        assert_eq!(m.member, 20);
        assert_eq!(&m.data - &m.form, Q::one());
        assert!(!broken.covered());
        // The tail constant c⁺ moves with the payoff's right tail: its form breaks there too.
        let q = &broken.quantities[0];
        assert!(
            matches!(&q.status, Some(super::super::FormStatus::BrokenBeyond(m)) if m.member == 20),
            "{q:?}"
        );
    }
}
