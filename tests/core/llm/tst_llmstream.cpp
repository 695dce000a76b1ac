// The SSE parser and the per-protocol stream decoders, fed bytes directly: every recorded fixture must give
// the same result whether it arrives whole, byte by byte, split at every single offset or in random pieces.
#include "core/llm/sseparser.h"
#include "core/llm/streamdecoder.h"
#include "streamoutcome.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

using namespace kforge;

namespace {

QByteArray fixture(const QString &name)
{
    QFile f(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/llm/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

using Outcome = test::StreamOutcome;

Outcome decode(LlmProtocol protocol, const QByteArray &bytes, const QList<qsizetype> &cuts, bool json = false)
{
    qsizetype next = 0;
    return test::decodeInPieces(protocol, json, bytes.constData(), bytes.size(), [&](qsizetype at, qsizetype left) {
        while (next < cuts.size() && cuts[next] <= at)
            ++next;
        return next < cuts.size() ? std::min(cuts[next] - at, left) : left;
    });
}

bool same(const Outcome &a, const Outcome &b)
{
    return a.text == b.text && a.reasoning == b.reasoning && a.stop == b.stop && a.usage == b.usage
           && a.ended == b.ended && a.truncated == b.truncated && a.error == b.error && a.model == b.model;
}

std::vector<SseEvent> parseAll(const QByteArray &bytes, qsizetype piece)
{
    SseParser p;
    std::vector<SseEvent> out;
    for (qsizetype i = 0; i < bytes.size(); i += piece)
        p.feed(bytes.constData() + i, std::min(piece, bytes.size() - i), out);
    p.finish(out);
    return out;
}

} // namespace

class TestLlmStream : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sseFields();
    void sseLineEndings_data();
    void sseLineEndings();
    void sseByteOrderMarkSplit();
    void sseOverflow();
    void fixtures_data();
    void fixtures();
    void everySplitPointGivesTheSameResult_data() { fixtures_data(); }
    void everySplitPointGivesTheSameResult();
    void randomChunkingGivesTheSameResult_data() { fixtures_data(); }
    void randomChunkingGivesTheSameResult();
    void wholeJsonBody();
    void deltasAreMergedPerKind();
};

void TestLlmStream::sseFields()
{
    const QByteArray s = ": comment\n"
                         "event: content_block_delta\n"
                         "id: 7\n"
                         "retry: 1000\n"
                         "data: line one\n"
                         "data:line two\n"
                         "data\n"
                         "unknown: x\n"
                         "\n"
                         "data: second\n\n"
                         "\n\n"               // blank lines alone dispatch nothing
                         "event: lonely\n\n"; // no data: nothing dispatched
    for (qsizetype piece : {1, 2, 3, 1000}) {
        SseParser p;
        std::vector<SseEvent> out;
        for (qsizetype i = 0; i < s.size(); i += piece)
            p.feed(s.constData() + i, std::min(piece, s.size() - i), out);
        p.finish(out);
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(out[0].event, QByteArray("content_block_delta"));
        QCOMPARE(out[0].id, QByteArray("7"));
        QCOMPARE(out[0].data, QByteArray("line one\nline two\n"));
        QCOMPARE(out[1].event, QByteArray()); // the event type does not carry over
        QCOMPARE(out[1].data, QByteArray("second"));
        QCOMPARE(p.commentCount(), 1);
    }
}

void TestLlmStream::sseLineEndings_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::newRow("lf") << QByteArray("data: a\n\ndata: b\n\n");
    QTest::newRow("crlf") << QByteArray("data: a\r\n\r\ndata: b\r\n\r\n");
    QTest::newRow("cr") << QByteArray("data: a\r\rdata: b\r\r");
    QTest::newRow("mixed") << QByteArray("data: a\r\n\ndata: b\r\r\n");
    QTest::newRow("no final blank line") << QByteArray("data: a\n\ndata: b");
}

void TestLlmStream::sseLineEndings()
{
    QFETCH(QByteArray, stream);
    for (qsizetype piece = 1; piece <= stream.size(); ++piece) {
        const auto out = parseAll(stream, piece);
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(out[0].data, QByteArray("a"));
        QCOMPARE(out[1].data, QByteArray("b"));
    }
}

void TestLlmStream::sseByteOrderMarkSplit()
{
    const QByteArray s = "\xEF\xBB\xBF"
                         "data: x\n\n";
    for (qsizetype piece = 1; piece <= 4; ++piece) {
        const auto out = parseAll(s, piece);
        QCOMPARE(out.size(), size_t(1));
        QCOMPARE(out[0].data, QByteArray("x"));
    }
    // Bytes that start like a BOM but are not one belong to the first line.
    const auto out = parseAll(QByteArray("\xEF"
                                         "data: y\n\n"),
                              1);
    QCOMPARE(out.size(), size_t(0)); // "\xEFdata" is an unknown field
}

void TestLlmStream::sseOverflow()
{
    SseParser p;
    std::vector<SseEvent> out;
    const QByteArray big(1024 * 1024, 'x');
    p.feed("data: ", 6, out);
    for (int i = 0; i < 17 && !p.overflowed(); ++i)
        p.feed(big.constData(), big.size(), out);
    QVERIFY(p.overflowed());
    QVERIFY(out.empty());

    auto d = StreamDecoder::create(LlmProtocol::OpenAi);
    d->feed("data: ", 6);
    for (int i = 0; i < 17; ++i)
        d->feed(big.constData(), big.size());
    QCOMPARE(d->error(), LlmErrorKind::MalformedStream);
}

void TestLlmStream::fixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("protocol");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QString>("stop");
    QTest::addColumn<bool>("truncated");
    QTest::addColumn<int>("error");
    QTest::addColumn<QList<qint64>>("usage"); // prompt, completion, reasoning; empty = not reported

    const int oa = int(LlmProtocol::OpenAi), an = int(LlmProtocol::Anthropic);
    const int ok = int(LlmErrorKind::None);
    QTest::newRow("openai basic, keep-alive comments")
        << "openai_basic.sse" << oa << "The faster kernel fuses the two loads into one pass."
        << ""
        << "stop" << false << ok << QList<qint64>{42, 9, 0};
    QTest::newRow("openai chinese, CRLF")
        << "openai_chinese.sse" << oa << QStringLiteral("内核融合减少了全局内存访问，速度提高了三倍。🚀") << ""
        << "stop" << false << ok << QList<qint64>{30, 21, 0};
    QTest::newRow("reasoning_content (DeepSeek)") << "openai_reasoning.sse" << oa << "Use shared memory tiles."
                                                  << "The naive kernel reads B twice; tiling halves the traffic."
                                                  << "stop" << false << ok << QList<qint64>{120, 64, 40};
    QTest::newRow("reasoning (OpenRouter)") << "openai_reasoning_field.sse" << oa << "Unroll by 4."
                                            << "Loop overhead dominates."
                                            << "stop" << false << ok << QList<qint64>{80, 30, 18};
    QTest::newRow("reasoning only, length") << "openai_reasoning_only.sse" << oa << ""
                                            << "Consider the memory access pattern of each warp"
                                            << "length" << true << ok << QList<qint64>{100, 256, 256};
    QTest::newRow("finish_reason length") << "openai_length.sse" << oa << "The kernel is memory bound because"
                                          << ""
                                          << "length" << true << ok << QList<qint64>{50, 8, 0};
    QTest::newRow("empty choices (Azure)") << "openai_empty_choices.sse" << oa << "Coalesce the stores."
                                           << ""
                                           << "stop" << false << ok << QList<qint64>{20, 4, 0};
    QTest::newRow("invalid JSON chunk") << "openai_invalid_json.sse" << oa << "Partial answer"
                                        << ""
                                        << "" << false << int(LlmErrorKind::MalformedStream) << QList<qint64>{};
    QTest::newRow("error object mid-stream") << "openai_midstream_error.sse" << oa << "Half an answer"
                                             << ""
                                             << "" << false << int(LlmErrorKind::ServerError) << QList<qint64>{};
    QTest::newRow("no [DONE], no finish") << "openai_no_done.sse" << oa << "This answer stops"
                                          << ""
                                          << "" << false << int(LlmErrorKind::StreamIncomplete) << QList<qint64>{};
    QTest::newRow("anthropic basic") << "anthropic_basic.sse" << an
                                     << QStringLiteral("Fusing the two kernels removes a round trip to HBM. 显存") << ""
                                     << "end_turn" << false << ok << QList<qint64>{310, 87, 0};
    QTest::newRow("anthropic thinking") << "anthropic_thinking.sse" << an << "Fuse them."
                                        << "The reference launches two kernels."
                                        << "end_turn" << false << ok << QList<qint64>{420, 160, 0};
    QTest::newRow("anthropic max_tokens") << "anthropic_max_tokens.sse" << an << "The first reason is"
                                          << ""
                                          << "max_tokens" << true << ok << QList<qint64>{310, 16, 0};
    QTest::newRow("anthropic overloaded") << "anthropic_overloaded.sse" << an << ""
                                          << ""
                                          << "" << false << int(LlmErrorKind::ServerError) << QList<qint64>{310, 1, 0};
    QTest::newRow("anthropic error after text")
        << "anthropic_error_after_text.sse" << an << "Started well"
        << ""
        << "" << false << int(LlmErrorKind::ServerError) << QList<qint64>{310, 1, 0};
    QTest::newRow("anthropic no message_stop")
        << "anthropic_no_stop.sse" << an << "Cut short"
        << ""
        << "" << false << int(LlmErrorKind::StreamIncomplete) << QList<qint64>{310, 1, 0};
}

void TestLlmStream::fixtures()
{
    QFETCH(QString, file);
    QFETCH(int, protocol);
    QFETCH(QString, text);
    QFETCH(QString, reasoning);
    QFETCH(QString, stop);
    QFETCH(bool, truncated);
    QFETCH(int, error);
    QFETCH(QList<qint64>, usage);

    const Outcome o = decode(LlmProtocol(protocol), fixture(file), {});
    QCOMPARE(o.text, text);
    QCOMPARE(o.reasoning, reasoning);
    QCOMPARE(o.streamedText, text);
    QCOMPARE(o.streamedReasoning, reasoning);
    QCOMPARE(o.stop, stop);
    QCOMPARE(o.truncated, truncated);
    QCOMPARE(int(o.error), error);
    QCOMPARE(o.ended, error == int(LlmErrorKind::None));
    QCOMPARE(o.usage.reported, !usage.isEmpty());
    if (!usage.isEmpty()) {
        QCOMPARE(o.usage.promptTokens, usage[0]);
        QCOMPARE(o.usage.completionTokens, usage[1]);
        QCOMPARE(o.usage.reasoningTokens, usage[2]);
    }
}

void TestLlmStream::everySplitPointGivesTheSameResult()
{
    QFETCH(QString, file);
    QFETCH(int, protocol);
    const QByteArray bytes = fixture(file);
    const Outcome whole = decode(LlmProtocol(protocol), bytes, {});
    for (qsizetype cut = 1; cut < bytes.size(); ++cut) {
        const Outcome split = decode(LlmProtocol(protocol), bytes, {cut});
        if (!same(whole, split))
            QFAIL(qPrintable(QStringLiteral("split at byte %1 changes the result").arg(cut)));
        if (split.streamedText != whole.text || split.streamedReasoning != whole.reasoning)
            QFAIL(qPrintable(QStringLiteral("split at byte %1 changes the deltas").arg(cut)));
    }
    QList<qsizetype> bytewise;
    for (qsizetype i = 1; i < bytes.size(); ++i)
        bytewise << i;
    QVERIFY(same(whole, decode(LlmProtocol(protocol), bytes, bytewise)));
}

void TestLlmStream::randomChunkingGivesTheSameResult()
{
    QFETCH(QString, file);
    QFETCH(int, protocol);
    const QByteArray bytes = fixture(file);
    const Outcome whole = decode(LlmProtocol(protocol), bytes, {});
    QRandomGenerator rng(20240611);
    for (int round = 0; round < 200; ++round) {
        QList<qsizetype> cuts;
        for (qsizetype at = 1 + rng.bounded(9); at < bytes.size(); at += 1 + rng.bounded(40))
            cuts << at;
        const Outcome o = decode(LlmProtocol(protocol), bytes, cuts);
        QVERIFY2(same(whole, o), qPrintable(QStringLiteral("round %1").arg(round)));
        QCOMPARE(o.streamedText, whole.text);
    }
}

void TestLlmStream::wholeJsonBody()
{
    const Outcome o = decode(LlmProtocol::OpenAi, fixture(QStringLiteral("openai_nonstream.json")), {10, 50}, true);
    QCOMPARE(o.text, QStringLiteral("Whole answer at once."));
    QCOMPARE(o.stop, QStringLiteral("stop"));
    QVERIFY(o.ended);
    QCOMPARE(o.usage.completionTokens, 5);

    const QByteArray anthropic = R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[
        {"type":"thinking","thinking":"Think."},{"type":"text","text":"Answer."}],"stop_reason":"max_tokens",
        "usage":{"input_tokens":7,"output_tokens":3}})";
    const Outcome a = decode(LlmProtocol::Anthropic, anthropic, {}, true);
    QCOMPARE(a.text, QStringLiteral("Answer."));
    QCOMPARE(a.reasoning, QStringLiteral("Think."));
    QVERIFY(a.truncated);
    QCOMPARE(a.usage.promptTokens, 7);

    const Outcome broken = decode(LlmProtocol::OpenAi, QByteArray(R"({"choices": [)"), {}, true);
    QCOMPARE(broken.error, LlmErrorKind::MalformedStream);
}

void TestLlmStream::deltasAreMergedPerKind()
{
    auto d = StreamDecoder::create(LlmProtocol::OpenAi);
    const QByteArray s = fixture(QStringLiteral("openai_reasoning.sse"));
    d->feed(s.constData(), s.size());
    const auto deltas = d->takeDeltas();
    QCOMPARE(deltas.size(), size_t(2)); // all reasoning, then all text
    QCOMPARE(deltas[0].kind, StreamDelta::Reasoning);
    QCOMPARE(deltas[1].text, QStringLiteral("Use shared memory tiles."));
    QVERIFY(d->takeDeltas().empty());
    QVERIFY(d->takeUsageChanged());
    QVERIFY(!d->takeUsageChanged());
}

QTEST_GUILESS_MAIN(TestLlmStream)
#include "tst_llmstream.moc"
