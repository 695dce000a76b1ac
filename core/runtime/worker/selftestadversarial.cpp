#include "core/runtime/worker/selftestadversarial.h"

#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/isolation.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/selftest.h"
#include "core/runtime/worker/workerclient.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <sys/stat.h>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

const std::set<std::string> kExpectKeys = {"verdict",       "not_verdict", "flag",    "max_speedup",
                                           "require_flags", "mentions",    "no_flags"};
const std::set<std::string> kCaseKeys = {"file",      "task",        "class",    "expect",
                                         "timeout_s", "no_survivor", "followup", "nvcc_flags"};
const std::set<std::string> kRunnerVerdicts = {"worker_died", "worker_hung", "protocol_error", "compile_error",
                                               "load_error"};

std::vector<std::string> names(const Json &v) // a string or an array of strings
{
    if (v.is_string())
        return {v.get<std::string>()};
    std::vector<std::string> out;
    if (v.is_array())
        for (const Json &x : v)
            if (x.is_string())
                out.push_back(x.get<std::string>());
    return out;
}

bool isNames(const Json &v)
{
    return v.is_string()
           || (v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), [](const Json &x) { return x.is_string(); }));
}

std::string joined(const std::vector<std::string> &v, const char *sep)
{
    std::string out;
    for (const std::string &x : v)
        out += (out.empty() ? "" : sep) + x;
    return out;
}

bool has(const std::vector<std::string> &v, const std::string &x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

std::string readText(const fs::path &p, std::size_t limit = 1 << 16)
{
    std::ifstream in(p, std::ios::binary);
    std::string text(limit, '\0');
    in.read(text.data(), static_cast<std::streamsize>(limit));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

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

struct Case {
    std::string file;
    std::string task;
    std::string klass;
    Json expect;
    double timeoutS = 0; // 0: the task's
    std::string noSurvivor;
    std::string followup;
    std::vector<std::string> nvccFlags;
};

bool parseCases(const fs::path &manifest, std::vector<Case> &cases, std::vector<std::string> &classes, std::string &error)
{
    Json j;
    try {
        j = Json::parse(readText(manifest, 1 << 22));
    } catch (const std::exception &e) {
        error = manifest.string() + ": " + e.what();
        return false;
    }
    if (!j.is_object() || !j.contains("cases") || !j["cases"].is_array()) {
        error = manifest.string() + ": no \"cases\" array";
        return false;
    }
    classes = names(j.value("classes", Json::array()));
    for (const Json &c : j["cases"]) {
        if (!c.is_object()) {
            error = manifest.string() + ": a case is not an object";
            return false;
        }
        Case x;
        x.file = c.value("file", "");
        x.task = c.value("task", "");
        x.klass = c.value("class", "");
        x.expect = c.value("expect", Json());
        x.timeoutS = c.value("timeout_s", 0.0);
        x.noSurvivor = c.value("no_survivor", "");
        x.followup = c.value("followup", "");
        x.nvccFlags = names(c.value("nvcc_flags", Json::array()));
        for (const auto &[key, value] : c.items())
            if (!kCaseKeys.count(key))
                x.expect["__unknown_case_key"] = key;
        cases.push_back(std::move(x));
    }
    return true;
}

} // namespace

std::string defaultAdversarialManifest()
{
#ifdef KFORGE_SOURCE_ADVERSARIAL_MANIFEST
    return KFORGE_SOURCE_ADVERSARIAL_MANIFEST;
#else
    return "tests/gpu/adversarial/cases.json";
#endif
}

std::string describeAdversarialExpectation(const Json &e)
{
    std::vector<std::string> parts;
    if (e.contains("verdict"))
        parts.push_back(joined(names(e["verdict"]), "|"));
    if (e.contains("not_verdict"))
        parts.push_back("not " + e["not_verdict"].get<std::string>());
    if (e.contains("flag"))
        parts.push_back("caught:" + joined(names(e["flag"]), "|"));
    if (e.contains("max_speedup"))
        parts.push_back("<=" + fixedDecimals(e["max_speedup"].get<double>(), 1) + "x");
    if (e.contains("require_flags"))
        parts.push_back("+" + joined(names(e["require_flags"]), "+"));
    if (e.contains("mentions"))
        parts.push_back("~" + e["mentions"].get<std::string>());
    if (e.value("no_flags", false))
        parts.push_back("no flags");
    return joined(parts, " ");
}

std::string checkAdversarialExpectation(const Json &e, const AdversarialOutcome &o)
{
    if (!e.is_object() || e.empty())
        return "the case has no expectation";
    for (const auto &[key, value] : e.items())
        if (!kExpectKeys.count(key))
            return "unknown expect key '" + key + "'";
    // A runner verdict is wrong unless the case names it (a library refused at load for tampering).
    if (kRunnerVerdicts.count(o.verdict) && !(e.contains("verdict") && has(names(e["verdict"]), o.verdict)))
        return o.verdict + ": " + o.message;
    const bool correct = o.verdict == "correct";
    if (e.contains("verdict") && !has(names(e["verdict"]), o.verdict))
        return "expected " + joined(names(e["verdict"]), " or ") + ", got " + o.verdict + ": " + o.message;
    if (e.contains("not_verdict") && o.verdict == e["not_verdict"].get<std::string>())
        return "must not be " + o.verdict + ": " + o.message;
    const bool limited = e.contains("max_speedup");
    const double limit = limited ? e["max_speedup"].get<double>() : 0;
    if (correct && e.contains("flag")) {
        const std::vector<std::string> wanted = names(e["flag"]);
        const bool caught = std::any_of(wanted.begin(), wanted.end(),
                                        [&](const std::string &f) { return has(o.flags, f); });
        if (!caught && !(limited && o.speedup <= limit))
            return "not caught: correct at " + fixedDecimals(o.speedup, 2) + "x without " + joined(wanted, " or ")
                   + (limited ? " and faster than the honest " + fixedDecimals(limit, 2) + "x" : "");
    } else if (correct && limited && o.speedup > limit) {
        return "correct at " + fixedDecimals(o.speedup, 2) + "x, above the honest " + fixedDecimals(limit, 2) + "x";
    }
    for (const std::string &f : names(e.value("require_flags", Json::array())))
        if (!has(o.flags, f))
            return "flag " + f + " missing (flags: " + joined(o.flags, ",") + ")";
    if (e.contains("mentions")) {
        const std::string m = e["mentions"].get<std::string>();
        if (!has(o.flags, m) && o.message.find(m) == std::string::npos && o.reason.find(m) == std::string::npos)
            return "no mention of " + m + " in the flags, the message or the reason: " + o.message;
    }
    if (e.value("no_flags", false) && !o.flags.empty())
        return "unexpected flags: " + joined(o.flags, ",");
    return {};
}

std::vector<std::string> validateAdversarialManifest(const fs::path &manifest, const fs::path &tasksDir)
{
    std::vector<std::string> problems;
    std::vector<Case> cases;
    std::vector<std::string> classes;
    std::string error;
    if (!parseCases(manifest, cases, classes, error))
        return {error};
    if (classes.empty())
        problems.push_back("no \"classes\" list");
    const fs::path dir = manifest.parent_path();
    std::set<std::string> listed, covered, tasksOk;
    for (const Case &c : cases) {
        const std::string where = c.file.empty() ? std::string("a case") : c.file;
        if (c.expect.contains("__unknown_case_key"))
            problems.push_back(where + ": unknown key '" + c.expect["__unknown_case_key"].get<std::string>() + "'");
        if (!listed.insert(c.file).second)
            problems.push_back(where + ": listed twice");
        std::error_code ec;
        if (fs::path(c.file).extension() != ".cu" || !fs::is_regular_file(dir / c.file, ec))
            problems.push_back(where + ": no such kernel in " + dir.string());
        else if (const std::string head = readText(dir / c.file, 64);
                 head.rfind("// Class ", 0) != 0 && head.rfind("// Honest", 0) != 0)
            problems.push_back(where + ": no header comment (\"// Class N (...)\" or \"// Honest: ...\")");
        if (!tasksOk.count(c.task)) {
            const TaskSpecResult r = loadTaskFolder(tasksDir / c.task);
            if (r.ok())
                tasksOk.insert(c.task);
            else
                problems.push_back(where + ": task '" + c.task + "': " + r.error.message());
        }
        if (!has(classes, c.klass))
            problems.push_back(where + ": class '" + c.klass + "' is not in \"classes\"");
        covered.insert(c.klass);
        Json probe = c.expect;
        probe.erase("__unknown_case_key");
        for (const auto &[key, value] : probe.items()) {
            const bool typeOk = key == "max_speedup"                        ? value.is_number()
                                : key == "no_flags"                         ? value.is_boolean()
                                : key == "not_verdict" || key == "mentions" ? value.is_string()
                                                                            : isNames(value);
            if (!kExpectKeys.count(key))
                problems.push_back(where + ": unknown expect key '" + key + "'");
            else if (!typeOk)
                problems.push_back(where + ": expect." + key + " has the wrong type");
        }
        if (probe.empty() || !probe.is_object())
            problems.push_back(where + ": no expect");
        if (c.klass == "honest" && !(probe.value("verdict", "") == "correct" && probe.value("no_flags", false)))
            problems.push_back(where + ": an honest case must expect verdict correct and no_flags");
        if (c.klass != "honest" && probe.is_object() && !probe.contains("verdict") && !probe.contains("not_verdict")
            && !probe.contains("flag") && !probe.contains("max_speedup"))
            problems.push_back(where + ": a cheat's expect must say how it is caught");
    }
    for (const Case &c : cases)
        if (!c.followup.empty() && !listed.count(c.followup))
            problems.push_back(c.file + ": followup '" + c.followup + "' is not a case");
    for (const std::string &k : classes)
        if (!covered.count(k))
            problems.push_back("class '" + k + "' has no case");
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".cu" && !listed.count(entry.path().filename().string()))
            problems.push_back(entry.path().filename().string() + ": not listed in " + manifest.filename().string());
    return problems;
}

namespace {

struct Prepared {
    Case c;
    TaskSpec task;
    fs::path reference; // .so
    fs::path kernel;    // .so
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
            o.verdict = what == "evaluate" ? "protocol_error" : "load_error";
            o.message = what + ": " + r.message.value("error", Json::object()).dump();
        } else {
            return false;
        }
        return true;
    };
    for (const auto &[slot, path] : {std::pair{"reference", p.reference}, std::pair{"candidate", p.kernel}})
        if (failed(client.request(Json{{"op", "load"}, {"slot", slot}, {"path", path.string()}}, 120),
                   std::string("load ") + slot))
            return o;
    Json task = toJson(p.task);
    const double timeoutS = p.c.timeoutS > 0 ? p.c.timeoutS : p.task.timeoutS;
    task["timeout_s"] = timeoutS;
    const WorkerClient::Reply reply =
        client.request(Json{{"op", "evaluate"}, {"task", task}, {"options", options.toJson()}}, timeoutS + 60);
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
        cells.push_back({r.file, r.klass, r.outcome.verdict, r.outcome.speedup > 0 ? fixedDecimals(r.outcome.speedup, 2) + "x" : "-",
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
    std::vector<Case> cases;
    std::vector<std::string> classes;
    parseCases(manifest, cases, classes, report.error);

    std::string arch;
    {
        WorkerClient probe(config.workerArgv);
        std::string error;
        if (!probe.start(error)) {
            report.error = "cannot start a worker: " + error;
            return report;
        }
        const WorkerClient::Reply info = probe.request(Json{{"op", "device_info"}}, 120);
        probe.request(Json{{"op", "shutdown"}}, 10);
        if (!probe.waitExit(10))
            probe.kill();
        if (!info.ok() || !info.message.value("ok", false)) {
            report.noDevice = info.ok() && info.message["error"].value("code", "") == "no_device";
            report.error = report.noDevice ? info.message["error"].value("message", "no CUDA device")
                                           : "device_info failed: " + (info.ok() ? info.message.dump() : info.detail);
            return report;
        }
        arch = info.message["device"].value("arch", "sm_90");
        report.device = info.message["device"].value("name", "?") + " (" + arch + ")";
    }
    log("device: " + report.device);

    // Compile every reference and every case at once.
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
        if (!referenceJob.count(c.task)) {
            referenceJob[c.task] = jobs.size();
            jobs.push_back({fs::absolute(tasksDir / c.task / "reference.cu"), buildDir / (c.task + "-reference.so"),
                            p.task.nvccFlags});
            jobOwner.push_back({});
        }
        p.reference = jobs[referenceJob[c.task]].output;
        std::vector<std::string> flags = p.task.nvccFlags;
        flags.insert(flags.end(), c.nvccFlags.begin(), c.nvccFlags.end());
        p.kernel = buildDir / (fs::path(c.file).stem().string() + ".so");
        jobs.push_back({fs::absolute(manifest.parent_path() / c.file), p.kernel, flags});
        jobOwner.push_back(c.file);
        prepared.emplace(c.file, std::move(p));
    }
    log("compiling " + std::to_string(jobs.size()) + " kernels for " + arch);
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

    for (const Case &c : cases) {
        if (!config.onlyCases.empty() && !has(config.onlyCases, c.file))
            continue;
        const Prepared &p = prepared.at(c.file);
        AdversarialRow row{c.file, c.task, c.klass, {}, c.expect, false, {}};
        bool forged = false;
        WorkerClient client(config.workerArgv);
        std::string error;
        if (!client.start(error)) {
            row.outcome = {"worker_died", {}, 0, "cannot start a worker: " + error, {}};
        } else {
            row.outcome = evaluateCase(client, p, config.options, forged);
        }
        std::vector<AdversarialRow> extra;
        const bool survived = client.running() && row.outcome.verdict != "worker_hung"
                              && client.request(Json{{"op", "hello"}, {"protocol", 1}}, 20).ok();
        // A hang or a crash that leaves the judge's stream waiting for a host that is gone ends in a reply with
        // restart_required and a fresh worker (the client starts one): that is the designed outcome.
        const bool restartAsked = row.outcome.restartRequired;
        if (!survived && !restartAsked && !kRunnerVerdicts.count(row.outcome.verdict))
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
            extra.push_back(std::move(next));
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
                row.ok = false;
                row.problem += (row.problem.empty() ? "" : "; ") + std::to_string(alive.size()) + " process(es) named "
                               + c.noSurvivor + " outlived the worker (killed now)";
                for (pid_t pid : alive)
                    ::kill(pid, SIGKILL);
            }
        }
        log(row.file + ": " + row.outcome.verdict + (row.outcome.speedup > 0 ? " " + fixedDecimals(row.outcome.speedup, 2) + "x" : "")
            + (row.ok ? "" : "  WRONG: " + row.problem));
        report.rows.push_back(std::move(row));
        for (AdversarialRow &x : extra) {
            log(x.file + ": " + x.outcome.verdict + (x.ok ? "" : "  WRONG: " + x.problem));
            report.rows.push_back(std::move(x));
        }
    }
    report.passed = !report.rows.empty()
                    && std::all_of(report.rows.begin(), report.rows.end(), [](const AdversarialRow &r) { return r.ok; });
    return report;
}

} // namespace kforge::runtime

namespace kforge::runtime {

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
