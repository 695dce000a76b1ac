#pragma once
// What Ctrl+Enter can check of a torch task's ModelNew module where nothing can evaluate it: whether python3
// compiles it (syntax, `return` outside a function, bad indentation...). The module is not run and torch is not
// imported; the source goes to `python3 -c compile(...)` on its stdin, so no file is written.
#include "core/eval/diagnostic.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

class QProcess;

namespace kforge {

struct PythonSyntaxResult {
    bool checked = false;          // false: no python3, or it failed to run (message says why)
    QList<Diagnostic> diagnostics; // python3's SyntaxError, as an error located in `fileName`
    QString message;               // translated; empty when checked and valid

    bool ok() const { return checked && diagnostics.isEmpty(); }
};

class PythonSyntaxCheck : public QObject
{
    Q_OBJECT
public:
    // `python`: the interpreter; empty: python3 on PATH.
    explicit PythonSyntaxCheck(const QString &python = {}, QObject *parent = nullptr);
    ~PythonSyntaxCheck() override;

    // Starts a check of `source` (named `fileName` in its diagnostics); finished() follows with the returned job.
    int check(const QString &source, const QString &fileName);

Q_SIGNALS:
    void finished(int job, const kforge::PythonSyntaxResult &result);

private:
    void complete(int job, QProcess *process, const PythonSyntaxResult &result);

    QString m_python;
    int m_nextJob = 1;
    QHash<QProcess *, int> m_running;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::PythonSyntaxResult)
