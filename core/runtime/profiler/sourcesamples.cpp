#include "core/runtime/profiler/sourcesamples.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace kforge::runtime::profiler {

void SourceProfile::addMissing(const std::string &what, const std::string &why)
{
    if (std::find(missing.begin(), missing.end(), what) == missing.end())
        missing.push_back(what);
    if (!why.empty())
        reason += (reason.empty() ? "" : " ") + why;
}

void SourceProfile::addCost(const std::string &step, double ms)
{
    for (auto &[name, value] : costSplitMs)
        if (name == step) {
            value += ms;
            return;
        }
    costSplitMs.emplace_back(step, ms);
}

SourceProfile SourceProfile::unavailable(const std::string &missing, const std::string &reason)
{
    SourceProfile p;
    p.status = "unavailable";
    p.addMissing(missing, reason);
    return p;
}

nlohmann::ordered_json SourceProfile::toJson() const
{
    nlohmann::ordered_json j;
    j["status"] = status;
    j["reason"] = reason;
    j["missing"] = missing;
    j["cost_ms"] = costMs;
    nlohmann::ordered_json split = nlohmann::ordered_json::object();
    for (const auto &[step, ms] : costSplitMs)
        split[step] = std::round(ms * 10) / 10;
    j["cost_split_ms"] = split;
    j["period"] = period;
    j["runs"] = runs;
    j["sass_runs"] = sassRuns;
    j["stall_reasons"] = stallReasons;
    nlohmann::ordered_json names = nlohmann::ordered_json::object();
    for (const std::string &s : stallReasons)
        if (const auto it = cuptiNames.find(s); it != cuptiNames.end())
            names[s] = it->second;
    j["cupti_stall_reasons"] = names;
    nlohmann::ordered_json ks = nlohmann::ordered_json::array();
    for (const SourceKernel &k : kernels) {
        nlohmann::ordered_json kj;
        kj["name"] = k.name;
        kj["side"] = k.side;
        kj["samples"] = k.samples;
        kj["dropped"] = k.dropped;
        nlohmann::ordered_json pcs = nlohmann::ordered_json::array();
        for (const SourcePc &pc : k.pcs) {
            nlohmann::ordered_json pj;
            pj["offset"] = pc.offset;
            pj["samples"] = pc.samples;
            nlohmann::ordered_json stalls = nlohmann::ordered_json::object();
            // Most samples first, so a reader sees the dominant reason without sorting.
            std::vector<std::pair<std::string, uint64_t>> sorted(pc.stalls.begin(), pc.stalls.end());
            std::stable_sort(sorted.begin(), sorted.end(),
                             [](const auto &a, const auto &b) { return a.second > b.second; });
            for (const auto &[name, n] : sorted)
                stalls[name] = n;
            pj["stalls"] = stalls;
            if (pc.line > 0) {
                pj["file"] = pc.file;
                pj["line"] = pc.line;
            }
            if (pc.inlinedLine > 0)
                pj["inlined_from"] = nlohmann::ordered_json{{"file", pc.inlinedFile}, {"line", pc.inlinedLine}};
            if (pc.executed)
                pj["executed"] = *pc.executed;
            if (pc.threadsExecuted)
                pj["threads_executed"] = *pc.threadsExecuted;
            pcs.push_back(pj);
        }
        kj["pcs"] = pcs;
        ks.push_back(kj);
    }
    j["kernels"] = ks;
    return j;
}

bool SourceProfile::fromJson(const nlohmann::ordered_json &j, SourceProfile &out, std::string &error)
{
    out = SourceProfile();
    try {
        if (!j.is_object()) {
            error = "source_profile: expected an object";
            return false;
        }
        out.status = j.at("status").get<std::string>();
        if (out.status != "ok" && out.status != "unavailable" && out.status != "failed") {
            error = "source_profile.status: expected ok, unavailable or failed, got " + out.status;
            return false;
        }
        out.reason = j.value("reason", "");
        out.missing = j.value("missing", std::vector<std::string>{});
        out.costMs = j.value("cost_ms", 0.0);
        if (const auto it = j.find("cost_split_ms"); it != j.end() && it->is_object())
            for (const auto &[step, ms] : it->items())
                out.costSplitMs.emplace_back(step, ms.get<double>());
        out.period = j.value("period", 0);
        out.runs = j.value("runs", 0);
        out.sassRuns = j.value("sass_runs", 0);
        out.stallReasons = j.value("stall_reasons", std::vector<std::string>{});
        if (const auto it = j.find("cupti_stall_reasons"); it != j.end() && it->is_object())
            for (const auto &[k, v] : it->items())
                out.cuptiNames[k] = v.get<std::string>();
        for (const auto &kj : j.value("kernels", nlohmann::ordered_json::array())) {
            SourceKernel k;
            k.name = kj.at("name").get<std::string>();
            k.side = kj.at("side").get<std::string>();
            k.samples = kj.at("samples").get<uint64_t>();
            k.dropped = kj.value("dropped", uint64_t(0));
            for (const auto &pj : kj.at("pcs")) {
                SourcePc pc;
                pc.offset = pj.at("offset").get<uint64_t>();
                pc.samples = pj.at("samples").get<uint64_t>();
                for (const auto &[name, n] : pj.at("stalls").items())
                    pc.stalls[name] = n.get<uint64_t>();
                pc.file = pj.value("file", "");
                pc.line = pj.value("line", 0u);
                if (const auto in = pj.find("inlined_from"); in != pj.end() && in->is_object()) {
                    pc.inlinedFile = in->value("file", "");
                    pc.inlinedLine = in->value("line", 0u);
                }
                if (const auto e = pj.find("executed"); e != pj.end())
                    pc.executed = e->get<uint64_t>();
                if (const auto e = pj.find("threads_executed"); e != pj.end())
                    pc.threadsExecuted = e->get<uint64_t>();
                k.pcs.push_back(std::move(pc));
            }
            out.kernels.push_back(std::move(k));
        }
    } catch (const nlohmann::json::exception &e) {
        error = std::string("source_profile: ") + e.what();
        return false;
    }
    return true;
}

std::string shortStallReason(std::string_view cuptiName)
{
    for (const std::string_view prefix :
         {std::string_view("smsp__pcsamp_warps_issue_stalled_"), std::string_view("smsp__pcsamp_warps_issue_"),
          std::string_view("smsp__pcsamp_"), std::string_view("smsp__")})
        if (cuptiName.size() > prefix.size() && cuptiName.substr(0, prefix.size()) == prefix)
            return std::string(cuptiName.substr(prefix.size()));
    return std::string(cuptiName);
}

bool isNotIssuedVariant(std::string_view cuptiName)
{
    constexpr std::string_view suffix = "_not_issued";
    return cuptiName.size() > suffix.size() && cuptiName.substr(cuptiName.size() - suffix.size()) == suffix;
}

std::vector<HotLine> hottestLines(const SourceProfile &profile, const std::string &side)
{
    std::map<std::pair<std::string, uint32_t>, HotLine> byLine;
    for (const SourceKernel &k : profile.kernels) {
        if (k.side != side)
            continue;
        for (const SourcePc &pc : k.pcs) {
            if (pc.line == 0 || pc.samples == 0) // a PC only counted by SASS metrics is not hot
                continue;
            HotLine &h = byLine[{pc.file, pc.line}];
            h.file = pc.file;
            h.line = pc.line;
            h.samples += pc.samples;
            for (const auto &[name, n] : pc.stalls)
                h.stalls[name] += n;
        }
    }
    std::vector<HotLine> lines;
    for (auto &[key, h] : byLine) {
        uint64_t best = 0;
        for (const auto &[name, n] : h.stalls)
            if (n > best) {
                best = n;
                h.topStall = name;
            }
        lines.push_back(std::move(h));
    }
    std::sort(lines.begin(), lines.end(), [](const HotLine &a, const HotLine &b) {
        return std::tie(b.samples, a.file, a.line) < std::tie(a.samples, b.file, b.line);
    });
    return lines;
}

} // namespace kforge::runtime::profiler
