#include "core/runtime/worker/nvcc.h"

#include "core/runtime/worker/kernelflags.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace kforge::runtime {
namespace {

NvccResult runOne(const NvccJob &job, const std::string &nvcc, const std::string &arch, const std::string &include)
{
    NvccResult r;
    const auto begin = std::chrono::steady_clock::now();
    std::vector<std::string> args{nvcc};
    const auto append = [&args](const std::vector<std::string> &more) {
        args.insert(args.end(), more.begin(), more.end());
    };
    append(runtime::nvccBaseFlags());
    args.push_back("-arch=" + arch);
    append(runtime::nvccSharedObjectFlags());
    append({"-I" + include, "-o", job.output.string(), job.source.string()});
    args.insert(args.end(), job.flags.begin(), job.flags.end());
    const std::filesystem::path logPath = job.output.string() + ".log";

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        r.log = "cannot run " + nvcc + ": " + std::strerror(rc);
        return r;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::ifstream in(logPath);
    std::ostringstream s;
    s << in.rdbuf();
    r.log = s.str();
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && std::filesystem::exists(job.output);
    if (!r.ok && r.log.empty())
        r.log = "nvcc failed without output";
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return r;
}

bool hasKernelHeader(const std::filesystem::path &dir)
{
    std::error_code ec;
    return std::filesystem::exists(dir / "kforge" / "kernel.h", ec);
}

} // namespace

std::string selfExecutable()
{
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("/proc/self/exe") : p.string();
}

std::string findOnPath(const std::string &name)
{
    const char *path = std::getenv("PATH");
    const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t from = 0;
    while (from <= dirs.size()) {
        const std::size_t to = std::min(dirs.find(':', from), dirs.size());
        const std::filesystem::path candidate = std::filesystem::path(dirs.substr(from, to - from)) / name;
        std::error_code ec;
        if (to > from && std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
            return std::filesystem::absolute(candidate, ec).string();
        from = to + 1;
    }
    return {};
}

std::string findNvcc()
{
    if (const char *env = std::getenv("KFORGE_NVCC"); env && *env)
        return env;
#ifdef KFORGE_NVCC_PATH
    std::error_code ec;
    if (std::filesystem::exists(KFORGE_NVCC_PATH, ec))
        return KFORGE_NVCC_PATH;
#endif
    return "nvcc";
}

std::string abiIncludeDir()
{
    if (const char *env = std::getenv("KFORGE_ABI_INCLUDE"); env && *env)
        return env;
    const std::filesystem::path exeDir = std::filesystem::path(selfExecutable()).parent_path();
    for (const auto &candidate : {exeDir / ".." / "share" / "kforge" / "include", exeDir / ".." / "include"})
        if (hasKernelHeader(candidate))
            return std::filesystem::weakly_canonical(candidate).string();
#ifdef KFORGE_ABI_INCLUDE_DIR
    return KFORGE_ABI_INCLUDE_DIR;
#else
    return (exeDir / "include").string();
#endif
}

std::vector<NvccResult> compileKernels(const std::vector<NvccJob> &jobs, const std::string &arch, unsigned parallel)
{
    const std::string nvcc = findNvcc();
    const std::string include = abiIncludeDir();
    if (parallel == 0)
        parallel = std::max(1u, std::thread::hardware_concurrency());
    std::vector<NvccResult> results(jobs.size());
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < std::min<std::size_t>(parallel, jobs.size()); ++t)
        threads.emplace_back([&] {
            for (std::size_t i = next++; i < jobs.size(); i = next++)
                results[i] = runOne(jobs[i], nvcc, arch, include);
        });
    for (std::thread &t : threads)
        t.join();
    return results;
}

} // namespace kforge::runtime
