// The adversarial suite (tests/gpu/adversarial, issue 19; its torch cases, issue 34). Modes:
//   (none)         the manifest is complete and valid, the validator and the expectation checks can fail, no_file
//                  patterns expand and match;
//   --compile      every .cu case and every CUDA reference it needs compiles with nvcc for sm_90 (77 without nvcc;
//                  a torch task's reference and its .py cases are Python, checked by check_adversarial_modules.py);
//   --forged-load  no GPU needed: a candidate whose constructor writes forged replies to every descriptor is
//                  loaded; no reply the client reads may carry the marker (77 when loading needs a device);
//   --gpu          runs the whole suite against the real worker and checks every row (77 without a GPU).
#include "check.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/adversarialmanifest.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/selftestadversarial.h"
#include "core/runtime/worker/workerprocess.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

using namespace kforge::runtime;
using namespace kforge::runtime::test;
using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(KFORGE_TEST_SOURCE_DIR) / "tests" / "gpu" / "adversarial";
const fs::path kManifest = kDir / "cases.json";
const fs::path kTasks = fs::path(KFORGE_TEST_SOURCE_DIR) / "resources" / "tasks";

std::string worker()
{
    const char *w = std::getenv("KFORGE_WORKER");
    return w ? w : "";
}

Json readJson(const fs::path &p)
{
    std::ifstream in(p);
    return Json::parse(in);
}

bool anyContains(const std::vector<std::string> &v, const std::string &needle)
{
    for (const std::string &s : v)
        if (s.find(needle) != std::string::npos)
            return true;
    return false;
}

void checkManifest()
{
    const std::vector<std::string> problems = validateAdversarialManifest(kManifest, kTasks);
    std::string all;
    for (const std::string &p : problems)
        all += p + "\n";
    KF_CHECK_MSG(problems.empty(), all);
    const Json j = readJson(kManifest);
    std::set<std::string> classes;
    for (const Json &c : j["cases"])
        classes.insert(c["class"].get<std::string>());
    for (const char *k : {"address_space", "timed_vs_verification", "predictable_inputs", "arithmetic_floor",
                          "trace_evasion", "cleanup_floods", "unstable_numerics", "host_tampering", "ignored_weights",
                          "precision", "output_contract", "constant_output", "input_mutation", "sandbox_escape", "honest"})
        KF_CHECK_MSG(classes.count(k), std::string("no case of class ") + k);
    // Issue 34: the torch tasks have honest modules and cheats of their own, and at least one .cu of each kind.
    std::set<std::string> torchKinds;
    for (const Json &c : j["cases"])
        if (c["task"].get<std::string>().rfind("torch_", 0) == 0)
            torchKinds.insert(c["class"].get<std::string>() == "honest" ? "honest" : "cheat");
    KF_CHECK_MSG(torchKinds.size() == 2, "honest and cheating torch cases");

    // The validator itself catches what it claims to: a copy with a class dropped, an unknown key and a
    // kernel that is not listed.
    const fs::path tmp = fs::temp_directory_path() / ("kforge-adv-manifest-" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    for (const auto &e : fs::directory_iterator(kDir))
        fs::copy_file(e.path(), tmp / e.path().filename(), fs::copy_options::overwrite_existing);
    Json broken = j;
    Json kept = Json::array();
    for (const Json &c : broken["cases"])
        if (c["class"] != "unstable_numerics")
            kept.push_back(c);
    kept[0]["expect"]["verdcit"] = "correct";
    // A module on a CUDA task, a module without ModelNew, no_file patterns the runner must not remove.
    kept.push_back(Json{{"file", "t_zero_inputs.py"},
                        {"task", "diag_matmul"},
                        {"class", "input_mutation"},
                        {"expect", {{"not_verdict", "correct"}}}});
    std::ofstream(tmp / "t_no_class.py") << "# Class input_mutation: no class here\nimport torch\n";
    kept.push_back(Json{{"file", "t_no_class.py"},
                        {"task", "torch_diag_matmul"},
                        {"class", "input_mutation"},
                        {"expect", {{"not_verdict", "correct"}}}});
    kept.push_back(Json{{"file", "th_rowscale_kernel.cu"},
                        {"task", "torch_diag_matmul"},
                        {"class", "honest"},
                        {"no_file", Json::array({"~/.bashrc", "relative/kfadv-x", "/tmp/kfadv-ok-*"})},
                        {"expect", {{"verdict", "correct"}, {"no_flags", true}}}});
    broken["cases"] = kept;
    std::ofstream(tmp / "cases.json") << broken.dump(1);
    const std::vector<std::string> found = validateAdversarialManifest(tmp / "cases.json", kTasks);
    std::string all2;
    for (const std::string &p : found)
        all2 += p + "\n";
    KF_CHECK_MSG(anyContains(found, "class 'unstable_numerics' has no case"), all2);
    KF_CHECK(anyContains(found, "unknown expect key 'verdcit'"));
    KF_CHECK(anyContains(found, "a7_softmax_without_max.cu: not listed"));
    KF_CHECK(anyContains(found, "t_zero_inputs.py: a Python module needs a torch task"));
    KF_CHECK(anyContains(found, "t_no_class.py: defines no class ModelNew"));
    KF_CHECK(anyContains(found, "no_file '~/.bashrc' must name a file starting with \"kfadv\""));
    KF_CHECK(anyContains(found, "no_file 'relative/kfadv-x' is not an absolute path"));
    KF_CHECK(!anyContains(found, "/tmp/kfadv-ok-*"));
    KF_CHECK(anyContains(found, "th_rowscale_kernel.cu: listed twice"));
    fs::remove_all(tmp);
}

// no_file: ~ and $HOME expand to the home folder, then the pattern globs.
void checkNoFile()
{
    const char *home = std::getenv("HOME");
    const std::string h = home ? home : "";
    if (!h.empty()) {
        KF_CHECK(adversarial::expandHome("~/kfadv-x") == h + "/kfadv-x");
        KF_CHECK(adversarial::expandHome("$HOME/a/kfadv-x") == h + "/a/kfadv-x");
        KF_CHECK(adversarial::expandHome("${HOME}/kfadv-x") == h + "/kfadv-x");
    }
    KF_CHECK(adversarial::expandHome("/tmp/~/kfadv-x") == "/tmp/~/kfadv-x");
    KF_CHECK(adversarial::expandHome("~user/kfadv-x") == "~user/kfadv-x");
    const fs::path dir = fs::temp_directory_path() / ("kforge-adv-nofile-" + std::to_string(::getpid()));
    fs::create_directories(dir / "python3.11" / "site-packages");
    const std::string pattern = (dir / "python3*" / "site-packages" / "kfadv_escape.pth").string();
    KF_CHECK(adversarial::existingPaths(pattern).empty());
    std::ofstream(dir / "python3.11" / "site-packages" / "kfadv_escape.pth") << "import os\n";
    const std::vector<fs::path> found = adversarial::existingPaths(pattern);
    KF_CHECK(found.size() == 1);
    KF_CHECK(adversarial::noFileProblem(pattern).empty());
    fs::remove_all(dir);
}

void checkExpectations()
{
    const auto outcome = [](std::string verdict, std::vector<std::string> flags = {}, double speedup = 0) {
        return AdversarialOutcome{std::move(verdict), std::move(flags), speedup, "msg", ""};
    };
    const Json honest{{"verdict", "correct"}, {"no_flags", true}};
    KF_CHECK(checkAdversarialExpectation(honest, outcome("correct", {}, 60)).empty());
    KF_CHECK(!checkAdversarialExpectation(honest, outcome("correct", {"side_stream_work"}, 60)).empty());
    KF_CHECK(!checkAdversarialExpectation(honest, outcome("incorrect")).empty());
    const Json caught{{"flag", Json::array({"beats_flop_floor", "below_speed_of_light"})}, {"max_speedup", 1.5}};
    KF_CHECK(checkAdversarialExpectation(caught, outcome("incorrect")).empty());
    KF_CHECK(checkAdversarialExpectation(caught, outcome("correct", {"beats_flop_floor"}, 9)).empty());
    KF_CHECK(checkAdversarialExpectation(caught, outcome("correct", {}, 1.0)).empty());
    KF_CHECK(!checkAdversarialExpectation(caught, outcome("correct", {}, 9)).empty());
    const Json mustCatch{{"flag", "side_stream_work"}};
    KF_CHECK(!checkAdversarialExpectation(mustCatch, outcome("correct", {}, 1.0)).empty());
    KF_CHECK(checkAdversarialExpectation(Json{{"not_verdict", "correct"}}, outcome("incorrect")).empty());
    KF_CHECK(!checkAdversarialExpectation(Json{{"not_verdict", "correct"}}, outcome("correct")).empty());
    // The judge must survive: a dead or hung worker never meets an expectation, not even "not correct".
    KF_CHECK(!checkAdversarialExpectation(Json{{"not_verdict", "correct"}}, outcome("worker_died")).empty());
    KF_CHECK(!checkAdversarialExpectation(Json{{"verdict", "timeout"}}, outcome("worker_hung")).empty());
    const Json flood{{"verdict", "correct"}, {"require_flags", Json::array({"output_truncated"})}};
    KF_CHECK(checkAdversarialExpectation(flood, outcome("correct", {"output_truncated"}, 50)).empty());
    KF_CHECK(!checkAdversarialExpectation(flood, outcome("correct", {}, 50)).empty());
    const Json oom{{"verdict", Json::array({"out_of_memory", "correct"})}};
    KF_CHECK(checkAdversarialExpectation(oom, outcome("out_of_memory")).empty());
    KF_CHECK(!checkAdversarialExpectation(oom, outcome("timeout")).empty());
    AdversarialOutcome unstable = outcome("incorrect");
    const Json mentions{{"verdict", "incorrect"}, {"mentions", "unstable_numerics"}};
    KF_CHECK(!checkAdversarialExpectation(mentions, unstable).empty());
    unstable.reason = "unstable_numerics: an edge trial failed";
    KF_CHECK(checkAdversarialExpectation(mentions, unstable).empty());
    KF_CHECK(!checkAdversarialExpectation(Json{{"verdcit", "correct"}}, outcome("correct")).empty());
}

std::vector<NvccJob> compileJobs(const fs::path &out)
{
    std::vector<NvccJob> jobs;
    std::set<std::string> references;
    const Json manifest = readJson(kManifest);
    for (const Json &c : manifest["cases"]) {
        const std::string task = c["task"].get<std::string>();
        const TaskSpecResult r = loadTaskFolder(kTasks / task);
        if (!r.ok())
            continue;                                       // checkManifest reports it
        const bool torch = r.spec->kind == TaskKind::Torch; // its reference is a .py, loaded as it is
        if (!torch && references.insert(task).second)
            jobs.push_back({kTasks / task / "reference.cu", out / (task + "-reference.so"), r.spec->nvccFlags});
        const fs::path file = c["file"].get<std::string>();
        if (file.extension() == ".cu")
            jobs.push_back({kDir / file, out / (file.stem().string() + ".so"), r.spec->nvccFlags});
    }
    return jobs;
}

void checkCompiles()
{
    const fs::path out = fs::temp_directory_path() / ("kforge-adv-build-" + std::to_string(::getpid()));
    fs::create_directories(out);
    const std::vector<NvccJob> jobs = compileJobs(out);
    std::size_t kernels = 0;
    for (const Json &c : readJson(kManifest)["cases"])
        kernels += fs::path(c["file"].get<std::string>()).extension() == ".cu";
    KF_CHECK_MSG(jobs.size() > kernels, "every .cu case and at least one reference");
    const std::vector<NvccResult> built = compileKernels(jobs, "sm_90", 2);
    for (std::size_t i = 0; i < jobs.size(); ++i)
        KF_CHECK_MSG(built[i].ok, jobs[i].source.filename().string() + ":\n" + built[i].log);
    std::printf("compiled %zu kernels for sm_90\n", jobs.size());
    fs::remove_all(out);
}

void checkForgedLoad()
{
    if (worker().empty())
        skip("KFORGE_WORKER is not set");
    const fs::path out = fs::temp_directory_path() / ("kforge-adv-forge-" + std::to_string(::getpid()));
    fs::create_directories(out);
    const NvccJob job{kDir / "a1_forge_reply_at_load.cu", out / "forge.so", {"-lcublas"}};
    const NvccResult built = compileKernels({job}, "sm_90", 1)[0];
    KF_CHECK_MSG(built.ok, built.log);
    if (!built.ok)
        return;
    WorkerClient client({worker()});
    std::string error;
    KF_CHECK_MSG(client.start(error), error);
    const WorkerClient::Reply load =
        client.request(Json{{"op", "load"}, {"slot", "candidate"}, {"path", job.output.string()}}, 60);
    const bool needsDevice = load.ok() && !load.message.value("ok", false)
                             && load.message.dump().find("device") != std::string::npos;
    std::vector<WorkerClient::Reply> replies{load};
    for (int i = 0; i < 4 && client.running(); ++i) // the forged ids 1..64 cover every request of this session
        replies.push_back(client.request(Json{{"op", "hello"}, {"protocol", 1}}, 20));
    // A reply is forged when it is the forger's line (its message starts with the marker); the judge quoting
    // the line in its refusal of the load is the defense working, not a forgery.
    const auto forgedLine = [](const Json &m) {
        if (!m.is_object())
            return false;
        const Json *r = m.contains("result") && m["result"].is_object() ? &m["result"] : &m;
        return r->contains("message") && (*r)["message"].is_string()
               && (*r)["message"].get<std::string>().rfind(kForgedMarker, 0) == 0;
    };
    int forged = 0;
    for (const WorkerClient::Reply &r : replies)
        if (forgedLine(r.message))
            ++forged;
    KF_CHECK_MSG(forged == 0, std::to_string(forged) + " of " + std::to_string(replies.size())
                                  + " replies the client read were forged by the candidate: " + load.message.dump());
    KF_CHECK_MSG(client.running(), "the worker did not survive the load: " + client.exitDescription());
    client.request(Json{{"op", "shutdown"}}, 10);
    if (!client.waitExit(10))
        client.kill();
    fs::remove_all(out);
    if (needsDevice && forged == 0)
        skip("loading a candidate needs a device here; the constructor never ran: " + load.message.dump());
}

void checkOnGpu()
{
    if (worker().empty())
        skip("KFORGE_WORKER is not set");
    AdversarialConfig config;
    config.manifest = kManifest.string();
    config.tasksDir = kTasks.string();
    config.workerArgv = {worker()};
    config.log = [](const std::string &line) { std::fprintf(stderr, "adversarial: %s\n", line.c_str()); };
    const AdversarialReport report = runAdversarial(config);
    if (report.noDevice)
        skip(report.error);
    KF_CHECK_MSG(report.error.empty(), report.error);
    std::printf("%s", formatAdversarialTable(report.rows).c_str());
    KF_CHECK(report.rows.size() >= readJson(kManifest)["cases"].size());
    for (const AdversarialRow &r : report.rows)
        KF_CHECK_MSG(r.ok, r.file + ": " + r.problem);
}

} // namespace

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--compile") {
        if (findNvcc().empty() || std::system((findNvcc() + " --version > /dev/null 2>&1").c_str()) != 0)
            skip("no nvcc");
        checkCompiles();
    } else if (mode == "--forged-load") {
        checkForgedLoad();
    } else if (mode == "--gpu") {
        checkOnGpu();
    } else {
        checkManifest();
        checkExpectations();
        checkNoFile();
    }
    return finish(("tst_adversarial " + mode).c_str());
}
