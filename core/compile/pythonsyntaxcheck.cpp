#include "core/compile/pythonsyntaxcheck.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

namespace kforge {

namespace {

// Reads the module from stdin and prints one JSON line: {"ok": true} or the SyntaxError's place and message.
// compile() rather than ast.parse: it also rejects what only the compiler sees (`return` outside a function).
constexpr const char *kSyntaxScript = R"py(
import json, sys
source = sys.stdin.buffer.read().decode('utf-8', 'replace')
try:
    compile(source, sys.argv[1], 'exec', dont_inherit=True)
    print(json.dumps({'ok': True}))
except SyntaxError as e:
    print(json.dumps({'ok': False, 'line': e.lineno or 0, 'column': e.offset or 0, 'message': e.msg or str(e)}))
except ValueError as e:
    print(json.dumps({'ok': False, 'line': 0, 'column': 0, 'message': str(e)}))
)py";

constexpr int kSyntaxTimeoutMs = 15000;

} // namespace

PythonSyntaxCheck::PythonSyntaxCheck(const QString &python, QObject *parent)
    : QObject(parent)
    , m_python(python.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("python3")) : python)
{
    qRegisterMetaType<PythonSyntaxResult>();
}

PythonSyntaxCheck::~PythonSyntaxCheck()
{
    for (QProcess *process : m_running.keys()) {
        process->disconnect(this);
        process->kill();
        process->waitForFinished(1000);
    }
}

int PythonSyntaxCheck::check(const QString &source, const QString &fileName)
{
    const int job = m_nextJob++;
    if (m_python.isEmpty()) {
        PythonSyntaxResult r;
        r.message = tr("no python3 found to check the module's syntax");
        QTimer::singleShot(0, this, [this, job, r] { Q_EMIT finished(job, r); });
        return job;
    }
    auto *process = new QProcess(this);
    m_running.insert(process, job);
    connect(process, &QProcess::finished, this, [this, process, job, fileName](int exitCode, QProcess::ExitStatus status) {
        PythonSyntaxResult r;
        const QByteArray out = process->readAllStandardOutput().trimmed();
        const QJsonObject answer = QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1)).object();
        if (status != QProcess::NormalExit || exitCode != 0 || !answer.contains(QStringLiteral("ok"))) {
            r.message = tr("%1 could not check the module: %2")
                            .arg(m_python, QString::fromUtf8(process->readAllStandardError()).trimmed().right(300));
        } else {
            r.checked = true;
            if (!answer.value(QStringLiteral("ok")).toBool()) {
                Diagnostic d;
                d.file = fileName;
                d.line = answer.value(QStringLiteral("line")).toInt();
                d.column = answer.value(QStringLiteral("column")).toInt();
                d.message = answer.value(QStringLiteral("message")).toString();
                d.tool = QStringLiteral("python3");
                r.diagnostics << d;
            }
        }
        complete(job, process, r);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, job](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart && error != QProcess::Timedout)
            return; // a crash or a read error ends in finished()
        PythonSyntaxResult r;
        r.message = tr("%1 could not be started: %2").arg(m_python, process->errorString());
        complete(job, process, r);
    });
    QTimer::singleShot(kSyntaxTimeoutMs, process, [process] { process->kill(); });
    process->start(m_python, {QStringLiteral("-I"), QStringLiteral("-c"), QString::fromLatin1(kSyntaxScript), fileName});
    process->write(source.toUtf8());
    process->closeWriteChannel();
    return job;
}

void PythonSyntaxCheck::complete(int job, QProcess *process, const PythonSyntaxResult &result)
{
    if (!m_running.remove(process))
        return; // finished() after errorOccurred(), or the other way round: reported once
    process->deleteLater();
    Q_EMIT finished(job, result);
}

} // namespace kforge
