// The precision contract's arithmetic (core/runtime/worker/precisioncontract.h) on recorded outputs
// (tests/fixtures/precision/, made by its make_fixtures.py): honest orders of f32 and f16 work stay clean, TF32,
// bf16, f16 and FP8 inside stay flagged, and the figures the flag names are the recorded ones.
#include "check.h"
#include "core/runtime/worker/precisioncontract.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

using namespace kforge::runtime;

namespace {

const std::string kDir = KFORGE_TEST_FIXTURES_DIR "/precision/";

Dtype dtypeOf(const std::string &name)
{
    return name == "f16" ? Dtype::F16 : name == "bf16" ? Dtype::BF16 : name == "f64" ? Dtype::F64 : Dtype::F32;
}

std::vector<double> load(const std::string &file, Dtype dtype, std::size_t n)
{
    std::ifstream in(kDir + file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    KF_CHECK_MSG(bytes.size() == n * dtypeSize(dtype), file + ": " + std::to_string(bytes.size()) + " bytes");
    if (bytes.size() != n * dtypeSize(dtype))
        return std::vector<double>(n, 0.0);
    return toDoubles(bytes.data(), dtype, n);
}

void recordedCases()
{
    std::ifstream in(kDir + "cases.json");
    const auto manifest = nlohmann::json::parse(in);
    int lost = 0, clean = 0;
    for (const auto &c : manifest.at("cases")) {
        const Dtype dtype = dtypeOf(c.at("dtype").get<std::string>());
        const auto n = c.at("elements").get<std::size_t>();
        const std::vector<double> exact = load(c.at("exact").get<std::string>(), Dtype::F64, n);
        const std::vector<double> ref = load(c.at("reference").get<std::string>(), dtype, n);
        for (const auto &k : c.at("candidates")) {
            const std::string what = c.at("name").get<std::string>() + " / " + k.at("name").get<std::string>();
            PrecisionContract contract;
            judgeOutput(contract, "out", dtype, exact, ref, load(k.at("data").get<std::string>(), dtype, n));
            concludePrecision(contract);
            const bool expected = k.at("lost").get<bool>();
            const PrecisionOutput &o = contract.outputs.at(0);
            KF_CHECK_MSG(contract.available && contract.lost == expected,
                         what + ": candidate " + std::to_string(o.candidateError) + ", reference "
                             + std::to_string(o.referenceError) + ", threshold " + std::to_string(o.threshold));
            // A margin of at least 2 either way: the rule does not hang on the recorded rounding.
            const double margin = o.candidateError > o.threshold ? o.candidateError / o.threshold
                                                                 : o.threshold / std::max(o.candidateError, 1e-300);
            KF_CHECK_MSG(margin >= 2, what + ": margin " + std::to_string(margin));
            if (expected) {
                ++lost;
                KF_CHECK_CONTAINS(contract.message, "vs float64, reference ");
                KF_CHECK_CONTAINS(contract.message, "Precision lowered: candidate max rel error ");
                const auto j = contract.toJson();
                KF_CHECK(j.at("lost") == true && j.at("candidate_error").get<double>() == o.candidateError);
                KF_CHECK(j.at("ratio").get<double>() > kPrecisionRatio);
            } else {
                ++clean;
                KF_CHECK(contract.message.empty() && contract.toJson().at("lost") == false);
            }
        }
        // The reference against itself: never lost.
        PrecisionContract self;
        judgeOutput(self, "out", dtype, exact, ref, ref);
        concludePrecision(self);
        KF_CHECK(!self.lost);
    }
    KF_CHECK(lost >= 5 && clean >= 5);
}

void arithmetic()
{
    // |y - x| / (|x| + rms(x)): x = {3, -4} has rms sqrt(12.5).
    const double rms = std::sqrt(12.5);
    KF_CHECK(std::fabs(maxRelativeError({3.5, -4}, {3, -4}) - 0.5 / (3 + rms)) < 1e-15);
    KF_CHECK(maxRelativeError({3, -4}, {3, -4}) == 0);
    // A non-finite exact element is skipped; a non-finite candidate where the exact is finite is infinite error.
    const double inf = std::numeric_limits<double>::infinity();
    KF_CHECK(maxRelativeError({inf, 1}, {inf, 1}) == 0);
    KF_CHECK(std::isinf(maxRelativeError({1, NAN}, {1, 1})));
    // Raw halves and bf16 as the GPU writes them.
    const uint16_t halves[] = {0x3c00, 0xc000, 0x0001, 0x7c00};
    const std::vector<double> h = toDoubles(halves, Dtype::F16, 4);
    KF_CHECK(h[0] == 1 && h[1] == -2 && h[2] == std::ldexp(1.0, -24) && std::isinf(h[3]));
    const uint16_t bf[] = {0x3f80, 0xbfc0};
    const std::vector<double> b = toDoubles(bf, Dtype::BF16, 2);
    KF_CHECK(b[0] == 1 && b[1] == -1.5);
    // Floors per dtype; integers and f64 are not judged.
    KF_CHECK(precisionFloor(Dtype::F32) == std::ldexp(1.0, -14) && precisionFloor(Dtype::F16) == std::ldexp(1.0, -7));
    KF_CHECK(precisionFloor(Dtype::I32) == 0 && precisionFloor(Dtype::F64) == 0);
    PrecisionContract ints;
    judgeOutput(ints, "idx", Dtype::I32, {1, 2}, {1, 2}, {5, 7});
    concludePrecision(ints);
    KF_CHECK(!ints.available && !ints.lost && ints.outputs.empty());
    // The ratio over the reference's error: 64x is the line, above the dtype's floor.
    PrecisionContract c;
    const double x = 1.0, refErr = 1e-5;
    judgeOutput(c, "a", Dtype::F32, {x}, {x + refErr * (x + x)}, {x + 70 * refErr * (x + x)});
    judgeOutput(c, "b", Dtype::F32, {x}, {x}, {x});
    concludePrecision(c);
    KF_CHECK(c.lost && c.outputs.size() == 2 && c.outputs[0].lost && !c.outputs[1].lost);
    KF_CHECK_CONTAINS(c.message, "output a, f32");
    KF_CHECK_CONTAINS(c.message, ": 70x");
    // Not available: the reason, nothing else.
    const auto na = PrecisionContract::notAvailable("the reference is a compiled kernel").toJson();
    KF_CHECK(na.at("available") == false && na.at("reason") == "the reference is a compiled kernel" && !na.contains("lost"));
}

} // namespace

int main()
{
    arithmetic();
    recordedCases();
    return kforge::runtime::test::finish("tst_precision_contract");
}
