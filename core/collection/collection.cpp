#include "core/collection/collection.h"

#include "core/collection/torchextension.h"
#include "core/task/torchimport.h"

#include <QRegularExpression>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

QString formatName(CollectionFormat f)
{
    switch (f) {
    case CollectionFormat::ProblemFolder: return u"folder"_s;
    case CollectionFormat::ReleasedJson: return u"json"_s;
    case CollectionFormat::KernelBenchRun: return u"run"_s;
    }
    return {};
}

QString kindName(CandidateKind k)
{
    switch (k) {
    case CandidateKind::ModelNew: return u"ModelNew"_s;
    case CandidateKind::Cuda: return u".cu"_s;
    case CandidateKind::TorchExtension: return u"torch extension"_s;
    case CandidateKind::Unknown: break;
    }
    return u"?"_s;
}

CandidateKind candidateKind(const QString &source)
{
    static const QRegularExpression modelNew(u"^(class\\s+ModelNew\\b|ModelNew\\s*=)"_s,
                                             QRegularExpression::MultilineOption);
    static const QRegularExpression entry(u"^\\s*(KF_ENTRY\\s*\\(|KF_EXPORT\\s+int\\s+kf_entry\\b)"_s,
                                          QRegularExpression::MultilineOption);
    if (modelNew.match(source).hasMatch())
        return CandidateKind::ModelNew;
    if (entry.match(source).hasMatch())
        return CandidateKind::Cuda;
    if (TorchExtension::isExtension(source))
        return CandidateKind::TorchExtension;
    return CandidateKind::Unknown;
}

bool definesModel(const QString &source)
{
    static const QRegularExpression model(u"^class\\s+Model\\s*[(:]"_s, QRegularExpression::MultilineOption);
    return model.match(source).hasMatch();
}

int Collection::blockingIssues() const
{
    return int(std::count_if(issues.begin(), issues.end(), [](const CollectionIssue &i) { return i.blocking; }));
}

QList<CollectionPair> Collection::selected(const QStringList &names) const
{
    if (names.isEmpty())
        return pairs;
    QList<CollectionPair> out;
    for (const CollectionPair &p : pairs)
        if (std::any_of(names.begin(), names.end(), [&](const QString &n) {
                return p.id.contains(n, Qt::CaseInsensitive) || p.problemKey.contains(n, Qt::CaseInsensitive);
            }))
            out << p;
    return out;
}

QString problemKeyFor(const QString &name)
{
    QString flat = name;
    flat.replace(u'/', u'_').replace(u'.', u'_');
    const QString key = torchimport::taskNameFor(flat + u".py"_s);
    return key.isEmpty() ? u"problem"_s : key;
}

} // namespace kforge
