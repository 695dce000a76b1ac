#pragma once
// Compare's source heat: the two variants' hottest lines side by side, each with its whole stall-reason mix,
// from their source-level profiles. A side without a usable profile says why and how to get one, and a button
// profiles the sides that have none (profileRequested: the source-level pass on each).
#include "core/eval/sourceprofile.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace kforge {

class HeatLinesModel;

class HeatCompareView : public QWidget
{
    Q_OBJECT
public:
    explicit HeatCompareView(QWidget *parent = nullptr);

    struct Side {
        QString title; // "A (#12)"
        SourceProfile profile;
        QString source;
        qint64 variantId = 0; // 0: not a session variant (nothing to profile)
    };
    void setPair(const Side &a, const Side &b);
    void clear();

    HeatLinesModel *modelA() const { return m_modelA; }
    HeatLinesModel *modelB() const { return m_modelB; }
    QString summaryA() const;
    QString summaryB() const;
    // "Profile A and B" (or only the side that needs it): shown while a side of the pair has no usable
    // profile that another run could give (not when the host cannot sample, see needsProfile).
    QPushButton *profileButton() const { return m_profile; }
    // The pair's variants without a usable profile, for which a source-level pass may help: no profile yet,
    // a failed pass, or one without samples; not a host that cannot sample (counters permission, ...).
    QList<qint64> toProfile() const { return m_toProfile; }
    static bool needsProfile(const SourceProfile &profile);

Q_SIGNALS:
    void profileRequested(qint64 variantId);

private:
    void fill(const Side &side, HeatLinesModel *model, QLabel *summary, QTableView *view);

    HeatLinesModel *m_modelA = nullptr;
    HeatLinesModel *m_modelB = nullptr;
    QLabel *m_summaryA = nullptr;
    QLabel *m_summaryB = nullptr;
    QTableView *m_viewA = nullptr;
    QTableView *m_viewB = nullptr;
    QPushButton *m_profile = nullptr;
    QList<qint64> m_toProfile;
};

} // namespace kforge
