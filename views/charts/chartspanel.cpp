#include "views/charts/chartspanel.h"
#include "views/charts/kerneltimechart.h"
#include "views/charts/rooflinechart.h"
#include "views/charts/speedupchart.h"

#include <QFileDialog>
#include <QMenu>
#include <QStandardPaths>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace kforge {

ChartsPanel::ChartsPanel(SessionStore *store, VariantSelection *selection, QWidget *parent)
    : QWidget(parent)
    , m_speedup(new SpeedupChart(store, selection, this))
    , m_kernels(new KernelTimeChart(store, selection, this))
    , m_roofline(new RooflineChart(store, selection, this))
{
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_speedup, tr("Speedup by Round"));
    m_tabs->addTab(m_kernels, tr("Kernel Times"));
    m_tabs->addTab(m_roofline, tr("Roofline"));

    m_export = new QToolButton(this);
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Save the shown chart as an image or a PDF"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(m_export);
    menu->addAction(tr("PNG Image…"), this, [this] { chooseExport(QStringLiteral("png")); });
    menu->addAction(tr("SVG Drawing…"), this, [this] { chooseExport(QStringLiteral("svg")); });
    menu->addAction(tr("PDF Document…"), this, [this] { chooseExport(QStringLiteral("pdf")); });
    m_export->setMenu(menu);
    m_tabs->setCornerWidget(m_export, Qt::TopRightCorner);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_tabs);

    for (ChartBase *chart :
         {static_cast<ChartBase *>(m_speedup), static_cast<ChartBase *>(m_kernels), static_cast<ChartBase *>(m_roofline)})
        connect(chart, &ChartBase::variantClicked, this, &ChartsPanel::variantClicked);
}

ChartsPanel::~ChartsPanel() = default;

ChartBase *ChartsPanel::currentChart() const
{
    return qobject_cast<ChartBase *>(m_tabs->currentWidget());
}

void ChartsPanel::setDevice(const DeviceInfo &device)
{
    m_roofline->setDevice(device);
}

bool ChartsPanel::exportCurrent(const QString &path, QString *error)
{
    ChartBase *chart = currentChart();
    return chart && chart->exportTo(path, error);
}

void ChartsPanel::chooseExport(const QString &suffix)
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    const QString name = m_tabs->currentIndex() == 0   ? QStringLiteral("speedup")
                         : m_tabs->currentIndex() == 1 ? QStringLiteral("kernel-times")
                                                       : QStringLiteral("roofline");
    QString filter;
    if (suffix == QLatin1String("png"))
        filter = tr("PNG images (*.png)");
    else if (suffix == QLatin1String("svg"))
        filter = tr("SVG drawings (*.svg)");
    else
        filter = tr("PDF documents (*.pdf)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
                                                dir + QLatin1Char('/') + name + QLatin1Char('.') + suffix, filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive))
        path += QLatin1Char('.') + suffix;
    QString error;
    if (!exportCurrent(path, &error))
        Q_EMIT errorOccurred(error);
}

} // namespace kforge
