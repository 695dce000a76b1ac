#include "core/task/torchimport.h"

#include "core/task/taskkind.h"
#include "core/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QSaveFile>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// The messages of the shared functions (kforge-cli import shows them too).
struct TorchImportText {
    Q_DECLARE_TR_FUNCTIONS(kforge::TorchImport)
};

QProcessEnvironment scriptEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PYTHONDONTWRITEBYTECODE"_s, u"1"_s);
    return env;
}

} // namespace

QString TorchImportError::message() const
{
    return TorchImportText::tr("%1: %2: %3").arg(file, step, cause);
}

namespace torchimport {

QString discoverScript()
{
    const QString name = QString::fromLatin1(scriptName);
    QStringList candidates;
    const QString appDir = QCoreApplication::applicationDirPath();
    if (!appDir.isEmpty())
        candidates << appDir + u"/../share/kforge/torch/"_s + name;
    const QString located = QStandardPaths::locate(QStandardPaths::GenericDataLocation, u"kforge/torch/"_s + name);
    if (!located.isEmpty())
        candidates << located;
    candidates << QStringLiteral(KFORGE_SOURCE_DIR) + u"/resources/torch/"_s + name;
    for (const QString &path : std::as_const(candidates))
        if (QFileInfo(path).isFile())
            return QDir::cleanPath(path);
    return {};
}

QStringList defaultPythons()
{
    // $KFORGE_TORCH_PYTHON first, as a local kforge-worker runs a torch task's modules with it.
    QStringList pythons{u"python3"_s, u"/usr/bin/python3"_s};
    if (const QString chosen = qEnvironmentVariable("KFORGE_TORCH_PYTHON"); !chosen.isEmpty())
        pythons.prepend(chosen);
    return pythons;
}

QStringList probeArguments()
{
    return {u"-c"_s, u"import sys, torch; sys.stdout.write(torch.__version__)"_s};
}

QString findPython(const QStringList &candidates, QString &version, QString &why)
{
    QStringList reasons;
    for (const QString &python : candidates) {
        QProcess p;
        p.start(python, probeArguments());
        if (!p.waitForStarted(10000)) {
            reasons << TorchImportText::tr("%1: cannot be started").arg(python);
            continue;
        }
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished(2000);
            reasons << TorchImportText::tr("%1: no answer within 120 s").arg(python);
            continue;
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            reasons << TorchImportText::tr("%1: cannot import torch").arg(python);
            continue;
        }
        version = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        return python;
    }
    why = reasons.join(u"; "_s);
    return {};
}

QStringList scriptArguments(const QString &script, const QStringList &files, int jobs, double timeoutS)
{
    return QStringList{script,         u"--each"_s,
                       u"--jobs"_s,    QString::number(jobs),
                       u"--timeout"_s, QString::number(timeoutS)}
           + files;
}

TorchDiscovery parseResultLine(const QByteArray &line)
{
    TorchDiscovery d;
    const QJsonObject result = QJsonDocument::fromJson(line).object();
    if (!result.contains(u"file"_s))
        return d;
    d.file = result.value(u"file"_s).toString();
    d.seconds = result.value(u"seconds"_s).toDouble();
    d.error.file = d.file;
    if (result.contains(u"error"_s)) {
        const QJsonObject e = result.value(u"error"_s).toObject();
        d.error.step = e.value(u"step"_s).toString();
        d.error.cause = e.value(u"cause"_s).toString();
        if (d.error.step.isEmpty())
            d.error.step = u"discover"_s;
        return d;
    }
    d.taskJson = result.value(u"task_json"_s).toString().toUtf8();
    d.task = QJsonDocument::fromJson(d.taskJson).object();
    if (taskKindOf(d.task) != TaskKind::Torch) {
        d.error.step = u"discover"_s;
        d.error.cause = TorchImportText::tr("the discovery script gave no task");
    }
    return d;
}

QString taskFolder(const QString &outDir, const QJsonObject &task)
{
    return QDir(outDir).filePath(task.value(u"name"_s).toString());
}

QString writeTaskFolder(const QString &problemFile, const TorchDiscovery &d, const QString &outDir, TorchImportError &error)
{
    const QString folder = taskFolder(outDir, d.task);
    error = {problemFile, u"write"_s, {}};
    QFile source(problemFile);
    if (!source.open(QIODevice::ReadOnly)) {
        error.cause = TorchImportText::tr("cannot read %1 again").arg(problemFile);
        return {};
    }
    QSaveFile json(folder + u"/task.json"_s), reference(folder + u"/reference.py"_s);
    if (!QDir().mkpath(folder) || !reference.open(QIODevice::WriteOnly) || reference.write(source.readAll()) < 0
        || !reference.commit() || !json.open(QIODevice::WriteOnly) || json.write(d.taskJson) < 0 || !json.commit()) {
        error.cause = TorchImportText::tr("cannot write %1").arg(folder);
        return {};
    }
    error = {};
    return folder;
}

QString taskNameFor(const QString &problemFile)
{
    const QString stem = QFileInfo(problemFile).completeBaseName().toLower();
    QString name;
    for (const QChar c : stem)
        name += (c.unicode() < 128 && (c.isLetterOrNumber() || c == u'_')) ? c : u'_';
    return name.isEmpty() ? u"problem"_s : name;
}

} // namespace torchimport

// ---------------------------------------------------------------------------------------------- TorchImporter

TorchImporter::TorchImporter(QObject *parent)
    : QObject(parent)
{
}

TorchImporter::~TorchImporter()
{
    stopProcess();
}

void TorchImporter::start(const QString &problemFile, const QString &outDir, const QStringList &pythons, double timeoutS)
{
    stopProcess();
    m_file = QFileInfo(problemFile).absoluteFilePath();
    m_outDir = outDir;
    m_pythons = pythons.isEmpty() ? torchimport::defaultPythons() : pythons;
    m_probeFailures.clear();
    m_python.clear();
    m_timeoutS = timeoutS;
    if (!QFileInfo(m_file).isFile()) {
        // Reported after start() returns, like every other outcome.
        QMetaObject::invokeMethod(
            this, [this] { fail(u"read"_s, tr("no such file")); }, Qt::QueuedConnection);
        return;
    }
    m_stage = Stage::Probe;
    probeNext();
}

void TorchImporter::cancel()
{
    if (m_stage == Stage::Idle)
        return;
    stopProcess();
    fail(u"cancelled"_s, tr("the import was cancelled"));
}

void TorchImporter::stopProcess()
{
    if (!m_process)
        return;
    QProcess *p = m_process;
    m_process = nullptr;
    p->disconnect(this);
    if (p->state() != QProcess::NotRunning) {
        p->kill();
        p->waitForFinished(2000);
    }
    p->deleteLater();
}

void TorchImporter::fail(const QString &step, const QString &cause)
{
    stopProcess();
    m_stage = Stage::Idle;
    Q_EMIT failed(TorchImportError{m_file, step, cause});
}

void TorchImporter::probeNext()
{
    if (m_pythons.isEmpty()) {
        fail(u"python"_s,
             tr("no python3 with torch (%1); install torch (Debian: python3-torch)").arg(m_probeFailures.join(u"; "_s)));
        return;
    }
    const QString python = m_pythons.takeFirst();
    Q_EMIT progress(tr("Looking for torch in %1…").arg(python));
    m_process = new QProcess(this);
    QProcess *p = m_process;
    connect(p, &QProcess::errorOccurred, this, [this, p, python](QProcess::ProcessError e) {
        if (p != m_process || e != QProcess::FailedToStart)
            return;
        stopProcess();
        m_probeFailures << tr("%1: cannot be started").arg(python);
        probeNext();
    });
    connect(p, &QProcess::finished, this, [this, p, python](int code, QProcess::ExitStatus status) {
        if (p != m_process)
            return;
        const QString version = QString::fromUtf8(p->readAllStandardOutput()).trimmed();
        stopProcess();
        if (status != QProcess::NormalExit || code != 0) {
            m_probeFailures << tr("%1: cannot import torch").arg(python);
            probeNext();
            return;
        }
        m_python = python;
        m_torchVersion = version;
        runScript();
    });
    p->start(python, torchimport::probeArguments());
}

void TorchImporter::runScript()
{
    const QString script = torchimport::discoverScript();
    if (script.isEmpty()) {
        fail(u"discover"_s,
             tr("cannot find %1 (installed in share/kforge/torch)").arg(QString::fromLatin1(torchimport::scriptName)));
        return;
    }
    m_stage = Stage::Script;
    m_stdout.clear();
    Q_EMIT progress(
        tr("Running %1 once on meta tensors with %2 (torch %3)…").arg(QFileInfo(m_file).fileName(), m_python, m_torchVersion));
    m_process = new QProcess(this);
    QProcess *p = m_process;
    p->setProcessEnvironment(scriptEnvironment());
    connect(p, &QProcess::readyReadStandardOutput, this, [this, p] {
        if (p == m_process)
            m_stdout += p->readAllStandardOutput();
    });
    connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
        if (p == m_process && e == QProcess::FailedToStart)
            fail(u"discover"_s, tr("%1 cannot be started: %2").arg(m_python, p->errorString()));
    });
    connect(p, &QProcess::finished, this, [this, p] {
        if (p == m_process)
            finishScript();
    });
    p->start(m_python, torchimport::scriptArguments(script, {m_file}, 1, m_timeoutS));
}

void TorchImporter::finishScript()
{
    m_stdout += m_process->readAllStandardOutput();
    const QString stderrTail = QString::fromUtf8(m_process->readAllStandardError()).trimmed().section(u'\n', -1);
    const int exitCode = m_process->exitCode();
    stopProcess();
    TorchDiscovery d;
    for (const QByteArray &line : m_stdout.split('\n')) {
        d = torchimport::parseResultLine(line);
        if (!d.file.isEmpty())
            break;
    }
    if (d.file.isEmpty()) {
        fail(u"discover"_s,
             tr("the discovery process ended without a result (exit status %1): %2").arg(exitCode).arg(stderrTail));
        return;
    }
    if (!d.ok()) {
        fail(d.error.step, d.error.cause);
        return;
    }
    Q_EMIT progress(tr("Writing the task folder…"));
    TorchImportError error;
    const QString folder = torchimport::writeTaskFolder(m_file, d, m_outDir, error);
    if (folder.isEmpty()) {
        fail(error.step, error.cause);
        return;
    }
    m_stage = Stage::Idle;
    Q_EMIT imported(folder);
}

} // namespace kforge
