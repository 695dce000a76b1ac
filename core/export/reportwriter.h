#pragma once
// Writes a ReportInput as one self-contained HTML file (inline CSS, the chart as inline SVG, no script,
// nothing fetched) or as Markdown. The reports are English like the exports: they are shared documents.
#include "core/export/reportinput.h"
#include "core/export/speedupchartsvg.h"

namespace kforge {

class ReportWriter
{
public:
    static QString html(const ReportInput &report);
    static QString markdown(const ReportInput &report);
    static QList<ChartPoint> chartPoints(const ReportInput &report);
};

} // namespace kforge
