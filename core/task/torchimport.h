#pragma once
// Importing PyTorch problems (KernelBench format) as task folders, the part kforge-cli import and the GUI share:
// where the discovery script is, which python has torch, what one result line of the script says, and writing
// <out>/<name>/{reference.py, task.json}. TorchImporter runs one import without blocking (event-driven QProcess:
// probe the pythons, then the script), for the GUI (docs/torch-tasks.md).
#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace kforge {

// A problem that could not be imported: the file, the step (the script's: import, lookup, get_init_inputs,
// construct, get_inputs, forward, output, repeat, timeout; or python, discover, write) and the cause.
struct TorchImportError {
    QString file;
    QString step;
    QString cause;
    QString message() const; // translated "file: step: cause"
};

// One result line of `kforge_torch_discover.py --each`: the file and either the task (its task.json text) or an
// error.
struct TorchDiscovery {
    QString file; // absolute, as the script got it
    QByteArray taskJson;
    QJsonObject task; // taskJson parsed
    double seconds = 0;
    TorchImportError error; // step empty when the task is there
    bool ok() const { return error.step.isEmpty(); }
};

namespace torchimport {

inline constexpr char scriptName[] = "kforge_torch_discover.py";

// The discovery script: share/kforge/torch next to the executable, the standard data locations, then the source
// tree (a build folder). Empty when none exists.
QString discoverScript();
// Where a python with torch is looked for when none is named: $KFORGE_TORCH_PYTHON, python3, then /usr/bin/python3.
QStringList defaultPythons();
// The arguments that ask `python` whether it imports torch (it prints the version).
QStringList probeArguments();
// The first of `candidates` that imports torch (blocking: kforge-cli); its torch version in `version`. Empty
// with `why` set.
QString findPython(const QStringList &candidates, QString &version, QString &why);
// The script's arguments for `files` (absolute), `jobs` at a time, each given up after `timeoutS`.
QStringList scriptArguments(const QString &script, const QStringList &files, int jobs, double timeoutS);
// One line of the script's output; nullopt-like (file empty) for a line that is no result.
TorchDiscovery parseResultLine(const QByteArray &line);
// The task folder a problem gets under `outDir`: outDir/<name of the task>.
QString taskFolder(const QString &outDir, const QJsonObject &task);
// Writes outDir/<name>/reference.py (a copy of `problemFile`) and task.json; the folder, or empty with `error`
// set (step "write").
QString writeTaskFolder(const QString &problemFile, const TorchDiscovery &d, const QString &outDir, TorchImportError &error);
// The task name the script gives a file: its stem in lower case, every character outside [a-z0-9_] made '_'.
QString taskNameFor(const QString &problemFile);

} // namespace torchimport

// One problem imported off the GUI thread: finds a python with torch (each candidate probed in turn), runs the
// discovery script on the file, writes the task folder. progress() names each step; exactly one of imported()
// or failed() ends every start(), cancel() included (failed, step "cancelled").
class TorchImporter : public QObject
{
    Q_OBJECT
public:
    explicit TorchImporter(QObject *parent = nullptr);
    ~TorchImporter() override;

    // `pythons` empty: defaultPythons(). `timeoutS`: the script's per-problem limit.
    void start(const QString &problemFile, const QString &outDir, const QStringList &pythons = {}, double timeoutS = 120);
    void cancel();
    bool isRunning() const { return m_process != nullptr; }

Q_SIGNALS:
    void progress(const QString &message);
    void imported(const QString &taskFolder);
    void failed(const kforge::TorchImportError &error);

private:
    void probeNext();
    void runScript();
    void finishScript();
    void fail(const QString &step, const QString &cause);
    void stopProcess();

    QString m_file;
    QString m_outDir;
    QStringList m_pythons;
    QStringList m_probeFailures;
    QString m_python;
    QString m_torchVersion;
    double m_timeoutS = 120;
    QProcess *m_process = nullptr;
    QByteArray m_stdout;
    enum class Stage { Idle, Probe, Script } m_stage = Stage::Idle;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::TorchImportError)
