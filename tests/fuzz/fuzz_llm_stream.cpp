// libFuzzer target for the LLM stream decoding: any bytes, as either protocol, as a stream or a whole JSON
// body, must decode without a crash, and the result must not depend on how the bytes were chunked.
#include "core/llm/llmerrors.h"
#include "core/llm/sseparser.h"
#include "core/llm/streamdecoder.h"

#include <cstdint>
#include <cstdlib>

using namespace kforge;

namespace {

struct Outcome {
    QString text, reasoning, streamedText, streamedReasoning, stop, model, detail;
    LlmUsage usage;
    bool ended = false, truncated = false;
    LlmErrorKind error = LlmErrorKind::None;

    bool operator==(const Outcome &) const = default;
};

// Pieces of 1..64 bytes from a small generator seeded by the input, so every run is reproducible.
Outcome decode(LlmProtocol protocol, bool json, const char *data, size_t size, uint32_t seed)
{
    auto d = StreamDecoder::create(protocol);
    d->setJsonBody(json);
    Outcome o;
    auto take = [&] {
        for (const StreamDelta &delta : d->takeDeltas())
            (delta.kind == StreamDelta::Text ? o.streamedText : o.streamedReasoning) += delta.text;
    };
    size_t at = 0;
    while (at < size) {
        size_t piece = size - at;
        if (seed != 0) {
            seed = seed * 1664525u + 1013904223u;
            piece = std::min<size_t>(piece, 1 + (seed >> 26));
        }
        d->feed(data + at, qsizetype(piece));
        take();
        at += piece;
    }
    d->finish();
    take();
    o.text = d->text();
    o.reasoning = d->reasoning();
    o.stop = d->stopReason();
    o.model = d->model();
    o.detail = d->errorDetail();
    o.usage = d->usage();
    o.ended = d->ended();
    o.truncated = d->truncated();
    o.error = d->error();
    return o;
}

void check(bool condition, const char *what)
{
    if (!condition) {
        std::fprintf(stderr, "fuzz_llm_stream: %s\n", what);
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    const char *data = reinterpret_cast<const char *>(bytes);
    uint32_t seed = 2166136261u; // FNV-1a of the input picks the chunking
    for (size_t i = 0; i < size; ++i)
        seed = (seed ^ bytes[i]) * 16777619u;
    seed |= 1;

    for (LlmProtocol protocol : {LlmProtocol::OpenAi, LlmProtocol::Anthropic}) {
        for (bool json : {false, true}) {
            const Outcome whole = decode(protocol, json, data, size, 0);
            const Outcome pieces = decode(protocol, json, data, size, seed);
            check(whole == pieces, "chunking changed the result");
            check(whole.streamedText == whole.text, "text deltas do not add up to the text");
            check(whole.streamedReasoning == whole.reasoning, "reasoning deltas do not add up to the reasoning");
            check(whole.ended != (whole.error != LlmErrorKind::None), "ended and failed at once, or neither");
        }
    }

    SseParser parser;
    std::vector<SseEvent> events;
    parser.feed(data, qsizetype(size), events);
    parser.finish(events);

    const QByteArray body(data, qsizetype(size));
    const QString message = LlmErrors::providerMessage(body);
    check(message.size() <= 401, "provider message not capped");
    const QString key = QStringLiteral("sk-fuzz-0123456789abcdef");
    check(!LlmErrors::redact(QString::fromUtf8(body) + key, key).contains(key), "key survived redaction");
    return 0;
}
