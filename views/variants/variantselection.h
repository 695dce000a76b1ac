#pragma once
// Which variants the workbench is looking at: the current one, the selected set and the pair being compared.
// One object shared by the panels (MainWindow creates it), so a click in the table, a chart or the compare
// view moves every panel without the panels knowing each other.
#include <QList>
#include <QObject>
#include <utility>

namespace kforge {

class VariantSelection : public QObject
{
    Q_OBJECT
public:
    explicit VariantSelection(QObject *parent = nullptr);

    qint64 current() const { return m_current; }
    // In the order they were selected; the current one is among them whenever it is set.
    QList<qint64> selected() const { return m_selected; }
    std::pair<qint64, qint64> comparePair() const { return m_pair; }

    // Selects exactly `id` (0 clears).
    void setCurrent(qint64 id);
    // Selects `ids`; the current variant becomes `current`, or the last of `ids` when that is 0 or not in them.
    void setSelected(const QList<qint64> &ids, qint64 current = 0);
    // The pair the compare panel shows: A, the one asked about, and B.
    void setComparePair(qint64 a, qint64 b);
    void clear();

Q_SIGNALS:
    void currentChanged(qint64 id);
    void selectionChanged(const QList<qint64> &ids);
    void comparePairChanged(qint64 a, qint64 b);

private:
    qint64 m_current = 0;
    QList<qint64> m_selected;
    std::pair<qint64, qint64> m_pair{0, 0};
};

} // namespace kforge
