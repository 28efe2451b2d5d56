//! Scoring Nim (Oginuma–Shinoda) in claim expressions: the payoff N ↦ f_N(p) of a position p,
//! its tail constants and breakpoints, and membership in P⁺ and P⁻.
//!
//! Every payoff comes from the scoring solver ([`crate::games::scoring::solve`]); a solve
//! yields the payoff of every position reachable from p, and [`ScoringCache`] keeps them all,
//! so a claim over the members of a family solves each position once.

use std::collections::HashMap;

use super::{Args, Function, Group, Signature, list, num};
use crate::claims::engines::Engines;
use crate::claims::expr::ExprError;
use crate::claims::typeset::{CallMath, MathArg, Shape};
use crate::claims::value::{Ty, Value};
use crate::error::Result;
use crate::games::scoring::{self, Heap, HeapSize, Limits, Method, Nim, ScoringGame, solve};
use crate::num::Pwl;

/// Scoring Nim's functions.
pub const GROUP: Group = Group {
    title: "Scoring Nim",
    note: "`p` is a list of heap sizes, `N` a rational bonus",
    functions: &[
        &Payoff,
        &Tail::PLUS,
        &Tail::MINUS,
        &Breakpoints,
        &PSet::PLUS,
        &PSet::MINUS,
    ],
};

/// Memory a Scoring Nim or octal solve may use.
const SOLVE_BYTES: u64 = 2 << 30;

/// The limits of every solve behind a claim expression.
pub(crate) fn limits() -> Limits {
    Limits {
        max_bytes: SOLVE_BYTES,
    }
}

/// Payoffs solved so far, by position (heap sizes in decreasing order, no empty heaps).
#[derive(Default)]
pub struct ScoringCache {
    payoffs: HashMap<Vec<HeapSize>, Pwl>,
}

impl ScoringCache {
    /// Scoring Nim's payoff N ↦ f_N(p).
    pub fn payoff(&mut self, p: &[HeapSize]) -> Result<&Pwl> {
        let mut key = p.to_vec();
        key.sort_unstable_by(|a, b| b.cmp(a));
        key.retain(|&h| h > 0);
        if !self.payoffs.contains_key(&key) {
            let heaps: Vec<Heap> = key.iter().map(|&s| Heap::new(s)).collect();
            let game = ScoringGame::single(Nim);
            let sol = solve(&game, &heaps, Method::Auto, &limits())?;
            // Every position reachable from p is solved too: keep them all.
            for (pos, f) in sol.payoffs() {
                let sizes: Vec<HeapSize> = pos.heaps().iter().map(|h| h.size).collect();
                self.payoffs.insert(sizes, f);
            }
            let f = sol.payoff(&heaps)?;
            self.payoffs.insert(key.clone(), f);
        }
        Ok(&self.payoffs[&key])
    }
}

/// `payoff(N, p)`.
struct Payoff;

impl Function for Payoff {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "payoff",
            &[num("N"), list("p")],
            Ty::Num,
            "Scoring Nim f_N(p)",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!("f_{{{}}}({})", args[0].math(), args[1].tuple()))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(1)?;
        let n = args.num(0)?;
        let f = args.engine(engines.cache::<ScoringCache>().payoff(&p))?;
        Ok(Value::Num(f.eval(n)))
    }
}

/// `cplus(p)` and `cminus(p)`: the constants f_N(p) − N as N → +∞ and f_N(p) + N as N → −∞.
struct Tail {
    signature: Signature,
    /// Whether this is c⁺ (the right tail).
    plus: bool,
}

impl Tail {
    const PLUS: Tail = Tail {
        signature: Signature::new("cplus", &[list("p")], Ty::Num, "the tail constant c⁺(p)"),
        plus: true,
    };
    const MINUS: Tail = Tail {
        signature: Signature::new("cminus", &[list("p")], Ty::Num, "the tail constant c⁻(p)"),
        plus: false,
    };
}

impl Function for Tail {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let sign = if self.plus { "+" } else { "-" };
        CallMath::application(format!("c^{{{sign}}}({})", args[0].tuple()))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(0)?;
        let f = args.engine(engines.cache::<ScoringCache>().payoff(&p))?;
        Ok(Value::Num(if self.plus {
            f.right_intercept()
        } else {
            f.left_intercept()
        }))
    }
}

/// `breakpoints(p)`.
struct Breakpoints;

impl Function for Breakpoints {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "breakpoints",
            &[list("p")],
            Ty::List,
            "the list of breakpoints of N ↦ f_N(p)",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!(
            r"\operatorname{{breakpoints}}({})",
            args[0].tuple()
        ))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(0)?;
        let f = args.engine(engines.cache::<ScoringCache>().payoff(&p))?;
        Ok(Value::List(
            f.breakpoints()
                .iter()
                .map(|(x, _)| Value::Num(x.clone()))
                .collect(),
        ))
    }
}

/// `in_pplus(p)` and `in_pminus(p)`: the characterizations of P⁺ and P⁻ (no solve needed).
struct PSet {
    signature: Signature,
    /// `+` for P⁺, `-` for P⁻.
    sign: &'static str,
    contains: fn(&[HeapSize]) -> bool,
}

impl PSet {
    const PLUS: PSet = PSet {
        signature: Signature::new("in_pplus", &[list("p")], Ty::Bool, "membership in P⁺"),
        sign: "+",
        contains: scoring::in_p_plus,
    };
    const MINUS: PSet = PSet {
        signature: Signature::new("in_pminus", &[list("p")], Ty::Bool, "membership in P⁻"),
        sign: "-",
        contains: scoring::in_p_minus,
    };
}

impl Function for PSet {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let position = match args[0].items() {
            Some(_) => format!("({})", args[0].tuple()),
            None => args[0].math().to_string(),
        };
        CallMath::shaped(
            format!(r"{position} \in P^{{{}}}", self.sign),
            Shape::Relation,
        )
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        Ok(Value::Bool((self.contains)(&args.heaps(0)?)))
    }
}
