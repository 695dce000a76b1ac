#pragma once
// The log dock's contents: compiler, worker, model and application messages, filterable by source, level
// and text, following the newest entry while scrolled to the bottom.
#include "core/log/loghub.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QListView;
class QToolButton;

namespace kforge {

class LogFilterModel;
class LogModel;

class LogPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LogPanel(QWidget *parent = nullptr);

    void setHub(LogHub *hub);
    LogModel *model() const { return m_model; }
    LogFilterModel *filterModel() const { return m_filter; }
    QListView *view() const { return m_view; }

private:
    LogModel *m_model = nullptr;
    LogFilterModel *m_filter = nullptr;
    QListView *m_view = nullptr;
    QComboBox *m_level = nullptr;
    QLineEdit *m_search = nullptr;
    QToolButton *m_clear = nullptr;
};

} // namespace kforge
