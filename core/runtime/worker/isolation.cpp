#include "core/runtime/worker/isolation.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

namespace kforge::runtime {
namespace {

std::filesystem::path g_tempDir;

std::atomic<bool> g_tempDirRemoved{false};

void removeTempDir()
{
    // The atexit handler of the main thread and RequestReader's exit on a lost client may race.
    if (g_tempDir.empty() || g_tempDirRemoved.exchange(true))
        return;
    std::error_code ec;
    std::filesystem::remove_all(g_tempDir, ec);
}

std::string errnoText(const char *what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

// Temporary directories of workers that are gone (killed by a signal, so no atexit ran).
void sweepStale(const std::filesystem::path &base)
{
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(base, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("kforge-worker-", 0) != 0)
            continue;
        std::ifstream pidFile(entry.path() / "pid");
        long pid = 0;
        if (!(pidFile >> pid) || pid <= 0)
            continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
            std::error_code rm;
            std::filesystem::remove_all(entry.path(), rm);
        }
    }
}

bool writeAll(int fd, const char *data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

std::string applyLimits(const Limits &limits)
{
    std::string error;
    const auto set = [&](int resource, rlim_t value, const char *name) {
        rlimit rl{};
        if (::getrlimit(resource, &rl) != 0) {
            error += errnoText(name) + "; ";
            return;
        }
        // Never raise a hard limit (not allowed) and never loosen a tighter limit set by the caller.
        rlim_t v = value;
        if (rl.rlim_max != RLIM_INFINITY && v > rl.rlim_max)
            v = rl.rlim_max;
        if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < v)
            v = rl.rlim_cur;
        rl.rlim_cur = v;
        if (::setrlimit(resource, &rl) != 0)
            error += errnoText(name) + "; ";
    };
    set(RLIMIT_CORE, 0, "RLIMIT_CORE");
    set(RLIMIT_FSIZE, static_cast<rlim_t>(limits.fileSizeBytes), "RLIMIT_FSIZE");
    set(RLIMIT_CPU, static_cast<rlim_t>(limits.cpuSeconds), "RLIMIT_CPU");
    std::signal(SIGXFSZ, SIG_IGN);
    return error;
}

std::optional<std::filesystem::path> TempDir::create(std::string &error)
{
    const char *tmp = std::getenv("TMPDIR");
    const std::filesystem::path base = tmp && *tmp ? tmp : "/tmp";
    sweepStale(base);
    std::string pattern = (base / "kforge-worker-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        error = errnoText(("mkdtemp " + pattern).c_str());
        return std::nullopt;
    }
    g_tempDir = pattern;
    std::atexit(removeTempDir);
    std::ofstream(g_tempDir / "pid") << ::getpid() << '\n';
    if (::chdir(g_tempDir.c_str()) != 0) {
        error = errnoText("chdir");
        return std::nullopt;
    }
    return g_tempDir;
}

const std::filesystem::path &TempDir::path()
{
    return g_tempDir;
}

void TempDir::remove()
{
    removeTempDir();
}

bool ProtocolChannel::open(bool redirectStdout, std::string &error)
{
    std::fflush(stdout);
    m_in = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
    m_out = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (m_in < 0 || m_out < 0) {
        error = errnoText("dup");
        return false;
    }
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0) {
        error = errnoText("/dev/null");
        return false;
    }
    ::dup2(null, 0);
    if (redirectStdout)
        ::dup2(null, 1);
    ::close(null);
    return true;
}

std::optional<std::string> ProtocolChannel::readLine()
{
    for (;;) {
        if (std::optional<std::string> line = takeLine())
            return line;
        if (m_eof)
            return std::nullopt;
        readSome();
    }
}

std::optional<std::string> ProtocolChannel::takeLine()
{
    // Only the bytes not searched yet: a load with so_base64 can be a line of many megabytes.
    const auto nl = m_buffer.find('\n', m_scanned);
    m_scanned = nl == std::string::npos ? m_buffer.size() : 0;
    if (nl != std::string::npos) {
        std::string line = m_buffer.substr(0, nl);
        m_buffer.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        return line;
    }
    if (m_eof && !m_buffer.empty()) {
        std::string line;
        line.swap(m_buffer);
        m_scanned = 0;
        return line;
    }
    return std::nullopt;
}

bool ProtocolChannel::readSome()
{
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(m_in, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_eof = true;
            return false;
        }
        m_buffer.append(chunk, static_cast<std::size_t>(n));
        return true;
    }
}

bool ProtocolChannel::writeLine(const std::string &line)
{
    std::string out = line;
    out += '\n';
    return writeAll(m_out, out.data(), out.size());
}

bool StdoutCapture::open(const std::filesystem::path &file, std::string &error)
{
    m_file = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    m_null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (m_file < 0 || m_null < 0) {
        error = errnoText(("open " + file.string()).c_str());
        return false;
    }
    ::dup2(m_file, 1);
    return true;
}

void StdoutCapture::begin()
{
    std::fflush(stdout);
    ::dup2(m_file, 1);
    if (::ftruncate(m_file, 0) != 0) {
        // Nothing to do: at worst old output is reported again.
    }
    ::lseek(m_file, 0, SEEK_SET);
    m_active = true;
}

void StdoutCapture::silence()
{
    std::fflush(stdout);
    ::dup2(m_null, 1);
}

std::string StdoutCapture::collect(std::size_t cap, bool &truncated)
{
    std::fflush(stdout);
    ::dup2(m_file, 1);
    truncated = false;
    if (!m_active)
        return {};
    m_active = false;
    const off_t size = ::lseek(m_file, 0, SEEK_END);
    if (size <= 0)
        return {};
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(size), cap);
    truncated = static_cast<std::size_t>(size) > cap;
    std::string text(n, '\0');
    const ssize_t got = ::pread(m_file, text.data(), n, 0);
    text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    return text;
}

} // namespace kforge::runtime
