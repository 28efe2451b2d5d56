//! The language's own functions on numbers and lists: rounding, absolute value, ⌊log₂⌋, the
//! floor modulus, gcd, min, max, nim-sum, and length, sorting, joining and summing lists.
//!
//! Arithmetic goes through [`crate::claims::value`], which refuses results beyond its size caps
//! before computing them. The functions whose results a range bound may use (`k in
//! 1..floor(n/2)`) give the cost model an interval for them ([`Function::bounds`]).

use num_traits::Signed;

use super::{Args, Function, Group, Params, Signature, list, num};
use crate::claims::cost::{Interval, checked};
use crate::claims::engines::Engines;
use crate::claims::expr::ExprError;
use crate::claims::typeset::{CallMath, MathArg, Shape};
use crate::claims::value::{
    self, MAX_LIST_LEN, Ty, Value, add, capped_list, list_too_long, modulo, short_q,
};
use crate::num::Q;

/// The language's own functions.
pub const GROUP: Group = Group {
    title: "Numbers and lists",
    note: "",
    functions: &[
        &Round::FLOOR,
        &Round::CEIL,
        &Abs,
        &Ilog2,
        &IsInt,
        &Mod,
        &Gcd,
        &Extreme::MIN,
        &Extreme::MAX,
        &Xor,
        &Len,
        &Sort,
        &Concat,
        &Sum,
    ],
};

/// `floor(x)`, `ceil(x)`.
struct Round {
    signature: Signature,
    /// Whether this rounds up.
    up: bool,
}

impl Round {
    const FLOOR: Round = Round {
        signature: Signature::new("floor", &[num("x")], Ty::Num, "⌊x⌋"),
        up: false,
    };
    const CEIL: Round = Round {
        signature: Signature::new("ceil", &[num("x")], Ty::Num, "⌈x⌉"),
        up: true,
    };

    fn round(&self, x: f64) -> f64 {
        if self.up { x.ceil() } else { x.floor() }
    }
}

impl Function for Round {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let (open, close) = if self.up {
            (r"\lceil", r"\rceil")
        } else {
            (r"\lfloor", r"\rfloor")
        };
        CallMath::shaped(
            format!("{open} {}{close}", args[0].math()),
            Shape::Delimited,
        )
    }

    fn bounds(&self, args: &[(f64, f64)]) -> Interval {
        let [(lo, hi)] = args else { return None };
        checked(self.round(*lo), self.round(*hi))
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let x = args.num(0)?;
        Ok(Value::int(if self.up { x.ceil() } else { x.floor() }))
    }
}

/// `abs(x)`.
struct Abs;

impl Function for Abs {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new("abs", &[num("x")], Ty::Num, "the absolute value of x");
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::shaped(
            format!(r"\lvert {}\rvert", args[0].math()),
            Shape::Delimited,
        )
    }

    fn bounds(&self, args: &[(f64, f64)]) -> Interval {
        let [(lo, hi)] = args else { return None };
        let least = if *lo <= 0.0 && *hi >= 0.0 {
            0.0
        } else {
            lo.abs().min(hi.abs())
        };
        checked(least, lo.abs().max(hi.abs()))
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        Ok(Value::Num(args.num(0)?.abs()))
    }
}

/// `ilog2(a)`.
struct Ilog2;

impl Function for Ilog2 {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "ilog2",
            &[num("a")],
            Ty::Num,
            "⌊log₂ a⌋ of a positive integer a",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::shaped(
            format!(r"\lfloor \log_2 {}\rfloor", args[0].operand()),
            Shape::Delimited,
        )
    }

    fn bounds(&self, args: &[(f64, f64)]) -> Interval {
        let [(_, hi)] = args else { return None };
        checked(0.0, hi.max(1.0).log2().floor())
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let q = args.num(0)?;
        if !q.is_integer() || q.signum() <= 0 {
            return Err(ExprError::new(
                args.at(0),
                format!("ilog2 needs a positive integer, got {}", short_q(q)),
            ));
        }
        Ok(Value::int(q.numer().bits() - 1))
    }
}

/// `is_int(x)`.
struct IsInt;

impl Function for IsInt {
    fn signature(&self) -> &Signature {
        const S: Signature =
            Signature::new("is_int", &[num("x")], Ty::Bool, "whether x is an integer");
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::shaped(
            format!(r"{} \in \mathbb{{Z}}", args[0].math()),
            Shape::Relation,
        )
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        Ok(Value::Bool(args.num(0)?.is_integer()))
    }
}

/// `mod(a, b)`.
struct Mod;

impl Function for Mod {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "mod",
            &[num("a"), num("b")],
            Ty::Num,
            "the floor modulus a − b⌊a/b⌋ (the sign of b), also written `a % b`",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::shaped(
            format!(r"{} \bmod {}", args[0].operand(), args[1].operand()),
            Shape::Modulo,
        )
    }

    fn bounds(&self, args: &[(f64, f64)]) -> Interval {
        match args {
            [_, (d0, d1)] if *d0 > 0.0 => checked(0.0, *d1),
            _ => None,
        }
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let (a, b) = (args.num(0)?, args.num(1)?);
        let r = modulo(a, b).map_err(|m| ExprError::new(args.at(1), m))?;
        Ok(Value::Num(r))
    }
}

/// `gcd(a, b)`.
struct Gcd;

impl Function for Gcd {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "gcd",
            &[num("a"), num("b")],
            Ty::Num,
            "the greatest common divisor of two integers",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!(r"\gcd({}, {})", args[0].math(), args[1].math()))
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let (a, b) = (args.num(0)?, args.num(1)?);
        if !a.is_integer() || !b.is_integer() {
            return Err(ExprError::new(
                args.span(),
                format!("gcd of {} and {}: integers only", short_q(a), short_q(b)),
            ));
        }
        Ok(Value::int(num_integer::Integer::gcd(
            &*a.numer(),
            &*b.numer(),
        )))
    }
}

/// `min(a, b, ...)`, `max(a, b, ...)`, each also of one list.
struct Extreme {
    signature: Signature,
    /// Whether this is `max`.
    greatest: bool,
}

impl Extreme {
    const MIN: Extreme = Extreme {
        signature: Signature {
            name: "min",
            params: Params::NumsOrList,
            result: Ty::Num,
            doc: "the least of the numbers, or of one list's elements (`min(list)`)",
        },
        greatest: false,
    };
    const MAX: Extreme = Extreme {
        signature: Signature {
            name: "max",
            params: Params::NumsOrList,
            result: Ty::Num,
            doc: "the greatest of the numbers, or of one list's elements (`max(list)`)",
        },
        greatest: true,
    };
}

impl Function for Extreme {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let name = if self.greatest { r"\max" } else { r"\min" };
        match args {
            [list] if list.items().is_none() => {
                CallMath::shaped(format!("{name} {}", list.operand()), Shape::BigOperator)
            }
            [list] => CallMath::application(format!("{name}({})", list.tuple())),
            _ => CallMath::application(format!(
                "{name}({})",
                args.iter()
                    .map(MathArg::math)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn bounds(&self, args: &[(f64, f64)]) -> Interval {
        if args.is_empty() {
            return None;
        }
        let (los, his) = (args.iter().map(|x| x.0), args.iter().map(|x| x.1));
        if self.greatest {
            checked(
                los.fold(f64::NEG_INFINITY, f64::max),
                his.fold(f64::NEG_INFINITY, f64::max),
            )
        } else {
            checked(
                los.fold(f64::INFINITY, f64::min),
                his.fold(f64::INFINITY, f64::min),
            )
        }
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let xs = args.numbers()?.into_iter();
        let best = if self.greatest { xs.max() } else { xs.min() };
        let best = best.ok_or_else(|| {
            let name = self.signature.name;
            ExprError::new(args.at(0), format!("{name} of an empty list is undefined"))
        })?;
        Ok(Value::Num(best))
    }
}

/// `xor(a, b, ...)`, `xor(list)`.
struct Xor;

impl Function for Xor {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature {
            name: "xor",
            params: Params::NumsOrList,
            result: Ty::Num,
            doc: "the nim-sum `a ⊕ b ⊕ …` of non-negative integers, or of one list's elements",
        };
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let terms: Vec<String> = match args {
            [list] => match list.items() {
                Some(items) => items.iter().map(MathArg::operand).collect(),
                None => {
                    return CallMath::shaped(
                        format!(r"\bigoplus {}", list.operand()),
                        Shape::BigOperator,
                    );
                }
            },
            _ => args.iter().map(MathArg::operand).collect(),
        };
        CallMath::shaped(terms.join(r" \oplus "), Shape::NimSum)
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let x = value::xor(&args.numbers()?).map_err(|m| ExprError::new(args.at(0), m))?;
        Ok(Value::int(x))
    }
}

/// `len(list)`.
struct Len;

impl Function for Len {
    fn signature(&self) -> &Signature {
        const S: Signature =
            Signature::new("len", &[list("list")], Ty::Num, "the number of elements");
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::shaped(
            format!(r"\lvert {}\rvert", args[0].math()),
            Shape::Delimited,
        )
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        Ok(Value::int(args.list(0)?.len()))
    }
}

/// `sort(list)`.
struct Sort;

impl Function for Sort {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "sort",
            &[list("list")],
            Ty::List,
            "the elements in increasing order",
        );
        &S
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let mut items = args.list(0)?.to_vec();
        items.sort();
        Ok(Value::List(items.into()))
    }
}

/// `concat(lists)`.
struct Concat;

impl Function for Concat {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "concat",
            &[list("lists")],
            Ty::List,
            "a list of lists joined into one list",
        );
        &S
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let parts = args.list(0)?;
        let part = |x| value::list(x, args.at(0));
        let mut len = 0usize;
        for x in parts {
            len = len.saturating_add(part(x)?.len());
        }
        if len > MAX_LIST_LEN {
            return Err(list_too_long(len, args.span()));
        }
        let mut items = Vec::with_capacity(len);
        for x in parts {
            items.extend(part(x)?.iter().cloned());
        }
        capped_list(items, args.span())
    }
}

/// `sum(list)`.
struct Sum;

impl Function for Sum {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "sum",
            &[list("list")],
            Ty::Num,
            "the sum of a list of numbers (`sum(j in 1..k: e)` sums over a range)",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        match args[0].items() {
            Some(items) => CallMath::application(format!(
                "({})",
                items
                    .iter()
                    .map(MathArg::math)
                    .collect::<Vec<_>>()
                    .join(" + ")
            )),
            None => CallMath::shaped(format!(r"\sum {}", args[0].operand()), Shape::BigOperator),
        }
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let mut total = Q::zero();
        for x in args.numbers()? {
            total = add(&total, &x, false).map_err(|m| ExprError::new(args.span(), m))?;
        }
        Ok(Value::Num(total))
    }
}
