#pragma once
// One loaded kernel shared object: dlopen'ed from a private copy, its kf_abi_version checked and its kf_entry
// resolved. Only processes that run untrusted code load one (the candidate host, --launch, the source-level
// helper); the judge never does.
#include "kforge/kernel.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace kforge::runtime {

struct LoadFailure {
    std::string code; // load_failed | abi_mismatch | missing_entry
    std::string message;
};

class KernelLibrary
{
public:
    ~KernelLibrary();
    KernelLibrary(const KernelLibrary &) = delete;
    KernelLibrary &operator=(const KernelLibrary &) = delete;

    // Copies `bytes` to `privatePath` and loads it. On failure returns nullptr and fills `failure`.
    static std::unique_ptr<KernelLibrary> load(const std::string &bytes, const std::filesystem::path &privatePath,
                                               LoadFailure &failure);
    // Loads the file at `path` as it is (it is removed with the object).
    static std::unique_ptr<KernelLibrary> open(const std::filesystem::path &path, LoadFailure &failure);

    kf_entry_fn entry() const { return m_entry; }
    int32_t abiVersion() const { return m_abi; }
    // FNV-1a of the file: identifies the reference for the reference-output cache.
    uint64_t contentHash() const { return m_hash; }
    const std::filesystem::path &path() const { return m_path; }

private:
    KernelLibrary() = default;
    void *m_handle = nullptr;
    kf_entry_fn m_entry = nullptr;
    int32_t m_abi = 0;
    uint64_t m_hash = 0;
    std::filesystem::path m_path;
};

// FNV-1a of `bytes` (KernelLibrary::contentHash).
uint64_t contentHashOf(std::string_view bytes);

// RFC 4648 base64 (whitespace ignored). False on a malformed input.
bool decodeBase64(std::string_view in, std::string &out);
std::string encodeBase64(std::string_view in);

} // namespace kforge::runtime
