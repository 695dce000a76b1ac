#pragma once
// The evaluations a session store keeps in memory, typed: the last few hundred asked for or added, by id, each
// with its Measurement and MeasurementFigures worked out already, so the panels, the prompt and the report that read
// one evaluation share one parse of it (issue 39). Least recently used goes first. Not thread-safe: the store's.
#include "core/session/evaluation.h"

#include <QHash>
#include <list>
#include <optional>
#include <utility>

namespace kforge {

class KeptEvaluations
{
public:
    static constexpr int kDefaultCapacity = 512;

    explicit KeptEvaluations(int capacity = kDefaultCapacity);

    // The kept evaluation of `id`, now the most recently used; none when it is not kept.
    std::optional<Evaluation> find(qint64 id);
    // Keeps `e` as evaluation `id`, its measurement and figures worked out here when not yet; forgets the least
    // recently used beyond the capacity. What it keeps is returned.
    const Evaluation &keep(qint64 id, Evaluation e);
    void clear();
    int size() const { return int(m_order.size()); }
    int capacity() const { return m_capacity; }

private:
    using Entry = std::pair<qint64, Evaluation>;
    int m_capacity;
    std::list<Entry> m_order; // most recently used first
    QHash<qint64, std::list<Entry>::iterator> m_byId;
};

} // namespace kforge
