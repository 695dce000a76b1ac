#include "core/task/task.h"

#include "core/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
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
    const QDir dir(fi.absoluteFilePath());
    if (QFile json(dir.filePath(u"task.json"_s)); json.open(QIODevice::ReadOnly)) {
        const QByteArray text = json.readAll();
        if (isTorchTaskJson(text))
            return fromTorchJson(
                dir.dirName(), text,
                [&dir](const QString &rel) -> std::optional<QByteArray> {
                    QFile f(dir.filePath(rel));
                    if (!f.open(QIODevice::ReadOnly))
                        return std::nullopt;
                    return f.readAll();
                },
                dir.absolutePath());
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
    if (isTorchTaskJson(*json))
        return fromTorchJson(label, *json,
                             [&files](const QString &rel) -> std::optional<QByteArray> {
                                 const auto f = files.constFind(rel);
                                 if (f == files.cend())
                                     return std::nullopt;
                                 return *f;
                             },
                             {});
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

bool Task::isTorchTaskJson(const QByteArray &taskJson)
{
    return QJsonDocument::fromJson(taskJson).object().value(u"kind"_s).toString() == u"torch"_s;
}

QString Task::referenceFileOf(const QByteArray &taskJson)
{
    const QJsonObject json = QJsonDocument::fromJson(taskJson).object();
    if (json.value(u"kind"_s).toString() != u"torch"_s)
        return u"reference.cu"_s;
    return json.value(u"reference"_s).toString(u"reference.py"_s);
}

QList<QPair<QString, double>> Task::paramsInFileOrder(const QByteArray &taskJson)
{
    QList<QPair<QString, double>> out;
    const auto json = nlohmann::ordered_json::parse(taskJson.constBegin(), taskJson.constEnd(), nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("params") || !json["params"].is_object())
        return out;
    for (const auto &[key, value] : json["params"].items())
        if (value.is_number())
            out.append({QString::fromStdString(key), value.get<double>()});
    return out;
}

QString Task::referenceFile() const
{
    if (!m_torch)
        return u"reference.cu"_s;
    return m_torch->value(u"reference"_s).toString(u"reference.py"_s);
}

// A torch task.json is checked for what KForge itself reads (name, reference, inputs and outputs present, limits,
// variants); the shapes and dtypes are the torch worker's to judge, and the task panel shows them as written.
TaskLoadResult Task::fromTorchJson(const QString &label, const QByteArray &taskJson,
                                   const std::function<std::optional<QByteArray>(const QString &)> &read,
                                   const QString &folder)
{
    TaskLoadResult r;
    const auto fail = [&r, &label](const QString &file, const QString &field, const QString &problem) {
        r.error.file = label + u'/' + file;
        r.error.field = field;
        r.error.problem = problem;
        return r;
    };
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(taskJson, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return fail(
            u"task.json"_s, {},
            QCoreApplication::translate("Task", "invalid JSON at offset %1: %2").arg(perr.offset).arg(perr.errorString()));
    const QJsonObject j = doc.object();
    runtime::TaskSpec t;
    const QString name = j.value(u"name"_s).toString();
    static const QRegularExpression taskName(u"^[a-z0-9_]+$"_s);
    if (!taskName.match(name).hasMatch())
        return fail(u"task.json"_s, u"name"_s,
                    QCoreApplication::translate("Task", "'%1' must be lower-case letters, digits and '_'").arg(name));
    t.name = name.toStdString();
    t.title = j.value(u"title"_s).toString(name).toStdString();
    t.description = j.value(u"description"_s).toString().toStdString();
    for (const auto &[key, value] : paramsInFileOrder(taskJson))
        t.params.emplace_back(key.toStdString(), value);
    if (!j.value(u"inputs"_s).isArray())
        return fail(u"task.json"_s, u"inputs"_s,
                    QCoreApplication::translate("Task", "expected an array of the forward's arguments"));
    if (j.value(u"outputs"_s).toArray().isEmpty())
        return fail(u"task.json"_s, u"outputs"_s, QCoreApplication::translate("Task", "a task needs at least one output"));
    if (j.contains(u"timeout_s"_s)) {
        t.timeoutS = j.value(u"timeout_s"_s).toDouble(-1);
        if (t.timeoutS <= 0)
            return fail(u"task.json"_s, u"timeout_s"_s, QCoreApplication::translate("Task", "must be positive"));
    }
    t.degenerate = j.value(u"degenerate"_s).toBool(false);
    for (const QJsonValue &f : j.value(u"nvcc_flags"_s).toArray())
        t.nvccFlags.push_back(f.toString().toStdString());
    const QString reference = j.value(u"reference"_s).toString(u"reference.py"_s);
    const std::optional<QByteArray> referenceSource = read(reference);
    if (!referenceSource)
        return fail(reference, {}, QCoreApplication::translate("Task", "missing"));
    t.referenceSource = referenceSource->toStdString();
    const QJsonArray variants = j.value(u"variants"_s).toArray();
    for (qsizetype i = 0; i < variants.size(); ++i) {
        const QJsonObject v = variants.at(i).toObject();
        runtime::VariantSpec spec;
        const QString file = v.value(u"file"_s).toString();
        if (file.isEmpty())
            return fail(u"task.json"_s, u"variants[%1].file"_s.arg(i), QCoreApplication::translate("Task", "missing"));
        const std::optional<QByteArray> source = read(file);
        if (!source)
            return fail(u"task.json"_s, u"variants[%1].file"_s.arg(i),
                        QCoreApplication::translate("Task", "%1 is missing").arg(file));
        spec.file = file.toStdString();
        spec.label = v.value(u"label"_s).toString(QFileInfo(file).completeBaseName()).toStdString();
        spec.source = source->toStdString();
        for (const QJsonValue &f : v.value(u"nvcc_flags"_s).toArray())
            spec.nvccFlags.push_back(f.toString().toStdString());
        if (v.value(u"expect"_s).isObject()) {
            const QJsonObject e = v.value(u"expect"_s).toObject();
            runtime::VariantExpect expect;
            expect.verdict = e.value(u"verdict"_s).toString(u"correct"_s).toStdString();
            if (e.value(u"min_speedup"_s).isDouble())
                expect.minSpeedup = e.value(u"min_speedup"_s).toDouble();
            spec.expect = expect;
        }
        t.variants.push_back(std::move(spec));
    }
    if (!folder.isEmpty())
        t.folder = std::filesystem::path(QFile::encodeName(folder).toStdString());
    Task task(std::move(t));
    task.m_torch = std::make_shared<const QJsonObject>(j);
    r.task = std::move(task);
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

QStringList Task::builtinTaskFolders()
{
    const QString root = builtinTasksDir();
    if (root.isEmpty())
        return {};
    QStringList folders;
    const QDir dir(root);
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFileInfo::exists(dir.filePath(name) + u"/task.json"_s))
            folders.append(dir.filePath(name));
    return folders;
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
    if (m_torch)
        return *m_torch;
    if (!m_spec)
        return {};
    const std::string text = runtime::toJson(*m_spec).dump();
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

} // namespace kforge
