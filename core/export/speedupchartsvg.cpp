#include "core/export/speedupchartsvg.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString num(double v)
{
    return QString::number(v, 'f', 1);
}

QString tickLabel(double v)
{
    if (v >= 100)
        return QString::number(v, 'f', 0) + u'x';
    if (v >= 1)
        return QString::number(v, 'g', 3) + u'x';
    return QString::number(v, 'g', 2) + u'x';
}

} // namespace

QList<double> SpeedupChartSvg::ticks(double lo, double hi, bool logScale)
{
    QList<double> out;
    if (!(hi > lo))
        return out;
    if (logScale) {
        for (int e = int(std::floor(std::log10(lo))); e <= int(std::ceil(std::log10(hi))); ++e)
            for (const double m : {1.0, 2.0, 5.0}) {
                const double v = m * std::pow(10.0, e);
                if (v >= lo * 0.999 && v <= hi * 1.001)
                    out << v;
            }
        // Too many labels on a wide range: keep the powers of ten.
        if (out.size() > 9)
            out.erase(std::remove_if(out.begin(), out.end(),
                                     [](double v) {
                                         const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-9));
                                         return std::fabs(m - 1.0) > 1e-6;
                                     }),
                      out.end());
        return out;
    }
    const double raw = (hi - lo) / 5.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-6; v += step)
        out << (std::fabs(v) < step * 1e-9 ? 0.0 : v);
    return out;
}

QString SpeedupChartSvg::svg(const QList<ChartPoint> &points, int width, int height)
{
    const double left = 64, right = 20, top = 34, bottom = 46;
    const double plotW = width - left - right, plotH = height - top - bottom;
    const double failStrip = 14; // failed variants are drawn below the plot area's floor

    double lo = 1.0, hi = 1.0;
    for (const auto &p : points)
        if (p.speedup && *p.speedup > 0 && std::isfinite(*p.speedup)) {
            lo = std::min(lo, *p.speedup);
            hi = std::max(hi, *p.speedup);
        }
    const bool logScale = hi / lo > 20.0;
    if (logScale) {
        lo /= 1.25;
        hi *= 1.25;
    } else {
        lo = 0;
        hi = hi * 1.1 + 0.1;
    }
    const auto yOf = [&](double v) {
        const double t = logScale ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo)) : (v - lo) / (hi - lo);
        return top + (plotH - failStrip) * (1.0 - std::clamp(t, 0.0, 1.0));
    };
    const int n = int(points.size());
    const auto xOf = [&](int i) { return left + (n <= 1 ? plotW / 2 : plotW * (0.02 + 0.96 * i / double(n - 1))); };

    QString s;
    s += u"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"speedup-chart\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
         "role=\"img\" aria-label=\"Speedup of every variant over the reference, in creation order\" "
         "font-family=\"system-ui, sans-serif\" font-size=\"11\">\n"_s.arg(width)
             .arg(height);
    s += u"<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>\n"_s.arg(width).arg(height);
    s += u"<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"#fafafa\" stroke=\"#d0d0d0\"/>\n"_s.arg(
        num(left), num(top), num(plotW), num(plotH));
    // Y ticks and grid.
    for (const double t : ticks(logScale ? lo : 0.0, hi, logScale)) {
        const double y = yOf(t);
        s += u"<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#e6e6e6\"/>"
             "<text x=\"%4\" y=\"%5\" text-anchor=\"end\" fill=\"#555\">%6</text>\n"_s.arg(
                 num(left), num(y), num(left + plotW), num(left - 6), num(y + 4), tickLabel(t));
    }
    s += u"<text x=\"14\" y=\"%1\" transform=\"rotate(-90 14 %1)\" text-anchor=\"middle\" fill=\"#333\">speedup over the "
         "reference%2</text>\n"_s.arg(num(top + plotH / 2), logScale ? u" (log scale)"_s : QString());
    s += u"<text x=\"%1\" y=\"%2\" text-anchor=\"middle\" fill=\"#333\">variants in the order they were made</text>\n"_s.arg(
        num(left + plotW / 2), num(height - 10.0));

    // Round boundaries.
    for (int i = 0; i < n; ++i) {
        const int r = points[i].round;
        if (r > 0 && (i == 0 || points[i - 1].round != r)) {
            const double x = i == 0 ? xOf(0) - 6 : (xOf(i - 1) + xOf(i)) / 2;
            s += u"<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"#b0b0c8\" stroke-dasharray=\"3 3\"/>"
                 "<text x=\"%4\" y=\"%5\" fill=\"#6a6a90\">R%6</text>\n"_s.arg(num(x), num(top), num(top + plotH),
                                                                               num(x + 3), num(top + 11),
                                                                               QString::number(r));
        }
    }
    // The reference.
    if (1.0 >= lo && 1.0 <= hi)
        s += u"<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#888\" stroke-dasharray=\"6 4\"/>"
             "<text x=\"%4\" y=\"%5\" text-anchor=\"end\" fill=\"#777\">reference</text>\n"_s.arg(
                 num(left), num(yOf(1.0)), num(left + plotW), num(left + plotW - 4), num(yOf(1.0) - 4));
    // Best correct speedup so far.
    QStringList step;
    std::optional<double> best;
    for (int i = 0; i < n; ++i) {
        const auto &p = points[i];
        if ((p.state == ChartPoint::State::Correct || p.state == ChartPoint::State::Reference) && p.speedup
            && *p.speedup > 0 && (!best || *p.speedup > *best)) {
            if (best)
                step << u"%1,%2"_s.arg(num(xOf(i)), num(yOf(*best)));
            best = *p.speedup;
            step << u"%1,%2"_s.arg(num(xOf(i)), num(yOf(*best)));
        }
    }
    if (best) {
        step << u"%1,%2"_s.arg(num(left + plotW), num(yOf(*best)));
        s += u"<polyline class=\"best-so-far\" points=\"%1\" fill=\"none\" stroke=\"#2e9d4f\" stroke-width=\"2\"/>\n"_s.arg(
            step.join(u' '));
    }
    // Points.
    for (int i = 0; i < n; ++i) {
        const auto &p = points[i];
        const double x = xOf(i);
        QString title = u"#%1"_s.arg(p.variantId);
        if (!p.label.isEmpty())
            title += u' ' + p.label;
        if (p.round > 0)
            title += u", round %1"_s.arg(p.round);
        if (p.state == ChartPoint::State::Failed || !p.speedup || !(*p.speedup > 0)) {
            const double y = top + plotH - failStrip / 2;
            s += u"<g class=\"failed\"><title>%1: failed</title><path d=\"M%2 %3 l6 6 m0 -6 l-6 6\" stroke=\"#d33\" "
                 "stroke-width=\"1.5\"/></g>\n"_s.arg(title.toHtmlEscaped(), num(x - 3), num(y - 3));
            continue;
        }
        const double y = yOf(*p.speedup);
        const QString fill = p.state == ChartPoint::State::Reference ? u"#777"_s
                             : p.state == ChartPoint::State::Held    ? u"#f0a020"_s
                                                                     : u"#2f6fd6"_s;
        const QString note = p.state == ChartPoint::State::Held ? u", held for review"_s : QString();
        s += u"<circle class=\"%1\" cx=\"%2\" cy=\"%3\" r=\"4\" fill=\"%4\" fill-opacity=\"0.85\"><title>%5: %6x%7</title></circle>\n"_s
                 .arg(p.state == ChartPoint::State::Held ? u"held"_s : u"correct"_s, num(x), num(y), fill, title.toHtmlEscaped())
                 .arg(*p.speedup, 0, 'f', *p.speedup < 10 ? 2 : 1)
                 .arg(note);
    }
    // Legend.
    const double ly = 16;
    double lx = left;
    const auto legend = [&](const QString &mark, const QString &text) {
        s += mark.arg(num(lx), num(ly))
             + u"<text x=\"%1\" y=\"%2\" fill=\"#333\">%3</text>\n"_s.arg(num(lx + 12), num(ly + 4), text);
        lx += 24 + 6.2 * text.size();
    };
    legend(u"<circle cx=\"%1\" cy=\"%2\" r=\"4\" fill=\"#2f6fd6\"/>"_s, u"correct"_s);
    legend(u"<circle cx=\"%1\" cy=\"%2\" r=\"4\" fill=\"#f0a020\"/>"_s, u"held for review"_s);
    legend(u"<path d=\"M%1 %2 m-3 -3 l6 6 m0 -6 l-6 6\" stroke=\"#d33\" stroke-width=\"1.5\"/>"_s, u"failed"_s);
    legend(u"<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%2\" stroke=\"#2e9d4f\" stroke-width=\"2\" transform=\"translate(-5 0)\"/>"
           "<rect x=\"%1\" y=\"%2\" width=\"10\" height=\"2\" fill=\"#2e9d4f\" transform=\"translate(-5 -1)\"/>"_s,
           u"best correct so far"_s);
    s += u"</svg>\n"_s;
    return s;
}

} // namespace kforge
