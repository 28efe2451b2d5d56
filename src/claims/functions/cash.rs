//! NIM with Cash (Gasarch et al.) in claim expressions: the plain and the cash game's winners,
//! the thresholds f^I, f^II (Def 2.1/2.3) and g^I, g^II (Def 3.1), and the true least
//! thresholds found by exhaustive search.
//!
//! Values come from [`crate::games::cash`]. [`CashCache`] keeps, for each move set A, the
//! threshold tables and the cash game's win table, each regrown by doubling when a claim asks
//! beyond them.

use std::collections::HashMap;

use foldhash::fast::FixedState;
use std::sync::Arc;

use super::{Args, Function, Group, Signature, list, num};
use crate::claims::engines::Engines;
use crate::claims::expr::ExprError;
use crate::claims::typeset::{CallMath, MathArg};
use crate::claims::value::{Ty, Value};
use crate::error::{Error, Result};
use crate::games::cash::{self, Amount, CashSet, CashTable, Thresholds, Winner};

/// The cash game's functions.
pub const GROUP: Group = Group {
    title: "NIM with Cash",
    note: "`A` is a list of move sizes, `n` a number of stones, `d` and `e` the players' money",
    functions: &[
        &Tabulated::WINNER,
        &CashWinner,
        &Tabulated::F1,
        &Tabulated::F2,
        &G::G1,
        &G::G2,
        &Least::F1,
        &Least::F2,
    ],
};

/// Memory the cash tables may use.
const CASH_TABLE_BYTES: u64 = 2 << 30;
/// The largest n of f^I, f^II tables (17 bytes per n).
const MAX_THRESHOLD_N: Amount = 10_000_000;
/// The largest move size or amount of money a claim may give.
const MAX_MONEY: u64 = 1 << 62;
/// The largest n of `winner`, `f1`, `f2`, `g1`, `g2`, `least_f1`, `least_f2`.
const MAX_STONES: u64 = 1 << 31;
/// The largest n of `cash_winner` (its table is cubic in n).
const MAX_CASH_STONES: u64 = 1 << 16;

/// Threshold tables and win tables computed so far, by move set.
#[derive(Default)]
pub struct CashCache {
    thresholds: HashMap<Vec<Amount>, Thresholds, FixedState>,
    tables: HashMap<Vec<Amount>, CashTable, FixedState>,
}

impl CashCache {
    /// f^I, f^II and the plain winners of A, tabulated at least to n.
    pub fn thresholds(&mut self, a: &CashSet, n: Amount) -> Result<&Thresholds> {
        if n > MAX_THRESHOLD_N {
            return Err(Error::invalid(format!(
                "n = {n} is beyond the {MAX_THRESHOLD_N} that f1/f2 tabulate"
            )));
        }
        let key = a.elements().to_vec();
        let have = self
            .thresholds
            .get(&key)
            .map_or(0, |t| t.f1.len() as Amount);
        if n >= have {
            let upto = (n + 1).max(2 * have).max(64);
            self.thresholds
                .insert(key.clone(), cash::thresholds(a, upto)?);
        }
        Ok(&self.thresholds[&key])
    }

    /// The cash game's win table of A, tabulated at least to n.
    pub fn table(&mut self, a: &CashSet, n: Amount) -> Result<&CashTable> {
        let key = a.elements().to_vec();
        let have = self.tables.get(&key).map(CashTable::max_n);
        if have.is_none_or(|m| n > m) {
            let upto = n.max(have.map_or(0, |m| 2 * m)).max(32);
            self.tables
                .insert(key.clone(), CashTable::solve(a, upto, CASH_TABLE_BYTES)?);
        }
        Ok(&self.tables[&key])
    }

    /// W^cash_A(n; d, e).
    pub fn cash_winner(&mut self, a: &CashSet, n: Amount, d: Amount, e: Amount) -> Result<Winner> {
        // Money beyond n acts as infinite money.
        let (d, e) = (d.min(n), e.min(n));
        let table = self.table(a, n)?;
        table
            .winner(n, d, e)
            .ok_or_else(|| Error::invalid(format!("state ({n}; {d}, {e}) outside the table")))
    }

    /// The true least thresholds (least_f1, least_f2) by exhaustive search.
    pub fn least(&mut self, a: &CashSet, n: Amount) -> Result<(Option<Amount>, Amount)> {
        let w = self.thresholds(a, n)?.winner[n as usize];
        let table = self.table(a, n)?;
        cash::least_thresholds(table, n, w)
            .ok_or_else(|| Error::invalid(format!("n = {n} outside the table")))
    }
}

/// A winner as expressions write it: `"I"` or `"II"`.
fn winner_value(w: Winner) -> Value {
    Value::Str(Arc::from(match w {
        Winner::I => "I",
        Winner::II => "II",
    }))
}

/// Argument `i` as a move set A.
fn move_set(args: &Args<'_>, i: usize) -> Result<CashSet, ExprError> {
    CashSet::new(args.naturals(i, "a move size", MAX_MONEY)?)
        .map_err(|e| ExprError::new(args.at(i), e.to_string()))
}

/// The arguments `(A, n)` of the threshold functions.
fn set_and_stones(args: &Args<'_>) -> Result<(CashSet, Amount), ExprError> {
    let set = move_set(args, 0)?;
    Ok((set, args.natural(1, "the number of stones", MAX_STONES)?))
}

/// `winner(A, n)`, `f1(A, n)`, `f2(A, n)`: read from the threshold tables.
struct Tabulated {
    signature: Signature,
    /// How the paper writes it, without the set `A` (a subscript).
    symbol: &'static str,
    part: fn(&Thresholds, usize) -> Value,
}

impl Tabulated {
    const WINNER: Tabulated = Tabulated {
        signature: Signature::new(
            "winner",
            &[list("A"), num("n")],
            Ty::Str,
            "the plain game's winner, `\"I\"` or `\"II\"`",
        ),
        symbol: r"W",
        part: |t, n| winner_value(t.winner[n]),
    };
    const F1: Tabulated = Tabulated {
        signature: Signature::new("f1", &[list("A"), num("n")], Ty::Num, "f^I (Def 2.1/2.3)"),
        symbol: r"f^{\mathrm{I}}",
        part: |t, n| Value::int(t.f1[n]),
    };
    const F2: Tabulated = Tabulated {
        signature: Signature::new("f2", &[list("A"), num("n")], Ty::Num, "f^II (Def 2.1/2.3)"),
        symbol: r"f^{\mathrm{II}}",
        part: |t, n| Value::int(t.f2[n]),
    };
}

/// `symbol` with the set as a subscript (`\lbrace 1, L\rbrace` for a literal list) before
/// `extra`, applied to the number of stones: $f_{A}^{\mathrm{I}}(n)$.
fn of_set(symbol: &str, extra: &str, args: &[MathArg]) -> CallMath {
    let (head, script) = symbol.split_at(symbol.find('^').unwrap_or(symbol.len()));
    CallMath::application(format!(
        "{head}_{{{}{extra}}}{script}({})",
        args[0].set(),
        args[1].math()
    ))
}

impl Function for Tabulated {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        of_set(self.symbol, "", args)
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let (set, n) = set_and_stones(args)?;
        let tables = args.engine(engines.cache::<CashCache>().thresholds(&set, n))?;
        Ok((self.part)(tables, n as usize))
    }
}

/// `g1(A, n)`, `g2(A, n)`: closed forms, no table.
struct G {
    signature: Signature,
    /// How the paper writes it, without the set `A` (a subscript).
    symbol: &'static str,
    /// Whether this is g^II.
    second: bool,
}

impl G {
    const G1: G = G {
        signature: Signature::new("g1", &[list("A"), num("n")], Ty::Num, "g^I (Def 3.1)"),
        symbol: r"g^{\mathrm{I}}",
        second: false,
    };
    const G2: G = G {
        signature: Signature::new("g2", &[list("A"), num("n")], Ty::Num, "g^II (Def 3.1)"),
        symbol: r"g^{\mathrm{II}}",
        second: true,
    };
}

impl Function for G {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        of_set(self.symbol, "", args)
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let (set, n) = set_and_stones(args)?;
        let (g1, g2) = cash::g_thresholds(&set, n);
        Ok(Value::int(if self.second { g2 } else { g1 }))
    }
}

/// `least_f1(A, n)`, `least_f2(A, n)`.
struct Least {
    signature: Signature,
    /// The threshold it is the least of, without the set `A`.
    symbol: &'static str,
    /// Whether this is the threshold of player II.
    second: bool,
}

impl Least {
    const F1: Least = Least {
        signature: Signature::new(
            "least_f1",
            &[list("A"), num("n")],
            Ty::Num,
            "the true least threshold of player I, found by exhaustive search",
        ),
        symbol: r"f^{\mathrm{I}}",
        second: false,
    };
    const F2: Least = Least {
        signature: Signature::new(
            "least_f2",
            &[list("A"), num("n")],
            Ty::Num,
            "the true least threshold of player II, found by exhaustive search",
        ),
        symbol: r"f^{\mathrm{II}}",
        second: true,
    };
}

impl Function for Least {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        of_set(self.symbol, r",\mathrm{least}", args)
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let (set, n) = set_and_stones(args)?;
        let (l1, l2) = args.engine(engines.cache::<CashCache>().least(&set, n))?;
        if self.second {
            return Ok(Value::int(l2));
        }
        let l1 = l1.ok_or_else(|| {
            ExprError::new(
                args.span(),
                format!(
                    "least_f1 is undefined at n = {n}: II wins with no money at all (n < min A)"
                ),
            )
        })?;
        Ok(Value::int(l1))
    }
}

/// `cash_winner(A, n, d, e)`.
struct CashWinner;

impl Function for CashWinner {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "cash_winner",
            &[list("A"), num("n"), num("d"), num("e")],
            Ty::Str,
            "the cash game's winner, `\"I\"` or `\"II\"`; I (to move) holds d, II holds e",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!(
            r"W_{{{}}}^{{\mathrm{{cash}}}}({}; {}, {})",
            args[0].set(),
            args[1].math(),
            args[2].math(),
            args[3].math()
        ))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let set = move_set(args, 0)?;
        let n = args.natural(1, "the number of stones", MAX_CASH_STONES)?;
        let d = args.natural(2, "money", MAX_MONEY)?;
        let e = args.natural(3, "money", MAX_MONEY)?;
        let w = args.engine(engines.cache::<CashCache>().cash_winner(&set, n, d, e))?;
        Ok(winner_value(w))
    }
}
