// Prompt rendering against golden files (tests/core/optimizer/golden/*.md; KFORGE_UPDATE_GOLDEN=1 rewrites
// them), plus the properties the golden files are meant to guarantee.
#include "core/eval/kernelname.h"
#include "core/eval/measureformat.h"
#include "core/eval/measurementfigures.h"
#include "core/optimizer/promptbuilder.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;

namespace {

const QString kFixtures = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/rounds/");
const QString kGolden = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/core/optimizer/golden/");

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

TaskRecord fixtureTask()
{
    TaskRecord t;
    t.name = QStringLiteral("diag_matmul");
    t.setTaskJson(QString::fromUtf8(readFile(kFixtures + QLatin1String("task_diag/task.json"))));
    t.referenceSource = QString::fromUtf8(readFile(kFixtures + QLatin1String("task_diag/reference.cu")));
    return t;
}

QJsonObject result(const QString &name)
{
    return QJsonDocument::fromJson(readFile(kFixtures + QLatin1String("results/") + name + QLatin1String(".json"))).object();
}

PromptExemplar exemplar(qint64 id, const QString &name, const QString &sourcePath, bool reference = false)
{
    PromptExemplar e;
    e.id = id;
    e.label = name;
    e.isReference = reference;
    e.source = QString::fromUtf8(readFile(sourcePath));
    const QJsonObject json = result(name);
    e.result = Measurement::fromJson(json);
    e.speedup = json.value(QLatin1String("timing")).toObject().value(QLatin1String("speedup")).toDouble();
    e.deviceName = QStringLiteral("NVIDIA H200");
    return e;
}

PromptExemplar referenceExemplar()
{
    return exemplar(1, QStringLiteral("reference"), kFixtures + QLatin1String("task_diag/reference.cu"), true);
}
PromptExemplar naiveExemplar()
{
    return exemplar(2, QStringLiteral("naive"), kFixtures + QLatin1String("task_diag/variants/naive.cu"));
}
PromptExemplar scalarExemplar()
{
    return exemplar(3, QStringLiteral("rowscale_scalar"), kFixtures + QLatin1String("variants/rowscale_scalar.cu"));
}

PromptExemplar profiledScalarExemplar()
{
    PromptExemplar e = scalarExemplar();
    e.result = Measurement::fromJson(result(QStringLiteral("rowscale_scalar_profiled")));
    return e;
}

// The naive variant with a hand-made source-level profile: the tiled GEMM's inner product (line 31), its
// two tile loads (26, 27) and the barrier (28).
PromptExemplar profiledNaiveExemplar()
{
    PromptExemplar e = naiveExemplar();
    e.result = Measurement::fromJson(result(QStringLiteral("naive_profiled")));
    return e;
}

const char *kBrokenSource = R"(#include "kforge/kernel.h"

__global__ void rowscale(const float *a, const float *b, float *c, int64_t n, int64_t m)
{
    const int64_t idx = blockIdx.x * blockDim.x + threadIdx.x
    if (idx < n * m)
        c[idx] = a[idx / m] * b[idx];
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    return cudaGetLastError();
}
)";

const char *kDiagnostics = R"(candidate.cu(5): error: expected a ";"
      if (idx < n * m)
      ^

1 error detected in the compilation of "candidate.cu".)";

} // namespace

class TstPromptBuilder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void matchesGoldenFiles_data()
    {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<QString>("rendered");
        QString error;

        ContrastiveRequest two;
        two.task = fixtureTask();
        two.exemplars = {scalarExemplar(), naiveExemplar()}; // given fastest first: the prompt sorts them
        two.hint = QStringLiteral("Try 16-byte loads (float4).");
        QTest::newRow("contrastive, two exemplars") << "contrastive_two.md" << PromptBuilder::contrastive(two, &error);

        // The scalar variant with a source-level profile (hand-made after the protocol's source_profile): its
        // hottest lines follow its measurements.
        ContrastiveRequest hot = two;
        hot.exemplars[0] = profiledScalarExemplar();
        QTest::newRow("contrastive, hot lines") << "contrastive_hot_lines.md" << PromptBuilder::contrastive(hot, &error);

        ContrastiveRequest first;
        first.task = fixtureTask();
        first.exemplars = {referenceExemplar()};
        QTest::newRow("contrastive, first round") << "contrastive_first.md" << PromptBuilder::contrastive(first, &error);

        RepairRequest compile;
        compile.task = fixtureTask();
        compile.source = QString::fromUtf8(kBrokenSource);
        compile.design = QStringLiteral("One thread per element of C, scaling by A[row].");
        compile.failure = RepairRequest::Failure::CompileError;
        compile.diagnostics = QString::fromUtf8(kDiagnostics);
        compile.nvccCommand = QStringLiteral("nvcc -O3 -arch=sm_90 -shared");
        QTest::newRow("repair, compile error") << "repair_compile.md" << PromptBuilder::repair(compile, &error);

        RepairRequest wrong;
        wrong.task = fixtureTask();
        wrong.source = QString::fromUtf8(readFile(kFixtures + QLatin1String("variants/rowscale_scalar.cu")));
        wrong.failure = RepairRequest::Failure::WrongResult;
        wrong.result = Measurement::fromJson(result(QStringLiteral("wrong")));
        QTest::newRow("repair, wrong result") << "repair_wrong.md" << PromptBuilder::repair(wrong, &error);

        CompareRequest cmp;
        cmp.task = fixtureTask();
        cmp.a = scalarExemplar();
        cmp.b = naiveExemplar();
        QTest::newRow("compare") << "compare.md" << PromptBuilder::compare(cmp, &error);

        CompareRequest cmpHot = cmp;
        cmpHot.a = profiledScalarExemplar();
        cmpHot.b = profiledNaiveExemplar();
        QTest::newRow("compare, hot lines") << "compare_hot_lines.md" << PromptBuilder::compare(cmpHot, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void matchesGoldenFiles()
    {
        QFETCH(QString, golden);
        QFETCH(QString, rendered);
        QVERIFY(!rendered.isEmpty());
        const QString path = kGolden + golden;
        if (qEnvironmentVariableIsSet("KFORGE_UPDATE_GOLDEN")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(rendered.toUtf8());
            QSKIP("golden file rewritten");
        }
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly),
                 qPrintable(path + QLatin1String(" is missing: run with KFORGE_UPDATE_GOLDEN=1")));
        const QString expected = QString::fromUtf8(f.readAll());
        if (rendered != expected) {
            const QStringList a = rendered.split(QLatin1Char('\n')), b = expected.split(QLatin1Char('\n'));
            for (int i = 0; i < std::max(a.size(), b.size()); ++i) {
                const QString x = a.value(i, QStringLiteral("<end>")), y = b.value(i, QStringLiteral("<end>"));
                if (x != y)
                    QFAIL(qPrintable(
                        QStringLiteral("%1:%2 differs\n  rendered: %3\n  golden:   %4").arg(golden).arg(i + 1).arg(x, y)));
            }
        }
    }

    void hotLinesOfAProfiledExemplar()
    {
        QString error;
        ContrastiveRequest plain;
        plain.task = fixtureTask();
        plain.exemplars = {scalarExemplar(), naiveExemplar()};
        ContrastiveRequest hot = plain;
        hot.exemplars[0] = profiledScalarExemplar();
        const QString without = PromptBuilder::contrastive(plain, &error);
        const QString with = PromptBuilder::contrastive(hot, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // Line 9 `c[idx] = a[idx / m] * b[idx];` holds 1400 of 2000 samples, most of them long scoreboard.
        QVERIFY(with.contains(QStringLiteral(
            "- line 9 (`c[idx] = a[idx / m] * b[idx];`), 70% of samples, long scoreboard: waiting on a global or local "
            "memory load (L1TEX)")));
        QVERIFY(with.contains(QStringLiteral("- line 8 (`if (idx < n * m)`), 15% of samples, wait: ")));
        QVERIFY(with.contains(QStringLiteral("- line 7 (")));
        QVERIFY(!with.contains(QStringLiteral("- line 6 ("))); // 3% of the samples: past the third line, left out
        QVERIFY(!without.contains(QStringLiteral("Hottest source lines")));
        // The growth per profiled exemplar, in characters and (at ~4 characters a token) tokens.
        const qsizetype growth = with.size() - without.size();
        qInfo("prompt growth for one profiled exemplar: %lld characters, about %lld tokens", qint64(growth),
              qint64(growth / 4));
        QVERIFY(growth > 0 && growth < 600);
        // A profile the host could not take adds nothing.
        PromptExemplar unavailable = scalarExemplar();
        QJsonObject withUnavailable = unavailable.result.toJson();
        withUnavailable.insert(QStringLiteral("source_profile"),
                               QJsonObject{{QStringLiteral("status"), QStringLiteral("unavailable")},
                                           {QStringLiteral("reason"), QStringLiteral("ERR_NVGPUCTRPERM")}});
        unavailable.result = Measurement::fromJson(withUnavailable);
        ContrastiveRequest none = plain;
        none.exemplars[0] = unavailable;
        QCOMPARE(PromptBuilder::contrastive(none, &error), without);
    }

    void hotLinesInTheComparePrompt()
    {
        QString error;
        CompareRequest plain;
        plain.task = fixtureTask();
        plain.a = scalarExemplar();
        plain.b = naiveExemplar();
        CompareRequest hot = plain;
        hot.a = profiledScalarExemplar();
        hot.b = profiledNaiveExemplar();
        const QString without = PromptBuilder::compare(plain, &error);
        const QString with = PromptBuilder::compare(hot, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!without.contains(QStringLiteral("Hottest source lines")));
        const qsizetype a = with.indexOf(QStringLiteral("## Variant A")), b = with.indexOf(QStringLiteral("## Variant B"));
        QVERIFY(a > 0 && b > a);
        // Each side lists its own hottest lines (3 to 5 of them) before its code.
        const auto hotLinesOf = [&with](qsizetype from, qsizetype to) {
            const QString part = with.mid(from, with.indexOf(QStringLiteral("```cuda"), from) - from);
            if (!part.contains(QStringLiteral("Hottest source lines")) || with.indexOf(QStringLiteral("```cuda"), from) > to)
                return -1;
            return int(part.count(QStringLiteral("\n- line ")));
        };
        const int linesA = hotLinesOf(a, b), linesB = hotLinesOf(b, with.size());
        QVERIFY2(linesA >= 3 && linesA <= 5, qPrintable(QString::number(linesA)));
        QVERIFY2(linesB >= 3 && linesB <= 5, qPrintable(QString::number(linesB)));
        QVERIFY(with.mid(a, b - a).contains(QStringLiteral("- line 9 (`c[idx] = a[idx / m] * b[idx];`), 70% of samples")));
        // B's inner product: 900 of its 2000 samples, mostly short scoreboard (shared memory).
        QVERIFY(with.mid(b).contains(QStringLiteral("- line 31 (`acc += as[ty][i] * bs[i][tx];`), 45% of samples, ")));
        QVERIFY(with.mid(b).contains(QStringLiteral("- line 28 (`__syncthreads();`), 15% of samples, ")));
        const qsizetype growth = with.size() - without.size();
        qInfo("compare prompt growth with both sides profiled: %lld characters, about %lld tokens (of %lld)",
              qint64(growth), qint64(growth / 4), qint64(with.size() / 4));
        QVERIFY(growth > 0 && growth < 1400); // at most ~175 tokens a side
    }

    void contrastivePromptCarriesWhatTheModelNeeds()
    {
        ContrastiveRequest r;
        r.task = fixtureTask();
        r.exemplars = {scalarExemplar(), naiveExemplar()};
        QString error;
        const QString p = PromptBuilder::contrastive(r, &error);
        QVERIFY2(!p.isEmpty(), qPrintable(error));
        // Task and reference.
        QVERIFY(p.contains(QLatin1String("C = diag(A) @ B")));
        QVERIFY(p.contains(QLatin1String("cublasSgemm")));
        QVERIFY(p.contains(QLatin1String("`B`: f32, shape [N, M]")));
        // Exemplars slowest first, with measured numbers; fields that were not measured are left out.
        const qsizetype naive = p.indexOf(QLatin1String("Variant A: 0.19x the reference"));
        const qsizetype scalar = p.indexOf(QLatin1String("Variant B: 227x the reference"));
        QVERIFY(naive > 0 && scalar > naive);
        QVERIFY(p.contains(QStringLiteral("event time (median) 61.4 ms")));
        QVERIFY(p.contains(QStringLiteral("event time (median) 52.1 µs")));
        QVERIFY(p.contains(QLatin1String("occupancy 97.8% achieved, 100% theoretical")));
        QVERIFY(p.contains(QStringLiteral("64.1% of speed of light (the task's floor is 33.4 µs)")));
        const QString scalarSection = p.mid(scalar, p.indexOf(QLatin1String("```cuda"), scalar) - scalar);
        QVERIFY(!scalarSection.contains(QLatin1String("occupancy")));
        QVERIFY(!scalarSection.contains(QLatin1String("registers")));
        // The three parts and the rules.
        QVERIFY(p.contains(QLatin1String("why Variant B is faster than Variant A")));
        QVERIFY(p.contains(QLatin1String("**Algorithm design**")));
        QVERIFY(p.contains(QLatin1String("one fenced ```cuda block")));
        QVERIFY(p.contains(QLatin1String("KF_ENTRY")));
        QVERIFY(p.contains(QLatin1String("Do not cache results")));
        QVERIFY(p.contains(QLatin1String("leave no work running after the entry returns")));
        QVERIFY(p.contains(QLatin1String("Enqueue all work on the given `stream`")));
        QVERIFY(p.contains(QLatin1String("atol 1e-05, rtol 1e-05 for f32")));
        QVERIFY(!p.contains(QLatin1String("Guidance from the user")));
        QVERIFY(!p.contains(QLatin1String("{{")));
    }

    // A torch task (kforge-cli import's task.json, reference.py) gets the PyTorch template: the Model in a
    // python fence, the forward arguments with a scalar, parameters, both answer forms; a ModelNew exemplar keeps
    // its python fence, a .cu one its cuda fence.
    void torchTaskGetsThePyTorchTemplate()
    {
        TaskRecord t;
        t.name = QStringLiteral("gemm_scale");
        t.setTaskJson(QStringLiteral(
            R"({"kind": "torch", "name": "gemm_scale", "title": "Linear then scale", "description": "y = alpha * W x",
                "reference": "reference.py", "params": {"batch": 64, "features": 128},
                "inputs": [{"name": "x", "dtype": "f32", "shape": ["batch", "features"]},
                           {"name": "alpha", "scalar": "float", "value": 0.5}],
                "parameters": [{"name": "linear.weight", "dtype": "f32", "shape": ["features", "features"]}],
                "buffers": [], "outputs": [{"name": "out", "dtype": "f32", "shape": ["batch", "features"]}],
                "tolerance": {"f32": {"atol": 0.0001, "rtol": 0.0001}}, "flops": null, "bytes": "4*batch*features"})"));
        t.referenceSource = QStringLiteral("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                                           "    def forward(self, x, alpha):\n        return self.linear(x) * alpha\n");
        QCOMPARE(PromptBuilder::templateFor(QStringLiteral("contrastive"), t), QStringLiteral("contrastive_torch"));
        QCOMPARE(PromptBuilder::templateFor(QStringLiteral("repair"), t), QStringLiteral("repair_torch"));
        QCOMPARE(PromptBuilder::templateFor(QStringLiteral("contrastive"), fixtureTask()), QStringLiteral("contrastive"));
        PromptExemplar ref;
        ref.id = 1;
        ref.isReference = true;
        ref.source = t.referenceSource;
        ref.speedup = 1.0;
        PromptExemplar python;
        python.id = 2;
        python.source = QStringLiteral("import torch\n\n\nclass ModelNew(torch.nn.Module):\n    pass\n");
        python.speedup = 1.7;
        PromptExemplar cuda;
        cuda.id = 3;
        cuda.source = QStringLiteral("#include \"kforge/kernel.h\"\nKF_ENTRY(i, ni, o, no, p, s) { return cudaSuccess; }\n");
        cuda.speedup = 2.5;
        ContrastiveRequest r;
        r.task = t;
        r.exemplars = {cuda, ref, python};
        QString error;
        const QString p = PromptBuilder::contrastive(r, &error);
        QVERIFY2(!p.isEmpty(), qPrintable(error));
        QVERIFY(p.contains(QLatin1String("```python\nimport torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module)")));
        QVERIFY(p.contains(QLatin1String("- `x`: f32, shape [batch, features]")));
        QVERIFY(p.contains(QLatin1String("- `alpha`: float = 0.5")));
        QVERIFY(p.contains(QLatin1String("- `linear.weight`: f32, shape [features, features]")));
        QVERIFY(p.contains(QLatin1String("A `ModelNew` module")));
        QVERIFY(p.contains(QLatin1String("A KForge `.cu` kernel")));
        QVERIFY(p.contains(QLatin1String("Variant B: 1.70x the reference (a ModelNew module)")));
        QVERIFY(p.contains(QLatin1String("Variant C: 2.50x the reference (a KForge .cu kernel)")));
        QVERIFY(p.contains(QLatin1String("```python\nimport torch\n\n\nclass ModelNew")));
        QVERIFY(p.contains(QLatin1String("```cuda\n#include \"kforge/kernel.h\"")));
        QVERIFY(p.contains(QLatin1String("first explain why Variant C is faster than Variant A")));
        QVERIFY(p.contains(QLatin1String("atol 0.0001, rtol 0.0001 for f32")));
        QVERIFY(p.contains(QLatin1String("Unavoidable memory traffic: 4*batch*features bytes.")));
        QVERIFY(!p.contains(QLatin1String("Work:"))); // flops null: not counted
        QVERIFY(!p.contains(QLatin1String("{{")));

        RepairRequest repair;
        repair.task = t;
        repair.source = python.source;
        repair.failure = RepairRequest::Failure::WrongResult;
        const QString rp = PromptBuilder::repair(repair, &error);
        QVERIFY2(!rp.isEmpty(), qPrintable(error));
        QVERIFY(rp.contains(QLatin1String("## Your answer\n\n```python\nimport torch")));
    }

    void noExemplarIsAnError()
    {
        ContrastiveRequest r;
        r.task = fixtureTask();
        QString error;
        QVERIFY(PromptBuilder::contrastive(r, &error).isEmpty());
        QVERIFY(!error.isEmpty());
    }

    void brokenUserTemplateIsReported()
    {
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QLatin1String("/prompts");
        QVERIFY(QDir().mkpath(dir));
        QFile f(dir + QLatin1String("/compare.md"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("A\n{{#a}}\n{{speed}}\n{{/a}}\n");
        f.close();
        CompareRequest cmp;
        cmp.task = fixtureTask();
        cmp.a = scalarExemplar();
        cmp.b = naiveExemplar();
        QString error;
        QVERIFY(PromptBuilder::compare(cmp, &error).isEmpty());
        QVERIFY2(error.contains(f.fileName()) && error.contains(QLatin1String("line 3: no value for {{speed}}")),
                 qPrintable(error));
        QVERIFY(f.remove());
    }

    void profileFiguresReadBothRooflineShapes()
    {
        const MeasurementFigures full = MeasurementFigures::fromResult(result(QStringLiteral("reference")));
        QCOMPARE(*full.medianMs, 11.84);
        QCOMPARE(full.bound, QStringLiteral("compute"));
        QCOMPARE(*full.registers, 202); // the kernel that takes the time, not the first one
        QCOMPARE(*full.spillBytes, 0);
        QCOMPARE(*full.launchesPerRun, 3.0);
        // Qualifiers dropped, template arguments kept (kernelDisplayName, issue 18).
        QCOMPARE(kernelDisplayName(full.kernels.first().name),
                 QStringLiteral("Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"));
        QVERIFY(full.profileLines().contains(QStringLiteral("kernels: Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>, "
                                                            "scatter_diagonal (3 launches per call)")));
        QVERIFY(qAbs(*full.speedOfLight.percent() - 100.0 / 354.6) < 1e-9);
        const MeasurementFigures flat = MeasurementFigures::fromResult(result(QStringLiteral("rowscale_scalar")));
        QCOMPARE(*flat.achievedGbps, 2576.5);
        QVERIFY(qAbs(*flat.speedOfLight.percent() - 64.09) < 1e-9);
        QVERIFY(!flat.registers && !flat.achievedOccupancyPct && flat.bound.isEmpty());
        QVERIFY(MeasurementFigures::fromResult({}).profileLines().isEmpty());
    }

    void formatsMeasures_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("large") << 2576.5 << "2577";
        QTest::newRow("tens") << 61.35 << "61.4";
        QTest::newRow("units") << 1.234 << "1.23";
        QTest::newRow("small") << 0.05214 << "0.0521";
        QTest::newRow("tiny") << 0.0003339 << "0.000334";
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("integral") << 2.0 << "2";
    }

    void formatsMeasures()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(formatMeasure(value), text);
    }

    // The prompts two contrastive rounds on an H200 really sent (docs/h200-diag_matmul.kforge), re-rendered from
    // the session's own variants and measurements: the reference's code once, its entry keeping its figures.
    void referenceSourceIsShownOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h200.kforge"));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul.kforge"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        SessionStore store;
        QVERIFY2(store.open(path), qPrintable(store.errorString()));
        const QString reference = store.task().referenceSource.trimmed();
        QVERIFY(reference.size() > 200);
        int rerendered = 0;
        for (const RoundRecord &round : store.rounds().all()) {
            for (const PromptRecord &sent : store.exchanges().prompts(round.id)) {
                if (sent.kind != QLatin1String("contrastive"))
                    continue;
                const qint64 referenceId = store.population().reference()->id;
                ContrastiveRequest req;
                req.task = store.task();
                req.hint = sent.hint;
                for (qint64 id : sent.exemplarIds)
                    req.exemplars << PromptBuilder::exemplar(store, id);
                QString error;
                const QString p = PromptBuilder::contrastive(req, &error);
                QVERIFY2(!p.isEmpty(), qPrintable(error));
                QCOMPARE(p.count(reference), 1);
                QVERIFY(p.indexOf(reference) < p.indexOf(QLatin1String("### Variant A"))); // under "Reference implementation"
                if (sent.exemplarIds.contains(referenceId)) {
                    // What the round sent printed it twice; the new prompt refers to it instead.
                    QCOMPARE(sent.rendered.count(reference), 2);
                    const qsizetype entry = p.indexOf(QLatin1String(" (the reference): 1.00x the reference"));
                    QVERIFY(entry > 0);
                    const qsizetype next = p.indexOf(QLatin1String("\n### "), entry);
                    const QString section = p.mid(entry, (next < 0 ? p.indexOf(QLatin1String("## What to write")) : next)
                                                             - entry);
                    QVERIFY2(section.contains(QLatin1String("event time (median)")), qPrintable(section)); // figures kept
                    QVERIFY(section.contains(QLatin1String("Its code is the reference implementation shown above.")));
                    QVERIFY(!section.contains(QLatin1String("```cuda")));
                }
                // Every other exemplar still shows its code.
                for (qint64 id : sent.exemplarIds)
                    if (id != referenceId)
                        QVERIFY(p.contains(store.variants().source(id).trimmed()));
                ++rerendered;
            }
        }
        QCOMPARE(rerendered, 2);
    }
};

QTEST_GUILESS_MAIN(TstPromptBuilder)
#include "tst_promptbuilder.moc"
