//! The Candy Nim report's builtins: what its study file (`data/studies/candy-nim.toml`, which
//! declares Remark 4.5's family [31, 32m, 32m+31], its mined closed forms and its b-file) cannot
//! declare — V beside the fractal strategy's value on §4's standard forms 𝔊(2^k − 1, m, 0), and
//! two of §6's statements side by side with the allocation engine
//! ([`crate::games::candy::allocation`]):
//! - Theorem 6.7: N_W(G) ≥ ⌊log₂ N(G)⌋, with equality only in the arrangements (1) N = 2^n,
//!   (2) N = 2^n − 2, (3) N = 2^n − 2^k − 2 (n > k + 1, n > 2). Equality can only occur in a
//!   P-position (see the claim file), so the games attaining it are the N_W-minimising
//!   P-positions when their least N_W is ⌊log₂ N⌋; they are set beside the listed arrangements
//!   for every even N of the range.
//! - The example after Theorem 6.9: the printed unique minimiser G and N_W(G) for N = 10, 12,
//!   14, 16 beside every minimiser the engine finds.
//!
//! Every text a reader sees writes its mathematics as `$…$` TeX.

use super::{Draft, command, param};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};

use crate::games::candy::{
    Allocation, Candies, Contraction, Reading, Strategy, TableShape, play_strategy,
    standard_form_game, value_with,
};
use crate::progress::Progress;
use crate::report::ReportOptions;
use crate::report::context::{Axis, Series, SeriesStyle};
use crate::report::data::{FigureSpec, Shown, TableSpec, agreement, figure, table};

/// Memory cap of the value tables (the CLI's default).
const MEMORY: u64 = 4 << 30;

/// The standard forms 𝔊(2^k − 1, m, 0) of the §4 table: 1 ≤ k ≤ STANDARD_K, 1 ≤ m ≤ STANDARD_M
/// (the games reach 1023 candies in a heap: 2 s of value table).
const STANDARD_K: u32 = 8;
const STANDARD_M: u64 = 3;

/// V and the fractal strategy's value (f(a) = ⌊a/2⌋, step (3) on the largest pile) on every
/// standard form 𝔊(2^k − 1, m, 0) of the §4 table, as `nimlab candy standard` prints them:
/// columns k, m, v, v_fractal, gap = v − v_fractal.
fn standard_table(progress: &dyn Progress) -> Result<Table> {
    let points: Vec<(u32, u64)> = (1..=STANDARD_K)
        .flat_map(|k| (1..=STANDARD_M).map(move |m| (k, m)))
        .collect();
    let games = points
        .iter()
        .map(|&(k, m)| standard_form_game(k, m).map(|g| g.to_vec()))
        .collect::<Result<Vec<_>>>()?;
    let values = TableShape::covering(&games)?.solve(MEMORY, progress)?;
    let fractal = Strategy::Fractal {
        f: Contraction::Half,
        reading: Reading::Largest,
    };
    let mut t = Table::new(&["k", "m", "v", "v_fractal", "gap"]);
    for (&(k, m), g) in points.iter().zip(&games) {
        let v = value_with(values.as_ref(), g)?.v;
        let fv = play_strategy(&fractal, g)?.value;
        t.push(vec![
            Cell::Int(i64::from(k)),
            Cell::Int(m as i64),
            Cell::Int(v),
            Cell::Int(fv),
            Cell::Int(v - fv),
        ]);
    }
    Ok(t)
}

/// The largest N of the Theorem 6.7 table (the claim's deep range; 0.5 s of allocation here).
const ALLOCATION_MAX: Candies = 60;

/// The example after Theorem 6.9 as printed (§6, "Example. For N = 10, 12, 16 we compute the
/// unique games G that minimize N_W(G) via Theorem 6.7", whose list also has N = 14; our copy,
/// papers/candy-nim.md, has no page numbers): N, the printed G (heaps as printed) and N_W(G).
/// The claim `ex-6-minimizers` of data/claims/candy-nim.toml checks the same values; a test
/// keeps the two transcriptions equal.
const PRINTED_MINIMISERS: [(Candies, &[Candies], u64); 4] = [
    (10, &[1, 4, 5], 3),
    (12, &[2, 4, 6], 3),
    (14, &[1, 2, 4, 7], 3),
    (16, &[1, 1, 1, 2, 4, 7], 4),
];

/// Which of Theorem 6.7's three arrangements, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EqualityCase {
    /// (1) N = 2^n: [1, 1, 1, 2, 4, …, 2^{n−2}, 2^{n−1} − 1].
    Power { n: u32 },
    /// (2) N = 2^n − 2: [1, 2, 4, …, 2^{n−2}, 2^{n−1} − 1].
    PowerLessTwo { n: u32 },
    /// (3) N = 2^n − 2^k − 2: the powers 1, …, 2^{n−2} without 2^{k−1}, and 2^{n−1} − 1 − 2^{k−1}.
    Gap { n: u32, k: u32 },
}

impl EqualityCase {
    /// The case as a reader sees it, "(3), $n = 4$, $k = 1$" (`math`), or as plain CSV text,
    /// "(3), n = 4, k = 1".
    fn label(self, math: bool) -> String {
        let m = |t: String| if math { format!("${t}$") } else { t };
        match self {
            EqualityCase::Power { n } => format!("(1), {}", m(format!("n = {n}"))),
            EqualityCase::PowerLessTwo { n } => format!("(2), {}", m(format!("n = {n}"))),
            EqualityCase::Gap { n, k } => {
                format!("(3), {}, {}", m(format!("n = {n}")), m(format!("k = {k}")))
            }
        }
    }

    /// The arrangement, heaps in increasing order.
    fn heaps(self) -> Vec<Candies> {
        let powers = |n: u32, skip: Option<u32>| -> Vec<Candies> {
            (0..=n - 2)
                .filter(|&j| Some(j) != skip)
                .map(|j| 1 << j)
                .collect()
        };
        let mut heaps = match self {
            EqualityCase::Power { n } => {
                let mut h = vec![1, 1];
                h.extend(powers(n, None));
                h.push((1 << (n - 1)) - 1);
                h
            }
            EqualityCase::PowerLessTwo { n } => {
                let mut h = powers(n, None);
                h.push((1 << (n - 1)) - 1);
                h
            }
            EqualityCase::Gap { n, k } => {
                let mut h = powers(n, Some(k - 1));
                h.push((1 << (n - 1)) - 1 - (1 << (k - 1)));
                h
            }
        };
        heaps.sort_unstable();
        heaps
    }
}

/// The arrangements Theorem 6.7 lists for N candies with n ≥ `least_n` (the theorem: 3; its
/// correction: 2), n, k positive and n > k + 1, in the order (1), (2), (3) by n then k.
fn theorem_6_7_list(candies: Candies, least_n: u32) -> Vec<(EqualityCase, Vec<Candies>)> {
    let total = u64::from(candies);
    let mut out = Vec::new();
    // Case (3) has N ≥ 2^n − 2^{n−2} − 2, so n stops once 3·2^{n−2} − 2 exceeds N.
    let mut n = least_n.max(2);
    while 3 * (1u64 << (n - 2)) - 2 <= total {
        let power = 1u64 << n;
        let mut cases = Vec::new();
        if total == power {
            cases.push(EqualityCase::Power { n });
        }
        if total == power - 2 {
            cases.push(EqualityCase::PowerLessTwo { n });
        }
        for k in 1..=n.saturating_sub(2) {
            if total + (1 << k) + 2 == power {
                cases.push(EqualityCase::Gap { n, k });
            }
        }
        out.extend(cases.into_iter().map(|c| (c, c.heaps())));
        n += 1;
    }
    out
}

/// An arrangement, heaps in increasing order: `$[1, 2, 4, 7]$` as a reader sees it (`math`),
/// `[1, 2, 4, 7]` in a CSV.
fn arrangement(heaps: &[Candies], math: bool) -> String {
    let mut sorted = heaps.to_vec();
    sorted.sort_unstable();
    let parts: Vec<String> = sorted.iter().map(|h| h.to_string()).collect();
    let list = format!("[{}]", parts.join(", "));
    if math { format!("${list}$") } else { list }
}

/// The displayed columns of a table whose text cells were written twice, plain for the CSV
/// and with `$…$` mathematics for readers (`shown`, one row of `names.len()` cells per row).
fn shown_columns(names: &[&str], shown: Vec<Vec<String>>) -> Vec<(String, Shown)> {
    names
        .iter()
        .enumerate()
        .map(|(c, name)| {
            (
                name.to_string(),
                Shown::Cells(shown.iter().map(|row| row[c].clone()).collect()),
            )
        })
        .collect()
}

/// Arrangements in increasing heap order, sorted, so that two lists compare as sets.
fn canonical(list: &[Vec<Candies>]) -> Vec<Vec<Candies>> {
    let mut out: Vec<Vec<Candies>> = list
        .iter()
        .map(|h| {
            let mut h = h.clone();
            h.sort_unstable();
            h
        })
        .collect();
    out.sort();
    out
}

/// One row of the Theorem 6.7 table.
#[derive(Clone, Debug, PartialEq, Eq)]
struct EqualityRow {
    /// N.
    candies: Candies,
    /// What the theorem lists (n > 2).
    listed: Vec<(EqualityCase, Vec<Candies>)>,
    /// The least N_W over the P-positions with N candies, and every arrangement attaining it.
    least: u64,
    minimisers: Vec<Vec<Candies>>,
    /// The games with N_W = ⌊log₂ N⌋ (the minimisers when the least is the bound, else none)
    /// that the theorem does not list, each with the case it would be with n = 2 if any.
    unlisted: Vec<(Vec<Candies>, Option<EqualityCase>)>,
    /// Listed arrangements that do not attain the bound.
    wrongly_listed: Vec<Vec<Candies>>,
}

impl EqualityRow {
    fn agrees(&self) -> bool {
        self.unlisted.is_empty() && self.wrongly_listed.is_empty()
    }
}

/// Theorem 6.7's list against the allocation for one even N.
fn equality_row(a: &Allocation) -> EqualityRow {
    let bound = u64::from(a.candies.ilog2());
    let listed = theorem_6_7_list(a.candies, 3);
    let attaining = if a.min_nw == bound {
        canonical(&a.argmin)
    } else {
        Vec::new()
    };
    let listed_heaps: Vec<Vec<Candies>> = listed.iter().map(|(_, h)| h.clone()).collect();
    let corrected = theorem_6_7_list(a.candies, 2);
    EqualityRow {
        candies: a.candies,
        least: a.min_nw,
        minimisers: canonical(&a.argmin),
        unlisted: attaining
            .iter()
            .filter(|g| !listed_heaps.contains(g))
            .map(|g| {
                let case = corrected.iter().find(|(_, h)| h == g).map(|(c, _)| *c);
                (g.clone(), case)
            })
            .collect(),
        wrongly_listed: listed_heaps
            .iter()
            .filter(|h| !attaining.contains(h))
            .cloned()
            .collect(),
        listed,
    }
}

/// The Theorem 6.7 table: every even N with a listed arrangement or a game attaining the
/// bound, and how many other even N there are (where neither exists, so both sides agree);
/// its text columns as displayed with `$…$` mathematics (the CSV keeps them plain).
#[allow(clippy::type_complexity)]
fn equality_table(
    allocations: &[Allocation],
) -> (Table, Vec<EqualityRow>, usize, Vec<(String, Shown)>) {
    let mut t = Table::new(&[
        "n_candies",
        "log_bound",
        "listed",
        "least_nw",
        "minimisers",
        "agreement",
    ]);
    let mut shown = Vec::new();
    let mut displayed = Vec::new();
    let mut others = 0;
    for a in allocations {
        let row = equality_row(a);
        let attained = a.min_nw == u64::from(a.candies.ilog2());
        if row.listed.is_empty() && !attained {
            others += 1;
            continue;
        }
        let texts = |math: bool| {
            let listed: Vec<String> = row
                .listed
                .iter()
                .map(|(c, h)| format!("{}: {}", c.label(math), arrangement(h, math)))
                .collect();
            let minimisers: Vec<String> = row
                .minimisers
                .iter()
                .map(|h| arrangement(h, math))
                .collect();
            let mut why: Vec<String> = row
                .unlisted
                .iter()
                .map(|(g, case)| match case {
                    Some(c) => format!("misses {}", c.label(math)),
                    None => format!("misses {}", arrangement(g, math)),
                })
                .collect();
            why.extend(row.wrongly_listed.iter().map(|h| {
                let bound = format!("N_W > {}", a.candies.ilog2());
                let bound = if math { format!("${bound}$") } else { bound };
                format!("{} has {bound}", arrangement(h, math))
            }));
            let verdict = if row.agrees() {
                agreement(true).to_string()
            } else {
                format!("{}: {}", agreement(false), why.join("; "))
            };
            let listed = if listed.is_empty() {
                "none".to_string()
            } else {
                listed.join("; ")
            };
            vec![listed, minimisers.join("; "), verdict]
        };
        let plain = texts(false);
        displayed.push(texts(true));
        t.push(vec![
            Cell::Int(i64::from(a.candies)),
            Cell::Int(i64::from(a.candies.ilog2())),
            Cell::Text(plain[0].clone()),
            Cell::Int(a.min_nw as i64),
            Cell::Text(plain[1].clone()),
            Cell::Text(plain[2].clone()),
        ]);
        shown.push(row);
    }
    let display = shown_columns(&["listed", "minimisers", "agreement"], displayed);
    (t, shown, others, display)
}

/// The example after Theorem 6.9 beside the allocation: N, the printed G and N_W(G), the least
/// N_W, every minimiser, and whether the printed unique minimiser is right. `allocations` must
/// hold every N of the example. Also returns the N where the paper is wrong, and the text
/// columns as displayed with `$…$` mathematics (the CSV keeps them plain).
#[allow(clippy::type_complexity)]
fn minimisers_table(
    allocations: &[Allocation],
) -> Result<(Table, Vec<Candies>, Vec<(String, Shown)>)> {
    let mut t = Table::new(&[
        "n_candies",
        "paper_g",
        "paper_nw",
        "least_nw",
        "minimisers",
        "agreement",
    ]);
    let mut differ = Vec::new();
    let mut displayed = Vec::new();
    for (candies, printed, printed_nw) in PRINTED_MINIMISERS {
        let a = allocations
            .iter()
            .find(|a| a.candies == candies)
            .ok_or_else(|| Error::invalid(format!("no allocation for N = {candies}")))?;
        let found = canonical(&a.argmin);
        let agrees = a.min_nw == printed_nw && found == canonical(&[printed.to_vec()]);
        if !agrees {
            differ.push(candies);
        }
        let texts = |math: bool| {
            let verdict = if agrees {
                format!("{}: unique minimiser", agreement(true))
            } else {
                let mut why = Vec::new();
                if a.min_nw != printed_nw {
                    let least = format!("N_W = {}", a.min_nw);
                    why.push(if math {
                        format!("least ${least}$")
                    } else {
                        format!("least {least}")
                    });
                }
                if found.len() != 1 {
                    why.push(format!("{} minimisers", found.len()));
                } else if found[0] != canonical(&[printed.to_vec()])[0] {
                    why.push("another minimiser".to_string());
                }
                format!("{}: {}", agreement(false), why.join(", "))
            };
            let minimisers: Vec<String> = found.iter().map(|h| arrangement(h, math)).collect();
            vec![arrangement(printed, math), minimisers.join("; "), verdict]
        };
        let plain = texts(false);
        displayed.push(texts(true));
        t.push(vec![
            Cell::Int(i64::from(candies)),
            Cell::Text(plain[0].clone()),
            Cell::Int(printed_nw as i64),
            Cell::Int(a.min_nw as i64),
            Cell::Text(plain[1].clone()),
            Cell::Text(plain[2].clone()),
        ]);
    }
    let display = shown_columns(&["paper_g", "minimisers", "agreement"], displayed);
    Ok((t, differ, display))
}

/// The allocation for every even N from 2 to `max`, by the layered engine of
/// `candy allocate` (every P-position solved once, both cores).
fn allocations(max: Candies, progress: &dyn Progress) -> Result<Vec<Allocation>> {
    let evens: Vec<Candies> = (2..=max).step_by(2).collect();
    crate::games::candy::allocations(&evens, progress)
}

/// The builtin `candy-nim.standard-forms`: V beside the fractal strategy's value on the
/// standard forms 𝔊(2^k − 1, m, 0) of §4 (the conjecture's counterexamples), as a table and a
/// figure of the gap at m = 2.
pub fn standard_forms(d: &mut Draft, _: &ReportOptions, progress: &dyn Progress) -> Result<()> {
    progress.stage("candy-nim: the standard forms");
    progress.add_work(1);
    // The §4 conjecture's counterexamples: V − V_Fractal on the standard forms. It is 0 at m = 1
    // and the same for every m ≥ 2 of the table, so the figure draws the one line m = 2 against k.
    let standard = standard_table(progress)?;
    let standard_cmd =
        format!("nimlab candy standard --k 1..{STANDARD_K} --m 1..{STANDARD_M} --format csv");
    let gaps_m2 = Table {
        columns: vec!["k".into(), "gap".into()],
        rows: standard
            .rows
            .iter()
            .filter(|r| r[1] == Cell::Int(2))
            .map(|r| vec![r[0].clone(), r[4].clone()])
            .collect(),
    };
    d.figures.push(figure(
        FigureSpec {
            id: "standard-gap".into(),
            title: "What the fractal strategy leaves on $\\mathfrak{G}(2^k - 1, 2, 0)$".into(),
            caption: format!(
                "$V - V_{{\\mathrm{{Fractal}}}}$ on the standard form $\\mathfrak{{G}}(2^k - 1, 2, 0) = [2^k - 1, 2^{{k+1}}, 3 \\cdot 2^k - 1]$ for $1 \\le k \\le {STANDARD_K}$, $V_{{\\mathrm{{Fractal}}}}$ being the fractal strategy with $f(a) = \\lfloor a/2\\rfloor$: it is optimal up to $k = 5$ and falls short from $k = 6$ on, by $4$ at $k = 6, 7$ and $12$ at $k = 8$ (the §4 conjecture fails there). At $m = 1$ the gap is $0$ for every $k$ of the table, and at $m = 3$ it is the same as at $m = 2$ (the table of the standard forms)."
            ),
            command: standard_cmd.clone(),
            x: Axis {
                column: "k".into(),
                label: "$k$".into(),
            },
            y_label: "$V - V_{\\mathrm{Fractal}}$".into(),
            series: vec![Series {
                column: "gap".into(),
                label: "$m = 2$".into(),
                color: "red".into(),
                style: SeriesStyle::Markers,
            }],
            data: gaps_m2,
            marks: None,
            vlines: Vec::new(),
        },
        &mut d.files,
    )?);
    d.tables.push(table(
        TableSpec {
            title: "The fractal strategy on the standard forms".into(),
            caption: format!(
                "$V$ and $V_{{\\mathrm{{Fractal}}}}$ (the fractal strategy with $f(a) = \\lfloor a/2\\rfloor$, step (3) on the largest pile) on $\\mathfrak{{G}}(2^k - 1, m, 0) = [2^k - 1, 2^k m, 2^k(m+1) - 1]$ for $1 \\le k \\le {STANDARD_K}$, $1 \\le m \\le {STANDARD_M}$ ($k$ as in §4; §5 calls the same game $\\mathfrak{{G}}(2^{{k'+1}} - 1, m, 0)$ with $k' = k - 1$). The gap $V - V_{{\\mathrm{{Fractal}}}}$ is $0$ when $k \\le 5$ or $m = 1$, and positive when $k \\ge 6$ and $m \\ge 2$."
            ),
            csv: "standard-forms.csv".into(),
            command: standard_cmd,
            show: standard.rows.len(),
            data: standard,
            headers: [
                "$k$",
                "$m$",
                "$V$",
                "$V_{\\mathrm{Fractal}}$",
                "$V - V_{\\mathrm{Fractal}}$",
            ]
            .map(String::from)
            .to_vec(),
            display: Vec::new(),
        },
        &mut d.files,
    )?);
    d.reproduce.push(command(
        "$V$ of Remark 7.3's position with an optimal line",
        "nimlab candy value 31 42 53",
    ));
    d.parameters.push(param(
        "standard forms",
        format!(
            "$\\mathfrak{{G}}(2^k - 1, m, 0)$, $1 \\le k \\le {STANDARD_K}$, $1 \\le m \\le {STANDARD_M}$"
        ),
    ));
    progress.advance(1);
    Ok(())
}

/// The builtin `candy-nim.allocations`: Theorem 6.7's equality cases and the example after
/// Theorem 6.9, each beside every minimiser the allocation engine finds, with the finding when
/// the theorem's list is exact.
pub fn allocation_tables(d: &mut Draft, _: &ReportOptions, progress: &dyn Progress) -> Result<()> {
    progress.stage("candy-nim: allocations (Theorem 6.7, the example after Theorem 6.9)");
    progress.add_work(1);
    let allocs = allocations(ALLOCATION_MAX, progress)?;
    let (equality, rows, others, equality_display) = equality_table(&allocs);
    let differ: Vec<&EqualityRow> = rows.iter().filter(|r| !r.agrees()).collect();
    // A list that differs is the erratum of Theorem 6.7 (equality cases), not a new result.
    if differ.is_empty() {
        d.summary.findings.push(format!(
            "Theorem 6.7's equality list is exact for every even $N \\le {ALLOCATION_MAX}$: the games with $N_W(G) = \\lfloor \\log_2 N\\rfloor$ are exactly the listed arrangements."
        ));
    }
    let (example, example_differ, example_display) = minimisers_table(&allocs)?;
    d.tables.push(table(
        TableSpec {
            title: "Theorem 6.7's equality cases beside the true minimisers".into(),
            caption: format!(
                "For each even $N \\le {ALLOCATION_MAX}$ where Theorem 6.7 lists an arrangement or some game attains $N_W(G) = \\lfloor \\log_2 N\\rfloor$: the arrangements the theorem lists (case, $n$, $k$; it requires $n > k + 1$ and $n > 2$), the least $N_W$ over all $\\mathcal{{P}}$-positions with $N$ candies (any number of heaps) and every arrangement attaining it; a DIFFER names the case (with its $n$) of each game attaining the bound that the list misses. Only $\\mathcal{{P}}$-positions can attain the bound. The list and the games attaining the bound agree at {} of the {} rows shown; at the other {others} even $N$ the theorem lists nothing and the least $N_W$ exceeds the bound, so they agree too.",
                rows.len() - differ.len(),
                rows.len()
            ),
            csv: "theorem-6-7.csv".into(),
            command: format!("nimlab candy allocate --max-candies {ALLOCATION_MAX} --format csv"),
            show: rows.len(),
            data: equality,
            display: equality_display,
            headers: [
                "$N$",
                "$\\lfloor \\log_2 N\\rfloor$",
                "Theorem 6.7 lists",
                "least $N_W$",
                "minimisers",
                "agreement",
            ]
            .map(String::from)
            .to_vec(),
        },
        &mut d.files,
    )?);
    d.tables.push(table(
        TableSpec {
            title: "The example after Theorem 6.9: minimisers for $N = 10, 12, 14, 16$".into(),
            caption: format!(
                "The paper's unique minimiser $G$ and its $N_W(G)$ as printed, beside the least $N_W$ over all $\\mathcal{{P}}$-positions with $N$ candies and every arrangement attaining it: {}.",
                if example_differ.is_empty() {
                    "all four agree, and each minimiser is unique".to_string()
                } else {
                    let at: Vec<String> = example_differ.iter().map(|n| n.to_string()).collect();
                    format!("they DIFFER at $N = {}$", at.join(", "))
                }
            ),
            csv: "minimisers-10-16.csv".into(),
            command: "nimlab candy allocate --max-candies 16 --format csv".into(),
            show: PRINTED_MINIMISERS.len(),
            data: example,
            display: example_display,
            headers: [
                "$N$",
                "paper's $G$",
                "paper's $N_W(G)$",
                "least $N_W$",
                "minimisers",
                "agreement",
            ]
            .map(String::from)
            .to_vec(),
        },
        &mut d.files,
    )?);
    d.parameters.push(param(
        "allocation",
        format!(
            "every $\\mathcal{{P}}$-position with $N$ candies, any number of heaps, even $N \\le {ALLOCATION_MAX}$"
        ),
    ));
    progress.advance(1);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::claims::value::Value;
    use crate::num::Q;
    use crate::papers::scoring_octal::tests::printed_in_claim_file;

    /// N_W of a P-position straight from the rules, independent of the engine: Luca (to move)
    /// makes any move and wants Windsor's candies least; Windsor answers with a move to nim-sum
    /// 0 and wants his candies most.
    fn brute_nw(heaps: &[Candies], memo: &mut HashMap<Vec<Candies>, u64>) -> u64 {
        let mut key: Vec<Candies> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if key.is_empty() {
            return 0;
        }
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut best = u64::MAX;
        for i in 0..key.len() {
            for left in 0..key[i] {
                let mut after = key.clone();
                after[i] = left;
                let s = after.iter().fold(0, |a, &h| a ^ h);
                let reply = (0..after.len())
                    .filter(|&j| after[j] ^ s < after[j])
                    .map(|j| {
                        let mut next = after.clone();
                        next[j] ^= s;
                        u64::from(after[j] - next[j]) + brute_nw(&next, memo)
                    })
                    .max()
                    .expect("a position with nim-sum ≠ 0 has a winning move");
                best = best.min(reply);
            }
        }
        memo.insert(key, best);
        best
    }

    /// Every multiset of positive heaps with `n` candies and nim-sum 0, heaps increasing.
    fn brute_p_positions(n: Candies) -> Vec<Vec<Candies>> {
        fn grow(
            rest: Candies,
            least: Candies,
            buf: &mut Vec<Candies>,
            out: &mut Vec<Vec<Candies>>,
        ) {
            if rest == 0 {
                if buf.iter().fold(0, |a, &h| a ^ h) == 0 {
                    out.push(buf.clone());
                }
                return;
            }
            for h in least..=rest {
                buf.push(h);
                grow(rest - h, h, buf, out);
                buf.pop();
            }
        }
        let mut out = Vec::new();
        grow(n, 1, &mut Vec::new(), &mut out);
        out
    }

    /// (least N_W, every minimiser sorted) by brute force.
    fn brute_minimisers(
        n: Candies,
        memo: &mut HashMap<Vec<Candies>, u64>,
    ) -> (u64, Vec<Vec<Candies>>) {
        let all: Vec<(u64, Vec<Candies>)> = brute_p_positions(n)
            .into_iter()
            .map(|g| (brute_nw(&g, memo), g))
            .collect();
        let least = all.iter().map(|(v, _)| *v).min().unwrap();
        let mut argmin: Vec<Vec<Candies>> = all
            .into_iter()
            .filter(|(v, _)| *v == least)
            .map(|(_, g)| g)
            .collect();
        argmin.sort();
        (least, argmin)
    }

    const BRUTE_MAX: Candies = 22;

    #[test]
    fn the_equality_table_matches_a_brute_force_over_every_p_position() {
        let allocs = allocations(BRUTE_MAX, &crate::progress::Silent).unwrap();
        let mut memo = HashMap::new();
        let (t, rows, others, display) = equality_table(&allocs);
        // The CSV holds plain values, the displayed cells the same text with `$…$` math.
        assert!(t.rows.iter().flatten().all(|c| !c.text().contains('$')));
        for (_, how) in &display {
            let Shown::Cells(cells) = how else {
                panic!("cells")
            };
            assert_eq!(cells.len(), t.rows.len());
            assert!(cells.iter().any(|c| c.contains('$')));
        }
        let mut shown = 0;
        for a in &allocs {
            let n = a.candies;
            let (least, argmin) = brute_minimisers(n, &mut memo);
            assert_eq!(
                (a.min_nw, canonical(&a.argmin)),
                (least, argmin.clone()),
                "N = {n}"
            );
            let bound = u64::from(n.ilog2());
            let attaining = if least == bound { argmin } else { Vec::new() };
            let listed = canonical(
                &theorem_6_7_list(n, 3)
                    .into_iter()
                    .map(|(_, h)| h)
                    .collect::<Vec<_>>(),
            );
            // Every listed arrangement is a P-position with N candies.
            for h in &listed {
                assert_eq!(h.iter().sum::<Candies>(), n);
                assert_eq!(h.iter().fold(0, |x, &y| x ^ y), 0);
            }
            // The corrected list (n ≥ 2) is exactly the games attaining the bound.
            let corrected = canonical(
                &theorem_6_7_list(n, 2)
                    .into_iter()
                    .map(|(_, h)| h)
                    .collect::<Vec<_>>(),
            );
            assert_eq!(corrected, attaining, "N = {n}");
            match rows.iter().find(|r| r.candies == n) {
                Some(row) => {
                    shown += 1;
                    assert_eq!(row.agrees(), listed == attaining, "N = {n}");
                }
                None => assert!(listed.is_empty() && attaining.is_empty(), "N = {n}"),
            }
        }
        assert_eq!(shown + others, allocs.len());
        // The printed condition n > 2 misses N = 2 and N = 4 (cases (2) and (1) with n = 2).
        let differ: Vec<Candies> = rows
            .iter()
            .filter(|r| !r.agrees())
            .map(|r| r.candies)
            .collect();
        assert_eq!(differ, [2, 4]);
    }

    #[test]
    fn the_example_table_matches_a_brute_force_and_the_claim_file() {
        let allocs = allocations(16, &crate::progress::Silent).unwrap();
        let (t, differ, display) = minimisers_table(&allocs).unwrap();
        assert!(t.rows.iter().flatten().all(|c| !c.text().contains('$')));
        assert_eq!(display.len(), 3);
        let mut memo = HashMap::new();
        let mut brute_differ = Vec::new();
        for ((n, printed, printed_nw), row) in PRINTED_MINIMISERS.iter().zip(&t.rows) {
            let (least, argmin) = brute_minimisers(*n, &mut memo);
            let agrees = least == *printed_nw && argmin == [printed.to_vec()];
            if !agrees {
                brute_differ.push(*n);
            }
            assert_eq!(row[3], Cell::Int(least as i64));
            assert_eq!(
                matches!(&row[5], Cell::Text(t) if t.starts_with(agreement(true))),
                agrees
            );
            // The same values as the claim `ex-6-minimizers` transcribes.
            let claimed = printed_in_claim_file(
                "data/claims/candy-nim.toml",
                "ex-6-minimizers",
                "N",
                i64::from(*n),
            );
            let Value::List(parts) = claimed else {
                panic!("a list")
            };
            assert_eq!(parts[0], Value::Num(Q::int(*printed_nw as i64)));
            // The claim file writes the heaps in increasing order, as the paper does.
            let heaps: Vec<Value> = printed
                .iter()
                .map(|&h| Value::Num(Q::int(i64::from(h))))
                .collect();
            assert_eq!(
                parts[1],
                Value::List(vec![Value::List(heaps.into())].into())
            );
        }
        assert_eq!(differ, brute_differ);
    }
}
