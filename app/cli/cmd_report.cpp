// kforge-cli report: one self-contained HTML file (and optionally Markdown) about a session: the speedup
// chart, the rounds, the best variants with their diffs against the reference, metrics and the model's
// analyses.
#include "command.h"

#include "core/export/reportinput.h"
#include "core/export/reportwriter.h"
#include "core/session/sessionstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

struct ReportCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::ReportCommand)

public:
    static int run(const QStringList &args);
    static bool write(const QString &path, const QString &text, QString *error);
    // Where the HTML goes without --out: beside the session, named after it ("runs/gemm.kforge" ->
    // "runs/gemm-report.html"), as the window's Export Report proposes.
    static QString defaultHtmlPath(const QString &sessionPath);
};

QString ReportCommand::defaultHtmlPath(const QString &sessionPath)
{
    const QFileInfo session(sessionPath);
    return session.dir().filePath(session.completeBaseName() + u"-report.html"_s);
}

bool ReportCommand::write(const QString &path, const QString &text, QString *error)
{
    QSaveFile f(path);
    const QByteArray bytes = text.toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        *error = tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    return true;
}

int ReportCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Write a report of a session: one self-contained HTML file with the speedup chart, "
           "the best variants, their diffs against the reference, metrics and the model's analyses."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"session"_s, tr("The session file (*.kforge)."));
    const QCommandLineOption outOpt(u"out"_s,
                                    tr("The HTML file to write (default: <session>-report.html beside the session)."),
                                    tr("report.html"));
    const QCommandLineOption mdOpt(u"markdown"_s, tr("Also write the report as Markdown to this file."), tr("report.md"));
    const QCommandLineOption topOpt(u"top"_s, tr("How many of the best variants to show in full (default 5)."), tr("n"),
                                    u"5"_s);
    parser.addOptions({outOpt, mdOpt, topOpt});
    parser.process(args);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        err << tr("Usage: kforge-cli report <session.kforge> [--out report.html] [--markdown report.md] [--top N]") << '\n';
        return 2;
    }
    bool ok = false;
    const int top = parser.value(topOpt).toInt(&ok);
    if (!ok || top < 0) {
        err << tr("kforge-cli report: --top takes a number, not '%1'").arg(parser.value(topOpt)) << '\n';
        return 2;
    }
    const QString sessionPath = positional.front();
    if (!QFileInfo(sessionPath).isFile()) {
        err << tr("kforge-cli report: no session file %1").arg(sessionPath) << '\n';
        return 1;
    }
    kforge::SessionStore store;
    if (!store.open(sessionPath)) {
        err << tr("kforge-cli report: %1: %2").arg(sessionPath, store.errorString()) << '\n';
        return 1;
    }
    QString error;
    const auto report = kforge::ReportSource::build(store, top, &error);
    if (!report) {
        err << tr("kforge-cli report: %1").arg(error) << '\n';
        return 1;
    }
    // HTML unless only Markdown was asked for.
    if (parser.isSet(outOpt) || !parser.isSet(mdOpt)) {
        const QString htmlPath = parser.isSet(outOpt) ? parser.value(outOpt) : defaultHtmlPath(sessionPath);
        if (!write(htmlPath, kforge::ReportWriter::html(*report), &error)) {
            err << tr("kforge-cli report: %1").arg(error) << '\n';
            return 1;
        }
        out << tr("Wrote %1").arg(QDir::toNativeSeparators(htmlPath)) << '\n';
    }
    if (parser.isSet(mdOpt)) {
        if (!write(parser.value(mdOpt), kforge::ReportWriter::markdown(*report), &error)) {
            err << tr("kforge-cli report: %1").arg(error) << '\n';
            return 1;
        }
        out << tr("Wrote %1").arg(QDir::toNativeSeparators(parser.value(mdOpt))) << '\n';
    }
    return 0;
}

} // namespace

KFORGE_REGISTER_COMMAND(report, u"report"_s,
                        QCoreApplication::translate("kforge-cli", "Write an HTML (and Markdown) report of a session"),
                        ReportCommand::run)

} // namespace kforge::cli
