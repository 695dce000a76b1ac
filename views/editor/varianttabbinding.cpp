#include "views/editor/varianttabbinding.h"

#include "core/eval/measureformat.h"
#include "core/log/loghub.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/task/sourcelanguage.h"
#include "core/task/task.h"
#include "core/workbench/readinesswatch.h"
#include "core/workbench/sessioncontroller.h"
#include "views/editor/compileonly.h"
#include "views/editor/kerneleditor.h"
#include "views/variants/variantsmodel.h"

#include <Qsci/qsciscintilla.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLocale>
#include <cmath>

namespace kforge {

VariantTabBinding::VariantTabBinding(KernelEditor *editor, SessionStore *store, EvaluationQueue *queue,
                                     ReadinessWatch *readiness, Compiler *compiler, LogHub &log, QObject *parent)
    : QObject(parent)
    , m_editor(editor)
    , m_store(store)
    , m_queue(queue)
    , m_readiness(readiness)
    , m_log(log)
{
    m_compileOnly = new CompileOnly(compiler, editor, this);
    connect(m_editor, &KernelEditor::evaluateRequested, this, &VariantTabBinding::evaluate);
    connect(m_editor, &KernelEditor::tabClosing, this,
            [this](int, qint64, QsciScintilla *tab) { m_tabParents.remove(tab); });
    connect(m_editor, &KernelEditor::forkRequested, this, [this](int index) {
        if (const qint64 id = m_editor->variantId(index))
            fork(id);
    });
    connect(m_store, &SessionStore::variantChanged, this, &VariantTabBinding::onVariantChanged);
    connect(m_store, &SessionStore::evaluationAdded, this, &VariantTabBinding::onEvaluationAdded);
    // The verdict and timing before the worker's last passes, in the tab's status line until the final result.
    connect(m_queue, &EvaluationQueue::provisional, this, [this](int ticket, const EvalResult &result) {
        if (const qint64 id = m_queue->variantOf(ticket)) {
            m_provisional.insert(id, provisionalWords(result));
            onVariantChanged(id);
        }
    });
    connect(m_queue, &EvaluationQueue::finished, this,
            [this](const QueuedEvaluation &e) { m_provisional.remove(e.variantId); });
}

bool VariantTabBinding::isMeasured(const Variant &v)
{
    // compile_error never reached a worker; error is the pipeline failing (no worker, the reference does not
    // build): neither measured this source.
    return v.hasEvaluation() && v.eval.verdict != Verdict::CompileError && v.eval.verdict != Verdict::Error;
}

QString VariantTabBinding::candidateFileName(const QString &source) const
{
    // A torch task's candidate is a ModelNew module (Python) or a KForge .cu (core/task/sourcelanguage).
    const bool torch = m_store && m_store->task().isTorch();
    return torch && sourceLanguage(source) == SourceLanguage::Python ? QStringLiteral("candidate.py")
                                                                     : QStringLiteral("candidate.cu");
}

void VariantTabBinding::forgetParents()
{
    m_tabParents.clear();
}

void VariantTabBinding::showTask(const Task &task)
{
    m_editor->clear();
    const QDir folder(task.folder());
    // The reference defines what is correct: shown, never edited here.
    m_editor->addSource(tr("reference"), task.referenceSource(), folder.filePath(task.referenceFileName()), true);
    for (const TaskVariant &v : task.variants())
        m_editor->addSource(v.label, v.source, folder.filePath(v.file));
    m_editor->setCurrentIndex(0);
}

void VariantTabBinding::showSession()
{
    m_editor->clear();
    const Population &population = m_store->population();
    // The reference and the hand-made and imported variants open in tabs; the model's many candidates are
    // reached through the Variants panel (double-click opens one here).
    if (const Variant *reference = population.reference())
        showVariant(reference->id);
    for (const Variant &v : population.variants())
        if (v.origin == VariantOrigin::Imported || v.origin == VariantOrigin::Manual)
            showVariant(v.id);
    if (m_editor->count() > 0)
        m_editor->setCurrentIndex(0);
}

int VariantTabBinding::showVariant(qint64 variantId)
{
    const Variant *v = m_store->population().find(variantId);
    if (!v)
        return -1;
    int index = m_editor->indexOfVariant(variantId);
    if (index < 0) {
        const QString title = v->origin == VariantOrigin::Reference ? tr("reference")
                              : v->label.isEmpty()                  ? tr("variant %1").arg(v->id)
                                                                    : tr("#%1 %2").arg(v->id).arg(v->label);
        // Read-only once measured (a compile error is no measurement): what was measured stays as it was.
        index = m_editor->addSource(title, m_store->variants().source(variantId), m_store->path(),
                                    v->origin == VariantOrigin::Reference || isMeasured(*v));
        m_editor->setVariantId(index, variantId);
        // The name the evaluator compiles the source under (EvalRequest::candidateName), which nvcc's
        // diagnostics carry.
        m_editor->setCompileFileName(index, v->origin == VariantOrigin::Reference
                                                ? m_store->task().referenceFile
                                                : candidateFileName(m_store->variants().source(variantId)));
        if (v->origin == VariantOrigin::Reference)
            m_editor->setReference(index);
        onVariantChanged(variantId);
        onEvaluationAdded(variantId);
    }
    m_editor->setCurrentIndex(index);
    return index;
}

int VariantTabBinding::fork(qint64 variantId)
{
    const Variant *v = m_store->population().find(variantId);
    if (!v)
        return -1;
    const QString name = v->origin == VariantOrigin::Reference ? tr("reference")
                         : v->label.isEmpty()                  ? QString::number(v->id)
                                                               : v->label;
    const int index = m_editor->addSource(tr("fork of %1").arg(name), m_store->variants().source(variantId), QString(),
                                          false);
    m_editor->setCompileFileName(index, candidateFileName(m_store->variants().source(variantId)));
    m_tabParents.insert(m_editor->editor(index), {variantId});
    m_editor->setStatus(index, tr("Edit, then Ctrl+Enter compiles and evaluates it as a new variant."));
    m_editor->setCurrentIndex(index);
    m_editor->editor(index)->setFocus();
    return index;
}

bool VariantTabBinding::evaluate(int index)
{
    QsciScintilla *editor = m_editor->editor(index);
    if (!editor)
        return false;
    if (!m_store->isOpen() || !m_store->hasTask()) {
        Q_EMIT errorOccurred(tr("Open a task folder or a session first: evaluations are kept in a session."));
        return false;
    }
    if (const WorkerReadiness readiness = m_readiness->readiness(); readiness.isUnusable()) {
        m_compileOnly->compile(index, m_store->task(), readiness.summary());
        m_log.post(LogSource::App, LogLevel::Warning, readiness.explanation());
        return false;
    }
    const QString source = editor->text();
    const qint64 shown = m_editor->variantId(index);
    if (shown && m_store->population().contains(shown) && m_store->variants().source(shown) == source) {
        // The same source again (the reference, or a measured variant): a new measurement of the same variant. Its
        // earlier results stay in the session; the tab and the log say that this is another evaluation, so the
        // new result line does not silently take the old one's place.
        const Variant *v = m_store->population().find(shown);
        const QList<EvaluationSummary> before = m_store->evaluations().ofVariant(shown);
        if (!m_queue->reevaluate(shown)) {
            m_log.post(LogSource::App, LogLevel::Warning, m_queue->errorString());
            m_editor->setStatus(index, m_queue->errorString());
            return false;
        }
        m_editor->clearDiagnostics(index);
        const QString name = v->origin == VariantOrigin::Reference ? tr("the reference") : tr("variant #%1").arg(shown);
        if (before.isEmpty()) {
            m_editor->setStatus(index, tr("Queued for evaluation…"));
            m_log.post(LogSource::App, LogLevel::Info, tr("Evaluating %1").arg(name));
        } else {
            const QString previous = resultWords(before.constLast());
            m_editor->setStatus(index, tr("Measuring again as evaluation %1; evaluation %2 (%3) stays in the session…")
                                           .arg(before.size() + 1)
                                           .arg(before.size())
                                           .arg(previous));
            m_log.post(LogSource::App, LogLevel::Info,
                       tr("Measuring %1 again as a new evaluation (%2 so far, the last: %3); the earlier results stay "
                          "in the session")
                           .arg(name)
                           .arg(before.size())
                           .arg(previous));
        }
        return true;
    }
    QList<qint64> parents = m_tabParents.value(editor);
    if (shown && parents.isEmpty()) {
        // A fixed compile error is the same attempt again, not a child of the text that did not compile.
        const Variant *failed = m_store->population().find(shown);
        const bool compileFailed = failed && failed->origin == VariantOrigin::Manual && failed->hasEvaluation()
                                   && failed->eval.verdict == Verdict::CompileError;
        parents = compileFailed ? failed->parentIds : QList<qint64>{shown};
    }
    const qint64 id = m_queue->addManualVariant(source, parents, m_editor->title(index));
    if (!id) {
        m_log.post(LogSource::App, LogLevel::Error, m_queue->errorString());
        m_editor->setStatus(index, m_queue->errorString());
        return false;
    }
    // The tab stays editable until the evaluation finishes (onEvaluationAdded): a compile error is fixed in place.
    m_tabParents.insert(editor, parents);
    m_editor->setVariantId(index, id);
    m_editor->clearDiagnostics(index);
    m_editor->setStatus(index, tr("Variant #%1 queued for evaluation…").arg(id));
    m_log.post(LogSource::App, LogLevel::Info, tr("Evaluating %1 as variant #%2").arg(m_editor->title(index)).arg(id));
    return true;
}

qint64 VariantTabBinding::addFile(const QString &file)
{
    const QString shown = SessionController::displayPath(file);
    if (!m_store->isOpen() || !m_store->hasTask()) {
        Q_EMIT errorOccurred(tr("Open a task folder or a session first, then drop %1 to add it as a variant.").arg(shown));
        return 0;
    }
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        Q_EMIT errorOccurred(tr("Could not read %1: %2").arg(shown, f.errorString()));
        return 0;
    }
    const QString source = QString::fromUtf8(f.readAll());
    if (const WorkerReadiness readiness = m_readiness->readiness(); readiness.isUnusable()) {
        // Nothing could measure it: an editable tab (Ctrl+Enter compiles it), not a variant that can only fail.
        const int index = m_editor->addSource(QFileInfo(file).completeBaseName(), source, file, false);
        m_editor->setCompileFileName(index, candidateFileName(source));
        m_editor->setStatus(index, readiness.explanation());
        m_editor->setCurrentIndex(index);
        m_log.post(LogSource::App, LogLevel::Warning,
                   tr("Opened %1 in the editor, not as a variant: %2").arg(shown, readiness.summary()));
        return 0;
    }
    const qint64 id = m_queue->addManualVariant(source, {}, QFileInfo(file).completeBaseName());
    if (!id) {
        Q_EMIT errorOccurred(tr("Could not add %1 as a variant: %2").arg(shown, m_queue->errorString()));
        return 0;
    }
    m_log.post(LogSource::App, LogLevel::Info, tr("Added %1 as variant #%2").arg(shown).arg(id));
    showVariant(id);
    return id;
}

QString VariantTabBinding::resultWords(const EvaluationSummary &e)
{
    if (e.isCorrect() && e.speedup)
        return tr("correct, %1×").arg(QLocale().toString(*e.speedup, 'f', 2));
    return e.hasVerdict() ? e.verdictName() : tr("no result");
}

QString VariantTabBinding::provisionalWords(const EvalResult &r)
{
    const QString measured = r.isCorrect() && std::isfinite(r.speedup) && std::isfinite(r.candidate.medianMs)
                                 ? tr("correct: %1× the reference, %2 %3")
                                       .arg(QLocale().toString(r.speedup, 'f', 2), TimeNames::eventTime().toLower(),
                                            formatDuration(r.candidate.medianMs))
                                 : verdictDisplayName(r.verdict);
    const QString passes = pendingPassesText(r.pending);
    return passes.isEmpty() ? tr("%1 (provisional)").arg(measured)
                            : tr("%1 (provisional; checking %2…)").arg(measured, passes);
}

void VariantTabBinding::onVariantChanged(qint64 variantId)
{
    const int index = m_editor->indexOfVariant(variantId);
    if (index < 0)
        return;
    const Variant *v = m_store->population().find(variantId);
    if (!v)
        return;
    QString text = VariantsModel::statusText(*v);
    if (!isInFlight(v->status))
        m_provisional.remove(variantId);
    else if (const auto it = m_provisional.constFind(variantId); it != m_provisional.cend())
        text = *it;
    if (v->status == VariantStatus::Done && v->eval.speedup && v->eval.candidateMedianMs) {
        const QLocale locale;
        text = tr("correct: %1× the reference, %2 %3")
                   .arg(locale.toString(*v->eval.speedup, 'f', 2), TimeNames::eventTime().toLower(),
                        formatDuration(*v->eval.candidateMedianMs));
        const QStringList flags = VariantsModel::flagTexts(*v);
        if (!flags.isEmpty())
            text += tr(" — %1").arg(flags.join(QStringLiteral(", ")));
    }
    if (v->status == VariantStatus::Done || v->status == VariantStatus::Failed) {
        // Measured more than once: which measurement this line is, and the one before it.
        if (const QList<EvaluationSummary> all = m_store->evaluations().ofVariant(variantId); all.size() > 1)
            text += tr(" (evaluation %1; before: %2)").arg(all.size()).arg(resultWords(all.at(all.size() - 2)));
    }
    m_editor->setStatus(index, text);
}

void VariantTabBinding::onEvaluationAdded(qint64 variantId)
{
    m_provisional.remove(variantId); // the final result replaces it
    const int index = m_editor->indexOfVariant(variantId);
    if (index < 0)
        return;
    const std::optional<Evaluation> e = m_store->evaluations().latest(variantId);
    if (!e)
        return;
    // A finished evaluation makes the source read-only, as it was measured; a compile error leaves it editable.
    // Text edited while the evaluation ran is not what was measured and stays editable too.
    if (const Variant *v = m_store->population().find(variantId);
        v && isMeasured(*v) && !m_editor->isReadOnly(index)
        && m_editor->source(index) == m_store->variants().source(variantId)) {
        m_tabParents.remove(m_editor->editor(index));
        m_editor->setReadOnly(index, true);
    }
    // What the compiler said about this source, as it was measured (stored with the evaluation).
    const CompileSummary &compile = e->measurement().compile;
    m_editor->setDiagnostics(index, compile.diagnostics);
    m_editor->setResources(index, compile.resources);
    onVariantChanged(variantId);
}

} // namespace kforge
