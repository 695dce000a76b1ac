// The answer parser over a corpus of realistic model answers (fixtures/answers/*.md, expectations in
// fixtures/answers/manifest.json): English and Chinese headings, <think> blocks, several fences, truncation.
#include "core/optimizer/responseparser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace kforge;

namespace {
const QString kAnswers = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/rounds/answers/");

QString readText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}
} // namespace

class TstResponseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void corpus_data()
    {
        QTest::addColumn<QJsonObject>("expect");
        QFile f(kAnswers + QLatin1String("manifest.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).array();
        QVERIFY(rows.size() >= 10);
        for (const auto &row : rows) {
            const QJsonObject o = row.toObject();
            QString name = o.value(QLatin1String("file")).toString();
            if (o.value(QLatin1String("token_limit")).toBool())
                name += QLatin1String(" (token limit)");
            QTest::newRow(qPrintable(name)) << o;
        }
    }

    void corpus()
    {
        QFETCH(QJsonObject, expect);
        const auto str = [&](const char *key) { return expect.value(QLatin1String(key)).toString(); };
        const QString answer = readText(kAnswers + str("file"));
        const ParsedResponse r = ResponseParser::parse(answer, expect.value(QLatin1String("token_limit")).toBool());
        const QString diag = QStringLiteral("status %1; problems: %2\n--- analysis:\n%3\n--- design:\n%4\n--- code:\n%5")
                                 .arg(r.statusName(), r.message(), r.analysis, r.design, r.code.left(300));

        QVERIFY2(r.statusName() == str("status"), qPrintable(diag));
        if (expect.contains(QLatin1String("code"))) {
            QVERIFY2(r.code.contains(str("code")), qPrintable(diag));
            QVERIFY(r.code.contains(QLatin1String("KF_ENTRY")));
            QVERIFY(!r.code.contains(QLatin1String("```")) && !r.code.contains(QLatin1String("~~~")));
        } else {
            QVERIFY2(r.code.isEmpty(), qPrintable(diag));
        }
        if (expect.contains(QLatin1String("lang")))
            QCOMPARE(r.codeLanguage, str("lang"));
        for (const char *part : {"analysis", "design", "reasoning"}) {
            const QLatin1String name(part);
            const QString &got = name == QLatin1String("analysis") ? r.analysis
                                 : name == QLatin1String("design") ? r.design
                                                                   : r.reasoning;
            if (expect.contains(QLatin1String(part)))
                QVERIFY2(got.contains(str(part)), qPrintable(QLatin1String(part) + QLatin1String(" lacks \"")
                                                             + str(part) + QLatin1String("\"\n") + diag));
        }
        if (expect.contains(QLatin1String("not_in_analysis")))
            QVERIFY2(!r.analysis.contains(str("not_in_analysis")), qPrintable(diag));
        if (expect.contains(QLatin1String("not_in_design")))
            QVERIFY2(!r.design.contains(str("not_in_design")), qPrintable(diag));
        if (!r.code.isEmpty()) {
            // The chosen code is the code part, not part of the prose.
            QVERIFY2(!r.analysis.contains(r.code.trimmed()) && !r.design.contains(r.code.trimmed()), qPrintable(diag));
        }
        // Reasoning never leaks into the parts.
        QVERIFY(!r.analysis.contains(QLatin1String("think>")) && !r.design.contains(QLatin1String("think>")));
        if (expect.contains(QLatin1String("ambiguous")))
            QCOMPARE(r.ambiguous, expect.value(QLatin1String("ambiguous")).toBool());
        QCOMPARE(r.truncated, expect.value(QLatin1String("truncated")).toBool());
        if (expect.contains(QLatin1String("blocks")))
            QCOMPARE(r.codeBlocks, expect.value(QLatin1String("blocks")).toInt());
        if (expect.contains(QLatin1String("problem")))
            QVERIFY2(r.message().contains(str("problem")), qPrintable(diag));
        if (r.status == ParsedResponse::Status::Ok && !r.ambiguous && !r.truncated)
            QVERIFY2(r.problems.isEmpty(), qPrintable(diag));
    }

    void classifiesHeadings_data()
    {
        QTest::addColumn<QString>("title");
        QTest::addColumn<int>("part");
        using P = ResponseParser::Part;
        QTest::newRow("analysis") << "## 1. Performance Analysis" << int(P::Analysis);
        QTest::newRow("bold numbered") << "**2) Algorithm design:**" << int(P::Design);
        QTest::newRow("code") << "3. Code" << int(P::Code);
        QTest::newRow("implementation") << "Implementation" << int(P::Code);
        QTest::newRow("earliest wins") << "Analysis of the implementation" << int(P::Analysis);
        QTest::newRow("zh analysis") << "一、性能分析" << int(P::Analysis);
        QTest::newRow("zh design") << "第二部分：算法设计" << int(P::Design);
        QTest::newRow("zh code") << "### 三、代码实现" << int(P::Code);
        QTest::newRow("zh plan") << "优化思路" << int(P::Design);
        QTest::newRow("explanation is no plan") << "Explanation" << int(P::None);
        QTest::newRow("decode is no code") << "Decoded values" << int(P::None);
        QTest::newRow("resources are no source") << "Resources" << int(P::None);
        QTest::newRow("nothing") << "Conclusion" << int(P::None);
    }

    void classifiesHeadings()
    {
        QFETCH(QString, title);
        QFETCH(int, part);
        QCOMPARE(int(ResponseParser::classifyHeading(title)), part);
    }

    void emptyAndWindowsLineEndings()
    {
        QCOMPARE(ResponseParser::parse(QString()).statusName(), QStringLiteral("failed"));
        QString crlf = readText(kAnswers + QLatin1String("en_markdown_headings.md"));
        crlf.replace(QLatin1String("\n"), QLatin1String("\r\n"));
        const ParsedResponse r = ResponseParser::parse(crlf);
        QCOMPARE(r.statusName(), QStringLiteral("ok"));
        QVERIFY(!r.code.contains(QLatin1Char('\r')));
    }

    void codeWithoutEntryPointFails()
    {
        const ParsedResponse r = ResponseParser::parse(
            QStringLiteral("## Analysis\nx\n## Design\ny\n## Code\n```cuda\n__global__ void k() {}\n```\n"));
        QCOMPARE(r.statusName(), QStringLiteral("failed"));
        QVERIFY(r.message().contains(QLatin1String("KF_ENTRY")));
        QCOMPARE(r.analysis, QStringLiteral("x"));
    }

    // A torch task's answer in its Python form: a ```python block defining class ModelNew is the code.
    void pythonModelNewBlock()
    {
        const QString answer = QStringLiteral(
            "## Performance analysis\nOne pass.\n## Algorithm design\nA clamp.\n## Code\n"
            "```python\nimport torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n"
            "    def forward(self, x):\n        return torch.clamp_min(x, 0.0)\n```\n");
        const ParsedResponse r = ResponseParser::parse(answer);
        QCOMPARE(r.statusName(), QStringLiteral("ok"));
        QCOMPARE(r.codeLanguage, QStringLiteral("python"));
        QVERIFY(r.code.startsWith(QLatin1String("import torch")));
        QVERIFY(r.code.contains(QLatin1String("class ModelNew(nn.Module)")));
        QVERIFY2(!r.message().contains(QLatin1String("kforge/kernel.h")), qPrintable(r.message()));
        QCOMPARE(r.analysis, QStringLiteral("One pass."));
    }

    // A python block without ModelNew (a usage example) is no candidate; a cuda block with KF_ENTRY beside it
    // still is, and a ModelNew next to an example prefers the ModelNew.
    void pythonBlockWithoutModelNewIsNoCandidate()
    {
        const ParsedResponse none = ResponseParser::parse(
            QStringLiteral("## Analysis\nx\n## Design\ny\n## Code\n```python\nprint(model(x))\n```\n"));
        QCOMPARE(none.statusName(), QStringLiteral("failed"));
        QVERIFY(none.message().contains(QLatin1String("ModelNew")));
        const ParsedResponse both = ResponseParser::parse(QStringLiteral(
            "## Analysis\nx\n## Design\ny\n## Code\n```python\nclass ModelNew(nn.Module):\n    pass\n```\n"
            "Usage:\n```python\nm = ModelNew()\n```\n"));
        QCOMPARE(both.statusName(), QStringLiteral("ok"));
        QVERIFY(both.code.startsWith(QLatin1String("class ModelNew")));
        QVERIFY(!both.ambiguous);
    }
};

QTEST_GUILESS_MAIN(TstResponseParser)
#include "tst_responseparser.moc"
