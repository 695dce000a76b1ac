#pragma once
// The session's variants as rows: adding one with its texts and lineage, reading its source, analysis and design,
// and changing its status, flags, label, tags and notes. Writes go to the store's file at once and update its
// population (SessionStore::population()); each is announced by the store's variantAdded()/variantChanged().
#include "core/session/sessionrepository.h"
#include "core/session/variant.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace kforge {

class VariantRepository : public SessionRepository
{
public:
    using SessionRepository::SessionRepository;

    // Adds a variant (v.id and v.eval are ignored; created is now when null). Returns its id, 0 on error.
    qint64 add(const Variant &v, const VariantTexts &texts);
    VariantTexts texts(qint64 variantId) const;
    QString source(qint64 variantId) const;
    bool setStatus(qint64 variantId, VariantStatus status, const QString &message = {});
    bool setPinned(qint64 variantId, bool pinned);
    bool setExcluded(qint64 variantId, bool excluded);
    bool setAccepted(qint64 variantId, bool accepted);
    bool setSuspicious(qint64 variantId, bool suspicious, const QString &reason = {});
    bool setLabel(qint64 variantId, const QString &label);
    bool setTags(qint64 variantId, const QStringList &tags);
    bool setNotes(qint64 variantId, const QString &notes);
    bool setAnalysisAndDesign(qint64 variantId, const QString &analysis, const QString &design);
    // The variants a round made, in the order they were added.
    QList<qint64> ofRound(qint64 roundId) const;

private:
    bool updateColumn(qint64 variantId, const char *column, const QVariant &value);
};

} // namespace kforge
