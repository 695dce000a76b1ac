// The log panel's models: follow the hub, filter by source, level and text, stay consistent under
// QAbstractItemModelTester while entries stream in and old ones drop out.
#include "views/log/logfiltermodel.h"
#include "views/log/logmodel.h"
#include "views/log/logpanel.h"

#include <QAbstractItemModelTester>
#include <QListView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;

namespace {
void postMix(LogHub &hub)
{
    hub.post(LogSource::App, LogLevel::Info, QStringLiteral("KForge started"));
    hub.post(LogSource::Compiler, LogLevel::Warning, QStringLiteral("variable x set but not used"), QStringLiteral("naive"));
    hub.post(LogSource::Compiler, LogLevel::Error, QStringLiteral("expected a ';'"), QStringLiteral("v7"));
    hub.post(LogSource::Worker, LogLevel::Info, QStringLiteral("ready: NVIDIA H200"), QStringLiteral("gpu0"));
    hub.post(LogSource::Worker, LogLevel::Debug, QStringLiteral("load candidate"), QStringLiteral("gpu0"));
    hub.post(LogSource::Model, LogLevel::Error, QStringLiteral("HTTP 429: rate limited"));
}

QStringList messages(const QAbstractItemModel &model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, 0).data(LogModel::MessageRole).toString();
    return out;
}
} // namespace

class TestLogPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void modelFollowsHub()
    {
        LogHub hub;
        hub.post(LogSource::App, LogLevel::Info, QStringLiteral("before"));
        QTRY_COMPARE(hub.entries().size(), 1);
        LogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHub(&hub);
        QCOMPARE(model.rowCount(), 1); // history is shown at once
        postMix(hub);
        QTRY_COMPARE(model.rowCount(), 7);
        const QModelIndex last = model.index(6, 0);
        QCOMPARE(last.data(LogModel::SourceRole).toInt(), int(LogSource::Model));
        QCOMPARE(last.data(LogModel::LevelRole).toInt(), int(LogLevel::Error));
        QVERIFY(last.data(Qt::DisplayRole).toString().contains(QLatin1String("HTTP 429")));
        QVERIFY(last.data(Qt::DisplayRole).toString().contains(QLatin1String("Model")));
        QVERIFY(model.index(2, 0).data(Qt::DisplayRole).toString().contains(QLatin1String("(naive)")));
        QVERIFY(!last.data(Qt::DecorationRole).isNull());
        hub.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void capacityDropsOldestRows()
    {
        LogHub hub;
        LogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCapacity(5);
        model.setHub(&hub);
        for (int i = 0; i < 12; ++i)
            hub.post(LogSource::Worker, LogLevel::Info, QString::number(i));
        QTRY_COMPARE(model.index(model.rowCount() - 1, 0).data(LogModel::MessageRole).toString(), QStringLiteral("11"));
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.index(0, 0).data(LogModel::MessageRole).toString(), QStringLiteral("7"));
    }

    void filtering_data()
    {
        QTest::addColumn<QList<int>>("hiddenSources");
        QTest::addColumn<int>("minimumLevel");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("expected");
        const QStringList allInfo{QStringLiteral("KForge started"), QStringLiteral("variable x set but not used"),
                                  QStringLiteral("expected a ';'"), QStringLiteral("ready: NVIDIA H200"),
                                  QStringLiteral("HTTP 429: rate limited")};
        QTest::newRow("default: info and above") << QList<int>{} << int(LogLevel::Info) << QString() << allInfo;
        QTest::newRow("debug shows all") << QList<int>{} << int(LogLevel::Debug) << QString()
                                         << QStringList{QStringLiteral("KForge started"),
                                                        QStringLiteral("variable x set but not used"),
                                                        QStringLiteral("expected a ';'"),
                                                        QStringLiteral("ready: NVIDIA H200"),
                                                        QStringLiteral("load candidate"),
                                                        QStringLiteral("HTTP 429: rate limited")};
        QTest::newRow("errors only") << QList<int>{} << int(LogLevel::Error) << QString()
                                     << QStringList{QStringLiteral("expected a ';'"),
                                                    QStringLiteral("HTTP 429: rate limited")};
        QTest::newRow("compiler only") << QList<int>{int(LogSource::App), int(LogSource::Worker), int(LogSource::Model)}
                                       << int(LogLevel::Info) << QString()
                                       << QStringList{QStringLiteral("variable x set but not used"),
                                                      QStringLiteral("expected a ';'")};
        QTest::newRow("text in message") << QList<int>{} << int(LogLevel::Debug) << QStringLiteral("nvidia")
                                         << QStringList{QStringLiteral("ready: NVIDIA H200")};
        QTest::newRow("text in context") << QList<int>{} << int(LogLevel::Debug) << QStringLiteral("GPU0")
                                         << QStringList{QStringLiteral("ready: NVIDIA H200"),
                                                        QStringLiteral("load candidate")};
        QTest::newRow("nothing") << QList<int>{int(LogSource::Compiler)} << int(LogLevel::Warning)
                                 << QStringLiteral("x set") << QStringList{};
    }

    void filtering()
    {
        QFETCH(QList<int>, hiddenSources);
        QFETCH(int, minimumLevel);
        QFETCH(QString, text);
        QFETCH(QStringList, expected);
        LogHub hub;
        LogModel model;
        LogFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHub(&hub);
        postMix(hub);
        QTRY_COMPARE(model.rowCount(), 6);
        for (int s : hiddenSources)
            filter.setSourceShown(LogSource(s), false);
        filter.setMinimumLevel(LogLevel(minimumLevel));
        filter.setText(text);
        QCOMPARE(messages(filter), expected);
        // Filters apply to entries that arrive later too.
        hub.post(LogSource::Compiler, LogLevel::Error, QStringLiteral("x set twice"));
        QTRY_COMPARE(model.rowCount(), 7);
        const bool shown = !hiddenSources.contains(int(LogSource::Compiler))
                           && (text.isEmpty() || QStringLiteral("x set twice").contains(text, Qt::CaseInsensitive));
        QCOMPARE(messages(filter).contains(QStringLiteral("x set twice")), shown);
    }

    void panel()
    {
        LogHub hub;
        LogPanel panel;
        panel.resize(600, 300);
        panel.show();
        panel.setHub(&hub);
        postMix(hub);
        QTRY_COMPARE(panel.model()->rowCount(), 6);
        QCOMPARE(panel.view()->model()->rowCount(), 5); // debug hidden by default
        const QString shot = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/logpanel.png");
        QVERIFY(panel.grab().save(shot));
    }
};

QTEST_MAIN(TestLogPanel)
#include "tst_logpanel.moc"
