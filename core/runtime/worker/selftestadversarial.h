#pragma once
// The adversarial suite (issue 19; tests/gpu/adversarial): kernels and PyTorch modules (issue 34) that try to
// cheat the measurement, and honest ones that must stay clean, listed with what KForge must report in cases.json.
// runAdversarial() compiles every .cu it needs with nvcc (the task's flags; a torch task's reference and .py cases
// are loaded by path), evaluates each case in a fresh worker through the protocol and checks the result against
// the case's "expect", no_survivor and no_file (docs/adversarial.md). `kforge-worker --adversarial` runs it, and
// `--self-test --adversarial` after the built-in tasks. The manifest's reading: adversarialmanifest.h.
#include "core/runtime/worker/judgeoptions.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace kforge::runtime {

struct AdversarialConfig {
    AdversarialConfig()
    {
        options.minTimeMs = 300;
        options.metrics = false; // the suite checks verdicts, flags and speed; the trace stays on
    }
    std::string manifest;                // empty: defaultAdversarialManifest()
    std::string tasksDir;                // empty: defaultTasksDir()
    std::vector<std::string> workerArgv; // the worker's command line (one fresh worker per case)
    std::vector<std::string> onlyCases;  // file names (only these and their followups are built); empty: all
    EvalOptions options;
    unsigned parallelCompiles = 0;
    std::function<void(const std::string &)> log;
};

// What one evaluation came to, as the checks see it. Verdicts the runner sets itself: worker_died,
// worker_hung, protocol_error, compile_error, load_error (none of them is ever an expected outcome).
struct AdversarialOutcome {
    std::string verdict;
    std::vector<std::string> flags;
    double speedup = 0;
    std::string message;
    std::string reason; // verification.reason
    bool restartRequired = false; // the reply said the worker exits after it (its stream waited on a dead host)
};

struct AdversarialRow {
    std::string file;
    std::string task;
    std::string klass;
    AdversarialOutcome outcome;
    nlohmann::ordered_json expect; // the case's "expect"
    bool ok = false;
    std::string problem;
};

struct AdversarialReport {
    std::vector<AdversarialRow> rows;
    bool passed = false;
    std::string error;
    bool noDevice = false;
    std::string device;
};

inline constexpr const char *kForgedMarker = "kfadv-forged";

// tests/gpu/adversarial/cases.json of the source tree (the suite is not installed).
std::string defaultAdversarialManifest();
// Problems of a manifest: unreadable, a case naming a missing file, task or class, an unknown expect key,
// a kernel or module of the folder not listed, a class without a case, a file without its header comment, a
// module on a CUDA task or without ModelNew, a no_file pattern the runner may not remove.
std::vector<std::string> validateAdversarialManifest(const std::filesystem::path &manifest,
                                                     const std::filesystem::path &tasksDir);
// Empty when `outcome` meets `expect`, else why not.
std::string checkAdversarialExpectation(const nlohmann::ordered_json &expect, const AdversarialOutcome &outcome);
std::string describeAdversarialExpectation(const nlohmann::ordered_json &expect);
AdversarialReport runAdversarial(const AdversarialConfig &config);
std::string formatAdversarialTable(const std::vector<AdversarialRow> &rows);
nlohmann::ordered_json toJson(const AdversarialRow &row);
// Runs the suite and prints the table (or JSON); 0 all rows ok, 1 otherwise, 2 no CUDA device.
int runAdversarialCommand(const AdversarialConfig &config, bool json);

} // namespace kforge::runtime
