//! Candy Nim's structural claims: Theorem 4.8's "the supremum is achieved by f(a) = ⌊a/2⌋".
//!
//! The supremum over all contractive f is found level by level: from 𝔊(2^a − 1, m, 0) the
//! fractal strategy's turn at exponent a uses only f(a), and the game it leads to has a smaller
//! exponent, so the best f(a) does not depend on f above a. Each candidate is *played* with the
//! same strategy simulator as `nimlab candy strategy`, not read off a formula.

use super::{Builtin, BuiltinRun, PointOutcome, ambiguous, int_value};
use crate::claims::finding::{Finding, Reading as ClaimReading, Sentence};
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

/// `candy.fractal_sup` under one reading of Definition 4.7 (3).
fn fractal_sup_under(run: &mut BuiltinRun<'_, '_>, reading: Reading) -> Result<Finding> {
    // best[a − 1] = the best f(a), found bottom-up.
    let mut best: Vec<u32> = Vec::new();
    run.each_point(|_, args| {
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
        Ok(if sup == half {
            PointOutcome::Pass
        } else {
            PointOutcome::Fail(
                Sentence::new()
                    .text("$f(a) = \\lfloor a/2\\rfloor$ gives ")
                    .expected(
                        "$V_{\\mathrm{Fractal}_f}(G)$ with $f(a) = \\lfloor a/2\\rfloor$",
                        half,
                        false,
                    )
                    .text(", but the supremum over contractive $f$ is ")
                    .actual(
                        "$\\sup_{f \\in \\mathcal{F}} V_{\\mathrm{Fractal}_f}(G)$",
                        sup,
                        false,
                    )
                    .text(", attained with $f(1), \\dots, f(k)$ = ")
                    .actual(
                        "the values $f(1), \\dots, f(k)$ of a maximizing $f$",
                        f.iter().map(|&x| Value::from(i64::from(x))).collect::<Vec<_>>(),
                        false,
                    ),
            )
        })
    })
}
