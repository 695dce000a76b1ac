// What the judge adds for a torch task, without a GPU (core/runtime/worker/modulejudge.h, issue 34): the forward's
// signature the module hosts bind with (scalars at their positions), each side's init (the candidate built with
// the reference's arguments, never its own), and the weights' layout and move on the bytes
// the reference exports: floating entries of every width move, integer and boolean ones stay, and the layout
// refuses what it cannot lend.
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/modulejudge.h"
#include "tests/core/runtime/check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <stdexcept>

using namespace kforge::runtime;
using Json = nlohmann::ordered_json;

namespace {

TaskSpec torchTask()
{
    const Json j = Json::parse(R"({
      "kind": "torch", "name": "scaled_norm", "reference": "reference.py", "title": "t", "description": "d",
      "params": {"N": 8, "D": 4},
      "init_inputs": [4, 0.5],
      "forward_args": [
        {"name": "x", "dtype": "f32", "shape": ["N", "D"], "init": {"dist": "normal", "mean": 0, "std": 1}},
        {"name": "scale", "value": 2.5},
        {"name": "y", "dtype": "f16", "shape": ["N"], "init": {"dist": "normal", "mean": 0, "std": 1}},
        {"name": "flag", "value": true}
      ],
      "parameters": [{"name": "norm.weight", "dtype": "f32", "shape": ["D"]},
                     {"name": "proj.weight", "dtype": "bf16", "shape": ["D", "D"]}],
      "buffers": [{"name": "norm.running_var", "dtype": "f32", "shape": ["D"]}],
      "outputs": [{"name": "out", "dtype": "f32", "shape": ["N", "D"]}],
      "mode": "train"
    })");
    const TaskSpecResult r = parseTaskSpec(j, "task");
    if (!r.ok())
        throw std::runtime_error(r.error.message());
    return *r.spec;
}

// The reference host's "state" for torchTask(), with one entry of a dtype the judge has no type for.
Json referenceState()
{
    return Json::parse(R"([
      {"name": "norm.weight", "dtype": "f32", "shape": [4], "kind": "parameter"},
      {"name": "proj.weight", "dtype": "bf16", "shape": [4, 4], "kind": "parameter"},
      {"name": "norm.running_var", "dtype": "f32", "shape": [4], "kind": "buffer"},
      {"name": "half.scale", "dtype": "f16", "shape": [3], "kind": "buffer"},
      {"name": "norm.num_batches_tracked", "dtype": "i64", "shape": [], "kind": "buffer"},
      {"name": "mask", "dtype": "bool", "shape": [5], "kind": "buffer"}
    ])");
}

template <typename T>
void put(std::string &bytes, std::size_t offset, T v)
{
    std::memcpy(bytes.data() + offset, &v, sizeof v);
}

template <typename T>
T get(const std::string &bytes, std::size_t offset)
{
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
}

} // namespace

int main()
{
    const TaskSpec task = torchTask();

    // The signature: tensors in order, scalars where the forward takes them.
    const Json sig = moduleSignature(task);
    KF_CHECK_MSG(sig["args"].size() == 4, sig.dump());
    KF_CHECK(sig["args"][0] == Json::parse(R"({"dtype": "f32", "shape": [8, 4]})"));
    KF_CHECK(sig["args"][1] == Json::parse(R"({"value": 2.5})"));
    KF_CHECK(sig["args"][2] == Json::parse(R"({"dtype": "f16", "shape": [8]})"));
    KF_CHECK(sig["args"][3] == Json::parse(R"({"value": true})"));
    KF_CHECK(sig["outputs"] == Json::parse(R"([{"dtype": "f32", "shape": [8, 4]}])"));

    // The init: the reference with the task's init_inputs, the candidate with what the reference was built with.
    const Json ref = moduleInit(task, true, nullptr);
    KF_CHECK(ref["class"] == "Model" && ref["init_args"] == Json::parse("[4, 0.5]") && ref["mode"] == "train");
    const Json cand = moduleInit(task, false, Json::parse("[4, 0.5]"));
    KF_CHECK(cand["class"] == "ModelNew" && cand["init_args"] == Json::parse("[4, 0.5]"));
    TaskSpec noInit = task;
    noInit.initInputs = Json::array();
    KF_CHECK_MSG(moduleInit(noInit, true, nullptr)["init_args"].is_null(), "no init_inputs: the module's get_init_inputs()");

    // The weights' layout: every entry 256-aligned, the declared parameters and buffers placed.
    const JudgeWeights w(referenceState(), false);
    KF_CHECK(!w.empty());
    const auto offset = [&](const char *name, Dtype d, std::vector<int64_t> shape) {
        TensorSpec t;
        t.name = name;
        t.dtype = d;
        for (int64_t n : shape)
            t.shape.push_back(ShapeDim{std::to_string(n), true, n});
        return w.offsetOf(t);
    };
    KF_CHECK(offset("norm.weight", Dtype::F32, {4}) == 0u);
    KF_CHECK(offset("proj.weight", Dtype::BF16, {4, 4}) == 256u);
    KF_CHECK(offset("norm.running_var", Dtype::F32, {4}) == 512u);
    KF_CHECK(!offset("norm.weight", Dtype::F16, {4})); // another dtype: not placed
    KF_CHECK(!offset("missing", Dtype::F32, {4}));
    KF_CHECK_MSG(w.mismatch(task).empty(), w.mismatch(task));
    TaskSpec wrong = task;
    wrong.parameters[0].dtype = Dtype::F64;
    KF_CHECK_MSG(w.mismatch(wrong).find("norm.weight") != std::string::npos, w.mismatch(wrong));
    KF_CHECK(w.bytes() == 6 * 256);
    const Json load = w.stateRequest("load");
    KF_CHECK(load["op"] == "state" && load["direction"] == "load" && load["entries"].size() == 6);
    KF_CHECK(load["entries"][5]["dtype"] == "bool" && load["entries"][5]["ref"] == Json::parse("[4, 1280]"));

    // The move on exported bytes: f32, bf16 and f16 entries move, i64 and bool entries stay bit for bit.
    std::string initial(w.bytes(), '\0');
    for (int i = 0; i < 4; ++i) {
        put(initial, 0 + 4 * i, 1.0f);                                   // LayerNorm-like weight: 1
        put(initial, 256 + 2 * i, __float2bfloat16_rn(0.1f * float(i))); // a row of a random init
        put(initial, 512 + 4 * i, 1.0f);                                 // running variance: 1
    }
    for (int i = 4; i < 16; ++i)
        put(initial, 256 + 2 * i, __float2bfloat16_rn(-0.05f * float(i)));
    for (int i = 0; i < 3; ++i)
        put(initial, 768 + 2 * i, __float2half_rn(0.5f));
    put(initial, 1024, int64_t{7});
    for (int i = 0; i < 5; ++i)
        initial[1280 + static_cast<std::size_t>(i)] = static_cast<char>(i % 2);
    Json report;
    const std::string moved = w.moved(initial, 42, report);
    KF_CHECK(moved.size() == initial.size());
    for (int i = 0; i < 4; ++i) {
        const float nw = get<float>(moved, 4 * i), rv = get<float>(moved, 512 + 4 * i);
        KF_CHECK_MSG(nw != 1.0f && nw > 0 && rv != 1.0f && rv > 0, std::to_string(nw) + " " + std::to_string(rv));
    }
    int bfSame = 0;
    for (int i = 0; i < 16; ++i)
        bfSame += get<uint16_t>(moved, 256 + 2 * i) == get<uint16_t>(initial, 256 + 2 * i) ? 1 : 0;
    KF_CHECK_MSG(bfSame <= 1, std::to_string(bfSame) + " bf16 elements kept their bits");
    for (int i = 0; i < 3; ++i) {
        const float h = __half2float(get<__half>(moved, 768 + 2 * i));
        KF_CHECK_MSG(h != 0.5f && h > 0, std::to_string(h));
    }
    KF_CHECK(get<int64_t>(moved, 1024) == 7);
    KF_CHECK(moved.compare(1280, 5, initial, 1280, 5) == 0);
    KF_CHECK(report["seed"] == 42 && report["entries"].size() == 6);
    KF_CHECK(report["entries"][4]["rule"] == "kept" && report["entries"][5]["rule"] == "kept");
    KF_CHECK(report["entries"][0]["rule"] == "lognormal" && report["entries"][1]["rule"] == "jitter");
    Json again;
    KF_CHECK(w.moved(initial, 42, again) == moved && again == report);
    KF_CHECK(w.moved(initial, 43, again) != moved);
    bool refused = false;
    try {
        (void)w.moved(initial.substr(1), 42, again);
    } catch (const std::runtime_error &) {
        refused = true;
    }
    KF_CHECK_MSG(refused, "an export of another size is refused");

    // A dtype the judge cannot lend is named.
    std::string message;
    try {
        JudgeWeights(Json::parse(R"([{"name": "z", "dtype": "complex64", "shape": [2]}])"), false);
    } catch (const std::runtime_error &e) {
        message = e.what();
    }
    KF_CHECK_MSG(message.find("\"z\"") != std::string::npos && message.find("complex64") != std::string::npos, message);
    KF_CHECK(JudgeWeights(Json::array(), false).empty());
    return kforge::runtime::test::finish("tst_module_judge");
}
