#pragma once
// A precompiled header for nvcc's host compile (NvccRun). cudafe++ writes the host side of a .cu as one file
// whose first ~36,000 lines are the CUDA runtime headers, the same for every kernel compiled with the same
// flags and includes, and gcc spends about half of that compile (120 of 215 ms on a Debian 12 host) parsing
// them. Here that prefix is compiled once into a gcc precompiled header, in the background after the first
// compile that has it, and later compiles of a source with the same prefix include it instead: the object
// gcc makes is the same (gcc's precompiled headers are textual inclusion, checked against the flags; where
// gcc finds the header unusable it reads the prefix's text, which is kept beside it).
#include "core/compile/nvccplan.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

class HostPch
{
public:
    enum class Use {
        Used,     // the host source now includes a ready header
        Building, // none was ready for this prefix: one is being built for the next compile
        None,     // no header for this compile (no such step, prefix too short, a build of it failed...)
    };

    explicit HostPch(QString dir) : m_dir(std::move(dir)) {}

    // Before the plan's host compile runs: rewrites its input (at sourcePath, holding text) to include the
    // prefix's header when one is ready, else starts building one (a detached process: it outlives this
    // compile and this program).
    Use prepare(const QString &sourcePath, const QByteArray &text, const NvccPlan &plan,
                const QProcessEnvironment &environment, QString *why = nullptr);

    // The folder of the header prepare() looked for (empty before).
    QString entry() const { return m_entry; }
    // A header that made a compile fail which works without it: removed, and not built again.
    static void markBroken(const QString &entry);

    // Where the prefix of cudafe++'s output ends: at the first line marker naming the source file itself after
    // the first line (what comes before are the headers it included first); nullopt when there is none.
    static std::optional<qsizetype> prefixEnd(QByteArrayView hostSource, QByteArrayView sourceName);

    // The command that compiles `header` into `output` with the host compile's own flags (its words, with
    // `input` compiled to an object); empty when the words do not have that shape.
    static QStringList headerCommand(const QStringList &compileWords, const QString &input, const QString &header,
                                     const QString &output);

    // Prefixes shorter than this are not worth a header.
    static constexpr qsizetype kMinPrefixBytes = 64 * 1024;
    // Headers unused for longer than this may be removed (never one a compile may still be reading) once more
    // than kKeep are kept.
    static constexpr int kKeep = 4;
    static constexpr int kIdleBeforeRemovalS = 600;
    // A build that has not ended after this long is taken as dead (its program was killed).
    static constexpr int kBuildDeadAfterS = 300;

private:
    QString entryFor(const QStringList &words, const QString &hostSource, QByteArrayView prefix) const;
    // Writes the prefix's text into the entry and starts the detached build of its header.
    bool startBuild(QByteArrayView prefix, const QStringList &build, const QProcessEnvironment &environment,
                    QString *why);
    void prune(const QString &keep) const;

    QString m_dir;
    QString m_entry;
};

} // namespace kforge
