#pragma once
// Where every input a kernel sees comes from: a fresh evaluation seed from the kernel's cryptographic
// random source (never the time, a counter or a constant), and from it one derived seed per trial, batch and
// poison pattern. A candidate cannot know its inputs before it reads them; the evaluation seed is recorded in
// the result ("seed") so `kforge-cli eval --seed S` (options.seed) reproduces a run.
//
// Seeds are 63-bit: every seed fits a signed 64-bit integer, which every JSON reader of KForge holds exactly
// (nlohmann, Qt's QJsonValue), so a seed read back from a result reproduces the run.
#include <cstdint>

namespace kforge::runtime {

inline constexpr uint64_t kMaxSeed = 0x7fffffffffffffffull;

// 63 bits from getrandom(2) (GRND_NONBLOCK unset: blocks only until the kernel's pool is initialised at boot);
// /dev/urandom where getrandom is missing. Throws std::runtime_error when neither source can be read.
uint64_t drawSeed();

// A keyed SplitMix64 mix of (evaluationSeed, stream): reproducible, and distinct streams (or seeds) give
// unrelated 63-bit seeds. Use the streams below so no two purposes share one.
uint64_t deriveSeed(uint64_t evaluationSeed, uint64_t stream);

// Stream numbers for deriveSeed: one per verification trial, per timed or verification batch, per batch's
// poison pattern, per edge trial (inputRange.h). Each family has its own 2^32 block.
namespace seedstream {
constexpr uint64_t trial(uint64_t t)
{
    return (uint64_t{1} << 32) | (t & 0xffffffffu);
}
constexpr uint64_t batch(uint64_t b)
{
    return (uint64_t{2} << 32) | (b & 0xffffffffu);
}
constexpr uint64_t poison(uint64_t b)
{
    return (uint64_t{3} << 32) | (b & 0xffffffffu);
}
constexpr uint64_t edge(uint64_t e)
{
    return (uint64_t{4} << 32) | (e & 0xffffffffu);
}
// Which calls of a timed batch are verified, and which batches are verification batches.
constexpr uint64_t choice(uint64_t b)
{
    return (uint64_t{5} << 32) | (b & 0xffffffffu);
}
// The precision contract's call (precisionpass.h).
constexpr uint64_t precision(uint64_t b)
{
    return (uint64_t{6} << 32) | (b & 0xffffffffu);
}
} // namespace seedstream

} // namespace kforge::runtime
