#include "roundharness.h"

#include <QJsonDocument>
#include <QRegularExpression>

namespace kforge::test {

QString answerText(const CandidateAnswer &a, int index)
{
    return QStringLiteral(
               "## Performance analysis\n\n"
               "Candidate %1: the reference spends **11.8 ms** in a cuBLAS SGEMM that multiplies by a diagonal "
               "matrix, %2 GFLOP of which only 16.8 MFLOP are useful. The faster exemplar reads `B` once and is "
               "memory-bound at 2577 GB/s.\n\n"
               "## Algorithm design\n\n"
               "- One block per row, so `A[row]` is loaded once\n"
               "- `float4` loads and stores, grid-stride over the columns\n"
               "- Expected: about %3x the reference\n\n"
               "## Code\n\n"
               "```cuda\n"
               "// kforge-test: speedup=%3 verdict=%4 metrics=%5\n"
               "#include \"kforge/kernel.h\"\n\n"
               "__global__ void rowscale_%1(const float *a, const float4 *b, float4 *c, int64_t m4)\n"
               "{\n"
               "    const float s = a[blockIdx.y];\n"
               "    for (int64_t j = blockIdx.x * blockDim.x + threadIdx.x; j < m4; j += gridDim.x * blockDim.x) {\n"
               "        float4 v = b[blockIdx.y * m4 + j];\n"
               "        v.x *= s; v.y *= s; v.z *= s; v.w *= s;\n"
               "        c[blockIdx.y * m4 + j] = v;\n"
               "    }\n"
               "}\n\n"
               "KF_ENTRY(in, nin, out, nout, params, stream)\n"
               "{\n"
               "    (void)nin; (void)nout; (void)params;\n"
               "    const int64_t n = in[1].shape[0], m4 = in[1].shape[1] / 4;\n"
               "    rowscale_%1<<<dim3(4, (unsigned)n), 256, 0, stream>>>(static_cast<const float *>(in[0].data),\n"
               "        static_cast<const float4 *>(in[1].data), static_cast<float4 *>(out[0].data), m4);\n"
               "    return cudaGetLastError();\n"
               "}\n"
               "```\n")
        .arg(index)
        .arg(68.7)
        .arg(a.speedup)
        .arg(a.verdict)
        .arg(a.metrics ? 1 : 0);
}

QString reasoningText(int index)
{
    return QStringLiteral("Candidate %1 thinks: the diagonal matrix is never needed; scaling each row of B by A[i] "
                          "moves 134 MB, so the floor is about 0.033 ms at 4 TB/s. Vector loads should help.")
        .arg(index);
}

QString compareAnswerText()
{
    return QStringLiteral(
        "## Why #A beats #B\n\n"
        "Both read `B` once, but the faster one issues **16-byte** loads: its DRAM bandwidth is higher and the kernel "
        "takes fewer cycles per byte. The slower one loads `A[row]` per element.\n\n"
        "1. Vector width: `float4` against `float`\n"
        "2. Index math: no 64-bit division per element");
}

namespace {

QByteArray chunk(const QJsonObject &delta, const QJsonValue &finish = QJsonValue::Null)
{
    const QJsonObject o{{QStringLiteral("id"), QStringLiteral("chatcmpl-panels")},
                        {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                        {QStringLiteral("model"), QStringLiteral("replay-model")},
                        {QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                                           {QStringLiteral("delta"), delta},
                                                                           {QStringLiteral("finish_reason"), finish}}}}};
    return "data: " + QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n\n";
}

} // namespace

QByteArray openAiStream(const QString &text, const QString &reasoning, int deltaChars)
{
    QByteArray out = chunk(
        QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), QString()}});
    for (qsizetype i = 0; i < reasoning.size(); i += deltaChars)
        out += chunk(QJsonObject{{QStringLiteral("reasoning_content"), reasoning.mid(i, deltaChars)}});
    for (qsizetype i = 0; i < text.size(); i += deltaChars)
        out += chunk(QJsonObject{{QStringLiteral("content"), text.mid(i, deltaChars)}});
    out += chunk(QJsonObject{}, QStringLiteral("stop"));
    const qint64 completion = (text.size() + reasoning.size()) / 4;
    const QJsonObject usage{{QStringLiteral("id"), QStringLiteral("chatcmpl-panels")},
                            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                            {QStringLiteral("model"), QStringLiteral("replay-model")},
                            {QStringLiteral("choices"), QJsonArray{}},
                            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), 1800},
                                                                  {QStringLiteral("completion_tokens"), completion},
                                                                  {QStringLiteral("total_tokens"), 1800 + completion}}}};
    out += "data: " + QJsonDocument(usage).toJson(QJsonDocument::Compact) + "\n\n";
    out += "data: [DONE]\n\n";
    return out;
}

EvalResult scriptedResult(const EvalRequest &request)
{
    static const QRegularExpression marker(
        QStringLiteral("// kforge-test: speedup=([0-9.]+) verdict=([a-z_]+) metrics=([01])"));
    ResultSpec spec;
    const auto m = marker.match(request.candidateSource);
    if (m.hasMatch()) {
        spec.speedup = m.captured(1).toDouble();
        spec.verdict = m.captured(2);
        spec.metrics = m.captured(3) == QLatin1String("1");
        if (spec.verdict != QLatin1String("correct"))
            spec.message = QStringLiteral("output C differs from the reference in 4096 of 16777216 elements");
    } else {
        // The reference, measured before the first prompt, with its cuBLAS GEMM and scatter kernels.
        spec.speedup = 1.0;
        spec.kernels = {KernelSpec{QStringLiteral("void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
                                                  "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)"),
                                   11300, 1, 202, 0, 2.0 * 4096 * 4096 * 4096, 201326592},
                        KernelSpec{QStringLiteral("scatter_diagonal(float const*, float*, long)"), 6.2, 1, 16, 0, 0, 0}};
    }
    EvalResult r = EvalResult::fromJson(workerResult(spec));
    r.deviceName = QStringLiteral("NVIDIA H200");
    r.workerName = QStringLiteral("scripted");
    return r;
}

ReplayScenario roundScenario(const QList<CandidateAnswer> &answers, const QString &compareAnswer, int chunkDelayMs)
{
    ReplayScenario scenario;
    for (int i = 0; i < answers.size(); ++i) {
        ReplayResponse r;
        r.body = openAiStream(answerText(answers[i], i + 1), reasoningText(i + 1));
        r.chunkBytes = 700;
        r.delayMs = chunkDelayMs;
        scenario.responses << r;
    }
    ReplayResponse why;
    why.body = openAiStream(compareAnswer, QStringLiteral("Compare the two profiles: DRAM bytes and kernel counts."));
    why.chunkBytes = 700;
    why.delayMs = chunkDelayMs;
    scenario.responses << why;
    return scenario;
}

EndpointConfig loopbackEndpoint(const QString &baseUrl)
{
    EndpointConfig e;
    e.id = QStringLiteral("loopback");
    e.displayName = QStringLiteral("Loopback replay");
    e.baseUrl = baseUrl;
    e.protocol = LlmProtocol::OpenAi;
    e.defaultModel = QStringLiteral("replay-model");
    e.limits.maxAttempts = 1;
    return e;
}

RoundHarness::RoundHarness(SessionFixture &fixture, int evalDelayMs)
    : settings(std::make_unique<Settings>(dir.filePath(QStringLiteral("kforge.ini"))))
    , evaluator(&scriptedResult)
    , runner(std::make_unique<RoundRunner>(&fixture.store(), &llm, &evaluator))
{
    evaluator.setDelayMs(evalDelayMs);
}

RoundHarness::~RoundHarness()
{
    runner.reset(); // cancels its requests before the client goes
}

bool RoundHarness::serve(const QList<CandidateAnswer> &answers, const QString &compareAnswer, QString *error, int chunkDelayMs)
{
    if (!server.listen()) {
        *error = QStringLiteral("the replay server does not listen");
        return false;
    }
    server.addScenario(QStringLiteral("round"), roundScenario(answers, compareAnswer, chunkDelayMs));

    settings->setEndpoints({loopbackEndpoint(server.baseUrl(QStringLiteral("round")))});
    return true;
}

} // namespace kforge::test
