//! Pure renderers: a context in, the text of a Markdown or LaTeX file out, through the Tera
//! templates in `templates/` (compiled into the binary), or the context itself as JSON — the
//! one data model the templates see, for readers who want the numbers rather than the prose.
//! Markdown templates use Tera's usual `{{ }}` / `{% %}`; LaTeX templates use `<< >>`, `<% %>`
//! and `<# #>`, because `{{`, `{%` and `{#` are everyday LaTeX.

use tera::{Context, Delimiters, Tera};

use super::context::{Index, Report};
use super::escape::register_filters;
use crate::error::{Error, Result};

/// The built-in templates: (name, source).
pub const TEMPLATES_MD: [(&str, &str); 2] = [
    ("report.md", include_str!("../../templates/report.md.tera")),
    ("index.md", include_str!("../../templates/index.md.tera")),
];

/// The built-in LaTeX template: (name, source).
pub const TEMPLATES_TEX: [(&str, &str); 1] = [(
    "report.tex",
    include_str!("../../templates/report.tex.tera"),
)];

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
