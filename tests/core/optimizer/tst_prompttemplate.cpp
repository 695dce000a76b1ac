// The template language of the prompts: variables, sections over lists/maps/booleans, inverted sections,
// standalone tag lines, errors with line numbers; and the user's override folder.
#include "core/optimizer/prompttemplate.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;

class TstPromptTemplate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void renders_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QVariantMap>("context");
        QTest::addColumn<QString>("expected");

        const QVariantMap ctx{
            {QStringLiteral("name"), QStringLiteral("diag")},
            {QStringLiteral("n"), 4096},
            {QStringLiteral("yes"), true},
            {QStringLiteral("no"), false},
            {QStringLiteral("empty"), QString()},
            {QStringLiteral("items"), QVariantList{QVariantMap{{QStringLiteral("x"), QStringLiteral("a")}},
                                                   QVariantMap{{QStringLiteral("x"), QStringLiteral("b")}}}},
            {QStringLiteral("words"), QStringList{QStringLiteral("p"), QStringLiteral("q")}},
            {QStringLiteral("task"), QVariantMap{{QStringLiteral("title"), QStringLiteral("T")},
                                                 {QStringLiteral("inner"), QVariantMap{{QStringLiteral("v"), 7}}}}},
            {QStringLiteral("none"), QVariantList{}},
        };
        QTest::newRow("plain") << "no tags\n" << ctx << "no tags\n";
        QTest::newRow("variable") << "task {{name}} n={{ n }}" << ctx << "task diag n=4096";
        QTest::newRow("dotted") << "{{task.title}}/{{task.inner.v}}" << ctx << "T/7";
        QTest::newRow("list section") << "{{#items}}[{{x}}]{{/items}}" << ctx << "[a][b]";
        QTest::newRow("outer lookup in section") << "{{#items}}{{name}}{{x}} {{/items}}" << ctx << "diaga diagb ";
        QTest::newRow("map section") << "{{#task}}{{title}}{{/task}}" << ctx << "T";
        QTest::newRow("true section") << "{{#yes}}shown{{/yes}}" << ctx << "shown";
        QTest::newRow("false section") << "{{#no}}hidden{{/no}}" << ctx << "";
        QTest::newRow("empty string section") << "{{#empty}}hidden{{/empty}}" << ctx << "";
        QTest::newRow("missing section") << "{{#absent}}hidden{{/absent}}ok" << ctx << "ok";
        QTest::newRow("empty list") << "{{#none}}x{{/none}}{{^none}}nothing{{/none}}" << ctx << "nothing";
        QTest::newRow("inverted true") << "{{^yes}}hidden{{/yes}}" << ctx << "";
        QTest::newRow("dot") << "{{#words}}<{{.}}>{{/words}}" << ctx << "<p><q>";
        QTest::newRow("string list variable") << "{{words}}" << ctx << "p, q";
        QTest::newRow("comment") << "a{{! say nothing }}b" << ctx << "ab";
        QTest::newRow("standalone lines vanish") << "start\n{{#items}}\n- {{x}}\n{{/items}}\nend\n"
                                                 << ctx << "start\n- a\n- b\nend\n";
        QTest::newRow("indented standalone") << "start\n  {{#yes}}  \nin\n  {{/yes}}\nend" << ctx << "start\nin\nend";
        QTest::newRow("standalone comment") << "a\n{{! note }}\nb" << ctx << "a\nb";
        QTest::newRow("comment on the first line") << "{{! note }}\nbody\nmore\n" << ctx << "body\nmore\n";
        QTest::newRow("section on the first line") << "{{#yes}}\nin\n{{/yes}}\nout\n" << ctx << "in\nout\n";
        QTest::newRow("inline section keeps line") << "x {{#yes}}y{{/yes}} z\n" << ctx << "x y z\n";
        QTest::newRow("unicode") << "任务：{{name}}。" << ctx << "任务：diag。";
    }

    void renders()
    {
        QFETCH(QString, text);
        QFETCH(QVariantMap, context);
        QFETCH(QString, expected);
        QString error;
        QCOMPARE(PromptTemplate::render(text, context, &error), expected);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void reportsErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << "a\n{{nope}}"
                                     << "line 2: no value for {{nope}}";
        QTest::newRow("unclosed tag") << "{{name"
                                      << "line 1: \"{{\" without \"}}\"";
        QTest::newRow("unclosed section") << "x\n{{#items}}\n"
                                          << "line 2: {{#items}} is never closed";
        QTest::newRow("wrong close") << "{{#a}}\n{{/b}}"
                                     << "line 2: {{/b}} closes {{#a}} of line 1";
        QTest::newRow("stray close") << "{{/a}}"
                                     << "line 1: {{/a}} closes no section";
        QTest::newRow("empty tag") << "{{}}"
                                   << "line 1: empty tag";
    }

    void reportsErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QString error;
        QCOMPARE(PromptTemplate::render(text, {{QStringLiteral("a"), true}}, &error), QString());
        QCOMPARE(error, message);
    }

    void builtInTemplatesAreCompiledIn()
    {
        for (const char *name : {"system", "contrastive", "repair", "compare", "contrastive_torch", "repair_torch"}) {
            QString error;
            QVERIFY2(!PromptTemplate::loadBuiltIn(QLatin1String(name), &error).isEmpty(), qPrintable(error));
        }
        QString error;
        QVERIFY(PromptTemplate::load(QStringLiteral("no-such-template"), &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("no-such-template")));
    }

    void userCopyOverridesTheBuiltIn()
    {
        const QString dir = PromptTemplate::overrideFolder();
        QVERIFY(QDir().mkpath(dir));
        QFile f(dir + QLatin1String("/contrastive.md"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("my own prompt for {{task.title}}\n");
        f.close();
        QString error, origin;
        QCOMPARE(PromptTemplate::load(QStringLiteral("contrastive"), &error, &origin),
                 QStringLiteral("my own prompt for {{task.title}}\n"));
        QCOMPARE(origin, f.fileName());
        QVERIFY(f.remove());
        QVERIFY(PromptTemplate::load(QStringLiteral("contrastive"), &error, &origin).contains(QLatin1String("## Rules")));
        QVERIFY(origin.startsWith(QLatin1String(":/")));
    }
};

QTEST_GUILESS_MAIN(TstPromptTemplate)
#include "tst_prompttemplate.moc"
