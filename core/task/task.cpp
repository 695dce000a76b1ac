#include "core/task/task.h"

#include "core/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString fromStd(const std::string &s)
{
    return QString::fromStdString(s);
}

QStringList fromStd(const std::vector<std::string> &list)
{
    QStringList out;
    out.reserve(qsizetype(list.size()));
    for (const auto &s : list)
        out.append(QString::fromStdString(s));
    return out;
}

} // namespace

QString TaskLoadError::message() const
{
    if (field.isEmpty())
        return QCoreApplication::translate("Task", "%1: %2").arg(file, problem);
    return QCoreApplication::translate("Task", "%1: field '%2': %3").arg(file, field, problem);
}

Task::Task(runtime::TaskSpec spec)
    : m_spec(std::make_shared<const runtime::TaskSpec>(std::move(spec)))
{
}

TaskLoadResult Task::load(const QString &folder)
{
    TaskLoadResult r;
    const QFileInfo fi(folder);
    if (!fi.isDir()) {
        r.error.file = folder;
        r.error.problem = QCoreApplication::translate("Task", "not a task folder (it should hold task.json "
                                                              "and reference.cu)");
        return r;
    }
    runtime::TaskSpecResult spec = runtime::loadTaskFolder(
        std::filesystem::path(QFile::encodeName(fi.absoluteFilePath()).toStdString()));
    if (!spec.ok()) {
        r.error.file = fromStd(spec.error.file);
        r.error.field = fromStd(spec.error.field);
        r.error.problem = fromStd(spec.error.problem);
        return r;
    }
    r.task = Task(std::move(*spec.spec));
    return r;
}

TaskLoadResult Task::fromFiles(const QString &label, const QMap<QString, QByteArray> &files)
{
    TaskLoadResult r;
    const auto fail = [&r, &label](const QString &file, const QString &field, const QString &problem) {
        r.error.file = label + u'/' + file;
        r.error.field = field;
        r.error.problem = problem;
        return r;
    };
    const auto json = files.constFind(u"task.json"_s);
    if (json == files.cend())
        return fail(u"task.json"_s, {}, QCoreApplication::translate("Task", "missing"));
    runtime::TaskSpecResult spec = runtime::parseTaskSpecText(json->toStdString(),
                                                              QString(label + u"/task.json"_s).toStdString());
    if (!spec.ok()) {
        r.error.file = fromStd(spec.error.file);
        r.error.field = fromStd(spec.error.field);
        r.error.problem = fromStd(spec.error.problem);
        return r;
    }
    runtime::TaskSpec &t = *spec.spec;
    const auto reference = files.constFind(u"reference.cu"_s);
    if (reference == files.cend())
        return fail(u"reference.cu"_s, {}, QCoreApplication::translate("Task", "missing"));
    t.referenceSource = reference->toStdString();
    for (std::size_t i = 0; i < t.variants.size(); ++i) {
        const auto source = files.constFind(QString::fromStdString(t.variants[i].file));
        if (source == files.cend())
            return fail(u"task.json"_s, u"variants[%1].file"_s.arg(i),
                        QCoreApplication::translate("Task", "%1 is missing").arg(fromStd(t.variants[i].file)));
        t.variants[i].source = source->toStdString();
    }
    r.task = Task(std::move(t));
    return r;
}

QString Task::builtinTasksDir()
{
    QStringList candidates;
    const QString appDir = QCoreApplication::applicationDirPath();
    if (!appDir.isEmpty())
        candidates << appDir + u"/../share/kforge/tasks"_s;
    candidates << QStandardPaths::locateAll(QStandardPaths::GenericDataLocation, u"kforge/tasks"_s,
                                            QStandardPaths::LocateDirectory);
    candidates << QStringLiteral(KFORGE_SOURCE_DIR) + u"/resources/tasks"_s;
    for (const QString &dir : std::as_const(candidates))
        if (QFileInfo(dir).isDir() && !QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty())
            return QDir::cleanPath(dir);
    return {};
}

bool Task::isTorchTaskFolder(const QString &folder)
{
    QFile f(folder + u"/task.json"_s);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    return QJsonDocument::fromJson(f.readAll()).object().value(u"kind"_s).toString() == u"torch"_s;
}

namespace {
QStringList builtinFolders(bool torch)
{
    const QString root = Task::builtinTasksDir();
    if (root.isEmpty())
        return {};
    QStringList folders;
    const QDir dir(root);
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QString folder = dir.filePath(name);
        if (QFileInfo::exists(folder + u"/task.json"_s) && Task::isTorchTaskFolder(folder) == torch)
            folders.append(folder);
    }
    return folders;
}
} // namespace

QStringList Task::builtinTaskFolders()
{
    return builtinFolders(false);
}

QStringList Task::builtinTorchTaskFolders()
{
    return builtinFolders(true);
}

QString Task::name() const
{
    return m_spec ? fromStd(m_spec->name) : QString();
}
QString Task::title() const
{
    return m_spec ? fromStd(m_spec->title) : QString();
}
QString Task::description() const
{
    return m_spec ? fromStd(m_spec->description) : QString();
}

QString Task::folder() const
{
    return m_spec ? QFile::decodeName(QByteArray::fromStdString(m_spec->folder.string())) : QString();
}

QString Task::referenceSource() const
{
    return m_spec ? fromStd(m_spec->referenceSource) : QString();
}
QStringList Task::nvccFlags() const
{
    return m_spec ? fromStd(m_spec->nvccFlags) : QStringList();
}

QStringList Task::flagsFor(const TaskVariant *variant) const
{
    QStringList flags = nvccFlags();
    if (variant)
        flags += variant->nvccFlags;
    return flags;
}

QList<TaskVariant> Task::variants() const
{
    QList<TaskVariant> out;
    if (!m_spec)
        return out;
    for (const runtime::VariantSpec &v : m_spec->variants) {
        TaskVariant t;
        t.label = fromStd(v.label);
        t.file = fromStd(v.file);
        t.source = fromStd(v.source);
        t.nvccFlags = fromStd(v.nvccFlags);
        if (v.expect) {
            t.expectedVerdict = fromStd(v.expect->verdict);
            t.minSpeedup = v.expect->minSpeedup;
        }
        out.append(t);
    }
    return out;
}

std::optional<TaskVariant> Task::variant(const QString &label) const
{
    for (const TaskVariant &v : variants())
        if (v.label == label)
            return v;
    return std::nullopt;
}

double Task::timeoutS() const
{
    return m_spec ? m_spec->timeoutS : 60;
}
bool Task::isDegenerate() const
{
    return m_spec && m_spec->degenerate;
}
QStringList Task::warnings() const
{
    return m_spec ? fromStd(m_spec->warnings) : QStringList();
}

QJsonObject Task::toJson() const
{
    if (!m_spec)
        return {};
    const std::string text = runtime::toJson(*m_spec).dump();
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

} // namespace kforge
