#include "core/session/population.h"

namespace kforge {

const Variant *Population::find(qint64 id) const
{
    const auto it = m_index.constFind(id);
    return it == m_index.cend() ? nullptr : &m_order[size_t(*it)];
}

Variant Population::value(qint64 id) const
{
    const Variant *v = find(id);
    return v ? *v : Variant{};
}

QList<qint64> Population::ids() const
{
    QList<qint64> out;
    out.reserve(size());
    for (const auto &v : m_order)
        out << v.id;
    return out;
}

QList<qint64> Population::children(qint64 parentId) const
{
    QList<qint64> out;
    for (const auto &v : m_order)
        if (v.parentIds.contains(parentId))
            out << v.id;
    return out;
}

const Variant *Population::reference() const
{
    for (const auto &v : m_order)
        if (v.origin == VariantOrigin::Reference)
            return &v;
    return nullptr;
}

const Variant *Population::bestCorrect() const
{
    const Variant *best = nullptr;
    for (const auto &v : m_order)
        if (v.usableAsExemplar() && v.eval.speedup && (!best || *v.eval.speedup > *best->eval.speedup))
            best = &v;
    return best;
}

QList<const Variant *> Population::usableExemplars() const
{
    QList<const Variant *> out;
    for (const auto &v : m_order)
        if (v.usableAsExemplar())
            out << &v;
    return out;
}

void Population::clear()
{
    m_order.clear();
    m_index.clear();
}

void Population::insert(const Variant &v)
{
    if (Variant *existing = findMutable(v.id)) {
        *existing = v;
        return;
    }
    m_index.insert(v.id, int(m_order.size()));
    m_order.push_back(v);
}

Variant *Population::findMutable(qint64 id)
{
    const auto it = m_index.constFind(id);
    return it == m_index.cend() ? nullptr : &m_order[size_t(*it)];
}

} // namespace kforge
