#pragma once
// Speedup of every variant by round on a log scale: correct results as dots, suspicious ones as triangles,
// failures as crosses along the bottom, the best so far as a step line, the reference at 1×, and the
// selected variants ringed.
#include "views/charts/chartbase.h"

namespace kforge {

class SpeedupChart : public ChartBase
{
    Q_OBJECT
public:
    SpeedupChart(SessionStore *store, VariantSelection *selection, QWidget *parent = nullptr);

    // For tests: points drawn in each series after the last rebuild.
    int correctCount() const;
    int suspiciousCount() const;
    int failedCount() const;
    double bestSoFar() const { return m_best; }

protected:
    void rebuild() override;
    void selectionMoved() override;

private:
    void updateSelected();

    QCPGraph *m_correct = nullptr;
    QCPGraph *m_suspicious = nullptr;
    QCPGraph *m_failed = nullptr;
    QCPGraph *m_bestLine = nullptr;
    QCPGraph *m_reference = nullptr;
    QCPGraph *m_selected = nullptr;
    QCPScatterStyle m_styles[3];  // correct, suspicious, failed: as vectors
    QCPScatterStyle m_rasters[3]; // and as pixmaps, for dense plots
    double m_best = 0;
};

} // namespace kforge
