// What one stream decoder makes of a body fed to it in pieces: shared by tst_llmstream and the
// fuzz_llm_stream target (Qt Core only, no QtTest, so the fuzzer can include it).
#pragma once

#include "core/llm/streamdecoder.h"

#include <QtGlobal>

#include <algorithm>

namespace kforge::test {

struct StreamOutcome {
    QString text, reasoning, streamedText, streamedReasoning, stop, model, detail;
    LlmUsage usage;
    bool ended = false, truncated = false;
    LlmErrorKind error = LlmErrorKind::None;

    bool operator==(const StreamOutcome &) const = default;
};

// Feeds [data, data + size) in the pieces nextPiece(at, left) asks for (1..left bytes each), draining the
// deltas after every piece and after finish().
template <typename NextPiece>
StreamOutcome decodeInPieces(LlmProtocol protocol, bool json, const char *data, qsizetype size, NextPiece nextPiece)
{
    auto d = StreamDecoder::create(protocol);
    d->setJsonBody(json);
    StreamOutcome o;
    auto take = [&] {
        for (const StreamDelta &delta : d->takeDeltas())
            (delta.kind == StreamDelta::Text ? o.streamedText : o.streamedReasoning) += delta.text;
    };
    qsizetype at = 0;
    while (at < size) {
        const qsizetype piece = nextPiece(at, size - at);
        d->feed(data + at, piece);
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

} // namespace kforge::test
