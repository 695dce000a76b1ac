// The source-level profile on a real GPU (label gpu; exits 77 without one): a pointer-chasing kernel's
// hottest source line is its dependent load with a memory stall, its global loads executed exactly
// (threads / 32) x steps times per warp and threads x steps per thread (SASS metrics), the pass costs
// nothing when off and is bounded when on, a build without -lineinfo says so, and every built-in task's good candidate gets a
// profile with source lines. With KFORGE_SOURCE_PROFILE_OUT set, the raw worker replies are written
// there (fixtures for the client's parsers). Prints a table per task last.
#include "workertest.h"

#include "core/runtime/profiler/sourcesamples.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

using namespace kforge::runtime;
using namespace kforge::runtime::test;

namespace {

const Json kQuick{{"trials", 2},    {"min_runs", 10}, {"min_time_ms", 0}, {"warmup", 2},
                  {"warmup_ms", 0}, {"trace", false}, {"metrics", false}};

// Memory-dependency stalls: what a warp waiting on a global load shows.
const std::set<std::string> kMemoryStalls{"long_scoreboard", "lg_throttle",  "memory_throttle",
                                          "drain",           "tex_throttle", "mio_throttle"};

Json with(Json options, const Json &extra)
{
    for (const auto &[k, v] : extra.items())
        options[k] = v;
    return options;
}

class Worker
{
public:
    explicit Worker(std::string path)
        : m_path(std::move(path))
    {
    }
    WorkerClient &client()
    {
        if (!m_client || !m_client->running()) {
            m_client = std::make_unique<WorkerClient>(std::vector<std::string>{m_path});
            std::string error;
            if (!m_client->start(error, 60)) {
                std::fprintf(stderr, "cannot start the worker: %s\n", error.c_str());
                std::exit(1);
            }
        }
        return *m_client;
    }
    Json ok(const Json &request, double timeoutS, const char *what)
    {
        const WorkerClient::Reply r = client().request(request, timeoutS);
        if (!r.ok() || !r.message.value("ok", false)) {
            KF_CHECK_MSG(false, std::string(what) + ": " + (r.ok() ? r.message.dump().substr(0, 800) : r.detail));
            return nullptr;
        }
        return r.message;
    }
    // Loads both sides and evaluates; the whole reply, and its wall time.
    Json evaluate(const TaskSpec &task, const std::string &ref, const std::string &cand, const Json &options, double &wallMs)
    {
        if (ok(Json{{"op", "load"}, {"slot", "reference"}, {"path", ref}}, 60, "load reference").is_null()
            || ok(Json{{"op", "load"}, {"slot", "candidate"}, {"path", cand}}, 60, "load candidate").is_null())
            return nullptr;
        const auto t0 = std::chrono::steady_clock::now();
        Json reply = ok(Json{{"op", "evaluate"}, {"task", toJson(task)}, {"options", options}}, 300, "evaluate");
        wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return reply;
    }

private:
    std::string m_path;
    std::unique_ptr<WorkerClient> m_client;
};

int lineContaining(const fs::path &file, const std::string &marker)
{
    std::ifstream in(file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(marker) != std::string::npos)
            return n;
    return 0;
}

void save(const std::string &name, const Json &reply)
{
    const char *dir = std::getenv("KFORGE_SOURCE_PROFILE_OUT");
    if (!dir || !*dir || reply.is_null())
        return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream(fs::path(dir) / (name + ".json")) << reply.dump(1) << "\n";
}

profiler::SourceProfile profileOf(const Json &reply, const char *what)
{
    profiler::SourceProfile p;
    std::string error;
    if (reply.is_null() || !reply.contains("result") || !reply["result"].contains("source_profile")) {
        KF_CHECK_MSG(false, std::string(what) + ": no source_profile in "
                                + (reply.is_null() ? "null" : reply.dump().substr(0, 600)));
        return p;
    }
    KF_CHECK_MSG(profiler::SourceProfile::fromJson(reply["result"]["source_profile"], p, error), error);
    return p;
}

// The SASS offsets of the global loads (LDG) in nvdisasm's listing: "/*0120*/  LDG.E.STRONG.GPU R3, ...".
std::set<uint64_t> globalLoadOffsets(const std::string &sass)
{
    std::set<uint64_t> out;
    std::istringstream in(sass);
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t open = line.find("/*"), close = line.find("*/");
        if (open == std::string::npos || close == std::string::npos || close <= open + 2)
            continue;
        const std::string after = line.substr(close + 2);
        const std::size_t op = after.find_first_not_of(" \t");
        if (op == std::string::npos || after.compare(op, 3, "LDG") != 0)
            continue;
        out.insert(std::stoull(line.substr(open + 2, close - open - 2), nullptr, 16));
    }
    return out;
}

// SASS metrics of pointer_chase: every thread runs the HOT line's dependent global load `steps` times,
// however the compiler unrolled the loop, so the LDGs of the kernel add up to exactly (threads / 32) x
// steps warp-level and threads x steps thread-level executions in the pass's one patched launch.
void checkChaseCounts(const profiler::SourceProfile &p, const std::string &sass, const Json &task, int hotLine)
{
    const uint64_t threads = task["params"].value("T", 0ull), steps = task["params"].value("S", 0ull);
    KF_CHECK(threads > 0 && threads % 32 == 0 && steps > 0);
    if (std::find(p.missing.begin(), p.missing.end(), "sass_metrics") != p.missing.end()) {
        KF_CHECK_MSG(false, "no SASS metrics: " + p.reason);
        return;
    }
    KF_CHECK_MSG(p.sassRuns == 1, "sass_runs " + std::to_string(p.sassRuns));
    const std::set<uint64_t> loads = globalLoadOffsets(sass);
    KF_CHECK_MSG(!loads.empty(), "no LDG in the listing");
    uint64_t warps = 0, lanes = 0, lineWarps = 0, unsampled = 0, counted = 0;
    for (const profiler::SourceKernel &k : p.kernels) {
        if (k.side != "candidate" || k.name.find("chase") == std::string::npos)
            continue;
        for (const profiler::SourcePc &pc : k.pcs) {
            counted += pc.executed ? 1 : 0;
            unsampled += pc.executed && pc.samples == 0 ? 1 : 0;
            if (static_cast<int>(pc.line) == hotLine && pc.executed)
                lineWarps += *pc.executed;
            if (!loads.count(pc.offset))
                continue;
            KF_CHECK_MSG(pc.executed && pc.threadsExecuted, "LDG at " + std::to_string(pc.offset) + " not counted");
            KF_CHECK_MSG(static_cast<int>(pc.line) == hotLine, "LDG at line " + std::to_string(pc.line));
            warps += pc.executed.value_or(0);
            lanes += pc.threadsExecuted.value_or(0);
        }
    }
    KF_CHECK_MSG(warps == threads / 32 * steps, "LDG warp-level executions " + std::to_string(warps) + ", expected "
                                                    + std::to_string(threads / 32 * steps));
    KF_CHECK_MSG(lanes == threads * steps, "LDG thread-level executions " + std::to_string(lanes) + ", expected "
                                               + std::to_string(threads * steps));
    KF_CHECK(lineWarps >= warps);
    double sassMs = 0;
    for (const auto &[step, ms] : p.costSplitMs)
        if (step == "sass_metrics")
            sassMs = ms;
    KF_CHECK_MSG(sassMs > 0, "no cost_split_ms step sass_metrics");
    std::printf("pointer_chase SASS metrics: %zu LDG(s) at line %d executed %llu times (warp-level, expected %llu), "
                "%llu thread-level (expected %llu); line %d: %llu; %llu PCs counted, %llu of them never sampled\n",
                loads.size(), hotLine, static_cast<unsigned long long>(warps),
                static_cast<unsigned long long>(threads / 32 * steps), static_cast<unsigned long long>(lanes),
                static_cast<unsigned long long>(threads * steps), hotLine, static_cast<unsigned long long>(lineWarps),
                static_cast<unsigned long long>(counted), static_cast<unsigned long long>(unsampled));
    std::printf("pointer_chase pass cost: %.1f ms with the SASS metrics step, %.1f ms without it (sass_metrics %.1f ms)\n",
                p.costMs, p.costMs - sassMs, sassMs);
}

struct Row {
    std::string task, variant, status, hot, stall;
    uint64_t samples = 0;
    double costMs = 0, evalOffMs = 0, evalOnMs = 0;
    std::string note;
};

} // namespace

int main()
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // a run cut short by a time limit still shows how far it got
    Worker w(workerPath());
    const WorkerClient::Reply info = w.client().request(Json{{"op", "device_info"}}, 120);
    if (errorCode(info) == "no_device")
        skip("no GPU: " + errorMessage(info));
    KF_CHECK_MSG(info.ok() && info.message.value("ok", false), info.message.dump());
    const std::string arch = info.message["device"].value("arch", "sm_90");
    std::printf("device: %s\n", info.message["device"].value("name", "?").c_str());

    ScratchDir dir;
    const fs::path chaseSrc = fixtures() / "tasks" / "pointer_chase" / "reference.cu";
    const auto so = compileFixtures({{"chase_ref", chaseSrc}, {"chase", chaseSrc}}, dir.path(), arch);
    const TaskSpec chase = fixtureTask("pointer_chase");
    const int hotLine = lineContaining(chaseSrc, "// HOT:");
    KF_CHECK(hotLine > 0);
    std::vector<Row> rows;
    profiler::SourceProfile chaseProfile; // section 1's pass, checked against the SASS in section 3

    // 1. Off: no key, no cost. On: the hottest line is the dependent load, waiting on memory.
    {
        double offMs = 0, onMs = 0;
        const Json off = w.evaluate(chase, so.at("chase_ref"), so.at("chase"), kQuick, offMs);
        KF_CHECK(!off.is_null() && off["result"].value("verdict", "") == "correct");
        KF_CHECK_MSG(!off.is_null() && !off["result"].contains("source_profile"), "source_profile present although off");
        const Json on = w.evaluate(chase, so.at("chase_ref"), so.at("chase"), with(kQuick, {{"source_profile", true}}),
                                   onMs);
        save("pointer_chase.evaluate", on);
        KF_CHECK(!on.is_null() && on["result"].value("verdict", "") == "correct" && on["result"].contains("timing"));
        const profiler::SourceProfile p = profileOf(on, "pointer_chase");
        chaseProfile = p;
        if (p.status == "unavailable"
            && std::find(p.missing.begin(), p.missing.end(), "counters_permission") != p.missing.end())
            skip("PC sampling is not permitted on this host: " + p.reason);
        KF_CHECK_MSG(p.status == "ok", p.status + ": " + p.reason);
        const std::vector<profiler::HotLine> lines = profiler::hottestLines(p, "candidate");
        Row row{"pointer_chase", "reference.cu", p.status, "", "", 0, p.costMs, offMs, onMs, p.reason};
        if (!lines.empty()) {
            const profiler::HotLine &top = lines.front();
            row.hot = fs::path(top.file).filename().string() + ":" + std::to_string(top.line);
            row.stall = top.topStall;
            row.samples = top.samples;
            KF_CHECK_MSG(fs::path(top.file).filename() == "reference.cu", top.file);
            KF_CHECK_MSG(static_cast<int>(top.line) == hotLine,
                         "hottest line " + std::to_string(top.line) + ", expected the load at " + std::to_string(hotLine));
            KF_CHECK_MSG(kMemoryStalls.count(top.topStall) > 0, "top stall of the load line: " + top.topStall);
            uint64_t total = 0;
            for (const profiler::HotLine &l : lines)
                total += l.samples;
            std::printf("pointer_chase: hottest line %d has %llu of %llu samples, top stall %s\n", top.line,
                        static_cast<unsigned long long>(top.samples), static_cast<unsigned long long>(total),
                        top.topStall.c_str());
        } else {
            KF_CHECK_MSG(false, "no source line in the profile: " + p.reason);
        }
        KF_CHECK_MSG(p.costMs > 0 && p.costMs <= 1500, "cost_ms " + std::to_string(p.costMs) + " (target <= 1500)");
        KF_CHECK(p.runs >= 1 && p.period >= 5 && !p.stallReasons.empty());
        std::printf("overhead: evaluation %.0f ms without the pass, %.0f ms with it (cost_ms %.1f, %d runs, period 2^%d)\n",
                    offMs, onMs, p.costMs, p.runs, p.period);
        std::printf("cost split (ms): %s\n",
                    on["result"]["source_profile"].value("cost_split_ms", Json::object()).dump().c_str());
        const auto hasStep = [&p](const char *step) {
            return std::any_of(p.costSplitMs.begin(), p.costSplitMs.end(),
                               [step](const auto &s) { return s.first == step; });
        };
        KF_CHECK_MSG(hasStep("enable") && hasStep("decode") && hasStep("launches"), "cost_split_ms incomplete");
        rows.push_back(row);

        // The reference too, on request; and an explicit period.
        double ms = 0;
        const Json both = w.evaluate(
            chase, so.at("chase_ref"), so.at("chase"),
            with(kQuick, {{"source_profile", true}, {"source_profile_reference", true}, {"source_profile_period", 8}}), ms);
        const profiler::SourceProfile pb = profileOf(both, "pointer_chase with reference");
        KF_CHECK_MSG(pb.status == "ok", pb.reason);
        KF_CHECK(pb.period == 8);
        KF_CHECK(!profiler::hottestLines(pb, "reference").empty() && !profiler::hottestLines(pb, "candidate").empty());
    }

    // 1b. With the trace and metrics passes before it (the client's defaults), and both still work in the
    // next evaluation after PC sampling was switched off again.
    {
        double ms = 0;
        const Json all = w.evaluate(chase, so.at("chase_ref"), so.at("chase"),
                                    with(kQuick, {{"trace", true}, {"metrics", true}, {"source_profile", true}}), ms);
        save("pointer_chase_trace_metrics.evaluate", all);
        const profiler::SourceProfile p = profileOf(all, "with trace and metrics");
        KF_CHECK_MSG(p.status == "ok", "after trace and metrics: " + p.status + ": " + p.reason);
        const Json after = w.evaluate(chase, so.at("chase_ref"), so.at("chase"),
                                      with(kQuick, {{"trace", true}, {"metrics", true}}), ms);
        KF_CHECK(!after.is_null() && !after["result"].contains("source_profile"));
        if (!after.is_null() && !all.is_null()) {
            const Json &a = all["result"], &b = after["result"];
            KF_CHECK_MSG(a["trace"].value("available", false) == b["trace"].value("available", false),
                         "trace after PC sampling: " + b["trace"].dump().substr(0, 300));
            KF_CHECK_MSG(a["metrics"]["candidate"].value("available", false)
                             == b["metrics"]["candidate"].value("available", false),
                         "metrics after PC sampling: " + b["metrics"].dump().substr(0, 300));
            std::printf("with trace+metrics: trace available %d, metrics available %d, source profile %s (cost_ms %.1f)\n",
                        b["trace"].value("available", false) ? 1 : 0,
                        b["metrics"]["candidate"].value("available", false) ? 1 : 0, p.status.c_str(), p.costMs);
        }
    }

    // 2. Built without -lineinfo: samples, but no lines, and the reason says why.
    {
        const fs::path noLines = dir.path() / "chase_nolines.so";
        const std::string cmd = findNvcc() + " -O3 -arch=" + arch + " -shared -Xcompiler -fPIC -I" + abiIncludeDir()
                                + " -o " + noLines.string() + " " + chaseSrc.string() + " 2>&1";
        KF_CHECK_MSG(std::system(cmd.c_str()) == 0, cmd);
        double ms = 0;
        const Json r = w.evaluate(chase, so.at("chase_ref"), noLines.string(), with(kQuick, {{"source_profile", true}}), ms);
        save("pointer_chase_nolineinfo.evaluate", r);
        const profiler::SourceProfile p = profileOf(r, "without -lineinfo");
        KF_CHECK(std::find(p.missing.begin(), p.missing.end(), "line_info") != p.missing.end());
        KF_CHECK_CONTAINS(p.reason, "-lineinfo");
        KF_CHECK(profiler::hottestLines(p, "candidate").empty() && !p.kernels.empty());
    }

    // 2b. A candidate whose host code misbehaves only in the pass's process (its second host, after the
    // timing host): the verdict and the timing are the evaluation's own, and the profile says what happened.
    {
        const fs::path src = fixtures() / "kernels" / "chase_helper_misbehaves.cu";
        const std::vector<std::pair<int, std::string>> modes{{1, "was killed by signal 11"},
                                                             {2, "exited with status 0"},
                                                             {3, ""}};
        for (const auto &[mode, expected] : modes) {
            const std::string name = "chase_helper_mode" + std::to_string(mode);
            const std::string marker = "/dev/shm/kforge-chase-" + std::to_string(::getpid()) + "-" + std::to_string(mode);
            std::error_code ec;
            fs::remove(marker, ec);
            const auto lib = compileFixtures({{name, src}}, dir.path(), arch,
                                             {"-DKF_HELPER_MODE=" + std::to_string(mode),
                                              "-DKF_MARKER_ID=" + std::to_string(::getpid())});
            double ms = 0;
            const Json r = w.evaluate(chase, so.at("chase_ref"), lib.at(name), with(kQuick, {{"source_profile", true}}), ms);
            KF_CHECK_MSG(!r.is_null() && r["result"].value("verdict", "") == "correct" && r["result"].contains("timing"),
                         name + ": " + (r.is_null() ? std::string("no reply") : r["result"].dump().substr(0, 400)));
            const profiler::SourceProfile p = profileOf(r, name.c_str());
            if (expected.empty()) { // the flood: the helper goes on and samples
                KF_CHECK_MSG(p.status == "ok", name + ": " + p.status + ": " + p.reason);
            } else {
                KF_CHECK_MSG(p.status == "failed", name + ": " + p.status);
                KF_CHECK_CONTAINS(p.reason, expected);
                KF_CHECK_CONTAINS(p.reason, "The evaluation's verdict and timing are not affected.");
            }
            fs::remove(marker, ec);
            std::printf("%s: verdict %s, source_profile %s: %s\n", name.c_str(),
                        r.is_null() ? "?" : r["result"].value("verdict", "?").c_str(), p.status.c_str(),
                        p.reason.substr(0, 160).c_str());
        }
    }

    // 3. disassemble of the loaded candidate (the -lineinfo build again): SASS with line info of the compiled file.
    {
        w.ok(Json{{"op", "load"}, {"slot", "candidate"}, {"path", so.at("chase")}}, 60, "load candidate");
        const Json r = w.ok(Json{{"op", "disassemble"}, {"slot", "candidate"}}, 120, "disassemble");
        save("pointer_chase.disassemble", r);
        if (!r.is_null()) {
            KF_CHECK_CONTAINS(r.value("tool", ""), "nvdisasm");
            KF_CHECK(r.value("arch", "") == arch);
            KF_CHECK(r.contains("cubins") && !r["cubins"].empty());
            std::string sass, names;
            for (const Json &c : r.value("cubins", Json::array())) {
                sass += c.value("sass", "");
                names += c.value("name", "") + " (" + std::to_string(c.value("sass", "").size()) + " chars) ";
            }
            KF_CHECK_MSG(sass.find("_Z5chase") != std::string::npos, "no chase kernel in the cubins " + names);
            KF_CHECK_MSG(sass.find("//## File") != std::string::npos && sass.find("reference.cu") != std::string::npos,
                         "no line info for reference.cu in the cubins " + names);
            checkChaseCounts(chaseProfile, sass, toJson(chase), hotLine);
        }
    }

    // 4. Every built-in task's good candidate.
    const fs::path tasksDir = fs::path(KFORGE_TEST_SOURCE_DIR) / "resources" / "tasks";
    std::vector<fs::path> folders;
    for (const auto &e : fs::directory_iterator(tasksDir))
        if (fs::exists(e.path() / "reference.cu")) // CUDA tasks; a torch task (reference.py) has no source pass
            folders.push_back(e.path());
        else if (fs::exists(e.path() / "reference.py"))
            std::printf("skip %s: a torch task\n", e.path().filename().c_str());
    std::sort(folders.begin(), folders.end());
    struct Job {
        TaskSpec task;
        std::string variant;
        std::string ref, cand;
    };
    std::vector<Job> jobs;
    std::vector<NvccJob> builds;
    for (const fs::path &f : folders) {
        const TaskSpecResult t = loadTaskFolder(f);
        if (!t.ok()) {
            KF_CHECK_MSG(false, f.string() + ": " + t.error.message());
            continue;
        }
        const VariantSpec *good = nullptr;
        for (const VariantSpec &v : t.spec->variants)
            if (v.label == "good")
                good = &v;
        for (const VariantSpec &v : t.spec->variants)
            if (!good && v.expect && v.expect->verdict == "correct" && v.label != "naive" && v.label != "constant")
                good = &v;
        if (!good)
            continue;
        std::vector<std::string> flags = t.spec->nvccFlags;
        Job j{*t.spec, good->file, (dir.path() / (t.spec->name + "_ref.so")).string(),
              (dir.path() / (t.spec->name + "_good.so")).string()};
        builds.push_back({f / "reference.cu", j.ref, flags});
        flags.insert(flags.end(), good->nvccFlags.begin(), good->nvccFlags.end());
        builds.push_back({f / good->file, j.cand, flags});
        jobs.push_back(std::move(j));
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<NvccResult> built = compileKernels(builds, arch);
    std::printf("compiled %zu built-in kernels in %.1f s\n", builds.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const Job &j = jobs[i];
        Row row{j.task.name, fs::path(j.variant).filename().string(), "", "", "", 0, 0, 0, 0, ""};
        if (!built[2 * i].ok || !built[2 * i + 1].ok) {
            KF_CHECK_MSG(false, j.task.name + " does not compile: " + built[2 * i].log + built[2 * i + 1].log);
            continue;
        }
        double ms = 0;
        const Json r = w.evaluate(j.task, j.ref, j.cand, with(kQuick, {{"source_profile", true}}), ms);
        save(j.task.name + ".evaluate", r);
        save(j.task.name + ".disassemble", w.ok(Json{{"op", "disassemble"}, {"slot", "candidate"}}, 120, "disassemble"));
        row.evalOnMs = ms;
        const profiler::SourceProfile p = profileOf(r, j.task.name.c_str());
        row.status = p.status;
        row.costMs = p.costMs;
        row.note = p.reason.substr(0, 120);
        const std::vector<profiler::HotLine> lines = profiler::hottestLines(p, "candidate");
        if (!lines.empty()) {
            row.hot = fs::path(lines.front().file).filename().string() + ":" + std::to_string(lines.front().line);
            row.stall = lines.front().topStall;
            row.samples = lines.front().samples;
            // Inlined header code (cuda_bf16.hpp, ...) counts on the candidate's line that called it.
            KF_CHECK_MSG(fs::path(lines.front().file).filename() == fs::path(j.variant).filename(),
                         j.task.name + ": hottest line in " + lines.front().file + ":" + std::to_string(lines.front().line));
        }
        KF_CHECK_MSG(p.status == "ok", j.task.name + ": " + p.status + ": " + p.reason);
        // Library kernels (cuBLAS) have no line info of ours; every other good candidate must have lines.
        const bool library = std::any_of(j.task.nvccFlags.begin(), j.task.nvccFlags.end(),
                                         [](const std::string &f) { return f.find("cublas") != std::string::npos; });
        KF_CHECK_MSG(!lines.empty() || library, j.task.name + ": no source line: " + p.reason);
        KF_CHECK_MSG(p.costMs <= 1500, j.task.name + ": cost_ms " + std::to_string(p.costMs) + " (target <= 1500)");
        if (!r.is_null())
            std::printf("cost split %s (ms, %d runs, period 2^%d): %s\n", j.task.name.c_str(), p.runs, p.period,
                        r["result"]["source_profile"].value("cost_split_ms", Json::object()).dump().c_str());
        rows.push_back(row);
    }

    std::printf("\n%-28s %-22s %-7s %-26s %-18s %8s %9s %9s\n", "task", "candidate", "status", "hottest line", "stall",
                "samples", "cost_ms", "eval_ms");
    for (const Row &r : rows)
        std::printf("%-28s %-22s %-7s %-26s %-18s %8llu %9.1f %9.0f%s%s\n", r.task.c_str(), r.variant.c_str(),
                    r.status.c_str(), r.hot.c_str(), r.stall.c_str(), static_cast<unsigned long long>(r.samples),
                    r.costMs, r.evalOnMs, r.note.empty() ? "" : "  ", r.note.c_str());
    return finish("tst_source_profile_gpu");
}
