#pragma once
// Help → Getting Started: a short guide for a first start, and the example session measured on an NVIDIA H200
// (installed with KForge under share/kforge/examples) so a newcomer sees populated panels before owning a GPU.
// The example opens as a copy in the application's data folder: the installed file is never changed.
#include <QDialog>

class QPushButton;
class QTextBrowser;

namespace kforge {

class GettingStarted : public QDialog
{
    Q_OBJECT
public:
    explicit GettingStarted(QWidget *parent = nullptr);

    // The installed example session (next to the program, in the data folders, or in the source tree of a
    // build); empty when there is none.
    static QString exampleSession();
    // A new writable copy of the example in the application's data folder; empty with *error when it fails.
    static QString copyExample(QString *error);

    QTextBrowser *guide() const { return m_guide; }
    QPushButton *openExampleButton() const { return m_openExample; }

Q_SIGNALS:
    // The copy to open (the window opens it like any session).
    void openExampleRequested(const QString &copy);
    void openTaskRequested();
    void workersRequested();

private:
    void openExample();

    QTextBrowser *m_guide = nullptr;
    QPushButton *m_openExample = nullptr;
};

} // namespace kforge
