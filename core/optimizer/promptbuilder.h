#pragma once
// Fills the prompt templates: the contrastive prompt of a round (task, reference, K measured exemplars with
// compact profiles, the user's hint), the repair prompt (a failed kernel with its diagnostics) and the
// "why is A faster than B" prompt. Context builders are public so a prompt preview can show the same data.
#include "core/eval/measurement.h"
#include "core/session/taskrecord.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <optional>

namespace kforge {

class SessionStore;

// A measured variant as a prompt shows it.
struct PromptExemplar {
    qint64 id = 0;
    QString label;
    bool isReference = false;
    QString source;
    std::optional<double> speedup;
    Measurement result; // its latest stored evaluation
    QString deviceName;
};

struct ContrastiveRequest {
    TaskRecord task;
    QList<PromptExemplar> exemplars; // any order: the prompt lists them slowest first
    QString hint;
    QString templateName = QStringLiteral("contrastive");
};

struct RepairRequest {
    enum class Failure { CompileError, WrongResult, RuntimeError };
    TaskRecord task;
    QString source;
    QString design; // what the model meant to build, when known
    Failure failure = Failure::CompileError;
    QString diagnostics; // compiler output (CompileError)
    QString nvccCommand; // the command line that failed, without paths that leak the user's home
    Measurement result;  // the failed evaluation (WrongResult, RuntimeError)
    QString templateName = QStringLiteral("repair");
};

struct CompareRequest {
    TaskRecord task;
    PromptExemplar a;
    PromptExemplar b;
    QString question; // empty: "Why is variant A faster than variant B?"
    QString templateName = QStringLiteral("compare");
};

class PromptBuilder
{
    Q_DECLARE_TR_FUNCTIONS(kforge::PromptBuilder)

public:
    // A variant of the open session as an exemplar (source and latest evaluation read from the store).
    static PromptExemplar exemplar(const SessionStore &store, qint64 variantId);

    static QVariantMap taskContext(const TaskRecord &task);
    static QVariantMap exemplarContext(const PromptExemplar &e, int index);
    static QVariantMap contrastiveContext(const ContrastiveRequest &r);
    static QVariantMap repairContext(const RepairRequest &r);
    static QVariantMap compareContext(const CompareRequest &r);

    // The rendered prompt; empty with *error naming the template and the problem.
    static QString contrastive(const ContrastiveRequest &r, QString *error);
    static QString repair(const RepairRequest &r, QString *error);
    static QString compare(const CompareRequest &r, QString *error);
    // The system prompt shared by all three.
    static QString system(QString *error);
    // The template a request named `name` uses for `task`: on a torch task "contrastive" and "repair" become
    // "contrastive_torch" and "repair_torch" (PyTorch reference, both answer forms); any other name as it is.
    static QString templateFor(const QString &name, const TaskRecord &task);
    static bool isTorch(const TaskRecord &task);

    // Human lines about what went wrong in a verification or run ("3 of 16777216 elements differ...").
    static QStringList failureDetails(const Measurement &result);

private:
    static QString renderNamed(const QString &name, const QVariantMap &context, QString *error);
};

} // namespace kforge
