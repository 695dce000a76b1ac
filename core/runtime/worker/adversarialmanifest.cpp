#include "core/runtime/worker/adversarialmanifest.h"

#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/selftest.h"
#include "core/runtime/worker/selftestadversarial.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <glob.h>
#include <pwd.h>
#include <unistd.h>

namespace kforge::runtime {
namespace adversarial {

namespace fs = std::filesystem;

const std::set<std::string> kExpectKeys = {"verdict",       "not_verdict", "flag",    "max_speedup",
                                           "require_flags", "mentions",    "no_flags"};
const std::set<std::string> kCaseKeys = {"file",        "task",    "class",    "expect",    "timeout_s",
                                         "no_survivor", "no_file", "followup", "nvcc_flags"};

namespace {

std::string homeDir()
{
    if (const char *h = std::getenv("HOME"); h && *h)
        return h;
    if (const passwd *pw = ::getpwuid(::getuid()); pw && pw->pw_dir)
        return pw->pw_dir;
    return {};
}

} // namespace

std::vector<std::string> names(const Json &v)
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

std::string readText(const fs::path &p, std::size_t limit)
{
    std::ifstream in(p, std::ios::binary);
    std::string text(limit, '\0');
    in.read(text.data(), static_cast<std::streamsize>(limit));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

bool isModuleFile(const fs::path &file)
{
    return file.extension() == ".py";
}

std::string expandHome(const std::string &pattern)
{
    for (const char *prefix : {"~", "$HOME", "${HOME}"}) {
        const std::string p = prefix;
        if (pattern == p || pattern.rfind(p + "/", 0) == 0)
            return homeDir() + pattern.substr(p.size());
    }
    return pattern;
}

std::vector<fs::path> existingPaths(const std::string &pattern)
{
    std::vector<fs::path> out;
    glob_t g{};
    if (::glob(expandHome(pattern).c_str(), GLOB_NOSORT, nullptr, &g) == 0)
        for (std::size_t i = 0; i < g.gl_pathc; ++i)
            out.emplace_back(g.gl_pathv[i]);
    ::globfree(&g);
    return out;
}

std::string noFileProblem(const std::string &pattern)
{
    const std::string expanded = expandHome(pattern);
    if (expanded.empty() || expanded.front() != '/')
        return "no_file '" + pattern + "' is not an absolute path (or one starting with ~ or $HOME)";
    if (fs::path(expanded).filename().string().rfind("kfadv", 0) != 0)
        return "no_file '" + pattern + "' must name a file starting with \"kfadv\" (the runner removes what it finds)";
    return {};
}

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
        x.noFile = names(c.value("no_file", Json::array()));
        if (c.contains("no_file") && !isNames(c["no_file"]))
            x.noFile.push_back({}); // the validator reports it
        x.followup = c.value("followup", "");
        x.nvccFlags = names(c.value("nvcc_flags", Json::array()));
        for (const auto &[key, value] : c.items())
            if (!kCaseKeys.count(key))
                x.unknownKeys.push_back(key);
        cases.push_back(std::move(x));
    }
    return true;
}

} // namespace adversarial

using adversarial::Case;
using adversarial::has;
using adversarial::isModuleFile;
using adversarial::isNames;
using adversarial::joined;
using adversarial::Json;
using adversarial::kExpectKeys;
using adversarial::names;
using adversarial::noFileProblem;
using adversarial::readText;

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
    static const std::set<std::string> runnerVerdicts = {"worker_died", "worker_hung", "protocol_error",
                                                         "compile_error", "load_error"};
    if (!e.is_object() || e.empty())
        return "the case has no expectation";
    for (const auto &[key, value] : e.items())
        if (!kExpectKeys.count(key))
            return "unknown expect key '" + key + "'";
    // A runner verdict is wrong unless the case names it (a library refused at load for tampering, a module whose
    // constructor raises).
    if (runnerVerdicts.count(o.verdict) && !(e.contains("verdict") && has(names(e["verdict"]), o.verdict)))
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

namespace {

namespace fs = std::filesystem;

// The problems of one case's file: its kind against the task's, its header comment, a module's class.
void checkCaseFile(const Case &c, const fs::path &dir, const TaskSpec *task, std::vector<std::string> &problems)
{
    const std::string where = c.file.empty() ? std::string("a case") : c.file;
    const fs::path file = dir / c.file;
    const bool module = isModuleFile(c.file);
    std::error_code ec;
    if ((fs::path(c.file).extension() != ".cu" && !module) || !fs::is_regular_file(file, ec)) {
        problems.push_back(where + ": no such kernel or module in " + dir.string());
        return;
    }
    if (module && task && task->kind != TaskKind::Torch)
        problems.push_back(where + ": a Python module needs a torch task, and '" + c.task + "' is a CUDA task");
    const char *comment = module ? "#" : "//";
    const std::string head = readText(file, 64);
    if (head.rfind(std::string(comment) + " Class ", 0) != 0 && head.rfind(std::string(comment) + " Honest", 0) != 0)
        problems.push_back(where + ": no header comment (\"" + comment + " Class N (...)\" or \"" + comment
                           + " Honest: ...\")");
    if (module && readText(file, 1 << 20).find("class ModelNew(") == std::string::npos)
        problems.push_back(where + ": defines no class ModelNew");
}

void checkExpect(const Case &c, std::vector<std::string> &problems)
{
    const std::string where = c.file.empty() ? std::string("a case") : c.file;
    const Json &probe = c.expect;
    if (probe.empty() || !probe.is_object()) {
        problems.push_back(where + ": no expect");
        return;
    }
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
    if (c.klass == "honest" && !(probe.value("verdict", "") == "correct" && probe.value("no_flags", false)))
        problems.push_back(where + ": an honest case must expect verdict correct and no_flags");
    if (c.klass != "honest" && !probe.contains("verdict") && !probe.contains("not_verdict") && !probe.contains("flag")
        && !probe.contains("max_speedup"))
        problems.push_back(where + ": a cheat's expect must say how it is caught");
}

} // namespace

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
    std::set<std::string> listed, covered;
    std::map<std::string, std::optional<TaskSpec>> tasks; // by name; empty when it does not load
    for (const Case &c : cases) {
        const std::string where = c.file.empty() ? std::string("a case") : c.file;
        for (const std::string &key : c.unknownKeys)
            problems.push_back(where + ": unknown key '" + key + "'");
        if (!listed.insert(c.file).second)
            problems.push_back(where + ": listed twice");
        if (!tasks.count(c.task)) {
            TaskSpecResult r = loadTaskFolder(tasksDir / c.task);
            if (!r.ok())
                problems.push_back(where + ": task '" + c.task + "': " + r.error.message());
            tasks[c.task] = std::move(r.spec);
        }
        const std::optional<TaskSpec> &task = tasks[c.task];
        checkCaseFile(c, dir, task ? &*task : nullptr, problems);
        if (!has(classes, c.klass))
            problems.push_back(where + ": class '" + c.klass + "' is not in \"classes\"");
        covered.insert(c.klass);
        for (const std::string &pattern : c.noFile)
            if (const std::string p = noFileProblem(pattern); !p.empty())
                problems.push_back(where + ": " + p);
        checkExpect(c, problems);
    }
    for (const Case &c : cases)
        if (!c.followup.empty() && !listed.count(c.followup))
            problems.push_back(c.file + ": followup '" + c.followup + "' is not a case");
    for (const std::string &k : classes)
        if (!covered.count(k))
            problems.push_back("class '" + k + "' has no case");
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir, ec))
        if ((entry.path().extension() == ".cu" || isModuleFile(entry.path()))
            && !listed.count(entry.path().filename().string()))
            problems.push_back(entry.path().filename().string() + ": not listed in " + manifest.filename().string());
    return problems;
}

} // namespace kforge::runtime
