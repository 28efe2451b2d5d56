//! A family of Candy Nim positions with their values: `nimlab candy family`, the rows `nimlab
//! mine family candy` mines, and the Candy Nim report's family [31, 32m, 32m+31]. The members'
//! P-position values come from one value table covering them all.

use std::collections::BTreeMap;

use super::mined::Column;
use crate::error::Result;
use crate::export::{Cell, Table};
use crate::family::{Family, Member};
use crate::games::candy::{Candies, CandyValue, TableShape, value_with};
use crate::num::IntRange;
use crate::progress::{Progress, Silent};

/// One member of a family with its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandyMember {
    /// The parameters' values, in the order of [`CandyFamily::params`].
    pub params: Vec<i64>,
    /// The heap sizes, in the family's order.
    pub heaps: Vec<Candies>,
    /// V = N_L − N_W, N_L and N_W.
    pub value: CandyValue,
}

/// A family of Candy Nim positions with their values, as [`family_table`] computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandyFamily {
    /// The parameters' names, sorted.
    pub params: Vec<String>,
    /// The number of heaps of every member.
    pub heap_count: usize,
    /// The members, in the order the family lists them.
    pub members: Vec<CandyMember>,
}

impl CandyFamily {
    /// The table's column names: the parameters, `h1`, `h2`, …, `v`, `n_l`, `n_w`.
    pub fn columns(&self) -> Vec<String> {
        let mut columns = self.params.clone();
        columns.extend((1..=self.heap_count).map(|i| format!("h{i}")));
        columns.extend(["v", "n_l", "n_w"].map(String::from));
        columns
    }

    /// The table as `nimlab candy family` prints it, one row per member.
    pub fn table(&self) -> Table {
        let rows = self
            .members
            .iter()
            .map(|m| {
                let mut row: Vec<Cell> = m.params.iter().map(|&p| Cell::Int(p)).collect();
                row.extend(m.heaps.iter().map(|&x| Cell::from(x)));
                row.extend([
                    Cell::Int(m.value.v),
                    Cell::Int(m.value.n_l as i64),
                    Cell::Int(m.value.n_w as i64),
                ]);
                row
            })
            .collect();
        Table {
            columns: self.columns(),
            rows,
        }
    }

    /// The table's columns typed, as the miner reads them ([`super::mined::family_forms`]):
    /// the same columns and rows as [`CandyFamily::table`].
    pub fn typed_columns(&self) -> Vec<(String, Column)> {
        let ms = &self.members;
        let mut columns: Vec<Column> = (0..self.params.len())
            .map(|p| Column::Int(ms.iter().map(|m| m.params[p]).collect()))
            .collect();
        columns.extend(
            (0..self.heap_count)
                .map(|h| Column::Int(ms.iter().map(|m| i64::from(m.heaps[h])).collect())),
        );
        columns.extend([
            Column::Int(ms.iter().map(|m| m.value.v).collect()),
            Column::Int(ms.iter().map(|m| m.value.n_l as i64).collect()),
            Column::Int(ms.iter().map(|m| m.value.n_w as i64).collect()),
        ]);
        self.columns().into_iter().zip(columns).collect()
    }
}

/// The members of a family and the value table that covers them, refused at once (with its
/// estimate) when that table needs more than `max_bytes`: the members at the corners of the
/// ranges are costed before the others are listed, since every table that covers all members
/// covers those too (a range of a million members is refused without listing one).
pub fn family_plan(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    max_bytes: u64,
) -> Result<(Vec<Member>, TableShape)> {
    let mut corners: Vec<BTreeMap<String, IntRange>> = vec![BTreeMap::new()];
    for (name, range) in ranges {
        let ends = [range.start(), range.end()];
        corners = corners
            .into_iter()
            .flat_map(|c| {
                ends.iter().map(move |&v| {
                    let mut c = c.clone();
                    c.insert(name.clone(), IntRange::new(v, v).expect("one value"));
                    c
                })
            })
            .collect();
    }
    let mut corner_heaps = Vec::new();
    for c in &corners {
        corner_heaps.extend(fam.members(c)?.into_iter().map(|m| m.heaps));
    }
    refuse_above(&TableShape::covering(&corner_heaps)?, max_bytes)?;
    let members = fam.members(ranges)?;
    let positions: Vec<Vec<Candies>> = members.iter().map(|m| m.heaps.clone()).collect();
    let shape = TableShape::covering(&positions)?;
    refuse_above(&shape, max_bytes)?;
    Ok((members, shape))
}

/// The refusal of a table larger than `max_bytes` (its solve refuses before it allocates).
fn refuse_above(shape: &TableShape, max_bytes: u64) -> Result<()> {
    if shape.bytes() > u128::from(max_bytes) {
        shape.solve(max_bytes, &Silent)?;
    }
    Ok(())
}

/// The members of a family of Candy Nim positions with their values (`nimlab candy family`),
/// from value tables of at most `max_bytes`.
pub fn family_table(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<CandyFamily> {
    let (members, shape) = family_plan(fam, ranges, max_bytes)?;
    family_table_of(fam, members, &shape, max_bytes, progress)
}

/// [`family_table`] from its [`family_plan`].
pub fn family_table_of(
    fam: &Family,
    members: Vec<Member>,
    shape: &TableShape,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<CandyFamily> {
    let values = shape.solve(max_bytes, progress)?;
    let params = fam.params();
    let members = members
        .into_iter()
        .map(|m| {
            Ok(CandyMember {
                value: value_with(values.as_ref(), &m.heaps)?,
                params: params.iter().map(|p| m.params[p]).collect(),
                heaps: m.heaps,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(CandyFamily {
        params,
        heap_count: fam.heaps().len(),
        members,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corners are costed first: a range with more members than may be listed at all is
    /// refused for its table (which the members at its ends already need), not its length.
    #[test]
    fn a_family_plan_costs_the_corners_before_listing_the_members() {
        let fam: Family = "31,32m,32m+31".parse().unwrap();
        let huge = BTreeMap::from([("m".to_string(), IntRange::new(2, 20_000_000).unwrap())]);
        let refusal = family_plan(&fam, &huge, 1 << 31).unwrap_err().to_string();
        assert!(refusal.contains("would need"), "{refusal}");
        assert!(refusal.contains("640000000"), "{refusal}");
        // Within the limit, the plan lists every member and covers them all.
        let small = BTreeMap::from([("m".to_string(), IntRange::new(1, 5).unwrap())]);
        let (members, shape) = family_plan(&fam, &small, 1 << 31).unwrap();
        assert_eq!(members.len(), 5);
        let heaps: Vec<Vec<Candies>> = members.iter().map(|m| m.heaps.clone()).collect();
        assert_eq!(shape, TableShape::covering(&heaps).unwrap());
    }

    #[test]
    fn each_member_keeps_its_value_and_the_table_shows_it() {
        let fam: Family = "31,32m,32m+31".parse().unwrap();
        let ranges = BTreeMap::from([("m".to_string(), IntRange::new(1, 4).unwrap())]);
        let t = family_table(&fam, &ranges, 1 << 30, &Silent).unwrap();
        // Each value is the one the member's own value table gives.
        for m in &t.members {
            let own = TableShape::covering(std::slice::from_ref(&m.heaps))
                .unwrap()
                .solve(1 << 30, &Silent)
                .unwrap();
            assert_eq!(m.value, value_with(own.as_ref(), &m.heaps).unwrap());
        }
        let table = t.table();
        assert_eq!(table.columns, ["m", "h1", "h2", "h3", "v", "n_l", "n_w"]);
        Column::assert_renders_as(&t.typed_columns(), &table);
    }
}
