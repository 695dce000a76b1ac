#pragma once
// Reference outputs per (reference kernel, task shapes, seed), kept on the device so evaluating the next
// candidate against the same reference skips the reference runs of the verification. LRU within a budget.
#include "core/runtime/worker/tensorset.h"

#include <cstdint>
#include <list>
#include <memory>
#include <string>

namespace kforge::runtime {

class ReferenceCache
{
public:
    explicit ReferenceCache(std::size_t budgetBytes = std::size_t(8) << 30)
        : m_budget(budgetBytes)
    {
    }
    void setBudget(std::size_t bytes) { m_budget = bytes; }

    static std::string key(uint64_t referenceHash, const TaskSpec &task, uint64_t seed);
    std::shared_ptr<TensorSet> find(const std::string &key);
    void insert(const std::string &key, std::shared_ptr<TensorSet> outputs);
    void clear() { m_entries.clear(); }
    std::size_t bytes() const;

private:
    struct Entry {
        std::string key;
        std::shared_ptr<TensorSet> outputs;
    };
    std::list<Entry> m_entries; // most recently used first
    std::size_t m_budget;
};

} // namespace kforge::runtime
