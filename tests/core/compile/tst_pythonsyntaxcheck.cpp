// PythonSyntaxCheck: what Ctrl+Enter checks of a ModelNew module where nothing can evaluate it. A real python3
// compiles the source (syntax only: nothing is run, torch is not imported); errors come back located.
#include "core/compile/pythonsyntaxcheck.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

class TestPythonSyntaxCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"python3"_s).isEmpty())
            QSKIP("no python3 on PATH");
    }

    void check_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("line");     // 0: no error
        QTest::addColumn<QString>("words"); // in the message

        const QString good = u"import torch\n\nclass ModelNew(torch.nn.Module):\n    def forward(self, a):\n"
                             "        return torch.relu(a)  # 'ünïcode' in a comment\n"_s;
        QTest::newRow("valid ModelNew") << good << 0 << QString();
        // Imports that do not exist are not the syntax check's business: nothing is run.
        QTest::newRow("unknown import is not run") << u"import not_a_module_anywhere\nx = 1\n"_s << 0 << QString();
        QTest::newRow("missing colon") << u"import torch\n\nclass ModelNew(torch.nn.Module)\n    pass\n"_s << 3
                                       << u"expected ':'"_s;
        QTest::newRow("bad indentation") << u"def f():\n    x = 1\n      y = 2\n"_s << 3 << u"indent"_s;
        // Only the compiler sees this one; ast.parse would accept it.
        QTest::newRow("return outside a function") << u"x = 1\nreturn x\n"_s << 2 << u"outside function"_s;
        QTest::newRow("CUDA pasted into a .py tab") << u"__global__ void k(float *x) { x[0] = 1; }\n"_s << 1
                                                    << u"invalid syntax"_s;
    }

    void check()
    {
        QFETCH(QString, source);
        QFETCH(int, line);
        QFETCH(QString, words);
        PythonSyntaxCheck checker;
        QSignalSpy finished(&checker, &PythonSyntaxCheck::finished);
        const int job = checker.check(source, u"candidate.py"_s);
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).toInt(), job);
        const auto r = finished.at(0).at(1).value<PythonSyntaxResult>();
        QVERIFY2(r.checked, qPrintable(r.message));
        if (line == 0) {
            QVERIFY(r.ok());
            QVERIFY(r.diagnostics.isEmpty());
            return;
        }
        QVERIFY(!r.ok());
        QCOMPARE(r.diagnostics.size(), 1);
        const Diagnostic &d = r.diagnostics.constFirst();
        QCOMPARE(d.line, line);
        QCOMPARE(d.file, u"candidate.py"_s);
        QCOMPARE(d.tool, u"python3"_s);
        QCOMPARE(d.severity, Diagnostic::Severity::Error);
        QVERIFY2(d.message.contains(words, Qt::CaseInsensitive), qPrintable(d.message));
    }

    // Several at once each get their own answer, once.
    void concurrentChecks()
    {
        PythonSyntaxCheck checker;
        QSignalSpy finished(&checker, &PythonSyntaxCheck::finished);
        const int a = checker.check(u"x = (\n"_s, u"a.py"_s);
        const int b = checker.check(u"x = 1\n"_s, u"b.py"_s);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 20000);
        QTest::qWait(50);
        QCOMPARE(finished.size(), 2);
        for (const auto &args : std::as_const(finished)) {
            const auto r = args.at(1).value<PythonSyntaxResult>();
            QCOMPARE(r.ok(), args.at(0).toInt() == b);
            if (args.at(0).toInt() == a)
                QCOMPARE(r.diagnostics.constFirst().file, u"a.py"_s);
        }
    }

    // No interpreter: not checked, and the answer says why instead of claiming the module is fine.
    void withoutPython()
    {
        PythonSyntaxCheck checker(u"/nonexistent/bin/python3"_s);
        QSignalSpy finished(&checker, &PythonSyntaxCheck::finished);
        checker.check(u"x = 1\n"_s, u"candidate.py"_s);
        QVERIFY(finished.wait(20000));
        const auto r = finished.at(0).at(1).value<PythonSyntaxResult>();
        QVERIFY(!r.checked);
        QVERIFY(!r.ok());
        QVERIFY2(r.message.contains(u"/nonexistent/bin/python3 could not be started"_s), qPrintable(r.message));
    }
};

QTEST_GUILESS_MAIN(TestPythonSyntaxCheck)
#include "tst_pythonsyntaxcheck.moc"
