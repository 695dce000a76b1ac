// bench_worker: kforge-worker's GPU figures for issues 3 and 4, measured through the protocol with a warm
// worker (Qt-free, so it runs on GPU hosts without Qt). Prints figures; not a pass/fail test.
//
//   bench_worker [--worker PATH] [--tasks DIR] [--so-dir DIR] [--json FILE] MODE [options]
//
//   stability  [--task T] [--variant L] [--evals N] [--warmup-ms MS] [--min-time-ms MS] [--min-runs N]
//              [--max-runs N] [--ci-target X] [--name NAME] [--trace]
//       One discarded warm-up evaluation, then N evaluations of the same candidate; per evaluation the
//       worker's speedup (reference median / candidate median) and the median of the per-pair ratios
//       (the timing loop alternates reference and candidate, so run i of each side form a pair that saw
//       the same clock state); max/min of both. --trace adds the trace pass (after timing) and prints
//       each side's traced kernel, GPU and event time per evaluation. --ci-target: the adaptive timing's
//       target (0: the fixed rule); each evaluation's timing.adaptive is printed.
//   traced     [--task T]... [--trace-runs N] [--evals N]
//       Every task's good candidate evaluated N times with the trace pass: summed kernel time per
//       candidate run (median of the evaluations' medians), launches per run, event time; the .so paths
//       for `kforge-worker --launch` under ncu.
//   overhead   [--task T] [--variant L] [--reps N] [--lean-metrics NAME,NAME,...]
//       Evaluations with trace and metrics off / trace only / metrics only (/ metrics with the given
//       smaller set), rotated: wall time added by the metrics pass, the profiler's time per side, and the
//       candidate's measured median with and without the trace pass (also the event time of the traced
//       runs themselves against the untraced median).
//
// The good candidate of a task: the variant labelled "good", else the last expected-correct one with a
// min_speedup, else the first expected-correct one.
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/workerprocess.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;
using kforge::runtime::TaskSpec;
using kforge::runtime::WorkerClient;

double median(std::vector<double> v)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double maxOverMin(const std::vector<double> &v)
{
    if (v.empty())
        return std::nan("");
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return *hi / *lo;
}

// A number field that may be missing or null (the profiler writes NaN statistics as null).
double num(const Json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : std::nan("");
}

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

[[noreturn]] void die(const std::string &message)
{
    std::fprintf(stderr, "bench_worker: %s\n", message.c_str());
    std::exit(1);
}

std::optional<std::size_t> goodVariant(const TaskSpec &task)
{
    const auto correct = [](const kforge::runtime::VariantSpec &v) {
        return !v.expect || v.expect->verdict == "correct";
    };
    for (std::size_t i = 0; i < task.variants.size(); ++i)
        if (task.variants[i].label == "good")
            return i;
    for (std::size_t i = task.variants.size(); i-- > 0;)
        if (correct(task.variants[i]) && task.variants[i].expect && task.variants[i].expect->minSpeedup)
            return i;
    for (std::size_t i = 0; i < task.variants.size(); ++i)
        if (correct(task.variants[i]))
            return i;
    return std::nullopt;
}

std::optional<std::size_t> variantByLabel(const TaskSpec &task, const std::string &label)
{
    if (label.empty())
        return goodVariant(task);
    for (std::size_t i = 0; i < task.variants.size(); ++i)
        if (task.variants[i].label == label)
            return i;
    return std::nullopt;
}

struct Config {
    std::string worker;
    fs::path tasksDir;
    fs::path soDir;
    std::string jsonPath;
    std::string mode;
    std::vector<std::string> tasks;
    std::string variant;
    int evals = 5;
    int reps = 4;
    int traceRuns = 20;
    bool trace = false; // stability: add the trace pass (after timing) to see each evaluation's kernel times
    std::vector<std::string> leanMetrics;
    std::optional<double> warmupMs, minTimeMs, ciTarget;
    std::optional<int> minRuns, maxRuns;
    std::string name;
};

// One warm worker plus the kernels it evaluates, compiled once into the .so folder.
class Bench
{
public:
    explicit Bench(const Config &config)
        : m_config(config)
    {
    }

    void start()
    {
        m_client = std::make_unique<WorkerClient>(std::vector<std::string>{m_config.worker, "--device", "0"});
        std::string error;
        if (!m_client->start(error, 60))
            die("cannot start " + m_config.worker + ": " + error);
        const auto hello = m_client->request(Json{{"op", "hello"}, {"protocol", 1}}, 30);
        if (!hello.ok() || !hello.message.value("ok", false))
            die("handshake failed");
        const auto info = m_client->request(Json{{"op", "device_info"}}, 120);
        if (!info.ok() || !info.message.value("ok", false))
            die("device_info failed: " + (info.ok() ? info.message.dump() : info.detail));
        m_device = info.message["device"];
        std::printf("device: %s\n", m_device.dump().c_str());
    }
    const Json &device() const { return m_device; }

    TaskSpec loadTask(const std::string &name) const
    {
        const kforge::runtime::TaskSpecResult r = kforge::runtime::loadTaskFolder(m_config.tasksDir / name);
        if (!r.ok())
            die(r.error.message());
        return *r.spec;
    }

    // Compiles the reference and the given variants of each task (all at once); returns their .so paths.
    struct Built {
        std::string reference;
        std::map<std::size_t, std::string> variants;
    };
    std::vector<Built> compile(const std::vector<std::pair<TaskSpec, std::vector<std::size_t>>> &wanted)
    {
        std::vector<kforge::runtime::NvccJob> jobs;
        std::vector<Built> built(wanted.size());
        const auto add = [&](const fs::path &src, const fs::path &out, const std::vector<std::string> &flags) {
            std::error_code ec;
            const bool fresh = fs::exists(out, ec) && fs::last_write_time(out, ec) >= fs::last_write_time(src, ec);
            if (!fresh)
                jobs.push_back({src, out, flags});
            return out.string();
        };
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            const TaskSpec &task = wanted[i].first;
            const fs::path dir = m_config.soDir / task.name;
            fs::create_directories(dir);
            built[i].reference = add(task.folder / "reference.cu", dir / "reference.so", task.nvccFlags);
            for (std::size_t v : wanted[i].second) {
                std::vector<std::string> flags = task.nvccFlags;
                flags.insert(flags.end(), task.variants[v].nvccFlags.begin(), task.variants[v].nvccFlags.end());
                built[i].variants[v] = add(task.folder / task.variants[v].file,
                                           dir / (fs::path(task.variants[v].file).stem().string() + ".so"), flags);
            }
        }
        const auto t0 = std::chrono::steady_clock::now();
        const auto results = kforge::runtime::compileKernels(jobs, m_device.value("arch", "sm_90"));
        for (std::size_t j = 0; j < jobs.size(); ++j)
            if (!results[j].ok)
                die("compiling " + jobs[j].source.string() + " failed:\n" + results[j].log);
        std::printf("compiled %zu kernels in %.1f s\n", jobs.size(), seconds(t0));
        return built;
    }

    struct Evaluation {
        Json result;
        double wallS = 0;
    };
    // Exits on a protocol failure; a verdict other than correct exits too unless `anyVerdict`.
    Evaluation evaluate(const TaskSpec &task, const std::string &reference, const std::string &candidate,
                        const Json &options, bool anyVerdict = false)
    {
        if (m_reference != reference) {
            const auto r = m_client->request(Json{{"op", "load"}, {"slot", "reference"}, {"path", reference}}, 60);
            if (!r.ok() || !r.message.value("ok", false))
                die("loading " + reference + " failed: " + (r.ok() ? r.message.dump() : r.detail));
            m_reference = reference;
        }
        const auto c = m_client->request(Json{{"op", "load"}, {"slot", "candidate"}, {"path", candidate}}, 60);
        if (!c.ok() || !c.message.value("ok", false))
            die("loading " + candidate + " failed: " + (c.ok() ? c.message.dump() : c.detail));
        const auto t0 = std::chrono::steady_clock::now();
        const auto r =
            m_client->request(Json{{"op", "evaluate"}, {"task", kforge::runtime::toJson(task)}, {"options", options}},
                              std::max(120.0, 4 * task.timeoutS));
        const double wall = seconds(t0);
        if (!r.ok())
            die("the worker " + r.detail + " evaluating " + candidate);
        if (!r.message.value("ok", false))
            die("evaluate failed: " + r.message.dump());
        Evaluation e{r.message["result"], wall};
        if (!anyVerdict && e.result.value("verdict", "") != "correct")
            die(task.name + ": " + candidate + " is not correct: " + e.result.value("message", ""));
        return e;
    }

    void finish()
    {
        if (m_client && m_client->running()) {
            m_client->request(Json{{"op", "shutdown"}}, 10);
            if (!m_client->waitExit(10))
                m_client->kill();
        }
    }

private:
    const Config &m_config;
    std::unique_ptr<WorkerClient> m_client;
    Json m_device;
    std::string m_reference;
};

Json timingOptions(const Config &c)
{
    Json o{{"trace", false}, {"metrics", false}};
    if (c.warmupMs)
        o["warmup_ms"] = *c.warmupMs;
    if (c.minTimeMs)
        o["min_time_ms"] = *c.minTimeMs;
    if (c.minRuns)
        o["min_runs"] = *c.minRuns;
    if (c.ciTarget)
        o["ci_target"] = *c.ciTarget;
    if (c.maxRuns)
        o["max_runs"] = *c.maxRuns;
    else if (c.minRuns)
        o["max_runs"] = std::max(10000, *c.minRuns);
    return o;
}

Json stability(Bench &bench, const Config &c)
{
    const TaskSpec task = bench.loadTask(c.tasks.empty() ? "diag_matmul" : c.tasks.front());
    const auto v = variantByLabel(task, c.variant);
    if (!v)
        die(task.name + ": no variant " + c.variant);
    const auto built = bench.compile({{task, {*v}}});
    Json options = timingOptions(c);
    options["samples"] = true;
    if (c.trace) {
        options["trace"] = true;
        options["trace_runs"] = 10;
    }
    const std::string label = c.name.empty() ? "stability" : c.name;
    std::printf("\n== %s: %s/%s, options %s\n", label.c_str(), task.name.c_str(), task.variants[*v].label.c_str(),
                options.dump().c_str());
    const auto t0 = std::chrono::steady_clock::now();
    bench.evaluate(task, built[0].reference, built[0].variants.at(*v), options); // warm-up, discarded
    std::printf("warm-up evaluation (discarded) %.1f s\n", seconds(t0));
    std::printf("%4s %8s %10s %10s %9s %9s %7s %7s %7s %7s\n", "eval", "t s", "ref ms", "cand ms", "speedup",
                "pair med", "runs", "ref CV", "cand CV", "wall s");
    std::vector<double> speedups, pairs, refs, cands;
    Json evals = Json::array();
    for (int i = 0; i < c.evals; ++i) {
        const auto e = bench.evaluate(task, built[0].reference, built[0].variants.at(*v), options);
        const Json &t = e.result["timing"];
        const auto rs = t["reference"]["samples_ms"].get<std::vector<double>>();
        const auto cs = t["candidate"]["samples_ms"].get<std::vector<double>>();
        std::vector<double> ratios;
        for (std::size_t k = 0; k < std::min(rs.size(), cs.size()); ++k)
            if (cs[k] > 0)
                ratios.push_back(rs[k] / cs[k]);
        const double pair = median(ratios);
        const double ref = t["reference"].value("median_ms", 0.0), cand = t["candidate"].value("median_ms", 0.0);
        speedups.push_back(t.value("speedup", 0.0));
        pairs.push_back(pair);
        refs.push_back(ref);
        cands.push_back(cand);
        std::printf("%4d %8.1f %10.4f %10.5f %9.3f %9.3f %7d %6.2f%% %6.2f%% %7.2f\n", i + 1, seconds(t0), ref, cand,
                    speedups.back(), pair, t["reference"].value("runs", 0), 100 * t["reference"].value("cv", 0.0),
                    100 * t["candidate"].value("cv", 0.0), e.wallS);
        if (t.contains("adaptive"))
            std::printf("     adaptive: %s\n", t["adaptive"].dump().c_str());
        if (e.result.contains("phases_s"))
            std::printf("     phases_s: %s\n", e.result["phases_s"].dump().c_str());
        evals.push_back(Json{{"reference_ms", ref},
                             {"candidate_ms", cand},
                             {"speedup", speedups.back()},
                             {"pair_ratio_median", pair},
                             {"runs", t["reference"].value("runs", 0)},
                             {"reference_cv", t["reference"].value("cv", 0.0)},
                             {"candidate_cv", t["candidate"].value("cv", 0.0)},
                             {"wall_s", e.wallS},
                             {"adaptive", t.value("adaptive", Json(nullptr))},
                             {"at_s", seconds(t0)}});
        if (c.trace && e.result.contains("trace") && e.result["trace"].value("available", false)) {
            // Where the time goes in the traced runs: GPU kernel time vs event time per side.
            const Json &tr = e.result["trace"];
            Json sides;
            std::string line = "     traced:";
            for (const char *side : {"reference", "candidate"}) {
                const Json &sd = tr[side];
                Json kernels = Json::array();
                for (const Json &k : sd["kernels"])
                    kernels.push_back(Json{{"name", k.value("name", "").substr(0, 60)},
                                           {"per_run", num(k, "per_run")},
                                           {"median_us", num(k["duration_us"], "median")}});
                sides[side] = Json{{"kernel_ms", num(sd["kernel_time_ms"], "median")},
                                   {"gpu_ms", num(sd["gpu_time_ms"], "median")},
                                   {"event_ms", num(sd["event_time_ms"], "median")},
                                   {"kernels", kernels}};
                char buf[200];
                std::snprintf(buf, sizeof buf, " %s kernels %.4f ms, kernels+memory %.4f ms, event %.4f ms;", side,
                              num(sd["kernel_time_ms"], "median"), num(sd["gpu_time_ms"], "median"),
                              num(sd["event_time_ms"], "median"));
                line += buf;
            }
            std::printf("%s\n", line.c_str());
            for (const Json &k : sides["reference"]["kernels"])
                std::printf("       reference kernel %-60s %.1f/run median %.1f us\n",
                            k["name"].get<std::string>().c_str(), num(k, "per_run"), num(k, "median_us"));
            evals.back()["trace"] = sides;
        }
    }
    std::printf("max/min: speedup %.4f, pair-ratio median %.4f, reference median %.4f, candidate median %.4f\n",
                maxOverMin(speedups), maxOverMin(pairs), maxOverMin(refs), maxOverMin(cands));
    return Json{{"name", label},
                {"task", task.name},
                {"variant", task.variants[*v].label},
                {"options", options},
                {"evals", evals},
                {"maxmin_speedup", maxOverMin(speedups)},
                {"maxmin_pair", maxOverMin(pairs)},
                {"maxmin_reference", maxOverMin(refs)},
                {"maxmin_candidate", maxOverMin(cands)}};
}

Json traced(Bench &bench, const Config &c)
{
    std::vector<std::string> names = c.tasks;
    if (names.empty()) {
        for (const auto &entry : fs::directory_iterator(c.tasksDir))
            if (fs::exists(entry.path() / "reference.cu")) // CUDA tasks: a torch task has reference.py
                names.push_back(entry.path().filename().string());
            else if (fs::exists(entry.path() / "reference.py"))
                std::printf("%s: a torch task, skipped\n", entry.path().filename().c_str());
        std::sort(names.begin(), names.end());
    }
    std::vector<std::pair<TaskSpec, std::vector<std::size_t>>> wanted;
    for (const std::string &n : names) {
        TaskSpec t = bench.loadTask(n);
        const auto v = goodVariant(t);
        if (!v) {
            std::printf("%s: no good candidate, skipped\n", n.c_str());
            continue;
        }
        wanted.push_back({std::move(t), {*v}});
    }
    const auto built = bench.compile(wanted);
    Json options = timingOptions(c);
    options["trace"] = true;
    options["trace_runs"] = c.traceRuns;
    if (!c.minTimeMs)
        options["min_time_ms"] = 300;
    std::printf("\n== traced kernel time per candidate run (trace pass of %d runs), options %s\n", c.traceRuns,
                options.dump().c_str());
    std::printf("%-28s %-10s %12s %12s %9s %12s %12s %s\n", "task", "variant", "kernel us", "kernel mean", "launches",
                "event us", "timed us", "flags (kernel us: median of the evaluations' medians; the rest from the last)");
    Json rows = Json::array();
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        const TaskSpec &task = wanted[i].first;
        const std::size_t v = wanted[i].second.front();
        // Several evaluations (fresh buffers each): a memory-bound kernel's time moves a few percent with
        // where its buffers land, so one evaluation is one sample of that.
        std::vector<double> perEval;
        Bench::Evaluation e;
        for (int k = 0; k < std::max(1, c.evals); ++k) {
            e = bench.evaluate(task, built[i].reference, built[i].variants.at(v), options, true);
            if (e.result.value("verdict", "") != "correct" || !e.result.contains("trace")
                || !e.result["trace"].value("available", false))
                break;
            perEval.push_back(num(e.result["trace"]["candidate"]["kernel_time_ms"], "median"));
        }
        const Json &tr = e.result.contains("trace") ? e.result["trace"] : Json();
        Json row{{"task", task.name},
                 {"variant", task.variants[v].label},
                 {"so", built[i].variants.at(v)},
                 {"file", (task.folder / task.variants[v].file).string()},
                 {"verdict", e.result.value("verdict", "")},
                 {"timed_median_ms", e.result.contains("timing") ? num(e.result["timing"]["candidate"], "median_ms") : 0.0},
                 {"flags", e.result.value("flags", Json::array())}};
        if (row["verdict"] != "correct") {
            row["available"] = false;
            row["problem"] = e.result.value("message", "");
            std::printf("%-28s %-10s %s: %s\n", task.name.c_str(), task.variants[v].label.c_str(),
                        row["verdict"].get<std::string>().c_str(), e.result.value("message", "").c_str());
        } else if (!tr.is_object() || !tr.value("available", false)) {
            row["available"] = false;
            row["problem"] = tr.is_object() ? tr.value("problem", Json()) : Json("no trace in the result");
            std::printf("%-28s %-10s trace unavailable: %s\n", task.name.c_str(), task.variants[v].label.c_str(),
                        row["problem"].dump().c_str());
        } else {
            const Json &side = tr["candidate"];
            row["available"] = true;
            row["kernel_ms_per_eval"] = perEval;
            row["kernel_ms_median_of_evals"] = median(perEval);
            row["runs"] = side.value("runs", 0);
            row["kernel_ms"] = side["kernel_time_ms"];
            row["launches_per_run"] = side["launches_per_run"];
            row["event_ms"] = side["event_time_ms"];
            row["dropped"] = tr.value("dropped", 0);
            Json kernels = Json::array();
            for (const Json &k : side["kernels"])
                kernels.push_back(Json{{"name", k.value("name", "")},
                                       {"per_run", num(k, "per_run")},
                                       {"mean_us", num(k["duration_us"], "mean")}});
            row["kernels"] = kernels;
            std::string flags;
            for (const auto &f : row["flags"])
                flags += (flags.empty() ? "" : ",") + f.get<std::string>();
            std::string evalsText;
            for (double x : perEval)
                evalsText += (evalsText.empty() ? "" : " ") + std::to_string(1e3 * x).substr(0, 7);
            std::printf("%-28s %-10s %12.2f %12.2f %9.1f %12.2f %12.2f %s  (per evaluation: %s)\n", task.name.c_str(),
                        task.variants[v].label.c_str(), 1e3 * median(perEval), 1e3 * num(side["kernel_time_ms"], "mean"),
                        num(side["launches_per_run"], "median"), 1e3 * num(side["event_time_ms"], "median"),
                        1e3 * row["timed_median_ms"].get<double>(), flags.c_str(), evalsText.c_str());
        }
        rows.push_back(row);
    }
    return Json{{"trace_runs", c.traceRuns}, {"evals", std::max(1, c.evals)}, {"options", options}, {"tasks", rows}};
}

Json overhead(Bench &bench, const Config &c)
{
    const TaskSpec task = bench.loadTask(c.tasks.empty() ? "diag_matmul" : c.tasks.front());
    const auto v = variantByLabel(task, c.variant);
    if (!v)
        die(task.name + ": no variant " + c.variant);
    const auto built = bench.compile({{task, {*v}}});
    const Json base = timingOptions(c);
    struct Mode {
        const char *name;
        bool trace, metrics;
    };
    const Mode modes[] = {{"off", false, false}, {"trace", true, false}, {"metrics", false, true}, {"lean", false, true}};
    const int nModes = c.leanMetrics.empty() ? 3 : 4;
    std::printf("\n== overhead: %s/%s, %d rotations of off / trace / metrics%s, options %s\n", task.name.c_str(),
                task.variants[*v].label.c_str(), c.reps, nModes == 4 ? " / lean metrics" : "", base.dump().c_str());
    const auto run = [&](const Mode &m) {
        Json o = base;
        o["trace"] = m.trace;
        o["metrics"] = m.metrics;
        if (std::string(m.name) == "lean")
            o["metric_names"] = c.leanMetrics;
        return bench.evaluate(task, built[0].reference, built[0].variants.at(*v), o);
    };
    // CUPTI untouched so far in this worker: the pristine figure first.
    run(modes[0]);
    std::vector<double> pristine;
    for (int i = 0; i < 2; ++i)
        pristine.push_back(run(modes[0]).result["timing"]["candidate"].value("median_ms", 0.0));
    std::map<std::string, std::vector<double>> wall, cand, ref;
    std::vector<double> tracedEvent, tracedKernel;
    std::map<std::string, std::vector<double>> profCand, profRef;
    double firstMetricsWall = 0, firstMetricsTotal = 0;
    std::map<std::string, int> passes;
    std::printf("%-8s %4s %8s %10s %10s %12s %12s %12s %7s\n", "mode", "rep", "wall s", "cand ms", "ref ms",
                "traced ev ms", "prof cand ms", "prof ref ms", "passes");
    for (int r = 0; r <= c.reps; ++r) {
        for (int k = 0; k < nModes; ++k) {
            const Mode &m = modes[(k + r) % nModes];
            const auto e = run(m);
            const Json &t = e.result["timing"];
            double tracedEv = std::nan(""), candMs = std::nan(""), refMs = std::nan("");
            if (m.trace && e.result.contains("trace") && e.result["trace"].value("available", false)) {
                tracedEv = num(e.result["trace"]["candidate"]["event_time_ms"], "median");
                tracedKernel.push_back(num(e.result["trace"]["candidate"]["kernel_time_ms"], "median"));
            }
            if (m.metrics && e.result.contains("metrics")) {
                const Json &mc = e.result["metrics"]["candidate"];
                const Json &mr = e.result["metrics"].value("reference", Json::object());
                candMs = num(mc, "total_ms");
                refMs = num(mr, "total_ms");
                passes[m.name] = mc.value("passes", 0);
                if (!mc.value("available", false))
                    std::printf("metrics unavailable: %s\n", mc.value("problem", Json()).dump().c_str());
                if (!mc.value("invalid_metrics", Json::array()).empty())
                    std::printf("invalid metrics: %s\n", mc["invalid_metrics"].dump().c_str());
            }
            std::printf("%-8s %4d %8.3f %10.5f %10.4f %12.5f %12.1f %12.1f %7d%s\n", m.name, r, e.wallS,
                        t["candidate"].value("median_ms", 0.0), t["reference"].value("median_ms", 0.0), tracedEv,
                        candMs, refMs, m.metrics ? passes[m.name] : 0, r == 0 ? "  (rotation 0: not counted)" : "");
            if (e.result.contains("phases_s"))
                std::printf("         phases_s %s, batches %d\n", e.result["phases_s"].dump().c_str(),
                            t.value("batches", 0));
            if (r == 0) {
                if (std::string(m.name) == "metrics") {
                    firstMetricsWall = e.wallS;
                    firstMetricsTotal = candMs + refMs;
                }
                continue;
            }
            if (m.metrics) {
                profCand[m.name].push_back(candMs);
                profRef[m.name].push_back(refMs);
            }
            wall[m.name].push_back(e.wallS);
            cand[m.name].push_back(t["candidate"].value("median_ms", 0.0));
            ref[m.name].push_back(t["reference"].value("median_ms", 0.0));
            if (m.trace)
                tracedEvent.push_back(tracedEv);
        }
    }
    const double addedMetrics = median(wall["metrics"]) - median(wall["off"]);
    const double addedLean = median(wall["lean"]) - median(wall["off"]);
    const double addedTrace = median(wall["trace"]) - median(wall["off"]);
    const double candOff = median(cand["off"]), candTrace = median(cand["trace"]);
    const double tracePct = 100 * (candTrace / candOff - 1);
    const double tracedRunPct = 100 * (median(tracedEvent) / candOff - 1);
    std::printf("metrics pass: +%.3f s wall per evaluation (median of %zu, %d passes; profiler candidate %.0f ms, "
                "reference %.0f ms; the first in this worker, with CUPTI set-up: %.3f s wall, profiler %.0f ms)\n",
                addedMetrics, wall["metrics"].size(), passes["metrics"], median(profCand["metrics"]),
                median(profRef["metrics"]), firstMetricsWall - median(wall["off"]), firstMetricsTotal);
    if (nModes == 4)
        std::printf("lean metric set (%zu metrics): +%.3f s wall per evaluation (%d passes; profiler candidate %.0f ms, "
                    "reference %.0f ms)\n",
                    c.leanMetrics.size(), addedLean, passes["lean"], median(profCand["lean"]), median(profRef["lean"]));
    std::printf("trace pass: +%.3f s wall per evaluation\n", addedTrace);
    std::printf("candidate median: off %.5f ms, with trace pass %.5f ms (%+.2f%%), pristine worker %.5f ms; "
                "traced runs' own event time %.5f ms (%+.2f%%), traced kernel time %.5f ms\n",
                candOff, candTrace, tracePct, median(pristine), median(tracedEvent), tracedRunPct, median(tracedKernel));
    return Json{{"task", task.name},
                {"variant", task.variants[*v].label},
                {"reps", c.reps},
                {"metrics_added_s", addedMetrics},
                {"metrics_first_added_s", firstMetricsWall - median(wall["off"])},
                {"metrics_candidate_ms", median(profCand["metrics"])},
                {"metrics_reference_ms", median(profRef["metrics"])},
                {"metrics_passes", passes["metrics"]},
                {"lean_metrics", c.leanMetrics},
                {"lean_added_s", nModes == 4 ? addedLean : std::nan("")},
                {"lean_passes", passes["lean"]},
                {"lean_candidate_ms", median(profCand["lean"])},
                {"lean_reference_ms", median(profRef["lean"])},
                {"trace_added_s", addedTrace},
                {"candidate_off_ms", candOff},
                {"candidate_trace_ms", candTrace},
                {"trace_change_pct", tracePct},
                {"candidate_pristine_ms", median(pristine)},
                {"traced_run_event_ms", median(tracedEvent)},
                {"traced_run_change_pct", tracedRunPct},
                {"traced_kernel_ms", median(tracedKernel)},
                {"wall", wall},
                {"candidate", cand},
                {"reference", ref}};
}

} // namespace

int main(int argc, char **argv)
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    Config c;
#ifdef KFORGE_WORKER_PATH
    c.worker = KFORGE_WORKER_PATH;
#endif
    if (const char *env = std::getenv("KFORGE_WORKER"); env && *env)
        c.worker = env;
    c.tasksDir = fs::path(KFORGE_TEST_SOURCE_DIR) / "resources" / "tasks";
    c.soDir = fs::temp_directory_path() / "kforge-bench-worker";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                die(a + " needs a value");
            return argv[++i];
        };
        const auto number = [&]() {
            const std::string s = next();
            char *end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (!end || *end)
                die(a + ": not a number: " + s);
            return v;
        };
        if (a == "--worker")
            c.worker = next();
        else if (a == "--tasks")
            c.tasksDir = fs::absolute(next());
        else if (a == "--so-dir")
            c.soDir = fs::absolute(next());
        else if (a == "--json")
            c.jsonPath = next();
        else if (a == "--task")
            c.tasks.push_back(next());
        else if (a == "--variant")
            c.variant = next();
        else if (a == "--evals")
            c.evals = static_cast<int>(number());
        else if (a == "--reps")
            c.reps = static_cast<int>(number());
        else if (a == "--trace-runs")
            c.traceRuns = static_cast<int>(number());
        else if (a == "--warmup-ms")
            c.warmupMs = number();
        else if (a == "--min-time-ms")
            c.minTimeMs = number();
        else if (a == "--min-runs")
            c.minRuns = static_cast<int>(number());
        else if (a == "--ci-target")
            c.ciTarget = number();
        else if (a == "--max-runs")
            c.maxRuns = static_cast<int>(number());
        else if (a == "--name")
            c.name = next();
        else if (a == "--trace")
            c.trace = true;
        else if (a == "--lean-metrics") {
            const std::string list = next();
            for (std::size_t pos = 0; pos <= list.size();) {
                const std::size_t comma = std::min(list.find(',', pos), list.size());
                if (comma > pos)
                    c.leanMetrics.push_back(list.substr(pos, comma - pos));
                pos = comma + 1;
            }
        } else if (c.mode.empty() && a[0] != '-')
            c.mode = a;
        else
            die("unknown argument " + a);
    }
    if (c.mode != "stability" && c.mode != "traced" && c.mode != "overhead")
        die("usage: bench_worker [--worker PATH] [--tasks DIR] [--so-dir DIR] [--json FILE] stability|traced|overhead "
            "[options] (see the top of tests/bench/bench_worker.cpp)");
    if (c.worker.empty())
        die("no worker: pass --worker or set KFORGE_WORKER");
    fs::create_directories(c.soDir);

    Bench bench(c);
    bench.start();
    Json out;
    if (c.mode == "stability")
        out = stability(bench, c);
    else if (c.mode == "traced")
        out = traced(bench, c);
    else
        out = overhead(bench, c);
    out["device"] = bench.device();
    bench.finish();
    if (!c.jsonPath.empty()) {
        std::ofstream f(c.jsonPath);
        f << out.dump(1) << "\n";
    }
    return 0;
}
