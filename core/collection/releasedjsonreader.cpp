#include "core/collection/releasedjsonreader.h"

#include "core/collection/problemindex.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString jsonText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    return {};
}

// A value as JSON writes it: "fast" with its quotes, true, [1].
QString shown(const QJsonValue &v)
{
    const QByteArray a = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(a.mid(1, a.size() - 2));
}

// The record's level field, else its group's name ("level1", "level_2", "3"); 0 when neither says.
int levelOf(const QJsonValue &v, const QString &group)
{
    if (v.isDouble())
        return v.toInt();
    const QString s = v.isString() ? v.toString() : group;
    bool ok = false;
    const int n = s.toInt(&ok);
    return ok ? n : ProblemIndex::levelIn(s);
}

} // namespace

QStringList ReleasedJsonReader::fields()
{
    return {u"task_id"_s, u"ref_code"_s, u"custom_code"_s, u"score"_s, u"level"_s};
}

std::optional<double> ReleasedJsonReader::parseSpeedup(const QJsonValue &v)
{
    if (v.isDouble())
        return std::isfinite(v.toDouble()) ? std::optional(v.toDouble()) : std::nullopt;
    if (!v.isString())
        return std::nullopt;
    static const QRegularExpression number(u"^\\s*[x×]?\\s*([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*[x×]?\\s*$"_s);
    const QRegularExpressionMatch m = number.match(v.toString());
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toDouble();
}

// The file's lists of records as (group name, records): one group for a list, one per key whose value is a list for
// an object (a key with anything else is an issue of `c`). Nullopt with `error` when there is none.
std::optional<ReleasedJsonReader::Groups> ReleasedJsonReader::groupsIn(const QString &file, Collection &c, QString *error)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(file, f.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (doc.isNull()) {
        *error = tr("%1 is not JSON: %2 at offset %3").arg(file, parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    Groups groups;
    if (doc.isArray()) {
        groups.append({QString(), doc.array()});
        return groups;
    }
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it.value().isArray())
            groups.append({it.key(), it.value().toArray()});
        else
            c.issues.append({u"%1 \"%2\""_s.arg(QFileInfo(file).fileName(), it.key()), tr("not a list of records: left out"),
                             false});
    }
    if (groups.isEmpty()) {
        *error = tr("%1 holds no list of records (a list, or an object of lists such as {\"level1\": [...]})").arg(file);
        return std::nullopt;
    }
    return groups;
}

// One record as a pair without its names (its id is the record's task id, or empty; no problem key or file name):
// nullopt, with the reason in `c.issues`, for a record that is no object or lacks what a pair needs. `where` is
// where the record is, for the issues.
std::optional<CollectionPair> ReleasedJsonReader::pairOf(const QJsonValue &record, const QString &where,
                                                         const QString &group, const FieldNames &field, Collection &c)
{
    if (!record.isObject()) {
        c.issues.append({where, tr("not a record (an object with %1, %2, %3 and %4)")
                                    .arg(field(u"task_id"_s), field(u"ref_code"_s), field(u"custom_code"_s),
                                         field(u"score"_s))});
        return std::nullopt;
    }
    const QJsonObject r = record.toObject();
    CollectionPair pair;
    const QString taskId = jsonText(r.value(field(u"task_id"_s)));
    const QString refKey = field(u"ref_code"_s), customKey = field(u"custom_code"_s);
    pair.problemSource = r.value(refKey).toString();
    pair.candidateSource = r.value(customKey).toString();
    pair.kind = candidateKind(pair.candidateSource);
    const QString label = taskId.isEmpty() ? where : where + u" (%1 %2)"_s.arg(field(u"task_id"_s), taskId);
    QString issue;
    if (pair.problemSource.trimmed().isEmpty())
        issue = r.contains(refKey) ? tr("the reference's code (%1) is empty").arg(refKey)
                                   : tr("no reference code: the record has no field %1 (name another with --map "
                                        "ref_code=FIELD)")
                                         .arg(refKey);
    else if (pair.candidateSource.trimmed().isEmpty())
        issue = r.contains(customKey) ? tr("the candidate's code (%1) is empty").arg(customKey)
                                      : tr("no candidate code: the record has no field %1 (name another with --map "
                                           "custom_code=FIELD)")
                                            .arg(customKey);
    else if (!definesModel(pair.problemSource))
        issue = tr("the reference's code defines no class Model (KernelBench's format: class Model, get_inputs(), "
                   "get_init_inputs())");
    else if (pair.kind == CandidateKind::Unknown)
        issue = tr("the candidate's code defines no class ModelNew and no KF_ENTRY");
    if (!issue.isEmpty()) {
        c.issues.append({label, issue});
        return std::nullopt;
    }
    const QJsonValue score = r.value(field(u"score"_s));
    pair.claimedSpeedup = parseSpeedup(score);
    if (!pair.claimedSpeedup && !score.isUndefined() && !score.isNull())
        pair.notes << tr("the claimed speedup (%1) %2 is not a number: no claim").arg(field(u"score"_s), shown(score));
    pair.level = levelOf(r.value(field(u"level"_s)), group);
    bool numeric = false;
    const int number = taskId.toInt(&numeric);
    pair.problemNumber = numeric ? number : -1;
    pair.id = taskId; // the caller's names start from it
    pair.problemOrigin = label + u' ' + refKey;
    pair.candidateOrigin = label + u' ' + customKey;
    return pair;
}

std::optional<Collection> ReleasedJsonReader::read(const QString &file, const QMap<QString, QString> &fieldMap, QString *error)
{
    const FieldNames field = [&](const QString &name) { return fieldMap.value(name, name); };
    const QString fileName = QFileInfo(file).fileName();
    Collection c;
    c.format = CollectionFormat::ReleasedJson;
    const std::optional<Groups> groups = groupsIn(file, c, error);
    if (!groups)
        return std::nullopt;
    QHash<QString, QString> keyOfSource; // problem text -> its key: equal texts share one task
    QHash<QString, QString> sourceOfKey;
    QHash<QString, int> ids;
    for (const auto &[group, records] : *groups) {
        for (qsizetype i = 0; i < records.size(); ++i) {
            const QString where = group.isEmpty() ? u"%1 [%2]"_s.arg(fileName).arg(i)
                                                  : u"%1 %2[%3]"_s.arg(fileName, group).arg(i);
            std::optional<CollectionPair> pair = pairOf(records.at(i), where, group, field, c);
            if (!pair)
                continue;
            const QString idText = pair->id.isEmpty() ? QString::number(i) : pair->id;
            const QString base = group.isEmpty() ? idText : group + u'/' + idText;
            const int seen = ids[base]++;
            pair->id = seen ? u"%1#%2"_s.arg(base).arg(seen + 1) : base;
            // One task per problem text; a text under a name another text has gets the name with a suffix.
            QString key = keyOfSource.value(pair->problemSource);
            if (key.isEmpty()) {
                const QString wanted = problemKeyFor(group.isEmpty() ? QString(u"task_"_s + idText)
                                                                     : QString(group + u'_' + idText));
                key = wanted;
                for (int n = 2; sourceOfKey.contains(key); ++n)
                    key = u"%1_%2"_s.arg(wanted).arg(n);
                keyOfSource.insert(pair->problemSource, key);
                sourceOfKey.insert(key, pair->problemSource);
            }
            pair->problemKey = key;
            pair->candidateName = key + (pair->kind == CandidateKind::Cuda ? u".cu"_s : u".py"_s);
            c.pairs << *pair;
        }
    }
    return c;
}

} // namespace kforge
