#pragma once
// Shared by the worker tests: where the worker binary and the fixtures are, and compiling fixtures.
#include "check.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/workerprocess.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace kforge::runtime::test {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

inline std::string workerPath()
{
    const char *env = std::getenv("KFORGE_WORKER");
    if (!env || !*env)
        skip("KFORGE_WORKER is not set (run through ctest)");
    return env;
}

inline fs::path fixtures()
{
    return fs::path(KFORGE_TEST_FIXTURES_DIR);
}

inline TaskSpec fixtureTask(const std::string &name)
{
    const TaskSpecResult r = loadTaskFolder(fixtures() / "tasks" / name);
    if (!r.ok()) {
        std::fprintf(stderr, "fixture task %s: %s\n", name.c_str(), r.error.message().c_str());
        std::exit(1);
    }
    return *r.spec;
}

// A scratch folder removed at the end of the test.
class ScratchDir
{
public:
    ScratchDir()
    {
        std::string pattern = (fs::temp_directory_path() / "kforge-test-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            std::exit(1);
        m_path = pattern;
    }
    ~ScratchDir()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    const fs::path &path() const { return m_path; }

private:
    fs::path m_path;
};

// Compiles the named sources (relative to tests/fixtures, or absolute) into `dir`, all at once.
// Returns name -> .so path; exits 77 when nvcc is not available.
inline std::map<std::string, std::string> compileFixtures(const std::vector<std::pair<std::string, fs::path>> &sources,
                                                          const fs::path &dir, const std::string &arch,
                                                          const std::vector<std::string> &flags = {})
{
    std::vector<NvccJob> jobs;
    for (const auto &[name, src] : sources)
        jobs.push_back({src.is_absolute() ? src : fixtures() / src, dir / (name + ".so"), flags});
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<NvccResult> results = compileKernels(jobs, arch);
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (!results[i].ok) {
            if (results[i].log.find("cannot run") != std::string::npos)
                skip("nvcc is not available: " + results[i].log);
            std::fprintf(stderr, "compiling %s failed:\n%s\n", jobs[i].source.c_str(), results[i].log.c_str());
            std::exit(1);
        }
        out[sources[i].first] = jobs[i].output.string();
    }
    std::printf("compiled %zu fixtures for %s in %.1f s\n", jobs.size(), arch.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return out;
}

inline std::string errorCode(const WorkerClient::Reply &r)
{
    if (!r.ok())
        return "<no reply: " + r.detail + ">";
    if (r.message.value("ok", false))
        return "<ok>";
    return r.message["error"].value("code", "<none>");
}

inline std::string errorMessage(const WorkerClient::Reply &r)
{
    if (!r.ok() || r.message.value("ok", false) || !r.message.contains("error"))
        return {};
    return r.message["error"].value("message", "");
}

} // namespace kforge::runtime::test
