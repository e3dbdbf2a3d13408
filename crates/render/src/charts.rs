//! Inline SVG charts for `report.html`, drawn here (no script, no font
//! or file fetched): line charts over time, horizontal bar charts and the
//! error scatter (log-scale error against an input).

use crate::reports::escape_markup as esc;

/// Width of every chart, in pixels.
const W: f64 = 720.0;
/// Height of the plotting area's chart (axes included).
const H: f64 = 300.0;
/// Margins: left, right, top, bottom.
const ML: f64 = 70.0;
const MR: f64 = 20.0;
const MT: f64 = 34.0;
const MB: f64 = 46.0;

/// Colours of series, in order (distinct also for colour-blind readers).
pub(crate) const PALETTE: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8b4513", "#6a3d9a",
];

/// A number for an axis label: short, exact enough.
pub(crate) fn short(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-3..1e5).contains(&a) {
        let s = format!("{x:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        s.to_string()
    } else {
        format!("{x:.2e}")
    }
}

/// About `n` round tick values covering [lo, hi].
fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) || !lo.is_finite() || !hi.is_finite() {
        return vec![lo];
    }
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 && out.len() < 50 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// The frame of a chart: title, axes, grid and labels; `xs`/`ys` map data
/// to pixels; ticks given as (value, label).
struct Frame {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Frame {
    fn new(x0: f64, x1: f64, y0: f64, y1: f64) -> Frame {
        let widen = |a: f64, b: f64| if b > a { (a, b) } else { (a - 0.5, a + 0.5) };
        let (x0, x1) = widen(x0, x1);
        let (y0, y1) = widen(y0, y1);
        Frame { x0, x1, y0, y1 }
    }
    fn px(&self, x: f64) -> f64 {
        ML + (x - self.x0) / (self.x1 - self.x0) * (W - ML - MR)
    }
    fn py(&self, y: f64) -> f64 {
        H - MB - (y - self.y0) / (self.y1 - self.y0) * (H - MT - MB)
    }
    /// The opening of the SVG with title, axes, grid and tick labels.
    fn open(&self, title: &str, x_label: &str, y_label: &str, xt: &[(f64, String)], yt: &[(f64, String)]) -> String {
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{t}\">\n<title>{t}</title>\n<rect x=\"0\" y=\"0\" width=\"{W}\" height=\"{H}\" fill=\"#ffffff\"/>\n<text x=\"{ML}\" y=\"20\" class=\"ct\">{t}</text>\n",
            t = esc(title)
        );
        for (v, label) in yt {
            let y = self.py(*v);
            s.push_str(&format!(
                "<line x1=\"{ML}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#e3e3e3\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" class=\"tk\" text-anchor=\"end\">{}</text>\n",
                W - MR,
                ML - 6.0,
                y + 4.0,
                esc(label)
            ));
        }
        for (v, label) in xt {
            let x = self.px(*v);
            s.push_str(&format!(
                "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{MT}\" y2=\"{:.1}\" stroke=\"#f0f0f0\"/>\n<text x=\"{x:.1}\" y=\"{:.1}\" class=\"tk\" text-anchor=\"middle\">{}</text>\n",
                H - MB,
                H - MB + 16.0,
                esc(label)
            ));
        }
        s.push_str(&format!(
            "<line x1=\"{ML}\" x2=\"{ML}\" y1=\"{MT}\" y2=\"{b:.1}\" stroke=\"#333\"/>\n<line x1=\"{ML}\" x2=\"{:.1}\" y1=\"{b:.1}\" y2=\"{b:.1}\" stroke=\"#333\"/>\n",
            W - MR,
            b = H - MB
        ));
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"al\" text-anchor=\"middle\">{}</text>\n",
            (ML + W - MR) / 2.0,
            H - 8.0,
            esc(x_label)
        ));
        s.push_str(&format!(
            "<text x=\"14\" y=\"{:.1}\" class=\"al\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1})\">{}</text>\n",
            (MT + H - MB) / 2.0,
            (MT + H - MB) / 2.0,
            esc(y_label)
        ));
        s
    }
}

/// A series of a line chart.
pub(crate) struct Series {
    /// Legend.
    pub name: String,
    /// Colour (CSS).
    pub colour: &'static str,
    /// Points (x, y), by x.
    pub points: Vec<(f64, f64)>,
}

/// Lines over a shared x axis (step lines: counters hold until the next
/// sample), with a legend; `y_max` fixes the top of the y axis.
pub(crate) fn line_chart(title: &str, x_label: &str, y_label: &str, series: &[Series], y_max: Option<f64>) -> String {
    let all = series.iter().flat_map(|s| s.points.iter());
    let x1 = all.clone().map(|p| p.0).fold(0.0, f64::max);
    let ytop = y_max.unwrap_or_else(|| all.map(|p| p.1).fold(0.0, f64::max)).max(1.0);
    let f = Frame::new(0.0, x1, 0.0, ytop * 1.05);
    let xt: Vec<(f64, String)> = ticks(0.0, f.x1, 8).into_iter().map(|t| (t, short(t))).collect();
    let yt: Vec<(f64, String)> = ticks(0.0, ytop, 5).into_iter().map(|t| (t, short(t))).collect();
    let mut s = f.open(title, x_label, y_label, &xt, &yt);
    for (i, se) in series.iter().enumerate() {
        let mut d = String::new();
        for (k, (x, y)) in se.points.iter().enumerate() {
            if k == 0 {
                d.push_str(&format!("M{:.1},{:.1}", f.px(*x), f.py(*y)));
            } else {
                d.push_str(&format!(" H{:.1} V{:.1}", f.px(*x), f.py(*y)));
            }
        }
        if se.points.len() == 1 {
            let (x, y) = se.points[0];
            s.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{}\"/>\n",
                f.px(x),
                f.py(y),
                se.colour
            ));
        }
        s.push_str(&format!(
            "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
            se.colour
        ));
        let ly = MT + 4.0 + 16.0 * i as f64;
        let lx = W - MR - 190.0;
        s.push_str(&format!(
            "<rect x=\"{lx}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" class=\"lg\">{}</text>\n",
            ly,
            se.colour,
            lx + 18.0,
            ly + 10.0,
            esc(&se.name)
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// One bar of a bar chart: label, value, colour, and a note after the
/// value.
pub(crate) struct Bar {
    /// Label (left of the bar).
    pub label: String,
    /// Length.
    pub value: f64,
    /// Colour (CSS).
    pub colour: &'static str,
    /// Shown after the value.
    pub note: String,
}

/// Horizontal bars, one per row, labelled on the left.
pub(crate) fn bar_chart(title: &str, bars: &[Bar]) -> String {
    let row = 24.0;
    let label_w = 300.0;
    let top = 34.0;
    let h = top + row * bars.len().max(1) as f64 + 14.0;
    let max = bars.iter().map(|b| b.value).fold(0.0, f64::max).max(1.0);
    let span = W - label_w - 250.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{W}\" height=\"{h}\" viewBox=\"0 0 {W} {h}\" role=\"img\" aria-label=\"{t}\">\n<title>{t}</title>\n<rect x=\"0\" y=\"0\" width=\"{W}\" height=\"{h}\" fill=\"#ffffff\"/>\n<text x=\"10\" y=\"20\" class=\"ct\">{t}</text>\n",
        t = esc(title)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = top + row * i as f64;
        let len = (b.value / max * span).max(if b.value > 0.0 { 2.0 } else { 0.0 });
        let label: String = if b.label.chars().count() > 44 {
            let tail: String = b
                .label
                .chars()
                .rev()
                .take(43)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            format!("…{tail}")
        } else {
            b.label.clone()
        };
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tk\" text-anchor=\"end\">{}</text>\n<rect class=\"bar\" x=\"{label_w}\" y=\"{:.1}\" width=\"{len:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}: {}</title></rect>\n<text x=\"{:.1}\" y=\"{:.1}\" class=\"tk\">{} {}</text>\n",
            label_w - 8.0,
            y + 15.0,
            esc(&label),
            y + 3.0,
            row - 6.0,
            b.colour,
            esc(&b.label),
            short(b.value),
            label_w + len + 6.0,
            y + 15.0,
            short(b.value),
            esc(&b.note)
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// The least distance in pixels between two x tick labels' centres.
const MIN_TICK_GAP: f64 = 44.0;

/// How the scatter's x axis maps values: linear, or a signed logarithm
/// when the inputs span many binades.
#[derive(Clone, Copy)]
enum XScale {
    Linear,
    /// sign(x) · log10(1 + |x| / c).
    SymLog(f64),
}

impl XScale {
    /// Linear unless most inputs (all but the smallest 5%) span more than
    /// four decades of magnitude.
    fn of(xs: &[f64]) -> XScale {
        let mut a: Vec<f64> = xs
            .iter()
            .map(|x| x.abs())
            .filter(|a| *a > 0.0 && a.is_finite())
            .collect();
        a.sort_by(f64::total_cmp);
        let (Some(&max), Some(&p05)) = (a.last(), a.get(a.len() / 20)) else {
            return XScale::Linear;
        };
        if p05 >= max * 1e-4 {
            XScale::Linear
        } else {
            XScale::SymLog(p05)
        }
    }
    fn map(self, x: f64) -> f64 {
        match self {
            XScale::Linear => x,
            // log10(1 + |x|/c), computed without dividing by a tiny c.
            XScale::SymLog(c) => x.signum() * ((c + x.abs()).log10() - c.log10()),
        }
    }
    #[cfg(test)]
    fn unmap(self, t: f64) -> f64 {
        match self {
            XScale::Linear => t,
            XScale::SymLog(c) => t.signum() * (10f64.powf(t.abs() + c.log10()) - c),
        }
    }
}

/// The relative error (y, log scale) against one input's value (x); zero
/// errors on a band at the bottom, infinite ones at the top; the worst
/// input marked. Points with a non-finite x are left out (counted in the
/// title).
pub(crate) fn error_scatter(title: &str, input: &str, points: &[(f64, f64)], worst: Option<(f64, f64)>) -> String {
    let finite: Vec<(f64, f64)> = points.iter().copied().filter(|p| p.0.is_finite()).collect();
    let left_out = points.len() - finite.len();
    let xs: Vec<f64> = finite.iter().map(|p| p.0).collect();
    let scale = XScale::of(&xs);
    let tx: Vec<f64> = xs.iter().map(|x| scale.map(*x)).collect();
    let (x0, x1) = tx
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(*x), b.max(*x)));
    let (x0, x1) = if x0.is_finite() { (x0, x1) } else { (0.0, 1.0) };
    let pad = ((x1 - x0) * 0.03).max(1e-12);
    // Error decades: from the smallest positive finite error to the
    // largest finite one; one decade below for zeros, one above for inf.
    let pos: Vec<f64> = finite
        .iter()
        .map(|p| p.1)
        .filter(|e| e.is_finite() && *e > 0.0)
        .collect();
    let lo = pos.iter().fold(f64::INFINITY, |a, e| a.min(*e));
    let hi = pos.iter().fold(f64::NEG_INFINITY, |a, e| a.max(*e));
    let (d0, d1) = if lo.is_finite() {
        (lo.log10().floor(), hi.log10().ceil().max(lo.log10().floor() + 1.0))
    } else {
        (-17.0, 0.0)
    };
    let (zero_y, inf_y) = (d0 - 1.0, d1 + 1.0);
    let f = Frame::new(x0 - pad, x1 + pad, zero_y - 0.3, inf_y + 0.3);
    let xt: Vec<(f64, String)> = match scale {
        XScale::Linear => ticks(f.x0, f.x1, 6).into_iter().map(|t| (t, short(t))).collect(),
        XScale::SymLog(c) => {
            // 0 and powers of ten, at most four on each side.
            let lo_k = c.log10().ceil() as i32;
            let hi_k = xs.iter().fold(c, |a, x| a.max(x.abs())).log10().floor() as i32;
            let step = ((hi_k - lo_k).max(0) / 3).max(1);
            let mut v = vec![(0.0, "0".to_string())];
            let mut k = hi_k;
            while k >= lo_k {
                for sign in [1.0, -1.0] {
                    let t = scale.map(sign * 10f64.powi(k));
                    if t >= f.x0 && t <= f.x1 {
                        v.push((t, format!("{}1e{k}", if sign < 0.0 { "-" } else { "" })));
                    }
                }
                k -= step;
            }
            // The powers of ten nearest the scale's constant all map near
            // 0 (and ±10^k near each other): keep a label only when it
            // is clear of those kept before it (0 first, then the
            // largest), or they print over each other.
            let mut kept: Vec<(f64, String)> = Vec::new();
            for (t, label) in v {
                if kept.iter().all(|(u, _)| (f.px(t) - f.px(*u)).abs() >= MIN_TICK_GAP) {
                    kept.push((t, label));
                }
            }
            kept
        }
    };
    let step = ((d1 - d0) / 8.0).ceil().max(1.0);
    let mut yt: Vec<(f64, String)> = Vec::new();
    let mut d = d0;
    while d <= d1 {
        yt.push((d, format!("1e{d}")));
        d += step;
    }
    yt.push((zero_y, "0".into()));
    yt.push((inf_y, "inf".into()));
    let x_label = match scale {
        XScale::Linear => input.to_string(),
        XScale::SymLog(_) => format!("{input} (signed log scale)"),
    };
    let title = if left_out > 0 {
        format!("{title} ({left_out} inputs not finite, not shown)")
    } else {
        title.to_string()
    };
    let mut s = f.open(&title, &x_label, "relative error (log scale)", &xt, &yt);
    let y_of = |e: f64| {
        if e.is_nan() || e.is_infinite() {
            inf_y
        } else if e <= 0.0 {
            zero_y
        } else {
            e.log10()
        }
    };
    s.push_str("<g class=\"pts\" fill=\"#0072b2\" fill-opacity=\"0.55\">\n");
    for (x, e) in &finite {
        s.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\"/>\n",
            f.px(scale.map(*x)),
            f.py(y_of(*e))
        ));
    }
    s.push_str("</g>\n");
    if let Some((x, e)) = worst.filter(|w| w.0.is_finite()) {
        let (cx, cy) = (f.px(scale.map(x)), f.py(y_of(e)));
        s.push_str(&format!(
            "<circle class=\"worst\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"7\" fill=\"none\" stroke=\"#d55e00\" stroke-width=\"2.5\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" class=\"lg\" fill=\"#d55e00\">worst: {}</text>\n",
            (cx + 10.0).min(W - 150.0),
            (cy - 8.0).max(MT + 10.0),
            esc(&short(x))
        ));
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(3.0, 3.0, 5), vec![3.0]);
        assert_eq!(short(0.25), "0.25");
        assert_eq!(short(1.5e20), "1.50e20");
    }

    #[test]
    fn scatter_draws_every_finite_point() {
        let pts = [
            (1.0, 1e-16),
            (2.0, 0.0),
            (3.0, f64::INFINITY),
            (f64::NAN, 1.0),
            (-50.0, 3e-3),
        ];
        let svg = error_scatter("e", "x", &pts, Some((-50.0, 3e-3)));
        assert_eq!(svg.matches("<circle cx").count(), 4, "{svg}");
        assert!(svg.contains("class=\"worst\""));
        assert!(svg.contains("1 inputs not finite"));
        // Inputs over many binades: a signed log axis.
        let wide = [(1e-300, 1.0), (1e300, 2.0), (-1e10, 1.0)];
        let svg = error_scatter("e", "y", &wide, None);
        assert!(svg.contains("signed log scale"));
        // Every point inside the plotting area.
        for c in svg.split("<circle cx=\"").skip(1) {
            let x: f64 = c.split('"').next().unwrap().parse().unwrap();
            assert!((ML..=W - MR).contains(&x), "{x}: {svg}");
        }
        // Inputs near ±100 and some tiny ones (the smallest 5% set the
        // scale's constant): no two x tick labels print over each other.
        let mut mixed: Vec<(f64, f64)> = (0..200).map(|k| (-100.0 + k as f64, 1e-16)).collect();
        mixed.extend((0..20).map(|k| (if k % 2 == 0 { 1.0 } else { -1.0 } * 1e-307 * (k + 1) as f64, 1e-10)));
        let svg = error_scatter("e", "x", &mixed, None);
        assert!(svg.contains("signed log scale"));
        let xs: Vec<f64> = svg
            .split("<text x=\"")
            .skip(1)
            .filter(|t| t.contains("text-anchor=\"middle\">") && t.contains("class=\"tk\""))
            .map(|t| t.split('"').next().unwrap().parse().unwrap())
            .collect();
        assert!(xs.len() >= 3, "{svg}");
        for (i, a) in xs.iter().enumerate() {
            for b in &xs[i + 1..] {
                assert!((a - b).abs() >= MIN_TICK_GAP, "labels at {a} and {b}: {svg}");
            }
        }
        let s = XScale::SymLog(5e-324);
        for x in [-1e300, -1.0, 0.0, 2.5e-300, 7.0] {
            let t = s.map(x);
            assert!(t.is_finite(), "{x}");
            assert!(
                (s.unmap(t) - x).abs() <= 1e-9 * x.abs().max(1e-300),
                "{x} {}",
                s.unmap(t)
            );
        }
    }

    #[test]
    fn bars_and_lines() {
        let b = bar_chart(
            "by kind",
            &[Bar {
                label: "fp-overflow <x>".into(),
                value: 3.0,
                colour: PALETTE[0],
                note: "locations".into(),
            }],
        );
        assert!(
            b.contains("class=\"bar\"") && b.contains("fp-overflow &lt;x&gt;"),
            "{b}"
        );
        let l = line_chart(
            "t",
            "s",
            "n",
            &[Series {
                name: "paths".into(),
                colour: PALETTE[1],
                points: vec![(0.0, 0.0), (1.0, 4.0), (2.0, 9.0)],
            }],
            None,
        );
        assert!(l.contains("<path d=\"M"), "{l}");
    }
}
