// The shipped zh_CN catalogue is complete: every message translated, none empty, placeholders as in the source,
// one wording per source text; and every string built from an enum or a worker name (verdicts, bounds, flags,
// variant states and origins) has a Chinese text. A failure lists each offending message; fill them with
// translations/fill_zh_CN.py after lupdate.
#include "core/session/variant.h"
#include "core/settings/translations.h"
#include "views/variants/measurementtext.h"
#include "views/variants/variantsmodel.h"

#include <QBuffer>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

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

// Sources (accelerators left out) that have more than one translation: "Fork to Edit" once had two.
QStringList wordingConflicts(QIODevice *ts)
{
    std::map<QString, std::set<QString>> wordings;
    QXmlStreamReader xml(ts);
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == "source"_L1) {
            source = xml.readElementText().remove(u'&');
        } else if (xml.name() == "translation"_L1) {
            const QString type = xml.attributes().value("type"_L1).toString();
            QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (type == "vanished"_L1 || type == "obsolete"_L1 || text.trimmed().isEmpty())
                continue;
            static const QRegularExpression accelerator(u"\\(&.\\)"_s);
            wordings[source].insert(text.remove(accelerator).remove(u'&'));
        }
    }
    QStringList out;
    for (const auto &[src, texts] : wordings)
        if (texts.size() > 1)
            out << u"%1: %2"_s.arg(src, QStringList(texts.begin(), texts.end()).join(u" | "_s));
    return out;
}

// The names among `names` whose text is the same in Chinese as in English: an enum or wire name that has no
// translation (or no mapping at all, and is shown as it came).
QStringList untranslatedNames(const QStringList &names, const std::function<QString(const QString &)> &text)
{
    kforge::Translations::install(u"en"_s);
    QStringList english;
    for (const QString &n : names)
        english << text(n);
    kforge::Translations::install(u"zh_CN"_s);
    QStringList out;
    for (qsizetype i = 0; i < names.size(); ++i)
        if (text(names[i]) == english[i])
            out << u"%1 (\"%2\")"_s.arg(names[i], english[i]);
    kforge::Translations::install(u"en"_s);
    return out;
}

QString statusName(kforge::VariantStatus s)
{
    kforge::Variant v;
    v.status = s;
    return kforge::VariantsModel::statusText(v);
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
        QTest::newRow("unfinished") << QByteArray(
            "<message><source>Open</source><translation type=\"unfinished\"></translation></message>")
                                    << u"unfinished"_s;
        QTest::newRow("empty") << QByteArray("<message><source>Open</source><translation>  </translation></message>")
                               << u"empty translation"_s;
        QTest::newRow("lost placeholder")
            << QByteArray("<message><source>Cannot open %1: %2</source><translation>无法打开 %1</translation></message>")
            << u"placeholders differ"_s;
        QTest::newRow("numerus good") << QByteArray("<message numerus=\"yes\"><source>%n file(s)</source><translation>\n"
                                                    "<numerusform>%n 个文件</numerusform>\n</translation></message>")
                                      << QString();
        QTest::newRow("numerus empty") << QByteArray("<message numerus=\"yes\"><source>%n file(s)</source><translation>\n"
                                                     "<numerusform></numerusform>\n</translation></message>")
                                       << u"empty translation"_s;
        QTest::newRow("numerus lost %n") << QByteArray("<message numerus=\"yes\"><source>%n file(s)</source><translation>\n"
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

    void oneWordingPerSource()
    {
        QFile ts(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/translations/kforge_zh_CN.ts"));
        QVERIFY2(ts.open(QIODevice::ReadOnly), qPrintable(ts.errorString()));
        const QStringList found = wordingConflicts(&ts);
        QVERIFY2(found.isEmpty(), qPrintable(u"one English text, several Chinese ones:\n"_s + found.join(u'\n')));
        // The check itself sees a conflict.
        QByteArray two("<TS><context><name>A</name><message><source>F&amp;ork to Edit</source><translation>派生后编辑(&amp;O)"
                       "</translation></message></context><context><name>B</name><message><source>Fork to Edit</source>"
                       "<translation>分叉以编辑</translation></message></context></TS>");
        QBuffer buffer(&two);
        buffer.open(QIODevice::ReadOnly);
        QCOMPARE(wordingConflicts(&buffer).size(), 1);
    }

    void enumNamesAreTranslated()
    {
        using kforge::MeasurementText;
        // The check itself: a name nobody maps stays English, and is reported.
        QCOMPARE(untranslatedNames({u"made_up_flag"_s}, &MeasurementText::flag),
                 QStringList{u"made_up_flag (\"made_up_flag\")"_s});

        QStringList found;
        found << untranslatedNames(MeasurementText::verdicts(), &MeasurementText::verdict);
        found << untranslatedNames(MeasurementText::bounds(), &MeasurementText::bound);
        found << untranslatedNames(MeasurementText::bounds(), &MeasurementText::boundPhrase);
        found << untranslatedNames(MeasurementText::flags(), &MeasurementText::flag);
        QStringList states;
        for (int s = int(kforge::VariantStatus::Generated); s <= int(kforge::VariantStatus::Failed); ++s)
            states << QString::number(s);
        found << untranslatedNames(states, [](const QString &s) { return statusName(kforge::VariantStatus(s.toInt())); });
        QStringList origins;
        for (int o = int(kforge::VariantOrigin::Reference); o <= int(kforge::VariantOrigin::Imported); ++o)
            origins << QString::number(o);
        found << untranslatedNames(origins, [](const QString &o) {
            return kforge::VariantsModel::originText(kforge::VariantOrigin(o.toInt()));
        });
        QVERIFY2(found.isEmpty(), qPrintable(u"names shown in English inside Chinese text:\n"_s + found.join(u'\n')));
    }

    void speedOfLightIsOneTerm()
    {
        // The glossary of translations/fill_zh_CN.py: speed of light is 光速上限, whether the English says "speed of
        // light", "speed-of-light" or the column's "SOL"; never a bare 光速 (issue 37).
        QFile ts(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/translations/kforge_zh_CN.ts"));
        QVERIFY2(ts.open(QIODevice::ReadOnly), qPrintable(ts.errorString()));
        QXmlStreamReader xml(&ts);
        QString source;
        QStringList found;
        static const QRegularExpression english(u"speed.of.light|\\bSOL\\b"_s, QRegularExpression::CaseInsensitiveOption);
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == "source"_L1)
                source = xml.readElementText();
            else if (xml.name() == "translation"_L1) {
                const QString t = xml.readElementText(QXmlStreamReader::IncludeChildElements);
                if (t.isEmpty())
                    continue;
                const bool bare = t.count(u"光速"_s) > t.count(u"光速上限"_s);
                if (bare || (english.match(source).hasMatch() && !t.contains(u"光速上限"_s)))
                    found << source + u" -> "_s + t;
            }
        }
        QVERIFY2(found.isEmpty(), qPrintable(u"speed of light not as 光速上限:\n"_s + found.join(u'\n')));
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
