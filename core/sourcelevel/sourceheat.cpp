#include "core/sourcelevel/sourceheat.h"

#include "core/sourcelevel/sourcelocation.h"
#include "core/sourcelevel/stallreason.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMap>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QList<std::pair<QString, qint64>> sorted(const QHash<QString, qint64> &mix)
{
    QList<std::pair<QString, qint64>> out;
    for (auto it = mix.cbegin(); it != mix.cend(); ++it)
        out.append({it.key(), it.value()});
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return out;
}

} // namespace

SourceHeat SourceHeat::of(const SourceProfile &profile, const QString &baseName, const QString &side)
{
    SourceHeat heat;
    heat.side = side;
    QMap<int, qint64> samples;
    QMap<int, QHash<QString, qint64>> stalls;
    QMap<int, std::pair<qint64, qint64>> executed; // warp-level, thread-level; -1: not measured
    QHash<QString, qint64> all;
    for (const SourceProfile::Kernel &k : profile.kernels) {
        if (k.side != side)
            continue;
        for (const SourceProfile::Pc &pc : k.pcs) {
            heat.totalSamples += pc.samples;
            for (const auto &[name, n] : pc.stalls)
                all[name] += n;
            const bool inFile = pc.line > 0 && (baseName.isEmpty() || sourceBaseName(pc.file) == baseName);
            if (!inFile) {
                heat.unattributedSamples += pc.samples;
                continue;
            }
            samples[pc.line] += pc.samples;
            if (pc.hasExecuted() || pc.threadsExecuted >= 0) {
                auto it = executed.find(pc.line);
                if (it == executed.end())
                    it = executed.insert(pc.line, {qint64(-1), qint64(-1)});
                auto &[warps, threads] = *it;
                if (pc.hasExecuted())
                    warps = qMax<qint64>(warps, 0) + pc.executed;
                if (pc.threadsExecuted >= 0)
                    threads = qMax<qint64>(threads, 0) + pc.threadsExecuted;
            }
            QHash<QString, qint64> &mix = stalls[pc.line];
            for (const auto &[name, n] : pc.stalls)
                mix[name] += n;
        }
    }
    for (auto it = samples.cbegin(); it != samples.cend(); ++it) {
        LineHeat l;
        l.line = it.key();
        l.samples = it.value();
        l.share = heat.totalSamples > 0 ? double(l.samples) / double(heat.totalSamples) : 0.0;
        l.stalls = sorted(stalls.value(l.line));
        if (const auto e = executed.constFind(l.line); e != executed.cend()) {
            l.executed = e->first;
            l.threadsExecuted = e->second;
        }
        heat.lines.append(std::move(l));
    }
    heat.stalls = sorted(all);
    return heat;
}

QString LineHeat::executionText() const
{
    if (executed < 0)
        return {};
    QString text = QCoreApplication::translate("kforge::SourceHeat", "%1 instructions executed (warp-level)")
                       .arg(QLocale().toString(executed));
    if (executed > 0 && threadsExecuted >= 0)
        text += QCoreApplication::translate("kforge::SourceHeat", ", thread efficiency %1%")
                    .arg(qRound(100.0 * double(threadsExecuted) / (32.0 * double(executed))));
    return text;
}

const LineHeat *SourceHeat::at(int line) const
{
    const auto it = std::lower_bound(lines.cbegin(), lines.cend(), line,
                                     [](const LineHeat &l, int n) { return l.line < n; });
    return it != lines.cend() && it->line == line ? &*it : nullptr;
}

QList<LineHeat> SourceHeat::hottest(int n) const
{
    QList<LineHeat> out = lines;
    std::stable_sort(out.begin(), out.end(), [](const LineHeat &a, const LineHeat &b) { return a.samples > b.samples; });
    out.removeIf([](const LineHeat &l) { return l.samples <= 0; });
    if (out.size() > n)
        out.resize(n);
    return out;
}

QString SourceHeat::describe(const LineHeat &line)
{
    const QString pct = QString::number(qRound(100.0 * line.share));
    if (line.dominantStall().isEmpty())
        return QCoreApplication::translate("kforge::SourceHeat", "line %1, %2% of samples").arg(line.line).arg(pct);
    return QCoreApplication::translate("kforge::SourceHeat", "line %1, %2% of samples, %3")
        .arg(line.line)
        .arg(pct, StallReason::describe(line.dominantStall()));
}

QString SourceHeat::mainFile(const SourceProfile &profile, const QString &side)
{
    QHash<QString, qint64> perFile;
    for (const SourceProfile::Kernel &k : profile.kernels) {
        if (k.side != side)
            continue;
        for (const SourceProfile::Pc &pc : k.pcs) {
            if (pc.line > 0)
                perFile[sourceBaseName(pc.file)] += pc.samples;
        }
    }
    QString best;
    qint64 most = -1;
    for (auto it = perFile.cbegin(); it != perFile.cend(); ++it) {
        if (it.value() > most || (it.value() == most && it.key() < best)) {
            best = it.key();
            most = it.value();
        }
    }
    return best;
}

QStringList SourceHeat::promptLines(const SourceProfile &profile, const QString &source)
{
    if (!profile.isOk())
        return {};
    const QString file = mainFile(profile);
    if (file.isEmpty())
        return {};
    const QStringList text = source.split(u'\n');
    QStringList out;
    for (const LineHeat &l : of(profile, file).hottest(5)) {
        if (out.size() >= 3 && l.share < 0.05)
            break;
        QString code = l.line <= text.size() ? text.at(l.line - 1).trimmed() : QString();
        if (code.size() > 80)
            code = code.left(77) + u"..."_s;
        code.replace(u'`', u'\'');
        QString line = code.isEmpty() ? u"line %1"_s.arg(l.line) : u"line %1 (`%2`)"_s.arg(l.line).arg(code);
        line += u", %1% of samples"_s.arg(qRound(100.0 * l.share));
        if (!l.dominantStall().isEmpty())
            line += u", "_s + StallReason::promptText(l.dominantStall());
        out.append(line);
    }
    return out;
}

QString SourceHeat::stallMix(const QList<std::pair<QString, qint64>> &stalls, int n)
{
    qint64 total = 0;
    for (const auto &s : stalls)
        total += s.second;
    QStringList parts;
    for (qsizetype i = 0; i < stalls.size() && i < n && total > 0; ++i)
        parts.append(
            u"%1 %2%"_s.arg(StallReason::label(stalls.at(i).first)).arg(qRound(100.0 * stalls.at(i).second / double(total))));
    return parts.join(u", "_s);
}

} // namespace kforge
