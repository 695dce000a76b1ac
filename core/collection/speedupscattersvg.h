#pragma once
// The verified collection's speedups against their claims as a self-contained SVG (no script, nothing fetched):
// each measured pair with a claim at (claimed, measured) on log axes, the line where a claim holds exactly, its
// noise interval as a vertical bar, flagged pairs in orange and failed ones as crosses on the floor. Without any
// claim, the measured speedups of the correct pairs in ascending order, with the reference at 1x.
#include <QList>
#include <QString>
#include <optional>

namespace kforge {

struct ScatterPoint {
    enum class State { Clean, Flagged, Failed };
    QString label;
    State state = State::Clean;
    std::optional<double> claimed;
    std::optional<double> measured; // correct pairs only
    std::optional<double> low, high;
};

class SpeedupScatterSvg
{
public:
    static QString svg(const QList<ScatterPoint> &points, int width = 860, int height = 420);
};

} // namespace kforge
