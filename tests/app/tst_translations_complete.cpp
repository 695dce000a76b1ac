// The shipped zh_CN catalogue is complete: every message translated, none empty, placeholders as in the source.
// A failure lists each offending message; fill them with translations/fill_zh_CN.py after lupdate.
#include <QBuffer>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

// %1..%9 and %n, with or without the L (localized) flag: the arguments a translation must keep.
QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(u"%L?([1-9]|n)"_s);
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured(1);
    std::sort(found.begin(), found.end());
    return found;
}

// One line per problem: "[context] source: what is wrong". An XML error is a problem too.
QStringList problems(QIODevice *ts)
{
    QStringList out;
    QXmlStreamReader xml(ts);
    QString context;
    QString source;
    QString translationType;
    QStringList translations; // the <translation> text, or each <numerusform>
    int messages = 0;
    bool inTranslation = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == "name"_L1 && !inTranslation) {
                context = xml.readElementText();
            } else if (name == "message"_L1) {
                source.clear();
                translations.clear();
                translationType.clear();
            } else if (name == "source"_L1) {
                source = xml.readElementText();
            } else if (name == "translation"_L1) {
                inTranslation = true;
                translationType = xml.attributes().value("type"_L1).toString();
                translations << QString();
            } else if (name == "numerusform"_L1 && inTranslation) {
                if (translations.size() == 1 && translations.first().trimmed().isEmpty())
                    translations.clear(); // the whitespace before the first form
                translations << xml.readElementText();
            }
        } else if (xml.isCharacters() && inTranslation && !translations.isEmpty()) {
            translations.last() += xml.text();
        } else if (xml.isEndElement()) {
            if (xml.name() == "translation"_L1) {
                inTranslation = false;
            } else if (xml.name() == "message"_L1) {
                ++messages;
                const QString where = u"[%1] %2: "_s.arg(context, source);
                if (translationType == "vanished"_L1 || translationType == "obsolete"_L1)
                    continue; // not shipped by lrelease
                if (translationType == "unfinished"_L1)
                    out << where + u"unfinished"_s;
                else if (translations.isEmpty()
                         || std::any_of(translations.cbegin(), translations.cend(),
                                        [](const QString &t) { return t.trimmed().isEmpty(); }))
                    out << where + u"empty translation"_s;
                else
                    for (const QString &t : std::as_const(translations))
                        if (placeholders(t) != placeholders(source))
                            out << where + u"placeholders differ in \"%1\""_s.arg(t);
            }
        }
    }
    if (xml.hasError())
        out << u"XML error at line %1: %2"_s.arg(xml.lineNumber()).arg(xml.errorString());
    if (messages == 0)
        out << u"no messages"_s;
    return out;
}

QStringList problemsIn(const QByteArray &ts)
{
    QByteArray copy = ts;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    return problems(&buffer);
}

} // namespace

class TestTranslationsComplete : public QObject
{
    Q_OBJECT

private slots:
    void checkerCatchesProblems_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("expected");
        QTest::newRow("good") << QByteArray("<message><source>%1 of %2</source><translation>%2 中的 %1</translation></message>")
                              << QString();
        QTest::newRow("unfinished")
            << QByteArray("<message><source>Open</source><translation type=\"unfinished\"></translation></message>")
            << u"unfinished"_s;
        QTest::newRow("empty") << QByteArray("<message><source>Open</source><translation>  </translation></message>")
                               << u"empty translation"_s;
        QTest::newRow("lost placeholder")
            << QByteArray("<message><source>Cannot open %1: %2</source><translation>无法打开 %1</translation></message>")
            << u"placeholders differ"_s;
        QTest::newRow("numerus good")
            << QByteArray("<message numerus=\"yes\"><source>%n file(s)</source><translation>\n"
                          "<numerusform>%n 个文件</numerusform>\n</translation></message>")
            << QString();
        QTest::newRow("numerus empty")
            << QByteArray("<message numerus=\"yes\"><source>%n file(s)</source><translation>\n"
                          "<numerusform></numerusform>\n</translation></message>")
            << u"empty translation"_s;
        QTest::newRow("numerus lost %n")
            << QByteArray("<message numerus=\"yes\"><source>%n file(s)</source><translation>\n"
                          "<numerusform>多个文件</numerusform>\n</translation></message>")
            << u"placeholders differ"_s;
    }

    void checkerCatchesProblems()
    {
        QFETCH(QByteArray, message);
        QFETCH(QString, expected);
        const QByteArray ts = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" language=\"zh_CN\">"
                              "<context><name>Ctx</name>"
                              + message + "</context></TS>";
        const QStringList found = problemsIn(ts);
        if (expected.isEmpty()) {
            QVERIFY2(found.isEmpty(), qPrintable(found.join(u'\n')));
        } else {
            QCOMPARE(found.size(), 1);
            QVERIFY2(found.first().startsWith(u"[Ctx] "_s) && found.first().contains(expected), qPrintable(found.first()));
        }
    }

    void zhCnIsComplete()
    {
        QFile ts(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/translations/kforge_zh_CN.ts"));
        QVERIFY2(ts.open(QIODevice::ReadOnly), qPrintable(ts.errorString()));
        const QStringList found = problems(&ts);
        QVERIFY2(found.isEmpty(), qPrintable(u"%1 message(s) in translations/kforge_zh_CN.ts need work "
                                              "(run translations/fill_zh_CN.py):\n"_s.arg(found.size())
                                              + found.join(u'\n')));
    }
};

QTEST_GUILESS_MAIN(TestTranslationsComplete)
#include "tst_translations_complete.moc"
