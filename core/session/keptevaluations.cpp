#include "core/session/keptevaluations.h"

#include <algorithm>

namespace kforge {

KeptEvaluations::KeptEvaluations(int capacity)
    : m_capacity(std::max(1, capacity))
{
}

std::optional<Evaluation> KeptEvaluations::find(qint64 id)
{
    const auto it = m_byId.constFind(id);
    if (it == m_byId.cend())
        return std::nullopt;
    m_order.splice(m_order.begin(), m_order, *it);
    return m_order.front().second;
}

const Evaluation &KeptEvaluations::keep(qint64 id, Evaluation e)
{
    // Worked out before it is kept: copies handed out afterwards share the one Measurement and its figures.
    e.figures();
    if (const auto it = m_byId.constFind(id); it != m_byId.cend()) {
        m_order.erase(*it);
        m_byId.erase(it);
    }
    m_order.emplace_front(id, std::move(e));
    m_byId.insert(id, m_order.begin());
    while (int(m_order.size()) > m_capacity) {
        m_byId.remove(m_order.back().first);
        m_order.pop_back();
    }
    return m_order.front().second;
}

void KeptEvaluations::clear()
{
    m_order.clear();
    m_byId.clear();
}

} // namespace kforge
