//! `nimlab study run` end to end (issue 17): the starter study's round trip (new → run → run
//! --check), byte-identical re-renders with and without the cache, bad study files refused at
//! their place with nothing written, and prose quoting a computed value that an independent
//! recomputation confirms.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common;
use common::*;

/// Every file under `dir` (relative path → bytes).
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(dir).expect("the report directory exists") {
        let path = entry.expect("a directory entry").path();
        assert!(path.is_file(), "{} is a plain file", path.display());
        let rel = path.strip_prefix(dir).unwrap().to_path_buf();
        out.insert(rel, fs::read(&path).unwrap());
    }
    out
}

/// A study file named `s.toml` with `body` in a fresh directory: (the directory, its path).
fn study_file(body: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("s.toml");
    fs::write(&path, body).expect("the study is written");
    (dir, path.to_str().expect("UTF-8 path").to_string())
}

/// `study run FILE -o OUT --cache CACHE` and any `extra` arguments.
fn run_args<'a>(file: &'a str, out: &'a Path, cache: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "study",
        "run",
        file,
        "-o",
        out.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
    ];
    args.extend(extra);
    args
}

/// The stderr of a successful run with progress lines on.
fn progress_of(args: &[&str]) -> String {
    let out = common::nimlab()
        .env_remove("NIMLAB_PROGRESS")
        .args(args)
        .output()
        .expect("nimlab runs");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {stderr}");
    stderr
}

#[test]
fn the_starter_study_runs_and_checks_clean() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("my-study");
    run_ok_stderr(&["study", "new", name.to_str().unwrap()]);
    let file = format!("{}.toml", name.display());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    let report = out.join("my-study");
    let first = tree(&report);
    for f in [
        "my-study.md",
        "my-study.tex",
        "my-study.json",
        "family.csv",
        "thresholds.csv",
        "tails.csv",
        "tails_plot.svg",
        "tails_plot.csv",
    ] {
        assert!(first.contains_key(Path::new(f)), "{f} is rendered");
    }
    let md = String::from_utf8(first[Path::new("my-study.md")].clone()).unwrap();
    // Findings first: the mined forms and the claims come before the tables and figures.
    let at = |s: &str| md.find(s).unwrap_or_else(|| panic!("{s} in {md}"));
    assert!(at("## Mined closed forms") < at("## Claims"));
    assert!(at("## Claims") < at("## Tables"));
    assert!(at("## Tables") < at("## Figures"));
    assert!(
        md.contains("HOLDS there"),
        "the forms are re-verified: {md}"
    );
    let sha = {
        use std::fmt::Write;
        let digest = <sha2::Sha256 as sha2::Digest>::digest(fs::read(&file).unwrap());
        digest.iter().fold(String::new(), |mut s, b| {
            write!(s, "{b:02x}").unwrap();
            s
        })
    };
    assert!(md.contains(&sha), "the provenance names the file's SHA-256");

    let check = run_ok(&run_args(&file, &out, &cache, &["--check"]));
    assert!(check.contains("match a fresh render"), "{check}");
    assert_eq!(check.lines().count(), 1, "a one-line summary: {check}");

    // A re-render is byte-identical.
    run_ok(&run_args(&file, &out, &cache, &[]));
    assert_eq!(tree(&report), first);

    // An edited file is found by --check (exit 1), and nothing is written.
    fs::write(report.join("my-study.md"), b"edited").unwrap();
    let out_check = common::nimlab()
        .args(run_args(&file, &out, &cache, &["--check"]))
        .output()
        .unwrap();
    assert_eq!(out_check.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out_check.stderr);
    assert!(stderr.contains("differs: my-study.md"), "{stderr}");
    assert_eq!(fs::read(report.join("my-study.md")).unwrap(), b"edited");
}

#[test]
fn a_cache_hit_and_a_prose_edit_render_from_the_cache_with_identical_bytes() {
    let body = "[study]\nname = \"s\"\ntitle = \"t\"\n\n[[table]]\nname = \"f\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = { k = \"1..6\" }\n\n[[value]]\nname = \"top\"\ntable = \"f\"\ncolumn = \"c_plus\"\nwhere = { k = 6 }\n\n[[section]]\ntitle = \"Note\"\ntext = 'The tail is {{ top }}.'\n";
    let (dir, file) = study_file(body);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let args = run_args(&file, &out, &cache, &[]);
    let cold_log = progress_of(&args);
    assert!(cold_log.contains("computed"), "{cold_log}");
    let cold = tree(&out.join("s"));
    let warm_log = progress_of(&args);
    assert!(warm_log.contains("read from the cache"), "{warm_log}");
    assert_eq!(
        tree(&out.join("s")),
        cold,
        "a cache hit gives the same bytes"
    );
    // Without the cache: the same bytes again.
    let fresh = dir.path().join("fresh");
    run_ok(&[
        "study",
        "run",
        &file,
        "-o",
        fresh.to_str().unwrap(),
        "--no-cache",
    ]);
    let mut no_cache = tree(&fresh.join("s"));
    let mut cached = cold.clone();
    // The command recorded names the output directory, which differs here.
    for t in [&mut no_cache, &mut cached] {
        t.retain(|p, _| {
            !matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("md" | "tex" | "json" | "pdf")
            )
        });
    }
    assert_eq!(no_cache, cached);
    // A prose-only edit is rendered from the cache.
    fs::write(&file, body.replace("The tail is", "Its right tail is")).unwrap();
    let edit_log = progress_of(&args);
    assert!(
        edit_log.contains("read from the cache") && !edit_log.contains("computed"),
        "{edit_log}"
    );
    let md = fs::read_to_string(out.join("s").join("s.md")).unwrap();
    assert!(md.contains("Its right tail is $12$."), "{md}");
}

/// G(n) of the scoring subtraction game S = {2, 3} (each move scores the beans taken), by the
/// plain recursion G(n) = max over s ≤ n of s − G(n − s), G = 0 without a move: independent of
/// the engine.
fn naive_subtraction_values(set: &[i64], max: usize) -> Vec<i64> {
    let mut g = vec![0i64; max + 1];
    for n in 1..=max {
        g[n] = set
            .iter()
            .filter(|&&s| s as usize <= n)
            .map(|&s| s - g[n - s as usize])
            .max()
            .unwrap_or(0);
    }
    g
}

#[test]
fn a_quoted_value_is_the_computed_number() {
    let body = "[study]\nname = \"q\"\ntitle = 'Values of $S = \\lbrace 2, 3 \\rbrace$'\n\n[[table]]\nname = \"g\"\nkind = \"octal.values\"\nsubtract = [2, 3]\nmax_heap = 40\n\n[[value]]\nname = \"g37\"\ntable = \"g\"\ncolumn = \"value\"\nwhere = { n = 37 }\n\n[[section]]\ntitle = \"Reading\"\nafter = \"table:g\"\ntext = '''At $n = 37$ the value is {{ g37 }}.'''\n";
    let (dir, file) = study_file(body);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    let expected = naive_subtraction_values(&[2, 3], 40)[37];
    let md = fs::read_to_string(out.join("q").join("q.md")).unwrap();
    assert!(
        md.contains(&format!("At $n = 37$ the value is ${expected}$.")),
        "expected {expected}: {md}"
    );
    // Placed after its table, before the end of the report.
    assert!(md.find("### g").unwrap() < md.find("### Reading").unwrap());
    let tex = fs::read_to_string(out.join("q").join("q.tex")).unwrap();
    assert!(
        tex.contains(&format!("the value is ${expected}$.")),
        "{tex}"
    );
}

#[test]
fn a_bad_figure_column_or_an_unmatched_value_is_refused_at_its_place_and_nothing_written() {
    let head = "[study]\nname = \"s\"\ntitle = \"t\"\n\n[[table]]\nname = \"f\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = { k = \"1..4\" }\n\n";
    for (body, place, needle) in [
        (
            "[[figure]]\nname = \"p\"\ntable = \"f\"\nx = \"k\"\ny = [\"c_pluss\"]\nstyle = \"line\"\n",
            "s.toml:15:6: ",
            "names the column `c_pluss`",
        ),
        (
            "[[value]]\nname = \"v\"\ntable = \"f\"\ncolumn = \"c_plus\"\nwhere = { k = 9 }\n",
            "s.toml:12:8: ",
            "value `v`: no row of `f` has k = 9",
        ),
    ] {
        let (dir, file) = study_file(&format!("{head}{body}"));
        let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
        run_input_error(&run_args(&file, &out, &cache, &[]), &[place, needle]);
        assert!(!out.exists(), "nothing is written for a refused study");
    }
}

#[test]
fn a_family_of_payoffs_gets_its_closed_form_re_verified_by_the_claims_checker() {
    // F_k(N) = 2 − min_j |N − j| over j = −(2k−2), …, 2k−2 step 2: Scoring Nim, Def 6.2.
    let body = "[study]\nname = \"z\"\ntitle = \"t\"\n\n[[table]]\nname = \"f\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = { k = \"1..8\" }\n\n[[mine]]\nname = \"forms\"\ntable = \"f\"\nhow = \"family\"\ncolumns = [\"payoff\"]\n\n[[figure]]\nname = \"p\"\ntable = \"f\"\nx = \"k\"\ny = [\"payoff\"]\nstyle = \"pwl\"\n";
    let (dir, file) = study_file(body);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("z").join("z.json")).unwrap()).unwrap();
    let forms = json["mined"][0]["forms"].as_array().unwrap();
    let payoff = forms
        .iter()
        .find(|f| f["column"] == "payoff")
        .expect("the payoff's form");
    assert_eq!(payoff["status"], "OBSERVED");
    let formula = payoff["formulas"][0].as_str().unwrap();
    assert!(formula.contains(r"2 - \min_{j \in"), "{formula}");
    let verified = payoff["verified"].as_str().unwrap();
    assert!(verified.contains("HOLDS"), "{verified}");
    // The pwl figure: six of the eight functions, with their breakpoints (4k − 3 of them for
    // the member k, Scoring Nim Def 6.2) marked.
    let report = out.join("z");
    assert!(report.join("p.svg").is_file());
    let marks = fs::read_to_string(report.join("p-breakpoints.csv")).unwrap();
    let tex = fs::read_to_string(report.join("z.tex")).unwrap();
    let drawn: Vec<i64> = (1..=8)
        .filter(|k| tex.contains(&format!("$k = {k}$")))
        .collect();
    assert_eq!(drawn.len(), 6, "{tex}");
    let expected: i64 = drawn.iter().map(|k| 4 * k - 3).sum();
    assert_eq!(marks.lines().count() as i64 - 1, expected, "{marks}");
}

#[test]
fn payoffs_over_a_grid_of_two_parameters_get_one_closed_form_re_verified_beyond_the_data() {
    // f_N(y + 1 + t, y): adding a stone to the larger pile adds one to the payoff (the mover
    // takes it first), and y does not change it (Scoring Nim, Prop 4.2 (ii)).
    let body = "[study]\nname = \"g\"\ntitle = \"t\"\n\n[[table]]\nname = \"pairs\"\nkind = \"scoring.family\"\nfamily = \"y+1+t,y\"\nranges = { y = \"2..6\", t = \"0..3\" }\n\n[[mine]]\nname = \"form\"\ntable = \"pairs\"\nhow = \"pwl\"\ncolumns = [\"payoff\"]\n";
    let (dir, file) = study_file(body);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    let report = out.join("g");
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(report.join("g.json")).unwrap()).unwrap();
    let form = &json["mined"][0]["forms"][0];
    assert_eq!(form["status"], "OBSERVED", "{form}");
    let formula = form["formulas"][0].as_str().unwrap();
    assert!(formula.ends_with("+ t$"), "{formula}");
    let verified = form["verified"].as_str().unwrap();
    assert!(
        verified.contains("t in 0..5, y in 2..8") && verified.contains("HOLDS"),
        "{verified}"
    );
    let csv = fs::read_to_string(report.join("form.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "parameter,role,step,from,formula,status");
    assert!(rows[1].starts_with("t,linear,1,0,"), "{csv}");
    assert!(rows[2].starts_with("y,linear,0,2,"), "{csv}");
}

#[test]
fn pwl_mining_of_a_table_without_payoff_functions_is_refused_at_the_step() {
    let body = "[study]\nname = \"s\"\ntitle = \"t\"\n\n[[table]]\nname = \"g\"\nkind = \"octal.values\"\nsubtract = [2, 3]\nmax_heap = 20\n\n[[mine]]\nname = \"m\"\ntable = \"g\"\nhow = \"pwl\"\ncolumns = [\"value\"]\n";
    let (dir, file) = study_file(body);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_input_error(
        &run_args(&file, &out, &cache, &[]),
        &[
            "s.toml:12:8: ",
            "mines the payoffs of a `scoring.family` table without a grid; `g` is not one",
        ],
    );
    assert!(!out.exists(), "nothing is written for a refused study");
}

#[test]
fn a_heatmap_colours_every_grid_point_once_and_refuses_two_values_at_one_point() {
    let head = "[study]\nname = \"h\"\ntitle = \"t\"\n\n[[table]]\nname = \"zz\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = { k = \"1..4\" }\ngrid = \"-3..3 step 1/2\"\n\n[[figure]]\nname = \"map\"\ntable = \"zz\"\nstyle = \"heatmap\"\nz = \"payoff\"\n";
    let (dir, file) = study_file(&format!("{head}x = \"bonus\"\ny = [\"k\"]\n"));
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    let report = out.join("h");
    assert!(report.join("map.svg").is_file());
    // Scan lines: k outer, N inner, one row per grid point (13 bonus values × 4 members).
    let csv = fs::read_to_string(report.join("map.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "bonus,k,payoff");
    assert_eq!(rows.len(), 1 + 13 * 4, "{csv}");
    assert!(
        rows[1].starts_with("-3,1,") && rows[14].starts_with("-3,2,"),
        "{csv}"
    );
    // The colour scale starts at the least payoff of the data.
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(report.join("h.json")).unwrap()).unwrap();
    let heatmap = &json["figures"][0]["heatmap"];
    let payoffs: Vec<f64> = rows[1..]
        .iter()
        .map(|r| r.rsplit(',').next().unwrap().parse().unwrap())
        .collect();
    let least = payoffs.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(
        heatmap["min"].as_str().unwrap().parse::<f64>().unwrap(),
        least
    );
    assert_eq!(heatmap["cols"], 13);
    let tex = fs::read_to_string(report.join("h.tex")).unwrap();
    assert!(tex.contains("matrix plot*, mesh/cols=13"), "{tex}");

    // h3 is 1 in every row: every bonus value has four rows at one grid point.
    let (dir, file) = study_file(&format!("{head}x = \"bonus\"\ny = [\"h3\"]\n"));
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_input_error(
        &run_args(&file, &out, &cache, &[]),
        &["s.toml:13:8: ", "two rows at bonus = -3, h3 = 1"],
    );
    assert!(!out.exists(), "nothing is written for a refused study");
}

#[test]
fn a_study_renders_through_its_own_templates_and_names_them_in_provenance() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("short.md.tera"),
        "# {{ study.title }}\n{% for m in study.mined %}{% for f in m.forms %}{{ f.column }}: {{ f.status }}\n{% endfor %}{% endfor %}",
    )
    .unwrap();
    fs::write(
        dir.path().join("short.tex.tera"),
        "\\documentclass{article}\n\\begin{document}\n\\section*{<< study.title >>}\n<% for p in study.provenance.parameters %><< p.name | tex >>;<% endfor %>\n\\end{document}\n",
    )
    .unwrap();
    let body = "[study]\nname = \"own\"\ntitle = \"Tails\"\ntemplates = { md = \"short.md.tera\", tex = \"short.tex.tera\" }\n\n[[table]]\nname = \"f\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = { k = \"1..6\" }\n\n[[mine]]\nname = \"m\"\ntable = \"f\"\nhow = \"family\"\ncolumns = [\"c_plus\"]\n";
    let file = dir.path().join("s.toml");
    fs::write(&file, body).unwrap();
    let file = file.to_str().unwrap();
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(file, &out, &cache, &[]));
    let md = fs::read_to_string(out.join("own").join("own.md")).unwrap();
    assert_eq!(md, "# Tails\nc_plus: OBSERVED\n");
    let tex = fs::read_to_string(out.join("own").join("own.tex")).unwrap();
    assert!(
        tex.contains("Markdown template;Markdown template SHA-256;LaTeX template;"),
        "{tex}"
    );
    // The same study re-rendered through the same templates: identical bytes.
    run_ok(&run_args(file, &out, &cache, &["--check"]));

    // A template that does not compile is refused at its key, before anything is computed.
    fs::write(
        dir.path().join("short.md.tera"),
        "{% for x in study.mined %}\n",
    )
    .unwrap();
    let out2 = dir.path().join("out2");
    run_input_error(
        &run_args(file, &out2, &cache, &[]),
        &[
            "s.toml:4:20: ",
            "template",
            "short.md.tera does not compile",
        ],
    );
    assert!(!out2.exists(), "nothing is written for a refused study");
}

#[test]
fn across_mining_gives_forms_in_the_parameter_that_the_thresholds_bear_out() {
    let body = "[study]\nname = \"a\"\ntitle = \"t\"\n\n[[table]]\nname = \"one_l\"\nkind = \"cash.across\"\nfamily = \"1,L\"\nranges = { L = \"4..24\" }\nstep = 2\n\n[[mine]]\nname = \"across_l\"\ntable = \"one_l\"\nhow = \"across\"\ncolumns = [\"c_winner\", \"c_other\"]\n";
    let (dir, file) = study_file(body);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    let report = out.join("a");
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(report.join("a.json")).unwrap()).unwrap();
    let forms = json["mined"][0]["forms"].as_array().unwrap();
    let formulas = |q: &str| -> Vec<String> {
        let f = forms.iter().find(|f| f["column"] == q).expect(q);
        assert_eq!(f["status"], "OBSERVED", "{f}");
        f["formulas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(formulas("period"), ["$P(L) = L + 1$"]);
    assert_eq!(formulas("slope"), ["$B(L) = L$"]);
    assert_eq!(
        formulas("c_winner")[1..],
        [
            r"$c_{i} = \lceil i/2 \rceil$ for $0 \le i < P - 1$",
            r"$c_{P - 1} = L$"
        ]
    );
    assert_eq!(
        formulas("c_other")[1..],
        [
            r"$c_{i} = \lfloor i/2 \rfloor - \frac{L}{2} + 1$ for $0 \le i < P - 1$",
            r"$c_{P - 1} = \frac{L}{2}$"
        ]
    );
    assert!(formulas("c_winner")[0].contains(r"$L \ge 10$"));
    // The forms read off, against the thresholds of Def 2.1 themselves: the winner's f_A and
    // the other player's f_A^⊥ on n = (L + 1)k + i, for every even L from 10 to 24, past the
    // start n ≥ L the forms print, over ten periods.
    for l in (10..=24u64).step_by(2) {
        let a: nimlab::cash::CashSet = format!("1,{l}").parse().unwrap();
        let p = l + 1;
        let th = nimlab::cash::thresholds(&a, 12 * p).unwrap();
        for n in l..=12 * p {
            let (k, i) = ((n / p) as i64, n % p);
            let (l, i) = (l as i64, i as i64);
            let (winner, other) = if i == l {
                (l * k + l, l * k + l / 2)
            } else {
                (l * k + (i + 1) / 2, l * k + i / 2 - l / 2 + 1)
            };
            let n = n as usize;
            let (f_a, f_other) = match th.winner[n] {
                nimlab::cash::Winner::I => (th.f1[n], th.f2[n]),
                nimlab::cash::Winner::II => (th.f2[n], th.f1[n]),
            };
            assert_eq!(
                (f_a as i64, f_other as i64),
                (winner, other),
                "A = {{1, {l}}}, n = {n}"
            );
        }
    }
    let csv = fs::read_to_string(report.join("across_l.csv")).unwrap();
    assert!(
        csv.starts_with("quantity,status,formula\nperiod,OBSERVED,period(L) = L+1\n"),
        "{csv}"
    );
}

#[test]
fn across_mining_of_a_table_without_certified_forms_is_refused_before_any_work() {
    let body = "[study]\nname = \"s\"\ntitle = \"t\"\n\n[[table]]\nname = \"g\"\nkind = \"octal.values\"\nsubtract = [2, 3]\nmax_heap = 20\n\n[[mine]]\nname = \"m\"\ntable = \"g\"\nhow = \"across\"\ncolumns = [\"value\"]\n";
    let (dir, file) = study_file(body);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_input_error(
        &run_args(&file, &out, &cache, &[]),
        &[
            "s.toml:14:7: ",
            "`how = \"across\"` reads members with certified forms",
            "`g` has no `period`",
        ],
    );
    assert!(!out.exists(), "nothing is written for a refused study");
}

/// A paper's report declared as a study: its identity, its claim file and its builtin parts.
const PAPER_STUDY: &str = r#"[study]
name = "p"
title = "A paper"

[paper]
key = "author2020things"
authors = ["A. Author"]
title = "On Things"
year = "2020"
copy = "the preprint of 2020"
cited = "Author, On things"
claims = "claims/p.toml"
builtins = ["scoring-nim.largest-breakpoints"]
"#;

/// Its claims: one true, one false.
const PAPER_CLAIMS: &str = r#"paper = "p"

[[claim]]
id = "squares"
label = "Lemma 1"
statement = "$k^2 \\ge k$ for $k \\ge 0$"
for = "k in 0..20"
holds = "k*k >= k"

[[claim]]
id = "doubles"
label = "Lemma 2"
statement = "$2k > k$ for $k \\ge 0$"
for = "k in 0..20"
holds = "2*k > k"
"#;

/// Issue 17, item 3: a paper study renders through the paper templates, as `nimlab report`
/// renders the four papers — its claims checked (the false one an erratum with its
/// counterexample), its builtin's figure, the paper's identity in provenance — and the same
/// bytes as the library's paper report rendered with the same command and commit.
#[test]
fn a_paper_study_renders_as_a_paper_report() {
    let (dir, file) = study_file(PAPER_STUDY);
    fs::create_dir_all(dir.path().join("claims")).unwrap();
    fs::write(dir.path().join("claims/p.toml"), PAPER_CLAIMS).unwrap();
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let args = run_args(&file, &out, &cache, &[]);
    run_ok(&args);
    let report = out.join("p");
    let files = tree(&report);
    for f in ["p.md", "p.tex", "p.json", "verdicts.csv"] {
        assert!(files.contains_key(Path::new(f)), "{f} is rendered");
    }
    assert!(
        files
            .keys()
            .any(|f| f.extension().is_some_and(|e| e == "svg")),
        "the builtin's figure is drawn"
    );
    let md = String::from_utf8(files[Path::new("p.md")].clone()).unwrap();
    assert!(
        md.contains("*Author, On things*"),
        "cited as the study says"
    );
    let errata = &md[md.find("Lemma 2").expect("the false lemma is listed")..];
    assert!(
        errata.contains("FAILS") && errata.contains("k = 0"),
        "{errata}"
    );
    assert!(md.contains("Lemma 1") && md.contains("HOLDS"));
    let json: serde_json::Value = serde_json::from_slice(&files[Path::new("p.json")]).unwrap();
    assert_eq!(json["provenance"]["paper"]["key"], "author2020things");
    assert_eq!(
        json["provenance"]["paper"]["arxiv"],
        serde_json::Value::Null
    );

    // The library's paper report, with the command and commit the run recorded: the same bytes.
    let study = nimlab::study::load(Path::new(&file)).unwrap();
    let commit: Option<nimlab::reports::Commit> =
        serde_json::from_value(json["provenance"]["commit"].clone()).unwrap();
    let opts = nimlab::ReportOptions {
        command: Some(json["provenance"]["command"].as_str().unwrap().to_string()),
        commit,
        ..nimlab::ReportOptions::default()
    };
    let paper = nimlab::reports::paper_report(&study, &opts, &nimlab::Silent).unwrap();
    let renderer = nimlab::reports::Renderer::new().unwrap();
    let rendered = nimlab::reports::render_paper(&renderer, paper, &nimlab::Silent).unwrap();
    for (name, bytes) in rendered.iter() {
        assert_eq!(
            files.get(Path::new(name)),
            Some(&bytes.to_vec()),
            "{name} as the library renders it"
        );
    }
    // And a check of the installed report is clean.
    run_ok(&run_args(&file, &out, &cache, &["--check"]));
}

/// Bad `[paper]` tables are refused at their place before anything is computed or written: an
/// unknown builtin (the known ones listed), one listed twice, a missing claim file, and
/// declared parts beside `[paper]`.
#[test]
fn a_bad_paper_study_is_refused_at_its_place() {
    for (edit, place, needle) in [
        (
            (
                "\"scoring-nim.largest-breakpoints\"]",
                "\"scoring-nim.tails\"]",
            ),
            "s.toml:13:13: ",
            "unknown builtin `scoring-nim.tails`; the builtins are scoring-nim.figures",
        ),
        (
            (
                "\"scoring-nim.largest-breakpoints\"]",
                "\"scoring-nim.largest-breakpoints\", \"scoring-nim.largest-breakpoints\"]",
            ),
            "s.toml:13:48: ",
            "the builtin `scoring-nim.largest-breakpoints` is listed twice",
        ),
        (
            ("claims/p.toml", "claims/q.toml"),
            "s.toml:12:10: ",
            "claim file",
        ),
        (
            (
                "[paper]",
                "[[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\nholds = \"1 = 1\"\n\n[paper]",
            ),
            "s.toml:11:1: ",
            "[[claim]] is not allowed beside [paper]",
        ),
        (
            (
                "builtins = [\"scoring-nim.largest-breakpoints\"]",
                "builtins = []\n\n[[table]]\nname = \"fam\"\nkind = \"candy.family\"\nfamily = \"1,2m,2m+1\"\nranges = { m = \"1..6\" }\n\n[[bfile]]\nfile = \"b-v.txt\"\ntable = \"fam\"\nindex = \"m\"\ncolumn = \"value\"\nsequence = \"V\"",
            ),
            "s.toml:25:10: ",
            "names the column `value`, which the table `fam` does not have",
        ),
    ] {
        let (dir, file) = study_file(&PAPER_STUDY.replace(edit.0, edit.1));
        fs::create_dir_all(dir.path().join("claims")).unwrap();
        fs::write(dir.path().join("claims/p.toml"), PAPER_CLAIMS).unwrap();
        let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
        run_input_error(&run_args(&file, &out, &cache, &[]), &[place, needle]);
        assert!(!out.exists(), "nothing is written for a refused study");
    }
}

/// A paper study with declared parts beside its builtins (issue 17, item 3): a table with its
/// own title, caption and headings, a mining step with a title, a b-file and prose after the
/// findings and after the table — placed as the paper templates place them, the b-file the
/// table's column, and `--print` giving the installed bytes of a declared table.
#[test]
fn a_paper_study_declares_tables_mining_bfiles_and_prose() {
    let declared = PAPER_STUDY.replace(
        "builtins = [\"scoring-nim.largest-breakpoints\"]",
        r#"builtins = []

[[table]]
name = "fam"
kind = "candy.family"
family = "1,2m,2m+1"
ranges = { m = "1..6" }
title = "The family $[1, 2m, 2m+1]$"
caption = "Values along the family."
headers = ["$m$", "$h_1$", "$h_2$", "$h_3$", "$V$", "$N_L$", "$N_W$"]

[[mine]]
name = "fam_forms"
title = "Closed forms along $[1, 2m, 2m+1]$"
table = "fam"
how = "family"
columns = ["n_w"]

[[bfile]]
file = "b-fam-v.txt"
table = "fam"
index = "m"
column = "v"
sequence = "$V([1, 2m, 2m+1])$"

[[section]]
title = "What the forms say"
after = "findings"
text = "Mined: {{ fam_forms }}."

[[section]]
title = "About the table"
after = "table:fam"
text = "Read the table row by row."
"#,
    );
    let (dir, file) = study_file(&declared);
    fs::create_dir_all(dir.path().join("claims")).unwrap();
    fs::write(dir.path().join("claims/p.toml"), PAPER_CLAIMS).unwrap();
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    let files = tree(&out.join("p"));
    let md = String::from_utf8(files[Path::new("p.md")].clone()).unwrap();
    let at = |needle: &str| {
        md.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} is in the report:\n{md}"))
    };
    // Findings first: the mined forms and the prose after them, before all the claims.
    assert!(at("## New results") < at("## Mined closed forms"));
    assert!(at("### Closed forms along $[1, 2m, 2m+1]$") < at("### What the forms say"));
    assert!(at("### What the forms say") < at("## All claims"));
    assert!(md.contains("Mined: $n_{w}(m) = "), "the quote is filled in");
    // The table as declared, the prose after it, then the b-files' list.
    assert!(at("## Tables") < at("### The family $[1, 2m, 2m+1]$"));
    assert!(md.contains("Values along the family. `candy.family`: "));
    assert!(md.contains("| $m$ | $h_1$ | $h_2$ | $h_3$ | $V$ | $N_L$ | $N_W$ |"));
    assert!(at("### The family $[1, 2m, 2m+1]$") < at("### About the table"));
    assert!(at("### About the table") < at("### Sequences as b-files"));
    // The b-file is the table's column v, indexed by m.
    let csv = String::from_utf8(files[Path::new("fam.csv")].clone()).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let (m, v) = (
        header.iter().position(|c| *c == "m").unwrap(),
        header.iter().position(|c| *c == "v").unwrap(),
    );
    let expected: String = lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            format!("{} {}\n", cells[m], cells[v])
        })
        .collect();
    assert_eq!(expected.lines().count(), 6);
    assert_eq!(
        String::from_utf8(files[Path::new("b-fam-v.txt")].clone()).unwrap(),
        expected
    );
    // `--print` gives the installed bytes, writing nothing.
    let printed = common::nimlab()
        .args(run_args(&file, &out, &cache, &["--print", "p/fam.csv"]))
        .output()
        .unwrap();
    assert!(printed.status.success());
    assert_eq!(printed.stdout, files[Path::new("fam.csv")]);
    run_input_error(
        &run_args(&file, &out, &cache, &["--print", "q/fam.csv"]),
        &["--print \"q/fam.csv\" is not p/FILE"],
    );
    run_ok(&run_args(&file, &out, &cache, &["--check"]));
}

/// The four papers' reports are paper studies in `data/studies/`, which `nimlab report` renders.
#[test]
fn the_four_papers_are_paper_studies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in nimlab::PAPERS {
        let study = nimlab::study::load(&root.join(format!("data/studies/{name}.toml"))).unwrap();
        assert_eq!(study.meta.name, name);
        let paper = study.paper.expect("a [paper] table");
        assert!(paper.claims.ends_with(format!("data/claims/{name}.toml")));
        assert!(!paper.builtins.is_empty() || !study.tables.is_empty());
    }
    assert_eq!(
        nimlab::paper_reports(&root.join("data/studies"))
            .unwrap()
            .len(),
        4
    );
}

/// One pile of Scoring Nim, its payoff in closed form (`nimlab prove` proves it by induction).
const ONE_PILE_FORMS: &str = "game = \"scoring-nim\"\ntitle = \"One pile\"\npiles = [\"a\"]\nclosure = \"true\"\n\n[[class]]\nid = \"empty\"\nname = \"empty\"\nposition = \"[0]\"\nform = \"-N\"\n\n[[class]]\nid = \"one\"\nname = \"one\"\nposition = \"[1]\"\nform = \"1 + N\"\n\n[[class]]\nid = \"x\"\nname = \"x\"\nposition = \"[x]\"\nwhere = \"x >= 2\"\nform = \"x - 1 + abs(1 + N)\"\n";

/// A study with a table, prose and two inline claims: one proven with `one.toml`
/// ([`ONE_PILE_FORMS`]), one checked on `x in 0..20` (21 points).
const CLAIMS_STUDY: &str = "[study]\nname = \"s\"\ntitle = \"t\"\n\n[[table]]\nname = \"f\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = { k = \"1..3\" }\n\n[[section]]\ntitle = \"Note\"\ntext = 'Short.'\n\n[[claim]]\nid = \"one-pile\"\nlabel = \"eq. (1)\"\nstatement = \"one pile\"\nfor = \"x in 2..12, N in -3..3\"\nholds = \"payoff(N, [x]) == x - 1 + abs(1 + N)\"\nproof = { forms = \"one.toml\", over = \"x >= 2\", reals = [\"N\"] }\n\n[[claim]]\nid = \"sum\"\nlabel = \"Lemma 1\"\nstatement = \"sums\"\nfor = \"x in 0..20\"\nholds = \"x + 1 > x\"\n";

/// [`CLAIMS_STUDY`] beside its forms file, rendered once into `out` with the cache `cache`.
fn claims_study() -> (tempfile::TempDir, String, PathBuf, PathBuf) {
    let (dir, file) = study_file(CLAIMS_STUDY);
    fs::write(dir.path().join("one.toml"), ONE_PILE_FORMS).unwrap();
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    run_ok(&run_args(&file, &out, &cache, &[]));
    (dir, file, out, cache)
}

/// The cache's entries of claim verdicts (those whose key material names `verdicts`), and
/// how many entries it has in all.
fn verdict_entries(cache: &Path) -> (Vec<PathBuf>, usize) {
    let all: Vec<PathBuf> = fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let verdicts = all
        .iter()
        .filter(|p| {
            serde_json::from_slice::<serde_json::Value>(&fs::read(p).unwrap())
                .is_ok_and(|v| v.pointer("/inputs/verdicts").is_some())
        })
        .cloned()
        .collect();
    (verdicts, all.len())
}

/// The verdicts of the rendered study `s`, by claim id.
fn verdicts_of(out: &Path) -> Vec<(String, String)> {
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("s").join("s.json")).unwrap()).unwrap();
    json["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Issue 17 (caching): a prose-only edit renders the claims from the cache. The entry is
/// altered by hand to tell a reading from a check: its count of points shows in the report.
#[test]
fn a_prose_edit_renders_the_claims_from_the_cache() {
    let (_dir, file, out, cache) = claims_study();
    let (verdicts, count) = verdict_entries(&cache);
    assert_eq!((verdicts.len(), count), (1, 2), "a table and the verdicts");
    let md = fs::read_to_string(out.join("s").join("s.md")).unwrap();
    assert!(md.contains("21 points checked"), "{md}");
    let mut entry: serde_json::Value =
        serde_json::from_slice(&fs::read(&verdicts[0]).unwrap()).unwrap();
    assert_eq!(entry["value"][1]["points"]["checked"], 21);
    entry["value"][1]["points"]["checked"] = 777.into();
    fs::write(&verdicts[0], serde_json::to_vec(&entry).unwrap()).unwrap();

    fs::write(&file, CLAIMS_STUDY.replace("Short.", "A longer note.")).unwrap();
    run_ok(&run_args(&file, &out, &cache, &[]));
    let md = fs::read_to_string(out.join("s").join("s.md")).unwrap();
    assert!(md.contains("A longer note."), "{md}");
    assert!(
        md.contains("777 points checked"),
        "read from the cache: {md}"
    );
    assert_eq!(verdict_entries(&cache).1, 2, "no new entry");

    // Editing a claim checks the claims again.
    fs::write(&file, CLAIMS_STUDY.replace("x in 0..20", "x in 0..30")).unwrap();
    run_ok(&run_args(&file, &out, &cache, &[]));
    let md = fs::read_to_string(out.join("s").join("s.md")).unwrap();
    assert!(md.contains("31 points checked"), "{md}");
    assert_eq!(verdict_entries(&cache).1, 3, "a new entry");
}

/// A verdict entry that is not JSON, or was written for other inputs, is checked again and
/// replaced; the report is byte for byte the one rendered first.
#[test]
fn a_corrupt_verdict_entry_is_checked_again_with_the_same_bytes() {
    let (_dir, file, out, cache) = claims_study();
    let cold = tree(&out.join("s"));
    let entry = verdict_entries(&cache).0.remove(0);
    let good = fs::read(&entry).unwrap();
    let mut other: serde_json::Value = serde_json::from_slice(&good).unwrap();
    other["inputs"]["verdicts"]["deep"] = true.into();
    for junk in [b"{ not json".to_vec(), serde_json::to_vec(&other).unwrap()] {
        fs::write(&entry, &junk).unwrap();
        run_ok(&run_args(&file, &out, &cache, &[]));
        assert_eq!(tree(&out.join("s")), cold);
        assert_eq!(fs::read(&entry).unwrap(), good, "the entry was replaced");
    }
}

/// Editing the forms file a claim's proof reads checks the claims again: a wrong form is
/// refuted and the claim keeps the verdict of its finite check (not kept in the cache: a solver
/// out of time looks the same); the original form is proven again, from the cache.
#[test]
fn editing_a_forms_file_checks_the_claims_again() {
    let (dir, file, out, cache) = claims_study();
    let proven = vec![
        ("one-pile".to_string(), "PROVEN".to_string()),
        ("sum".to_string(), "HOLDS".to_string()),
    ];
    assert_eq!(verdicts_of(&out), proven);
    let forms = dir.path().join("one.toml");
    fs::write(
        &forms,
        ONE_PILE_FORMS.replace("x - 1 + abs(1 + N)", "x + N"),
    )
    .unwrap();
    for _ in 0..2 {
        run_ok(&run_args(&file, &out, &cache, &[]));
        assert_eq!(verdicts_of(&out)[0].1, "HOLDS");
        assert_eq!(verdict_entries(&cache).1, 2, "not kept");
    }
    fs::write(&forms, ONE_PILE_FORMS).unwrap();
    run_ok(&run_args(&file, &out, &cache, &[]));
    assert_eq!(verdicts_of(&out), proven);
    assert_eq!(verdict_entries(&cache).1, 2);
}
