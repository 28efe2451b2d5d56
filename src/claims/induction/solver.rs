//! Running an SMT solver (z3 or cvc5, as programs) on a query and reading its answer.
//!
//! The solvers are external programs on purpose: a proof is a set of SMT-LIB files that any
//! SMT-LIB solver replays, so the certificate does not rest on nimlab's own code. `unsat` proves
//! an obligation; `sat` comes with the values of the shown variables (a counterexample to
//! confirm with the exact engines); anything else (a timeout, `unknown`, a crash) is UNKNOWN
//! with the solver's own words.

use std::io::Write;
use std::process::{Command, Stdio};

use num_bigint::BigInt;

use crate::error::{Error, Result};
use crate::num::Q;

/// The first, short slice of time each of several strategies gets on a query, in seconds
/// ([`Solver::run_posed`]).
const QUICK_SECONDS: u32 = 2;

/// A solver program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Microsoft's z3 (Debian package `z3`).
    Z3,
    /// cvc5 (Debian package `cvc5`).
    Cvc5,
}

impl Solver {
    /// The program's name.
    pub fn program(self) -> &'static str {
        match self {
            Solver::Z3 => "z3",
            Solver::Cvc5 => "cvc5",
        }
    }

    /// Whether the program can be run here.
    pub fn available(self) -> bool {
        Command::new(self.program())
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// The program's version line (for provenance), or `None` when it does not run.
    pub fn version(self) -> Option<String> {
        let out = Command::new(self.program())
            .arg("--version")
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines().next().map(|l| l.trim().to_string())
    }

    /// The option sets tried in turn ([`run_posed`](Solver::run_posed)). cvc5's integer
    /// branching is heavy-tailed on these queries: an obligation it does not settle in minutes
    /// with its defaults often takes under a second with other heuristics (measured on the
    /// three-pile forms), and any answer is as sound as any other. A claim's statement over
    /// those forms (nested `ite`s of `abs` and `min`) is settled in under a second once its
    /// `ite` terms are simplified first, and not in minutes otherwise (Theorem 6.3 (i); the
    /// lemma of the 4k − 3 breakpoints also needs the faster restarts).
    pub fn strategies(self) -> &'static [&'static [&'static str]] {
        match self {
            Solver::Z3 => &[&[]],
            Solver::Cvc5 => &[
                &[],
                &["--restart-int-base=5"],
                &["--dio-decomps"],
                &["--decision=stoponly"],
                &["--seed=7"],
                &["--ite-simp"],
                &["--ite-simp", "--restart-int-base=5"],
            ],
        }
    }

    fn args(self, seconds: u32, options: &[&str], cases: bool) -> Vec<String> {
        let mut args: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        if cases && self == Solver::Cvc5 {
            // One `(check-sat)` per case; cvc5 answers more than one only when told to.
            args.push("--incremental".into());
        }
        match self {
            Solver::Z3 => args.extend([format!("-T:{seconds}"), "-in".into(), "-smt2".into()]),
            Solver::Cvc5 => args.extend([
                "--lang=smt2".into(),
                format!("--tlimit={}", u64::from(seconds) * 1000),
                "-".into(),
            ]),
        }
        args
    }

    /// Runs the solver on `script` (SMT-LIB 2 ending in `(check-sat)`, possibly followed by
    /// `(get-value …)`) within `seconds`: each of its [strategies](Solver::strategies) in turn
    /// for an equal share (at least 2 s), until one answers `sat` or `unsat`.
    pub fn run(self, script: &str, seconds: u32) -> Result<Answer> {
        self.run_posed(
            &Posed {
                script: script.to_string(),
                cases: false,
            },
            seconds,
        )
    }

    /// As [`run`](Solver::run), for a query posed as its cases when it has them
    /// ([`Posed`]).
    ///
    /// With several strategies, each is first given a short slice of 2 s (an answer a strategy
    /// finds at all usually comes in well under it), and only then each in turn an equal share
    /// of the time left, so a query that one late strategy settles at once does not wait for the
    /// others' full shares.
    pub fn run_posed(self, posed: &Posed, seconds: u32) -> Result<Answer> {
        let script = posed.script.as_str();
        let strategies = self.strategies();
        let count = u32::try_from(strategies.len()).unwrap_or(u32::MAX);
        let quick = if count > 1 {
            QUICK_SECONDS.min(seconds / count)
        } else {
            0
        };
        let share = (seconds.saturating_sub(quick * count) / count).max(2);
        let mut last = Answer::Unknown(format!("{} was not run", self.program()));
        let slices = strategies
            .iter()
            .map(|options| (quick, options))
            .filter(|(slice, _)| *slice > 0)
            .chain(strategies.iter().map(|options| (share, options)));
        for (slice, options) in slices {
            last = self.run_with(script, slice, options, posed.cases)?;
            if !matches!(last, Answer::Unknown(_)) {
                break;
            }
        }
        Ok(last)
    }

    /// Runs `scripts` (each as for [`run`](Solver::run), without `(get-value …)`) in one solver
    /// process, each after a `(reset)` that returns the solver to its state at start, and
    /// returns their answers in order.
    ///
    /// Starting a solver costs about as much as one of the small obligations a forms file poses
    /// (about 25 ms for z3), so one process per query spends most of a proof starting
    /// processes. A reset query is answered exactly as in a fresh process; a query the session
    /// does not answer within its time limit and a grace period (a hung or crashed solver) ends
    /// the session, and it and the rest are run one process each with [`run`](Solver::run), as
    /// is every query the session leaves undecided.
    /// Solvers without a session mode here (cvc5, whose strategies are tried per query) run
    /// every query that way.
    pub fn run_session(self, posed: &[Posed], seconds: u32) -> Result<Vec<Answer>> {
        let mut answers = match self {
            Solver::Z3 => {
                let scripts: Vec<&str> = posed.iter().map(|p| p.script.as_str()).collect();
                self.session(&scripts, seconds)?
            }
            Solver::Cvc5 => Vec::new(),
        };
        for (p, answer) in posed.iter().zip(answers.iter_mut()) {
            if matches!(answer, Answer::Unknown(_)) {
                *answer = self.run_posed(p, seconds)?;
            }
        }
        for p in &posed[answers.len()..] {
            answers.push(self.run_posed(p, seconds)?);
        }
        Ok(answers)
    }

    /// The answers a z3 session gives, in order, up to the first query it does not answer.
    fn session(self, scripts: &[&str], seconds: u32) -> Result<Vec<Answer>> {
        use std::io::BufRead;
        use std::sync::mpsc;
        use std::time::Duration;
        const END: &str = "nimlab: end of query";
        let mut child = Command::new(self.program())
            .args([
                format!("-t:{}", u64::from(seconds) * 1000),
                // Without relevancy propagation z3 settles these linear queries two to three
                // times faster (measured on the three-pile forms); a query it leaves undecided
                // is posed again in a process of its own, with the defaults. Its default
                // arithmetic solver is kept: the legacy one (`smt.arith.solver=2`) took 2.5
                // times as long over the queries the refutation leaves to z3.
                "smt.relevancy=0".into(),
                "-in".into(),
                "-smt2".into(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| self.not_run(&e))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Vec::new());
        };
        let input: String = scripts
            .iter()
            .map(|s| format!("(reset)\n{s}\n(echo \"{END}\")\n"))
            .collect();
        // The writer and the reader run beside this thread, so that neither pipe fills while
        // the other waits, and a query that never ends is noticed by the deadline below.
        let writer = std::thread::spawn(move || {
            // A solver that exits early is noticed by the reader.
            let _ = stdin.write_all(input.as_bytes());
        });
        let (lines_tx, lines) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Duration::from_secs(u64::from(seconds) + 30);
        let mut answers = Vec::with_capacity(scripts.len());
        let mut said = Vec::new();
        'queries: while answers.len() < scripts.len() {
            match lines.recv_timeout(deadline) {
                Ok(line) if line.trim() == END => {
                    answers.push(self.answer(&said.join("\n"), ""));
                    said.clear();
                }
                Ok(line) => said.push(line),
                Err(_) => break 'queries,
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        drop(lines);
        let _ = writer.join();
        let _ = reader.join();
        Ok(answers)
    }

    fn not_run(self, e: &std::io::Error) -> Error {
        Error::Invalid(format!(
            "cannot run the SMT solver `{}` ({e}); install it (Debian package {})",
            self.program(),
            self.program()
        ))
    }

    /// The answer in a query's output (`stdout`; `stderr` explains an empty one): its first
    /// line decides.
    fn answer(self, stdout: &str, stderr: &str) -> Answer {
        let first = stdout.lines().next().unwrap_or("").trim().to_string();
        // A query of several cases prints one answer per case: all unsat, or its first other.
        let first = if first == "unsat" {
            stdout
                .lines()
                .map(str::trim)
                .find(|l| *l != "unsat")
                .unwrap_or("unsat")
                .to_string()
        } else {
            first
        };
        match first.as_str() {
            "unsat" => Answer::Unsat,
            "sat" => Answer::Sat(parse_values(stdout)),
            _ => {
                let said = if first.is_empty() {
                    stderr
                        .lines()
                        .next()
                        .unwrap_or("no answer")
                        .trim()
                        .to_string()
                } else {
                    first
                };
                Answer::Unknown(format!(
                    "{} answered `{}`",
                    self.program(),
                    crate::claims::registry::excerpt(&said)
                ))
            }
        }
    }

    fn run_with(self, script: &str, seconds: u32, options: &[&str], cases: bool) -> Result<Answer> {
        let mut child = Command::new(self.program())
            .args(self.args(seconds, options, cases))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| self.not_run(&e))?;
        if let Some(mut stdin) = child.stdin.take() {
            // A solver that stops reading early (a parse error) is reported by its output.
            let _ = stdin.write_all(script.as_bytes());
        }
        let out = child
            .wait_with_output()
            .map_err(|e| Error::Invalid(format!("`{}` failed: {e}", self.program())))?;
        Ok(self.answer(
            &String::from_utf8_lossy(&out.stdout),
            &String::from_utf8_lossy(&out.stderr),
        ))
    }
}

/// A query as posed to a solver: its script, and whether it asks one `(check-sat)` per case
/// ([`Query::cases`](super::term::Query::cases)).
#[derive(Clone, Debug)]
pub struct Posed {
    /// The SMT-LIB 2 script.
    pub script: String,
    /// Whether it asks several `(check-sat)`.
    pub cases: bool,
}

/// What a solver said of a query.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// No assignment satisfies it: the obligation holds.
    Unsat,
    /// A satisfying assignment (the values it printed of the shown variables).
    Sat(Vec<(String, Q)>),
    /// Neither (timeout, `unknown`, an error), in the solver's words.
    Unknown(String),
    /// Unsatisfiable by nimlab's own refutation ([`super::refute`]): no solver was run.
    Refuted,
}

/// The `(get-value …)` answer `((x 3) (N (/ 7.0 2.0)))` as pairs; values it cannot read are left
/// out.
fn parse_values(text: &str) -> Vec<(String, Q)> {
    let body: String = text.lines().skip(1).collect::<Vec<_>>().join(" ");
    let tokens = tokenize(&body);
    let mut pos = 0;
    let Some(Sexp::List(items)) = parse_sexp(&tokens, &mut pos) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| match item {
            Sexp::List(pair) if pair.len() == 2 => match (&pair[0], sexp_value(&pair[1])) {
                (Sexp::Atom(name), Some(v)) => Some((name.clone(), v)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[derive(Debug)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | ')' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(c.to_string());
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_sexp(tokens: &[String], pos: &mut usize) -> Option<Sexp> {
    let t = tokens.get(*pos)?;
    *pos += 1;
    if t == "(" {
        let mut items = Vec::new();
        while tokens.get(*pos)? != ")" {
            items.push(parse_sexp(tokens, pos)?);
        }
        *pos += 1;
        Some(Sexp::List(items))
    } else if t == ")" {
        None
    } else {
        Some(Sexp::Atom(t.clone()))
    }
}

fn sexp_value(s: &Sexp) -> Option<Q> {
    match s {
        Sexp::Atom(a) => {
            let digits = a.strip_suffix(".0").unwrap_or(a);
            digits.parse::<BigInt>().ok().map(Q::from_bigint)
        }
        Sexp::List(items) => match items.as_slice() {
            [Sexp::Atom(op), x] if op == "-" => sexp_value(x).map(|v| Q::zero() - v),
            [Sexp::Atom(op), a, b] if op == "/" => {
                let (a, b) = (sexp_value(a)?, sexp_value(b)?);
                (!b.is_zero()).then(|| a / b)
            }
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_answers_each_query_as_a_fresh_process_would() {
        if !Solver::Z3.available() {
            // CI installs z3 (.ci/run); the prove tests fail loudly without it.
            return;
        }
        let q =
            |body: &str| format!("(set-logic QF_LIA)\n(declare-fun x () Int)\n{body}\n(check-sat)");
        let scripts = [
            q("(assert (> x 2))"),
            // The reset drops the previous query's assertions: alone, this is unsat...
            q("(assert (and (> x 2) (< x 1)))"),
            // ...and this one would be unsat if `x > 2` were still asserted.
            q("(assert (< x 0))"),
            // A query the solver rejects is undecided, and the session goes on.
            q("(assert (> y 0))"),
            q("(assert (= (* 2 x) 7))"),
        ];
        let posed: Vec<Posed> = scripts
            .iter()
            .map(|s| Posed {
                script: s.clone(),
                cases: false,
            })
            .collect();
        let answers = Solver::Z3.run_session(&posed, 10).unwrap();
        let alone: Vec<Answer> = scripts
            .iter()
            .map(|s| Solver::Z3.run(s, 10).unwrap())
            .collect();
        assert_eq!(answers, alone);
        assert!(matches!(answers[0], Answer::Sat(_)));
        assert_eq!(answers[1], Answer::Unsat);
        assert!(matches!(answers[2], Answer::Sat(_)));
        assert!(matches!(answers[3], Answer::Unknown(_)));
        assert_eq!(answers[4], Answer::Unsat);
    }

    #[test]
    fn models_are_read_exactly() {
        let v =
            parse_values("sat\n((a 64792)\n (b (- 3))\n (N (/ 376447.0 6.0)) (M (- (/ 1 2))))\n");
        assert_eq!(
            v,
            vec![
                ("a".to_string(), Q::int(64792)),
                ("b".to_string(), Q::int(-3)),
                ("N".to_string(), Q::frac(376447, 6)),
                ("M".to_string(), Q::frac(-1, 2)),
            ]
        );
    }
}
