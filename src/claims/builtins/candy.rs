//! Candy Nim's structural claims: Theorem 4.8's "the supremum is achieved by f(a) = ⌊a/2⌋".
//!
//! The supremum over all contractive f is found level by level: from 𝔊(2^a − 1, m, 0) the
//! fractal strategy's turn at exponent a uses only f(a), and the game it leads to has a smaller
//! exponent, so the best f(a) does not depend on f above a. Each candidate is *played* with the
//! same strategy simulator as `nimlab candy strategy`, not read off a formula.

use super::{Builtin, BuiltinRun, PointOutcome, ambiguous, int_value};
use crate::claims::finding::{
    FailureExtent, Finding, Reading as ClaimReading, Sentence, Style, VerdictKind,
};
use crate::claims::value::Value;
use crate::error::{Error, Result};
use crate::games::candy::{Contraction, Reading, Strategy, play_strategy, standard_form_game};

/// Candy Nim's builtins.
pub const BUILTINS: &[Builtin] = &[Builtin {
    name: "candy.fractal_sup",
    about: "Theorem 4.8: the sup over all contractive f of V(Fractal_f) on 𝔊(2^k−1, m, 0) \
            against f(a) = ⌊a/2⌋ (args k, m, reading: \"largest\", \"smallest\" or \"both\", \
            the last as two readings, the smallest pile as printed)",
    expr_args: &["k", "m"],
    run: fractal_sup,
}];

/// Largest m whose games `candy.fractal_sup` plays (about m turns of ~100 bytes each).
const MAX_PLAYED_M: u64 = 1_000_000;

fn fractal_value(f: Contraction, reading: Reading, k: u32, m: u64) -> Result<i64> {
    let g = standard_form_game(k, m)?;
    Ok(play_strategy(&Strategy::Fractal { f, reading }, &g)?.value)
}

/// The readings of Definition 4.7 (3) as `args.reading = "both"` words them.
const SMALLEST: &str = "as printed: step (3) of Definition 4.7 moves the smallest pile";
const LARGEST: &str =
    "step (3) moves the largest pile (the reading of Figure 2's numbers and of the proofs)";

/// `candy.fractal_sup`: at every (k, m) of the range, sup_f V(Fractal_f) on 𝔊(2^k − 1, m, 0)
/// equals V(Fractal_{⌊a/2⌋}) under `args.reading` ("largest" or "smallest"); with "both", each
/// reading is checked on its own, the smallest pile (Definition 4.7 (3) as written) as printed.
pub fn fractal_sup(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    match run.text("reading")? {
        "largest" => fractal_sup_under(run, Reading::Largest),
        "smallest" => fractal_sup_under(run, Reading::Smallest),
        "both" => {
            let small = fractal_sup_under(run, Reading::Smallest)?;
            let large = fractal_sup_under(run, Reading::Largest)?;
            let range = run.range_part("single check");
            Ok(ambiguous(
                range,
                vec![
                    ClaimReading::as_printed(SMALLEST, small),
                    ClaimReading::interpreted(LARGEST, large),
                ],
            ))
        }
        other => Err(Error::invalid(format!(
            "`args.reading` must be \"largest\", \"smallest\" or \"both\", got \"{other}\""
        ))),
    }
}

/// One point of the range where `f(a) = ⌊a/2⌋` misses the supremum.
struct Miss {
    k: u32,
    m: u64,
    half: i64,
    sup: i64,
    f: Vec<u32>,
}

/// `f = \mathrm{id}` when the maximizer is the identity on `1..k`, else its values in math.
fn maximizer_math(f: &[u32]) -> String {
    if f.iter().enumerate().all(|(i, &x)| x as usize == i + 1) {
        "$f = \\mathrm{id}$ (the flip-flop strategy)".to_string()
    } else {
        let parts: Vec<String> = f
            .iter()
            .enumerate()
            .map(|(i, x)| format!("f({}) = {x}", i + 1))
            .collect();
        format!("${}$", parts.join(",\\ "))
    }
}

/// `candy.fractal_sup` under one reading of Definition 4.7 (3). Every point of the range is
/// checked (not only up to the first failure), so that a failing reading says where it fails.
fn fractal_sup_under(run: &mut BuiltinRun<'_, '_>, reading: Reading) -> Result<Finding> {
    let v = match reading {
        Reading::Largest => "V_{\\mathrm{Fractal}_f}",
        Reading::Smallest => "V_{\\mathrm{Fractal}_f}^{\\mathrm{small}}",
    };
    // best[a − 1] = the best f(a), found bottom-up.
    let mut best: Vec<u32> = Vec::new();
    let mut misses: Vec<Miss> = Vec::new();
    let mut holding_k: Vec<u32> = Vec::new();
    let mut failing_k: Vec<u32> = Vec::new();
    let mut checked = 0u64;
    let sweep = run.each_point(|_, args| {
        let k = int_value(&args[0], "k")?;
        let m = int_value(&args[1], "m")?;
        let (Ok(k), Ok(m)) = (u32::try_from(k), u64::try_from(m)) else {
            return Err(Error::invalid(format!(
                "k = {k} and m = {m} must be positive"
            )));
        };
        if k == 0 || k > 30 || m == 0 {
            return Err(Error::invalid(format!(
                "𝔊(2^k − 1, m, 0) needs 1 ≤ k ≤ 30 and m ≥ 1, got k = {k}, m = {m}"
            )));
        }
        // Each play lasts about m turns (the flip-flop lowers m by one per turn) and is kept
        // turn by turn: refused before playing when that is more than a claim check should do.
        if m > MAX_PLAYED_M {
            return Err(Error::invalid(format!(
                "m = {m}: playing 𝔊(2^{k} − 1, {m}, 0) takes about {m} turns per strategy, more than the {MAX_PLAYED_M} a claim may play; use a smaller m"
            )));
        }
        while best.len() < k as usize {
            let a = best.len() as u32 + 1;
            let mut choice: Option<(i64, u32)> = None;
            for j in 0..=a {
                let mut f = best.clone();
                f.push(j);
                let v = fractal_value(Contraction::table(f)?, reading, a, 1)?;
                if choice.is_none_or(|(bv, _)| v > bv) {
                    choice = Some((v, j));
                }
            }
            best.push(choice.expect("j = a is always a choice").1);
        }
        let f: Vec<u32> = best[..k as usize].to_vec();
        let sup = fractal_value(Contraction::table(f.clone())?, reading, k, m)?;
        let half = fractal_value(Contraction::Half, reading, k, m)?;
        checked += 1;
        if sup == half {
            if !holding_k.contains(&k) {
                holding_k.push(k);
            }
        } else {
            if !failing_k.contains(&k) {
                failing_k.push(k);
            }
            misses.push(Miss { k, m, half, sup, f });
        }
        // Every point is checked: a miss is recorded, and the sweep goes on.
        Ok(PointOutcome::Pass)
    })?;
    let Some(first) = misses.first() else {
        // Holds: the sweep's own finding, worded as mathematics rather than a count.
        let mut f = Sentence::new()
            .text(format!(
                "$\\sup_{{f \\in \\mathcal{{F}}}} {v}(G) = {v}(G)$ with $f(a) = \\lfloor a/2\\rfloor$ at every point of the range"
            ))
            .finding(sweep.verdict, sweep.range.clone());
        f.points = sweep.points;
        return Ok(f);
    };
    let claimed =
        format!("${v}(G)$ with $f(a) = \\lfloor a/2\\rfloor$, claimed to attain the supremum");
    let found = format!(
        "$\\sup_{{f \\in \\mathcal{{F}}}} {v}(G)$, attained by {}",
        maximizer_math(&first.f)
    );
    let mut said = Sentence::new()
        .text("At $k = ")
        .at("k", i64::from(first.k), Style::Plain)
        .text("$, $m = ")
        .at(
            "m",
            i64::try_from(first.m).unwrap_or(i64::MAX),
            Style::Plain,
        )
        .text(format!("$: with $f(a) = \\lfloor a/2\\rfloor$, ${v}(G) = "))
        .expected(claimed, first.half, false)
        .text(format!("$, but $\\sup_{{f \\in \\mathcal{{F}}}} {v}(G) = "))
        .actual(found, first.sup, false)
        .text(format!("$, attained by {}", maximizer_math(&first.f)));
    let n = misses.len() as u64;
    if n == checked {
        said = said.text(format!(
            ". It fails at every one of the ${checked}$ points of the range"
        ));
        // The pattern, stated only when every point shows it.
        let flip_flop = misses.iter().all(|x| {
            i64::try_from(x.m)
                .ok()
                .and_then(|m| m.checked_mul((1i64 << (x.k + 1)) - 2))
                == Some(x.sup)
                && x.f.iter().enumerate().all(|(i, &y)| y as usize == i + 1)
        });
        if flip_flop {
            said = said.text(format!(
                ": at each, $f(a) = \\lfloor a/2\\rfloor$ gets less than $\\sup_{{f \\in \\mathcal{{F}}}} {v}(G) = V_{{\\mathrm{{FF}}}}(G) = m(2^{{k+1}} - 2)$, attained by $f = \\mathrm{{id}}$"
            ));
        }
    } else {
        let ks = |xs: &[u32]| {
            xs.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        said = said.text(format!(
            ". It fails at ${n}$ of the ${checked}$ points of the range, at $k \\in \\lbrace {}\\rbrace$",
            ks(&failing_k)
        ));
    }
    let mut f = said.finding(VerdictKind::Fails, sweep.range.clone());
    // Every point was checked, so the count is in the sentence ("up to the first failure" would
    // be wrong), and the extent along k is the whole sweep's.
    f.points = None;
    let mut holding: Vec<u32> = holding_k
        .into_iter()
        .filter(|k| !failing_k.contains(k))
        .collect();
    holding.sort_unstable();
    failing_k.sort_unstable();
    f.extent = Some(FailureExtent {
        variable: "k".to_string(),
        failing: failing_k
            .iter()
            .map(|&k| Value::from(i64::from(k)))
            .collect(),
        holding: holding.iter().map(|&k| Value::from(i64::from(k))).collect(),
        others: vec!["m".to_string()],
    });
    Ok(f)
}
