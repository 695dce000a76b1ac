#pragma once
// kforge-worker --self-test (and the protocol's self_test op): compiles every task's reference and
// shipped variants, evaluates each variant in a child worker (restarted after a crash or a hang) and
// compares the verdict and speedup with the variant's "expect".
#include "core/runtime/worker/judgeoptions.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kforge::runtime {

struct SelfTestConfig {
    SelfTestConfig() { options.minTimeMs = 300; }
    std::string tasksDir;                // empty: defaultTasksDir()
    std::vector<std::string> workerArgv; // the child worker's command line
    std::vector<std::string> onlyTasks;  // empty: all
    EvalOptions options;
    unsigned parallelCompiles = 0; // 0: the number of CPUs
    std::function<void(const std::string &)> log;
};

struct SelfTestRow {
    std::string task;
    std::string variant;
    std::string verdict;
    double referenceMs = 0;
    double candidateMs = 0;
    double speedup = 0;
    double cv = 0; // the candidate's coefficient of variation
    std::string expectVerdict = "correct";
    std::optional<double> minSpeedup;
    std::vector<std::string> flags;
    bool ok = false;
    std::string problem; // why the row is not ok
    std::string message; // the worker's message
};

struct SelfTestReport {
    std::vector<SelfTestRow> rows;
    bool passed = false;
    std::string error; // could not run at all
    bool noDevice = false;
    std::string device;
};

// The installed share/kforge/tasks next to this executable, else the source tree's resources/tasks.
std::string defaultTasksDir();
SelfTestReport runSelfTest(const SelfTestConfig &config);
std::string formatTable(const std::vector<SelfTestRow> &rows);
// `v` with `precision` decimals ("%.*f"), for the tables.
std::string fixedDecimals(double v, int precision);
// Rows of cells as aligned text, a dashed line under the first (the header); columns in [rightFrom, rightTo]
// right-aligned (none when rightFrom > rightTo).
std::string textTable(const std::vector<std::vector<std::string>> &cells, std::size_t rightFrom = 1,
                      std::size_t rightTo = 0);
nlohmann::ordered_json toJson(const SelfTestRow &row);

} // namespace kforge::runtime
