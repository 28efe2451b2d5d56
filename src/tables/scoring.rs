//! A family of Scoring Nim positions with their exact payoffs: `nimlab scoring family`, the
//! rows `nimlab mine family scoring` mines, and the Scoring Nim report's mined family. One solve
//! serves every member, and each member keeps its payoff f_N as a [`Pwl`]; the table shows the
//! payoff under [`PWL_COLUMNS`], or its values on a bonus grid.
//!
//! **Which solve.** Nim never splits a heap, so every member is reachable from the members'
//! componentwise maximum (the *hull*), and also lies in the table of all positions with as many
//! heaps, each at most the hull's largest. The hull's solve explores only what the hull reaches,
//! but takes a maximum over every move at each position (H⁵ work for three heaps ≤ H); the
//! table's running minimum ([`solve_table`]) carries each heap direction's extremum along in one
//! step per position (H⁴): about 2.4 µs a position against 60 µs at the sizes families reach
//! (the hull (144, 144, 1) reaches 21,000 positions and takes as long as the 518,000 of the
//! table of three heaps ≤ 144). So the table is solved when it has at most [`TABLE_OVER_HULL`]
//! times the hull's positions — `2k, k, k − 1` to k = 96: 83 s by the hull, 2.8 s by the table
//! — and the hull otherwise (`k, 1, 1`: a few thousand positions against a cube). The exact
//! method always takes the hull, the reference the table is tested against.

use std::collections::BTreeMap;

use super::mined::Column;
use crate::error::{Error, Result};
use crate::export::{Cell, Format, RowEncoder, Table};
use crate::family::Family;
use crate::games::scoring::{
    GRID_LIMIT, HeapSize, HeapTable, Limits, MAX_TABLE_HEAPS, Method, PayoffRef, nim_heaps,
    scoring_nim, solve_cost, solve_many_reporting, solve_table, table_bytes, table_size,
};
use crate::num::{IntRange, Pwl, Q, QRange, last_fitting};
use crate::progress::{Progress, Silent};

/// The columns of a payoff without a bonus grid (`nimlab scoring table` and `family`).
pub const PWL_COLUMNS: [&str; 4] = ["breakpoints", "c_minus", "c_plus", "payoff"];

/// The columns of a payoff's values on a bonus grid.
const GRID_COLUMNS: [&str; 2] = ["bonus", "payoff"];

/// One member of a family with its payoff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringMember {
    /// The parameters' values, in the order of [`ScoringFamily::params`].
    pub params: Vec<i64>,
    /// The heap sizes, in the family's order.
    pub heaps: Vec<HeapSize>,
    /// f_N of the position, as a function of the bonus N.
    pub payoff: Pwl,
}

/// A family of Scoring Nim positions with their payoffs, as [`family_table`] computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringFamily {
    /// The parameters' names, sorted.
    pub params: Vec<String>,
    /// The number of heaps of every member.
    pub heap_count: usize,
    /// The bonus values the table lists each payoff at; `None`: the payoff itself.
    pub grid: Option<QRange>,
    /// The members, in the order the family lists them.
    pub members: Vec<ScoringMember>,
}

impl ScoringFamily {
    /// The table's column names: the parameters, `h1`, `h2`, …, then [`PWL_COLUMNS`] or, with
    /// a grid, `bonus` and `payoff`.
    pub fn columns(&self) -> Vec<String> {
        let mut columns = self.params.clone();
        columns.extend((1..=self.heap_count).map(|i| format!("h{i}")));
        let payoff: &[&str] = match self.grid {
            Some(_) => &GRID_COLUMNS,
            None => &PWL_COLUMNS,
        };
        columns.extend(payoff.iter().map(|c| c.to_string()));
        columns
    }

    /// The rows in order, one per member or, with a grid, one per member and bonus value.
    pub fn rows(&self) -> impl Iterator<Item = Vec<Cell>> + '_ {
        self.members.iter().flat_map(move |m| {
            let mut lead: Vec<Cell> = m.params.iter().map(|&p| Cell::Int(p)).collect();
            lead.extend(m.heaps.iter().map(|&h| Cell::from(h)));
            let rows: Vec<Vec<Cell>> = match &self.grid {
                Some(g) => g
                    .iter()
                    .map(|n| {
                        let mut row = lead.clone();
                        let v = m.payoff.eval(&n);
                        row.extend([Cell::from(n), v.into()]);
                        row
                    })
                    .collect(),
                None => {
                    let f = &m.payoff;
                    lead.extend([
                        Cell::Int(f.breakpoints().len() as i64),
                        f.left_intercept().into(),
                        f.right_intercept().into(),
                        Cell::from(f),
                    ]);
                    vec![lead]
                }
            };
            rows
        })
    }

    /// The table as `nimlab scoring family` prints it.
    pub fn table(&self) -> Table {
        Table {
            columns: self.columns(),
            rows: self.rows().collect(),
        }
    }

    /// The table's columns typed, as the miner reads them ([`super::mined::family_forms`]):
    /// the same columns and rows as [`ScoringFamily::table`], each value as it is.
    pub fn typed_columns(&self) -> Vec<(String, Column)> {
        let rows: Vec<(&ScoringMember, Option<Q>)> = match &self.grid {
            Some(g) => self
                .members
                .iter()
                .flat_map(|m| g.iter().map(move |n| (m, Some(n))))
                .collect(),
            None => self.members.iter().map(|m| (m, None)).collect(),
        };
        let names = self.columns();
        let mut columns: Vec<Column> = Vec::new();
        for p in 0..self.params.len() {
            columns.push(Column::Int(rows.iter().map(|(m, _)| m.params[p]).collect()));
        }
        for h in 0..self.heap_count {
            columns.push(Column::Int(
                rows.iter().map(|(m, _)| i64::from(m.heaps[h])).collect(),
            ));
        }
        match &self.grid {
            Some(_) => {
                let at = |(m, n): &(&ScoringMember, Option<Q>)| {
                    let n = n.clone().expect("a bonus value in every row of a grid");
                    (m.payoff.eval(&n), n)
                };
                columns.push(Column::Exact(rows.iter().map(|r| at(r).1).collect()));
                columns.push(Column::Exact(rows.iter().map(|r| at(r).0).collect()));
            }
            None => {
                let fs = || rows.iter().map(|(m, _)| &m.payoff);
                columns.push(Column::Int(
                    fs().map(|f| f.breakpoints().len() as i64).collect(),
                ));
                columns.push(Column::Exact(fs().map(Pwl::left_intercept).collect()));
                columns.push(Column::Exact(fs().map(Pwl::right_intercept).collect()));
                columns.push(Column::Pwl(fs().cloned().collect()));
            }
        }
        names.into_iter().zip(columns).collect()
    }
}

/// The rows of `nimlab scoring table` for one position of a solved table (heaps in the order
/// the table lists them, every heap non-empty): [`encode_payoff_rows`] with the position's
/// payoff.
///
/// # Panics
/// When `heaps` is not a position of `table`.
pub fn encode_table_rows(
    table: &HeapTable,
    heaps: &[HeapSize],
    grid: Option<&QRange>,
    out: &mut RowEncoder,
) {
    let index = table.index(heaps).expect("position is in the table");
    encode_payoff_rows(table.payoffs().get(index), heaps, grid, out);
}

/// The rows of `nimlab scoring table` for one position and its payoff: the heaps, then the
/// payoff under [`PWL_COLUMNS`] (JSON gets the payoff's parts, the other formats its text), or
/// one row per bonus value of `grid` with f_N there.
///
/// On an integer grid over a grid payoff each value is one machine-integer lookup, F(s·N)/s,
/// exactly the value [`PayoffRef::value`] gives (it takes the same path for integer N with
/// |s·N| ≤ [`GRID_LIMIT`]); any other bonus goes through the exact rational evaluation.
pub fn encode_payoff_rows(
    payoff: PayoffRef<'_>,
    heaps: &[HeapSize],
    grid: Option<&QRange>,
    out: &mut RowEncoder,
) {
    let lead = |out: &mut RowEncoder| heaps.iter().for_each(|&h| out.int(i64::from(h)));
    let Some(grid) = grid else {
        lead(out);
        match payoff {
            // The payoff's numbers as machine integers and its text straight into the
            // encoder's buffer: no allocation, no big rational per row.
            PayoffRef::Grid { scale, f } if out.format() != Format::Json => {
                let parts = f.summary_parts(scale);
                out.int(parts.breakpoints as i64);
                out.ratio(parts.c_minus.0, parts.c_minus.1);
                out.ratio(parts.c_plus.0, parts.c_plus.1);
                out.ascii_with(|text| f.write_text_bytes(scale, text));
            }
            _ => {
                let s = payoff.summary();
                out.int(s.breakpoints as i64);
                out.rational(&s.c_minus);
                out.rational(&s.c_plus);
                if out.format() == Format::Json {
                    out.cell(&Cell::from(&payoff.pwl()));
                } else {
                    out.text(&s.text);
                }
            }
        }
        out.end_row();
        return;
    };
    let on_grid = |n: i64| match payoff {
        PayoffRef::Grid { scale, f } => n
            .checked_mul(scale)
            .filter(|m| m.abs() <= GRID_LIMIT)
            .map(|m| (f.at(m), scale)),
        PayoffRef::Exact(_) => None,
    };
    match grid.as_integers() {
        Some((start, step)) => {
            for i in 0..grid.len() as i64 {
                let n = start + i * step;
                lead(out);
                out.int_as_rational(n);
                match on_grid(n) {
                    Some((value, scale)) => out.ratio(value, scale),
                    None => out.rational(&payoff.value(&Q::int(n))),
                }
                out.end_row();
            }
        }
        None => {
            for n in grid.iter() {
                lead(out);
                out.rational(&n);
                out.rational(&payoff.value(&n));
                out.end_row();
            }
        }
    }
}

/// The members of a family of Scoring Nim positions with their payoffs (`nimlab scoring
/// family`); with a grid, the table lists each payoff's values on it.
pub fn family_table(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
    limits: &Limits,
) -> Result<ScoringFamily> {
    family_table_reporting(fam, ranges, grid, method, limits, &Silent)
}

/// The most rows a family table may have: it is held whole, and more rows than this are days of
/// output, never what was meant.
pub const MAX_FAMILY_ROWS: u64 = 100_000_000;

/// Bytes of one member while listed (its parameter map and heaps), besides `4·heaps`.
const MEMBER_BYTES: u64 = 160;
/// Bytes one held table cell costs: the cell (a rational is two big integers on the heap)
/// and its rendered text.
const CELL_BYTES: u64 = 192;

/// The most positions the table of all positions may have, as a multiple of the hull's, for a
/// family to be solved by the table (see the module doc): its running minimum does about
/// twenty-five times less work per position, so a table a dozen times larger is solved in about
/// half the time, and the bound leaves room for the table's larger memory.
pub const TABLE_OVER_HULL: u64 = 12;

/// How a family's members are solved (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
enum MemberSolve {
    /// The table of all positions of `heaps` heaps ≤ `max_heap`.
    Table { heaps: usize, max_heap: HeapSize },
    /// The solve of the hull, heaps sorted largest first.
    Hull(Vec<HeapSize>),
}

impl MemberSolve {
    /// The solve for the members whose componentwise maximum (sorted) is `hull`, with its
    /// estimated peak bytes.
    fn choose(hull: Vec<HeapSize>, method: Method) -> (MemberSolve, u64) {
        let hull_cost = solve_cost(&scoring_nim(), &[nim_heaps(&hull)], method)
            .expect("Nim never splits and bounds its moves");
        let heaps = hull.len();
        let max_heap = hull.first().copied().unwrap_or(0);
        let table = (method != Method::Exact && (1..=MAX_TABLE_HEAPS).contains(&heaps))
            .then(|| table_size(heaps, max_heap).zip(table_bytes(&scoring_nim(), heaps, max_heap)))
            .flatten()
            .filter(|&(positions, _)| {
                positions < u64::from(u32::MAX)
                    && positions <= hull_cost.positions.saturating_mul(TABLE_OVER_HULL)
            });
        match table {
            Some((_, bytes)) => (MemberSolve::Table { heaps, max_heap }, bytes),
            None => (MemberSolve::Hull(hull), hull_cost.bytes),
        }
    }
}

/// A member's payoff from its heaps, read from the solve chosen.
type PayoffOf = dyn Fn(&[HeapSize]) -> Result<Pwl>;

/// The members' componentwise maximum, heaps sorted largest first.
fn hull_of<'m>(heap_count: usize, members: impl Iterator<Item = &'m [HeapSize]>) -> Vec<HeapSize> {
    let mut hull = vec![0 as HeapSize; heap_count];
    for heaps in members {
        let mut s = heaps.to_vec();
        s.sort_unstable_by(|x, y| y.cmp(x));
        for (h, v) in hull.iter_mut().zip(s) {
            *h = (*h).max(v);
        }
    }
    hull
}

/// Estimated peak bytes of [`family_table`] (with its table rendered) and its row count, from the ranges alone (no
/// member listed, no move generated): the solve (the table or the hull, as chosen, bounded by
/// the heaps' maxima, which [`Family::heap_maxima`] also checks for range), the members, and
/// the rows.
pub fn family_cost(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
) -> Result<(u64, u64)> {
    let count = fam.member_count(ranges)?;
    let mut hull = fam.heap_maxima(ranges)?;
    hull.sort_unstable_by(|x, y| y.cmp(x));
    let (_, solve_bytes) = MemberSolve::choose(hull, method);
    let k = fam.heaps().len() as u64;
    let rows = count.saturating_mul(grid.map_or(1, QRange::len));
    let columns = fam.params().len() as u64 + k + if grid.is_some() { 2 } else { 4 };
    let bytes = solve_bytes
        .saturating_add(count.saturating_mul(MEMBER_BYTES + 4 * k))
        .saturating_add(rows.saturating_mul(columns * CELL_BYTES));
    Ok((bytes, rows))
}

/// Refuses a family table over the memory limit or [`MAX_FAMILY_ROWS`], before any work,
/// naming the estimate; for one parameter it suggests the longest range from the same start
/// that fits.
fn check_family_cost(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
    limits: &Limits,
) -> Result<()> {
    let fits = |r: &BTreeMap<String, IntRange>| {
        family_cost(fam, r, grid, method)
            .is_ok_and(|(b, rows)| b <= limits.max_bytes && rows <= MAX_FAMILY_ROWS)
    };
    let (bytes, rows) = family_cost(fam, ranges, grid, method)?;
    if bytes <= limits.max_bytes && rows <= MAX_FAMILY_ROWS {
        return Ok(());
    }
    // With one parameter the cost grows with the range's end: bisect for the longest range.
    let mut suggestion = String::new();
    if let [(name, range)] = ranges.iter().collect::<Vec<_>>()[..] {
        let with_end = |end: i64| {
            let mut r = ranges.clone();
            r.insert(
                name.clone(),
                IntRange::new(range.start(), end).expect("start ≤ end"),
            );
            r
        };
        // Ends below the refused one only.
        if range.end() > range.start()
            && let Some(lo) =
                last_fitting(range.start(), range.end() - 1, |end| fits(&with_end(end)))
        {
            suggestion = format!(
                "use {name} = {}..{lo} (the longest range from {} that fits), ",
                range.start(),
                range.start()
            );
        }
    }
    let what = format!(
        "the family '{fam}' over {} ({} rows)",
        ranges
            .iter()
            .map(|(p, r)| format!("{p} = {r}"))
            .collect::<Vec<_>>()
            .join(", "),
        rows
    );
    if rows > MAX_FAMILY_ROWS {
        return Err(Error::invalid(format!(
            "{what} is more than the limit of {MAX_FAMILY_ROWS} rows; {suggestion}narrow the ranges{}",
            if grid.is_some() {
                " or use fewer bonus values"
            } else {
                ""
            }
        )));
    }
    Err(Error::TooLarge {
        what,
        needed_bytes: bytes,
        limit_bytes: limits.max_bytes,
        suggestion: format!(
            "{suggestion}narrow the ranges{}, or raise --memory-limit",
            if grid.is_some() {
                ", use fewer bonus values"
            } else {
                ""
            }
        ),
    })
}

/// [`family_table`], refusing oversized requests before any work and reporting the solve's
/// progress.
pub fn family_table_reporting(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<ScoringFamily> {
    check_family_cost(fam, ranges, grid, method, limits)?;
    let members = fam.members(ranges)?;
    let k = fam.heaps().len();
    let hull = hull_of(k, members.iter().map(|m| m.heaps.as_slice()));
    // The payoff of a member, read from whichever solve was chosen.
    let payoff: Box<PayoffOf> = match MemberSolve::choose(hull, method).0 {
        MemberSolve::Table { heaps, max_heap } => {
            let table = solve_table(&scoring_nim(), heaps, max_heap, method, limits, progress)?;
            Box::new(move |heaps| table.payoff(heaps))
        }
        MemberSolve::Hull(hull) => {
            let sol = solve_many_reporting(
                &scoring_nim(),
                &[nim_heaps(&hull)],
                method,
                limits,
                progress,
            )?;
            Box::new(move |heaps| sol.payoff(&nim_heaps(heaps)))
        }
    };
    let params = fam.params();
    let members = members
        .into_iter()
        .map(|m| {
            Ok(ScoringMember {
                payoff: payoff(&m.heaps)?,
                params: params.iter().map(|p| m.params[p]).collect(),
                heaps: m.heaps,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(ScoringFamily {
        params,
        heap_count: k,
        grid: grid.cloned(),
        members,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoring::solve;

    fn ranges(k: (i64, i64)) -> BTreeMap<String, IntRange> {
        BTreeMap::from([("k".to_string(), IntRange::new(k.0, k.1).unwrap())])
    }

    #[test]
    fn each_member_keeps_its_payoff_and_the_table_shows_it() {
        let fam: Family = "2k+1,2k,1".parse().unwrap();
        let t = family_table(
            &fam,
            &ranges((1, 5)),
            None,
            Method::Auto,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(t.members.len(), 5);
        // Each payoff is the one a solve of the member alone gives.
        for m in &t.members {
            let heaps = nim_heaps(&m.heaps);
            let alone = solve(&scoring_nim(), &heaps, Method::Auto, &Limits::default())
                .unwrap()
                .payoff(&heaps)
                .unwrap();
            assert_eq!(m.payoff, alone, "{:?}", m.heaps);
        }
        let table = t.table();
        assert_eq!(
            table.columns,
            [
                "k",
                "h1",
                "h2",
                "h3",
                "breakpoints",
                "c_minus",
                "c_plus",
                "payoff"
            ]
        );
        Column::assert_renders_as(&t.typed_columns(), &table);
        // On a bonus grid: one row per member and bonus value, its value f_N.
        let grid = QRange::new(Q::int(-1), Q::one(), Q::one()).unwrap();
        let g = family_table(
            &fam,
            &ranges((2, 3)),
            Some(&grid),
            Method::Auto,
            &Limits::default(),
        )
        .unwrap();
        let table = g.table();
        assert_eq!(table.columns, ["k", "h1", "h2", "h3", "bonus", "payoff"]);
        assert_eq!(table.rows.len(), 2 * 3);
        assert_eq!(
            table.rows[4][5],
            Cell::from(g.members[1].payoff.eval(&Q::zero()))
        );
        Column::assert_renders_as(&g.typed_columns(), &table);
    }

    #[test]
    fn the_table_is_solved_where_it_pays_and_the_hull_elsewhere() {
        let hull = |fam: &str, end: i64| {
            let fam: Family = fam.parse().unwrap();
            let mut h = fam.heap_maxima(&ranges((1, end))).unwrap();
            h.sort_unstable_by(|x, y| y.cmp(x));
            h
        };
        let solve =
            |fam: &str, end: i64, method: Method| MemberSolve::choose(hull(fam, end), method).0;
        assert_eq!(
            solve("2k,k,k-1", 48, Method::Auto),
            MemberSolve::Table {
                heaps: 3,
                max_heap: 96
            }
        );
        assert!(matches!(
            solve("k,1,1", 48, Method::Auto),
            MemberSolve::Hull(_)
        ));
        assert!(matches!(
            solve("2k,k,k-1", 48, Method::Exact),
            MemberSolve::Hull(_)
        ));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// Members read from the table of all positions are the members of the hull's exact
        /// solve, whatever the family: heaps a·k + b, some fixed, some zero at the start.
        #[test]
        fn members_from_the_table_are_the_members_of_the_hull(
            heaps in proptest::collection::vec((0i64..3, -1i64..4), 2..4),
            end in 2i64..9,
        ) {
            let heaps: Vec<(i64, i64)> = heaps
                .into_iter()
                .map(|(a, b)| if a == 0 { (0, b.max(1)) } else { (a, b) })
                .collect();
            proptest::prop_assume!(heaps.iter().any(|&(a, _)| a > 0));
            let text = heaps
                .iter()
                .map(|&(a, b)| match (a, b) {
                    (0, b) => b.to_string(),
                    (a, 0) => format!("{a}k"),
                    (a, b) => format!("{a}k{b:+}"),
                })
                .collect::<Vec<_>>()
                .join(",");
            let fam: Family = text.parse().unwrap();
            // The first k where no heap is negative.
            let start = heaps
                .iter()
                .map(|&(a, b)| if a > 0 { (-b + a - 1).div_euclid(a).max(0) } else { 0 })
                .max()
                .unwrap();
            proptest::prop_assume!(start <= end);
            let r = ranges((start, end));
            let auto = family_table(&fam, &r, None, Method::Auto, &Limits::default()).unwrap();
            let exact = family_table(&fam, &r, None, Method::Exact, &Limits::default()).unwrap();
            proptest::prop_assert_eq!(&auto, &exact, "{}", text);
        }
    }

    /// The rows `nimlab scoring table` built as cells before rows were encoded directly.
    fn table_cells(table: &HeapTable, grid: Option<&QRange>, json: bool) -> Vec<Vec<Cell>> {
        let mut rows = Vec::new();
        for p in table.positions_iter().filter(|p| p.iter().all(|&h| h > 0)) {
            let lead: Vec<Cell> = p.iter().map(|&h| Cell::from(h)).collect();
            match grid {
                Some(g) => {
                    for n in g.iter() {
                        let mut row = lead.clone();
                        let v = table.value(&p, &n).unwrap();
                        row.extend([Cell::from(n), v.into()]);
                        rows.push(row);
                    }
                }
                None => {
                    let s = table.summary(&p).unwrap();
                    let payoff = if json {
                        Cell::from(&table.payoff(&p).unwrap())
                    } else {
                        s.text.into()
                    };
                    let mut row = lead;
                    row.extend([
                        Cell::Int(s.breakpoints as i64),
                        s.c_minus.into(),
                        s.c_plus.into(),
                        payoff,
                    ]);
                    rows.push(row);
                }
            }
        }
        rows
    }

    #[test]
    fn encoded_table_rows_are_the_cells_rendered_in_every_format() {
        let integers = QRange::new(Q::int(-7), Q::int(9), Q::int(2)).unwrap();
        let halves = QRange::new(Q::frac(-5, 2), Q::int(3), Q::frac(1, 2)).unwrap();
        // Beyond the grid's integer range: the exact evaluation takes over.
        let far = QRange::new(Q::int(GRID_LIMIT - 1), Q::int(GRID_LIMIT + 2), Q::one()).unwrap();
        for method in [Method::Auto, Method::Exact] {
            let table = crate::games::scoring::solve_table(
                &scoring_nim(),
                3,
                6,
                method,
                &Limits::default(),
                &Silent,
            )
            .unwrap();
            for grid in [None, Some(&integers), Some(&halves), Some(&far)] {
                for format in Format::ALL {
                    let mut columns: Vec<String> = ["h1", "h2", "h3"].map(String::from).to_vec();
                    let payoff: &[&str] = if grid.is_some() {
                        &GRID_COLUMNS
                    } else {
                        &PWL_COLUMNS
                    };
                    columns.extend(payoff.iter().map(|c| c.to_string()));
                    let cells = table_cells(&table, grid, format == Format::Json);
                    let mut held = Vec::new();
                    crate::export::reference::write_rows(
                        format,
                        &columns,
                        cells.into_iter(),
                        &mut held,
                    )
                    .unwrap();
                    let mut out = Vec::new();
                    let mut writer =
                        crate::export::TableWriter::new(format, &columns, &mut out).unwrap();
                    let positions = table.positions_iter().filter(|p| p.iter().all(|&h| h > 0));
                    crate::export::write_rows_parallel(&mut writer, positions, 5, |p, e| {
                        encode_table_rows(&table, p, grid, e)
                    })
                    .unwrap();
                    writer.finish().unwrap();
                    assert_eq!(out, held, "{method:?} {grid:?} {}", format.name());
                }
            }
        }
    }

    #[test]
    fn oversized_families_are_refused_before_any_work() {
        let fam: Family = "2k+1,2k,1".parse().unwrap();
        let (bytes, rows) = family_cost(&fam, &ranges((1, 10)), None, Method::Auto).unwrap();
        assert_eq!(rows, 10);
        let small = Limits {
            max_bytes: bytes - 1,
        };
        let e = family_table(&fam, &ranges((1, 10)), None, Method::Auto, &small)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("use k = 1.."),
            "a shorter range is suggested: {e}"
        );
        // More rows than MAX_FAMILY_ROWS on a grid.
        let grid = QRange::new(Q::zero(), Q::int(100_000_000), Q::frac(1, 2)).unwrap();
        let e = family_table(
            &fam,
            &ranges((1, 2)),
            Some(&grid),
            Method::Auto,
            &Limits::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("rows"), "{e}");
    }
}
