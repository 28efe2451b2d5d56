//! NIM with Cash along a family of move sets A(L) (e.g. {1, L}): one row per member with its
//! certified closed forms summarized — the table `nimlab mine across cash --format csv` prints
//! and a study's `cash.across` kind holds, from which the second-level fit
//! ([`crate::miner::across`]) reads its members back as typed numbers.
//!
//! Each member's f_A (the plain-game winner's threshold) and f_A^⊥ (the other player's) are
//! PROVEN periodic-linear, f(Pk + i) = B_i·k + c_i for n ≥ `proven_from`; the row holds P, that
//! start, the distinct slopes B_i and both intercept tables c_0 … c_{P−1}.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::games::cash::{CashSet, across_start_data, check_threshold_budget};
use crate::miner::AcrossMember;
use crate::num::IntRange;

/// The columns after the parameter's: the member's set, its period, where its forms are proven
/// from, its slopes, and the intercepts of f_A and f_A^⊥.
pub const ACROSS_MEMBER_COLUMNS: [&str; 6] = [
    "set",
    "period",
    "proven_from",
    "slopes",
    "c_winner",
    "c_other",
];

/// The functions whose intercept tables a row holds: (column, the function's name in the
/// miner's text, its symbol as TeX).
pub const ACROSS_FUNCTIONS: [(&str, &str, &str); 2] = [
    ("c_winner", "f_A", r"f_{A}"),
    ("c_other", "f_A^⊥", r"f_{A}^{\perp}"),
];

/// A family of move sets in one parameter, and the members it takes along a range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetFamily {
    family: Family,
    param: String,
}

impl SetFamily {
    /// `family` (e.g. "1,L,L+1"), which must have exactly one parameter.
    pub fn new(family: Family) -> Result<SetFamily> {
        match &family.params()[..] {
            [param] => Ok(SetFamily {
                param: param.clone(),
                family,
            }),
            params => Err(Error::invalid(format!(
                "the move set {family} must have exactly one parameter; it has {}",
                if params.is_empty() {
                    "none".to_string()
                } else {
                    params.join(", ")
                }
            ))),
        }
    }

    /// The family's parameter.
    pub fn param(&self) -> &str {
        &self.param
    }

    /// The family as written.
    pub fn family(&self) -> &Family {
        &self.family
    }

    /// The move set at `param = value`.
    pub fn set_at(&self, value: i64) -> Result<CashSet> {
        let ranges: BTreeMap<String, IntRange> =
            [(self.param.clone(), IntRange::new(value, value)?)].into();
        let member = self.family.members(&ranges)?.remove(0);
        CashSet::new(member.heaps.iter().map(|&h| u64::from(h)).collect())
            .map_err(|e| Error::invalid(format!("{} = {value}: {e}", self.param)))
    }

    /// The members at start, start + step, … ≤ end, refused before any work when the data
    /// of the largest (at an end of the range: max A is affine in the parameter) would not fit
    /// in `max_bytes`.
    pub fn members(
        &self,
        range: IntRange,
        step: i64,
        max_bytes: u64,
    ) -> Result<Vec<(i64, CashSet)>> {
        if step < 1 {
            return Err(Error::invalid(format!("step {step}: must be at least 1")));
        }
        for value in [range.start(), range.end()] {
            let set = self.set_at(value)?;
            check_threshold_budget(&set, across_start_data(&set), true, max_bytes).map_err(
                |e| Error::invalid(format!("at {} = {value}, A = {set}: {e}", self.param)),
            )?;
        }
        std::iter::successors(Some(range.start()), |&l| l.checked_add(step))
            .take_while(|&l| l <= range.end())
            .map(|l| Ok((l, self.set_at(l)?)))
            .collect()
    }

    /// The table's columns: the parameter, then [`ACROSS_MEMBER_COLUMNS`].
    pub fn columns(&self) -> Vec<String> {
        std::iter::once(self.param.clone())
            .chain(ACROSS_MEMBER_COLUMNS.map(String::from))
            .collect()
    }
}

/// One row per member: the parameter, the set, and its summarized certified forms.
pub fn across_table(
    family: &SetFamily,
    sets: &[(i64, CashSet)],
    members: &[AcrossMember],
) -> Table {
    let columns = family.columns();
    let mut t = Table::new(&columns.iter().map(String::as_str).collect::<Vec<_>>());
    for (m, (_, set)) in members.iter().zip(sets) {
        let intercepts = |j: usize| Cell::list("[", ",", "]", m.intercepts[j].iter().cloned());
        t.push(vec![
            Cell::Int(m.l),
            Cell::list("{", ",", "}", set.elements().iter().copied()),
            Cell::Int(m.period as i64),
            Cell::Int(m.from),
            Cell::list("{", ",", "}", m.slopes.iter().cloned()),
            intercepts(0),
            intercepts(1),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_needs_exactly_one_parameter_and_a_positive_step() {
        assert!(SetFamily::new("1,4".parse().unwrap()).is_err());
        assert!(SetFamily::new("L,M".parse().unwrap()).is_err());
        let f = SetFamily::new("1,L".parse().unwrap()).unwrap();
        assert_eq!(f.param(), "L");
        let range = IntRange::new(2, 8).unwrap();
        assert!(f.members(range, 0, 1 << 30).is_err());
        let members = f.members(range, 3, 1 << 30).unwrap();
        let ls: Vec<i64> = members.iter().map(|(l, _)| *l).collect();
        assert_eq!(ls, [2, 5, 8]);
        assert_eq!(members[1].1.elements(), [1, 5]);
    }
}
