//! Pure renderers: a context in, the text of a Markdown or LaTeX file out, through the Tera
//! templates in `templates/` (compiled into the binary), or the context itself as JSON — the
//! one data model the templates see, for readers who want the numbers rather than the prose.
//! Markdown templates use Tera's usual `{{ }}` / `{% %}`; LaTeX templates use `<< >>`, `<% %>`
//! and `<# #>`, because `{{`, `{%` and `{#` are everyday LaTeX.

use tera::{Context, Delimiters, Kwargs, State, Tera};

use super::context::{AtlasReport, Index, Report, StudyReport};
use super::escape::{escape_latex, register_filters};
use crate::error::{Error, Result};

/// The built-in templates: (name, source). `claim.md` holds the claim-entry macros the report
/// imports.
pub const TEMPLATES_MD: [(&str, &str); 5] = [
    ("claim.md", include_str!("../../templates/claim.md.tera")),
    ("report.md", include_str!("../../templates/report.md.tera")),
    ("index.md", include_str!("../../templates/index.md.tera")),
    ("study.md", include_str!("../../templates/study.md.tera")),
    ("atlas.md", include_str!("../../templates/atlas.md.tera")),
];

/// The built-in LaTeX templates (and the BibTeX file, whose braces want the same delimiters):
/// (name, source). `preamble.tex` is included by the report and by `all-reports.tex`;
/// `claim.tex` holds the claim-entry macros.
pub const TEMPLATES_TEX: [(&str, &str); 7] = [
    (
        "preamble.tex",
        include_str!("../../templates/preamble.tex.tera"),
    ),
    ("claim.tex", include_str!("../../templates/claim.tex.tera")),
    (
        "report.tex",
        include_str!("../../templates/report.tex.tera"),
    ),
    (
        "all-reports.tex",
        include_str!("../../templates/all-reports.tex.tera"),
    ),
    (
        "references.bib",
        include_str!("../../templates/references.bib.tera"),
    ),
    ("study.tex", include_str!("../../templates/study.tex.tera")),
    ("atlas.tex", include_str!("../../templates/atlas.tex.tera")),
];

/// A command line for LaTeX: escaped, in `\\texttt`, with a permitted line break after every
/// `/`, `=`, `,` and `.`, and after a `-` inside a word (`prop-3.1`, not `--only`), so a long
/// path or claim id never runs into the margin; a break adds no character, so the command still
/// pastes as printed.
pub fn latex_command(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::from("\\texttt{");
    let mut piece = String::new();
    for (i, &c) in chars.iter().enumerate() {
        piece.push(c);
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        let breaks = matches!(c, '/' | '=' | ',' | '.')
            || (c == '-' && word(i.checked_sub(1)) && word(Some(i + 1)));
        if breaks {
            out.push_str(&escape_latex(&piece));
            out.push_str("\\allowbreak{}");
            piece.clear();
        }
    }
    out.push_str(&escape_latex(&piece));
    out.push('}');
    out
}

/// The Markdown and LaTeX template engines, with the escaping filters registered.
pub struct Renderer {
    md: Tera,
    tex: Tera,
}

fn template_error(name: &str, e: tera::Error) -> Error {
    let mut msg = format!("template {name}: {e}");
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        msg.push_str(&format!(": {s}"));
        source = s.source();
    }
    Error::invalid(msg)
}

impl Renderer {
    /// The renderer with the built-in templates.
    pub fn new() -> Result<Renderer> {
        Renderer::with_templates(&TEMPLATES_MD, &TEMPLATES_TEX)
    }

    /// The renderer of a study: the built-in templates, with `study.md` and `study.tex`
    /// replaced by the study's own where it has them.
    pub fn for_study(templates: &crate::study::Templates) -> Result<Renderer> {
        fn replaced<'a>(
            builtin: &[(&'a str, &'a str)],
            name: &str,
            own: Option<&'a crate::study::UserTemplate>,
        ) -> Vec<(&'a str, &'a str)> {
            builtin
                .iter()
                .map(|&(n, src)| match own {
                    Some(t) if n == name => (n, t.source.as_str()),
                    _ => (n, src),
                })
                .collect()
        }
        let md = replaced(&TEMPLATES_MD, "study.md", templates.md.as_ref());
        let tex = replaced(&TEMPLATES_TEX, "study.tex", templates.tex.as_ref());
        Renderer::with_templates(&md, &tex)
    }

    /// A renderer with other template sources (same names as the built-in ones).
    pub fn with_templates(md: &[(&str, &str)], tex: &[(&str, &str)]) -> Result<Renderer> {
        let mut md_tera = Tera::new();
        md_tera.autoescape_on(Vec::<&str>::new());
        register_filters(&mut md_tera);
        for (name, src) in md {
            md_tera
                .add_raw_template(name, src)
                .map_err(|e| template_error(name, e))?;
        }
        let mut tex_tera = Tera::new();
        tex_tera.autoescape_on(Vec::<&str>::new());
        tex_tera
            .set_delimiters(Delimiters {
                block_start: "<%".into(),
                block_end: "%>".into(),
                variable_start: "<<".into(),
                variable_end: ">>".into(),
                comment_start: "<#".into(),
                comment_end: "#>".into(),
            })
            .map_err(|e| template_error("(LaTeX delimiters)", e))?;
        register_filters(&mut tex_tera);
        tex_tera.register_filter("tex_cmd", |s: &str, _: Kwargs, _: &State| latex_command(s));
        for (name, src) in tex {
            tex_tera
                .add_raw_template(name, src)
                .map_err(|e| template_error(name, e))?;
        }
        Ok(Renderer {
            md: md_tera,
            tex: tex_tera,
        })
    }

    fn render(
        tera: &Tera,
        name: &str,
        key: &'static str,
        value: &impl serde::Serialize,
    ) -> Result<String> {
        let mut ctx = Context::new();
        ctx.insert(key, value);
        tera.render(name, &ctx).map_err(|e| template_error(name, e))
    }

    /// A report as Markdown.
    pub fn report_markdown(&self, report: &Report) -> Result<String> {
        Renderer::render(&self.md, "report.md", "report", report)
    }

    /// A report as LaTeX.
    pub fn report_latex(&self, report: &Report) -> Result<String> {
        Renderer::render(&self.tex, "report.tex", "report", report)
    }

    /// Every report in one LaTeX document with a table of contents (`all-reports.tex`).
    pub fn combined_latex(&self, index: &Index) -> Result<String> {
        Renderer::render(&self.tex, "all-reports.tex", "index", index)
    }

    /// The BibTeX file of the papers and of nimlab (`references.bib`).
    pub fn bibliography(&self, index: &Index) -> Result<String> {
        Renderer::render(&self.tex, "references.bib", "index", index)
    }

    /// A study's report as Markdown.
    pub fn study_markdown(&self, study: &StudyReport) -> Result<String> {
        Renderer::render(&self.md, "study.md", "study", study)
    }

    /// A study's report as LaTeX.
    pub fn study_latex(&self, study: &StudyReport) -> Result<String> {
        Renderer::render(&self.tex, "study.tex", "study", study)
    }

    /// An atlas of `nimlab discover` as Markdown.
    pub fn atlas_markdown(&self, atlas: &AtlasReport) -> Result<String> {
        Renderer::render(&self.md, "atlas.md", "atlas", atlas)
    }

    /// An atlas of `nimlab discover` as LaTeX.
    pub fn atlas_latex(&self, atlas: &AtlasReport) -> Result<String> {
        Renderer::render(&self.tex, "atlas.tex", "atlas", atlas)
    }

    /// The index of the reports as Markdown.
    pub fn index_markdown(&self, index: &Index) -> Result<String> {
        Renderer::render(&self.md, "index.md", "index", index)
    }
}

/// A context as pretty-printed JSON with a final newline: fields in declaration order, so two
/// renders of the same context are byte-identical.
pub fn context_json(value: &impl serde::Serialize) -> Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::invalid(format!("the report context does not serialize: {e}")))?;
    bytes.push(b'\n');
    Ok(bytes)
}
