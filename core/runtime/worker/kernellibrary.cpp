#include "core/runtime/worker/kernellibrary.h"

#include <dlfcn.h>

#include <array>
#include <fstream>
#include <iterator>

namespace kforge::runtime {

KernelLibrary::~KernelLibrary()
{
    if (m_handle)
        dlclose(m_handle);
    std::error_code ec;
    std::filesystem::remove(m_path, ec);
}

uint64_t contentHashOf(std::string_view bytes)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : bytes)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

std::unique_ptr<KernelLibrary> KernelLibrary::load(const std::string &bytes, const std::filesystem::path &privatePath,
                                                   LoadFailure &failure)
{
    {
        std::ofstream out(privatePath, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            failure = {"load_failed", "cannot write " + privatePath.string()};
            return nullptr;
        }
    }
    return open(privatePath, failure);
}

std::unique_ptr<KernelLibrary> KernelLibrary::open(const std::filesystem::path &privatePath, LoadFailure &failure)
{
    std::unique_ptr<KernelLibrary> lib(new KernelLibrary);
    lib->m_path = privatePath;
    {
        std::ifstream in(privatePath, std::ios::binary);
        if (!in) {
            failure = {"load_failed", "cannot read " + privatePath.string()};
            return nullptr;
        }
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        lib->m_hash = contentHashOf(bytes);
    }

    // A fresh file name per load: dlopen would hand back an already loaded object of the same name.
    lib->m_handle = dlopen(privatePath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib->m_handle) {
        const char *err = dlerror();
        failure = {"load_failed", std::string("dlopen failed: ") + (err ? err : "unknown error")};
        return nullptr;
    }
    const auto *abi = static_cast<const int32_t *>(dlsym(lib->m_handle, "kf_abi_version"));
    if (!abi) {
        failure = {"abi_mismatch", "the kernel does not export kf_abi_version: include \"kforge/kernel.h\" (kernel ABI v"
                                       + std::to_string(KF_ABI_VERSION) + ")"};
        return nullptr;
    }
    lib->m_abi = *abi;
    if (lib->m_abi != KF_ABI_VERSION) {
        failure = {"abi_mismatch", "the kernel was built against kernel ABI v" + std::to_string(lib->m_abi)
                                       + ", this worker speaks v" + std::to_string(KF_ABI_VERSION)
                                       + ": rebuild it with the current kforge/kernel.h"};
        return nullptr;
    }
    lib->m_entry = reinterpret_cast<kf_entry_fn>(dlsym(lib->m_handle, KF_ENTRY_NAME));
    if (!lib->m_entry) {
        failure = {"missing_entry", "the kernel does not export kf_entry: define it with KF_ENTRY(inputs, num_inputs, "
                                    "outputs, num_outputs, params, stream) from \"kforge/kernel.h\" (extern \"C\")"};
        return nullptr;
    }
    return lib;
}

bool decodeBase64(std::string_view in, std::string &out)
{
    static const auto table = [] {
        std::array<int8_t, 256> t{};
        t.fill(-1);
        const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i)
            t[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
        return t;
    }();
    out.clear();
    out.reserve(in.size() / 4 * 3);
    uint32_t acc = 0;
    int bits = 0;
    std::size_t padding = 0;
    for (char ch : in) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '=') {
            ++padding;
            continue;
        }
        if (padding || table[c] < 0)
            return false; // data after padding, or not base64
        acc = (acc << 6) | static_cast<uint32_t>(table[c]);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((acc >> bits) & 0xFF));
        }
    }
    return padding <= 2 && bits < 6;
}

std::string encodeBase64(std::string_view in)
{
    const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const uint32_t v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8)
                           | static_cast<unsigned char>(in[i + 2]);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        out += alphabet[v & 63];
    }
    if (i < in.size()) {
        uint32_t v = static_cast<unsigned char>(in[i]) << 16;
        if (i + 1 < in.size())
            v |= static_cast<unsigned char>(in[i + 1]) << 8;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += i + 1 < in.size() ? alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

} // namespace kforge::runtime
