//! `nimlab prove`: forms proven for every parameter, refuted when perturbed, certificates that
//! another solver replays. These tests need the SMT solvers z3 and cvc5 (Debian packages, which
//! `.ci/run` installs).

use std::process::Command;

use crate::common::nimlab;

const TWO_PILES: &str = "data/proofs/scoring-nim-two-piles.toml";

fn forms() -> String {
    std::fs::read_to_string(TWO_PILES).unwrap()
}

/// Runs `nimlab prove` on `text` written to a file; returns (exit code, stdout).
fn prove(text: &str, extra: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forms.toml");
    std::fs::write(&path, text).unwrap();
    let out = nimlab()
        .arg("prove")
        .arg(&path)
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Runs `nimlab prove` on `text` that must be refused (exit 2); returns stderr.
fn refused(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forms.toml");
    std::fs::write(&path, text).unwrap();
    let out = nimlab().arg("prove").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{text}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_two_pile_forms_are_proven_and_replay_with_cvc5() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert");
    let (code, out) = prove(&forms(), &["--certificate", cert.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("PROVEN"), "{out}");
    let files: Vec<_> = std::fs::read_dir(&cert)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(files.len() > 100, "{}", files.len());
    replay_with_cvc5(&files);
}

/// Proves the two-pile forms from a copy in a temporary directory with `--certificate`;
/// returns the directory (kept alive), the copy's path and the certificate's.
fn certified() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let forms_path = dir.path().join("forms.toml");
    std::fs::write(&forms_path, forms()).unwrap();
    let cert = dir.path().join("cert");
    let out = nimlab()
        .arg("prove")
        .arg(&forms_path)
        .arg("--certificate")
        .arg(&cert)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    (dir, forms_path, cert)
}

/// Runs `command`; returns (exit code, stdout, stderr).
fn outputs(command: &mut assert_cmd::Command) -> (i32, String, String) {
    let out = command.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `nimlab mine replay` on `cert`; returns (exit code, stdout, stderr).
fn replay(cert: &std::path::Path, extra: &[&str]) -> (i32, String, String) {
    outputs(nimlab().args(["mine", "replay"]).arg(cert).args(extra))
}

#[test]
fn an_induction_certificate_replays_with_the_other_solver() {
    let (_dir, _, cert) = certified();
    let manifest = std::fs::read_to_string(cert.join("certificate.json")).unwrap();
    assert!(manifest.contains("\"solver\": \"z3\""), "{manifest}");
    let (code, out, err) = replay(&cert, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("VALID") && out.ends_with("unsat by cvc5\n"),
        "{out}"
    );
    let (code, out, err) = replay(&cert, &["--solver", "z3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("unsat by z3\n"), "{out}");
}

#[test]
fn a_changed_obligation_file_is_rejected() {
    let (_dir, _, cert) = certified();
    // Weakening an obligation (one assertion dropped) must not pass, although the weaker
    // query may still be unsatisfiable.
    let file = cert.join("covered.smt2");
    let text = std::fs::read_to_string(&file).unwrap();
    let weakened = text.replacen("(assert", "(check-sat)\n(exit)\n(assert", 1);
    assert_ne!(weakened, text);
    std::fs::write(&file, weakened).unwrap();
    let (code, _, err) = replay(&cert, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("REJECTED") && err.contains("covered.smt2"),
        "{err}"
    );
}

#[test]
fn a_missing_obligation_or_changed_forms_are_rejected() {
    let (_dir, forms_path, cert) = certified();
    std::fs::remove_file(cert.join("covered.smt2")).unwrap();
    let (code, _, err) = replay(&cert, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("covered.smt2"), "{err}");

    let (_dir, forms_path2, cert2) = certified();
    assert_ne!(forms_path, forms_path2);
    // A comment changes no form, but the certificate was written for other bytes.
    let mut text = std::fs::read_to_string(&forms_path2).unwrap();
    text.push_str("# edited\n");
    std::fs::write(&forms_path2, text).unwrap();
    let (code, _, err) = replay(&cert2, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("has changed"), "{err}");

    let empty = tempfile::tempdir().unwrap();
    let (code, _, err) = replay(empty.path(), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("certificate.json"), "{err}");
}

/// A second solver, run on the certificate files alone, agrees with every obligation: each
/// answer is `unsat` (a file of several cases asks one `(check-sat)` per case).
fn replay_with_cvc5(files: &[std::path::PathBuf]) {
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "smt2"))
    {
        let out = Command::new("cvc5")
            .args(["--incremental", "--lang=smt2"])
            .arg(f)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            !said.trim().is_empty() && said.lines().all(|l| l.trim() == "unsat"),
            "{}: {said}",
            f.display()
        );
    }
}

#[test]
fn a_form_off_by_one_is_refuted_in_its_class() {
    // Prop 4.1's form with the constant lowered by one.
    let bad = forms().replace("form = \"x - 1 + abs(N)\"", "form = \"x - 2 + abs(N)\"");
    assert_ne!(bad, forms());
    let (code, out) = prove(&bad, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("REFUTED"), "{out}");
    // Class (x,1) is where the wrong form is: its bound against the move to (1) (or another
    // class) fails with the solver's values.
    assert!(out.contains("x-one") || out.contains("$(x,1)$"), "{out}");
}

#[test]
fn a_coefficient_perturbed_in_n_is_refuted() {
    let bad = forms().replace(
        "form = \"x - y + abs(1 - abs(1 + N))\"",
        "form = \"x - y + abs(1 - abs(N))\"",
    );
    let (code, out) = prove(&bad, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("REFUTED"), "{out}");
}

#[test]
fn a_dropped_class_leaves_positions_uncovered() {
    let text = forms();
    let start = text.find("[[class]]\nid = \"x-x\"").unwrap();
    let end = text.find("[[class]]\nid = \"x-y\"").unwrap();
    let bad = format!("{}{}", &text[..start], &text[end..]);
    let (code, out) = prove(&bad, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("REFUTED: covered"), "{out}");
    assert!(out.contains("a = ") && out.contains("b = "), "{out}");
}

#[test]
fn a_nonlinear_form_is_refused_with_its_place() {
    let bad = forms().replace("form = \"x - 1 + abs(N)\"", "form = \"x * N\"");
    let err = refused(&bad);
    assert!(err.contains("x-one") && err.contains("not linear"), "{err}");
}

#[test]
fn claims_with_a_proof_are_proven() {
    let out = nimlab()
        .args([
            "check",
            "data/claims/scoring-nim.toml",
            "--only",
            "eq-1,prop-4.1,prop-4.2-ii",
        ])
        .args(["--format", "csv"])
        .env("NIMLAB_PROGRESS", "never")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches(",PROVEN,").count(), 3, "{text}");
    assert!(text.contains("y \\ge 2"), "{text}");
}

const THIRD_PILE: &str = "data/proofs/scoring-nim-third-pile-at-most-1.toml";

#[test]
fn theorem_6_3_is_proven_for_every_k_and_x() {
    let text = std::fs::read_to_string(THIRD_PILE).unwrap();
    let (code, out) = prove(&text, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("PROVEN"), "{out}");
}

#[test]
fn theorem_6_3_is_proven_again_by_cvc5() {
    // The second solver decides the same obligations on its own, none refuted in-process (some
    // as their two cases on the sign of N, which its certificate then lists): the forms', and
    // the step from them to the claim, which cvc5 settles only with its `ite` terms simplified
    // first.
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert");
    let (code, out, err) = prove_claim(
        std::path::Path::new("data/claims/scoring-nim.toml"),
        "thm-6.3-i",
        &[
            "--solver",
            "cvc5",
            "--solver-only",
            "--certificate",
            cert.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("PROVEN: Theorem 6.3 (i)"), "{out}");
    assert!(out.contains("answered by cvc5"), "{out}");
    assert!(std::fs::read_dir(&cert).unwrap().count() > 500);
    assert!(cert.join("statement.smt2").is_file());
}

#[test]
fn the_papers_misprint_for_10_8_1_is_refuted_and_the_engine_confirms_it() {
    // Theorem 6.3 (ii) at (10,8,1) as printed in the example after it: 9 − N for
    // 6 ≤ |N| ≤ 8 (right for N ≥ 6, a sign slip for N ≤ −6), the theorem's form elsewhere.
    let text = std::fs::read_to_string(THIRD_PILE).unwrap();
    let printed = "[[class]]\nid = \"printed-10-8-1\"\nname = \"$(10,8,1)$ as printed\"\n\
                   position = \"[10, 8, 1]\"\nform = \"if abs(N) >= 6 and abs(N) <= 8 then 9 - N \
                   else max(F(4, N), -8 + abs(N)) + 1\"\n\n";
    let at = text.find("[[class]]\nid = \"thm-6.3-ii\"").unwrap();
    let bad = format!("{}{printed}{}", &text[..at], &text[at..]);
    let (code, out) = prove(&bad, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("REFUTED"), "{out}");
    let confirmed = out
        .lines()
        .find(|l| l.starts_with("confirmed by the exact engine"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(confirmed.contains("at (10,8,1) with N = -"), "{confirmed}");
}

const CANDY_BLOCK_2: &str = "data/proofs/candy-nim-block-2.toml";
const CANDY_BLOCK_32: &str = "data/proofs/candy-nim-block-32.toml";

fn candy_forms() -> String {
    std::fs::read_to_string(CANDY_BLOCK_2).unwrap()
}

#[test]
fn candy_forms_of_block_2_are_proven_and_replay_with_cvc5() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert");
    let (code, out) = prove(&candy_forms(), &["--certificate", cert.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("PROVEN"), "{out}");
    let mut files: Vec<_> = std::fs::read_dir(&cert)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    replay_with_cvc5(&files);
}

#[test]
fn a_candy_form_wrong_at_one_member_is_refuted_and_the_engine_confirms_it() {
    // Prop 4.1's form, one too large at m = 5 only.
    let bad = candy_forms().replace(
        "form = \"2*m\"",
        "form = \"if m == 5 then 2*m + 1 else 2*m\"",
    );
    assert_ne!(bad, candy_forms());
    let (code, out) = prove(&bad, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("REFUTED"), "{out}");
    assert!(
        out.contains("gives 11 at [11,10,1], but V([11,10,1]) = 10"),
        "{out}"
    );
}

#[test]
fn a_candy_form_off_by_one_in_its_slope_is_refuted() {
    let bad = candy_forms().replace("form = \"2*m\"", "form = \"3*m\"");
    let (code, out) = prove(&bad, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("REFUTED"), "{out}");
    assert!(out.contains("confirmed by the exact engine"), "{out}");
}

#[test]
fn a_candy_family_without_a_class_is_refused_by_name() {
    let text = candy_forms();
    let start = text.find("[[class]]\nid = \"a0-x1\"").unwrap();
    let end = text.find("[[class]]\nid = \"a1-x0\"").unwrap();
    let bad = format!("{}{}", &text[..start], &text[end..]);
    let err = refused(&bad);
    assert!(err.contains("[0, 2m + 1, 2m + 1]"), "{err}");
}

#[test]
fn a_candy_class_off_the_closure_is_refused_by_name() {
    for (from, to, says) in [
        (
            "position = \"[2m + 1, 2m, 1]\"",
            "position = \"[3m + 1, 2m, 1]\"",
            "slope",
        ),
        (
            "position = \"[2m + 1, 2m, 1]\"",
            "position = \"[2m + 1, 2m + 1, 1]\"",
            "xor",
        ),
        ("block = 2", "block = 3", "power of two"),
    ] {
        let bad = candy_forms().replace(from, to);
        assert_ne!(bad, candy_forms());
        let err = refused(&bad);
        assert!(err.contains(says), "{to}: {err}");
    }
}

#[test]
fn the_block_32_forms_are_what_discover_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forms.toml");
    let out = nimlab()
        .args(["discover", "candy", "--no-claims", "--forms"])
        .arg(&path)
        .env("NIMLAB_PROGRESS", "never")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(CANDY_BLOCK_32).unwrap()
    );
}

#[test]
fn remark_4_5_and_prop_4_1_of_candy_nim_are_proven_for_every_m() {
    let out = nimlab()
        .args([
            "check",
            "data/claims/candy-nim.toml",
            "--only",
            "prop-4.1,rem-4.5",
        ])
        .args(["--format", "csv"])
        .env("NIMLAB_PROGRESS", "never")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches(",PROVEN,").count(), 2, "{text}");
    assert!(
        text.contains("induction on the number of candies"),
        "{text}"
    );
}

#[test]
fn remark_4_5_with_its_constant_off_by_one_is_refuted_in_the_block_32_forms() {
    let text = std::fs::read_to_string(CANDY_BLOCK_32).unwrap();
    let bad = text.replace(
        "form = \"if m == 0 then 0 else 62*m + 36\"",
        "form = \"if m == 0 then 0 else 62*m + 37\"",
    );
    assert_ne!(bad, text);
    let (code, out) = prove(&bad, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("REFUTED"), "{out}");
    // V([31, 32m, 32m + 31]) = 62m + 36: the engine shows the form one too large.
    assert!(out.contains("confirmed by the exact engine"), "{out}");
    assert!(out.contains("$[31, 32m, 32m + 31]$"), "{out}");
}

/// The queries nimlab refutes in-process in the forms `text` (an obligation's cases one by
/// one), and how many queries there are in all.
fn refuted_in_process(text: &str) -> (Vec<nimlab::prove::Posed>, usize) {
    use nimlab::prove::{Query, Refutation, System, refute};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forms.toml");
    std::fs::write(&path, text).unwrap();
    let system = System::load(&path).unwrap();
    let mut refuted = Vec::new();
    let mut total = 0;
    for o in system.obligations().unwrap() {
        let q = &o.query;
        if q.cases.is_empty() {
            total += 1;
            if refute(&q.assertions, None) == Refutation::Refuted {
                refuted.push(q.posed());
            }
        }
        for case in &q.cases {
            total += 1;
            if refute(&q.assertions, Some(case)) == Refutation::Refuted {
                let alone = Query {
                    cases: vec![case.clone()],
                    ..q.clone()
                };
                refuted.push(alone.posed());
            }
        }
    }
    (refuted, total)
}

#[test]
fn whatever_nimlab_refutes_in_process_z3_finds_unsatisfiable() {
    use nimlab::prove::{Answer, Solver};
    let third_pile = std::fs::read_to_string(THIRD_PILE).unwrap();
    let shipped = [forms(), candy_forms(), third_pile];
    // Perturbed forms: some of their obligations are satisfiable, and those must stay open.
    let perturbed = [
        forms().replace("form = \"x - 1 + abs(N)\"", "form = \"x - 2 + abs(N)\""),
        forms().replace(
            "form = \"x - y + abs(1 - abs(1 + N))\"",
            "form = \"x - y + abs(1 - abs(N))\"",
        ),
        candy_forms().replace("form = \"2*m\"", "form = \"3*m\""),
        candy_forms().replace(
            "form = \"2*m\"",
            "form = \"if m == 5 then 2*m + 1 else 2*m\"",
        ),
    ];
    for (k, text) in shipped.iter().chain(&perturbed).enumerate() {
        let (refuted, total) = refuted_in_process(text);
        if k < shipped.len() {
            // Not vacuous: the shipped forms' queries are nearly all refuted in-process.
            assert!(
                refuted.len() * 10 >= total * 9,
                "{} of {total}",
                refuted.len()
            );
        }
        let halves = refuted.split_at(refuted.len() / 2);
        let answers: Vec<Answer> = std::thread::scope(|s| {
            let runs = [halves.0, halves.1].map(|h| s.spawn(move || Solver::Z3.run_session(h, 60)));
            runs.into_iter()
                .flat_map(|r| r.join().unwrap().unwrap())
                .collect()
        });
        assert_eq!(answers.len(), refuted.len());
        for (a, p) in answers.iter().zip(&refuted) {
            assert_eq!(
                a,
                &Answer::Unsat,
                "refuted in-process, but z3 says {a:?}:\n{}",
                p.script
            );
        }
    }
}

#[test]
fn counts_and_tails_are_proven_through_lemmas_and_perturbed_lemmas_are_not() {
    let check = |claims: &std::path::Path| {
        let out = nimlab()
            .arg("check")
            .arg(claims)
            .args(["--only", "breakpoints-4k-3,eq-5", "--format", "csv"])
            .env("NIMLAB_PROGRESS", "never")
            .output()
            .unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let proven = check(std::path::Path::new("data/claims/scoring-nim.toml"));
    assert_eq!(proven.matches(",PROVEN,").count(), 2, "{proven}");
    assert!(proven.contains("every integer $k \\ge 1$"), "{proven}");
    // The same claims with the breakpoint lemma's last breakpoint moved in by one (false at
    // |t| = 2k − 2) and the upper tail of eq. (5)'s lemma one too high: only the finite checks
    // of the count and of the tail constants remain.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("claims")).unwrap();
    std::fs::create_dir_all(dir.path().join("proofs")).unwrap();
    for forms in std::fs::read_dir("data/proofs").unwrap() {
        let forms = forms.unwrap().path();
        std::fs::copy(
            &forms,
            dir.path().join("proofs").join(forms.file_name().unwrap()),
        )
        .unwrap();
    }
    let text = std::fs::read_to_string("data/claims/scoring-nim.toml").unwrap();
    let lemma = "(abs(t) <= 2k - 2)\"";
    assert_eq!(text.matches(lemma).count(), 1);
    let tail = "== 2k - N)";
    assert_eq!(text.matches(tail).count(), 1);
    let perturbed = text
        .replace(lemma, "(abs(t) <= 2k - 3)\"")
        .replace(tail, "== 2k + 1 - N)");
    let claims = dir.path().join("claims/scoring-nim.toml");
    std::fs::write(&claims, perturbed).unwrap();
    let held = check(&claims);
    assert_eq!(held.matches(",HOLDS,").count(), 2, "{held}");
}

/// A claim file of statements about its own definition of F_k (Def 6.2), proven without a
/// forms file (`proof = { over = … }`).
const DEFINITIONS_ONLY: &str = r#"
paper = "definitions"
title = "Statements about a definition"
define = [
  { def = "F(k, N) = 2 - min(j in -(2k-2)..2k-2 step 2: abs(N - j))", display = 'F_{#k}(#N)', means = '$F_k(N) = 2 - \min_{j \in J_k} \lvert N - j\rvert$' },
]

[[claim]]
id = "zero"
label = "zero"
statement = "F_k vanishes at 2k and -2k."
for = "k in 1..200"
holds = "F(k, 2k) == 0 and F(k, -2k) == 0"
proof = { over = "k >= 1" }

[[claim]]
id = "peaks"
label = "peaks"
statement = "F_k is 2 on J_k."
for = "k in 1..30, i in 0..29"
where = "i <= k - 1"
holds = "F(k, 2i) == 2"
proof = { over = "k >= 1 and i >= 0 and i <= k - 1" }

[[claim]]
id = "bounded"
label = "bounded"
statement = "True on the range only: k ≤ 200."
for = "k in 1..200"
holds = "F(k, 2k) == 0 and k <= 200"
proof = { over = "k >= 1" }
"#;

fn check_file(text: &str, only: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("claims.toml");
    std::fs::write(&path, text).unwrap();
    let out = nimlab()
        .arg("check")
        .arg(&path)
        .args(["--only", only, "--format", "csv"])
        .env("NIMLAB_PROGRESS", "never")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn statements_about_definitions_are_proven_without_forms_and_false_ones_are_not() {
    let (code, out, err) = check_file(DEFINITIONS_ONLY, "zero,peaks,bounded");
    assert_eq!(code, Some(0), "{out}{err}");
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[0].contains(",PROVEN,"), "{}", rows[0]);
    assert!(rows[0].contains("from the definitions"), "{}", rows[0]);
    assert!(rows[0].contains("every integer $k \\ge 1$"), "{}", rows[0]);
    assert!(rows[1].contains(",PROVEN,"), "{}", rows[1]);
    // True at every point checked, false from k = 201 on: the proof is refuted, and the claim
    // keeps the verdict of its finite check.
    assert!(rows[2].contains(",HOLDS,"), "{}", rows[2]);
    assert!(!rows[2].contains("PROVEN"), "{}", rows[2]);
}

#[test]
fn def_6_2_is_proven_from_the_definition_of_f_alone() {
    let out = nimlab()
        .args([
            "check",
            "data/claims/scoring-nim.toml",
            "--only",
            "def-6.2-zero",
        ])
        .env("NIMLAB_PROGRESS", "never")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(
            "PROVEN for every integer k ≥ 1, from the definitions (1 SMT obligation unsatisfiable)"
        ),
        "{text}"
    );
    assert!(!text.contains("induction"), "{text}");
}

#[test]
fn a_game_value_in_a_proof_without_forms_is_refused_by_name() {
    let text = DEFINITIONS_ONLY.replace(
        "holds = \"F(k, 2k) == 0 and F(k, -2k) == 0\"",
        "holds = \"F(k, 2k) == 0 and payoff(0, [k]) == k\"",
    );
    let (code, out, err) = check_file(&text, "zero");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("`payoff`"), "{err}");
    assert!(err.contains("forms file"), "{err}");
}

#[test]
fn a_proof_from_the_definitions_replays_with_cvc5_alone() {
    use nimlab::Registry;
    use nimlab::language::{Assertion, Check};
    use nimlab::prove::{Outcome, Refuting, Solver, Statement, prove_statement};
    let reg = Registry::parse(std::path::Path::new("claims.toml"), DEFINITIONS_ONLY).unwrap();
    for (id, proven) in [("zero", true), ("peaks", true), ("bounded", false)] {
        let claim = reg.claims.iter().find(|c| c.id == id).unwrap();
        let (Check::Expr(check), Some(proof)) = (&claim.check, &claim.proof) else {
            panic!("{id}: an expression claim with a proof");
        };
        let Assertion::Holds(statement) = &check.assertion else {
            panic!("{id}: a `holds` claim");
        };
        let vars: Vec<String> = check.range.binders.iter().map(|b| b.name.clone()).collect();
        let outcome = prove_statement(
            None,
            &reg.definitions,
            Statement {
                vars: &vars,
                reals: &[],
                over: &proof.over,
                formula: statement,
            },
            Solver::Cvc5,
            Refuting::SolverOnly,
        )
        .unwrap();
        assert_eq!(
            matches!(outcome, Outcome::Proven { in_process: 0, .. }),
            proven,
            "{id}: {outcome:?}"
        );
    }
}

/// Runs `nimlab prove CLAIMS --claim ID` with `extra`; returns (exit code, stdout, stderr).
fn prove_claim(claims: &std::path::Path, id: &str, extra: &[&str]) -> (i32, String, String) {
    outputs(
        nimlab()
            .arg("prove")
            .arg(claims)
            .args(["--claim", id])
            .args(extra),
    )
}

#[test]
fn a_claim_proven_from_the_definitions_has_a_certificate_cvc5_replays() {
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("claims.toml");
    std::fs::write(&claims, DEFINITIONS_ONLY).unwrap();
    let cert = dir.path().join("cert");
    let (code, out, err) =
        prove_claim(&claims, "peaks", &["--certificate", cert.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("PROVEN: peaks for every value with"),
        "{out}"
    );
    assert!(out.contains("and the claim's `where`"), "{out}");
    let manifest = std::fs::read_to_string(cert.join("certificate.json")).unwrap();
    assert!(manifest.contains("\"kind\": \"claim\""), "{manifest}");
    assert!(manifest.contains("\"id\": \"peaks\""), "{manifest}");
    assert!(!manifest.contains("\"forms\""), "{manifest}");
    let (code, out, err) = replay(&cert, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("VALID — peaks:")
            && out.contains("(claim peaks)")
            && out.ends_with("unsat by cvc5\n"),
        "{out}"
    );
    // The statement's file weakened, and then the claim file edited: both are rejected.
    let file = cert.join("statement.smt2");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen("(assert", "(check-sat)\n(exit)\n(assert", 1),
    )
    .unwrap();
    let (code, _, err) = replay(&cert, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("REJECTED") && err.contains("statement.smt2"),
        "{err}"
    );
    std::fs::write(&file, text).unwrap();
    assert_eq!(replay(&cert, &[]).0, 0);
    let edited = DEFINITIONS_ONLY.replace("holds = \"F(k, 2i) == 2\"", "holds = \"F(k, 2i) >= 2\"");
    assert_ne!(edited, DEFINITIONS_ONLY);
    std::fs::write(&claims, edited).unwrap();
    let (code, _, err) = replay(&cert, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("has changed"), "{err}");
}

#[test]
fn a_claim_false_beyond_its_range_is_refuted_with_its_point_by_either_solver() {
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("claims.toml");
    std::fs::write(&claims, DEFINITIONS_ONLY).unwrap();
    for extra in [&[][..], &["--solver", "cvc5", "--solver-only"][..]] {
        let (code, out, err) = prove_claim(&claims, "bounded", extra);
        assert_eq!(code, 1, "{out}{err}");
        assert!(out.starts_with("REFUTED: statement:"), "{out}");
        let k: i64 = out
            .split("v_k = ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("no value of k in {out}"));
        assert!(k > 200, "{out}");
    }
}

#[test]
fn proving_a_claim_refuses_what_it_cannot_prove_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("claims.toml");
    std::fs::write(&claims, DEFINITIONS_ONLY).unwrap();
    let (code, _, err) = prove_claim(&claims, "nosuch", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("\"nosuch\""), "{err}");
    let without = DEFINITIONS_ONLY.replacen("proof = { over = \"k >= 1\" }\n", "", 1);
    std::fs::write(&claims, without).unwrap();
    let (code, _, err) = prove_claim(&claims, "zero", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`zero` has no `proof` table"), "{err}");
    // A forms file is not a claim file.
    let (code, _, err) = prove_claim(std::path::Path::new(TWO_PILES), "eq-1", &[]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_claim_over_forms_is_certified_with_the_forms_and_the_step_to_the_claim() {
    // eq. (1) from the two-pile forms: the certificate holds the forms' obligations and the
    // statement's, and cvc5 replays both parts.
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("eq-1");
    let claims = std::path::Path::new("data/claims/scoring-nim.toml");
    let (code, out, err) = prove_claim(claims, "eq-1", &["--certificate", cert.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("PROVEN: eq. (1) for every value with x >= 2, from the forms of data/proofs/scoring-nim-two-piles.toml"), "{out}");
    assert!(cert.join("statement.smt2").is_file());
    assert!(cert.join("covered.smt2").is_file());
    let (code, out, err) = replay(&cert, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(claim eq-1) and data/proofs/scoring-nim-two-piles.toml"),
        "{out}"
    );
}
