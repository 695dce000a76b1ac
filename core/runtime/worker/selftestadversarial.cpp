#include "core/runtime/worker/selftestadversarial.h"

#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/adversarialmanifest.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/selftest.h"
#include "core/runtime/worker/workerprocess.h"
#include "core/runtime/worker/workerserver.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <sys/stat.h>

namespace kforge::runtime {
namespace {

using adversarial::Case;
using adversarial::existingPaths;
using adversarial::has;
using adversarial::isModuleFile;
using adversarial::joined;
using adversarial::Json;
using adversarial::parseCases;
using adversarial::readText;
namespace fs = std::filesystem;

const std::set<std::string> kRunnerVerdicts = {"worker_died", "worker_hung", "protocol_error", "compile_error",
                                               "load_error"};

// Processes of this user whose name (comm) is `name`.
std::vector<pid_t> processesNamed(const std::string &name)
{
    std::vector<pid_t> out;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator("/proc", ec)) {
        const std::string pid = entry.path().filename().string();
        if (pid.empty() || !std::all_of(pid.begin(), pid.end(), ::isdigit))
            continue;
        struct stat st {
        };
        if (::stat(entry.path().c_str(), &st) != 0 || st.st_uid != ::getuid())
            continue;
        std::string comm = readText(entry.path() / "comm", 64);
        while (!comm.empty() && comm.back() == '\n')
            comm.pop_back();
        if (comm == name)
            out.push_back(static_cast<pid_t>(std::stol(pid)));
    }
    return out;
}

// Removes what the case's no_file patterns match; returns what it removed.
std::vector<std::string> removeMatches(const std::vector<std::string> &patterns)
{
    std::vector<std::string> removed;
    for (const std::string &pattern : patterns)
        for (const fs::path &p : existingPaths(pattern)) {
            std::error_code ec;
            fs::remove_all(p, ec);
            removed.push_back(p.string());
        }
    return removed;
}

// What one case loads: each side a path, a kernel library built here (.so) or a Python module as it is (.py).
struct Prepared {
    Case c;
    TaskSpec task;
    fs::path reference;
    fs::path kernel;
    std::string buildError;
};

// A forged reply reached the client when the reply (or an event) the client took is the forger's line: its
// message starts with the marker. The marker quoted inside the judge's own text (the candidate's captured
// stdout/stderr, a crash message with its stderr tail) is output, not a reply.
bool carriesMarker(const WorkerClient::Reply &reply)
{
    const auto forgedLine = [](const Json &m) {
        if (!m.is_object())
            return false;
        const Json *r = m.contains("result") && m["result"].is_object() ? &m["result"] : &m;
        return r->contains("message") && (*r)["message"].is_string()
               && (*r)["message"].get<std::string>().rfind(kForgedMarker, 0) == 0;
    };
    return forgedLine(reply.message) || std::any_of(reply.events.begin(), reply.events.end(), forgedLine);
}

// Loads both sides and evaluates one case in `client`; `forged` is set when a reply carried the marker.
AdversarialOutcome evaluateCase(WorkerClient &client, const Prepared &p, const EvalOptions &options, bool &forged)
{
    AdversarialOutcome o;
    if (!p.buildError.empty()) {
        o.verdict = "compile_error";
        o.message = p.buildError;
        return o;
    }
    const auto failed = [&](const WorkerClient::Reply &r, const std::string &what) {
        forged = forged || carriesMarker(r);
        if (r.status == WorkerClient::Reply::Status::Timeout) {
            o.verdict = "worker_hung";
            o.message = "no reply to " + what + ": " + r.detail;
        } else if (r.status == WorkerClient::Reply::Status::Died) {
            o.verdict = "worker_died";
            o.message = "the worker died during " + what + ": " + r.detail;
        } else if (!r.message.value("ok", false)) {
            // A module's host starts at the evaluation: its load failure (import, constructor, state dict) is
            // the evaluate request's load_failed.
            const std::string code = r.message.value("error", Json::object()).value("code", std::string());
            o.verdict = what == "evaluate" && code != "load_failed" ? "protocol_error" : "load_error";
            o.message = what + ": " + r.message.value("error", Json::object()).dump();
        } else {
            return false;
        }
        return true;
    };
    const double timeoutS = p.c.timeoutS > 0 ? p.c.timeoutS : p.task.timeoutS;
    // A module may be built at load (its constructor: a load_inline or torch.compile build), within the case's time.
    const double loadWaitS = std::max(120.0, timeoutS + 60);
    for (const auto &[slot, path] : {std::pair{"reference", p.reference}, std::pair{"candidate", p.kernel}})
        if (failed(client.request(Json{{"op", "load"}, {"slot", slot}, {"path", path.string()}}, loadWaitS),
                   std::string("load ") + slot))
            return o;
    Json task = toJson(p.task);
    task["timeout_s"] = timeoutS;
    const WorkerClient::Reply reply =
        client.request(Json{{"op", "evaluate"}, {"task", task}, {"options", options.toJson()}},
                       timeoutS + 60 + (p.task.kind == TaskKind::Torch ? WorkerServer::kModuleInitS : 0.0));
    if (failed(reply, "evaluate"))
        return o;
    forged = forged || carriesMarker(reply);
    const Json &res = reply.message["result"];
    o.verdict = res.value("verdict", "?");
    o.message = res.value("message", "");
    o.flags = res.value("flags", std::vector<std::string>{});
    o.restartRequired = res.value("restart_required", false);
    if (res.contains("timing") && res["timing"].is_object())
        o.speedup = res["timing"].value("speedup", 0.0);
    if (res.contains("verification") && res["verification"].is_object())
        o.reason = res["verification"].value("reason", "");
    return o;
}

void finishRow(AdversarialRow &row, bool forged)
{
    row.problem = checkAdversarialExpectation(row.expect, row.outcome);
    if (forged)
        row.problem = "a forged reply (marker " + std::string(kForgedMarker) + ") reached the client"
                      + (row.problem.empty() ? "" : "; " + row.problem);
    row.ok = row.problem.empty();
    if (!row.ok && !row.outcome.message.empty()) // what the worker said, for the report
        row.problem += " [worker: " + row.outcome.message.substr(0, 400) + "]";
}

void addProblem(AdversarialRow &row, const std::string &problem)
{
    row.ok = false;
    row.problem += (row.problem.empty() ? "" : "; ") + problem;
}

// The device's name and architecture from a throwaway worker; false (and report.error) when there is none.
bool probeDevice(const AdversarialConfig &config, AdversarialReport &report, std::string &arch)
{
    WorkerClient probe(config.workerArgv);
    std::string error;
    if (!probe.start(error)) {
        report.error = "cannot start a worker: " + error;
        return false;
    }
    const WorkerClient::Reply info = probe.request(Json{{"op", "device_info"}}, 120);
    probe.request(Json{{"op", "shutdown"}}, 10);
    if (!probe.waitExit(10))
        probe.kill();
    if (!info.ok() || !info.message.value("ok", false)) {
        report.noDevice = info.ok() && info.message["error"].value("code", "") == "no_device";
        report.error = report.noDevice ? info.message["error"].value("message", "no CUDA device")
                                       : "device_info failed: " + (info.ok() ? info.message.dump() : info.detail);
        return false;
    }
    arch = info.message["device"].value("arch", "sm_90");
    report.device = info.message["device"].value("name", "?") + " (" + arch + ")";
    return true;
}

// Every side the selected cases need, by case file: a CUDA task's reference.cu and every .cu case compiled at once
// with the task's nvcc_flags; a torch task's reference (its "reference", a .py) and every .py case as they are.
std::map<std::string, Prepared> prepareCases(const std::vector<Case> &cases, const fs::path &manifest,
                                             const fs::path &tasksDir, const std::string &arch,
                                             const AdversarialConfig &config)
{
    const fs::path buildDir = (TempDir::path().empty() ? fs::temp_directory_path() : TempDir::path()) / "adversarial";
    std::error_code ec;
    fs::create_directories(buildDir, ec);
    std::map<std::string, Prepared> prepared; // by file
    std::map<std::string, std::size_t> referenceJob;
    std::vector<NvccJob> jobs;
    std::vector<std::string> jobOwner; // file, or "" for a reference
    for (const Case &c : cases) {
        TaskSpecResult r = loadTaskFolder(tasksDir / c.task);
        Prepared p{c, std::move(*r.spec), {}, {}, {}};
        if (p.task.kind == TaskKind::Torch) {
            p.reference = fs::absolute(tasksDir / c.task / p.task.reference);
        } else {
            if (!referenceJob.count(c.task)) {
                referenceJob[c.task] = jobs.size();
                jobs.push_back({fs::absolute(tasksDir / c.task / "reference.cu"), buildDir / (c.task + "-reference.so"),
                                p.task.nvccFlags});
                jobOwner.push_back({});
            }
            p.reference = jobs[referenceJob[c.task]].output;
        }
        if (isModuleFile(c.file)) {
            p.kernel = fs::absolute(manifest.parent_path() / c.file);
        } else {
            std::vector<std::string> flags = p.task.nvccFlags;
            flags.insert(flags.end(), c.nvccFlags.begin(), c.nvccFlags.end());
            p.kernel = buildDir / (fs::path(c.file).stem().string() + ".so");
            jobs.push_back({fs::absolute(manifest.parent_path() / c.file), p.kernel, flags});
            jobOwner.push_back(c.file);
        }
        prepared.emplace(c.file, std::move(p));
    }
    if (jobs.empty())
        return prepared;
    if (config.log)
        config.log("compiling " + std::to_string(jobs.size()) + " kernels for " + arch);
    const std::vector<NvccResult> built = compileKernels(jobs, arch, config.parallelCompiles);
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (!built[i].ok) {
            std::istringstream in(built[i].log);
            std::string first, line;
            for (int n = 0; n < 4 && std::getline(in, line); ++n)
                first += (first.empty() ? "" : " | ") + line;
            for (auto &[file, p] : prepared)
                if (jobOwner[i] == file || (jobOwner[i].empty() && p.reference == jobs[i].output))
                    p.buildError = jobs[i].source.filename().string() + " does not compile: " + first;
        }
    return prepared;
}

// One case in a fresh worker (and its followup in the same worker); the rows it gives.
std::vector<AdversarialRow> runCase(const Case &c, const std::map<std::string, Prepared> &prepared,
                                    const AdversarialConfig &config)
{
    const Prepared &p = prepared.at(c.file);
    AdversarialRow row{c.file, c.task, c.klass, {}, c.expect, false, {}};
    std::vector<AdversarialRow> rows;
    // A marker file left by an earlier run would be taken for this case's escape.
    if (const std::vector<std::string> stale = removeMatches(c.noFile); !stale.empty() && config.log)
        config.log(c.file + ": removed leftovers of an earlier run: " + joined(stale, ", "));
    bool forged = false;
    WorkerClient client(config.workerArgv);
    std::string error;
    if (!client.start(error))
        row.outcome = {"worker_died", {}, 0, "cannot start a worker: " + error, {}};
    else
        row.outcome = evaluateCase(client, p, config.options, forged);
    const bool survived = client.running() && row.outcome.verdict != "worker_hung"
                          && client.request(Json{{"op", "hello"}, {"protocol", 1}}, 20).ok();
    // A hang or a crash that leaves the judge's stream waiting for a host that is gone ends in a reply with
    // restart_required and a fresh worker (the client starts one): that is the designed outcome.
    if (!survived && !row.outcome.restartRequired && !kRunnerVerdicts.count(row.outcome.verdict))
        row.outcome = {"worker_died",
                       row.outcome.flags,
                       row.outcome.speedup,
                       "the worker did not survive the case (after " + row.outcome.verdict + ")",
                       {}};
    if (survived && !c.followup.empty()) { // the same worker, right after: must be unaffected
        const Prepared &f = prepared.at(c.followup);
        AdversarialRow next{f.c.file + " (after " + c.file + ")", f.c.task, f.c.klass, {}, f.c.expect, false, {}};
        bool forgedNext = false;
        next.outcome = evaluateCase(client, f, config.options, forgedNext);
        finishRow(next, forgedNext);
        rows.push_back(std::move(next));
    }
    if (client.running()) {
        client.request(Json{{"op", "shutdown"}}, 10);
        if (!client.waitExit(15))
            client.kill();
    }
    finishRow(row, forged);
    if (!c.noSurvivor.empty()) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        const std::vector<pid_t> alive = processesNamed(c.noSurvivor);
        if (!alive.empty()) {
            addProblem(row, std::to_string(alive.size()) + " process(es) named " + c.noSurvivor
                                + " outlived the worker (killed now)");
            for (pid_t pid : alive)
                ::kill(pid, SIGKILL);
        }
    }
    if (const std::vector<std::string> escaped = removeMatches(c.noFile); !escaped.empty())
        addProblem(row, "written outside the sandbox (removed now): " + joined(escaped, ", "));
    rows.insert(rows.begin(), std::move(row));
    return rows;
}

} // namespace

Json toJson(const AdversarialRow &r)
{
    return Json{{"file", r.file},
                {"task", r.task},
                {"class", r.klass},
                {"verdict", r.outcome.verdict},
                {"speedup", r.outcome.speedup},
                {"flags", r.outcome.flags},
                {"message", r.outcome.message},
                {"expect", r.expect},
                {"ok", r.ok},
                {"problem", r.problem}};
}

std::string formatAdversarialTable(const std::vector<AdversarialRow> &rows)
{
    std::vector<std::vector<std::string>> cells;
    cells.push_back({"case", "class", "verdict", "speedup", "flags", "expected", "ok"});
    for (const AdversarialRow &r : rows)
        cells.push_back({r.file, r.klass, r.outcome.verdict,
                         r.outcome.speedup > 0 ? fixedDecimals(r.outcome.speedup, 2) + "x" : "-",
                         r.outcome.flags.empty() ? "-" : joined(r.outcome.flags, ","),
                         describeAdversarialExpectation(r.expect), r.ok ? "ok" : "WRONG"});
    std::string out = textTable(cells);
    for (const AdversarialRow &r : rows)
        if (!r.ok)
            out += "  " + r.file + ": " + r.problem + "\n";
    return out;
}

AdversarialReport runAdversarial(const AdversarialConfig &config)
{
    AdversarialReport report;
    const auto log = [&](const std::string &line) {
        if (config.log)
            config.log(line);
    };
    const fs::path manifest = config.manifest.empty() ? fs::path(defaultAdversarialManifest()) : fs::path(config.manifest);
    const fs::path tasksDir = config.tasksDir.empty() ? fs::path(defaultTasksDir()) : fs::path(config.tasksDir);
    const std::vector<std::string> problems = validateAdversarialManifest(manifest, tasksDir);
    if (!problems.empty()) {
        report.error = "the manifest " + manifest.string() + " is not valid: " + joined(problems, "; ");
        return report;
    }
    std::vector<Case> all;
    std::vector<std::string> classes;
    parseCases(manifest, all, classes, report.error);
    // The cases asked for (--case), and the followups they name: only those are built and run.
    std::vector<std::string> wanted;
    for (const Case &c : all)
        if (config.onlyCases.empty() || has(config.onlyCases, c.file))
            wanted.push_back(c.file);
    for (const std::string &file : config.onlyCases)
        if (!has(wanted, file)) {
            report.error = "no case '" + file + "' in " + manifest.string();
            return report;
        }
    std::vector<Case> cases, needed;
    for (const Case &c : all) {
        if (has(wanted, c.file))
            cases.push_back(c);
        if (has(wanted, c.file) || std::any_of(all.begin(), all.end(), [&](const Case &x) {
                return has(wanted, x.file) && x.followup == c.file;
            }))
            needed.push_back(c);
    }

    std::string arch;
    if (!probeDevice(config, report, arch))
        return report;
    log("device: " + report.device);
    const std::map<std::string, Prepared> prepared = prepareCases(needed, manifest, tasksDir, arch, config);
    for (const Case &c : cases)
        for (AdversarialRow &row : runCase(c, prepared, config)) {
            log(row.file + ": " + row.outcome.verdict
                + (row.outcome.speedup > 0 ? " " + fixedDecimals(row.outcome.speedup, 2) + "x" : "")
                + (row.ok ? "" : "  WRONG: " + row.problem));
            report.rows.push_back(std::move(row));
        }
    report.passed = !report.rows.empty()
                    && std::all_of(report.rows.begin(), report.rows.end(), [](const AdversarialRow &r) { return r.ok; });
    return report;
}

int runAdversarialCommand(const AdversarialConfig &config, bool json)
{
    const AdversarialReport report = runAdversarial(config);
    if (report.noDevice) {
        std::fprintf(stderr, "%s\n", report.error.c_str());
        return 2;
    }
    if (!report.error.empty()) {
        std::fprintf(stderr, "kforge-worker --adversarial: %s\n", report.error.c_str());
        return 1;
    }
    if (json) {
        Json rows = Json::array();
        for (const AdversarialRow &r : report.rows)
            rows.push_back(toJson(r));
        std::printf(
            "%s\n",
            Json{{"suite", "adversarial"}, {"device", report.device}, {"rows", rows}, {"passed", report.passed}}.dump(1).c_str());
    } else {
        std::printf("kforge-worker --adversarial on %s\n%s%s\n", report.device.c_str(),
                    formatAdversarialTable(report.rows).c_str(), report.passed ? "PASSED" : "FAILED");
    }
    std::fflush(stdout);
    return report.passed ? 0 : 1;
}

} // namespace kforge::runtime
