#pragma once
// What the worker does to itself before running untrusted kernels: resource limits, a private temporary
// directory as working directory, and the protocol moved off fd 0/1 so a kernel's printf (or a stray
// read of stdin) cannot corrupt it.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace kforge::runtime {

struct Limits {
    std::size_t fileSizeBytes = std::size_t(1) << 30; // RLIMIT_FSIZE
    unsigned cpuSeconds = 3600;                       // RLIMIT_CPU
};

// RLIMIT_CORE = 0, RLIMIT_FSIZE, RLIMIT_CPU; SIGXFSZ ignored so an oversized write fails instead of
// killing the worker. Returns an error text or empty.
std::string applyLimits(const Limits &limits);

// mkdtemp under $TMPDIR (or /tmp), chdir into it; removed at exit (also after exit() from a kernel).
// Directories left by workers that died are swept on the way.
class TempDir
{
public:
    static std::optional<std::filesystem::path> create(std::string &error);
    static const std::filesystem::path &path();
    // Removes it now (once; also safe from a second thread while the process is ending).
    static void remove();
};

// The protocol's own file descriptors: fd 0 and 1 are duplicated for the protocol, then fd 0 is pointed
// at /dev/null and fd 1 at a capture file in the temporary directory.
class ProtocolChannel
{
public:
    // `redirectStdout`: false only where the worker prints a human report (--self-test).
    bool open(bool redirectStdout, std::string &error);
    // Next request line; nullopt at end of input.
    std::optional<std::string> readLine();
    // The two halves of readLine(), for a reader that waits on the descriptor itself (RequestReader):
    // the next complete line already read (at end of input also an unterminated last one), and one
    // read(2) of what is there; false at end of input (or on a read error).
    std::optional<std::string> takeLine();
    bool readSome();
    bool atEnd() const { return m_eof; }
    int inFd() const { return m_in; }
    // Writes one line with write(2): nothing is buffered in the process when a kernel brings it down.
    bool writeLine(const std::string &line);
    int outFd() const { return m_out; }

private:
    int m_in = 0;
    int m_out = 1;
    std::string m_buffer;
    std::size_t m_scanned = 0; // m_buffer has no newline before this offset
    bool m_eof = false;
};

// Kernel stdout (host printf and device printf, which the driver writes to fd 1 at synchronization
// points) is collected in a file while the candidate runs in verification; during timing it is dropped.
class StdoutCapture
{
public:
    bool open(const std::filesystem::path &file, std::string &error);
    void begin();   // empty the capture file
    void silence(); // fd 1 -> /dev/null
    // Stops capturing (fd 1 back to the file) and returns what was written, at most `cap` bytes.
    std::string collect(std::size_t cap, bool &truncated);

private:
    int m_file = -1;
    int m_null = -1;
    bool m_active = false;
};

} // namespace kforge::runtime
