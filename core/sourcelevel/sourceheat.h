#pragma once
// A source profile folded onto source lines: per line of one file, its share of one side's samples, its
// stall-reason mix and its executed instructions (SASS metrics, where measured). What the editor's heat gutter, the prompt's hot lines and the report show.
#include "core/eval/sourceprofile.h"

#include <QHash>
#include <QList>
#include <QString>
#include <utility>

namespace kforge {

struct LineHeat {
    int line = 0;
    qint64 samples = 0;
    double share = 0; // of all samples of the side (0..1), lines in other files and PCs without lines included
    QList<std::pair<QString, qint64>> stalls; // most samples first
    // CUPTI SASS metrics summed over the line's instructions: warp-level and thread-level executions in
    // the pass's patched launch; -1 when not measured. A line can be here with 0 samples and a count.
    qint64 executed = -1;
    qint64 threadsExecuted = -1;
    // "262144 instructions executed (warp-level), thread efficiency 100%"; empty when not measured.
    QString executionText() const;
    QString dominantStall() const { return stalls.isEmpty() ? QString() : stalls.first().first; }
};

struct SourceHeat {
    QString side = QStringLiteral("candidate");
    qint64 totalSamples = 0;
    qint64 unattributedSamples = 0;           // PCs without a line in the file (other files, no line info)
    QList<LineHeat> lines;                    // by line number
    QList<std::pair<QString, qint64>> stalls; // the whole side's mix, most first

    // Lines of the file with base name `baseName` (all files when empty: then lines of different files
    // with one number add up, which only makes sense for a single-file kernel, which KForge's are).
    static SourceHeat of(const SourceProfile &profile, const QString &baseName = {},
                         const QString &side = QStringLiteral("candidate"));
    const LineHeat *at(int line) const;
    // The `n` lines with most samples, most first (ties: lower line first).
    QList<LineHeat> hottest(int n) const;
    // "line 42, 38% of samples, long scoreboard: waiting on a global or local memory load (L1TEX)"
    static QString describe(const LineHeat &line);
    // The base name of the file with most samples of `side` (the kernel's own source); empty without lines.
    static QString mainFile(const SourceProfile &profile, const QString &side = QStringLiteral("candidate"));
    // For the prompt (English, untranslated): the 3 hottest lines of the kernel's own file, and a 4th and 5th
    // when they hold at least 5% of the samples each, as
    // "line 19 (`tile[ty + j][tx] = x[r * cols + c];`), 64% of samples, long scoreboard: waiting on ...".
    // `source` is the text the lines are of (for the quoted code); empty list without a usable profile.
    static QStringList promptLines(const SourceProfile &profile, const QString &source);
    // "long scoreboard 61%, wait 20%, selected 9%": the top `n` reasons of a mix.
    static QString stallMix(const QList<std::pair<QString, qint64>> &stalls, int n = 3);
};

} // namespace kforge
