// The worker's side of the source-level pass (sourceProfileInHelper) against helpers that misbehave the way
// a candidate's code can make the real one misbehave: killed by a signal, hung, flooding its output,
// exiting early, writing nonsense. Each gives status "failed" with a reason that says what happened; none
// throws (the evaluation's verdict is made before the pass and stays). Fake helpers are shell scripts, so
// this runs without a GPU. The real helper with a crashing candidate: tst_source_profile_gpu.
#include "check.h"

#include "core/runtime/worker/sourceprofilehelper.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace kforge::runtime;
namespace fs = std::filesystem;

namespace {

fs::path g_dir;

// A fake `kforge-worker` that runs `body` as /bin/sh ($2 is the request file; $OUT its "output" path).
std::string helper(const std::string &name, const std::string &body)
{
    const fs::path p = g_dir / name;
    std::ofstream out(p);
    out << "#!/bin/sh\nOUT=$(sed -n 's/.*\"output\":\"\\([^\"]*\\)\".*/\\1/p' \"$2\")\n" << body << "\n";
    out.close();
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
}

profiler::SourceProfile run(const std::string &worker, double timeoutS = 20)
{
    SourceProfileRequest r;
    r.task = nlohmann::ordered_json::object();
    r.candidate = "/nonexistent/candidate.so";
    r.reference = "/nonexistent/reference.so";
    return sourceProfileInHelper(worker, r, g_dir, timeoutS);
}

void checkFailed(const profiler::SourceProfile &p, const std::string &what)
{
    KF_CHECK_MSG(p.status == "failed", p.toJson().dump());
    KF_CHECK_MSG(p.missing == std::vector<std::string>{"helper_failed"}, p.toJson().dump());
    KF_CHECK_CONTAINS(p.reason, what);
    KF_CHECK_CONTAINS(p.reason, "The evaluation's verdict and timing are not affected.");
    KF_CHECK_MSG(p.reason.size() < 1200, p.reason.substr(0, 200)); // a flood does not reach the panel
    KF_CHECK(p.kernels.empty());
}

void testCrash()
{
    checkFailed(run(helper("crash.sh", "echo 'about to crash' >&2\nkill -SEGV $$")),
                "was killed by signal 11 (Segmentation fault), probably by the candidate's code: about to crash.");
    checkFailed(run(helper("abort.sh", "kill -ABRT $$")), "was killed by signal 6 (Aborted)");
}

void testHang()
{
    const auto t0 = std::chrono::steady_clock::now();
    const auto p = run(helper("hang.sh", "sleep 30"), 1);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    checkFailed(p, "ran past 1 s and was killed");
    KF_CHECK_MSG(s < 5, std::to_string(s));
}

void testFlood()
{
    // 20 MB on stdout and 2 MB on stderr, then exit 0 without a profile.
    checkFailed(run(helper("flood.sh", "head -c 20000000 /dev/zero | tr '\\0' x\nhead -c 2000000 /dev/zero | tr '\\0' y >&2")),
                "exited without writing a profile (did the candidate's code call exit()?): yyyy");
}

void testExit()
{
    checkFailed(run(helper("exit0.sh", "exit 0")),
                "exited without writing a profile (did the candidate's code call exit()?).");
    checkFailed(run(helper("exit3.sh", "echo 'kforge-worker --source-profile: bad request' >&2\nexit 3")),
                "failed with exit status 3: kforge-worker --source-profile: bad request.");
    checkFailed(run((g_dir / "missing-worker").string()), "could not be started");
}

void testNonsense()
{
    const auto p = run(helper("nonsense.sh", "printf '{\"status\": 7' > \"$OUT\""));
    KF_CHECK(p.status == "failed" && p.missing == std::vector<std::string>{"helper_failed"});
    KF_CHECK_CONTAINS(p.reason, "The source-level helper wrote an unreadable profile");
    const auto q = run(helper("badstatus.sh", "printf '{\"status\": \"great\"}' > \"$OUT\""));
    KF_CHECK_CONTAINS(q.reason, "expected ok, unavailable or failed, got great");
}

void testGood()
{
    // A helper that writes a profile: it is read back, with the helper's own start and exit as a step.
    const auto p = run(helper("good.sh", "sleep 0.2\nprintf '{\"status\":\"ok\",\"cost_ms\":12.5,\"cost_split_ms\":"
                                         "{\"cuda_init\":10,\"launches\":2.5},\"kernels\":[]}' > \"$OUT\""));
    KF_CHECK_MSG(p.status == "ok" && p.costMs == 12.5, p.toJson().dump());
    KF_CHECK_MSG(p.costSplitMs.size() == 3 && p.costSplitMs[0].first == "cuda_init"
                     && p.costSplitMs[2].first == "process" && p.costSplitMs[2].second > 150,
                 p.toJson().dump());
    // The request and the output file are removed again.
    int left = 0;
    for (const auto &e : fs::directory_iterator(g_dir))
        left += e.path().filename().string().rfind("source-profile-", 0) == 0;
    KF_CHECK_MSG(left == 0, std::to_string(left));
}

} // namespace

int main()
{
    char pattern[] = "/tmp/kforge-sp-helper-XXXXXX";
    if (!::mkdtemp(pattern))
        return 1;
    g_dir = pattern;
    testCrash();
    testHang();
    testFlood();
    testExit();
    testNonsense();
    testGood();
    std::error_code ec;
    fs::remove_all(g_dir, ec);
    return kforge::runtime::test::finish("tst_source_profile_helper");
}
