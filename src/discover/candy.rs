//! Discovery over Candy Nim: the P-position families 𝔊(a, m, x) = [a, 2^K·m + x, 2^K·m + (a ⊕ x)]
//! of the paper's §4, every a and x below 2^K at once; and their four-heap analogues
//! [a, b, 2^K·m + x, 2^K·m + (a ⊕ b ⊕ x)] with two fixed heaps a ≤ b.
//!
//! **Why these.** For a, b, x < 2^K the heaps have nim-sum a ⊕ x ⊕ (a ⊕ x) = 0 (with b:
//! a ⊕ b ⊕ x ⊕ (a ⊕ b ⊕ x) = 0; the high parts 2^K·m cancel), so every member is a P-position
//! and V = N_L − N_W, N_L and N_W are defined (Luca moves first). Remark 4.5 (V([31, 32m, 32m + 31]) = 62m + 36) and Props 4.1 and
//! 4.4 are single families of this shape; the space asks the same question of all of them: is
//! each of V, N_L, N_W periodic-linear in m, with which period and from where?
//!
//! **The space.** a runs over `a` (1 ≤ a < 2^K), x over 0..2^K − 1; the families for x and
//! a ⊕ x are one (the same multiset of heaps), so x ≤ a ⊕ x is kept. With four heaps a ≤ b
//! both run over `a`, and x ≤ a ⊕ b ⊕ x is kept. No family is another with m
//! shifted (x < 2^K), so none is left out as a duplicate.
//!
//! **The solve.** One value table covering every member of every family up to the
//! re-verification bound is solved first (its memory estimated and refused over the limit
//! before any work); each family reads its members from it. Each family's quantities are mined
//! on `m` and each form is compared exactly with every member up to `verify_to`: a family is
//! covered when all three forms hold there (HOLDS on that range, never PROVEN).
//!
//! **Novelty.** A family is known when a claim states `candy_v`, `candy_nl` or `candy_nw` of a
//! heap list that specialises to it in an equation with an explicit side (the rule Scoring
//! Nim's discovery uses): Prop 4.1's `candy_v([1, 2m, 2m+1]) = 2m` makes [1, 2m, 2m + 1] known.

use rayon::prelude::*;

use super::stated::{AffineHeap, HeapFamily, novelty, stated_families};
use super::{
    Atlas, FamilyData, Novelty, QuantityCall, Statements, discover_family, twice, validate_mined,
};
use crate::claims::Registry;
use crate::error::{Error, Result};
use crate::games::candy::{Candies, TableShape, value_with};
use crate::miner::quasi::{QuasiOptions, fit_quasi_polynomial};
use crate::num::{IntRange, Q};
use crate::progress::Progress;
use crate::tables::candy::{CandyFamily, CandyMember};

/// The Candy Nim functions whose equations state a family's form.
const STATING: [&str; 3] = ["candy_v", "candy_nl", "candy_nw"];

/// The quantities of a member the atlas shows forms for.
const QUANTITIES: [&str; 3] = ["v", "n_l", "n_w"];

/// Largest K of a space: 2^K·m stays far inside the heaps' range at any m the table reaches.
pub const MAX_BITS: u32 = 10;

/// A space of Candy Nim families [a, 2^K·m + x, 2^K·m + (a ⊕ x)] (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandySpace {
    /// Heaps per family: 3 ([a, 2^K·m + x, …]) or 4 ([a, b, 2^K·m + x, …]).
    pub heaps: usize,
    /// K: the high parts are 2^K·m.
    pub bits: u32,
    /// The values of a, 1 ≤ a < 2^K.
    pub a: IntRange,
    /// The members the miner sees, m = m₀..M.
    pub m: IntRange,
    /// The last member re-verified (at least M).
    pub verify_to: i64,
}

impl Default for CandySpace {
    fn default() -> CandySpace {
        let m = IntRange::new(1, 16).expect("1 ≤ 16");
        CandySpace {
            heaps: 3,
            bits: 5,
            a: IntRange::new(1, 31).expect("1 ≤ 31"),
            verify_to: twice(m),
            m,
        }
    }
}

/// The size of a Candy Nim space's work, known before any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandySpaceCost {
    /// Families.
    pub families: usize,
    /// The largest heap of any member.
    pub max_heap: Candies,
    /// The value table's estimated bytes.
    pub bytes: u128,
}

impl CandySpace {
    /// Refuses a space that has no family or is out of range, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if !matches!(self.heaps, 3 | 4) {
            return Err(Error::invalid(format!(
                "--heaps {}: a family has 3 heaps [a, 2^K·m + x, 2^K·m + (a xor x)] or 4 [a, b, 2^K·m + x, 2^K·m + (a xor b xor x)]",
                self.heaps
            )));
        }
        if self.bits == 0 || self.bits > MAX_BITS {
            return Err(Error::invalid(format!(
                "--bits {}: K runs over 1..{MAX_BITS}",
                self.bits
            )));
        }
        let top = (1i64 << self.bits) - 1;
        if self.a.start() < 1 || self.a.end() > top {
            return Err(Error::invalid(format!(
                "--a {}: a runs over 1..{top} (below 2^K = {})",
                self.a,
                top + 1
            )));
        }
        validate_mined("m", self.m, 1 << 16, self.verify_to, 1 << 17)
    }

    /// The families of the space in order: a (then b ≥ a with four heaps), then x ≤ the other
    /// low part.
    pub fn families(&self) -> Vec<HeapFamily> {
        let high = 1i64 << self.bits;
        let fixed = |offset| AffineHeap { slope: 0, offset };
        let mut fixed_parts: Vec<Vec<AffineHeap>> = Vec::new();
        for a in self.a.iter() {
            if self.heaps == 3 {
                fixed_parts.push(vec![fixed(a)]);
            } else {
                fixed_parts.extend((a..=self.a.end()).map(|b| vec![fixed(a), fixed(b)]));
            }
        }
        let mut out = Vec::new();
        for part in fixed_parts {
            let low = part.iter().fold(0, |acc, h| acc ^ h.offset);
            for x in 0..high {
                let y = low ^ x;
                if x <= y {
                    let mut heaps = part.clone();
                    heaps.extend([
                        AffineHeap {
                            slope: high,
                            offset: x,
                        },
                        AffineHeap {
                            slope: high,
                            offset: y,
                        },
                    ]);
                    out.push(HeapFamily::new(heaps));
                }
            }
        }
        out
    }

    /// Every member's heaps, family by family, m = m₀..verify_to.
    fn positions(&self, fam: &HeapFamily) -> Vec<Vec<Candies>> {
        (self.m.start()..=self.verify_to)
            .map(|m| fam.0.iter().map(|h| h.at(m) as Candies).collect())
            .collect()
    }

    /// Each family's last member: it is at least as large as every other member heap by heap
    /// (heaps sorted), so these alone size the value table and its largest heap, one position
    /// per family whatever the number of members.
    fn last_members(&self, families: &[HeapFamily]) -> Vec<Vec<Candies>> {
        families
            .iter()
            .map(|f| {
                f.0.iter()
                    .map(|h| h.at(self.verify_to) as Candies)
                    .collect()
            })
            .collect()
    }

    /// The work before it starts: families, the largest heap and the table's memory.
    pub fn cost(&self) -> Result<CandySpaceCost> {
        self.validate()?;
        let families = self.families();
        let last = self.last_members(&families);
        let bytes = TableShape::covering(&last)?.bytes();
        let max_heap = last
            .iter()
            .flatten()
            .copied()
            .max()
            .expect("covering refuses no position");
        Ok(CandySpaceCost {
            families: families.len(),
            max_heap,
            bytes,
        })
    }

    /// The space in words.
    pub fn describe(&self) -> String {
        let high = 1i64 << self.bits;
        let (a, m, to) = (self.a, self.m, self.verify_to);
        if self.heaps == 4 {
            format!(
                "Candy Nim families [a, b, {high}m + x, {high}m + (a xor b xor x)] with a <= b in {a}, 0 <= x < {high} (x <= a xor b xor x), mined on m = {m}, re-verified on m <= {to}"
            )
        } else {
            format!(
                "Candy Nim families [a, {high}m + x, {high}m + (a xor x)] with a in {a}, 0 <= x < {high} (x <= a xor x), mined on m = {m}, re-verified on m <= {to}"
            )
        }
    }

    /// [`CandySpace::describe`] with `$…$` mathematics, for the rendered atlas.
    pub fn describe_math(&self) -> String {
        let high = 1i64 << self.bits;
        let (m, to) = (super::range_math("m", self.m), self.verify_to);
        let (a0, a1) = (self.a.start(), self.a.end());
        if self.heaps == 4 {
            format!(
                "Candy Nim families $[a, b, {high} m + x, {high} m + (a \\oplus b \\oplus x)]$ with ${a0} \\le a \\le b \\le {a1}$ and $0 \\le x < {high}$ ($x \\le a \\oplus b \\oplus x$), mined on {m}, re-verified on $m \\le {to}$"
            )
        } else {
            format!(
                "Candy Nim families $[a, {high} m + x, {high} m + (a \\oplus x)]$ with {} and $0 \\le x < {high}$ ($x \\le a \\oplus x$), mined on {m}, re-verified on $m \\le {to}$",
                super::range_math("a", self.a)
            )
        }
    }
}

/// The atlas of `space`: every family mined on its data and re-verified on the members beyond
/// it, novelty judged against `registries` (none: every result `unchecked`). The value table is
/// refused over `max_bytes` before any work; `progress` hears the table's solve, then one more
/// unit of work per family.
pub fn discover(
    space: &CandySpace,
    registries: &[Registry],
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Atlas> {
    space.validate()?;
    let families = space.families();
    progress.stage("solving the value table");
    let values =
        TableShape::covering(&space.last_members(&families))?.solve(max_bytes, progress)?;
    let stated = stated_families(registries, &STATING);
    progress.stage(&format!("mining {} families", families.len()));
    progress.add_work(families.len() as u64);
    let quantities: Vec<String> = QUANTITIES.iter().map(|q| q.to_string()).collect();
    let entries = families
        .par_iter()
        // One task per family: their costs differ widely (see `check_chosen` of the claims).
        .with_max_len(1)
        .map(|fam| {
            let members = space
                .positions(fam)
                .into_iter()
                .zip(space.m.start()..)
                .map(|(heaps, m)| {
                    Ok(CandyMember {
                        value: value_with(values.as_ref(), &heaps)?,
                        params: vec![m],
                        heaps,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            let columns = CandyFamily {
                params: vec!["m".to_string()],
                heap_count: fam.0.len(),
                members,
            }
            .typed_columns();
            let novelty = if registries.is_empty() {
                Novelty::Unchecked
            } else {
                novelty(fam, &stated)
            };
            let entry = discover_family(
                &FamilyData {
                    name: fam.written("m"),
                    columns,
                    mined_to: space.m.end(),
                    novelty,
                    position: fam.position(),
                },
                &quantities,
            );
            progress.advance(1);
            entry
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Atlas::new(
        (space.describe(), space.describe_math()),
        "m".to_string(),
        quantities,
        entries,
        Vec::new(),
        Statements {
            payoff: None,
            quantities: vec![
                ("v", QuantityCall::Value("candy_v")),
                ("n_l", QuantityCall::Value("candy_nl")),
                ("n_w", QuantityCall::Value("candy_nw")),
            ],
        },
    ))
}

/// The largest K of [`forms_file`]: `nimlab prove` samples the block's members exactly, so the
/// block stays small (B ≤ 64).
pub const MAX_FORMS_BITS: u32 = 6;

/// The fit of a family's V(m) for [`forms_file`]: affine per residue class of m modulo at most
/// 4, each class confirmed by 4 values beyond the two that fix it.
const FORMS_FIT: QuasiOptions = QuasiOptions {
    max_degree: 1,
    max_modulus: 4,
    confirming: 4,
};

/// A forms file of `nimlab prove` (format in `data/proofs/README.md`).
#[derive(serde::Serialize)]
struct FormsFile {
    game: &'static str,
    title: String,
    piles: [&'static str; 3],
    block: i64,
    class: Vec<FormsClass>,
}

#[derive(serde::Serialize)]
struct FormsClass {
    id: String,
    name: String,
    position: String,
    form: String,
}

/// A forms file for `nimlab prove` covering the whole closure of the block B = 2^K: for every
/// family [a, B·m + x, B·m + (a ⊕ x)] with 0 ≤ a, x < B (x ≤ a ⊕ x, a = 0 included, as the
/// closure needs), V as a periodic-linear form in m fitted on the members m = 0..=`through`,
/// the members before it holds listed one by one. The forms are OBSERVED on the data; the
/// proof is `nimlab prove`'s. An error names a family with no such form on the data.
pub fn forms_file(
    bits: u32,
    through: i64,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<String> {
    if bits == 0 || bits > MAX_FORMS_BITS {
        return Err(Error::invalid(format!(
            "--bits {bits}: a forms file is written for K in 1..{MAX_FORMS_BITS}"
        )));
    }
    let least = 2 + FORMS_FIT.confirming as i64;
    if !(least..=4096).contains(&through) {
        return Err(Error::invalid(format!(
            "--verify-to {through}: the forms are fitted on m = 0..M with M in {least}..4096"
        )));
    }
    let block = 1i64 << bits;
    let families: Vec<(i64, i64)> = (0..block)
        .flat_map(|a| (0..block).filter(move |&x| x <= a ^ x).map(move |x| (a, x)))
        .collect();
    let heaps = |a: i64, x: i64, m: i64| -> Vec<Candies> {
        [block * m + (a ^ x), block * m + x, a]
            .iter()
            .map(|&h| h as Candies)
            .collect()
    };
    let last: Vec<Vec<Candies>> = families
        .iter()
        .map(|&(a, x)| heaps(a, x, through))
        .collect();
    progress.stage("solving the value table");
    let values = TableShape::covering(&last)?.solve(max_bytes, progress)?;
    let class = families
        .par_iter()
        .map(|&(a, x)| {
            let y = a ^ x;
            let v: Vec<Q> = (0..=through)
                .map(|m| Ok(Q::int(value_with(values.as_ref(), &heaps(a, x, m))?.v)))
                .collect::<Result<_>>()?;
            let grow = |c: i64| {
                if c == 0 {
                    format!("{block}m")
                } else {
                    format!("{block}m + {c}")
                }
            };
            let name = format!("[{a}, {}, {}]", grow(x), grow(y));
            let fit = fit_quasi_polynomial(0, &v, &FORMS_FIT).ok_or_else(|| {
                Error::invalid(format!(
                    "the family {name} has no periodic-linear V on m = 0..{through}; raise --verify-to"
                ))
            })?;
            let mut form = String::new();
            for (m, value) in v.iter().enumerate().take(fit.from as usize) {
                form.push_str(&format!("if m == {m} then {value} else "));
            }
            form.push_str(&fit.expr("m"));
            Ok(FormsClass {
                id: format!("a{a}-x{x}"),
                name: format!("${name}$"),
                position: format!("[{}, {}, {a}]", grow(y), grow(x)),
                form,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let file = FormsFile {
        game: "candy-nim",
        title: format!(
            "Candy Nim: V of every P-position [a, {block}m + x, {block}m + (a xor x)] with a, x < {block}"
        ),
        piles: ["a", "b", "c"],
        block,
        class,
    };
    let body = toml::to_string(&file)
        .map_err(|e| Error::invalid(format!("cannot write the forms file: {e}")))?;
    Ok(format!(
        "# Written by `nimlab discover candy --bits {bits} --a 1..{} --verify-to {through} --forms FILE`:\n\
         # each family's V fitted on m = 0..{through}. `nimlab prove FILE` proves the forms for every m.\n\n{body}",
        block - 1
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::Registry;
    use crate::discover::PayoffOutcome;
    use crate::progress::Silent;
    use std::collections::BTreeMap;

    fn small() -> CandySpace {
        CandySpace {
            heaps: 3,
            bits: 2,
            a: IntRange::new(1, 3).unwrap(),
            m: IntRange::new(1, 8).unwrap(),
            verify_to: 16,
        }
    }

    #[test]
    fn the_space_lists_each_multiset_once() {
        let fams: Vec<String> = small().families().iter().map(|f| f.written("m")).collect();
        // a = 1: x ∈ {0, 2} (1 ⊕ 0 = 1, 1 ⊕ 2 = 3); a = 2: x ∈ {0, 1}; a = 3: x ∈ {0, 1}.
        assert_eq!(
            fams,
            [
                "4m+1,4m,1",
                "4m+3,4m+2,1",
                "4m+2,4m,2",
                "4m+3,4m+1,2",
                "4m+3,4m,3",
                "4m+2,4m+1,3"
            ]
        );
        let bad = CandySpace {
            a: IntRange::new(1, 4).unwrap(),
            ..small()
        };
        assert!(bad.validate().unwrap_err().to_string().contains("--a 1..4"));
    }

    #[test]
    fn every_quantity_form_the_atlas_prints_gives_the_members_values() {
        let space = small();
        let atlas = discover(&space, &[], 1 << 30, &Silent).unwrap();
        assert_eq!(atlas.entries.len(), 6);
        let mut checked = 0;
        for e in &atlas.entries {
            assert_eq!(e.payoff, PayoffOutcome::NoPayoff);
            // The members' values from the family's own table, not the space's.
            let fam: crate::family::Family = e.family.parse().unwrap();
            let ranges = BTreeMap::from([(
                "m".to_string(),
                IntRange::new(space.m.start(), space.verify_to).unwrap(),
            )]);
            let own = crate::tables::candy::family_table(&fam, &ranges, 1 << 30, &Silent).unwrap();
            for q in &e.quantities {
                let (Some(fit), Some(status)) = (&q.fit, &q.status) else {
                    continue;
                };
                assert!(status.holds(), "{} {}: {status:?}", e.family, q.name);
                for member in own.members.iter().filter(|m| m.params[0] >= fit.preperiod) {
                    let value = match q.name.as_str() {
                        "v" => member.value.v,
                        "n_l" => member.value.n_l as i64,
                        _ => member.value.n_w as i64,
                    };
                    assert_eq!(fit.eval(member.params[0]), crate::num::Q::int(value));
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
        assert_eq!(atlas.coverage(), (6, 6));
    }

    #[test]
    fn a_claim_on_candy_v_makes_its_family_known() {
        let reg = Registry::parse(
            std::path::Path::new("t.toml"),
            r#"
paper = "candy-nim"
[[claim]]
id = "prop-4.1"
label = "Proposition 4.1"
statement = "V([1, 2m, 2m+1]) = 2m"
for = "m in 1..10"
actual = "candy_v([1, 2m, 2m+1])"
expected = "2m"
"#,
        )
        .unwrap();
        let space = CandySpace {
            heaps: 3,
            bits: 1,
            a: IntRange::new(1, 1).unwrap(),
            m: IntRange::new(1, 8).unwrap(),
            verify_to: 16,
        };
        let atlas = discover(&space, &[reg], 1 << 30, &Silent).unwrap();
        let [e] = &atlas.entries[..] else {
            panic!("{:?}", atlas.entries);
        };
        assert_eq!(e.family, "2m+1,2m,1");
        assert_eq!(
            e.novelty,
            Novelty::Known {
                claims: vec!["candy-nim/prop-4.1".to_string()]
            }
        );
        assert!(e.covered());
    }
}
