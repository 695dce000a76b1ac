#include "core/runtime/worker/disassembler.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <regex>
#include <sstream>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kforge::runtime {
namespace {

namespace fs = std::filesystem;

std::string env(const char *name)
{
    const char *v = std::getenv(name);
    return v ? v : "";
}

bool isExecutableFile(const fs::path &p)
{
    struct stat st {
    };
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// Everything from fd 3 up is closed in the child: the protocol's descriptors must not reach a tool.
void closeInheritedDescriptors()
{
#ifdef SYS_close_range
    if (::syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
        return;
#endif
    const long max = std::min(::sysconf(_SC_OPEN_MAX), 65536L);
    for (int fd = 3; fd < max; ++fd)
        ::close(fd);
}

std::string readFile(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string firstLines(const std::string &text, std::size_t maxChars = 600)
{
    std::string t = text.substr(0, maxChars);
    while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
        t.pop_back();
    return t;
}

} // namespace

ToolSearch ToolSearch::fromEnvironment()
{
    ToolSearch s;
    s.path = env("PATH");
    s.cudaHome = env("CUDA_HOME");
    s.cudaPath = env("CUDA_PATH");
    return s;
}

std::vector<fs::path> ToolSearch::directories() const
{
    std::vector<fs::path> dirs;
    const auto add = [&dirs](const fs::path &d) {
        if (!d.empty() && std::find(dirs.begin(), dirs.end(), d) == dirs.end())
            dirs.push_back(d);
    };
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t colon = path.find(':', start);
        const std::string entry = path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!entry.empty())
            add(entry);
        if (colon == std::string::npos)
            break;
        start = colon + 1;
    }
    if (!cudaHome.empty())
        add(fs::path(cudaHome) / "bin");
    if (!cudaPath.empty())
        add(fs::path(cudaPath) / "bin");
    for (const fs::path &d : extraDirs)
        add(d);
    return dirs;
}

std::optional<fs::path> ToolSearch::find(const std::string &name) const
{
    for (const fs::path &dir : directories()) {
        const fs::path candidate = dir / name;
        if (isExecutableFile(candidate))
            return candidate;
    }
    return std::nullopt;
}

std::string ToolSearch::describe() const
{
    // A long PATH is noise in a message (often hundreds of characters of unrelated folders): its size and the
    // entries that name CUDA say where a toolkit was looked for; the CUDA variables and fixed folders follow.
    std::size_t entries = 0;
    std::string cudaEntries;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t colon = path.find(':', start);
        const std::string entry = path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!entry.empty()) {
            ++entries;
            std::string lower = entry;
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return char(std::tolower(c)); });
            if (lower.find("cuda") != std::string::npos)
                cudaEntries += (cudaEntries.empty() ? "" : ", ") + entry;
        }
        if (colon == std::string::npos)
            break;
        start = colon + 1;
    }
    constexpr std::size_t kShortPath = 80; // a PATH this short is read at a glance: shown as it is
    std::string text = path.empty() ? std::string("PATH=(unset)")
                       : path.size() <= kShortPath
                           ? "PATH=" + path
                           : "PATH (" + std::to_string(entries) + " folders"
                                 + (cudaEntries.empty() ? std::string(", none of them CUDA's") : ", CUDA's: " + cudaEntries)
                                 + ")";
    text += ", CUDA_HOME=" + (cudaHome.empty() ? std::string("(unset)") : cudaHome);
    if (!cudaPath.empty())
        text += ", CUDA_PATH=" + cudaPath;
    for (const fs::path &d : extraDirs)
        text += ", " + d.string();
    return text;
}

ToolRun runTool(const std::vector<std::string> &argv, const fs::path &cwd, std::size_t capBytes, double timeoutS)
{
    ToolRun run;
    if (argv.empty()) {
        run.startError = "no command";
        return run;
    }
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0) {
        run.startError = std::string("pipe: ") + std::strerror(errno);
        return run;
    }
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        run.startError = std::string("pipe: ") + std::strerror(errno);
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return run;
    }
    std::vector<std::string> args = argv;
    std::vector<char *> cargv;
    for (std::string &a : args)
        cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const std::string dir = cwd.string();

    const pid_t pid = ::fork();
    if (pid < 0) {
        run.startError = std::string("fork: ") + std::strerror(errno);
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1]})
            ::close(fd);
        return run;
    }
    if (pid == 0) { // only async-signal-safe calls from here on
        ::setpgid(0, 0);
        sigset_t none; // the worker blocks its death signal; the tool starts with a clean mask
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            ::dup2(devnull, 0);
        ::dup2(outPipe[1], 1);
        ::dup2(errPipe[1], 2);
        closeInheritedDescriptors();
        if (!dir.empty() && ::chdir(dir.c_str()) != 0)
            ::_exit(126);
        ::execv(cargv[0], cargv.data());
        ::_exit(127);
    }
    run.started = true;
    ::close(outPipe[1]);
    ::close(errPipe[1]);

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutS);
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    int open = 2;
    char buffer[65536];
    while (open > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            run.timedOut = true;
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
            break;
        }
        const int n = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
            if (got <= 0) {
                if (got < 0 && errno == EINTR)
                    continue;
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
                continue;
            }
            std::string &to = i == 0 ? run.out : run.err;
            const std::size_t cap = i == 0 ? capBytes : 64 * 1024;
            const std::size_t room = to.size() < cap ? cap - to.size() : 0;
            to.append(buffer, std::min<std::size_t>(room, static_cast<std::size_t>(got)));
            if (static_cast<std::size_t>(got) > room && i == 0)
                run.outTruncated = true;
        }
    }
    for (pollfd &f : fds)
        if (f.fd >= 0)
            ::close(f.fd);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    run.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.termSignal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (run.exitStatus == 127 && run.out.empty() && run.err.empty())
        run.startError = "cannot execute " + argv[0];
    return run;
}

InlineTable parseInlineLineInfo(const std::string &sass)
{
    // //## File "/h/cuda_bf16.hpp", line 3717 inlined at "/k/vec8.cu", line 17
    // //## File "/k/vec8.cu", line 17
    //         /*01e0*/                   HMNMX2.BF16_V2 R15, R7, RZ.H0_H0, !PT ;
    InlineTable table;
    std::string function;
    InlineChain block;      // the location lines above the current instructions
    bool blockOpen = false; // the last line read was a location line
    const auto location = [](const std::string &text, std::size_t from, SourceLocation &out, std::size_t &end) {
        const std::size_t q1 = text.find('"', from);
        const std::size_t q2 = q1 == std::string::npos ? q1 : text.find('"', q1 + 1);
        const std::size_t ln = q2 == std::string::npos ? q2 : text.find(", line ", q2);
        if (ln == std::string::npos)
            return false;
        out.file = fs::path(text.substr(q1 + 1, q2 - q1 - 1)).lexically_normal().string();
        out.line = static_cast<uint32_t>(std::strtoul(text.c_str() + ln + 7, nullptr, 10));
        end = text.find_first_not_of("0123456789", ln + 7);
        return out.line > 0;
    };
    std::istringstream in(sass);
    std::string raw;
    while (std::getline(in, raw)) {
        const std::size_t b = raw.find_first_not_of(" \t");
        if (b == std::string::npos)
            continue;
        const std::string line = raw.substr(b);
        if (line.rfind(".text.", 0) == 0 && line.back() == ':') {
            function = line.substr(6, line.size() - 7);
            block.clear();
            blockOpen = false;
        } else if (line.rfind("//## File \"", 0) == 0) {
            if (!blockOpen)
                block.clear();
            blockOpen = true;
            SourceLocation at, caller;
            std::size_t end = 0;
            if (!location(line, 0, at, end))
                continue;
            const std::size_t inl = line.find(" inlined at ", end == std::string::npos ? 0 : end);
            if (block.empty())
                block.push_back(at);
            if (inl != std::string::npos && location(line, inl, caller, end))
                block.push_back(caller);
        } else if (line.rfind("/*", 0) == 0 && !function.empty()) {
            blockOpen = false;
            const std::size_t close = line.find("*/");
            if (close == std::string::npos || block.empty())
                continue;
            char *endp = nullptr;
            const unsigned long long offset = std::strtoull(line.c_str() + 2, &endp, 16);
            if (endp != line.c_str() + close)
                continue; // not an address comment
            table[{function, offset}] = block;
        }
    }
    return table;
}

InlineTable Disassembler::inlineTable(const Cubin &cubin, const fs::path &workDir) const
{
    if (!m_nvdisasm)
        return {};
    std::string pattern = (workDir / "inline-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        return {};
    const fs::path dir = pattern;
    const fs::path file = dir / (cubin.name.empty() ? std::string("kernel.cubin") : cubin.name);
    {
        std::ofstream out(file, std::ios::binary);
        out.write(cubin.bytes.data(), static_cast<std::streamsize>(cubin.bytes.size()));
    }
    const ToolRun run = runTool({m_nvdisasm->string(), "--print-line-info-inline", "-c", file.string()}, dir,
                                m_limits.sassCapBytes * 4, m_limits.toolTimeoutS);
    std::error_code ec;
    fs::remove_all(dir, ec);
    return run.ok() ? parseInlineLineInfo(run.out) : InlineTable{};
}

Disassembler::Disassembler(ToolSearch search, DisassemblyLimits limits)
    : m_search(std::move(search))
    , m_limits(limits)
    , m_cuobjdump(m_search.find("cuobjdump"))
    , m_nvdisasm(m_search.find("nvdisasm"))
{
}

std::string Disassembler::toolVersion(const std::string &tool, const std::string &versionText)
{
    // "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88"
    static const std::regex full(R"(\bV(\d+\.\d+\.\d+))");
    static const std::regex release(R"(release (\d+\.\d+))");
    std::smatch m;
    if (std::regex_search(versionText, m, full))
        return tool + " " + m[1].str();
    if (std::regex_search(versionText, m, release))
        return tool + " " + m[1].str();
    return tool;
}

std::string Disassembler::archFromName(const std::string &cubinName)
{
    static const std::regex arch(R"((sm_\d+[a-z]?))");
    std::smatch m;
    return std::regex_search(cubinName, m, arch) ? m[1].str() : std::string();
}

std::vector<Cubin> Disassembler::extractCubins(const fs::path &library, const fs::path &workDir, std::string &error) const
{
    std::vector<Cubin> cubins;
    if (!m_cuobjdump) {
        error = "cuobjdump not found (" + m_search.describe() + ")";
        return cubins;
    }
    std::error_code ec;
    std::string pattern = (workDir / "cubins-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        error = "cannot create a folder under " + workDir.string() + ": " + std::strerror(errno);
        return cubins;
    }
    const fs::path dir = pattern;
    // cuobjdump names the files after the input: a private copy keeps the names short and predictable.
    const fs::path copy = dir / library.filename();
    fs::copy_file(library, copy, ec);
    if (ec) {
        error = "cannot copy " + library.string() + ": " + ec.message();
        fs::remove_all(dir, ec);
        return cubins;
    }
    const ToolRun run = runTool({m_cuobjdump->string(), "-xelf", "all", copy.filename().string()}, dir, 64 * 1024,
                                m_limits.toolTimeoutS);
    if (!run.ok()) {
        // A library without device code makes cuobjdump fail with "does not contain device code".
        const std::string text = firstLines(run.err.empty() ? run.out : run.err);
        if (text.find("does not contain") == std::string::npos) {
            error = m_cuobjdump->string() + " -xelf all failed"
                    + (run.timedOut ? std::string(" (timed out)") : " (exit status " + std::to_string(run.exitStatus) + ")")
                    + (text.empty() ? std::string() : ": " + text);
        }
        fs::remove_all(dir, ec);
        return cubins;
    }
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".cubin")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path &f : files)
        cubins.push_back({f.filename().string(), archFromName(f.filename().string()), readFile(f)});
    fs::remove_all(dir, ec);
    return cubins;
}

nlohmann::ordered_json Disassembler::disassemble(const fs::path &library, const fs::path &workDir) const
{
    if (!m_cuobjdump && !m_nvdisasm)
        throw DisassemblyError{"no_disassembler",
                               "neither cuobjdump nor nvdisasm found on the worker host (" + m_search.describe() + ")"};
    nlohmann::ordered_json reply;
    if (!m_cuobjdump) // nvdisasm alone cannot read a shared object: the cubins come from cuobjdump
        throw DisassemblyError{"no_disassembler", "nvdisasm was found (" + m_nvdisasm->string()
                                                      + ") but not cuobjdump, which extracts the cubins from the library ("
                                                      + m_search.describe() + ")"};
    if (m_nvdisasm) {
        std::string error;
        const std::vector<Cubin> cubins = extractCubins(library, workDir, error);
        if (!error.empty())
            throw DisassemblyError{"disassemble_failed", error};
        const ToolRun version = runTool({m_nvdisasm->string(), "--version"}, workDir, 4096, 10);
        reply["tool"] = toolVersion("nvdisasm", version.out);
        reply["arch"] = cubins.empty() ? std::string() : cubins.front().arch;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        std::size_t total = 0;
        std::string pattern = (workDir / "sass-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw DisassemblyError{"disassemble_failed", "cannot create a folder under " + workDir.string()};
        const fs::path dir = pattern;
        for (const Cubin &c : cubins) {
            nlohmann::ordered_json entry;
            entry["name"] = c.name;
            entry["arch"] = c.arch;
            const std::size_t cap = std::min(m_limits.sassCapBytes, m_limits.totalCapBytes - total);
            if (cap == 0) {
                entry["sass"] = "";
                entry["truncated"] = true;
                list.push_back(entry);
                continue;
            }
            const fs::path file = dir / c.name;
            {
                std::ofstream out(file, std::ios::binary);
                out.write(c.bytes.data(), static_cast<std::streamsize>(c.bytes.size()));
            }
            const ToolRun run = runTool({m_nvdisasm->string(), "--print-line-info-inline", "-c", file.string()}, dir,
                                        cap, m_limits.toolTimeoutS);
            if (!run.ok() && !run.outTruncated) {
                std::error_code ec;
                fs::remove_all(dir, ec);
                throw DisassemblyError{"disassemble_failed",
                                       "nvdisasm --print-line-info-inline -c " + c.name + " failed"
                                           + (run.timedOut ? std::string(" (timed out)")
                                                           : " (exit status " + std::to_string(run.exitStatus) + ")")
                                           + (run.err.empty() ? std::string() : ": " + firstLines(run.err))};
            }
            total += run.out.size();
            entry["sass"] = run.out;
            entry["truncated"] = run.outTruncated;
            list.push_back(entry);
        }
        std::error_code ec;
        fs::remove_all(dir, ec);
        reply["cubins"] = list;
        return reply;
    }
    // Without nvdisasm: cuobjdump's own SASS listing (no line info) of the whole library.
    const ToolRun version = runTool({m_cuobjdump->string(), "--version"}, workDir, 4096, 10);
    const ToolRun run = runTool({m_cuobjdump->string(), "-sass", library.string()}, workDir, m_limits.sassCapBytes,
                                m_limits.toolTimeoutS);
    if (!run.ok() && !run.outTruncated)
        throw DisassemblyError{"disassemble_failed",
                               "cuobjdump -sass failed"
                                   + (run.timedOut ? std::string(" (timed out)")
                                                   : " (exit status " + std::to_string(run.exitStatus) + ")")
                                   + (run.err.empty() ? std::string() : ": " + firstLines(run.err))};
    reply["tool"] = toolVersion("cuobjdump", version.out);
    // "arch = sm_90" in the header of each embedded ELF (a regex over megabytes of text would be slow)
    const std::size_t at = run.out.find("arch = ");
    reply["arch"] = at == std::string::npos ? std::string()
                                            : archFromName(run.out.substr(at + 7, run.out.find('\n', at) - at - 7));
    reply["cubins"] = nlohmann::ordered_json::array();
    reply["cuobjdump_sass"] = run.out;
    reply["truncated"] = run.outTruncated;
    return reply;
}

} // namespace kforge::runtime
