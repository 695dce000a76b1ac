#include "core/runtime/worker/selftest.h"

#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/workerprocess.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::string firstLines(const std::string &text, int lines)
{
    std::string out;
    std::istringstream in(text);
    std::string line;
    while (lines-- > 0 && std::getline(in, line))
        out += (out.empty() ? "" : "\n") + line;
    return out;
}

// A child worker that is restarted whenever it is gone; remembers which reference it has loaded.
class Child
{
public:
    explicit Child(std::vector<std::string> argv)
        : m_argv(std::move(argv))
    {
    }
    ~Child() { finish(); }
    Child(const Child &) = delete;
    Child &operator=(const Child &) = delete;

    bool ensure(std::string &error)
    {
        if (m_client && m_client->running())
            return true;
        m_client = std::make_unique<WorkerClient>(m_argv);
        m_reference.clear();
        if (!m_client->start(error))
            return false;
        const WorkerClient::Reply hello = m_client->request(Json{{"op", "hello"}, {"protocol", 1}}, 30);
        if (!hello.ok() || !hello.message.value("ok", false)) {
            error = "handshake failed: " + (hello.ok() ? hello.message.dump() : hello.detail);
            return false;
        }
        return true;
    }
    WorkerClient &client() { return *m_client; }
    std::string &loadedReference() { return m_reference; }
    // Asks a running worker to exit cleanly (so it removes its temporary directory).
    void finish()
    {
        if (m_client && m_client->running()) {
            m_client->request(Json{{"op", "shutdown"}}, 10);
            if (!m_client->waitExit(10))
                m_client->kill();
        }
        m_reference.clear();
    }
    void drop()
    {
        if (m_client)
            m_client->kill();
        m_reference.clear();
    }

private:
    std::vector<std::string> m_argv;
    std::unique_ptr<WorkerClient> m_client;
    std::string m_reference;
};

// The one source-level check of a self-test: logs the hottest line; a pass that ran and failed fails the row
// (a host that cannot sample, e.g. without counter permission, is only reported, as are missing lines).
void checkSourceProfile(const Json &sp, const std::string &what, SelfTestRow &row,
                        const std::function<void(const std::string &)> &log)
{
    const std::string status = sp.value("status", "");
    if (status != "ok") {
        log("source profile of " + what + ": " + status + ": " + sp.value("reason", ""));
        if (status == "failed")
            row.problem = "source profile failed: " + sp.value("reason", "");
        return;
    }
    std::map<std::pair<std::string, int>, uint64_t> lines;
    for (const Json &k : sp.value("kernels", Json::array()))
        if (k.value("side", "") == "candidate")
            for (const Json &pc : k.value("pcs", Json::array()))
                if (pc.contains("line"))
                    lines[{pc.value("file", ""), pc.value("line", 0)}] += pc.value("samples", uint64_t(0));
    const auto hot = std::max_element(lines.begin(), lines.end(),
                                      [](const auto &a, const auto &b) { return a.second < b.second; });
    log("source profile of " + what + ": ok in " + fixedDecimals(sp.value("cost_ms", 0.0), 0) + " ms"
        + (hot == lines.end() ? ", no source line: " + sp.value("reason", "")
                              : ", hottest line " + std::filesystem::path(hot->first.first).filename().string() + ":"
                                    + std::to_string(hot->first.second) + " (" + std::to_string(hot->second) + " samples)"));
}

} // namespace

std::string fixedDecimals(double v, int precision)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", precision, v);
    return buf;
}

std::string defaultTasksDir()
{
    const fs::path exeDir = fs::path(selfExecutable()).parent_path();
    std::error_code ec;
    const fs::path installed = exeDir / ".." / "share" / "kforge" / "tasks";
    if (fs::is_directory(installed, ec))
        return fs::weakly_canonical(installed).string();
#ifdef KFORGE_SOURCE_TASKS_DIR
    return KFORGE_SOURCE_TASKS_DIR;
#else
    return installed.string();
#endif
}

Json toJson(const SelfTestRow &r)
{
    Json j;
    j["task"] = r.task;
    j["variant"] = r.variant;
    j["verdict"] = r.verdict;
    j["reference_ms"] = r.referenceMs;
    j["candidate_ms"] = r.candidateMs;
    j["speedup"] = r.speedup;
    j["cv"] = r.cv;
    j["expect"] = Json{{"verdict", r.expectVerdict}};
    if (r.minSpeedup)
        j["expect"]["min_speedup"] = *r.minSpeedup;
    j["flags"] = r.flags;
    j["ok"] = r.ok;
    j["problem"] = r.problem;
    j["message"] = r.message;
    return j;
}

std::string formatTable(const std::vector<SelfTestRow> &rows)
{
    std::vector<std::vector<std::string>> cells;
    cells.push_back({"task", "variant", "verdict", "ref ms", "cand ms", "speedup", "CV", "expected", "result"});
    for (const SelfTestRow &r : rows) {
        const bool timed = r.referenceMs > 0;
        std::string expected = r.expectVerdict;
        if (r.minSpeedup)
            expected += " >=" + fixedDecimals(*r.minSpeedup, 1) + "x";
        std::string result = r.ok ? "ok" : "UNEXPECTED";
        if (!r.flags.empty()) {
            std::string f;
            for (const std::string &x : r.flags)
                f += (f.empty() ? "" : ",") + x;
            result += " [" + f + "]";
        }
        cells.push_back({r.task, r.variant, r.verdict, timed ? fixedDecimals(r.referenceMs, 4) : "-",
                         timed ? fixedDecimals(r.candidateMs, 4) : "-", timed ? fixedDecimals(r.speedup, 2) + "x" : "-",
                         timed ? fixedDecimals(100 * r.cv, 1) + "%" : "-", expected, result});
    }
    std::string out = textTable(cells, 3, 6);
    for (const SelfTestRow &r : rows)
        if (!r.ok)
            out += "  " + r.task + "/" + r.variant + ": " + r.problem + "\n";
    return out;
}

std::string textTable(const std::vector<std::vector<std::string>> &cells, std::size_t rightFrom, std::size_t rightTo)
{
    if (cells.empty())
        return {};
    std::vector<std::size_t> width(cells[0].size(), 0);
    for (const auto &row : cells)
        for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        std::string line;
        for (std::size_t c = 0; c < cells[i].size() && c < width.size(); ++c) {
            const bool right = c >= rightFrom && c <= rightTo;
            const std::string pad(width[c] - cells[i][c].size(), ' ');
            line += (c ? "  " : "") + (right ? pad + cells[i][c] : cells[i][c] + (c + 1 < cells[i].size() ? pad : ""));
        }
        out += line + "\n";
        if (i == 0) {
            std::size_t total = 0;
            for (std::size_t w : width)
                total += w + 2;
            out += std::string(total - 2, '-') + "\n";
        }
    }
    return out;
}

SelfTestReport runSelfTest(const SelfTestConfig &config)
{
    SelfTestReport report;
    const auto log = [&](const std::string &line) {
        if (config.log)
            config.log(line);
    };
    const fs::path tasksDir = config.tasksDir.empty() ? fs::path(defaultTasksDir()) : fs::path(config.tasksDir);
    std::error_code ec;
    if (!fs::is_directory(tasksDir, ec)) {
        report.error = "no tasks folder at " + tasksDir.string();
        return report;
    }
    std::vector<fs::path> folders;
    for (const auto &entry : fs::directory_iterator(tasksDir, ec))
        if (fs::exists(entry.path() / "task.json"))
            folders.push_back(entry.path());
    std::sort(folders.begin(), folders.end());
    if (!config.onlyTasks.empty())
        std::erase_if(folders, [&](const fs::path &p) {
            return std::find(config.onlyTasks.begin(), config.onlyTasks.end(), p.filename().string())
                   == config.onlyTasks.end();
        });
    if (folders.empty()) {
        report.error = "no tasks in " + tasksDir.string();
        return report;
    }

    Child child(config.workerArgv);
    std::string error;
    if (!child.ensure(error)) {
        report.error = "cannot start a worker: " + error;
        return report;
    }
    const WorkerClient::Reply info = child.client().request(Json{{"op", "device_info"}}, 120);
    if (!info.ok() || !info.message.value("ok", false)) {
        if (info.ok() && info.message["error"].value("code", "") == "no_device") {
            report.noDevice = true;
            report.error = info.message["error"].value("message", "no CUDA device");
        } else {
            report.error = "device_info failed: " + (info.ok() ? info.message.dump() : info.detail);
        }
        return report;
    }
    const Json &device = info.message["device"];
    const std::string arch = device.value("arch", "sm_90");
    report.device = device.value("name", "?") + " (" + arch + ")";
    log("device: " + report.device);

    // Load every task, then compile every kernel at once.
    // A torch task's modules (its reference.py, a .py variant) are loaded as they are; every .cu is compiled.
    constexpr std::size_t kModule = static_cast<std::size_t>(-1);
    struct Item {
        TaskSpec task;
        std::size_t refJob = 0;
        std::vector<std::size_t> variantJobs;
        std::vector<fs::path> modules; // by variant; the reference's last
    };
    std::vector<Item> items;
    std::vector<NvccJob> jobs;
    const fs::path buildDir = (TempDir::path().empty() ? fs::temp_directory_path() : TempDir::path()) / "self-test";
    for (const fs::path &folder : folders) {
        TaskSpecResult r = loadTaskFolder(folder);
        if (!r.ok()) {
            SelfTestRow row;
            row.task = folder.filename().string();
            row.variant = "-";
            row.verdict = "task_error";
            row.problem = r.error.message();
            report.rows.push_back(row);
            continue;
        }
        Item item{std::move(*r.spec), 0, {}, {}};
        const fs::path out = buildDir / item.task.name;
        fs::create_directories(out, ec);
        const bool torch = item.task.kind == TaskKind::Torch;
        for (std::size_t v = 0; v < item.task.variants.size(); ++v) {
            const VariantSpec &var = item.task.variants[v];
            if (fs::path(var.file).extension() == ".py") {
                item.variantJobs.push_back(kModule);
                item.modules.push_back(fs::absolute(folder / var.file));
                continue;
            }
            std::vector<std::string> flags = item.task.nvccFlags;
            flags.insert(flags.end(), var.nvccFlags.begin(), var.nvccFlags.end());
            item.variantJobs.push_back(jobs.size());
            item.modules.emplace_back();
            jobs.push_back({fs::absolute(folder / var.file), out / ("variant-" + std::to_string(v) + ".so"), flags});
        }
        item.modules.push_back(torch ? fs::absolute(folder / item.task.reference) : fs::path());
        item.refJob = torch ? kModule : jobs.size();
        if (!torch)
            jobs.push_back({fs::absolute(folder / "reference.cu"), out / "reference.so", item.task.nvccFlags});
        items.push_back(std::move(item));
    }
    log("compiling " + std::to_string(jobs.size()) + " kernels for " + arch + " with " + findNvcc());
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<NvccResult> compiled = compileKernels(jobs, arch, config.parallelCompiles);
    log("compiled in " + fixedDecimals(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1) + " s");

    Json options = config.options.toJson();
    options["trace"] = false; // the self-test checks verdicts and speed, not profiles
    options["metrics"] = false;
    bool profiled = false; // one source-level check, on the first "good" variant

    const NvccResult moduleBuild{true, {}, 0};
    const auto built = [&](std::size_t job) -> const NvccResult & { return job == kModule ? moduleBuild : compiled[job]; };
    for (const Item &item : items) {
        const std::string refPath = item.refJob == kModule ? item.modules.back().string() : jobs[item.refJob].output.string();
        for (std::size_t v = 0; v < item.task.variants.size(); ++v) {
            const VariantSpec &var = item.task.variants[v];
            SelfTestRow row;
            row.task = item.task.name;
            row.variant = var.label;
            if (var.expect) {
                row.expectVerdict = var.expect->verdict;
                row.minSpeedup = var.expect->minSpeedup;
            }
            const NvccResult &refBuild = built(item.refJob);
            const NvccResult &build = built(item.variantJobs[v]);
            const std::string candidatePath = item.variantJobs[v] == kModule ? item.modules[v].string()
                                                                             : jobs[item.variantJobs[v]].output.string();
            if (!refBuild.ok) {
                row.verdict = "load_error";
                row.message = "reference does not compile: " + firstLines(refBuild.log, 6);
            } else if (!build.ok) {
                row.verdict = "load_error";
                row.message = "does not compile: " + firstLines(build.log, 6);
            } else if (!child.ensure(error)) {
                row.verdict = "error";
                row.message = "cannot restart the worker: " + error;
            } else {
                WorkerClient &c = child.client();
                WorkerClient::Reply load;
                if (child.loadedReference() != refPath) {
                    load = c.request(Json{{"op", "load"}, {"slot", "reference"}, {"path", refPath}}, 60);
                    if (load.ok() && load.message.value("ok", false))
                        child.loadedReference() = refPath;
                } else {
                    load.status = WorkerClient::Reply::Status::Ok;
                    load.message = Json{{"ok", true}};
                }
                if (load.ok() && load.message.value("ok", false))
                    load = c.request(Json{{"op", "load"}, {"slot", "candidate"}, {"path", candidatePath}}, 60);
                if (!load.ok()) {
                    row.verdict = "crashed";
                    row.message = "the worker died loading the kernel: " + load.detail;
                    child.drop();
                } else if (!load.message.value("ok", false)) {
                    row.verdict = "load_error";
                    row.message = load.message["error"].value("message", "");
                } else {
                    const bool profileThis = !profiled && var.label == "good";
                    Json variantOptions = options;
                    if (profileThis) {
                        profiled = true;
                        variantOptions["source_profile"] = true;
                    }
                    const Json request{{"op", "evaluate"}, {"task", toJson(item.task)}, {"options", variantOptions}};
                    const WorkerClient::Reply reply = c.request(request, item.task.timeoutS);
                    if (reply.status == WorkerClient::Reply::Status::Timeout) {
                        row.verdict = "timeout";
                        row.message = "no result within the task's timeout_s = " + fixedDecimals(item.task.timeoutS, 0) + " s";
                        child.drop();
                    } else if (reply.status == WorkerClient::Reply::Status::Died) {
                        row.verdict = "crashed";
                        row.message = "the worker " + reply.detail;
                        child.drop();
                    } else if (!reply.message.value("ok", false)) {
                        row.verdict = "error";
                        row.message = reply.message["error"].dump();
                    } else {
                        const Json &res = reply.message["result"];
                        row.verdict = res.value("verdict", "?");
                        row.message = res.value("message", "");
                        row.flags = res.value("flags", std::vector<std::string>{});
                        if (res.contains("timing")) {
                            row.referenceMs = res["timing"]["reference"].value("median_ms", 0.0);
                            row.candidateMs = res["timing"]["candidate"].value("median_ms", 0.0);
                            row.cv = res["timing"]["candidate"].value("cv", 0.0);
                            row.speedup = res["timing"].value("speedup", 0.0);
                        }
                        if (profileThis && res.contains("source_profile"))
                            checkSourceProfile(res["source_profile"], item.task.name + "/" + var.label, row, log);
                        if (res.value("restart_required", false)) {
                            c.waitExit(10);
                            child.drop();
                        }
                    }
                }
            }
            const bool profileFailed = !row.problem.empty(); // set by checkSourceProfile
            row.ok = row.verdict == row.expectVerdict && !profileFailed;
            if (row.verdict != row.expectVerdict)
                row.problem = "expected " + row.expectVerdict + ", got " + row.verdict + ": " + row.message;
            else if (!profileFailed && row.minSpeedup && row.verdict == "correct" && row.speedup < *row.minSpeedup) {
                row.ok = false;
                row.problem = "speedup " + fixedDecimals(row.speedup, 2) + "x is below the expected "
                              + fixedDecimals(*row.minSpeedup, 2) + "x";
            }
            log(row.task + "/" + row.variant + ": " + row.verdict
                + (row.speedup > 0 ? " " + fixedDecimals(row.speedup, 2) + "x" : "") + (row.ok ? "" : "  UNEXPECTED"));
            report.rows.push_back(std::move(row));
        }
    }
    child.finish();
    report.passed = !report.rows.empty()
                    && std::all_of(report.rows.begin(), report.rows.end(), [](const SelfTestRow &r) { return r.ok; });
    return report;
}

} // namespace kforge::runtime
