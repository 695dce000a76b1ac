#include "core/worker/torchworkerdiagnosis.h"

#include "core/compile/executablefile.h"
#include "core/worker/workerreply.h"

#include <QRegularExpression>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace kforge {

QString oneLineWorkerMessage(const QString &message)
{
    QStringList lines;
    for (const QString &line : message.split(u'\n'))
        if (!line.trimmed().isEmpty())
            lines << line.trimmed();
    if (lines.size() <= 1)
        return lines.value(0);
    const QString head = lines.takeFirst();
    // A traceback ends with its exception line ("ModuleNotFoundError: No module named 'torch'"); the frames above
    // it are for the log (KFORGE_VERBOSE=1 prints them), not for the one line a user reads.
    const qsizetype traceback = lines.indexOf(u"Traceback (most recent call last):"_s);
    QString rest;
    if (traceback >= 0) {
        static const QRegularExpression exception(u"^[A-Za-z_][\\w.]*(Error|Exception|Exit|Interrupt)\\b.*"_s);
        for (qsizetype i = lines.size() - 1; i > traceback && rest.isEmpty(); --i)
            if (exception.match(lines.at(i)).hasMatch())
                rest = lines.at(i);
        if (rest.isEmpty())
            rest = lines.constLast();
    } else {
        rest = lines.join(u"; "_s);
    }
    QString text = head;
    if (text.endsWith(u'.'))
        text.chop(1);
    return text + u": "_s + rest;
}

TorchWorkerDiagnosis TorchWorkerDiagnosis::of(const QString &errorCode, const QString &message)
{
    TorchWorkerDiagnosis d;
    const QString line = oneLineWorkerMessage(message);
    d.cause = line;
    // KForge runs a local worker with $KFORGE_TORCH_PYTHON (WorkerConfig::resolvedCommand): one that is not there
    // fails as "Could not start the worker", which names neither python nor the variable.
    const QString chosen = qEnvironmentVariable("KFORGE_TORCH_PYTHON");
    static const QRegularExpression noPython(
        u"python3?[^\\n]*(No such file or directory|not found|command not found)"_s);
    if (errorCode == u"no_torch") {
        d.missing = Missing::Torch; // the worker's message names its python, the others tried and the fix
    } else if (message.contains(u"No module named 'torch'"_s) || message.contains(u"No module named torch"_s)) {
        d.missing = Missing::Torch;
        d.cause = tr("%1. Install PyTorch for the python3 that runs kforge-torch-worker, or set KFORGE_TORCH_PYTHON "
                     "to one that has it (kforge-torch-worker --check says which python it runs with)")
                      .arg(line);
    } else if (!chosen.isEmpty() && !isExecutableFile(chosen) && errorCode == WorkerReply::Unavailable) {
        d.missing = Missing::Python;
        d.cause = tr("KFORGE_TORCH_PYTHON=%1 is not an executable file").arg(chosen);
    } else if (noPython.match(message).hasMatch()) {
        d.missing = Missing::Python;
    } else if (errorCode == u"no_device") {
        d.missing = Missing::Cuda;
    }
    return d;
}

WorkerReadiness::State TorchWorkerDiagnosis::state(WorkerReadiness::State otherwise) const
{
    switch (missing) {
    case Missing::Python: return WorkerReadiness::State::NoPython;
    case Missing::Torch: return WorkerReadiness::State::NoTorch;
    case Missing::Cuda: return WorkerReadiness::State::NoGpu;
    case Missing::Nothing: break;
    }
    return otherwise;
}

} // namespace kforge
