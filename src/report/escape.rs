//! Escaping for the two output languages. Tera escapes only HTML-like templates, so every piece
//! of text a template prints goes through one of these filters, registered in one place
//! ([`register_filters`]): `md` and `md_code` for Markdown, `tex` and `tex_code` for LaTeX.
//!
//! LaTeX output must compile with pdflatex and its default UTF-8 input: the ten special
//! characters become commands, common mathematical symbols (≤ ⊕ 𝔊 ℓ …) become math commands
//! (amssymb is loaded by the template), Latin letters with accents pass through, and anything
//! else becomes a visible `<U+XXXX>` instead of an error.
//!
//! Prose carries mathematics as TeX in `$…$` spans (`$f^{\mathrm{II}}(n)$`, see
//! [`crate::language::expr_math`]). The `md` and `tex` filters pass a span through verbatim —
//! GitHub renders `$…$` itself, LaTeX gets it raw — and escape only the text around it; `\$` is
//! a literal dollar, and so is a `$` that no later `$` closes. Text without `$` is escaped as
//! before.

use tera::{Kwargs, State, Tera};

/// Escapes text for a Markdown paragraph or table cell (GitHub Flavored Markdown): ASCII
/// punctuation with a meaning is backslash-escaped, `|` included (it ends a table cell), and
/// line breaks become spaces so a cell stays on its row.
pub fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '$' | '~' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '\r' => {}
            '\n' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Markdown inline code: verbatim inside a backtick run longer than any run in the text;
/// `|` is escaped because GitHub tables split cells on it even inside code.
pub fn markdown_code(s: &str) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let body = s.replace('|', "\\|").replace('\n', " ");
    let pad = if body.starts_with('`') || body.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// Math symbols and letters that pdflatex cannot take as UTF-8, as LaTeX (math in
/// `\ensuremath`, so they work in text and in math).
fn latex_symbol(c: char) -> Option<&'static str> {
    Some(match c {
        '≤' => r"\ensuremath{\leq}",
        '≥' => r"\ensuremath{\geq}",
        '≠' => r"\ensuremath{\neq}",
        '≈' => r"\ensuremath{\approx}",
        '≡' => r"\ensuremath{\equiv}",
        '⊕' => r"\ensuremath{\oplus}",
        '−' => r"\ensuremath{-}",
        '×' => r"\ensuremath{\times}",
        '÷' => r"\ensuremath{\div}",
        '·' => r"\ensuremath{\cdot}",
        '±' => r"\ensuremath{\pm}",
        '∓' => r"\ensuremath{\mp}",
        '∞' => r"\ensuremath{\infty}",
        '→' => r"\ensuremath{\to}",
        '←' => r"\ensuremath{\leftarrow}",
        '↦' => r"\ensuremath{\mapsto}",
        '⇒' => r"\ensuremath{\Rightarrow}",
        '⇔' => r"\ensuremath{\Leftrightarrow}",
        '∈' => r"\ensuremath{\in}",
        '∉' => r"\ensuremath{\notin}",
        '∀' => r"\ensuremath{\forall}",
        '∃' => r"\ensuremath{\exists}",
        '⊂' => r"\ensuremath{\subset}",
        '⊆' => r"\ensuremath{\subseteq}",
        '∪' => r"\ensuremath{\cup}",
        '∩' => r"\ensuremath{\cap}",
        '∅' => r"\ensuremath{\emptyset}",
        '∑' => r"\ensuremath{\sum}",
        '√' => r"\ensuremath{\surd}",
        '⌊' => r"\ensuremath{\lfloor}",
        '⌋' => r"\ensuremath{\rfloor}",
        '⌈' => r"\ensuremath{\lceil}",
        '⌉' => r"\ensuremath{\rceil}",
        '∣' => r"\ensuremath{\mid}",
        '∤' => r"\ensuremath{\nmid}",
        '∧' => r"\ensuremath{\wedge}",
        '∨' => r"\ensuremath{\vee}",
        '∖' => r"\ensuremath{\setminus}",
        '∼' => r"\ensuremath{\sim}",
        '≪' => r"\ensuremath{\ll}",
        '≫' => r"\ensuremath{\gg}",
        '⟨' => r"\ensuremath{\langle}",
        '⟩' => r"\ensuremath{\rangle}",
        '⋯' => r"\ensuremath{\cdots}",
        '′' => r"\ensuremath{'}",
        '∘' => r"\ensuremath{\circ}",
        '…' => r"\ensuremath{\dots}",
        'ℓ' => r"\ensuremath{\ell}",
        'ℕ' => r"\ensuremath{\mathbb{N}}",
        'ℤ' => r"\ensuremath{\mathbb{Z}}",
        'ℚ' => r"\ensuremath{\mathbb{Q}}",
        'ℝ' => r"\ensuremath{\mathbb{R}}",
        '𝔊' => r"\ensuremath{\mathfrak{G}}",
        '𝒫' => r"\ensuremath{\mathcal{P}}",
        'α' => r"\ensuremath{\alpha}",
        'β' => r"\ensuremath{\beta}",
        'γ' => r"\ensuremath{\gamma}",
        'δ' => r"\ensuremath{\delta}",
        'ε' => r"\ensuremath{\varepsilon}",
        'λ' => r"\ensuremath{\lambda}",
        'μ' => r"\ensuremath{\mu}",
        'π' => r"\ensuremath{\pi}",
        'σ' => r"\ensuremath{\sigma}",
        'φ' => r"\ensuremath{\varphi}",
        'ω' => r"\ensuremath{\omega}",
        'ζ' => r"\ensuremath{\zeta}",
        'η' => r"\ensuremath{\eta}",
        'θ' => r"\ensuremath{\theta}",
        'κ' => r"\ensuremath{\kappa}",
        'ν' => r"\ensuremath{\nu}",
        'ξ' => r"\ensuremath{\xi}",
        'ρ' => r"\ensuremath{\rho}",
        'τ' => r"\ensuremath{\tau}",
        'χ' => r"\ensuremath{\chi}",
        'ψ' => r"\ensuremath{\psi}",
        'Θ' => r"\ensuremath{\Theta}",
        'Λ' => r"\ensuremath{\Lambda}",
        'Π' => r"\ensuremath{\Pi}",
        'Φ' => r"\ensuremath{\Phi}",
        'Ψ' => r"\ensuremath{\Psi}",
        'Ω' => r"\ensuremath{\Omega}",
        '✓' => r"\ensuremath{\checkmark}",
        '✗' => r"\ensuremath{\times}",
        'Γ' => r"\ensuremath{\Gamma}",
        'Δ' => r"\ensuremath{\Delta}",
        'Σ' => r"\ensuremath{\Sigma}",
        '⁺' => r"\textsuperscript{+}",
        '⁻' => r"\textsuperscript{\ensuremath{-}}",
        '⊥' => r"\ensuremath{\perp}",
        '†' => r"\textdagger{}",
        '–' => "--",
        '—' => "---",
        '‘' => "`",
        '’' => "'",
        '“' => "``",
        '”' => "''",
        '\u{a0}' => "~",
        _ => return None,
    })
}

/// Superscript and subscript digits: `²` → `\textsuperscript{2}`, `₁` → `\textsubscript{1}`.
fn latex_script(c: char) -> Option<String> {
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    const SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    if let Some(d) = SUP.iter().position(|&x| x == c) {
        return Some(format!(r"\textsuperscript{{{d}}}"));
    }
    SUB.iter()
        .position(|&x| x == c)
        .map(|d| format!(r"\textsubscript{{{d}}}"))
}

/// Escapes text for LaTeX (pdflatex, T1 fonts, UTF-8 input). `--` is kept as two hyphens
/// (`-{}-`), so command-line flags read as typed.
pub fn escape_latex(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 4);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str(r"\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '%' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str(r"\textasciitilde{}"),
            '^' => out.push_str(r"\textasciicircum{}"),
            '|' => out.push_str(r"\textbar{}"),
            '<' => out.push_str(r"\textless{}"),
            '>' => out.push_str(r"\textgreater{}"),
            '-' if chars.peek() == Some(&'-') => out.push_str("-{}"),
            '\r' => {}
            '\n' => out.push(' '),
            c if c.is_ascii() => out.push(c),
            c => match (latex_symbol(c), latex_script(c)) {
                (Some(t), _) => out.push_str(t),
                (None, Some(t)) => out.push_str(&t),
                // Latin-1 and Latin Extended-A are set up by T1 fonts and UTF-8 input.
                (None, None) if ('\u{a1}'..='\u{17f}').contains(&c) => out.push(c),
                (None, None) => {
                    out.push_str(&format!(r"\textless{{}}U+{:04X}\textgreater{{}}", c as u32))
                }
            },
        }
    }
    out
}

/// LaTeX for prose (titles, captions, findings): `$…$` math spans pass raw (as in
/// [`escape_latex_math`]) and the text around them is [`escape_latex`], except that the papers'
/// ASCII scripts are typeset — `f^II`, `2^k`, `c^+` as superscripts after a letter, digit or
/// `)`, and `f_N`, `h_i`, `G_s` as subscripts after a one-letter name — so the PDF reads
/// f^{II}(n) where the Markdown keeps `f^II(n)`. Longer names (`least_f1`) stay literal, and
/// data cells and code use [`escape_latex`] unchanged.
pub fn escape_latex_prose(s: &str) -> String {
    latex_with_math(s, latex_prose_text)
}

/// [`escape_latex_prose`] of text without math spans.
fn latex_prose_text(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let alnum = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric());
    // The script token at i: a run of 1..=max letters and digits, or one sign.
    let token = |i: usize, max: usize| -> Option<usize> {
        let run = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        match chars.get(i) {
            Some('+' | '-' | '−' | '⊥' | '*') => Some(1),
            _ if (1..=max).contains(&run) => Some(run),
            _ => None,
        }
    };
    let mut out = String::with_capacity(s.len() + s.len() / 4);
    let mut plain = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|j| &chars[j]);
        let script = match c {
            '^' if alnum(prev) || prev == Some(&')') => token(i + 1, 4)
                .filter(|&n| !alnum(chars.get(i + 1 + n)) || !chars[i + 1].is_alphanumeric())
                .map(|n| ("textsuperscript", n)),
            '_' if prev.is_some_and(|p| p.is_alphabetic())
                && !alnum(i.checked_sub(2).map(|j| &chars[j])) =>
            {
                token(i + 1, 2)
                    .filter(|&n| chars[i + 1].is_alphanumeric() && !alnum(chars.get(i + 1 + n)))
                    .map(|n| ("textsubscript", n))
            }
            _ => None,
        };
        if c == '"' {
            // T1 sets a straight quote as a closing one; prose quotes open after a space or
            // bracket and close elsewhere, as TeX's `` and ''.
            out.push_str(&escape_latex(&plain));
            plain.clear();
            let opens = prev.is_none_or(|p| p.is_whitespace() || matches!(p, '(' | '['));
            out.push_str(if opens { "``" } else { "''" });
            i += 1;
            continue;
        }
        match script {
            Some((command, n)) => {
                out.push_str(&escape_latex(&plain));
                plain.clear();
                let body: String = chars[i + 1..i + 1 + n].iter().collect();
                out.push_str(&format!("\\{command}{{{}}}", escape_latex(&body)));
                i += 1 + n;
            }
            None => {
                plain.push(c);
                i += 1;
            }
        }
    }
    out.push_str(&escape_latex(&plain));
    out
}

/// A piece of prose: text to escape, or the body of a `$…$` math span.
#[derive(Debug, PartialEq, Eq)]
enum Prose<'a> {
    Text(String),
    Math(&'a str),
    /// A `` `command` `` span: a command a reader pastes, set in code type.
    Code(&'a str),
}

/// Splits prose into text and `$…$` math spans. `\$` is a literal dollar; a `$` with no
/// closing `$` after it, or an empty `$$`, is literal too.
fn prose_parts(s: &str) -> Vec<Prose<'_>> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if rest.starts_with("\\$") {
            text.push('$');
            i += 2;
            continue;
        }
        if rest.starts_with('$')
            && let Some(len) = rest[1..].find('$').filter(|&len| len > 0)
        {
            if !text.is_empty() {
                parts.push(Prose::Text(std::mem::take(&mut text)));
            }
            parts.push(Prose::Math(&rest[1..1 + len]));
            i += len + 2;
            continue;
        }
        if rest.starts_with('`')
            && let Some(len) = rest[1..].find('`').filter(|&len| len > 0)
        {
            if !text.is_empty() {
                parts.push(Prose::Text(std::mem::take(&mut text)));
            }
            parts.push(Prose::Code(&rest[1..1 + len]));
            i += len + 2;
            continue;
        }
        let c = rest.chars().next().expect("i is inside the string");
        text.push(c);
        i += c.len_utf8();
    }
    if !text.is_empty() {
        parts.push(Prose::Text(text));
    }
    parts
}

/// Prose for Markdown: [`escape_markdown`] around `$…$` math spans, which pass verbatim (a line
/// break in one becomes a space, a stray `|` becomes `\vert`, so a table cell stays whole).
pub fn escape_markdown_math(s: &str) -> String {
    prose_parts(s)
        .into_iter()
        .map(|part| match part {
            Prose::Text(t) => escape_markdown(&t),
            Prose::Math(m) => format!("${}$", m.replace(['\n', '\r'], " ").replace('|', r"\vert ")),
            Prose::Code(c) => markdown_code(c),
        })
        .collect()
}

/// A math span's body for LaTeX: verbatim, except the Unicode symbols pdflatex cannot read
/// (as in [`escape_latex`]).
fn latex_math_body(m: &str) -> String {
    let mut out = String::with_capacity(m.len());
    for c in m.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if c.is_ascii() => out.push(c),
            c => match (latex_symbol(c), latex_script(c)) {
                (Some(t), _) => out.push_str(t),
                (None, Some(t)) => out.push_str(&format!(r"\text{{{t}}}")),
                (None, None) => out.push_str(&format!(
                    r"\text{{\textless{{}}U+{:04X}\textgreater{{}}}}",
                    c as u32
                )),
            },
        }
    }
    out
}

/// Prose for LaTeX: `escape` around `$…$` math spans, which pass raw.
fn latex_with_math(s: &str, escape: fn(&str) -> String) -> String {
    prose_parts(s)
        .into_iter()
        .map(|part| match part {
            Prose::Text(t) => escape(&t),
            Prose::Math(m) => format!("${}$", latex_math_body(m)),
            Prose::Code(c) => latex_code(c),
        })
        .collect()
}

/// Prose for LaTeX: [`escape_latex`] around `$…$` math spans, which pass raw.
pub fn escape_latex_math(s: &str) -> String {
    latex_with_math(s, escape_latex)
}

/// The longest quantifier (in characters of its LaTeX) that a range keeps on one line.
const UNBROKEN_RANGE_PART: usize = 40;

/// A range for a narrow LaTeX column: like [`escape_latex_math`], but each quantifier of a math
/// span (the parts `,\ ` separates outside braces) is kept whole in an `\mbox`, so a line
/// breaks between quantifiers, never inside `0 \le d \le c`; a longer one stays breakable.
pub fn escape_latex_range(s: &str) -> String {
    prose_parts(s)
        .into_iter()
        .map(|part| match part {
            Prose::Text(t) => escape_latex(&t),
            Prose::Code(c) => latex_code(c),
            Prose::Math(m) => top_level_parts(&latex_math_body(m), ",\\ ")
                .iter()
                .map(|p| {
                    // A long quantifier stays breakable: kept whole it would overrun the line.
                    if p.chars().count() <= UNBROKEN_RANGE_PART {
                        format!("\\mbox{{${p}$}}")
                    } else {
                        format!("${}$", breakable_between_terms(p))
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect()
}

/// A long math body that may break after the commas of a list and the words of a conjunction,
/// and nowhere inside a bracketed term: each `(…)` becomes one group (TeX breaks math only after
/// top-level operators), and each `, ` inside a set or list and each top-level `\text{ and }`,
/// `\text{ or }` allows a break.
fn breakable_between_terms(body: &str) -> String {
    const BREAK_AFTER: [&str; 3] = [", ", "\\text{ and } ", "\\text{ or } "];
    let mut out = String::with_capacity(body.len() + 16);
    let mut rest = body;
    while let Some(i) = rest.find(['(', ',', '\\']) {
        let (before, at) = rest.split_at(i);
        out.push_str(before);
        if let Some(word) = BREAK_AFTER.iter().find(|w| at.starts_with(**w)) {
            out.push_str(word.trim_end());
            out.push_str("\\allowbreak ");
            rest = &at[word.len()..];
            continue;
        }
        match (at.starts_with('('), matching_paren(at)) {
            // `\left(` sizes its own group; anything else is grouped whole.
            (true, Some(end)) if !before.ends_with("\\left") => {
                out.push('{');
                out.push_str(&at[..=end]);
                out.push('}');
                rest = &at[end + 1..];
            }
            _ => {
                out.push_str(&at[..1]);
                rest = &at[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The byte index of the `)` closing the `(` that `s` starts with.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `s` split at each `sep` outside braces, brackets and `\lbrace … \rbrace`.
fn top_level_parts<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if depth == 0 && rest.starts_with(sep) {
            parts.push(&s[start..i]);
            i += sep.len();
            start = i;
            continue;
        }
        if rest.starts_with("\\lbrace") || rest.starts_with("\\rbrace") {
            depth += if rest.starts_with("\\l") { 1 } else { -1 };
            i += "\\lbrace".len();
            continue;
        }
        match rest.as_bytes()[0] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth -= 1,
            _ => {}
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    parts.push(&s[start..]);
    parts
}

/// LaTeX for a command line: escaped text in `\texttt`, breakable at spaces, after each `/`
/// and after a `-` inside a word (`third-pile`, not `--only`), so a long path cannot run into
/// the margin; a break adds no character.
pub fn latex_code(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let word = |j: Option<usize>| {
        j.and_then(|j| chars.get(j))
            .is_some_and(|c| c.is_alphanumeric())
    };
    let mut out = String::from(r"\texttt{");
    let mut piece = String::new();
    for (i, &c) in chars.iter().enumerate() {
        piece.push(c);
        if c == '/' || (c == '-' && word(i.checked_sub(1)) && word(Some(i + 1))) {
            out.push_str(&escape_latex(&piece));
            out.push_str(r"\allowbreak{}");
            piece.clear();
        }
    }
    out.push_str(&escape_latex(&piece));
    out.push('}');
    out
}

/// A study's own Markdown prose for a Markdown file: kept as written (it is Markdown already),
/// line endings normalized and surrounding blank lines trimmed, so a section's text cannot run
/// into the heading or the part that follows.
pub fn markdown_prose(s: &str) -> String {
    s.replace("\r\n", "\n").trim_matches('\n').to_string()
}

/// A study's own Markdown prose for LaTeX: its paragraphs (separated by blank lines) kept
/// apart, each escaped as prose ([`escape_latex_prose`], `$…$` math passing raw); the
/// Markdown markup inside a paragraph is not interpreted.
pub fn latex_markdown(s: &str) -> String {
    markdown_prose(s)
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(escape_latex_prose)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// A data table's cell for LaTeX: escaped as [`escape_latex_math`], with a break allowed after
/// every comma and semicolon, so a long list (`[0,1,1,2,…]`) wraps inside a paragraph column
/// instead of running off the page.
pub fn latex_cell(s: &str) -> String {
    escape_latex_math(s)
        .replace(',', r",\allowbreak{}")
        .replace(';', r";\allowbreak{}")
}

/// Width of the text block in points (A4 with 2 cm margins, as the preamble sets it).
const TEXT_WIDTH_PT: f64 = 483.0;

/// Width of one character of a `\small` table cell in points: a digit is 0.5 em of 9 pt, and
/// letters and escaped braces run wider, so a little more.
const CELL_CHAR_PT: f64 = 5.0;

/// Padding between two columns in points (twice `\tabcolsep`).
const COLUMN_GAP_PT: f64 = 12.0;

/// Columns at most this many characters wide stay on one line.
const NARROW_COLUMN_CHARS: usize = 14;

/// The `longtable` column specification of a data table with these `header` names and `rows`:
/// `l` for every column when the widest cells fit the text width side by side; otherwise the
/// narrow columns stay `l` and the wide ones become ragged paragraph columns (`L{…pt}`) sharing
/// the width left, in proportion to their widest cells, so no row runs into the margin.
pub fn latex_table_columns(header: &[String], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = header
        .iter()
        .enumerate()
        .map(|(c, h)| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|x| x.chars().count())
                .chain([h.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let gaps = COLUMN_GAP_PT * widths.len().saturating_sub(1) as f64;
    let needed: f64 = widths.iter().map(|&w| w as f64 * CELL_CHAR_PT).sum::<f64>() + gaps;
    if needed <= TEXT_WIDTH_PT {
        return "l".repeat(widths.len());
    }
    let narrow: f64 = widths
        .iter()
        .filter(|&&w| w <= NARROW_COLUMN_CHARS)
        .map(|&w| w as f64 * CELL_CHAR_PT)
        .sum();
    let wide: usize = widths.iter().filter(|&&w| w > NARROW_COLUMN_CHARS).sum();
    let left = (TEXT_WIDTH_PT - gaps - narrow).max(0.0);
    widths
        .iter()
        .map(|&w| {
            if w <= NARROW_COLUMN_CHARS {
                "l".to_string()
            } else {
                // At least a narrow column's width, even when the narrow ones take most.
                let share =
                    (left * w as f64 / wide as f64).max(NARROW_COLUMN_CHARS as f64 * CELL_CHAR_PT);
                format!("L{{{:.1}pt}}", share.floor())
            }
        })
        .collect()
}

/// Registers the escaping filters on a Tera instance (the Markdown and the LaTeX renderer get
/// the same filters, so a template can only forget to escape, never escape wrongly).
pub fn register_filters(tera: &mut Tera) {
    tera.register_filter("md", |s: &str, _: Kwargs, _: &State| {
        escape_markdown_math(s)
    });
    tera.register_filter("md_code", |s: &str, _: Kwargs, _: &State| markdown_code(s));
    tera.register_filter("md_prose", |s: &str, _: Kwargs, _: &State| {
        markdown_prose(s)
    });
    tera.register_filter("tex_markdown", |s: &str, _: Kwargs, _: &State| {
        latex_markdown(s)
    });
    tera.register_filter("tex", |s: &str, _: Kwargs, _: &State| escape_latex_math(s));
    tera.register_filter("tex_prose", |s: &str, _: Kwargs, _: &State| {
        escape_latex_prose(s)
    });
    tera.register_filter("tex_code", |s: &str, _: Kwargs, _: &State| latex_code(s));
    tera.register_filter("tex_range", |s: &str, _: Kwargs, _: &State| {
        escape_latex_range(s)
    });
    tera.register_filter("tex_cell", |s: &str, _: Kwargs, _: &State| latex_cell(s));
    tera.register_filter(
        "tex_columns",
        |header: Vec<String>, kwargs: Kwargs, _: &State| -> tera::TeraResult<String> {
            let rows: Vec<Vec<String>> = kwargs.must_get("rows")?;
            Ok(latex_table_columns(&header, &rows))
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn study_prose_keeps_its_paragraphs_and_math() {
        let text = "\nAt $k = 8$ the tail is $17$.\r\n\r\nA 50% rise_up.\n";
        assert_eq!(
            markdown_prose(text),
            "At $k = 8$ the tail is $17$.\n\nA 50% rise_up."
        );
        assert_eq!(
            latex_markdown(text),
            "At $k = 8$ the tail is $17$.\n\nA 50\\% rise\\_up."
        );
    }

    #[test]
    fn a_range_breaks_between_quantifiers_only() {
        assert_eq!(
            escape_latex_range(r"$1 \le L \le 6,\ \lbrace a,\ b\rbrace \ni M$; all"),
            r"\mbox{$1 \le L \le 6$}, \mbox{$\lbrace a,\ b\rbrace \ni M$}; all"
        );
    }

    #[test]
    fn a_long_range_breaks_after_list_commas_never_inside_brackets() {
        let long =
            r"$N \in \lbrace -(a + b + c + d) - 5/2, -(a + b + c + d) - 3/2, \dots, a + b\rbrace$";
        assert_eq!(
            escape_latex_range(long),
            r"$N \in \lbrace -{(a + b + c + d)} - 5/2,\allowbreak -{(a + b + c + d)} - 3/2,\allowbreak \dots,\allowbreak a + b\rbrace$"
        );
    }

    #[test]
    fn a_long_condition_breaks_after_its_conjunctions() {
        assert_eq!(
            escape_latex_range(
                r"$e \ge 1 \text{ and } (a = 0 \text{ or } a < b) \text{ and } (b = 0 \text{ or } b < c)$"
            ),
            r"$e \ge 1 \text{ and }\allowbreak {(a = 0 \text{ or } a < b)} \text{ and }\allowbreak {(b = 0 \text{ or } b < c)}$"
        );
    }

    #[test]
    fn math_spans_pass_verbatim_and_text_around_them_is_escaped() {
        let prose = r"f_N at $f_{N}(p) \le \lvert N\rvert$ costs \$5 & more";
        assert_eq!(
            escape_markdown_math(prose),
            r"f\_N at $f_{N}(p) \le \lvert N\rvert$ costs \$5 \& more"
        );
        assert_eq!(
            escape_latex_math(prose),
            r"f\_N at $f_{N}(p) \le \lvert N\rvert$ costs \$5 \& more"
        );
        assert_eq!(
            escape_latex_prose(r"f^II and $f^{\mathrm{II}}(n)$"),
            r"f\textsuperscript{II} and $f^{\mathrm{II}}(n)$"
        );
    }

    #[test]
    fn prose_quotes_open_and_close() {
        assert_eq!(
            escape_latex_prose(r#"the gloss ("if $n$ is large") and "periodic"."#),
            "the gloss (``if $n$ is large'') and ``periodic''."
        );
    }

    #[test]
    fn text_without_math_is_escaped_as_before() {
        for text in [
            r"_ % & # $ { } ~ ^ \ |",
            "a $ b",
            "$$",
            "price: 5$",
            "x_1 <y>",
        ] {
            assert_eq!(escape_markdown_math(text), escape_markdown(text), "{text}");
            assert_eq!(escape_latex_math(text), escape_latex(text), "{text}");
        }
    }

    #[test]
    fn prose_splits_at_unescaped_dollars() {
        assert_eq!(
            prose_parts(r"a $x$ b \$ c $y"),
            [
                Prose::Text("a ".into()),
                Prose::Math("x"),
                Prose::Text(" b $ c $y".into())
            ]
        );
    }

    #[test]
    fn math_keeps_table_cells_whole_and_pdflatex_readable() {
        assert_eq!(escape_markdown_math("$a|b\nc$"), r"$a\vert b c$");
        assert_eq!(escape_latex_math("$a ≤ b$"), r"$a \ensuremath{\leq} b$");
        assert_eq!(
            escape_latex_math("$☃$"),
            r"$\text{\textless{}U+2603\textgreater{}}$"
        );
    }
}
