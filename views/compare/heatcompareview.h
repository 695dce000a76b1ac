#pragma once
// Compare's source heat: the two variants' hottest lines side by side, each with its whole stall-reason mix,
// from their source-level profiles. A side without a usable profile says why and how to get one.
#include "core/eval/sourceprofile.h"

#include <QWidget>

class QLabel;
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
    };
    void setPair(const Side &a, const Side &b);
    void clear();

    HeatLinesModel *modelA() const { return m_modelA; }
    HeatLinesModel *modelB() const { return m_modelB; }
    QString summaryA() const;
    QString summaryB() const;

private:
    void fill(const Side &side, HeatLinesModel *model, QLabel *summary, QTableView *view);

    HeatLinesModel *m_modelA = nullptr;
    HeatLinesModel *m_modelB = nullptr;
    QLabel *m_summaryA = nullptr;
    QLabel *m_summaryB = nullptr;
    QTableView *m_viewA = nullptr;
    QTableView *m_viewB = nullptr;
};

} // namespace kforge
