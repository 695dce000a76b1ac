#pragma once
// A verified pair opened as a session of its own (the Collection page's double-click): the pair's imported task
// (the problem as the reference), the candidate as an imported variant with the result the verification measured
// stored as its evaluation, so Compare, the profile passes and "why is A faster than B" work on it as on any
// session. One file per pair under the output folder, made once and opened again afterwards (what the user did in
// it stays).
#include "core/collection/collection.h"
#include "core/collection/verifyrecord.h"

#include <QCoreApplication>
#include <QString>

namespace kforge {

class PairSession
{
    Q_DECLARE_TR_FUNCTIONS(kforge::PairSession)

public:
    // <outDir>/sessions/<the pair's id as a file name>.kforge
    static QString pathFor(const QString &outDir, const QString &pairId);
    // Makes the session at `path` (which must not exist) on the calling thread with a store of its own, so it may
    // run off the GUI thread. `main` (may be null: not measured yet) becomes the candidate's evaluation. False with
    // `error` (translated); a half-made file is removed.
    static bool create(const QString &path, const QString &taskFolder, const CollectionPair &pair,
                       const VerifyRecord *main, QString *error);
};

} // namespace kforge
