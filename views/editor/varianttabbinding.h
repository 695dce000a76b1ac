#pragma once
// Which editor tab shows which variant of the open session, and what follows from it: a measured variant's tab is
// read-only, its status line (a running evaluation's provisional result included), compile diagnostics and
// resources come from the session; a forked or edited tab becomes a new manual variant on Ctrl+Enter (only compiled
// while no GPU worker is usable). The one place that connects KernelEditor's tabs to SessionStore's variants.
#include <QHash>
#include <QList>
#include <QObject>

namespace kforge {

class CompileOnly;
class Compiler;
class KernelEditor;
class LogHub;
class ReadinessWatch;
class EvaluationQueue;
class SessionStore;
class Task;
struct EvalResult;
struct EvaluationSummary;
struct Variant;

class VariantTabBinding : public QObject
{
    Q_OBJECT
public:
    VariantTabBinding(KernelEditor *editor, SessionStore *store, EvaluationQueue *queue, ReadinessWatch *readiness,
                      Compiler *compiler, LogHub &log, QObject *parent = nullptr);

    // A finished evaluation (a compile error or a pipeline error is none): what makes a variant's tab read-only.
    static bool isMeasured(const Variant &v);
    // The name a source is compiled and highlighted under: candidate.py for a torch task's ModelNew module,
    // candidate.cu otherwise.
    QString candidateFileName(const QString &source) const;

    // The tabs of a task folder shown without a session: the reference (read-only) and the task's variants.
    void showTask(const Task &task);
    // The tabs of the open session: the reference and the hand-made and imported variants.
    void showSession();
    // Shows the variant in a (read-only once measured) tab, opening one when needed; returns its index, -1 if none.
    int showVariant(qint64 variantId);
    // Opens an editable copy of a variant's source in a new tab ("fork to edit"); returns the tab's index.
    int fork(qint64 variantId);
    // Ctrl+Enter on tab `index`: a new or edited source becomes a manual variant of the session; the reference and
    // an evaluated variant are measured (again: a new evaluation, said in the tab and the log, the earlier ones
    // kept); while no GPU worker is usable the tab is only compiled. False with the reason logged (or reported
    // through errorOccurred()).
    bool evaluate(int index);
    // Adds a .cu file as a manual variant of the open session (and evaluates it); returns its id, 0 on failure.
    qint64 addFile(const QString &file);
    // The open session is being replaced: no tab descends from its variants any more.
    void forgetParents();

Q_SIGNALS:
    // What the user asked for cannot be done (no session, an unreadable file): the window shows it.
    void errorOccurred(const QString &message);

private:
    // "correct, 1.95×" or the verdict: one evaluation in a few words.
    static QString resultWords(const EvaluationSummary &e);
    // A provisional result (EvaluationQueue::provisional) in the words of the status line, marked as such.
    static QString provisionalWords(const EvalResult &r);
    void onVariantChanged(qint64 variantId);
    void onEvaluationAdded(qint64 variantId);

    KernelEditor *m_editor = nullptr;
    SessionStore *m_store = nullptr;
    EvaluationQueue *m_queue = nullptr;
    ReadinessWatch *m_readiness = nullptr;
    LogHub &m_log;
    CompileOnly *m_compileOnly = nullptr;
    // The variants an editable (forked) tab descends from, by the tab's editor widget.
    QHash<QObject *, QList<qint64>> m_tabParents;
    // The status line of a variant whose evaluation sent its provisional result, until the final one is stored.
    QHash<qint64, QString> m_provisional;
};

} // namespace kforge
