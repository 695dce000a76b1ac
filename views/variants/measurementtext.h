#pragma once
// The worker's words as the GUI shows them: verdicts ("incorrect"), roofline bounds ("memory") and flags
// ("side_stream_work"), translated, so that no English name ends up inside a translated sentence. Each list
// holds every name the worker sends; tests check that each has a translation.
#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace kforge {

class MeasurementText
{
    Q_DECLARE_TR_FUNCTIONS(kforge::MeasurementText)
public:
    static QString verdict(const QString &wire);     // "cuda_error" -> "CUDA error"
    static QString bound(const QString &wire);       // "memory" -> "memory" (a table cell)
    static QString boundPhrase(const QString &wire); // "memory" -> "memory-bound" (inside a sentence)
    static QString flag(const QString &wire);        // "side_stream_work" -> "side-stream work"

    // The names the worker and the client send (worker protocol v1); an unknown one is shown as it came.
    static QStringList verdicts();
    static QStringList bounds();
    static QStringList flags();
};

} // namespace kforge
