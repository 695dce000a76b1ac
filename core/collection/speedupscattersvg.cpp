#include "core/collection/speedupscattersvg.h"

#include "core/export/speedupchartsvg.h"

#include <QStringList>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString px(double v)
{
    return QString::number(v, 'f', 1);
}

QString times(double v)
{
    return QString::number(v, 'g', v >= 100 ? 4 : 3) + u'x';
}

// One log axis over [lo, hi] mapped onto [a, b] pixels.
struct LogAxis {
    double lo = 0.5, hi = 2, a = 0, b = 1;
    double at(double v) const
    {
        const double t = (std::log(std::clamp(v, lo, hi)) - std::log(lo)) / (std::log(hi) - std::log(lo));
        return a + (b - a) * t;
    }
};

void widen(LogAxis &axis, std::optional<double> v)
{
    if (v && *v > 0 && std::isfinite(*v)) {
        axis.lo = std::min(axis.lo, *v / 1.3);
        axis.hi = std::max(axis.hi, *v * 1.3);
    }
}

} // namespace

QString SpeedupScatterSvg::svg(const QList<ScatterPoint> &points, int width, int height)
{
    const bool claims = std::any_of(points.begin(), points.end(),
                                    [](const ScatterPoint &p) { return p.claimed.has_value(); });
    QList<ScatterPoint> shown;
    for (const ScatterPoint &p : points)
        if (claims ? p.claimed.has_value() : p.measured.has_value())
            shown << p;
    if (!claims)
        std::sort(shown.begin(), shown.end(),
                  [](const ScatterPoint &a, const ScatterPoint &b) { return *a.measured < *b.measured; });

    const double left = 70, right = 20, top = 34, bottom = 50, floorStrip = 16;
    LogAxis y{0.5, 2, height - bottom - floorStrip, top};
    LogAxis x{0.5, 2, left, double(width - right)};
    for (const ScatterPoint &p : shown) {
        widen(y, p.measured);
        widen(y, p.high);
        widen(y, p.low);
        widen(x, p.claimed);
        widen(y, p.claimed); // the diagonal stays in view
    }
    if (claims) { // one scale on both axes, so the diagonal is the diagonal
        x.lo = y.lo = std::min(x.lo, y.lo);
        x.hi = y.hi = std::max(x.hi, y.hi);
    }
    const int n = int(shown.size());
    const auto xOf = [&](int i, const ScatterPoint &p) {
        return claims ? x.at(*p.claimed)
                      : left + (width - left - right) * (n <= 1 ? 0.5 : 0.03 + 0.94 * i / double(n - 1));
    };

    QString s = u"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"claims-chart\" width=\"%1\" height=\"%2\" "
                "viewBox=\"0 0 %1 %2\" role=\"img\" aria-label=\"%3\" font-family=\"system-ui, sans-serif\" "
                "font-size=\"11\">\n"_s.arg(width)
                    .arg(height)
                    .arg(claims ? u"Measured speedup against the claimed speedup of every pair"_s
                                : u"Measured speedups of the correct pairs"_s);
    s += u"<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"#fafafa\" stroke=\"#d0d0d0\"/>\n"_s.arg(
        px(left), px(top), px(width - left - right), px(height - top - bottom));
    for (const double t : SpeedupChartSvg::ticks(y.lo, y.hi, true))
        s += u"<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#e6e6e6\"/><text x=\"%4\" y=\"%5\" "
             "text-anchor=\"end\" fill=\"#555\">%6</text>\n"_s.arg(px(left), px(y.at(t)), px(width - right),
                                                                   px(left - 6), px(y.at(t) + 4), times(t));
    if (claims) {
        for (const double t : SpeedupChartSvg::ticks(x.lo, x.hi, true))
            s += u"<text x=\"%1\" y=\"%2\" text-anchor=\"middle\" fill=\"#555\">%3</text>\n"_s.arg(
                px(x.at(t)), px(height - bottom + 16), times(t));
        s += u"<line class=\"claim-holds\" x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\" stroke=\"#888\" "
             "stroke-dasharray=\"6 4\"/>\n"_s.arg(px(x.at(x.lo)), px(y.at(y.lo)), px(x.at(x.hi)), px(y.at(y.hi)));
    } else {
        s += u"<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#888\" stroke-dasharray=\"6 4\"/>\n"_s.arg(
            px(left), px(y.at(1.0)), px(width - right));
    }
    s += u"<text x=\"16\" y=\"%1\" transform=\"rotate(-90 16 %1)\" text-anchor=\"middle\" fill=\"#333\">measured "
         "speedup (log scale)</text>\n"_s.arg(px((top + height - bottom) / 2));
    s += u"<text x=\"%1\" y=\"%2\" text-anchor=\"middle\" fill=\"#333\">%3</text>\n"_s.arg(
        px((left + width - right) / 2), px(height - 8.0),
        claims ? u"claimed speedup (log scale); on the dashed line a claim holds exactly, above it the pair is faster"_s
               : u"correct pairs, slowest first; the dashed line is the reference"_s);
    for (int i = 0; i < n; ++i) {
        const ScatterPoint &p = shown.at(i);
        const double cx = xOf(i, p);
        if (p.state == ScatterPoint::State::Failed || !p.measured) {
            const double cy = height - bottom - floorStrip / 2;
            s += u"<g class=\"failed\"><title>%1: not correct</title><path d=\"M%2 %3 l6 6 m0 -6 l-6 6\" "
                 "stroke=\"#d33\" stroke-width=\"1.5\"/></g>\n"_s.arg(p.label.toHtmlEscaped(), px(cx - 3), px(cy - 3));
            continue;
        }
        const QString color = p.state == ScatterPoint::State::Flagged ? u"#f0a020"_s : u"#2f6fd6"_s;
        if (p.low && p.high)
            s += u"<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"%4\" stroke-width=\"1.5\"/>\n"_s.arg(
                px(cx), px(y.at(*p.low)), px(y.at(*p.high)), color);
        s += u"<circle class=\"%1\" cx=\"%2\" cy=\"%3\" r=\"4\" fill=\"%4\"><title>%5: %6%7</title></circle>\n"_s.arg(
            p.state == ScatterPoint::State::Flagged ? u"flagged"_s : u"clean"_s, px(cx), px(y.at(*p.measured)), color,
            p.label.toHtmlEscaped(), times(*p.measured), p.claimed ? u" (claimed %1)"_s.arg(times(*p.claimed)) : QString());
    }
    s += u"<circle cx=\"%1\" cy=\"16\" r=\"4\" fill=\"#2f6fd6\"/><text x=\"%2\" y=\"20\" fill=\"#333\">correct</text>"
         "<circle cx=\"%3\" cy=\"16\" r=\"4\" fill=\"#f0a020\"/><text x=\"%4\" y=\"20\" fill=\"#333\">flagged</text>"
         "<path d=\"M%5 13 l6 6 m0 -6 l-6 6\" stroke=\"#d33\" stroke-width=\"1.5\"/><text x=\"%6\" y=\"20\" "
         "fill=\"#333\">not correct</text>\n"_s.arg(px(left), px(left + 10), px(left + 80), px(left + 90),
                                                    px(left + 157), px(left + 170));
    s += u"</svg>\n"_s;
    return s;
}

} // namespace kforge
