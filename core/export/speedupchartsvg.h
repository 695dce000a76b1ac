#pragma once
// The session report's speedup chart as a self-contained SVG (no script, no external resource): every
// variant in creation order with its measured speedup (log scale when the range is wide), the best
// correct speedup so far as a step line, the reference at 1x, failed variants as marks along the
// bottom, round boundaries, and a tooltip (<title>) per point.
#include <QList>
#include <QString>
#include <optional>

namespace kforge {

struct ChartPoint {
    enum class State { Reference, Correct, Held, Failed };
    qint64 variantId = 0;
    QString label;
    int round = 0; // 0: not from a round
    State state = State::Failed;
    std::optional<double> speedup;
};

class SpeedupChartSvg
{
public:
    static QString svg(const QList<ChartPoint> &points, int width = 860, int height = 340);
    // Tick values for an axis from lo to hi: 1-2-5 steps (log) or a "nice" linear step.
    static QList<double> ticks(double lo, double hi, bool logScale);
};

} // namespace kforge
