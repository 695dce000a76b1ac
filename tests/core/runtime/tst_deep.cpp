// The deep check and the edge rounds without a GPU (issue 19): options.deep, the edge-trial schedule (the
// reference decides; larger scales skipped after the first beyond the domain), the sanitizer's report
// parsing, and the result's roofline from floors.h (one computation).
#include "check.h"
#include "core/runtime/worker/judgeoptions.h"
#include "core/runtime/worker/judge.h"
#include "core/runtime/worker/floors.h"
#include "core/runtime/worker/verification.h"

using namespace kforge::runtime;
using Json = nlohmann::ordered_json;

namespace {

TaskSpec task(const char *name)
{
    const TaskSpecResult r = loadTaskFolder(std::string(KFORGE_TEST_SOURCE_DIR "/resources/tasks/") + name);
    KF_CHECK_MSG(r.ok(), r.error.message());
    return r.ok() ? *r.spec : TaskSpec{};
}

void deepOption()
{
    EvalOptions o;
    std::string error;
    KF_CHECK(EvalOptions::fromJson(Json::object(), o, error) && !o.deep && o.fullCheckRounds() == 5);
    KF_CHECK(EvalOptions::fromJson(Json{{"deep", true}, {"trials", 4}}, o, error) && o.deep);
    KF_CHECK_MSG(o.fullCheckRounds() == 4 * EvalOptions::kDeepTrialFactor, std::to_string(o.fullCheckRounds()));
    KF_CHECK(o.toJson().at("deep") == true);
    EvalOptions back;
    KF_CHECK(EvalOptions::fromJson(o.toJson(), back, error) && back.deep && back.seed == o.seed);
    KF_CHECK(EvalOptions::fromJson(Json{{"deep", true}, {"trials", 900}}, o, error) && o.fullCheckRounds() == 1000);
    KF_CHECK(!EvalOptions::fromJson(Json{{"deep", "yes"}}, o, error));
    KF_CHECK_CONTAINS(error, "options.deep: expected a boolean");
    KF_CHECK(EvalOptions::fromJson(Json{{"deep", nullptr}}, o, error) && !o.deep);
}

void edgeSchedule()
{
    // softmax-like: scaled x16, x256, x4096, then special values.
    EdgeSchedule s(
        {{InputRange::Scaled, 16}, {InputRange::Scaled, 256}, {InputRange::Scaled, 4096}, {InputRange::Special, 2}});
    const EdgeTrial *t = s.next();
    KF_CHECK(t && t->range == InputRange::Scaled && t->scale == 16);
    s.passed();
    t = s.next();
    KF_CHECK(t && t->scale == 256);
    s.skipped("beyond the task's domain");
    t = s.next(); // x4096 is skipped without running: the reference already overflowed at x256
    KF_CHECK(t && t->range == InputRange::Special);
    s.passed();
    KF_CHECK(s.next() == nullptr && s.anyRan());
    const Json j = s.toJson();
    KF_CHECK_MSG(j.size() == 4, j.dump());
    KF_CHECK(j[0].at("range") == "scaled x16" && j[0].at("ran") == true && j[0].at("passed") == true);
    KF_CHECK(j[1].at("ran") == false && j[1].at("reason") == "beyond the task's domain");
    KF_CHECK(j[2].at("ran") == false);
    KF_CHECK_CONTAINS(j[2].at("reason").get<std::string>(), "scaled x256");
    KF_CHECK(j[3].at("range") == "special values (max/2)" && j[3].at("passed") == true);

    // A failure stops the schedule; what was not reached says so.
    EdgeSchedule f({{InputRange::Scaled, 16}, {InputRange::Special, 2}});
    KF_CHECK(f.next() != nullptr);
    f.failed();
    const Json fj = f.toJson();
    KF_CHECK(fj[0].at("passed") == false && fj[1].at("ran") == false);
    KF_CHECK_CONTAINS(fj[1].at("reason").get<std::string>(), "not reached");
    KF_CHECK(f.anyRan());

    // A skipped special trial does not block anything; nothing ran.
    EdgeSchedule none({{InputRange::Special, 2}});
    KF_CHECK(none.next() != nullptr);
    none.skipped("the reference's kf_entry returned non-zero on these inputs");
    KF_CHECK(none.next() == nullptr && !none.anyRan());

    // The built-in tasks' schedules: diag_matmul's float inputs scale and admit special values.
    const std::vector<EdgeTrial> trials = edgeTrials(task("diag_matmul"));
    KF_CHECK_MSG(trials.size() == 4, std::to_string(trials.size()));
    KF_CHECK(EdgeSchedule(trials).toJson().size() == trials.size());

    // The verification object carries the schedule and the flag.
    Verification v;
    v.edges = EdgeSchedule(trials);
    v.edges.next();
    v.edges.failed();
    v.unstableNumerics = true;
    const Json vj = v.toJson(task("diag_matmul"));
    KF_CHECK(vj.at("unstable_numerics") == true && vj.at("edge").size() == trials.size());
    KF_CHECK(vj.at("edge")[0].at("passed") == false);
}

void sanitizerReport()
{
    const std::string out = "hello\n"
                            "========= COMPUTE-SANITIZER\n"
                            "========= Invalid __global__ write of size 4 bytes\n"
                            "=========     at kernel(float *)+0x70 in a.cu:12\n"
                            "=========     Address 0x7f0000001000 is out of bounds\n"
                            "========= \n"
                            "========= ERROR SUMMARY: 3 errors\n";
    long long summary = 0;
    const std::vector<std::string> lines = sanitizerLines(out, 2, summary);
    KF_CHECK_MSG(summary == 3, std::to_string(summary));
    KF_CHECK_MSG(lines.size() == 2 && lines[0] == "COMPUTE-SANITIZER", lines.empty() ? "" : lines[0]);
    KF_CHECK(lines[1] == "Invalid __global__ write of size 4 bytes");
    sanitizerLines("========= ERROR SUMMARY: 0 errors\n", 10, summary);
    KF_CHECK(summary == 0);
    sanitizerLines("no tool here\n", 10, summary);
    KF_CHECK(summary == -1);
    // Found or not, the answer is an absolute executable path or nothing.
    const std::string tool = findComputeSanitizer();
    KF_CHECK_MSG(tool.empty() || tool.front() == '/', tool);
}

void rooflineFromTheFunction()
{
    const DevicePeaks h200{4206.1, 54434.0, {}};
    const TaskSpec t = task("matmul");
    std::vector<std::string> flags, warnings;
    const Json roof = Judge::roofline(t, h200, 0.1, 5.0, flags, warnings);
    KF_CHECK(roof == speedOfLight(t, h200, 0.1).rooflineJson(5.0));
    KF_CHECK(flags == std::vector<std::string>{"beats_flop_floor"} && warnings.size() == 1);
    KF_CHECK(roof.at("speed_of_light_pct").get<double>() <= 100);
    flags.clear();
    warnings.clear();
    const Json honest = Judge::roofline(t, h200, 5.0, 5.0, flags, warnings);
    KF_CHECK(flags.empty() && warnings.empty() && honest.at("speed_of_light_state") == "within_floors");
    const Json below = Judge::roofline(task("diag_matmul"), h200, 0.01, 3.0, flags, warnings);
    KF_CHECK(flags == std::vector<std::string>{"below_speed_of_light"} && below.at("speed_of_light_pct").is_null());
}

} // namespace

// K from the per-call time (docs/worker-protocol.md, "Timing").
void batchSize()
{
    KF_CHECK(Judge::chooseBatch(0.001) == Judge::kMaxBatch); // 1 us: 5000 calls, capped
    KF_CHECK(Judge::chooseBatch(0.04) == 128);                   // ceil(125) -> 128
    KF_CHECK(Judge::chooseBatch(0.033) == 256);                  // ceil(151.5) -> 256
    KF_CHECK(Judge::chooseBatch(3.0) == Judge::kMinBatch);   // long calls: 3
    KF_CHECK(Judge::chooseBatch(0.0) == Judge::kMaxBatch);
}

int main()
{
    deepOption();
    edgeSchedule();
    sanitizerReport();
    rooflineFromTheFunction();
    batchSize();
    return kforge::runtime::test::finish("tst_deep");
}
