// The compile cache of Compiler: content-addressed entries (a folder per key holding meta.json and the
// artifact), their lookup, and pruning to the size limit by last use. Split from compiler.cpp, which runs the
// jobs.
#include "core/compile/compiler.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtConcurrent>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

QString readCompilerText(const QString &path); // compiler.cpp

namespace {
// Bump when the cache entry layout changes, so old entries are not reused. (The key hashes the whole nvcc
// argument list too, so a change of the fixed flags, the include folder or the rpath makes new entries.)
constexpr auto kCacheFormat = "kforge-compile-3"_L1;
} // namespace

int Compiler::pruneCache(const QString &dir, qint64 limitBytes, const QString &keep)
{
    if (limitBytes <= 0)
        return 0;
    struct Entry {
        QString path;
        qint64 bytes = 0;
        QDateTime used;
    };
    std::vector<Entry> entries;
    qint64 total = 0;
    // An entry is a folder named by its key (64 hex digits) holding meta.json; its last use is that file's time.
    static const QRegularExpression keyName(u"^[0-9a-f]{64}$"_s);
    for (const QFileInfo &folder : QDir(dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (!keyName.match(folder.fileName()).hasMatch())
            continue;
        Entry e;
        e.path = folder.absoluteFilePath();
        const QFileInfo meta(e.path + u"/meta.json"_s);
        e.used = meta.exists() ? meta.lastModified() : folder.lastModified();
        for (const QFileInfo &f : QDir(e.path).entryInfoList(QDir::Files | QDir::Hidden))
            e.bytes += f.size();
        total += e.bytes;
        if (folder.fileName() != keep)
            entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.used < b.used; });
    int removed = 0;
    for (const Entry &e : entries) {
        if (total <= limitBytes)
            break;
        if (QDir(e.path).removeRecursively()) {
            total -= e.bytes;
            ++removed;
        }
    }
    return removed;
}

void Compiler::schedulePrune(const QString &keep)
{
    if (m_cacheLimit <= 0 || m_pruning->exchange(true))
        return; // one pass at a time; the next store runs another
    const QString dir = cacheDir();
    const qint64 limit = m_cacheLimit;
    std::shared_ptr<std::atomic<bool>> flag = m_pruning;
    // The result is not needed; the flag outlives this Compiler if the pass does.
    (void)QtConcurrent::run([dir, limit, keep, flag] {
        pruneCache(dir, limit, keep);
        flag->store(false);
    });
}

QString Compiler::cacheDir() const
{
    if (!m_cacheDir.isEmpty())
        return m_cacheDir;
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + u"/kernels"_s;
}

QByteArray Compiler::abiHeader()
{
    const QString dir = abiIncludeDir();
    if (dir != m_abiHeaderFrom) {
        QFile f(dir + u"/kforge/kernel.h"_s);
        m_abiHeader = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        m_abiHeaderFrom = dir;
    }
    return m_abiHeader;
}

QString Compiler::cacheKey(const CompileRequest &request, const QString &arch)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    auto add = [&h](const QByteArray &part) {
        h.addData(QByteArray::number(part.size()));
        h.addData(QByteArrayView(":"));
        h.addData(part);
    };
    add(QByteArray(kCacheFormat.data(), kCacheFormat.size()));
    add(request.source.toUtf8());
    add(m_baseFlags.join(QChar(0)).toUtf8());
    add(request.flags.join(QChar(0)).toUtf8());
    // Everything else nvcc is given (fixed flags, include folder, rpath), but not the file names: the same
    // source under another name is the same kernel.
    QStringList args = arguments(request, arch, u"out"_s);
    args.removeLast();
    add(args.join(QChar(0)).toUtf8());
    add(m_nvccVersionKey);
    add(arch.toUtf8());
    add(QByteArray::number(int(request.output)));
    add(abiHeader());
    return QString::fromLatin1(h.result().toHex());
}
} // namespace kforge
