#include "core/runtime/worker/referencecache.h"

namespace kforge::runtime {

std::string ReferenceCache::key(uint64_t referenceHash, const TaskSpec &task, uint64_t seed)
{
    // Only what decides the reference's outputs: params, tensors (shapes, dtypes, init).
    const nlohmann::ordered_json j = toJson(task);
    nlohmann::ordered_json k;
    k["params"] = j["params"];
    k["inputs"] = j["inputs"];
    k["outputs"] = j["outputs"];
    return std::to_string(referenceHash) + "|" + std::to_string(seed) + "|" + k.dump();
}

std::shared_ptr<TensorSet> ReferenceCache::find(const std::string &key)
{
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it->key == key) {
            m_entries.splice(m_entries.begin(), m_entries, it);
            return m_entries.front().outputs;
        }
    }
    return nullptr;
}

void ReferenceCache::insert(const std::string &key, std::shared_ptr<TensorSet> outputs)
{
    if (!outputs || outputs->totalBytes() > m_budget)
        return;
    m_entries.push_front({key, std::move(outputs)});
    while (bytes() > m_budget && m_entries.size() > 1)
        m_entries.pop_back();
}

std::size_t ReferenceCache::bytes() const
{
    std::size_t n = 0;
    for (const Entry &e : m_entries)
        n += e.outputs->totalBytes();
    return n;
}

} // namespace kforge::runtime
