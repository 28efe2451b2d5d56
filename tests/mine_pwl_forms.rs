//! The PWL closed-form miner on payoffs computed by the Scoring Nim engine: Theorem 6.3 (i)–(iii),
//! Prop 4.2 and Prop 6.1 rediscovered from data alone, each form then checked against the
//! engine on members beyond the data by evaluating the mined expression with the claims checker.

use nimlab::Pwl;
use nimlab::Q;
use nimlab::mining::{GridForm, PwlKind, grid_form};
use nimlab::scoring::{Method, nim_heaps, scoring_nim, solve};

/// Payoffs of every member of a family over a rectangular grid of parameters; one solve of the
/// componentwise largest position serves all (Nim never splits heaps).
fn grid(
    params: &[&str],
    ranges: &[(i64, i64)],
    heaps: impl Fn(&[i64]) -> Vec<u32>,
) -> Vec<(Vec<i64>, Pwl)> {
    let mut members: Vec<Vec<i64>> = vec![vec![]];
    for &(lo, hi) in ranges {
        members = members
            .into_iter()
            .flat_map(|m| (lo..=hi).map(move |v| [m.clone(), vec![v]].concat()))
            .collect();
    }
    assert_eq!(params.len(), ranges.len());
    let width = heaps(&members[0]).len();
    let mut hull = vec![0u32; width];
    for m in &members {
        let mut h = heaps(m);
        h.sort_unstable_by(|a, b| b.cmp(a));
        for (x, v) in hull.iter_mut().zip(h) {
            *x = (*x).max(v);
        }
    }
    let sol = solve(
        &scoring_nim(),
        &nim_heaps(&hull),
        Method::Auto,
        &Default::default(),
    )
    .unwrap();
    members
        .into_iter()
        .map(|m| {
            let f = sol.payoff(&nim_heaps(&heaps(&m))).unwrap();
            (m, f)
        })
        .collect()
}

fn names(params: &[&str]) -> Vec<String> {
    params.iter().map(|p| p.to_string()).collect()
}

/// Evaluates the mined expression with the claims checker against `payoff(N, [heaps])` on the
/// given ranges (beyond the data) and every half-integer N in `n_range`.
fn holds_beyond(form: &GridForm, family: &str, ranges: &str, n_range: &str) -> String {
    let toml = format!(
        "paper = \"t\"\n[[claim]]\nid = \"c\"\nlabel = \"c\"\nstatement = \"\"\n\
         for = \"{ranges}, N in {n_range} step 1/2\"\n\
         actual = \"payoff(N, [{family}])\"\nexpected = \"{}\"\n",
        form.expr("N")
    );
    let reg = nimlab::Registry::parse(std::path::Path::new("(mined)"), &toml).unwrap();
    let v = nimlab::check_registry(&reg, false, &[], &nimlab::Silent).unwrap();
    format!("{} {}", v[0].verdict, v[0].evidence())
}

#[test]
fn theorem_6_3_i_is_a_zigzag_family() {
    let g = grid(&["k"], &[(1, 8)], |m| {
        vec![2 * m[0] as u32 + 1, 2 * m[0] as u32, 1]
    });
    let form = grid_form(&names(&["k"]), &g).unwrap();
    let (_, fam) = form.shaped.as_ref().unwrap();
    assert_eq!(fam.kind, PwlKind::Zigzag);
    assert_eq!(
        form.expr("N"),
        "2 - min(j in -2k+2..2k-2 step 2: abs(N - j))"
    );
    let v = holds_beyond(&form, "2k+1, 2k, 1", "k in 2..11", "-2k-2..2k+2");
    assert!(v.starts_with("HOLDS"), "{v}");
}

#[test]
fn theorem_6_3_ii_and_iii_are_rediscovered_in_two_parameters() {
    // (ii) x = 2k + 2 + t: max{F_k(N), |N| − 2k} + x − 2k − 1 = max{F_k + 1, |N| − 2k + 1} + t.
    let g = grid(&["k", "t"], &[(1, 7), (0, 3)], |m| {
        let (k, t) = (m[0] as u32, m[1] as u32);
        vec![2 * k + 2 + t, 2 * k, 1]
    });
    let form = grid_form(&names(&["k", "t"]), &g).unwrap();
    assert_eq!(
        (form.linear[0].name.as_str(), form.linear[0].step.clone()),
        ("t", Q::int(1))
    );
    assert_eq!(form.shaped.as_ref().unwrap().1.kind, PwlKind::TailedZigzag);
    assert_eq!(
        form.expr("N"),
        "max(3 - min(j in -2k+2..2k-2 step 2: abs(N - j)), abs(N) - (2k-1)) + t"
    );
    let v = holds_beyond(
        &form,
        "2k+2+t, 2k, 1",
        "k in 2..9, t in 0..5",
        "-2k-3..2k+3",
    );
    assert!(v.starts_with("HOLDS"), "{v}");
    // (iii) x = 2k + 2 + t: max{F_k(N), |N| − (2k − 2)} + x − 2k − 2 = max{F_k, |N| − 2k + 2} + t.
    let g = grid(&["k", "t"], &[(1, 7), (0, 3)], |m| {
        let (k, t) = (m[0] as u32, m[1] as u32);
        vec![2 * k + 2 + t, 2 * k + 1, 1]
    });
    let form = grid_form(&names(&["k", "t"]), &g).unwrap();
    assert_eq!(
        form.expr("N"),
        "max(2 - min(j in -2k+2..2k-2 step 2: abs(N - j)), abs(N) - (2k-2)) + t"
    );
    let v = holds_beyond(
        &form,
        "2k+2+t, 2k+1, 1",
        "k in 2..9, t in 0..5",
        "-2k-3..2k+3",
    );
    assert!(v.starts_with("HOLDS"), "{v}");
}

#[test]
fn prop_4_2_and_prop_6_1_are_rediscovered() {
    // Prop 4.2 (ii): f_N(x, y) = x − y + |1 − |1 + N|| for x > y ≥ 2; x = y + 1 + t.
    let g = grid(&["y", "t"], &[(2, 7), (0, 4)], |m| {
        let (y, t) = (m[0] as u32, m[1] as u32);
        vec![y + 1 + t, y]
    });
    let form = grid_form(&names(&["y", "t"]), &g).unwrap();
    assert!(form.shaped.is_none());
    assert_eq!(form.expr("N"), "max(2 - abs(N + 1), abs(N + 1)) + t");
    let v = holds_beyond(&form, "y+1+t, y", "y in 2..10, t in 0..6", "-5..3");
    assert!(v.starts_with("HOLDS"), "{v}");
    // Prop 4.2 (i): f_N(x, x) = 1 − |1 + N| for x ≥ 2.
    let g = grid(&["x"], &[(2, 9)], |m| vec![m[0] as u32, m[0] as u32]);
    let form = grid_form(&names(&["x"]), &g).unwrap();
    assert_eq!(form.expr("N"), "1 - abs(N + 1)");
    // Prop 6.1: f_N(x, x, z) = z − 1 + |1 + N| (x > z ≥ 1).
    let g = grid(&["z", "t"], &[(1, 5), (1, 4)], |m| {
        let (z, t) = (m[0] as u32, m[1] as u32);
        vec![z + t, z + t, z]
    });
    let form = grid_form(&names(&["z", "t"]), &g).unwrap();
    assert_eq!(form.expr("N"), "abs(N + 1) + z-1");
    let v = holds_beyond(&form, "z+t, z+t, z", "z in 1..8, t in 1..6", "-6..4");
    assert!(v.starts_with("HOLDS"), "{v}");
}

/// The same through `nimlab mine family scoring` with two parameters: the form, the linear
/// parameter, and the claims checker's verdict beyond the data.
#[test]
fn mine_family_scoring_over_two_parameters() {
    let out = assert_cmd::Command::cargo_bin("nimlab")
        .unwrap()
        .args([
            "mine",
            "family",
            "scoring",
            "2k+2+t,2k+1,1",
            "--k",
            "1..6",
            "--param",
            "t=0..2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "payoff: linear in t (it adds 1 per unit of t, at every grid point)",
        "zigzag with upturned tails",
        "f(N) = max(2 - min(j in -2k+2..2k-2 step 2: abs(N - j)), abs(N) - (2k-2)) + t",
        "(beyond the data): HOLDS",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // Two bent parameters: a clear error naming them, exit code 2.
    let out = assert_cmd::Command::cargo_bin("nimlab")
        .unwrap()
        .args([
            "mine",
            "family",
            "scoring",
            "2k+1,2m,1",
            "--k",
            "1..4",
            "--m",
            "1..4",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("over (k, m) have no closed form"), "{err}");
}
