// Edge inputs without a GPU (core/runtime/task/inputrange.h): the edge trials of every built-in task, the
// scaled distributions, the special values each declared input admits (an index input never leaves its
// bounds, an input declared positive gets no negative value) and the judge's "the reference decides" rule.
#include "check.h"
#include "core/runtime/task/inputrange.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

using namespace kforge::runtime;

namespace {

TensorSpec input(Dtype dtype, InitSpec::Kind kind, double a, double b)
{
    TensorSpec t;
    t.name = "x";
    t.dtype = dtype;
    t.shape = {ShapeDim{"64", true, 64}};
    t.init = InitSpec{kind, a, b};
    return t;
}

bool has(const std::vector<double> &v, double x)
{
    return std::any_of(v.begin(), v.end(), [x](double y) { return y == x && std::signbit(y) == std::signbit(x); });
}

std::string list(const std::vector<double> &v)
{
    std::string s;
    for (double x : v)
        s += (s.empty() ? "" : ", ") + std::to_string(x) + (std::signbit(x) && x == 0 ? "(-0)" : "");
    return s;
}

void scaled()
{
    const TensorSpec normal = input(Dtype::F32, InitSpec::Kind::Normal, 1, 2);
    const InitSpec n = rangedInit(normal, InputRange::Scaled, 16);
    KF_CHECK(n.kind == InitSpec::Kind::Normal && n.a == 1 && n.b == 32); // sigma x16, mean kept
    KF_CHECK(rangedInit(normal, InputRange::Declared, 16) == normal.init);
    KF_CHECK(rangedInit(normal, InputRange::Special, 16) == normal.init);

    const InitSpec u = rangedInit(input(Dtype::BF16, InitSpec::Kind::Uniform, 0.5, 1.5), InputRange::Scaled, 256);
    KF_CHECK(u.a == 128 && u.b == 384); // positive stays positive
    // Integer-valued and constant inputs keep their declared bounds.
    const TensorSpec index = input(Dtype::I32, InitSpec::Kind::Integers, 0, 100);
    KF_CHECK(rangedInit(index, InputRange::Scaled, 4096) == index.init);
    const TensorSpec intNormal = input(Dtype::I64, InitSpec::Kind::Normal, 0, 5);
    KF_CHECK(rangedInit(intNormal, InputRange::Scaled, 16) == intNormal.init);
    const TensorSpec constant = input(Dtype::F32, InitSpec::Kind::Constant, 3, 0);
    KF_CHECK(rangedInit(constant, InputRange::Scaled, 16) == constant.init);
    // A scale that makes no sense is 1.
    KF_CHECK(rangedInit(normal, InputRange::Scaled, -4) == normal.init);
    KF_CHECK(rangedInit(normal, InputRange::Scaled, NAN) == normal.init);
}

void specials()
{
    // An unbounded float input: all eight, +-max/2 among them.
    const auto f32 = specialValues(input(Dtype::F32, InitSpec::Kind::Normal, 0, 1), InputRange::Special, 2);
    KF_CHECK_MSG(f32.size() == 8, list(f32));
    for (double x :
         {0.0, -0.0, 0x1p-126, -0x1p-126, 0x1p-149, -0x1p-149, 3.4028234663852886e38 / 2, -3.4028234663852886e38 / 2})
        KF_CHECK_MSG(has(f32, x), std::to_string(x) + " missing from " + list(f32));
    const auto f16 = specialValues(input(Dtype::F16, InitSpec::Kind::Normal, 0, 1), InputRange::Special, 4);
    KF_CHECK(has(f16, 65504.0 / 4) && has(f16, 0x1p-14) && has(f16, 0x1p-24) && !has(f16, 0x1p-126));
    const auto bf16 = specialValues(input(Dtype::BF16, InitSpec::Kind::Normal, 0, 1), InputRange::Special, 1);
    KF_CHECK(has(bf16, 3.3895313892515355e38) && has(bf16, 0x1p-133));
    const auto f64 = specialValues(input(Dtype::F64, InitSpec::Kind::Normal, 0, 1), InputRange::Special, 2);
    KF_CHECK(has(f64, std::numeric_limits<double>::denorm_min()) && has(f64, std::numeric_limits<double>::max() / 2));
    // Nothing outside Special.
    KF_CHECK(specialValues(input(Dtype::F32, InitSpec::Kind::Normal, 0, 1), InputRange::Scaled, 2).empty());

    // Declared positive: no negative value, no zero; declared non-negative: +0 but not -0.
    const auto positive = specialValues(input(Dtype::F32, InitSpec::Kind::Uniform, 0.5, 1.5), InputRange::Special, 2);
    KF_CHECK_MSG(positive.size() == 3 && std::all_of(positive.begin(), positive.end(), [](double x) { return x > 0; }),
                 list(positive));
    const auto nonNegative = specialValues(input(Dtype::F32, InitSpec::Kind::Uniform, 0, 1), InputRange::Special, 2);
    KF_CHECK_MSG(has(nonNegative, 0.0) && !has(nonNegative, -0.0)
                     && std::none_of(nonNegative.begin(), nonNegative.end(), [](double x) { return x < 0; }),
                 list(nonNegative));
    const auto nonPositive = specialValues(input(Dtype::F32, InitSpec::Kind::Uniform, -1, 0), InputRange::Special, 2);
    KF_CHECK_MSG(has(nonPositive, -0.0) && !has(nonPositive, 0.0)
                     && std::none_of(nonPositive.begin(), nonPositive.end(), [](double x) { return x > 0; }),
                 list(nonPositive));
    const auto both = specialValues(input(Dtype::F32, InitSpec::Kind::Uniform, -1, 1), InputRange::Special, 2);
    KF_CHECK_MSG(both.size() == 8, list(both));

    // Integer-valued inputs stay inside their declared bounds (high exclusive): an index never goes out of range.
    const auto bytes = specialValues(input(Dtype::U8, InitSpec::Kind::Integers, 0, 256), InputRange::Special, 2);
    KF_CHECK_MSG(bytes.size() == 2 && has(bytes, 0) && has(bytes, 255), list(bytes));
    const auto centred = specialValues(input(Dtype::I32, InitSpec::Kind::Integers, -100, 100), InputRange::Special, 2);
    KF_CHECK_MSG(centred.size() == 4 && has(centred, -100) && has(centred, 99) && has(centred, 0) && has(centred, -1),
                 list(centred));
    const auto index = specialValues(input(Dtype::I64, InitSpec::Kind::Integers, 3, 10), InputRange::Special, 2);
    KF_CHECK_MSG(index.size() == 2 && has(index, 3) && has(index, 9), list(index));
    const auto floatIndex = specialValues(input(Dtype::F32, InitSpec::Kind::Integers, 0, 8), InputRange::Special, 2);
    KF_CHECK_MSG(floatIndex.size() == 2 && has(floatIndex, 0) && has(floatIndex, 7), list(floatIndex));
    const auto intUniform = specialValues(input(Dtype::I32, InitSpec::Kind::Uniform, 1, 5), InputRange::Special, 2);
    KF_CHECK_MSG(intUniform.size() == 2 && has(intUniform, 1) && has(intUniform, 5), list(intUniform));
    // Unbounded integers: the dtype's extremes, 0 and -1 (u8 has no -1).
    const auto i32 = specialValues(input(Dtype::I32, InitSpec::Kind::Normal, 0, 3), InputRange::Special, 2);
    KF_CHECK_MSG(i32.size() == 4 && has(i32, -2147483648.0) && has(i32, 2147483647.0) && has(i32, -1), list(i32));
    const auto u8 = specialValues(input(Dtype::U8, InitSpec::Kind::Normal, 100, 3), InputRange::Special, 2);
    KF_CHECK_MSG(u8.size() == 2 && has(u8, 0) && has(u8, 255), list(u8));
    KF_CHECK(specialValues(input(Dtype::F32, InitSpec::Kind::Constant, 1, 0), InputRange::Special, 2).empty());
    for (const auto *v : {&f32, &positive, &bytes, &i32})
        KF_CHECK(v->size() <= static_cast<std::size_t>(kMaxSpecialValues));
}

void builtInTasks()
{
    // Every bundled task: scaled x16, x256, x4096 where a float input can be scaled, then the special values.
    const std::vector<EdgeTrial> full{
        {InputRange::Scaled, 16}, {InputRange::Scaled, 256}, {InputRange::Scaled, 4096}, {InputRange::Special, 2}};
    const std::vector<EdgeTrial> specialOnly{{InputRange::Special, 2}};
    const std::map<std::string, std::vector<EdgeTrial>> expected{
        {"cumsum", specialOnly}, {"histogram", specialOnly}, // integer inputs: only their bounds' extremes
    };
    int tasks = 0;
    for (const auto &entry : std::filesystem::directory_iterator(KFORGE_TEST_SOURCE_DIR "/resources/tasks")) {
        // CUDA tasks only: a torch task (reference.py) has tests of its own.
        if (!std::filesystem::exists(entry.path() / "task.json") || !std::filesystem::exists(entry.path() / "reference.cu"))
            continue;
        const TaskSpecResult r = loadTaskFolder(entry.path());
        KF_CHECK_MSG(r.ok(), r.error.message());
        if (!r.ok())
            continue;
        ++tasks;
        const auto it = expected.find(r.spec->name);
        const std::vector<EdgeTrial> want = it == expected.end() ? full : it->second;
        const std::vector<EdgeTrial> got = edgeTrials(*r.spec);
        std::string labels;
        for (const EdgeTrial &e : got)
            labels += e.label() + "; ";
        KF_CHECK_MSG(got == want, r.spec->name + ": " + labels);
        // No special value outside an integer input's declared bounds.
        for (const TensorSpec &t : r.spec->inputs)
            if (t.init.kind == InitSpec::Kind::Integers)
                for (double v : specialValues(t, InputRange::Special, 2))
                    KF_CHECK_MSG(v >= t.init.a && v < t.init.b, r.spec->name + "." + t.name + ": " + std::to_string(v));
    }
    KF_CHECK(tasks >= 10);
    KF_CHECK(EdgeTrial({InputRange::Scaled, 256}).label() == "scaled x256");
    KF_CHECK(EdgeTrial({InputRange::Special, 2}).label() == "special values (max/2)");

    TaskSpec onlyConstants;
    onlyConstants.inputs = {input(Dtype::F32, InitSpec::Kind::Constant, 1, 0)};
    KF_CHECK(edgeTrials(onlyConstants).empty());
}

void referenceDecides()
{
    const std::vector<NonFinite> clean{{0, 0}, {0, 0}};
    KF_CHECK(!edgeTrialBeyondDomain(clean, clean));
    KF_CHECK(edgeTrialBeyondDomain(clean, {{0, 0}, {0, 3}}));             // Inf where the declared trials had none
    KF_CHECK(edgeTrialBeyondDomain(clean, {{1, 0}, {0, 0}}));             // NaN likewise
    KF_CHECK(!edgeTrialBeyondDomain({{5, 0}, {0, 0}}, {{9, 0}, {0, 0}})); // NaN is part of the declared domain
    KF_CHECK(edgeTrialBeyondDomain(clean, {{0, 0}}));                     // not the same outputs
}

} // namespace

int main()
{
    scaled();
    specials();
    builtInTasks();
    referenceDecides();
    return kforge::runtime::test::finish("tst_inputrange");
}
