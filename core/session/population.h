#pragma once
// Every variant of the open session in memory (summary columns and latest evaluation, no sources), kept
// current by SessionStore. The optimizer samples exemplars from it; views build their models on it.
#include "core/session/variant.h"

#include <QHash>
#include <QList>
#include <vector>

namespace kforge {

class Population
{
public:
    int size() const { return int(m_order.size()); }
    bool isEmpty() const { return m_order.empty(); }
    bool contains(qint64 id) const { return m_index.contains(id); }
    // nullptr when unknown. Pointers stay valid until the next insert.
    const Variant *find(qint64 id) const;
    Variant value(qint64 id) const;
    // In creation order.
    const std::vector<Variant> &variants() const { return m_order; }
    QList<qint64> ids() const;
    QList<qint64> children(qint64 parentId) const;

    const Variant *reference() const;   // the variant of origin Reference, if any
    const Variant *bestCorrect() const; // highest speedup among correct, usable variants
    QList<const Variant *> usableExemplars() const;

    // SessionStore's side.
    void clear();
    void insert(const Variant &v);
    Variant *findMutable(qint64 id);

private:
    std::vector<Variant> m_order;
    QHash<qint64, int> m_index;
};

} // namespace kforge
