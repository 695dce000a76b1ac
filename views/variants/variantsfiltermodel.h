#pragma once
// Sorting and filtering of the variants table: free text, a status class, correct-only, and a lineage set
// (the parents or children of one variant).
#include <QSet>
#include <QSortFilterProxyModel>

namespace kforge {

class VariantsModel;

class VariantsFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    enum class StatusFilter { All, InFlight, Done, Failed, Suspicious, Pinned, Excluded };
    Q_ENUM(StatusFilter)

    explicit VariantsFilterModel(QObject *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    void setStatusFilter(StatusFilter filter);
    StatusFilter statusFilter() const { return m_status; }
    void setCorrectOnly(bool on);
    bool correctOnly() const { return m_correctOnly; }
    // Only these ids (empty: no lineage filter); `description` says what they are ("children of #12").
    void setLineage(const QSet<qint64> &ids, const QString &description);
    void clearLineage() { setLineage({}, {}); }
    bool hasLineage() const { return !m_lineage.isEmpty(); }
    QString lineageDescription() const { return m_lineageDescription; }

    void setSourceModel(QAbstractItemModel *model) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    VariantsModel *m_variants = nullptr; // the source, when it is one: typed comparisons
    QString m_text;
    StatusFilter m_status = StatusFilter::All;
    bool m_correctOnly = false;
    QSet<qint64> m_lineage;
    QString m_lineageDescription;
};

} // namespace kforge
