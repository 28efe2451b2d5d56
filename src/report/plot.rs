//! SVG figures for the Markdown reports, drawn with plotters from the same numbers that go to
//! the figure's CSV (which pgfplots reads for LaTeX). Pure: numbers in, SVG text out. plotters'
//! SVG backend with its built-in text metrics writes no timestamps, ids or font-dependent
//! layout, so the bytes depend only on the input.
//!
//! Two things the backend does not do for us. It rounds every coordinate to a whole pixel, which
//! turns a straight line of slope 11/16 into a staircase: so the figure is drawn [`OVERSAMPLE`]
//! times larger and the `<svg>` element shown at [`SIZE`] (its `viewBox` keeps the drawing
//! size), leaving a rounding error of a fraction of a display pixel. And SVG text cannot
//! typeset TeX: labels arrive with mathematics in `$…$` spans (the house convention, which
//! pgfplots typesets), and [`plain_math`] turns them into Unicode for the SVG.

use plotters::prelude::*;

use super::context::{Bounds, SeriesStyle, VLine};
use crate::error::{Error, Result};

/// Width and height of every figure, in SVG pixels.
pub const SIZE: (u32, u32) = (720, 420);

/// How many drawing units make one display pixel (see the module documentation).
pub const OVERSAMPLE: u32 = 4;

/// A length in display pixels as drawing units.
fn px(n: u32) -> u32 {
    n * OVERSAMPLE
}

/// A length in display pixels as signed drawing units (offsets, radii).
fn ipx(n: i32) -> i32 {
    n * OVERSAMPLE as i32
}

/// The legend in the upper left corner (pgfplots' name).
pub const LEGEND_NORTH_WEST: &str = "north west";

/// The legend in the upper right corner (pgfplots' name).
pub const LEGEND_NORTH_EAST: &str = "north east";

/// A curve to draw.
#[derive(Clone, Debug)]
pub struct Curve {
    /// Legend entry.
    pub label: String,
    /// pgfplots color name (see [`rgb`]).
    pub color: String,
    /// Points in the order drawn.
    pub points: Vec<(f64, f64)>,
    /// Line, line with markers, or markers only.
    pub style: SeriesStyle,
}

/// Everything a figure shows.
#[derive(Clone, Debug)]
pub struct Plot {
    /// x axis label.
    pub x_label: String,
    /// y axis label.
    pub y_label: String,
    /// Axis bounds.
    pub bounds: Bounds,
    /// Curves.
    pub curves: Vec<Curve>,
    /// Marked points and their legend entry.
    pub marks: Option<(String, Vec<(f64, f64)>)>,
    /// Vertical dashed lines.
    pub vlines: Vec<VLine>,
    /// The legend's corner: `north east`, or else upper left.
    pub legend: String,
}

/// The RGB value of a pgfplots color name, so both renderings use the same colors.
pub fn rgb(name: &str) -> RGBColor {
    match name {
        "red" => RGBColor(255, 0, 0),
        "teal" => RGBColor(0, 128, 128),
        "orange" => RGBColor(255, 128, 0),
        "violet" => RGBColor(128, 0, 128),
        "gray" => RGBColor(128, 128, 128),
        "black" => RGBColor(0, 0, 0),
        _ => RGBColor(0, 0, 255),
    }
}

fn axis_number(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", *v as i64)
    } else {
        format!("{v}")
    }
}

/// Draws a plot as SVG text.
pub fn svg(plot: &Plot) -> Result<String> {
    let mut out = String::new();
    draw(plot, &mut out).map_err(|e| Error::invalid(format!("drawing the figure: {e}")))?;
    // Shown at SIZE: the drawing keeps its own units through the viewBox.
    let drawn = format!("<svg width=\"{}\" height=\"{}\"", px(SIZE.0), px(SIZE.1));
    let shown = format!("<svg width=\"{}\" height=\"{}\"", SIZE.0, SIZE.1);
    Ok(out.replacen(&drawn, &shown, 1))
}

/// Everything a heat map shows.
#[derive(Clone, Debug)]
pub struct HeatPlot {
    /// x axis label.
    pub x_label: String,
    /// y axis label.
    pub y_label: String,
    /// The colour bar's label.
    pub z_label: String,
    /// Axis bounds.
    pub bounds: Bounds,
    /// The cells: centre (x, y) and value.
    pub cells: Vec<(f64, f64, f64)>,
    /// A cell's width and height.
    pub cell: (f64, f64),
    /// The least and greatest value (the colour scale's ends).
    pub range: (f64, f64),
}

/// A heat map as SVG text: a viridis-coloured rectangle per cell (the colormap pgfplots names
/// `viridis`, so both renderings agree), and a colour bar with the scale's ends.
pub fn heatmap_svg(plot: &HeatPlot) -> Result<String> {
    let mut out = String::new();
    draw_heatmap(plot, &mut out).map_err(|e| Error::invalid(format!("drawing the figure: {e}")))?;
    let drawn = format!("<svg width=\"{}\" height=\"{}\"", px(SIZE.0), px(SIZE.1));
    let shown = format!("<svg width=\"{}\" height=\"{}\"", SIZE.0, SIZE.1);
    Ok(out.replacen(&drawn, &shown, 1))
}

fn draw_heatmap(
    plot: &HeatPlot,
    out: &mut String,
) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(out, (px(SIZE.0), px(SIZE.1))).into_drawing_area();
    root.fill(&WHITE)?;
    let (main, bar) = root.split_horizontally(px(SIZE.0 - 110));
    let mut chart = axes(&main, plot.bounds, &plot.x_label, &plot.y_label, Mesh::None)?;
    let (lo, hi) = plot.range;
    let colour = |v: f64| -> RGBColor {
        if hi > lo {
            ViridisRGB::get_color_normalized(v, lo, hi)
        } else {
            ViridisRGB::get_color(0.5)
        }
    };
    let (w, h) = (plot.cell.0 / 2.0, plot.cell.1 / 2.0);
    chart.draw_series(
        plot.cells
            .iter()
            .map(|&(x, y, v)| Rectangle::new([(x - w, y - h), (x + w, y + h)], colour(v).filled())),
    )?;
    // The colour bar: the scale from the least value (bottom) to the greatest (top).
    let bar = bar.margin(px(30), px(60), px(10), px(30));
    let bar_h = bar.dim_in_pixel().1;
    let steps = 64u32;
    let strip = bar_h / steps + 1;
    for i in 0..steps {
        let t = f64::from(i) / f64::from(steps - 1);
        let top = bar_h.saturating_sub((i + 1) * bar_h / steps) as i32;
        bar.draw(&Rectangle::new(
            [(0, top), (ipx(20), top + strip as i32)],
            ViridisRGB::get_color(t).filled(),
        ))?;
    }
    let font = ("sans-serif", px(14)).into_font();
    bar.draw(&Text::new(axis_number(&hi), (ipx(24), 0), font.clone()))?;
    bar.draw(&Text::new(
        axis_number(&lo),
        (ipx(24), bar_h as i32 - ipx(14)),
        font.clone(),
    ))?;
    bar.draw(&Text::new(
        plain_math(&plot.z_label),
        (0, bar_h as i32 + ipx(8)),
        font,
    ))?;
    root.present()?;
    Ok(())
}

/// The Unicode form of a label with TeX mathematics in `$…$` spans, for SVG text: the dollars
/// dropped, `\mathrm{…}`, `\text{…}` and braces unwrapped, the usual symbols (≤, ·, |·|, {…},
/// ⌊·⌋, −, …) as characters, sub- and superscripts as Unicode sub/superscript characters where
/// every character of the script has one, else as `_x` / `^x`. Text outside the spans is kept.
pub fn plain_math(label: &str) -> String {
    let mut out = String::new();
    for (i, part) in label.split('$').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        } else {
            out.push_str(&math_to_unicode(part));
        }
    }
    out
}

/// The TeX commands a label may hold, as characters.
const SYMBOLS: [(&str, &str); 38] = [
    ("lvert", "|"),
    ("rvert", "|"),
    ("mid", "|"),
    ("le", "≤"),
    ("leq", "≤"),
    ("ge", "≥"),
    ("geq", "≥"),
    ("ne", "≠"),
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
    ("dots", "…"),
    ("ldots", "…"),
    ("min", "min"),
    ("max", "max"),
    ("quad", " "),
    ("mathcal", ""),
    ("mathfrak", ""),
    ("mathbb", ""),
    ("left", ""),
    ("sum", "Σ"),
    ("prod", "Π"),
    ("log", "log"),
    ("sup", "sup"),
    ("inf", "inf"),
    ("bmod", " mod "),
    ("cup", "∪"),
    ("subseteq", "⊆"),
];

fn script_char(c: char, sup: bool) -> Option<char> {
    const DIGITS_SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    const DIGITS_SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    if let Some(d) = c.to_digit(10) {
        return Some(if sup { DIGITS_SUP } else { DIGITS_SUB }[d as usize]);
    }
    let table: &[(char, char)] = if sup {
        &[
            ('+', '⁺'),
            ('-', '⁻'),
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
            ('-', '₋'),
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

/// One `$…$` body as Unicode (see [`plain_math`]).
fn math_to_unicode(tex: &str) -> String {
    let chars: Vec<char> = tex.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                let name: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect();
                i += 1 + name.len();
                if name.is_empty() {
                    // `\,` `\;` `\ ` are spaces, `\{` a brace.
                    if let Some(&c) = chars.get(i) {
                        out.push_str(match c {
                            ',' | ';' | ' ' | '!' => " ",
                            _ => "",
                        });
                        if !matches!(c, ',' | ';' | ' ' | '!') {
                            out.push(c);
                        }
                        i += 1;
                    }
                    continue;
                }
                if let Some((_, sym)) = SYMBOLS.iter().find(|(n, _)| *n == name) {
                    // Delimiters hug what they enclose: `\lvert N \rvert` is |N|.
                    if matches!(name.as_str(), "rvert" | "rfloor" | "rceil" | "rbrace") {
                        while out.ends_with(' ') {
                            out.pop();
                        }
                    }
                    out.push_str(sym);
                    if matches!(name.as_str(), "lvert" | "lfloor" | "lceil" | "lbrace") {
                        while chars.get(i) == Some(&' ') {
                            i += 1;
                        }
                    }
                }
                // \mathrm{…}, \text{…}, \operatorname{…}: the group is read as text below.
            }
            '^' | '_' => {
                let sup = chars[i] == '^';
                let (group, next) = group_at(&chars, i + 1);
                let inner = math_to_unicode(&group);
                let scripted: Option<String> = inner.chars().map(|c| script_char(c, sup)).collect();
                match scripted {
                    Some(s) if !inner.is_empty() => out.push_str(&s),
                    _ => {
                        out.push(chars[i]);
                        if inner.chars().count() > 1 {
                            out.push_str(&format!("({inner})"));
                        } else {
                            out.push_str(&inner);
                        }
                    }
                }
                i = next;
            }
            '{' | '}' => i += 1,
            '-' => {
                out.push('−');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The script group starting at `start`: a `{…}` group (braces balanced) or one character or
/// command; and the index after it.
fn group_at(chars: &[char], start: usize) -> (String, usize) {
    match chars.get(start) {
        Some('{') => {
            let mut depth = 0;
            for (j, &c) in chars.iter().enumerate().skip(start) {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            return (chars[start + 1..j].iter().collect(), j + 1);
                        }
                    }
                    _ => {}
                }
            }
            (chars[start + 1..].iter().collect(), chars.len())
        }
        Some('\\') => {
            let len = chars[start + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .count()
                .max(1);
            (
                chars[start..start + 1 + len].iter().collect(),
                start + 1 + len,
            )
        }
        Some(&c) => (c.to_string(), start + 1),
        None => (String::new(), start),
    }
}

/// The grid lines behind a chart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mesh {
    /// Light grid lines at the labelled ticks (curves).
    Grid,
    /// None (a heat map's cells fill the plane).
    None,
}

/// A chart on `area` with the given bounds, its axes labelled and ticked as every figure is.
fn axes<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    b: Bounds,
    x_label: &str,
    y_label: &str,
    mesh: Mesh,
) -> std::result::Result<
    ChartContext<
        'a,
        SVGBackend<'b>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    Box<dyn std::error::Error>,
> {
    let (x0, x1) = (b.x_min as f64, b.x_max as f64);
    let (y0, y1) = (b.y_min as f64, b.y_max as f64);
    let mut chart = ChartBuilder::on(area)
        .margin(px(18))
        .x_label_area_size(px(44))
        .y_label_area_size(px(60))
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let (x_label, y_label) = (plain_math(x_label), plain_math(y_label));
    let mut style = chart.configure_mesh();
    style
        .x_desc(x_label.as_str())
        .y_desc(y_label.as_str())
        .x_label_formatter(&axis_number)
        .y_label_formatter(&axis_number)
        .axis_style(BLACK.stroke_width(px(1)))
        .set_tick_mark_size(LabelAreaPosition::Left, ipx(5))
        .set_tick_mark_size(LabelAreaPosition::Bottom, ipx(5))
        .label_style(("sans-serif", px(14)))
        .axis_desc_style(("sans-serif", px(16)));
    match mesh {
        Mesh::Grid => style
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(210, 210, 210).stroke_width(px(1))),
        Mesh::None => style.disable_mesh(),
    };
    style.draw()?;
    Ok(chart)
}

fn draw(plot: &Plot, out: &mut String) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let b = plot.bounds;
    let (y0, y1) = (b.y_min as f64, b.y_max as f64);
    let root = SVGBackend::with_string(out, (px(SIZE.0), px(SIZE.1))).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = axes(&root, b, &plot.x_label, &plot.y_label, Mesh::Grid)?;
    // Neighbouring labels (the lines come sorted by x) alternate between two rows, so labels
    // of close lines never print on top of each other; pgfplots does the same.
    for (row, v) in plot.vlines.iter().enumerate() {
        let x = v.x as f64;
        chart.draw_series(DashedLineSeries::new(
            [(x, y0), (x, y1)],
            px(6),
            px(4),
            rgb("gray").stroke_width(px(1)),
        ))?;
        let label = EmptyElement::at((x, y1))
            + Text::new(
                plain_math(&v.label),
                (ipx(5), ipx(5) + ipx(16) * (row % 2) as i32),
                ("sans-serif", px(13)).into_font().color(&rgb("gray")),
            );
        chart.draw_series(std::iter::once(label))?;
    }
    for c in &plot.curves {
        let color = rgb(&c.color);
        let radius = ipx(2) + ipx(1) / 2;
        let label = plain_math(&c.label);
        let line_width = px(if c.style == SeriesStyle::Line { 2 } else { 1 });
        if c.style != SeriesStyle::Dots {
            let drawn = chart.draw_series(LineSeries::new(
                c.points.iter().copied(),
                color.stroke_width(line_width),
            ))?;
            if c.style == SeriesStyle::Line {
                drawn.label(label.as_str()).legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + ipx(20), y)], color.stroke_width(line_width))
                });
            }
        }
        if c.style != SeriesStyle::Line {
            let with_line = c.style == SeriesStyle::Markers;
            chart
                .draw_series(
                    c.points
                        .iter()
                        .map(|&p| Circle::new(p, radius, color.filled())),
                )?
                .label(label.as_str())
                .legend(move |(x, y)| {
                    let line = if with_line { ipx(20) } else { 0 };
                    EmptyElement::at((x, y))
                        + PathElement::new([(0, 0), (line, 0)], color.stroke_width(px(1)))
                        + Circle::new((ipx(10), 0), radius, color.filled())
                });
        }
    }
    if let Some((label, points)) = &plot.marks {
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, ipx(4), BLACK.filled())),
            )?
            .label(plain_math(label))
            .legend(|(x, y)| Circle::new((x + ipx(10), y), ipx(4), BLACK.filled()));
    }
    chart
        .configure_series_labels()
        .position(if plot.legend == LEGEND_NORTH_EAST {
            SeriesLabelPosition::UpperRight
        } else {
            SeriesLabelPosition::UpperLeft
        })
        .margin(px(10))
        .legend_area_size(px(30))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(160, 160, 160).stroke_width(px(1)))
        .label_font(("sans-serif", px(14)))
        .draw()?;
    root.present()?;
    Ok(())
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
        // No subscript capitals in Unicode: the plain TeX form stays readable.
        assert_eq!(plain_math("$N_L$"), "N_L");
        assert_eq!(plain_math("$f_N(5,4,2)$"), "f_N(5,4,2)");
        assert_eq!(plain_math("$V = N_L - N_W$"), "V = N_L − N_W");
        assert_eq!(plain_math("$2^{k+1}$"), "2ᵏ⁺¹");
        assert_eq!(plain_math("$n_0 + 16$"), "n₀ + 16");
        assert_eq!(
            plain_math("$\\sum_{i=0}^{\\lfloor \\log_2 k\\rfloor} 2^i$"),
            "Σ_(i=0)^(⌊log₂ k⌋) 2ⁱ"
        );
        assert_eq!(plain_math("no math"), "no math");
    }

    fn a_plot(style: SeriesStyle) -> Plot {
        Plot {
            x_label: "$n$".into(),
            y_label: "$f^{\\mathrm{I}}(n)$".into(),
            bounds: Bounds {
                x_min: 0,
                x_max: 16,
                y_min: 0,
                y_max: 12,
                x_step: 2,
                y_step: 2,
            },
            curves: vec![Curve {
                label: "$f^{\\mathrm{I}}$".into(),
                color: "blue".into(),
                points: (0..=16)
                    .map(|n| (f64::from(n), f64::from(n) * 11.0 / 16.0))
                    .collect(),
                style,
            }],
            marks: None,
            vlines: vec![VLine {
                x: 8,
                label: "$n_0$".into(),
            }],
            legend: LEGEND_NORTH_WEST.into(),
        }
    }

    #[test]
    fn labels_of_neighbouring_lines_go_on_different_rows() {
        let mut p = a_plot(SeriesStyle::Line);
        p.vlines = vec![
            VLine {
                x: 8,
                label: "left".into(),
            },
            VLine {
                x: 9,
                label: "right".into(),
            },
        ];
        let svg = svg(&p).unwrap();
        // The y attribute of the <text> element holding `label`.
        let y_of = |label: &str| {
            let end = svg.find(&format!(">\n{label}\n<")).unwrap();
            let start = svg[..end].rfind("<text").unwrap();
            let tag = &svg[start..end];
            let y = tag.find(" y=\"").unwrap() + 4;
            tag[y..y + tag[y..].find('"').unwrap()]
                .parse::<f64>()
                .unwrap()
        };
        assert!(y_of("right") > y_of("left"));
    }

    #[test]
    fn the_svg_is_shown_at_its_size_with_no_tex_in_its_text() {
        let svg = svg(&a_plot(SeriesStyle::Line)).unwrap();
        let (w, h) = (SIZE.0 * OVERSAMPLE, SIZE.1 * OVERSAMPLE);
        assert!(svg.starts_with(&format!(
            "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {w} {h}\"",
            SIZE.0, SIZE.1
        )));
        assert!(!svg.contains('$') && !svg.contains("mathrm"));
        assert!(svg.contains("fᴵ") && svg.contains("n₀"));
        // No markers asked, none drawn; asked, one per point.
        assert!(!svg.contains("<circle"));
        let marked = super::svg(&a_plot(SeriesStyle::Markers)).unwrap();
        assert_eq!(marked.matches("<circle").count(), 17 + 1);
        assert!(marked.contains("<polyline"));
        let dots = super::svg(&a_plot(SeriesStyle::Dots)).unwrap();
        assert_eq!(dots.matches("<circle").count(), 17 + 1);
    }
}
