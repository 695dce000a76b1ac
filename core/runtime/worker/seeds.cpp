#include "core/runtime/worker/seeds.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <sys/random.h>

namespace kforge::runtime {
namespace {

uint64_t splitmix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

bool fromGetrandom(uint64_t &out)
{
    unsigned char *p = reinterpret_cast<unsigned char *>(&out);
    std::size_t got = 0;
    while (got < sizeof out) {
        const ssize_t n = getrandom(p + got, sizeof out - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false; // ENOSYS (no getrandom), EPERM (a filter denies it): try /dev/urandom
        }
        got += static_cast<std::size_t>(n);
    }
    return true;
}

bool fromUrandom(uint64_t &out, std::string &why)
{
    std::FILE *f = std::fopen("/dev/urandom", "rbe");
    if (!f) {
        why = std::string("/dev/urandom: ") + std::strerror(errno);
        return false;
    }
    const bool ok = std::fread(&out, sizeof out, 1, f) == 1;
    if (!ok)
        why = "/dev/urandom: short read";
    std::fclose(f);
    return ok;
}

} // namespace

uint64_t drawSeed()
{
    uint64_t bits = 0;
    const int getrandomErrno = fromGetrandom(bits) ? 0 : errno;
    std::string why;
    if (getrandomErrno != 0 && !fromUrandom(bits, why))
        throw std::runtime_error("no random source for the evaluation seed: getrandom: "
                                 + std::string(std::strerror(getrandomErrno)) + "; " + why);
    return bits >> 1;
}

uint64_t deriveSeed(uint64_t evaluationSeed, uint64_t stream)
{
    // The key and the stream go through separate rounds, so (seed, stream) and (seed', stream') with
    // seed ^ stream == seed' ^ stream' still differ.
    return splitmix64(splitmix64(evaluationSeed ^ 0x6a09e667f3bcc909ull) ^ stream) >> 1;
}

} // namespace kforge::runtime
