#pragma once
// The adversarial suite's manifest (tests/gpu/adversarial/cases.json) as the runner and its validator read it,
// and the small helpers they share. The checks (validate, expectation) are declared in selftestadversarial.h.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace kforge::runtime::adversarial {

using Json = nlohmann::ordered_json;

struct Case {
    std::string file;
    std::string task;
    std::string klass;
    Json expect;
    double timeoutS = 0; // 0: the task's
    std::string noSurvivor;
    std::vector<std::string> noFile; // patterns (~ and $HOME expanded, then glob) that must match nothing afterwards
    std::string followup;
    std::vector<std::string> nvccFlags;
    std::vector<std::string> unknownKeys; // keys a case may not have (the validator reports them)
};

bool parseCases(const std::filesystem::path &manifest, std::vector<Case> &cases, std::vector<std::string> &classes,
                std::string &error);

// A case file that is a Python module (a torch task's ModelNew, loaded by path); otherwise a .cu that nvcc builds.
bool isModuleFile(const std::filesystem::path &file);

// `~` or `$HOME` at the start of a no_file pattern replaced by the home directory (HOME, else the passwd entry's).
std::string expandHome(const std::string &pattern);
// The files and folders a no_file pattern matches now (glob(3) after expandHome).
std::vector<std::filesystem::path> existingPaths(const std::string &pattern);
// Empty when `pattern` may be a no_file pattern: absolute after expansion, and its last component names one of
// the suite's own marker files ("kfadv..."), so that the runner never removes anything else.
std::string noFileProblem(const std::string &pattern);

// The keys the manifest knows in an "expect" object and in a case.
extern const std::set<std::string> kExpectKeys;
extern const std::set<std::string> kCaseKeys;

std::vector<std::string> names(const Json &v); // a string or an array of strings
bool isNames(const Json &v);
std::string joined(const std::vector<std::string> &v, const char *sep);
bool has(const std::vector<std::string> &v, const std::string &x);
std::string readText(const std::filesystem::path &p, std::size_t limit = 1 << 16);

} // namespace kforge::runtime::adversarial
