#pragma once
// Where one evaluation stands (judge.h): the phase a failure names, the wall time of each part (the result's
// phases_s), the client's progress, and the watchdog of one wait on a host. The judge's rounds (Judge::Run is
// one) and the passes after them (profilepasses.h, precisionpass.h) share it.
#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <string>

namespace kforge::runtime {

struct EvalClock {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    double budgetS = 60; // the evaluation ends its timing by then (the task's timeout_s, less room)
    std::string phase = "setting up";
    // Where the evaluation's wall time goes (the result's phases_s): mark(next) ends the current part and
    // starts `next`. Parts: setup, verify, edge, spare_boot, timing, checks, sanitizer, precision, trace, metrics,
    // source_profile, close.
    std::map<std::string, double> partS;
    std::string part = "setup";
    std::chrono::steady_clock::time_point partMark = start;
    std::function<void(const char *stage)> progress; // the client's stages ("tracing", ...); may be empty

    void mark(const std::string &next)
    {
        const auto now = std::chrono::steady_clock::now();
        partS[part] += std::chrono::duration<double>(now - partMark).count();
        partMark = now;
        part = next;
    }
    // The watchdog of one wait on a host: what is left of 80% of the task's timeout (at least 5 s), so the
    // verdict comes before the client's own watchdog (the whole timeout_s) ends the worker.
    double waitS() const
    {
        const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return std::max(5.0, budgetS * 0.8 - used);
    }
    double elapsedMs() const
    {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
};

} // namespace kforge::runtime
