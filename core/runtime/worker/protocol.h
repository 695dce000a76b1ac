#pragma once
// Constants of the worker protocol (docs/worker-protocol.md).
namespace kforge::runtime::protocol {

inline constexpr int kVersion = 1;

// Error codes of {"ok": false, "error": {"code": ...}}.
inline constexpr const char *kBadRequest = "bad_request";
inline constexpr const char *kProtocolMismatch = "protocol_mismatch";
inline constexpr const char *kNoDevice = "no_device";
inline constexpr const char *kLoadFailed = "load_failed";
inline constexpr const char *kAbiMismatch = "abi_mismatch";
inline constexpr const char *kMissingEntry = "missing_entry";
inline constexpr const char *kInternal = "internal";
inline constexpr const char *kNoDisassembler = "no_disassembler";
inline constexpr const char *kDisassembleFailed = "disassemble_failed";

// Exit status of a worker that stopped after a sticky CUDA error (restart_required).
inline constexpr int kExitRestartRequired = 3;
// Exit status of a worker whose client went away (end of input, parent died) while a request ran.
inline constexpr int kExitClientGone = 4;

} // namespace kforge::runtime::protocol
