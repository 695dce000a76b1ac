// libFuzzer target for the LLM stream decoding: any bytes, as either protocol, as a stream or a whole JSON
// body, must decode without a crash, and the result must not depend on how the bytes were chunked.
#include "core/llm/llmerrors.h"
#include "core/llm/sseparser.h"
#include "core/llm/streamdecoder.h"
#include "tests/core/llm/streamoutcome.h"

#include <cstdint>
#include <cstdlib>

using namespace kforge;

namespace {

using Outcome = test::StreamOutcome;

// Pieces of 1..64 bytes from a small generator seeded by the input, so every run is reproducible.
Outcome decode(LlmProtocol protocol, bool json, const char *data, size_t size, uint32_t seed)
{
    return test::decodeInPieces(protocol, json, data, qsizetype(size), [&](qsizetype, qsizetype left) {
        if (seed == 0)
            return left;
        seed = seed * 1664525u + 1013904223u;
        return std::min<qsizetype>(left, 1 + (seed >> 26));
    });
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
