#include "core/task/task.h"

#include "core/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
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

std::optional<QByteArray> readBytes(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    return f.readAll();
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
    , m_json(QJsonDocument::fromJson(QByteArray::fromStdString(runtime::toJson(*m_spec).dump())).object())
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
    const QString root = fi.absoluteFilePath();
    if (const auto json = readBytes(root + u"/task.json"_s); json && taskKindOf(*json) == TaskKind::Torch)
        return torchTask(fi.fileName(), root, *json, [&root](const QString &rel) { return readBytes(root + u'/' + rel); });
    runtime::TaskSpecResult spec = runtime::loadTaskFolder(std::filesystem::path(QFile::encodeName(root).toStdString()));
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
    // The kind without validating the rest (the CUDA loader names what is wrong).
    if (taskKindOf(*json) == TaskKind::Torch)
        return torchTask(label, {}, *json, [&files](const QString &rel) -> std::optional<QByteArray> {
            const auto it = files.constFind(rel);
            return it == files.cend() ? std::nullopt : std::optional<QByteArray>(*it);
        });
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

TaskLoadResult Task::torchTask(const QString &label, const QString &folder, const QByteArray &json,
                               const std::function<std::optional<QByteArray>(const QString &)> &file)
{
    TaskLoadResult r;
    const QString jsonFile = label + u"/task.json"_s;
    const auto fail = [&r](const QString &where, const QString &field, const QString &problem) {
        r.error.file = where;
        r.error.field = field;
        r.error.problem = problem;
        return r;
    };
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return fail(
            jsonFile, {},
            QCoreApplication::translate("Task", "invalid JSON at offset %1: %2").arg(perr.offset).arg(perr.errorString()));
    const QJsonObject o = doc.object();
    runtime::TaskSpec t;
    const QString name = o.value("name"_L1).toString();
    if (name.isEmpty())
        return fail(jsonFile, u"name"_s, QCoreApplication::translate("Task", "missing"));
    t.name = name.toStdString();
    t.title = o.value("title"_L1).toString(name).toStdString();
    t.description = o.value("description"_L1).toString().toStdString();
    for (const auto &[key, value] : paramsInFileOrder(json)) // file order, as a .cu candidate's kf_params
        t.params.emplace_back(key.toStdString(), value);
    if (const double timeout = o.value("timeout_s"_L1).toDouble(0); timeout > 0)
        t.timeoutS = timeout;
    t.degenerate = o.value("degenerate"_L1).toBool(false);
    for (const QJsonValue &f : o.value("nvcc_flags"_L1).toArray())
        t.nvccFlags.push_back(f.toString().toStdString());
    if (!o.value("inputs"_L1).isArray() && !o.value("forward_args"_L1).isArray())
        return fail(jsonFile, u"inputs"_s, QCoreApplication::translate("Task", "expected an array"));
    if (o.value("outputs"_L1).toArray().isEmpty())
        return fail(jsonFile, u"outputs"_s, QCoreApplication::translate("Task", "a task needs at least one output"));
    const QString reference = o.value("reference"_L1).toString(u"reference.py"_s);
    const std::optional<QByteArray> referenceSource = file(reference);
    if (!referenceSource)
        return fail(label + u'/' + reference, {}, QCoreApplication::translate("Task", "missing"));
    t.referenceSource = referenceSource->toStdString();
    const QJsonArray variants = o.value("variants"_L1).toArray();
    for (qsizetype i = 0; i < variants.size(); ++i) {
        const QJsonObject v = variants.at(i).toObject();
        runtime::VariantSpec spec;
        spec.file = v.value("file"_L1).toString().toStdString();
        if (spec.file.empty())
            return fail(jsonFile, u"variants[%1].file"_s.arg(i), QCoreApplication::translate("Task", "missing"));
        spec.label =
            v.value("label"_L1).toString(QFileInfo(QString::fromStdString(spec.file)).completeBaseName()).toStdString();
        if (v.value("expect"_L1).isObject()) {
            const QJsonObject e = v.value("expect"_L1).toObject();
            runtime::VariantExpect expect;
            expect.verdict = e.value("verdict"_L1).toString(u"correct"_s).toStdString();
            if (e.value("min_speedup"_L1).isDouble())
                expect.minSpeedup = e.value("min_speedup"_L1).toDouble();
            spec.expect = expect;
        }
        for (const QJsonValue &f : v.value("nvcc_flags"_L1).toArray())
            spec.nvccFlags.push_back(f.toString().toStdString());
        const std::optional<QByteArray> source = file(QString::fromStdString(spec.file));
        if (!source)
            return fail(jsonFile, u"variants[%1].file"_s.arg(i),
                        QCoreApplication::translate("Task", "%1 is missing").arg(QString::fromStdString(spec.file)));
        spec.source = source->toStdString();
        t.variants.push_back(std::move(spec));
    }
    t.folder = std::filesystem::path(QFile::encodeName(folder).toStdString());
    Task task(std::move(t));
    task.m_kind = TaskKind::Torch;
    task.m_json = o;
    r.task = task;
    return r;
}

QString Task::referenceFileOf(const QJsonObject &taskJson)
{
    if (taskKindOf(taskJson) != TaskKind::Torch)
        return u"reference.cu"_s;
    return taskJson.value(u"reference"_s).toString(u"reference.py"_s);
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
    return taskKindOf(f.readAll()) == TaskKind::Torch;
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
QString Task::referenceFileName() const
{
    return isTorch() ? m_json.value("reference"_L1).toString(u"reference.py"_s) : u"reference.cu"_s;
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
    return m_json;
}

} // namespace kforge
