#pragma once
// What people and the model wrote about the session's variants: pair analyses (a question on two variants and
// its answer) and free notes. Announced by the store's pairAnalysisChanged() and notesChanged().
#include "core/session/pairanalysis.h"
#include "core/session/sessionnote.h"
#include "core/session/sessionrepository.h"

#include <QList>
#include <QString>

namespace kforge {

class AnalysisRepository : public SessionRepository
{
public:
    using SessionRepository::SessionRepository;

    qint64 addPairAnalysis(const PairAnalysis &a);
    bool setPairAnswer(qint64 analysisId, const QString &answer, qint64 responseId);
    QList<PairAnalysis> pairAnalyses(qint64 variantA = 0, qint64 variantB = 0) const;
    qint64 addNote(const SessionNote &n);
    bool removeNote(qint64 noteId);
    QList<SessionNote> notes() const;
};

} // namespace kforge
