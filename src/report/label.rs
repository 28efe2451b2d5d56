//! Figure labels with TeX mathematics, typeset for SVG. Labels arrive with mathematics in `$…$`
//! spans (the house convention, which pgfplots typesets for the PDF). SVG text cannot run TeX,
//! and Unicode has no subscript capitals, so `$f_N$` written as characters would read `f_N`. A
//! label is therefore parsed once into [`Run`]s of text in one style (upright or italic, on the
//! baseline or as a sub/superscript), and the runs are written either as SVG `<tspan>`s that
//! shift and shrink the scripts ([`svg_text`]), or, where no markup is possible, as plain
//! Unicode ([`plain_math`]).
//!
//! Layout needs the width of a label before any font is chosen: [`width`] estimates it from
//! typical sans-serif advance widths, so the same label always gets the same box and the SVG
//! stays byte-identical across machines.

/// Where a run sits relative to the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    /// On the baseline.
    Base,
    /// A subscript.
    Sub,
    /// A superscript.
    Sup,
}

/// Text in one style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The characters (TeX commands already turned into characters).
    pub text: String,
    /// Baseline, sub- or superscript.
    pub script: Script,
    /// A variable in mathematics (TeX sets single letters in math italic).
    pub italic: bool,
}

/// The font size of a script relative to its base (TeX's `\scriptstyle` is 70%).
const SCRIPT_SCALE: f64 = 0.7;

/// How far a subscript drops below the baseline and a superscript rises, in ems of the base.
const SUB_DROP: f64 = 0.25;
const SUP_RISE: f64 = 0.4;

/// The label as runs: text outside `$…$` upright, mathematics as TeX would set it.
pub fn runs(label: &str) -> Vec<Run> {
    let mut out = Vec::new();
    for (i, part) in label.split('$').enumerate() {
        if i % 2 == 0 {
            push(&mut out, part, Script::Base, false);
        } else {
            let chars: Vec<char> = part.chars().collect();
            math_runs(&chars, Script::Base, false, &mut out);
        }
    }
    out
}

/// Appends `text` to the last run when the style is the same, else as a new run.
fn push(out: &mut Vec<Run>, text: &str, script: Script, italic: bool) {
    if text.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(last) if last.script == script && last.italic == italic => last.text.push_str(text),
        _ => out.push(Run {
            text: text.to_string(),
            script,
            italic,
        }),
    }
}

/// The TeX commands a label may hold, as characters.
const SYMBOLS: &[(&str, &str)] = &[
    ("lvert", "|"),
    ("rvert", "|"),
    ("mid", "|"),
    ("le", "≤"),
    ("leq", "≤"),
    ("ge", "≥"),
    ("geq", "≥"),
    ("ne", "≠"),
    ("neq", "≠"),
    ("equiv", "≡"),
    ("bmod", " mod "),
    ("mod", " mod "),
    ("dagger", "†"),
    ("cup", "∪"),
    ("cap", "∩"),
    ("setminus", "∖"),
    ("cdots", "⋯"),
    ("cdot", "·"),
    ("times", "×"),
    ("lbrace", "{"),
    ("rbrace", "}"),
    ("lfloor", "⌊"),
    ("rfloor", "⌋"),
    ("lceil", "⌈"),
    ("rceil", "⌉"),
    ("oplus", "⊕"),
    ("in", "∈"),
    ("pm", "±"),
    ("infty", "∞"),
    ("to", "→"),
    ("mapsto", "↦"),
    ("dots", "…"),
    ("ldots", "…"),
    ("min", "min"),
    ("max", "max"),
    ("quad", " "),
    ("mathcal", ""),
    ("mathfrak", ""),
    ("mathbb", ""),
    ("left", ""),
    ("right", ""),
    ("sum", "Σ"),
    ("prod", "Π"),
    ("log", "log"),
    ("sup", "sup"),
    ("inf", "inf"),
    ("subseteq", "⊆"),
    ("subset", "⊂"),
    ("notin", "∉"),
    ("emptyset", "∅"),
    ("ell", "ℓ"),
    ("alpha", "α"),
    ("beta", "β"),
    ("delta", "δ"),
    ("Delta", "Δ"),
    ("theta", "θ"),
    ("Theta", "Θ"),
    ("sigma", "σ"),
    ("omega", "ω"),
    ("perp", "⊥"),
    ("prime", "′"),
    ("approx", "≈"),
    ("mp", "∓"),
    ("nmid", "∤"),
    ("vert", "|"),
    ("colon", ":"),
    ("gcd", "gcd"),
    ("forall", "∀"),
    ("exists", "∃"),
    ("neg", "¬"),
    ("land", "∧"),
    ("wedge", "∧"),
    ("lor", "∨"),
    ("vee", "∨"),
    ("Rightarrow", "⇒"),
    ("implies", "⇒"),
    ("iff", "⇔"),
    // A row break of `cases`.
    ("cr", "; "),
    // Sizes and styles change nothing in plain text.
    ("bigl", ""),
    ("bigr", ""),
    ("displaystyle", ""),
    ("textstyle", ""),
    ("mathit", ""),
];

/// Accents, as the combining character put after what they cover (`\widetilde{X}` is X̃).
const ACCENTS: [(&str, char); 6] = [
    ("widetilde", '\u{303}'),
    ("tilde", '\u{303}'),
    ("check", '\u{30C}'),
    ("hat", '\u{302}'),
    ("bar", '\u{304}'),
    ("overline", '\u{305}'),
];

/// Commands that take groups `plain_body` must not split at their scripts: `\frac{a}{b}` two,
/// the others one (`\begin{cases}` is skipped with its group).
fn group_count(name: &str) -> usize {
    match name {
        "frac" | "tfrac" | "dfrac" => 2,
        "pmod" | "sqrt" | "begin" | "end" => 1,
        _ if UPRIGHT_GROUPS.contains(&name) || ACCENTS.iter().any(|(n, _)| *n == name) => 1,
        _ => 0,
    }
}

/// Commands whose group is upright text (`\mathrm{II}`, `\text{where}`).
const UPRIGHT_GROUPS: [&str; 5] = ["mathrm", "text", "textrm", "operatorname", "mathbf"];

/// Delimiters that hug what they enclose: `\lvert N \rvert` is |N|.
const OPENING: [&str; 4] = ["lvert", "lfloor", "lceil", "lbrace"];
const CLOSING: [&str; 4] = ["rvert", "rfloor", "rceil", "rbrace"];

/// One `$…$` body as runs, every run in `script` (a script's own scripts stay at its level:
/// labels never nest them deeper than one).
fn math_runs(chars: &[char], script: Script, upright: bool, out: &mut Vec<Run>) {
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                let name = command_name(chars, i);
                i += 1 + name.len();
                if name.is_empty() {
                    // `\,` `\;` `\ ` `\!` are spaces, `\{` a brace.
                    if let Some(&c) = chars.get(i) {
                        if matches!(c, ',' | ';' | ' ' | '!') {
                            push(out, " ", script, false);
                        } else {
                            push(out, &c.to_string(), script, false);
                        }
                        i += 1;
                    }
                    continue;
                }
                if name == "pmod" {
                    // `a \pmod{p}` is `a (mod p)`.
                    let (group, next) = group_at(chars, i);
                    trim_trailing_spaces(out);
                    push(out, " (mod ", script, false);
                    math_runs(&group, script, upright, out);
                    push(out, ")", script, false);
                    i = next;
                    continue;
                }
                if UPRIGHT_GROUPS.contains(&name.as_str()) {
                    let (group, next) = group_at(chars, i);
                    math_runs(&group, script, true, out);
                    i = next;
                    continue;
                }
                if let Some((_, mark)) = ACCENTS.iter().find(|(n, _)| *n == name) {
                    let (group, next) = group_at(chars, i);
                    math_runs(&group, script, upright, out);
                    push(out, &mark.to_string(), script, false);
                    i = next;
                    continue;
                }
                match name.as_str() {
                    "frac" | "tfrac" | "dfrac" => {
                        let (top, next) = group_at(chars, i);
                        let (bottom, next) = group_at(chars, next);
                        operand_runs(&top, script, upright, out);
                        push(out, "/", script, false);
                        operand_runs(&bottom, script, upright, out);
                        i = next;
                        continue;
                    }
                    "sqrt" => {
                        let (group, next) = group_at(chars, i);
                        push(out, "√", script, false);
                        operand_runs(&group, script, upright, out);
                        i = next;
                        continue;
                    }
                    // `\begin{cases}` and `\end{cases}` frame rows; their names are not text.
                    "begin" | "end" => {
                        i = group_at(chars, i).1;
                        continue;
                    }
                    _ => {}
                }
                if let Some((_, sym)) = SYMBOLS.iter().find(|(n, _)| *n == name) {
                    if CLOSING.contains(&name.as_str()) {
                        trim_trailing_spaces(out);
                    }
                    push(out, sym, script, false);
                    if OPENING.contains(&name.as_str()) {
                        while chars.get(i) == Some(&' ') {
                            i += 1;
                        }
                    }
                } else {
                    // A command this table lacks is shown by its name, never dropped: a
                    // missing symbol must not silently change what a formula says.
                    push(out, &name, script, false);
                }
            }
            // The column mark of `cases`: the row's own spaces separate value and condition.
            '&' => i += 1,
            c @ ('^' | '_') => {
                let inner = if c == '^' { Script::Sup } else { Script::Sub };
                let (group, next) = group_at(chars, i + 1);
                math_runs(&group, inner, upright, out);
                i = next;
            }
            '{' | '}' => i += 1,
            '-' => {
                push(out, "−", script, false);
                i += 1;
            }
            c => {
                let italic = !upright && c.is_alphabetic();
                push(out, &c.to_string(), script, italic);
                i += 1;
            }
        }
    }
}

/// The name of the TeX command whose backslash is at `at` (empty for `\,`, `\{`).
/// A fraction's part or a root's radicand: bracketed unless it is a single symbol.
fn operand_runs(group: &[char], script: Script, upright: bool, out: &mut Vec<Run>) {
    let mut inner = Vec::new();
    math_runs(group, script, upright, &mut inner);
    let single = inner.iter().map(|r| r.text.chars().count()).sum::<usize>() <= 1;
    if !single {
        push(out, "(", script, false);
    }
    for r in inner {
        push(out, &r.text, r.script, r.italic);
    }
    if !single {
        push(out, ")", script, false);
    }
}

fn command_name(chars: &[char], at: usize) -> String {
    chars[at + 1..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect()
}

fn trim_trailing_spaces(out: &mut Vec<Run>) {
    while let Some(last) = out.last_mut() {
        let kept = last.text.trim_end_matches(' ').len();
        last.text.truncate(kept);
        if !last.text.is_empty() {
            return;
        }
        out.pop();
    }
}

/// The script group starting at `start`: a `{…}` group (braces balanced) or one character or
/// command; and the index after it.
fn group_at(chars: &[char], start: usize) -> (Vec<char>, usize) {
    match chars.get(start) {
        Some('{') => {
            let mut depth = 0;
            for (j, &c) in chars.iter().enumerate().skip(start) {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            return (chars[start + 1..j].to_vec(), j + 1);
                        }
                    }
                    _ => {}
                }
            }
            (chars[start + 1..].to_vec(), chars.len())
        }
        Some('\\') => {
            let len = chars[start + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .count()
                .max(1);
            (chars[start..start + 1 + len].to_vec(), start + 1 + len)
        }
        Some(&c) => (vec![c], start + 1),
        None => (Vec::new(), start),
    }
}

/// The Unicode form of a label, for text that cannot carry markup: the dollars dropped, TeX's
/// symbols as characters, sub- and superscripts as Unicode sub/superscript characters where
/// every character of the script has one, else as `_x` / `^(xy)`. Text outside the spans is
/// kept. SVG figures use `svg_text` instead, which sets every script as a script.
pub fn plain_math(label: &str) -> String {
    let mut out = String::new();
    for (i, part) in label.split('$').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        } else {
            let chars: Vec<char> = part.chars().collect();
            out.push_str(&plain_body(&chars));
        }
    }
    out
}

/// One `$…$` body in plain Unicode. Scripts are converted recursively, so a script inside a
/// script stays inside it: `2^{\lfloor \log_2 k \rfloor}` is `2^(⌊log₂ k⌋)`, not a run of
/// superscript, subscript and superscript again.
fn plain_body(chars: &[char]) -> String {
    let mut out = String::new();
    let base = |segment: &[char], out: &mut String| {
        let mut runs = Vec::new();
        math_runs(segment, Script::Base, false, &mut runs);
        out.extend(runs.iter().map(|r| r.text.as_str()));
    };
    let (mut i, mut segment_start) = (0, 0);
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                let name = command_name(chars, i);
                i += 1 + name.len().max(1);
                // Their groups are read by `math_runs` with the segment.
                for _ in 0..group_count(&name) {
                    i = group_at(chars, i).1;
                }
            }
            c @ ('^' | '_') => {
                base(&chars[segment_start..i], &mut out);
                let (group, next) = group_at(chars, i + 1);
                out.push_str(&scripted(&plain_body(&group), c == '^'));
                i = next;
                segment_start = i;
            }
            _ => i += 1,
        }
    }
    base(&chars[segment_start.min(chars.len())..], &mut out);
    out
}

/// A script in Unicode script characters where every character has one, else as `^x`/`^(xy)`.
fn scripted(text: &str, sup: bool) -> String {
    match text
        .chars()
        .map(|c| script_char(c, sup))
        .collect::<Option<String>>()
    {
        Some(s) => s,
        None => {
            let mark = if sup { '^' } else { '_' };
            if text.chars().count() > 1 {
                format!("{mark}({text})")
            } else {
                format!("{mark}{text}")
            }
        }
    }
}

fn script_char(c: char, sup: bool) -> Option<char> {
    const DIGITS_SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    const DIGITS_SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    if let Some(d) = c.to_digit(10) {
        return Some(if sup { DIGITS_SUP } else { DIGITS_SUB }[d as usize]);
    }
    let table: &[(char, char)] = if sup {
        &[
            ('+', '⁺'),
            ('−', '⁻'),
            ('I', 'ᴵ'),
            ('n', 'ⁿ'),
            ('i', 'ⁱ'),
            ('k', 'ᵏ'),
            ('(', '⁽'),
            (')', '⁾'),
            ('*', '*'),
        ]
    } else {
        &[
            ('+', '₊'),
            ('−', '₋'),
            ('a', 'ₐ'),
            ('e', 'ₑ'),
            ('h', 'ₕ'),
            ('i', 'ᵢ'),
            ('j', 'ⱼ'),
            ('k', 'ₖ'),
            ('l', 'ₗ'),
            ('m', 'ₘ'),
            ('n', 'ₙ'),
            ('o', 'ₒ'),
            ('p', 'ₚ'),
            ('r', 'ᵣ'),
            ('s', 'ₛ'),
            ('t', 'ₜ'),
            ('u', 'ᵤ'),
            ('v', 'ᵥ'),
            ('x', 'ₓ'),
            ('(', '₍'),
            (')', '₎'),
        ]
    };
    table.iter().find(|(from, _)| *from == c).map(|(_, to)| *to)
}

/// A character's advance width in ems, as a sans-serif font (DejaVu Sans, the usual fallback)
/// sets it, rounded generously: an estimate that errs wide keeps boxes from overlapping.
fn advance(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.32,
        ' ' | 'f' | 't' | 'r' | 'I' | '(' | ')' | '[' | ']' | '{' | '}' | '⌊' | '⌋' => 0.42,
        'm' | 'w' | 'M' | 'W' => 0.95,
        '−' | '+' | '=' | '<' | '>' | '≤' | '≥' | '×' | '±' | '→' | '↦' => 0.86,
        c if c.is_ascii_uppercase() => 0.72,
        c if c.is_ascii_digit() => 0.64,
        _ => 0.62,
    }
}

/// The estimated width of a label set at `size` (see the module documentation).
pub fn width(runs: &[Run], size: f64) -> f64 {
    runs.iter()
        .map(|r| {
            let scale = if r.script == Script::Base {
                1.0
            } else {
                SCRIPT_SCALE
            };
            r.text.chars().map(advance).sum::<f64>() * size * scale
        })
        .sum()
}

/// Escapes text for SVG character data and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Where a label's anchor point is on its text (SVG's `text-anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The point is at the start (left) of the text.
    Start,
    /// At its middle.
    Middle,
    /// At its end (right).
    End,
}

/// How a label is drawn: its font size (drawing units), colour (`#rrggbb`), anchor, and whether
/// it reads bottom to top (a y axis title).
#[derive(Clone, Copy, Debug)]
pub struct TextStyle<'a> {
    /// Font size.
    pub size: f64,
    /// Fill colour.
    pub fill: &'a str,
    /// Horizontal anchor.
    pub anchor: Anchor,
    /// Turned 90° counter-clockwise.
    pub vertical: bool,
}

/// A label as an SVG `<text>` element with its baseline at `(x, y)`: italic runs in
/// `font-style="italic"` spans, scripts in smaller spans shifted by `dy` (which every SVG
/// renderer honours, unlike `baseline-shift`), the baseline restored after each. Spaces are
/// kept as written (`xml:space`): a span starting with one (`n₀ = 27`) would lose it.
pub fn svg_text(label: &str, (x, y): (f64, f64), style: TextStyle) -> String {
    let anchor = match style.anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    let mut out = format!(
        "<text xml:space=\"preserve\" x=\"{x:.0}\" y=\"{y:.0}\" font-family=\"sans-serif\" font-size=\"{:.0}\" fill=\"{}\" text-anchor=\"{anchor}\"",
        style.size, style.fill
    );
    if style.vertical {
        out.push_str(&format!(" transform=\"rotate(-90, {x:.0}, {y:.0})\""));
    }
    out.push('>');
    // The current offset from the baseline, in drawing units (down is positive).
    let mut offset = 0.0f64;
    for r in runs(label) {
        let (shift, size) = match r.script {
            Script::Base => (0.0, None),
            Script::Sub => (
                (SUB_DROP * style.size).round(),
                Some(style.size * SCRIPT_SCALE),
            ),
            Script::Sup => (
                -(SUP_RISE * style.size).round(),
                Some(style.size * SCRIPT_SCALE),
            ),
        };
        let mut attributes = String::new();
        if shift != offset {
            attributes.push_str(&format!(" dy=\"{:.0}\"", shift - offset));
            offset = shift;
        }
        if let Some(size) = size {
            attributes.push_str(&format!(" font-size=\"{size:.0}\""));
        }
        if r.italic {
            attributes.push_str(" font-style=\"italic\"");
        }
        if attributes.is_empty() {
            out.push_str(&escape(&r.text));
        } else {
            out.push_str(&format!("<tspan{attributes}>{}</tspan>", escape(&r.text)));
        }
    }
    out.push_str("</text>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_spans_become_unicode_and_text_is_kept() {
        assert_eq!(plain_math("$f^{\\mathrm{I}}(n)$"), "fᴵ(n)");
        assert_eq!(
            plain_math("$f^{\\mathrm{II}}(n)$ (the other player)"),
            "fᴵᴵ(n) (the other player)"
        );
        assert_eq!(
            plain_math("$G_s(n)$, $S = \\lbrace 4,5 \\rbrace$"),
            "Gₛ(n), S = {4,5}"
        );
        assert_eq!(plain_math("$\\lvert N\\rvert - 4$"), "|N| − 4");
        assert_eq!(plain_math("$F_3$"), "F₃");
        // No subscript capitals in Unicode: plain text falls back to TeX's form (the SVG sets
        // them as scripts, see below).
        assert_eq!(plain_math("$N_L$"), "N_L");
        assert_eq!(plain_math("$f_N(5,4,2)$"), "f_N(5,4,2)");
        assert_eq!(plain_math("$V = N_L - N_W$"), "V = N_L − N_W");
        assert_eq!(plain_math("$V_{\\mathrm{Fractal}}$"), "V_(Fractal)");
        assert_eq!(
            plain_math("$\\sum_{i=0}^{n} 2^i \\le \\log_2 k$"),
            "Σ_(i=0)ⁿ 2ⁱ ≤ log₂ k"
        );
        assert_eq!(plain_math("$2^{k+1}$"), "2ᵏ⁺¹");
        assert_eq!(plain_math("$n_0 + 16$"), "n₀ + 16");
        assert_eq!(plain_math("$n \\equiv 3 \\pmod{4}$"), "n ≡ 3 (mod 4)");
        assert_eq!(plain_math("no math"), "no math");
    }

    #[test]
    fn scripts_inside_scripts_stay_inside() {
        assert_eq!(
            plain_math("$2^{\\lfloor \\log_2 k \\rfloor}$"),
            "2^(⌊log₂ k⌋)"
        );
        assert_eq!(plain_math("$x_{i_1}$"), "x_(i₁)");
        assert_eq!(plain_math("$2^{2^k}$ and $a_{n-1}$"), "2^(2ᵏ) and aₙ₋₁");
    }

    #[test]
    fn no_symbol_of_a_formula_is_dropped() {
        assert_eq!(
            plain_math("$y \\ge \\lfloor y/\\ell\\rfloor \\ell$"),
            "y ≥ ⌊y/ℓ⌋ ℓ"
        );
        assert_eq!(
            plain_math("$\\widetilde{X} \\ne \\check{X}$"),
            "X\u{303} ≠ X\u{30C}"
        );
        assert_eq!(plain_math("$\\frac{a+1}{2}$, $\\sqrt{n}$"), "(a+1)/2, √n");
        assert_eq!(
            plain_math(
                "$\\begin{cases} 1 & \\text{if } n = 0,\\cr 0 & \\text{otherwise} \\end{cases}$"
            ),
            " 1  if  n = 0,;  0  otherwise "
        );
        assert_eq!(
            plain_math("$\\Theta_{L, M} \\notin \\emptyset$"),
            "Θ_(L, M) ∉ ∅"
        );
        // A command without a symbol here is shown by its name rather than dropped.
        assert_eq!(plain_math("$\\aleph_0$"), "aleph₀");
    }

    #[test]
    fn variables_are_italic_and_upright_groups_are_not() {
        let r = runs("bonus $f_N(5)$, $f^{\\mathrm{II}}$");
        let shown: Vec<(&str, Script, bool)> = r
            .iter()
            .map(|r| (r.text.as_str(), r.script, r.italic))
            .collect();
        assert_eq!(
            shown,
            [
                ("bonus ", Script::Base, false),
                ("f", Script::Base, true),
                ("N", Script::Sub, true),
                ("(5), ", Script::Base, false),
                ("f", Script::Base, true),
                ("II", Script::Sup, false),
            ]
        );
    }

    #[test]
    fn a_capital_subscript_is_set_as_a_subscript_in_svg() {
        let style = TextStyle {
            size: 40.0,
            fill: "#000000",
            anchor: Anchor::Start,
            vertical: false,
        };
        let svg = svg_text("$f_N(5,4,2)$", (10.0, 20.0), style);
        // N smaller and lowered (dy down), then the baseline restored for "(5,4,2)".
        assert!(
            svg.contains(
                "<tspan font-style=\"italic\">f</tspan><tspan dy=\"10\" font-size=\"28\" font-style=\"italic\">N</tspan><tspan dy=\"-10\">(5,4,2)</tspan>"
            ),
            "{svg}"
        );
        assert!(!svg.contains("f_N") && !svg.contains('$'));
        let sup = svg_text("$f^{\\mathrm{I}}$", (0.0, 0.0), style);
        assert!(
            sup.contains("<tspan dy=\"-16\" font-size=\"28\">I</tspan>"),
            "{sup}"
        );
        assert!(svg_text("a < b & c", (0.0, 0.0), style).contains(">a &lt; b &amp; c<"));
    }

    #[test]
    fn scripts_are_narrower_than_their_base() {
        let base = width(&runs("N"), 10.0);
        let sub = width(&runs("$x_N$"), 10.0) - width(&runs("$x$"), 10.0);
        assert!(sub < base && sub > 0.5 * base);
    }
}
