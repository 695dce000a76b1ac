#include "core/export/trainingdata.h"

#include "core/optimizer/promptbuilder.h"
#include "core/optimizer/responseparser.h"
#include "core/session/sessionstore.h"

#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QJsonValue optionalNumber(std::optional<double> v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonArray ids(const QList<qint64> &list)
{
    QJsonArray a;
    for (const qint64 id : list)
        a.append(double(id));
    return a;
}

} // namespace

QList<QJsonObject> TrainingData::records(const SessionStore &store, const DatasetFilter &filter, DatasetStats *stats)
{
    QList<QJsonObject> out;
    if (!store.isOpen() || !store.hasTask())
        return out;
    DatasetStats local;
    DatasetStats &st = stats ? *stats : local;

    // The system prompt is not stored per prompt: it is the template every round sends.
    QString systemError;
    const QString system = PromptBuilder::system(&systemError);
    const bool taskDegenerate = store.task().isDegenerate();
    const QString sessionFile = QFileInfo(store.path()).fileName();

    QHash<qint64, const Variant *> byResponse;
    for (const Variant &v : store.population().variants())
        if (v.responseId > 0 && !byResponse.contains(v.responseId))
            byResponse.insert(v.responseId, &v);
    QHash<qint64, int> roundNumber;
    QList<PromptRecord> prompts;
    QSet<qint64> seen;
    const auto addPrompt = [&](const PromptRecord &p) {
        if (!seen.contains(p.id)) {
            seen.insert(p.id);
            prompts << p;
        }
    };
    for (const RoundRecord &r : store.rounds().all()) {
        roundNumber.insert(r.id, r.number);
        for (const PromptRecord &p : store.exchanges().prompts(r.id))
            addPrompt(p);
    }
    for (const PromptRecord &p : store.exchanges().prompts(0))
        addPrompt(p);
    for (const Variant &v : store.population().variants())
        if (v.promptId > 0 && !seen.contains(v.promptId))
            if (const auto p = store.exchanges().prompt(v.promptId))
                addPrompt(*p);
    for (const PairAnalysis &a : store.analyses().pairAnalyses())
        if (a.responseId > 0)
            if (const auto resp = store.exchanges().response(a.responseId); resp && !seen.contains(resp->promptId))
                if (const auto p = store.exchanges().prompt(resp->promptId))
                    addPrompt(*p);
    std::sort(prompts.begin(), prompts.end(), [](const PromptRecord &a, const PromptRecord &b) { return a.id < b.id; });

    for (const PromptRecord &prompt : prompts) {
        for (const ResponseRecord &resp : store.exchanges().responses(prompt.id)) {
            if (resp.rawText.trimmed().isEmpty())
                continue; // no answer came (error, cancelled before any text)
            ++st.answers;
            const Variant *variant = byResponse.value(resp.id, nullptr);

            QJsonObject parsed;
            if (variant) {
                const VariantTexts texts = store.variants().texts(variant->id);
                parsed = QJsonObject{{u"status"_s, resp.parseStatus},
                                     {u"analysis"_s, texts.analysis},
                                     {u"design"_s, texts.design},
                                     {u"code"_s, texts.source}};
            } else {
                // Nothing was compiled from it (parse failure, a comparison answer): parse it again for its parts.
                const ParsedResponse p = ResponseParser::parse(resp.rawText, resp.finishStatus == u"length"_s);
                parsed = QJsonObject{{u"status"_s, p.statusName()},
                                     {u"analysis"_s, p.analysis},
                                     {u"design"_s, p.design},
                                     {u"code"_s, p.code}};
            }

            QString verdict;
            std::optional<double> speedup;
            QStringList flags;
            bool suspicious = false;
            if (variant && variant->hasEvaluation()) {
                verdict = variant->eval.verdictName();
                speedup = variant->eval.speedup;
                flags = variant->eval.flags;
                suspicious = variant->suspicious && !variant->accepted;
            } else if (variant) {
                verdict = variant->status == VariantStatus::Failed ? u"failed"_s : u"not_evaluated"_s;
            } else if (prompt.kind == u"compare"_s) {
                verdict = u"none"_s;
            } else {
                verdict = resp.parseStatus == u"failed"_s ? u"parse_failed"_s : u"not_evaluated"_s;
            }
            const bool degenerate = verdict == u"correct"_s && (taskDegenerate || flags.contains(u"degenerate_output"_s));

            if ((filter.correctOnly || filter.minSpeedup) && verdict != u"correct"_s) {
                ++st.notCorrect;
                continue;
            }
            if (filter.minSpeedup && (!speedup || *speedup < *filter.minSpeedup)) {
                ++st.belowSpeedup;
                continue;
            }
            if (!filter.includeSuspicious && suspicious) {
                ++st.suspicious;
                continue;
            }
            if (!filter.includeSuspicious && degenerate) {
                ++st.degenerate;
                continue;
            }

            QJsonArray messages;
            if (!system.isEmpty())
                messages.append(QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, system}});
            messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, prompt.rendered}});
            messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, resp.rawText}});

            QJsonObject rec{
                {u"session"_s, sessionFile},
                {u"task"_s, store.task().name},
                {u"prompt_id"_s, double(prompt.id)},
                {u"response_id"_s, double(resp.id)},
                {u"variant_id"_s, variant ? QJsonValue(double(variant->id)) : QJsonValue(QJsonValue::Null)},
                {u"round"_s, roundNumber.value(prompt.roundId, 0)},
                {u"kind"_s, prompt.kind},
                {u"model"_s, resp.model},
                {u"messages"_s, messages},
                {u"reasoning"_s, resp.reasoningText},
                {u"parsed"_s, parsed},
                {u"verdict"_s, verdict},
                {u"speedup"_s, optionalNumber(speedup)},
                {u"flags"_s, QJsonArray::fromStringList(flags)},
                {u"suspicious"_s, suspicious},
                {u"degenerate"_s, degenerate},
                {u"exemplars"_s, ids(prompt.exemplarIds)},
                {u"finish"_s, resp.finishStatus},
                {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, double(resp.promptTokens)},
                                         {u"completion_tokens"_s, double(resp.completionTokens)},
                                         {u"reasoning_tokens"_s, double(resp.reasoningTokens)}}},
            };
            out << rec;
            ++st.written;
        }
    }
    return out;
}

} // namespace kforge
