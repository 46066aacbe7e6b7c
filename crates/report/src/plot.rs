//! A line over steps (the SPRT's LLR after each pair, a tune's parameter
//! after each iteration), with labelled horizontal reference lines: inline
//! SVG in the page's classes, so every chart of a line looks alike.

use std::fmt::Write;

use crate::escape::esc;

/// A horizontal reference line: its value, CSS class and label.
pub(crate) struct Reference<'a> {
    pub(crate) value: f64,
    pub(crate) class: &'a str,
    pub(crate) label: String,
}

/// A line chart of `path` (one value a step, drawn from `origin` at step 0
/// if given) with `references`, in a `<figure>` with `caption`.
pub(crate) fn line_plot(
    out: &mut String,
    id: &str,
    origin: Option<f64>,
    path: &[f64],
    references: &[Reference<'_>],
    steps: &str,
    caption: &str,
) -> std::fmt::Result {
    let (w, h, left, top, bottom) = (760.0, 260.0, 50.0, 10.0, 30.0);
    let values = path
        .iter()
        .chain(origin.iter())
        .chain(references.iter().map(|r| &r.value));
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    let pad = ((hi - lo) * 0.05).max(0.3);
    let (lo, hi) = if lo.is_finite() {
        (lo - pad, hi + pad)
    } else {
        (-1.0, 1.0)
    };
    let n = path.len().max(1) as f64;
    let x = |i: f64| left + i / n * (w - left - 10.0);
    let y = |v: f64| top + (hi - v) / (hi - lo) * (h - top - bottom);
    writeln!(out, "<figure class=\"plot\"><svg id=\"{}\" role=\"img\" aria-label=\"{}\" viewBox=\"0 0 {w} {h}\">", esc(id), esc(caption))?;
    for r in references {
        writeln!(out, "<line class=\"{}\" x1=\"{left}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            r.class, w - 10.0, y(r.value), y(r.value), left - 4.0, y(r.value) + 4.0, esc(&r.label))?;
    }
    let mut points = String::new();
    if let Some(o) = origin {
        write!(points, "{:.1},{:.1}", x(0.0), y(o))?;
    }
    for (i, v) in path.iter().enumerate() {
        write!(points, " {:.1},{:.1}", x(i as f64 + 1.0), y(*v))?;
    }
    writeln!(out, "<polyline class=\"llr\" points=\"{}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{} {}</text></svg><figcaption>{}</figcaption></figure>",
        points.trim_start(), w - 10.0, h - 8.0, path.len(), esc(steps), esc(caption))
}
