// kforge-cli review: the headless review of a session's held variants, those whose too-good result the
// automatic deep check failed or could not run (EvaluationQueue). Lists them; accepts them (the rounds then show
// them to the model) or rejects them (excluded from the exemplars, with a note saying why).
#include "command.h"

#include "core/session/sessionstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QTextStream>
#include <set>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

struct ReviewCommand {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::ReviewCommand)

public:
    static int run(const QStringList &args);
    static bool isHeld(const Variant &v) { return v.suspicious && !v.accepted && !v.excluded; }
    // "12", "12,13" or "#12": the ids named by repeated options; false with `bad` set on anything else.
    static bool ids(const QStringList &values, std::set<qint64> &out, QString &bad);
    static void list(QTextStream &out, const SessionStore &store);
};

bool ReviewCommand::ids(const QStringList &values, std::set<qint64> &out, QString &bad)
{
    for (const QString &value : values)
        for (QString part : value.split(u',', Qt::SkipEmptyParts)) {
            part = part.trimmed();
            if (part.startsWith(u'#'))
                part.remove(0, 1);
            bool ok = false;
            const qint64 id = part.toLongLong(&ok);
            if (!ok || id <= 0) {
                bad = part;
                return false;
            }
            out.insert(id);
        }
    return true;
}

void ReviewCommand::list(QTextStream &out, const SessionStore &store)
{
    int held = 0;
    for (const Variant &v : store.population().variants()) {
        if (!isHeld(v))
            continue;
        if (held++ == 0)
            out << u"%1 %2 %3 %4  %5"_s.arg(tr("id"), -6)
                       .arg(tr("round"), -6)
                       .arg(tr("speedup"), 9)
                       .arg(tr("verdict"), -10)
                       .arg(tr("reason"))
                << '\n';
        const auto round = v.roundId ? store.rounds().find(v.roundId) : std::nullopt;
        const QString speedup = v.eval.speedup ? u"%1x"_s.arg(*v.eval.speedup, 0, 'f', 2) : u"-"_s;
        out << u"%1 %2 %3 %4  %5"_s.arg(u"#%1"_s.arg(v.id), -6)
                   .arg(round ? u"R%1"_s.arg(round->number) : u"-"_s, -6)
                   .arg(speedup, 9)
                   .arg(v.eval.hasVerdict() ? v.eval.verdictName() : u"-"_s, -10)
                   .arg(v.suspiciousReason.isEmpty() ? tr("not yet reviewed") : v.suspiciousReason)
            << '\n';
    }
    if (held == 0)
        out << tr("No variant is held for review.") << '\n';
}

int ReviewCommand::run(const QStringList &args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("List the variants of a session held for review (a result that looked too good and that the automatic "
           "deep check failed or could not run), and accept or reject them."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"session"_s, tr("The session file (*.kforge)."));
    const QCommandLineOption acceptOpt(u"accept"_s,
                                       tr("Accept held variant ID (repeatable, or IDs separated by commas)."), tr("ID"));
    const QCommandLineOption rejectOpt(
        u"reject"_s, tr("Reject held variant ID: it is excluded from the exemplars, with a note (repeatable)."), tr("ID"));
    const QCommandLineOption allOpt(u"accept-all"_s, tr("Accept every held variant."));
    parser.addOptions({acceptOpt, rejectOpt, allOpt});
    parser.process(args);

    const QStringList positional = parser.positionalArguments();
    std::set<qint64> accept, reject;
    QString bad;
    if (positional.size() != 1) {
        err << tr("Usage: kforge-cli review <session.kforge> [--accept ID...] [--reject ID...] [--accept-all]") << '\n';
        return 2;
    }
    if (!ids(parser.values(acceptOpt), accept, bad) || !ids(parser.values(rejectOpt), reject, bad)) {
        err << tr("kforge-cli review: '%1' is not a variant id").arg(bad) << '\n';
        return 2;
    }
    const QString sessionPath = positional.front();
    if (!QFileInfo(sessionPath).isFile()) {
        err << tr("kforge-cli review: no session file %1").arg(sessionPath) << '\n';
        return 1;
    }
    SessionStore store;
    if (!store.open(sessionPath)) {
        err << tr("kforge-cli review: %1: %2").arg(sessionPath, store.errorString()) << '\n';
        return 1;
    }
    if (parser.isSet(allOpt))
        for (const Variant &v : store.population().variants())
            if (isHeld(v) && !reject.count(v.id))
                accept.insert(v.id);
    // Everything named is checked before anything changes: a typo must not leave half a review behind.
    for (const std::set<qint64> *named : {&accept, &reject})
        for (const qint64 id : *named) {
            const Variant *v = store.population().find(id);
            if (!v) {
                err << tr("kforge-cli review: the session has no variant #%1").arg(id) << '\n';
                return 1;
            }
            if (!isHeld(*v)) {
                err << tr("kforge-cli review: variant #%1 is not held for review").arg(id) << '\n';
                return 1;
            }
            if (accept.count(id) && reject.count(id)) {
                err << tr("kforge-cli review: variant #%1 is both accepted and rejected").arg(id) << '\n';
                return 2;
            }
        }
    if (accept.empty() && reject.empty()) {
        list(out, store);
        return 0;
    }
    for (const qint64 id : accept) {
        if (!store.variants().setAccepted(id, true)) {
            err << tr("kforge-cli review: %1").arg(store.errorString()) << '\n';
            return 1;
        }
        const Variant *v = store.population().find(id);
        out << (v->usableAsExemplar() ? tr("Accepted #%1: the rounds can show it to the model.").arg(id)
                                      : tr("Accepted #%1, but its latest evaluation is not correct (%2): it is not "
                                           "shown to the model.")
                                            .arg(id)
                                            .arg(v->eval.verdictName()))
            << '\n';
    }
    for (const qint64 id : reject) {
        const Variant *v = store.population().find(id);
        const QString note = tr("Rejected in review: %1").arg(v->suspiciousReason);
        const QString notes = v->notes.isEmpty() ? note : v->notes + u'\n' + note;
        if (!store.variants().setExcluded(id, true) || !store.variants().setNotes(id, notes)) {
            err << tr("kforge-cli review: %1").arg(store.errorString()) << '\n';
            return 1;
        }
        out << tr("Rejected #%1: excluded from the exemplars.").arg(id) << '\n';
    }
    return 0;
}

} // namespace

KFORGE_REGISTER_COMMAND(review, u"review"_s,
                        QCoreApplication::translate("kforge-cli",
                                                    "List the variants held for review, and accept or reject them"),
                        ReviewCommand::run)

} // namespace kforge::cli
