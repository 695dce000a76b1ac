#pragma once
// The judge <-> candidate host channel (docs/worker-protocol.md, "Candidate host"): JSON lines on the
// socketpair end at fd 3 of the host. The judge sends one request (with "op"), the host answers one line.
// Buffers and events travel as hex-encoded CUDA IPC handles; calls name tensors by [buffer id, byte offset].
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kforge::runtime::host {

// A spare host's first request, before the judge knows what it will run: its CUDA context and stream.
// init, which follows, does the rest (an init without a boot does both).
inline constexpr const char *kOpBoot = "boot";
inline constexpr const char *kOpInit = "init";
inline constexpr const char *kOpMap = "map";
inline constexpr const char *kOpBatch = "batch";
inline constexpr const char *kOpFinish = "finish";
inline constexpr const char *kOpProfile = "profile";
inline constexpr const char *kOpExit = "exit";

// A host's first request must come within this long of its start (CUDA context creation included).
inline constexpr double kInitTimeoutS = 60;

// Exit status of a host whose channel closed or broke (the judge went away).
inline constexpr int kExitChannelGone = 5;

// One tensor of one call: the IPC buffer it lives in and its byte offset there.
struct TensorRef {
    int buffer = 0;
    uint64_t offset = 0;
};

struct CallSpec {
    std::vector<TensorRef> inputs;
    std::vector<TensorRef> outputs;
};

inline std::string toHex(const void *data, std::size_t n)
{
    static const char *digits = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    const auto *p = static_cast<const unsigned char *>(data);
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

// False unless `hex` is exactly 2 * n hex digits.
inline bool fromHex(const std::string &hex, void *data, std::size_t n)
{
    if (hex.size() != 2 * n)
        return false;
    auto *p = static_cast<unsigned char *>(data);
    const auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < n; ++i) {
        const int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        p[i] = static_cast<unsigned char>(hi << 4 | lo);
    }
    return true;
}

inline nlohmann::ordered_json toJson(const CallSpec &c)
{
    nlohmann::ordered_json in = nlohmann::ordered_json::array(), out = nlohmann::ordered_json::array();
    for (const TensorRef &t : c.inputs)
        in.push_back({t.buffer, t.offset});
    for (const TensorRef &t : c.outputs)
        out.push_back({t.buffer, t.offset});
    return {{"inputs", in}, {"outputs", out}};
}

// Throws nlohmann::json::exception on a malformed call.
inline CallSpec callFromJson(const nlohmann::ordered_json &j)
{
    CallSpec c;
    for (const auto &t : j.at("inputs"))
        c.inputs.push_back({t.at(0).get<int>(), t.at(1).get<uint64_t>()});
    for (const auto &t : j.at("outputs"))
        c.outputs.push_back({t.at(0).get<int>(), t.at(1).get<uint64_t>()});
    return c;
}

} // namespace kforge::runtime::host
