//! The research reports (issue 8): templates rendered from a small hand-made context (insta
//! snapshots), Markdown and LaTeX escaping, byte-identical renders, and the atomic install that
//! leaves the previous reports intact when anything fails.

use std::fs;
use std::path::{Path, PathBuf};

use nimlab::Silent;
use nimlab::findings::EvidenceTable;
use nimlab::reports::{
    Axis, Bounds, ClaimEntry, Command, Commit, ComparedValue, CorrectionView, CounterexampleView,
    FalseClaim, Figure, FormulaView, Index, IndexEntry, Legend, Marks, NotationEntry, PairedValue,
    PaperIdentity, Parameter, PlacedVLine, ProofGap, Provenance, ReadingView, Report, Series,
    SeriesStyle, Summary, TableSection, VLine, VerdictCount, VerdictRow, Verdicts,
};
use nimlab::reports::{Difference, Files, compare, install};
use nimlab::reports::{FigureSpec, figure};
use nimlab::reports::{INDEX_LABEL_LIMIT, claim_entry, latex_command, top_findings};
use nimlab::reports::{Renderer, context_json};
use nimlab::reports::{
    escape_latex, escape_latex_prose, escape_markdown, latex_code, markdown_code,
};
use nimlab::{Cell, Table};
use nimlab::{ReportOptions, render_reports};

/// Every character that means something in Markdown or LaTeX, and some mathematics.
const NASTY: &str = r"a_b % & # $ { } ~ ^ \ | <x> *y* `z` [l](u) ≤ ⊕ 𝔊 −1 n₀ c⁺ --deep";

fn provenance() -> Provenance {
    Provenance {
        version: "0.0.0-test".into(),
        command: "nimlab report".into(),
        parameters: vec![Parameter {
            name: "range".into(),
            value: "0 ≤ n ≤ 10".into(),
        }],
        commit: Some(Commit {
            hash: "0123456789abcdef0123456789abcdef01234567".into(),
            modified: false,
        }),
        paper: Some(PaperIdentity {
            key: "author2020toy".into(),
            authors: vec!["A. Author".into(), "B. Author".into()],
            title: "Toy games".into(),
            year: Some("2020".into()),
            arxiv: Some("2001.00001".into()),
            version: Some("v2".into()),
            copy: "the version dated 1 January 2020".into(),
        }),
    }
}

/// A claim's full entry, as `papers::claim_entry` makes it (a FAILS one when `fails`).
fn entry(id: &str, label: &str, verdict: &str, fails: bool) -> ClaimEntry {
    let counterexample = fails.then(|| CounterexampleView {
        point: "$n = 3$".into(),
        values: vec![
            ComparedValue {
                side: "claimed".into(),
                label: "$2$".into(),
                value: "$2$".into(),
                labelled: "$2 = 2$".into(),
            },
            ComparedValue {
                side: "found".into(),
                label: "$f_N(n)$".into(),
                value: "$3$".into(),
                labelled: "$f_N(n) = 3$".into(),
            },
        ],
        paired: vec![PairedValue {
            quantity: "the second player's score".into(),
            claimed: "$5 = 1 + n + 1$".into(),
            claimed_value: "$5$".into(),
            found: "$4$".into(),
            differs: true,
        }],
        false_claim: None,
    });
    ClaimEntry {
        id: id.into(),
        label: label.into(),
        anchor: format!("claim-{id}"),
        statement: "For every $n$, $f_N(n) \\le 2$.".into(),
        reading: Some(formula("$f_N(n) \\le 2$", Some("$0 \\le n \\le 10$"))),
        verdict: verdict.into(),
        importance: if fails { "major" } else { "normal" }.into(),
        headline: None,
        range: "$0 \\le n \\le 10$".into(),
        proven_for: None,
        points: Some("11 points checked".into()),
        counterexample,
        extent: fails.then(|| "Fails at 8 of the 11 values of $n$ checked: $3 \\le n \\le 10$; holds at $0 \\le n \\le 2$.".into()),
        correction: fails.then(correction),
        note: fails.then(|| "The paper drops the $+1$.".into()),
        readings: if fails { readings() } else { Vec::new() },
        evidence: None,
        tables: if fails {
            vec![EvidenceTable {
                caption: "Per set $A$: the certified period (a | in prose).".into(),
                columns: vec!["set $A$".into(), "period $P$".into()],
                rows: vec![vec!["$\\lbrace 1, 2\\rbrace$".into(), "16".into()]],
            }]
        } else {
            Vec::new()
        },
        proof: (verdict == "PROVEN").then(|| "The window $n = 0, \\dots, 2$ recurs.".into()),
        proof_table: None,
        reproduce: format!("nimlab check data/claims/toy.toml --only {id}"),
        certify: (verdict == "PROVEN").then(|| {
            format!("nimlab prove data/claims/toy.toml --claim {id} --certificate {id}/ && nimlab mine replay {id}/")
        }),
    }
}

/// A formula with its range, as `papers::claim_entry` makes it.
fn formula(formula: &str, range: Option<&str>) -> FormulaView {
    FormulaView {
        formula: formula.into(),
        range: range.map(Into::into),
        condition: None,
    }
}

fn correction() -> CorrectionView {
    CorrectionView {
        statement: formula("$f_N(n) = \\min(n, 2) + 1$", Some("$0 \\le n \\le 10$")),
        holds: true,
        checked: 11,
        failure: None,
    }
}

/// Two readings: the statement as printed, failing at the claim's counterexample, and a
/// corrected one with a condition that holds and a counterexample of its own.
fn readings() -> Vec<ReadingView> {
    vec![
        ReadingView {
            name: "as printed: for every $n$".into(),
            literal: true,
            reading: Some(formula("$f_N(n) \\le 2$", Some("$0 \\le n \\le 10$"))),
            verdict: "FAILS".into(),
            points: Some("4 points checked, up to the first failure".into()),
            counterexample: None,
            fails_at_claims_counterexample: true,
            extent: None,
            correction: None,
            evidence: None,
        },
        ReadingView {
            name: "for even $n$".into(),
            literal: false,
            reading: Some(FormulaView {
                formula: "$f_N(n) \\le 3$".into(),
                range: Some("$0 \\le n \\le 10$".into()),
                condition: Some("$2 \\mid n$".into()),
            }),
            verdict: "FAILS".into(),
            points: Some("3 points checked, up to the first failure".into()),
            counterexample: Some(CounterexampleView {
                point: "$n = 4$".into(),
                values: vec![ComparedValue {
                    side: "found".into(),
                    label: "$f_N(n) \\le 3$".into(),
                    value: "$\\mathrm{false}$".into(),
                    labelled: "$(f_N(n) \\le 3) = \\mathrm{false}$".into(),
                }],
                paired: Vec::new(),
                false_claim: Some(FalseClaim {
                    statement: "$f_N(n) \\le 3$".into(),
                    reads: "$5 > 3$".into(),
                }),
            }),
            fails_at_claims_counterexample: false,
            extent: Some("Fails at 1 of the 6 values of $n$ checked: $n = 4$.".into()),
            correction: Some(correction()),
            evidence: None,
        },
    ]
}

fn row(e: &ClaimEntry) -> VerdictRow {
    VerdictRow {
        id: e.id.clone(),
        label: e.label.clone(),
        anchor: e.anchor.clone(),
        verdict: e.verdict.clone(),
        range: e.range.clone(),
    }
}

/// A small report touching every part of the templates.
fn toy_report() -> Report {
    let failing = entry("lemma-1", "Lemma 1 (f_N ≤ 2)", "FAILS", true);
    let proven = entry("thm-3", "Theorem 3", "PROVEN", false);
    let holds = entry("thm-2", "Theorem 2 (𝔊(a, m, x))", "HOLDS", false);
    Report {
        name: "toy".into(),
        title: "Toy paper: 50% of {proofs} & more".into(),
        source: "A. Author, Toy games ⊕ more".into(),
        provenance: provenance(),
        summary: Summary {
            errata: vec![failing.clone()],
            proven: vec![proven.clone()],
            findings: vec![format!("Escaping: {NASTY}")],
            known_false: Vec::new(),
            proof_gaps: Vec::new(),
            counts: vec![
                VerdictCount {
                    verdict: "HOLDS".into(),
                    count: 1,
                },
                VerdictCount {
                    verdict: "FAILS".into(),
                    count: 1,
                },
            ],
            own_counts: vec![VerdictCount {
                verdict: "HOLDS".into(),
                count: 1,
            }],
        },
        mined: Vec::new(),
        after_findings: Vec::new(),
        verdicts: Verdicts {
            registry: "data/claims/toy.toml".into(),
            command: "nimlab check data/claims/toy.toml --format csv".into(),
            note: None,
            csv: Some("verdicts.csv".into()),
            rows: vec![row(&failing), row(&holds), row(&proven)],
            own_results: 1,
            claims: vec![holds],
            notation: vec![NotationEntry {
                symbol: "$F_{k}(N)$".into(),
                meaning: "the distance of $N$ to $J_k$, 50% {of} it".into(),
            }],
        },
        after_claims: Vec::new(),
        tables: vec![TableSection {
            title: "Table 1".into(),
            caption: "Values of f_N.".into(),
            csv: "table1.csv".into(),
            command: "nimlab toy --max 3 --format csv".into(),
            columns: vec!["n".into(), "f_n".into()],
            rows: vec![
                vec!["0".into(), "-1/2".into()],
                vec!["1".into(), "|x|".into()],
            ],
            omitted: 2,
            after: Vec::new(),
        }],
        after_tables: Vec::new(),
        figures: vec![Figure {
            title: "Figure 1: f_N(1,1)".into(),
            caption: "A line, its breakpoints and a period.".into(),
            svg: "figure1.svg".into(),
            csv: "figure1.csv".into(),
            command: "nimlab toy --bonus=-3..3 --format csv".into(),
            x: Axis {
                column: "bonus".into(),
                label: "bonus N".into(),
            },
            y_label: "f_N".into(),
            series: vec![Series {
                column: "payoff".into(),
                label: "f_N(1,1)".into(),
                color: "blue".into(),
                style: SeriesStyle::Line,
            }],
            marks: Some(Marks {
                csv: "figure1-breakpoints.csv".into(),
                x: "bonus".into(),
                y: "payoff".into(),
                label: "breakpoints".into(),
                command: "nimlab toy".into(),
            }),
            vlines: vec![PlacedVLine {
                x: 1,
                label: "n₀ = 1".into(),
                anchor: "north west".into(),
                row: 0,
            }],
            bounds: Bounds {
                x_min: -3,
                x_max: 3,
                y_min: -1,
                y_max: 4,
                x_step: 1,
                y_step: 1,
            },
            legend: Legend {
                at: "0.03,0.97".into(),
                anchor: "north west".into(),
            },
            heatmap: None,
            after: Vec::new(),
        }],
        after_figures: Vec::new(),
        at_end: Vec::new(),
        reproduce: vec![Command {
            what: "Everything".into(),
            command: "nimlab report".into(),
        }],
    }
}

fn toy_index() -> Index {
    Index {
        provenance: provenance(),
        reports: vec![IndexEntry {
            name: "toy".into(),
            title: "Toy | paper".into(),
            source: "A. Author".into(),
            counts: vec![VerdictCount {
                verdict: "HOLDS".into(),
                count: 1,
            }],
            figures: 1,
            top: top_findings(&toy_report().summary, 3),
            paper: provenance().paper,
        }],
    }
}

/// `r` rendered as Markdown.
fn markdown(r: &Report) -> String {
    Renderer::new().unwrap().report_markdown(r).unwrap()
}

/// `r` rendered as LaTeX.
fn latex(r: &Report) -> String {
    Renderer::new().unwrap().report_latex(r).unwrap()
}

/// `r` rendered both ways: (Markdown, LaTeX).
fn rendered(r: &Report) -> (String, String) {
    (markdown(r), latex(r))
}

/// A rendered file as text.
fn text_of(files: &Files, path: &str) -> String {
    let bytes = files
        .get(path)
        .unwrap_or_else(|| panic!("{path} is not rendered"));
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A temporary root holding an empty `reports/`: the root, which removes itself when dropped,
/// and the reports' directory.
fn reports_dir() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("reports");
    fs::create_dir_all(&dir).unwrap();
    (root, dir)
}

#[test]
fn markdown_report_snapshot() {
    insta::assert_snapshot!("toy_report_md", markdown(&toy_report()));
}

#[test]
fn latex_report_snapshot() {
    insta::assert_snapshot!("toy_report_tex", latex(&toy_report()));
}

/// The same context as JSON: the data model itself, every special character kept as it is
/// (JSON needs no Markdown or LaTeX escaping), fields in the order the templates see them.
#[test]
fn json_report_is_the_context_itself() {
    let report = toy_report();
    let bytes = context_json(&report).unwrap();
    assert_eq!(bytes, context_json(&report).unwrap(), "deterministic");
    assert!(bytes.ends_with(b"}\n"));
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(v["title"], serde_json::Value::from(report.title.clone()));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(&keys[..3], ["name", "title", "source"]);
    insta::assert_snapshot!("toy_report_json", String::from_utf8(bytes).unwrap());
}

#[test]
fn markdown_index_snapshot() {
    let md = Renderer::new()
        .unwrap()
        .index_markdown(&toy_index())
        .unwrap();
    insta::assert_snapshot!("toy_index_md", md);
}

#[test]
fn a_report_without_claims_says_why() {
    let mut r = toy_report();
    r.verdicts.rows.clear();
    r.verdicts.csv = None;
    r.verdicts.note = Some("No claim registry yet: data/claims/toy.toml does not exist".into());
    r.verdicts.claims.clear();
    r.summary.errata.clear();
    r.summary.proven.clear();
    let (md, tex) = rendered(&r);
    assert!(md.contains("No claim registry yet: data/claims/toy.toml does not exist"));
    assert!(tex.contains(r"No claim registry yet: data/claims/toy.toml does not exist"));
    assert!(!md.contains("| claim | verdict |"));
}

#[test]
fn markdown_escapes_every_special_character() {
    assert_eq!(
        escape_markdown(r"_ % & # $ { } ~ ^ \ |"),
        r"\_ % \& \# \$ { } \~ ^ \\ \|"
    );
    assert_eq!(
        escape_markdown("*a* `b` [c] <d>"),
        r"\*a\* \`b\` \[c\] \<d\>"
    );
    // Unicode passes through; a line break would end a table row.
    assert_eq!(escape_markdown("≤ ⊕ 𝔊\nnext"), "≤ ⊕ 𝔊 next");
    assert_eq!(markdown_code("a | b"), r"`a \| b`");
    assert_eq!(markdown_code("a ` b"), "``a ` b``");
    assert_eq!(markdown_code("`x`"), "`` `x` ``");
}

#[test]
fn latex_escapes_every_special_character() {
    assert_eq!(
        escape_latex(r"_ % & # $ { } ~ ^ \ |"),
        r"\_ \% \& \# \$ \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{} \textbar{}"
    );
    assert_eq!(escape_latex("<a>"), r"\textless{}a\textgreater{}");
    // `--` stays two hyphens, not an en dash.
    assert_eq!(escape_latex("--deep"), "-{}-deep");
    assert_eq!(latex_code("x_1 --y"), r"\texttt{x\_1 -{}-y}");
    // A long path may break after each slash instead of running into the margin.
    assert_eq!(
        latex_code("data/proofs/f.toml"),
        r"\texttt{data/\allowbreak{}proofs/\allowbreak{}f.toml}"
    );
    // … and after a hyphen inside a word, never inside `--`.
    assert_eq!(
        latex_code("third-pile --only"),
        r"\texttt{third-\allowbreak{}pile -{}-only}"
    );
}

/// Prose typesets the papers' ASCII scripts and escapes everything else as data does.
#[test]
fn latex_prose_typesets_scripts_and_nothing_else() {
    for (prose, want) in [
        (
            "f^I and f^II",
            r"f\textsuperscript{I} and f\textsuperscript{II}",
        ),
        ("W^cash(n; d, e)", r"W\textsuperscript{cash}(n; d, e)"),
        (
            "2^k − 1 and 10^18",
            r"2\textsuperscript{k} \ensuremath{-} 1 and 10\textsuperscript{18}",
        ),
        (
            "f_N(p), h_i(b), G_s",
            r"f\textsubscript{N}(p), h\textsubscript{i}(b), G\textsubscript{s}",
        ),
        (
            "f_A^⊥ and c^+",
            r"f\textsubscript{A}\textsuperscript{\ensuremath{\perp}} and c\textsuperscript{+}",
        ),
        // Longer names, long scripts and lone signs stay literal.
        (
            "least_f1, a_bcd, x^abcde, ^I, _i",
            r"least\_f1, a\_bcd, x\textasciicircum{}abcde, \textasciicircum{}I, \_i",
        ),
    ] {
        assert_eq!(escape_latex_prose(prose), want, "{prose}");
    }
    // Without scripts, prose and data escape alike, except that prose sets a `code` span as code.
    let plain = NASTY.replace(['^', '_'], " ");
    assert_eq!(
        escape_latex_prose(&plain),
        escape_latex(&plain).replace("`z`", r"\texttt{z}")
    );
}

#[test]
fn latex_maps_unicode_mathematics_to_commands() {
    assert_eq!(escape_latex("≤"), r"\ensuremath{\leq}");
    assert_eq!(escape_latex("a ⊕ b"), r"a \ensuremath{\oplus} b");
    assert_eq!(escape_latex("𝔊"), r"\ensuremath{\mathfrak{G}}");
    assert_eq!(escape_latex("−1"), r"\ensuremath{-}1");
    assert_eq!(
        escape_latex("n₀ c⁺"),
        r"n\textsubscript{0} c\textsuperscript{+}"
    );
    assert_eq!(escape_latex("x²"), r"x\textsuperscript{2}");
    assert_eq!(escape_latex("§6 – Möbius"), "§6 -- Möbius");
    // Anything else is shown as its code point rather than breaking pdflatex.
    assert_eq!(escape_latex("☃"), r"\textless{}U+2603\textgreater{}");
    // No character of the nasty string reaches LaTeX unescaped.
    let out = escape_latex(NASTY);
    assert!(
        out.is_ascii()
            || out
                .chars()
                .all(|c| c.is_ascii() || ('\u{a1}'..='\u{17f}').contains(&c))
    );
}

/// The paper studies copied into `dir/studies`, each naming a registry of one trivial claim in
/// `dir/claims`: every report renders without the real registries (fast, and independent of
/// the registries others are editing).
fn trivial_claims(dir: &Path) -> Vec<(String, nimlab::reports::Builder)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::create_dir_all(dir.join("studies")).unwrap();
    fs::create_dir_all(dir.join("claims")).unwrap();
    for name in nimlab::PAPERS {
        let study = format!("{name}.toml");
        fs::copy(
            root.join("data/studies").join(&study),
            dir.join("studies").join(&study),
        )
        .unwrap();
        fs::write(
            dir.join("claims").join(&study),
            format!("paper = \"{name}\"\n\n[[claim]]\nid = \"trivial\"\nlabel = \"Trivial claim\"\nstatement = \"1 = 1\"\nholds = \"1 == 1\"\n"),
        )
        .unwrap();
    }
    nimlab::paper_reports(&dir.join("studies")).unwrap()
}

#[test]
fn two_renders_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let papers = trivial_claims(dir.path());
    let opts = ReportOptions::default();
    let a = render_reports(&papers, &opts, &Silent).unwrap();
    let b = render_reports(&papers, &opts, &Silent).unwrap();
    assert_eq!(a, b);
    let names: Vec<&str> = a.iter().map(|(p, _)| p).collect();
    for r in ["scoring-nim", "scoring-octal", "candy-nim", "nim-with-cash"] {
        assert!(names.contains(&format!("{r}/{r}.md").as_str()), "{r}.md");
        assert!(names.contains(&format!("{r}/{r}.tex").as_str()), "{r}.tex");
        let md = text_of(&a, &format!("{r}/{r}.md"));
        assert!(
            md.contains("Trivial claim")
                && md.contains("claims/{r}.toml".replace("{r}", r).as_str()),
            "{r} shows the verdict of its study's registry"
        );
    }
    assert!(names.contains(&"README.md"));
    assert!(names.iter().any(|p| p.ends_with(".svg")));
}

#[test]
fn figures_are_deterministic_svg_with_their_csv() {
    let spec = || {
        let mut data = Table::new(&["n", "value"]);
        for n in 0..20 {
            data.push(vec![Cell::Int(n), Cell::Int((n * 7) % 5)]);
        }
        FigureSpec {
            id: "f".into(),
            title: "t".into(),
            caption: "c".into(),
            command: "nimlab x".into(),
            x: Axis {
                column: "n".into(),
                label: "n".into(),
            },
            y_label: "value".into(),
            series: vec![Series {
                column: "value".into(),
                label: "a < b & c".into(),
                color: "teal".into(),
                style: SeriesStyle::Markers,
            }],
            data,
            marks: None,
            vlines: vec![VLine {
                x: 5,
                label: "n₀ = 5".into(),
            }],
        }
    };
    let (mut a, mut b) = (Files::new(), Files::new());
    let fa = figure(spec(), &mut a).unwrap();
    figure(spec(), &mut b).unwrap();
    assert_eq!(a, b);
    let svg = std::str::from_utf8(a.get("f.svg").unwrap()).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(
        svg.contains("a &lt; b &amp; c"),
        "legend text is XML-escaped"
    );
    assert!(a.get("f.csv").unwrap().starts_with(b"n,value\n0,0\n"));
    assert_eq!(fa.bounds.x_min, 0);
    assert_eq!(fa.bounds.x_max, 19);
    // The label of the line at n = 5 sits at the top, right of the line (nothing else is
    // near); the legend fits in the upper left, above the data and short of the line. pgfplots
    // gets the same places.
    assert_eq!(
        (fa.vlines[0].anchor.as_str(), fa.vlines[0].row),
        ("north west", 0)
    );
    assert_eq!(
        (fa.legend.at.as_str(), fa.legend.anchor.as_str()),
        ("0.03,0.97", "north west")
    );
}

fn snapshot_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walk(dir) {
        let bytes = fs::read(dir.join(&e)).unwrap();
        out.push((e, bytes));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            out.extend(walk(&p).into_iter().map(|s| format!("{name}/{s}")));
        } else {
            out.push(name);
        }
    }
    out
}

#[test]
fn a_failing_install_leaves_the_previous_reports_intact() {
    let (root, dir) = reports_dir();
    fs::create_dir_all(dir.join("old")).unwrap();
    fs::write(dir.join("old/old.md"), "previous report\n").unwrap();
    let before = snapshot_of(&dir);
    // `a` is a file, then a directory: writing the second fails halfway through the render.
    let mut files = Files::new();
    files.insert("a", b"first".to_vec()).unwrap();
    files.insert("a/b", b"second".to_vec()).unwrap();
    assert!(install(&dir, &files).is_err());
    assert_eq!(snapshot_of(&dir), before);
    // Nothing is left beside the reports.
    let beside: Vec<String> = walk(root.path())
        .into_iter()
        .filter(|p| !p.starts_with("reports/"))
        .collect();
    assert!(beside.is_empty(), "left behind: {beside:?}");
}

#[test]
fn a_failing_render_writes_nothing() {
    let (root, dir) = reports_dir();
    fs::write(dir.join("README.md"), "previous\n").unwrap();
    let opts = ReportOptions {
        only: vec!["no-such-paper".into()],
        ..ReportOptions::default()
    };
    let studies = tempfile::tempdir().unwrap();
    let papers = trivial_claims(studies.path());
    assert!(nimlab::write_reports(&dir, &papers, &opts, &Silent).is_err());
    assert_eq!(
        fs::read_to_string(dir.join("README.md")).unwrap(),
        "previous\n"
    );
    assert_eq!(walk(root.path()), vec!["reports/README.md".to_string()]);
}

#[test]
fn install_replaces_the_tree_and_compare_finds_every_difference() {
    let (root, dir) = reports_dir();
    fs::write(dir.join("stale.md"), "stale\n").unwrap();
    let mut files = Files::new();
    files.insert("README.md", b"index\n".to_vec()).unwrap();
    files.insert("x/x.md", b"report\n".to_vec()).unwrap();
    install(&dir, &files).unwrap();
    assert_eq!(
        walk(root.path()).len(),
        2,
        "the stale file is gone, nothing left beside"
    );
    assert_eq!(compare(&dir, &files).unwrap(), vec![]);
    fs::write(dir.join("x/x.md"), "edited\n").unwrap();
    fs::write(dir.join("extra.csv"), "1\n").unwrap();
    fs::remove_file(dir.join("README.md")).unwrap();
    assert_eq!(
        compare(&dir, &files).unwrap(),
        vec![
            Difference::Missing("README.md".into()),
            Difference::Extra("extra.csv".into()),
            Difference::Changed("x/x.md".into()),
        ]
    );
}

#[test]
fn report_files_must_be_plain_relative_paths() {
    let mut files = Files::new();
    assert!(files.insert("../escape.md", vec![]).is_err());
    assert!(files.insert("/abs.md", vec![]).is_err());
    assert!(files.insert("", vec![]).is_err());
    assert!(files.insert("dir/", vec![]).is_err());
    assert!(files.insert("./x.md", vec![]).is_err());
    files.insert("ok.md", vec![]).unwrap();
    assert!(files.insert("ok.md", vec![]).is_err(), "rendered twice");
}

/// A registry with no claims at all (found by the issue-14 review: the templates failed on it).
#[test]
fn a_registry_without_claims_renders() {
    let mut r = toy_report();
    r.verdicts.rows.clear();
    r.verdicts.csv = None;
    r.verdicts.note = None;
    r.verdicts.claims.clear();
    r.summary.errata.clear();
    r.summary.proven.clear();
    let (md, tex) = rendered(&r);
    assert!(md.contains("No claims were checked."), "{md}");
    assert!(tex.contains("No claims were checked."));
}

/// A FAILS claim's entry, from a real check: its statement, the exact reading, the labelled
/// counterexample, where it fails, the corrected statement as mathematics, the note and the
/// command that checks it alone; all of it reaches both renders.
#[test]
fn a_failing_claim_is_stated_with_its_counterexample_and_correction() {
    let file = r#"
paper = "toy"
[[claim]]
id = "halves"
label = "Lemma 5"
statement = "For $0 \\le k \\le 6$, $k^2 < 10$."
note = "False from $k = 4$ on; the square is bounded by $\\min(k^2, 9)$ instead."
importance = "major"
for = "k in 0..6"
actual = "k^2"
expected = "min(k^2, 9)"
correction = "k^2"
"#;
    let registry = nimlab::Registry::parse(Path::new("toy.toml"), file).unwrap();
    let finding = nimlab::check_claim(&registry, &registry.claims[0], false).unwrap();
    assert_eq!(finding.verdict, nimlab::VerdictKind::Fails);
    let e = claim_entry(&registry, &finding, "nimlab check data/claims/toy.toml");
    assert_eq!(e.statement, registry.claims[0].statement);
    assert_eq!(e.importance, "major");
    let reading = e.reading.as_ref().unwrap();
    assert!(
        reading.formula.starts_with('$') && reading.formula.contains("k^{2}"),
        "{reading:?}"
    );
    assert_eq!(reading.range.as_deref(), Some("$0 \\le k \\le 6$"));
    let c = e.counterexample.as_ref().unwrap();
    assert_eq!(c.point, "$k = 4$");
    // A false equation of two values is one line, each side with its value, not a table of a
    // "claimed" and a "found" side.
    assert!(c.values.is_empty(), "{c:?}");
    let equation = c.false_claim.as_ref().unwrap();
    assert_eq!(equation.reads, "$k^{2} = 16 \\ne 9 = \\min(k^{2}, 9)$");
    let correction = e.correction.as_ref().unwrap();
    assert!(correction.holds);
    assert_eq!(correction.statement.formula, "$k^{2} = k^{2}$");
    assert_eq!(e.note, registry.claims[0].commentary.note);
    assert_eq!(
        e.reproduce,
        "nimlab check data/claims/toy.toml --only halves"
    );
    let mut r = toy_report();
    r.summary.errata = vec![e.clone()];
    let (md, tex) = rendered(&r);
    for text in [md, tex] {
        let start = text.find("Errata").unwrap();
        let errata = &text[start..start + text[start..].find("New results").unwrap()];
        assert!(errata.contains("Lemma 5"), "{errata}");
        for part in ["k = 4", "16 \\ne 9", "Corrected statement", "--only halves"] {
            let shown = part.replace("--", "-{}-");
            assert!(
                errata.contains(part) || errata.contains(&shown),
                "{part} missing in {errata}"
            );
        }
    }
}

/// Errata lead, ranked by importance; the index lists each report's first findings.
#[test]
fn findings_come_first_and_the_index_lists_the_top_ones() {
    let mut summary = toy_report().summary;
    let mut minor = entry("lemma-9", "Lemma 9", "FAILS", true);
    minor.importance = "minor".into();
    summary.errata.push(minor);
    // Quantities compared one by one show those that differ, claimed beside found.
    let paired = top_findings(&summary, 1);
    assert!(
        paired[0].contains("(at $n = 3$: the second player's score: claimed $5$, found $4$)"),
        "{}",
        paired[0]
    );
    for e in &mut summary.errata {
        if let Some(c) = e.counterexample.as_mut() {
            c.paired.clear();
        }
    }
    let top = top_findings(&summary, 3);
    assert_eq!(top.len(), 3);
    // Each value with its label, the correction with its range.
    assert!(
        top[0].starts_with(
            "Lemma 1 (f_N ≤ 2) is false as stated (at $n = 3$: claimed $2 = 2$, found $f_N(n) = 3$)"
        ),
        "{}",
        top[0]
    );
    assert!(
        top[0].ends_with("corrected: $f_N(n) = \\min(n, 2) + 1$ for $0 \\le n \\le 10$"),
        "{}",
        top[0]
    );
    // By importance: the major erratum, the normal new result, then the minor erratum.
    assert!(top[1].starts_with("Theorem 3: PROVEN"), "{}", top[1]);
    assert!(top[2].starts_with("Lemma 9"), "{}", top[2]);
    // A value named by a long formula is shown bare in the index.
    let mut long = summary.clone();
    let values = &mut long.errata[0].counterexample.as_mut().unwrap().values;
    values[1].labelled = format!("${} = 3$", "x + ".repeat(INDEX_LABEL_LIMIT));
    let bare = top_findings(&long, 1);
    assert!(
        bare[0].contains("claimed $2 = 2$, found $3$)"),
        "{}",
        bare[0]
    );
    // A report with errata names one even when new results outrank it.
    let mut majors = summary.clone();
    majors.errata.retain(|e| e.label == "Lemma 9");
    for (i, label) in ["Theorem 4", "Theorem 5", "Theorem 6"]
        .into_iter()
        .enumerate()
    {
        let mut e = entry(&format!("thm-{i}"), label, "PROVEN", false);
        e.importance = "major".into();
        majors.proven.insert(i, e);
    }
    let top = top_findings(&majors, 3);
    assert!(
        top[0].starts_with("Theorem 4") && top[1].starts_with("Theorem 5"),
        "{top:?}"
    );
    assert!(top[2].starts_with("Lemma 9"), "{top:?}");
    // Claims sharing a headline are one finding, said in its words beside the verdict.
    for e in majors.proven.iter_mut().take(2) {
        e.headline = Some("both proven for every $k$".into());
    }
    let top = top_findings(&majors, 3);
    assert_eq!(
        top[0], "Theorem 4, Theorem 5 (PROVEN): both proven for every $k$",
        "{top:?}"
    );
    assert!(top[1].starts_with("Theorem 6"), "{top:?}");
    let md = Renderer::new()
        .unwrap()
        .index_markdown(&toy_index())
        .unwrap();
    let section = &md[md.find("## Top findings").unwrap()..];
    assert!(section.contains("1. Lemma 1"), "{section}");
    assert!(section.contains("2. Theorem 3: PROVEN"), "{section}");
    // The report itself: errata, then new results, then all claims.
    let report = markdown(&toy_report());
    let at = |s: &str| report.find(s).unwrap_or_else(|| panic!("{s} missing"));
    assert!(at("## Errata") < at("## New results") && at("## New results") < at("## All claims"));
    assert!(at("Lemma 1 (f") < at("## New results"));
    assert!(at("**Proof sketch.**") < at("## All claims"));
}

/// A reading is shown like a small claim entry: its number, whether it is the statement as
/// printed, its verdict, the formula checked with its range and condition, its points, and its
/// own counterexample and correction (or a pointer to the claim's counterexample when it is the
/// same), in both renders.
#[test]
fn readings_are_shown_like_small_claim_entries() {
    let (md, tex) = rendered(&toy_report());
    let section = |text: &str, from: &str| {
        let start = text.find(from).unwrap();
        text[start..text[start..].find("Reproduce").unwrap() + start].to_string()
    };
    let md = section(&md, "**Readings**");
    assert!(
        md.contains("**Reading 1, the statement as printed — FAILS.** as printed: for every $n$"),
        "{md}"
    );
    assert!(md.contains("It fails at the counterexample above."), "{md}");
    assert!(md.contains("**Reading 2 — FAILS.** for even $n$"), "{md}");
    assert!(
        md.contains("Checked: $f_N(n) \\le 3$\\\nfor $0 \\le n \\le 10$\\\nsuch that $2 \\mid n$"),
        "{md}"
    );
    assert!(md.contains("At $n = 4$:"), "{md}");
    assert!(md.contains("Fails at 1 of the 6 values"), "{md}");
    assert_eq!(md.matches("**Corrected statement**").count(), 1, "{md}");
    let tex = section(&tex, "\\textbf{Readings}");
    assert!(
        tex.contains("\\textbf{Reading 1, the statement as printed --- FAILS.}"),
        "{tex}"
    );
    assert!(
        tex.contains("\\nimlabformula{such that $2 \\mid n$}"),
        "{tex}"
    );
    assert!(tex.contains("At \\nimlabfit{$n = 4$}"), "{tex}");
}

/// A formula checked is set on lines of its own and never shrunk: the formula, its range and
/// its condition each in `\nimlabformula`, which breaks a long one; in Markdown, separate
/// math spans on separate lines.
#[test]
fn a_checked_formula_and_its_range_are_on_lines_of_their_own() {
    let (md, tex) = rendered(&toy_report());
    assert!(
        tex.contains(
            "\\noindent Checked:\n\\nimlabformula{$f_N(n) \\le 2$}\n\\nimlabformula{for $0 \\le n \\le 10$}"
        ),
        "{tex}"
    );
    assert!(!tex.contains("\\nimlabfit{$f_N(n)"), "{tex}");
    assert!(
        md.contains("Checked: $f_N(n) \\le 2$\\\nfor $0 \\le n \\le 10$"),
        "{md}"
    );
}

/// The Notation section lists the helpers' display forms and meanings after the findings and
/// before the claims, in both renders, and is left out when no formula uses a helper.
#[test]
fn the_notation_section_lists_the_helpers_only_when_there_are_some() {
    let (md, tex) = rendered(&toy_report());
    let at = |text: &str, s: &str| text.find(s).unwrap_or_else(|| panic!("{s} missing"));
    assert!(at(&md, "## New results") < at(&md, "## Notation"));
    assert!(at(&md, "## Notation") < at(&md, "## All claims"));
    assert!(md.contains("- $F_{k}(N)$: the distance of $N$ to $J_k$, 50% {of} it"));
    assert!(at(&tex, "\\section{New results}") < at(&tex, "\\section{Notation}"));
    assert!(at(&tex, "\\section{Notation}") < at(&tex, "\\section{All claims}"));
    assert!(tex.contains("\\item $F_{k}(N)$: the distance of $N$ to $J_k$, 50\\% \\{of\\} it"));
    let mut r = toy_report();
    r.verdicts.notation.clear();
    let (md, tex) = rendered(&r);
    assert!(!md.contains("Notation"));
    assert!(!tex.contains("Notation"));
}

/// A real registry's report lists the helpers its claims show by their display forms, with
/// their meanings, and no helper without one.
#[test]
fn a_registry_report_lists_the_display_forms_its_claims_use() {
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("claims");
    fs::create_dir(&claims).unwrap();
    fs::write(
        claims.join("toy.toml"),
        r#"
paper = "toy"
define = [
  { def = "dist(N, k) = min(j in 0..k: abs(N - 2*j))", display = 'D_{#k}(#N)', means = 'the distance of $N$ to $\lbrace 0, 2, \dots, 2k\rbrace$' },
  "twice(x) = 2*x",
  { def = "unused(x) = x + 1", display = 'U(#x)', means = 'never shown' },
]
[[claim]]
id = "d"
label = "Lemma 1"
statement = '$D_k(N) \le 1$'
for = "k in 0..2, N in 0..4"
actual = "dist(N, k) <= twice(1)"
expected = "true"
"#,
    )
    .unwrap();
    let opts = ReportOptions::default();
    let mut files = Files::new();
    let (verdicts, _) =
        nimlab::reports::verdicts("toy", &claims.join("toy.toml"), &opts, &Silent, &mut files)
            .unwrap();
    let shown: Vec<(&str, &str)> = verdicts
        .notation
        .iter()
        .map(|n| (n.symbol.as_str(), n.meaning.as_str()))
        .collect();
    assert_eq!(
        shown,
        [(
            "$D_{k}(N)$",
            "the distance of $N$ to $\\lbrace 0, 2, \\dots, 2k\\rbrace$"
        )]
    );
}

/// The combined document inputs every report with its directory, after a table of contents;
/// the bibliography has every paper with its verified arXiv id and nimlab itself.
#[test]
fn the_combined_pdf_and_the_bibliography_list_every_report() {
    let renderer = Renderer::new().unwrap();
    let index = toy_index();
    let all = renderer.combined_latex(&index).unwrap();
    assert!(all.contains("\\def\\nimlabcombined{}"));
    assert!(all.find("\\tableofcontents").unwrap() < all.find("\\input{toy/toy.tex}").unwrap());
    assert!(all.contains("\\def\\nimlabdir{toy/}"));
    let tex = latex(&toy_report());
    assert!(tex.contains("\\ifdefined\\nimlabcombined\\else"));
    assert!(
        tex.contains("\\ifdefined\\nimlabcombined\\expandafter\\endinput\\fi\n\\end{document}")
    );
    let bib = renderer.bibliography(&index).unwrap();
    assert!(bib.contains("@misc{author2020toy,"), "{bib}");
    assert!(bib.contains("eprint = {2001.00001v2}"), "{bib}");
    assert!(bib.contains("@software{nimlab,"), "{bib}");
}

/// Commands in LaTeX break after `/`, `=`, `,`, `.` and a hyphen inside a word, never inside
/// `--only`, and print exactly the characters of the command.
#[test]
fn latex_commands_break_where_a_paste_is_unaffected() {
    let tex = latex_command("nimlab check data/claims/x.toml --only prop-3.1");
    assert_eq!(
        tex,
        "\\texttt{nimlab check data/\\allowbreak{}claims/\\allowbreak{}x.\\allowbreak{}toml -{}-only prop-\\allowbreak{}3.\\allowbreak{}1}"
    );
}

/// CITATION.cff cites every paper by the arXiv id (and version) the paper studies give, and
/// none they do not.
#[test]
fn the_citation_file_agrees_with_the_papers_identities() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cff = fs::read_to_string(root.join("CITATION.cff")).unwrap();
    assert!(cff.starts_with("# Citation") && cff.contains("cff-version: 1.2.0"));
    let mut known = 0;
    for name in nimlab::PAPERS {
        let study = nimlab::study::load(&root.join(format!("data/studies/{name}.toml"))).unwrap();
        let paper = study.paper.unwrap().identity;
        assert!(
            cff.contains(&format!("title: \"{}\"", paper.title)),
            "{name}"
        );
        if let Some(id) = &paper.arxiv {
            known += 1;
            let full = format!("arXiv:{id}{}", paper.version.clone().unwrap_or_default());
            assert!(
                cff.contains(&format!("value: \"{full}\"")),
                "{name}: {full}"
            );
        }
    }
    let ids = cff.matches("arXiv:").count();
    assert_eq!(ids, known, "no identifier the reports do not give");
}

/// `report --print REPORT/FILE` computes one report and prints one of its files byte for byte
/// as the render writes it (the reports' tables give it as their reproduce command), with
/// nothing on stderr in a quiet run.
#[test]
fn report_print_gives_one_data_file_exactly_as_rendered() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = crate::common::nimlab()
        .current_dir(root)
        .args(["report", "--print", "candy-nim/standard-forms.csv"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let committed = fs::read(root.join("reports/candy-nim/standard-forms.csv")).unwrap();
    assert_eq!(out.stdout, committed);
}

/// A `--print` value that is not REPORT/FILE, or names no report, is refused at once (exit 2)
/// with the reports there are; `--print` with `--check` is a usage error.
#[test]
fn report_print_refuses_what_no_report_has() {
    let root = env!("CARGO_MANIFEST_DIR");
    crate::common::run_input_error(
        &["report", "--root", root, "--print", "verdicts.csv"],
        &["\"verdicts.csv\"", "REPORT/FILE"],
    );
    crate::common::run_input_error(
        &["report", "--root", root, "--print", "scoring/verdicts.csv"],
        &[
            "\"scoring\"",
            "scoring-nim, scoring-octal, candy-nim, nim-with-cash",
        ],
    );
    crate::common::run_input_error(
        &[
            "report",
            "--root",
            root,
            "--print",
            "candy-nim/x.csv",
            "--check",
        ],
        &["--check"],
    );
    // A name no render can write is refused before the report is computed: the message names
    // it and does not list the report's files (which only a render knows).
    for (wanted, file) in [
        ("nim-with-cash/", "\"\""),
        ("nim-with-cash/../verdicts.csv", "\"../verdicts.csv\""),
        ("nim-with-cash/./verdicts.csv", "\"./verdicts.csv\""),
        ("nim-with-cash/tables/", "\"tables/\""),
    ] {
        let stderr = crate::common::run_input_error(
            &["report", "--root", root, "--print", wanted],
            &[&format!("\"{wanted}\""), file, "is not the name of a file"],
        );
        assert!(!stderr.contains("it has:"), "{stderr}");
    }
}

/// Issue 16: a counterexample is stated in the paper's terms when the claim file says how
/// (`point`): a set of moves as a set, distinct and in increasing order, a state as a tuple, a
/// position without its empty heaps; a point form naming no variable of the range is refused.
#[test]
fn a_point_form_states_a_set_valued_counterexample_as_a_set() {
    let file = r#"
paper = "toy"
[[claim]]
id = "sets"
label = "Lemma 6"
statement = "Every set of moves has a sum below $3$."
point = 'A = #set(a, b, c),\ (n; d) = (#n; #d),\ G = #heaps(z, a, c)'
for = "a in 1..2, b in a+1..3, c in b..3, z in 0..0, n in 5..5, d in 3..3"
holds = "a + b < 3"
"#;
    let registry = nimlab::Registry::parse(Path::new("toy.toml"), file).unwrap();
    let finding = nimlab::check_claim(&registry, &registry.claims[0], false).unwrap();
    assert_eq!(finding.verdict, nimlab::VerdictKind::Fails);
    let e = claim_entry(&registry, &finding, "nimlab check data/claims/toy.toml");
    // The first failure is a = 1, b = 2, c = 2: the set {1, 2}, not a list [1, 2, 2].
    let c = e.counterexample.as_ref().unwrap();
    assert_eq!(
        c.point,
        "$A = \\lbrace 1, 2\\rbrace,\\ (n; d) = (5; 3),\\ G = [1, 2]$"
    );
    let mut r = toy_report();
    r.summary.errata = vec![e];
    let md = markdown(&r);
    assert!(md.contains("At $A = \\lbrace 1, 2\\rbrace"), "{md}");
    assert!(!md.contains("a = 1,\\ b = 2"), "{md}");
    let unknown = file.replace("#heaps(z, a, c)", "#heaps(y)");
    let err = nimlab::Registry::parse(Path::new("toy.toml"), &unknown).unwrap_err();
    assert!(err.to_string().contains("`y`"), "{err}");
}

/// Issue 16: a gap in the paper's proof of a statement that holds is an erratum of the proof,
/// listed under the errata with its verdict unchanged.
#[test]
fn a_proof_gap_is_listed_with_the_errata_and_keeps_its_verdict() {
    let mut r = toy_report();
    r.summary.proof_gaps = vec![ProofGap {
        label: "Theorem 2".into(),
        anchor: "claim-thm-2".into(),
        verdict: "HOLDS".into(),
        gap: "Part 1 uses $x \\ge 0$ without proving it.".into(),
    }];
    let (md, tex) = rendered(&r);
    for text in [md, tex] {
        let start = text.find("Errata").unwrap();
        let errata = &text[start..start + text[start..].find("New results").unwrap()];
        assert!(errata.contains("Gaps in the paper's proofs"), "{errata}");
        assert!(
            errata.contains("Theorem 2") && errata.contains("(HOLDS)"),
            "{errata}"
        );
        assert!(errata.contains("without proving it"), "{errata}");
    }
}

/// Issue 16: evidence that is a list is a table, not a run-on sentence: the Appendix (its 16 printed rows) and its wrong
/// entries and §9 Conjecture 2's sets are rows, and no evidence paragraph runs on.
#[test]
fn evidence_lists_are_tables_not_run_on_sentences() {
    const LIMIT: usize = 1000;
    let path = Path::new("data/claims/nim-with-cash.toml");
    let registry = nimlab::Registry::load(path).unwrap();
    for (id, rows) in [
        ("appendix", 16 + 9),
        ("sec9-conj-2", 16),
        ("rem-4-not-cash-periodic", 0),
    ] {
        let claim = registry.claims.iter().find(|c| c.id == id).unwrap();
        let finding = nimlab::check_claim(&registry, claim, false).unwrap();
        let e = claim_entry(&registry, &finding, "nimlab check");
        let evidence = e.evidence.unwrap_or_default();
        assert!(
            evidence.chars().count() <= LIMIT,
            "{id}: an evidence paragraph of {} characters: {evidence}",
            evidence.chars().count()
        );
        assert_eq!(
            e.tables.iter().map(|t| t.rows.len()).sum::<usize>(),
            rows,
            "{id}: {:?}",
            e.tables
        );
    }
}

/// Issue 17 (caching): `nimlab report` reads a registry's verdicts back from `--cache DIR` (a
/// relative DIR is relative to the current directory, not to `--root`) while the registry is
/// unchanged, and `--no-cache` checks afresh. The entry is altered by hand to tell a reading
/// from a check: its count of points shows in the verdicts' CSV.
#[test]
fn report_verdicts_are_read_back_from_the_cache() {
    let here = tempfile::tempdir().unwrap();
    let root = here.path().join("root");
    let claims = root.join("data/claims");
    fs::create_dir_all(&claims).unwrap();
    fs::create_dir_all(root.join("data/studies")).unwrap();
    for name in nimlab::PAPERS {
        let study = format!("data/studies/{name}.toml");
        fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(&study),
            root.join(&study),
        )
        .unwrap();
        fs::write(
            claims.join(format!("{name}.toml")),
            "paper = \"toy\"\n\n[[claim]]\nid = \"a\"\nlabel = \"Lemma 1\"\nstatement = \"sums\"\nfor = \"x in 0..50\"\nholds = \"x + 1 > x\"\n",
        )
        .unwrap();
    }
    let print = |cache: &[&str]| {
        let out = crate::common::nimlab()
            .current_dir(here.path())
            .args([
                "report",
                "--root",
                "root",
                "--print",
                "nim-with-cash/verdicts.csv",
            ])
            .args(cache)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        String::from_utf8(out.stdout).unwrap()
    };
    let cold = print(&["--cache", "cache"]);
    assert!(cold.contains("true at all 51 points"), "{cold}");
    let entries: Vec<_> = fs::read_dir(here.path().join("cache"))
        .expect("the cache is beside root, where nimlab ran")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1);
    assert_eq!(
        print(&["--cache", "cache"]),
        cold,
        "a hit prints the same bytes"
    );
    let mut entry: serde_json::Value =
        serde_json::from_slice(&fs::read(&entries[0]).unwrap()).unwrap();
    entry["value"][0]["points"]["checked"] = 777.into();
    fs::write(&entries[0], serde_json::to_vec(&entry).unwrap()).unwrap();
    assert!(print(&["--cache", "cache"]).contains("true at all 777 points"));
    assert_eq!(print(&["--no-cache"]), cold);
    // Another registry is another entry.
    let registry = claims.join("nim-with-cash.toml");
    let text = fs::read_to_string(&registry).unwrap();
    fs::write(&registry, text.replace("0..50", "0..60")).unwrap();
    assert!(print(&["--cache", "cache"]).contains("true at all 61 points"));
    assert_eq!(fs::read_dir(here.path().join("cache")).unwrap().count(), 2);
    crate::common::run_input_error(
        &["report", "--print", "x/y.csv", "--cache", "c", "--no-cache"],
        &["--no-cache"],
    );
}
