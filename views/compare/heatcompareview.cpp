#include "views/compare/heatcompareview.h"

#include "core/sourcelevel/sourceheat.h"
#include "views/editor/heatlinesmodel.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QTableView *makeView(HeatLinesModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

} // namespace

HeatCompareView::HeatCompareView(QWidget *parent)
    : QWidget(parent)
{
    auto *grid = new QGridLayout(this);
    m_modelA = new HeatLinesModel(this);
    m_modelB = new HeatLinesModel(this);
    m_summaryA = new QLabel(this);
    m_summaryB = new QLabel(this);
    for (QLabel *l : {m_summaryA, m_summaryB}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    }
    m_summaryA->setObjectName(u"heatSummaryA"_s);
    m_summaryB->setObjectName(u"heatSummaryB"_s);
    m_viewA = makeView(m_modelA, this);
    m_viewB = makeView(m_modelB, this);
    m_viewA->setObjectName(u"heatViewA"_s);
    m_viewB->setObjectName(u"heatViewB"_s);
    m_profile = new QPushButton(this);
    m_profile->setObjectName(u"profileBoth"_s);
    connect(m_profile, &QPushButton::clicked, this, [this] {
        const QList<qint64> ids = m_toProfile;
        for (const qint64 id : ids)
            Q_EMIT profileRequested(id);
    });
    grid->addWidget(m_summaryA, 0, 0);
    grid->addWidget(m_summaryB, 0, 1);
    grid->addWidget(m_viewA, 1, 0);
    grid->addWidget(m_viewB, 1, 1);
    grid->addWidget(m_profile, 2, 0, 1, 2, Qt::AlignLeft);
    grid->setRowStretch(1, 1);
    clear();
}

bool HeatCompareView::needsProfile(const SourceProfile &profile)
{
    if (profile.status == SourceProfile::Status::Absent || profile.status == SourceProfile::Status::Failed)
        return true;
    if (profile.status == SourceProfile::Status::Unavailable)
        return false; // the host cannot sample: another run on it gives the same reason
    return SourceHeat::mainFile(profile).isEmpty() && !profile.missing.contains(u"line_info"_s);
}

void HeatCompareView::setPair(const Side &a, const Side &b)
{
    fill(a, m_modelA, m_summaryA, m_viewA);
    fill(b, m_modelB, m_summaryB, m_viewB);
    m_toProfile.clear();
    for (const Side *s : {&a, &b})
        if (s->variantId > 0 && needsProfile(s->profile) && !m_toProfile.contains(s->variantId))
            m_toProfile.append(s->variantId);
    const bool both = m_toProfile.size() == 2;
    m_profile->setText(both                                  ? tr("Profile A and B")
                       : m_toProfile.value(0) == a.variantId ? tr("Profile A")
                                                             : tr("Profile B"));
    m_profile->setToolTip(tr("Evaluates %1 again with CUPTI PC sampling, so the hottest lines and stall reasons can be "
                             "compared here and reach the \"why\" prompt")
                              .arg(both ? tr("both variants") : tr("the variant without a profile")));
    m_profile->setVisible(!m_toProfile.isEmpty());
}

void HeatCompareView::clear()
{
    setPair(Side{}, Side{});
}

QString HeatCompareView::summaryA() const
{
    return m_summaryA->text();
}

QString HeatCompareView::summaryB() const
{
    return m_summaryB->text();
}

void HeatCompareView::fill(const Side &side, HeatLinesModel *model, QLabel *summary, QTableView *view)
{
    const QString file = SourceHeat::mainFile(side.profile);
    const QString problem = side.profile.problem();
    if (!problem.isEmpty() || file.isEmpty()) {
        model->clear();
        view->setVisible(false);
        summary->setText(side.title.isEmpty() ? QString() : tr("%1: %2").arg(side.title, problem));
        return;
    }
    const SourceHeat heat = SourceHeat::of(side.profile, file);
    model->setHeat(heat, side.source);
    view->setVisible(true);
    summary->setText(tr("%1: %n sample(s); stalls: %2", nullptr, int(heat.totalSamples))
                         .arg(side.title, SourceHeat::stallMix(heat.stalls, 4)));
}

} // namespace kforge
