// Session store benchmark: builds a session of 10,000 variants, each with a realistic source, analysis,
// design and a full evaluation result (trace, metrics, roofline), then times opening it (the bound:
// <= 2 s) with open() and with openAsync() (until openFinished, and how long the calling thread is held), and
// reading one variant's texts lazily. Prints figures; pass --variants N for another size.
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace kforge;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_session: cannot read %s\n", qPrintable(path));
        std::exit(1);
    }
    return f.readAll();
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int count = 10000;
    const QStringList args = app.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--variants")); i > 0 && i + 1 < args.size())
        count = args.at(i + 1).toInt();

    const QString fixtures = QStringLiteral(KFORGE_SOURCE_DIR "/tests/fixtures/rounds/");
    const QString source = QString::fromUtf8(readFile(fixtures + QLatin1String("task_diag/variants/naive.cu")));
    const QJsonObject result = QJsonDocument::fromJson(readFile(fixtures + QLatin1String("results/reference.json"))).object();
    const QString analysis =
        QString::fromUtf8(readFile(fixtures + QLatin1String("answers/en_markdown_headings.md"))).left(1200);
    const QString design = analysis.mid(600);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.kforge"));
    QTextStream out(stdout);
    QElapsedTimer t;
    {
        SessionStore store;
        if (!store.create(path, fixtures + QLatin1String("task_diag"))) {
            std::fprintf(stderr, "bench_session: %s\n", qPrintable(store.errorString()));
            return 1;
        }
        const qint64 ref = store.population().reference()->id;
        const qint64 round = store.rounds().add({});
        t.start();
        for (int i = 0; i < count; ++i) {
            Variant v;
            v.origin = VariantOrigin::Model;
            v.roundId = round;
            v.parentIds = {ref};
            v.label = QStringLiteral("R1.%1").arg(i + 1);
            const qint64 id = store.variants().add(v, {source + QStringLiteral("// %1\n").arg(i), analysis, design});
            QJsonObject r = result;
            QJsonObject timing = r.value(QLatin1String("timing")).toObject();
            timing.insert(QStringLiteral("speedup"), 0.5 + (i % 97) * 0.1);
            r.insert(QStringLiteral("timing"), timing);
            if (!id || !store.evaluations().add(Evaluation::fromResult(id, r))) {
                std::fprintf(stderr, "bench_session: %s\n", qPrintable(store.errorString()));
                return 1;
            }
        }
        out << QStringLiteral("created %1 variants with evaluations in %2 s (%3 ms per variant + evaluation, "
                              "each committed)\n")
                   .arg(count)
                   .arg(double(t.elapsed()) / 1000, 0, 'f', 1)
                   .arg(double(t.elapsed()) / count, 0, 'f', 2);
    }
    out << QStringLiteral("session file: %1 MiB\n").arg(double(QFileInfo(path).size()) / (1 << 20), 0, 'f', 1);

    std::vector<double> opens, texts;
    for (int run = 0; run < 5; ++run) {
        SessionStore store;
        t.start();
        if (!store.open(path)) {
            std::fprintf(stderr, "bench_session: %s\n", qPrintable(store.errorString()));
            return 1;
        }
        opens.push_back(double(t.nsecsElapsed()) / 1e6);
        if (store.population().size() != count + 1) {
            std::fprintf(stderr, "bench_session: loaded %d variants, expected %d\n", store.population().size(), count + 1);
            return 1;
        }
        t.start();
        const VariantTexts vt = store.variants().texts(store.population().variants()[size_t(count / 2)].id);
        texts.push_back(double(t.nsecsElapsed()) / 1e6);
        if (vt.source.isEmpty())
            return 1;
    }
    out << QStringLiteral("open (population of %1 variants, latest evaluations, lineage): median %2 ms, first %3 ms, "
                          "bound 2000 ms\n")
               .arg(count + 1)
               .arg(medianOf(opens), 0, 'f', 1)
               .arg(opens.front(), 0, 'f', 1);
    out << QStringLiteral("one variant's source, analysis and design on demand: median %1 ms\n").arg(medianOf(texts), 0, 'f', 3);

    // openAsync(): the loader thread reads the file; the calling thread is held only by the call and by the event
    // that adopts the result (bench_gui_latency times that event, with the panels attached).
    std::vector<double> asyncTotal, asyncCall;
    for (int run = 0; run < 5; ++run) {
        SessionStore store;
        QEventLoop loop;
        bool ok = false;
        QObject::connect(&store, &SessionStore::openFinished, &loop, [&](bool success, const QString &error) {
            ok = success;
            if (!success)
                std::fprintf(stderr, "bench_session: %s\n", qPrintable(error));
            loop.quit();
        });
        t.start();
        store.openAsync(path);
        asyncCall.push_back(double(t.nsecsElapsed()) / 1e6);
        loop.exec();
        asyncTotal.push_back(double(t.nsecsElapsed()) / 1e6);
        if (!ok || store.population().size() != count + 1)
            return 1;
    }
    out << QStringLiteral("openAsync: median %1 ms until openFinished (read on the loader thread); the call itself "
                          "median %2 ms\n")
               .arg(medianOf(asyncTotal), 0, 'f', 1)
               .arg(medianOf(asyncCall), 0, 'f', 3);
    return 0;
}
