#include "core/workerpool/torchdiagnosis.h"

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

namespace {

// `python` is not there or cannot be run, in the words of execve, a shell or env. A library that torch fails to load
// is "No such file or directory" too, but in a Python exception ("OSError: libcudart.so.12: ...") that names the
// library, not the python.
bool meansNoPython(const QString &text, const QString &python)
{
    static const QRegularExpression noPython(
        u"No such file or directory|not found|not an executable|Permission denied|Exec format error"_s);
    static const QRegularExpression pythonException(u"^[A-Za-z_][\\w.]*(Error|Exception):"_s);
    return noPython.match(text).hasMatch() && (text.contains(python) || !pythonException.match(text).hasMatch());
}

bool meansNoTorch(const QString &text)
{
    return text.contains(u"No module named 'torch'"_s) || text.contains(u"No module named torch"_s);
}

} // namespace

TorchDiagnosis TorchDiagnosis::ofWorker(const QString &errorCode, const QString &message, const TorchProbe &probe)
{
    TorchDiagnosis d;
    if (!errorCode.isEmpty()) {
        d.cause = oneLineWorkerMessage(message);
        if (errorCode == u"no_device")
            d.missing = Missing::Cuda;
        return d;
    }
    if (probe.hasTorch())
        return d;
    if (!probe.reported) {
        d.missing = Missing::Torch;
        d.cause = tr("this kforge-worker does not say which Python runs a torch task's modules (a version from before "
                     "it judged torch tasks); install this KForge's kforge-worker where it runs");
        return d;
    }
    const QString python = probe.python.isEmpty() ? u"python3"_s : probe.python;
    const QString error = oneLineWorkerMessage(probe.error);
    d.missing = meansNoPython(error, python) && !meansNoTorch(error) ? Missing::Python : Missing::Torch;
    d.cause = error.isEmpty() ? python : tr("%1: %2").arg(python, error);
    return d;
}

TorchDiagnosis TorchDiagnosis::ofResult(const QString &errorCode, const QString &message)
{
    TorchDiagnosis d;
    d.cause = oneLineWorkerMessage(message);
    if (errorCode == u"no_device")
        d.missing = Missing::Cuda;
    else if (meansNoTorch(message))
        d.missing = Missing::Torch;
    return d;
}

WorkerReadiness::State TorchDiagnosis::state(WorkerReadiness::State otherwise) const
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
