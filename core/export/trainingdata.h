#pragma once
// Training data from sessions (CUDA-L1's supervised and self-training stages): one JSON object per model
// answer with its prompt as chat messages, the answer, its parsed parts, the verdict and measured speedup.
// Suspicious (held for review) and degenerate results are left out unless asked for.
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <optional>

namespace kforge {

class SessionStore;

struct DatasetFilter {
    bool correctOnly = false;
    std::optional<double> minSpeedup; // keeps only answers measured at least this fast (implies correct)
    bool includeSuspicious = false;   // also suspicious and degenerate results
};

struct DatasetStats {
    int answers = 0; // model answers seen
    int written = 0;
    int notCorrect = 0;
    int belowSpeedup = 0;
    int suspicious = 0;
    int degenerate = 0;
};

class TrainingData
{
    Q_DECLARE_TR_FUNCTIONS(kforge::TrainingData)

public:
    // The records of one open session, in the order the answers arrived; `stats` is added to.
    static QList<QJsonObject> records(const SessionStore &store, const DatasetFilter &filter, DatasetStats *stats);
};

} // namespace kforge
