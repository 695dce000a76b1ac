#include "views/editor/readonlybar.h"

#include "views/editor/editorsetup.h"

#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace kforge {

ReadOnlyBar::ReadOnlyBar(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("kforgeReadOnlyBar"));
    m_icon = new QLabel(this);
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(
        QIcon::fromTheme(QStringLiteral("object-locked"), style()->standardIcon(QStyle::SP_MessageBoxInformation))
            .pixmap(iconSize, iconSize));
    m_text = new QLabel(this);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    // Alt+O: the window's menus take F and E.
    m_fork = new QPushButton(tr("F&ork to Edit"), this);
    m_fork->setObjectName(QStringLiteral("kforgeForkButton"));
    m_fork->setToolTip(tr("Open an editable copy of this kernel as a new variant"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 3, 6, 3);
    layout->setSpacing(6);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_fork);
    connect(m_fork, &QPushButton::clicked, this, &ReadOnlyBar::forkClicked);
    setReference(false);
    setDarkTheme(false);
}

void ReadOnlyBar::setReference(bool reference)
{
    m_reference = reference;
    m_text->setText(reference ? tr("The reference defines what is correct and is read-only.")
                              : tr("This variant has been evaluated and is read-only."));
}

QString ReadOnlyBar::text() const
{
    return m_text->text();
}

void ReadOnlyBar::setDarkTheme(bool dark)
{
    EditorSetup::applyPanelColors(this, dark, true);
}

} // namespace kforge
