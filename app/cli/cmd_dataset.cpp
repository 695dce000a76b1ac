// kforge-cli dataset: every model answer of the given sessions as JSON lines (prompt as chat messages,
// the answer, its parsed parts, verdict, speedup, flags), for supervised and self-training.
#include "command.h"

#include "core/export/trainingdata.h"
#include "core/session/sessionstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

struct DatasetCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::DatasetCommand)

public:
    static int run(const QStringList &args);
};

int DatasetCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(tr("Write every model answer of the given sessions as one JSON object per line: the "
                                        "prompt as chat messages, the answer, its parsed parts, the verdict and the speedup. "
                                        "Suspicious and degenerate results are left out unless asked for."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"sessions"_s, tr("Session files (*.kforge)."), tr("session.kforge..."));
    const QCommandLineOption outOpt(u"out"_s, tr("The JSON lines file to write."), tr("data.jsonl"));
    const QCommandLineOption correctOpt(u"correct-only"_s, tr("Only answers whose kernel was verified correct."));
    const QCommandLineOption minOpt(u"min-speedup"_s,
                                    tr("Only correct answers measured at least this many times faster than "
                                       "the reference."),
                                    tr("x"));
    const QCommandLineOption suspiciousOpt(u"include-suspicious"_s, tr("Also results held for review and results of degenerate "
                                                                       "tasks or outputs."));
    parser.addOptions({outOpt, correctOpt, minOpt, suspiciousOpt});
    parser.process(args);

    const QStringList sessions = parser.positionalArguments();
    if (sessions.isEmpty() || !parser.isSet(outOpt)) {
        err << tr("Usage: kforge-cli dataset <session.kforge>... --out data.jsonl [--correct-only] [--min-speedup X] "
                  "[--include-suspicious]")
            << '\n';
        return 2;
    }
    kforge::DatasetFilter filter;
    filter.correctOnly = parser.isSet(correctOpt);
    filter.includeSuspicious = parser.isSet(suspiciousOpt);
    if (parser.isSet(minOpt)) {
        bool ok = false;
        const double x = parser.value(minOpt).toDouble(&ok);
        if (!ok) {
            err << tr("kforge-cli dataset: --min-speedup takes a number, not '%1'").arg(parser.value(minOpt)) << '\n';
            return 2;
        }
        filter.minSpeedup = x;
    }

    QByteArray data;
    kforge::DatasetStats stats;
    for (const QString &path : sessions) {
        if (!QFileInfo(path).isFile()) {
            err << tr("kforge-cli dataset: no session file %1").arg(path) << '\n';
            return 1;
        }
        kforge::SessionStore store;
        if (!store.open(path)) {
            err << tr("kforge-cli dataset: %1: %2").arg(path, store.errorString()) << '\n';
            return 1;
        }
        for (const QJsonObject &rec : kforge::TrainingData::records(store, filter, &stats))
            data += QJsonDocument(rec).toJson(QJsonDocument::Compact) + '\n';
    }
    QSaveFile f(parser.value(outOpt));
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        err << tr("kforge-cli dataset: cannot write %1: %2").arg(QDir::toNativeSeparators(parser.value(outOpt)), f.errorString())
            << '\n';
        return 1;
    }
    out << tr("%1 of %2 answers written to %3").arg(stats.written).arg(stats.answers).arg(QDir::toNativeSeparators(f.fileName()))
        << '\n';
    const int skipped = stats.notCorrect + stats.belowSpeedup + stats.suspicious + stats.degenerate;
    if (skipped > 0)
        out << tr("left out: %1 not correct, %2 below the speedup, %3 held for review, %4 degenerate")
                   .arg(stats.notCorrect)
                   .arg(stats.belowSpeedup)
                   .arg(stats.suspicious)
                   .arg(stats.degenerate)
            << '\n';
    return 0;
}

} // namespace

KFORGE_REGISTER_COMMAND(dataset, u"dataset"_s,
                        QCoreApplication::translate("kforge-cli",
                                                    "Write the model answers of sessions as JSON lines for training"),
                        DatasetCommand::run)

} // namespace kforge::cli
