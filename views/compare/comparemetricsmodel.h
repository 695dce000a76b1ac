#pragma once
// Two variants' measurements side by side, one metric per row, with the difference of A against B and
// whether it favours A. The time and its spread lead; the other rows follow by how much they differ, the
// largest first (in bold). One unit per row. A value that was not measured shows why in its tooltip.
#include "core/eval/measurementfigures.h"
#include "views/compare/timeratio.h"

#include <QAbstractTableModel>

namespace kforge {

class CompareMetricsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Metric, A, B, Delta, ColumnCount };
    enum Role {
        // +1 when the row favours A, -1 when it favours B, 0 when neutral or not comparable.
        VerdictRole = Qt::UserRole + 1,
        KeyRole, // a stable name of the row ("time", "speedup", "sol", ...)
        // How much the row differs (0: not at all or not comparable); what orders the rows after the time.
        DifferenceRole,
    };

    explicit CompareMetricsModel(QObject *parent = nullptr);

    void setMeasurements(const MeasurementFigures &a, const MeasurementFigures &b, const QString &labelA,
                         const QString &labelB);
    void clear();
    int rowOf(const QString &key) const;
    // The rows that differ most, largest first, at most `n` (the time and what follows from it left out).
    QList<int> largestDifferences(int n) const;
    // A's median time over B's with its interval; empty unless both were timed.
    std::optional<TimeRatio> timeRatio() const { return m_ratio; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    enum class Kind { Ms, Times, Percent, Bytes, Gbps, Gflops, Count, Text };
    enum class Better { Lower, Higher, Neither };
    struct Row {
        QString key;
        QString name;
        Kind kind = Kind::Count;
        Better better = Better::Neither;
        std::optional<double> a, b;
        QString textA, textB;       // Kind::Text, or words in place of a number ("beats FLOP floor")
        QString tipA, tipB;         // what a value means, for the tooltip
        QString nameTip;            // what the metric is, for the name's tooltip
        QString missingA, missingB; // why a value is absent
        double difference = 0;      // see DifferenceRole
        bool timing = false;        // the time and what follows from it: always first, never "differs most"
    };

    QString format(const Row &r, bool sideA) const;
    QString deltaText(const Row &r) const;
    int verdict(const Row &r) const;
    static double differenceOf(const Row &r);

    QList<Row> m_rows;
    QList<int> m_largest; // rows, largest difference first
    std::optional<TimeRatio> m_ratio;
    QString m_labelA, m_labelB;
};

} // namespace kforge
