#include "core/compile/hostpch.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

constexpr auto kFormat = "kforge-host-pch-1"_L1;
constexpr auto kHeader = "prefix.h"_L1;
constexpr auto kCompiled = "prefix.h.gch"_L1;
constexpr auto kBuilding = "building"_L1;
constexpr auto kFailed = "failed"_L1;

bool startsWithMarker(QByteArrayView line, QByteArrayView sourceName)
{
    // `# <digits> "<name>"`, as cudafe++ writes a change of file
    if (!line.startsWith("# "))
        return false;
    qsizetype i = 2;
    const qsizetype digits = i;
    while (i < line.size() && line.at(i) >= '0' && line.at(i) <= '9')
        ++i;
    if (i == digits || i + 2 + sourceName.size() > line.size() || line.at(i) != ' ' || line.at(i + 1) != '"')
        return false;
    return line.sliced(i + 2).startsWith(sourceName) && line.size() > i + 2 + sourceName.size()
           && line.at(i + 2 + sourceName.size()) == '"';
}

QDateTime lastUse(const QString &entry)
{
    const QFileInfo compiled(entry + u'/' + kCompiled);
    return compiled.exists() ? compiled.lastModified() : QFileInfo(entry).lastModified();
}

bool buildRunning(const QString &entry)
{
    const QFileInfo building(entry + u'/' + kBuilding);
    return building.exists()
           && building.lastModified().secsTo(QDateTime::currentDateTime()) < HostPch::kBuildDeadAfterS;
}

} // namespace

std::optional<qsizetype> HostPch::prefixEnd(QByteArrayView text, QByteArrayView sourceName)
{
    if (sourceName.isEmpty())
        return std::nullopt;
    qsizetype start = text.indexOf('\n');
    if (start < 0 || !startsWithMarker(text.first(start), sourceName))
        return std::nullopt; // the first line names the source: anything else is not cudafe++'s output
    ++start;
    while (start < text.size()) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0)
            end = text.size();
        if (startsWithMarker(text.sliced(start, end - start), sourceName))
            return start;
        start = end + 1;
    }
    return std::nullopt;
}

QStringList HostPch::headerCommand(const QStringList &words, const QString &input, const QString &header,
                                   const QString &output)
{
    if (words.count(input) != 1 || words.count(u"-c"_s) != 1 || words.count(u"-o"_s) != 1
        || words.count(u"-x"_s) != 1)
        return {};
    const qsizetype lang = words.indexOf(u"-x"_s);
    const qsizetype out = words.indexOf(u"-o"_s);
    if (lang + 1 >= words.size() || words.at(lang + 1) != u"c++" || out + 1 >= words.size())
        return {};
    QStringList command = words;
    command[lang + 1] = u"c++-header"_s;
    command[command.indexOf(input)] = header;
    command[out + 1] = output;
    command.removeOne(u"-c"_s);
    return command;
}

QString HostPch::entryFor(const QStringList &words, const QString &hostSource, QByteArrayView prefix) const
{
    // The prefix and every flag of the compile, not its file names.
    QStringList flags = words;
    flags.removeOne(hostSource);
    if (const qsizetype o = flags.indexOf(u"-o"_s); o >= 0 && o + 1 < flags.size())
        flags.remove(o, 2);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView(kFormat.data(), kFormat.size()));
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(flags.join(QChar(0)).toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(prefix);
    return m_dir + u'/' + QString::fromLatin1(hash.result().toHex());
}

HostPch::Use HostPch::prepare(const QString &sourcePath, const QByteArray &text, const NvccPlan &plan,
                              const QProcessEnvironment &environment, QString *why)
{
    auto none = [why](const QString &reason) {
        if (why)
            *why = reason;
        return Use::None;
    };
    if (plan.hostCompile < 0 || m_dir.isEmpty())
        return none(u"no host compile"_s);
    if (m_dir.contains(u'"') || m_dir.contains(u'\\') || m_dir.contains(u'\n'))
        return none(u"the cache folder's path cannot be written in an #include"_s);
    QStringList words;
    const QString &command = plan.steps.at(plan.hostCompile).command;
    if (!NvccPlan::shellWords(command, &words) || command.contains(u'$'))
        return none(u"the host compile's command line is not plain words"_s);

    const auto end = prefixEnd(text, plan.sourceName.toUtf8());
    if (!end || *end < kMinPrefixBytes)
        return none(u"no header prefix worth precompiling"_s);
    const QByteArrayView prefix = QByteArrayView(text).first(*end);
    m_entry = entryFor(words, plan.hostSource, prefix);
    const QString header = m_entry + u'/' + kHeader;

    if (QFileInfo::exists(m_entry + u'/' + kCompiled) && QFileInfo::exists(header)) {
        QFile compiled(m_entry + u'/' + kCompiled);
        if (compiled.open(QIODevice::ReadWrite)) // its time is its last use (prune)
            compiled.setFileTime(QDateTime::currentDateTimeUtc(), QFileDevice::FileModificationTime);
        QSaveFile rewritten(sourcePath);
        if (!rewritten.open(QIODevice::WriteOnly))
            return none(u"cannot rewrite "_s + sourcePath);
        rewritten.write("#include \"" + header.toUtf8() + "\"\n");
        rewritten.write(QByteArrayView(text).sliced(*end).toByteArray());
        if (!rewritten.commit())
            return none(u"cannot rewrite "_s + sourcePath);
        return Use::Used;
    }
    if (QFileInfo::exists(m_entry + u'/' + kFailed))
        return none(u"the header of this prefix could not be built: "_s + m_entry + u"/build.log"_s);
    if (buildRunning(m_entry))
        return Use::Building;
    const QStringList build = headerCommand(words, plan.hostSource, header, m_entry + u"/prefix.h.gch.tmp"_s);
    if (build.isEmpty())
        return none(u"the host compile's flags do not have the expected shape"_s);
    QString failure;
    if (!startBuild(prefix, build, environment, &failure))
        return none(failure);
    return Use::Building;
}

bool HostPch::startBuild(QByteArrayView prefix, const QStringList &build, const QProcessEnvironment &environment,
                         QString *why)
{
    prune(m_entry);
    if (!QDir().mkpath(m_entry)) {
        *why = u"cannot make "_s + m_entry;
        return false;
    }
    const QString lockPath = m_entry + u'/' + kBuilding;
    QFile::remove(lockPath); // a dead build's (buildRunning said none runs)
    QFile lock(lockPath);
    if (!lock.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return true; // another compile started it just now
    lock.close();
    QSaveFile text(m_entry + u'/' + kHeader);
    if (!text.open(QIODevice::WriteOnly) || text.write(prefix.toByteArray()) < 0 || !text.commit()) {
        QFile::remove(lockPath);
        *why = u"cannot write "_s + text.fileName();
        return false;
    }
    // The header appears under its name only once complete; a failed build is remembered, not retried.
    const QString script = NvccPlan::shellCommand(build) + u" >build.log 2>&1 && mv -f prefix.h.gch.tmp "_s
                           + kCompiled + u" || { rm -f prefix.h.gch.tmp; : >"_s + kFailed + u"; }; rm -f "_s
                           + kBuilding;
    QProcess process;
    process.setProgram(u"/bin/sh"_s);
    process.setArguments({u"-c"_s, script});
    process.setWorkingDirectory(m_entry);
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    if (!process.startDetached()) {
        QFile::remove(lockPath);
        *why = u"cannot start /bin/sh"_s;
        return false;
    }
    return true;
}

void HostPch::markBroken(const QString &entry)
{
    QFile failed(entry + u'/' + kFailed);
    if (failed.open(QIODevice::WriteOnly))
        failed.write("a compile failed with this header and worked without it\n");
    QFile::remove(entry + u'/' + kCompiled);
}

void HostPch::prune(const QString &keep) const
{
    QStringList entries;
    for (const QFileInfo &f : QDir(m_dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (f.absoluteFilePath() != keep)
            entries << f.absoluteFilePath();
    if (entries.size() < kKeep)
        return;
    std::sort(entries.begin(), entries.end(),
              [](const QString &a, const QString &b) { return lastUse(a) < lastUse(b); });
    const QDateTime now = QDateTime::currentDateTime();
    qsizetype left = entries.size();
    for (const QString &e : std::as_const(entries)) {
        if (left < kKeep)
            break;
        // A header a compile may still read, or one being built, stays.
        if (lastUse(e).secsTo(now) < kIdleBeforeRemovalS || buildRunning(e))
            continue;
        if (QDir(e).removeRecursively())
            --left;
    }
}

} // namespace kforge
