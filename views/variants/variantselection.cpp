#include "views/variants/variantselection.h"

namespace kforge {

VariantSelection::VariantSelection(QObject *parent)
    : QObject(parent)
{
}

void VariantSelection::setCurrent(qint64 id)
{
    setSelected(id ? QList<qint64>{id} : QList<qint64>{}, id);
}

void VariantSelection::setSelected(const QList<qint64> &ids, qint64 current)
{
    QList<qint64> unique;
    unique.reserve(ids.size());
    for (qint64 id : ids)
        if (id && !unique.contains(id))
            unique << id;
    if (!current || !unique.contains(current))
        current = unique.isEmpty() ? 0 : unique.constLast();
    const bool selectionMoved = unique != m_selected;
    const bool currentMoved = current != m_current;
    m_selected = unique;
    m_current = current;
    if (selectionMoved)
        Q_EMIT selectionChanged(m_selected);
    if (currentMoved)
        Q_EMIT currentChanged(m_current);
}

void VariantSelection::setComparePair(qint64 a, qint64 b)
{
    if (m_pair == std::pair{a, b})
        return;
    m_pair = {a, b};
    Q_EMIT comparePairChanged(a, b);
}

void VariantSelection::clear()
{
    setSelected({});
    setComparePair(0, 0);
}

} // namespace kforge
