#pragma once
// The task model shared by the worker and kforge_core: task.json parsed and validated into plain values
// (see docs/task-format.md). Parsing never throws; a failure names the file, the field path and the problem.
#include "core/runtime/task/dtype.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kforge::runtime {

// One dimension of a shape: written as an integer or as an expression over the params.
struct ShapeDim {
    std::string text;     // as written ("N", "2*M"); the decimal number for a literal
    bool literal = false; // written as a JSON integer
    int64_t value = 0;
    friend bool operator==(const ShapeDim &, const ShapeDim &) = default;
};

// How the worker fills an input: normal{mean,std} | uniform{low,high} | integers{low,high} (high
// exclusive) | constant{value}. a/b hold mean/std, low/high or value/0.
struct InitSpec {
    enum class Kind { Normal, Uniform, Integers, Constant };
    Kind kind = Kind::Normal;
    double a = 0;
    double b = 1;
    friend bool operator==(const InitSpec &, const InitSpec &) = default;
};
std::string_view initKindName(InitSpec::Kind k);

struct TensorSpec {
    std::string name;
    Dtype dtype = Dtype::F32;
    std::vector<ShapeDim> shape;
    InitSpec init; // inputs only
    int64_t numel() const;
    std::vector<int64_t> dims() const;
    std::size_t sizeBytes() const { return static_cast<std::size_t>(numel()) * dtypeSize(dtype); }
    friend bool operator==(const TensorSpec &, const TensorSpec &) = default;
};

// A formula (flops, bytes): the text as written and its value for this task's params.
struct Formula {
    std::string text;
    double value = 0;
    bool present() const { return !text.empty(); }
    friend bool operator==(const Formula &, const Formula &) = default;
};

struct VariantExpect {
    std::string verdict = "correct"; // correct|incorrect|crashed|cuda_error|timeout|load_error
    std::optional<double> minSpeedup;
    friend bool operator==(const VariantExpect &, const VariantExpect &) = default;
};

struct VariantSpec {
    std::string file;  // relative to the task folder, e.g. "variants/naive.cu"
    std::string label; // defaults to the file's stem
    std::optional<VariantExpect> expect;
    std::vector<std::string> nvccFlags;
    std::string source; // filled by loadTaskFolder()
    friend bool operator==(const VariantSpec &, const VariantSpec &) = default;
};

// "kind" of task.json: a CUDA task (reference.cu, kernels with kf_entry) or a PyTorch task (a KernelBench-style
// reference.py with class Model, candidates ModelNew modules or kernels; docs/torch-tasks.md).
enum class TaskKind { Cuda, Torch };

// A torch task's forward argument that is not a tensor: passed to forward() as written, at `position` among
// the forward's arguments (the tensors, in `inputs`, fill the other positions in order).
struct ScalarArg {
    std::string name;
    std::size_t position = 0;
    nlohmann::ordered_json value;
    friend bool operator==(const ScalarArg &, const ScalarArg &) = default;
};

struct TaskSpec {
    TaskKind kind = TaskKind::Cuda;
    std::string name;
    std::string title;
    std::string description;
    std::vector<std::pair<std::string, double>> params; // in file order; passed to kernels in this order
    std::vector<TensorSpec> inputs;
    std::vector<TensorSpec> outputs;
    std::map<Dtype, Tolerance> tolerance; // only those the file gives; see toleranceFor()
    Formula flops;
    Formula bytes;
    double timeoutS = 60;
    // "timing": {"ci_target": x}: the task's own target of the adaptive timing (EvalOptions::ciTarget), which
    // the client sends instead of the settings' one; absent: the settings'.
    std::optional<double> ciTarget;
    bool degenerate = false;
    std::vector<std::string> nvccFlags;
    std::vector<VariantSpec> variants;
    // The reference's file in the task folder: reference.cu, or a torch task's "reference" (reference.py).
    std::string reference = "reference.cu";

    // Torch tasks only. The module's constructor arguments, its state (parameters and buffers: names as in
    // its state_dict, the shapes over the params), and the mode it is judged in ("mode": "eval", the default,
    // or "train"); the import's notes on how it derived the fields ("derived"), kept for the Task panel.
    std::vector<ScalarArg> scalarArgs;
    nlohmann::ordered_json initInputs = nlohmann::ordered_json::array();
    std::vector<TensorSpec> parameters;
    std::vector<TensorSpec> buffers;
    bool trainingMode = false;
    nlohmann::ordered_json derived;

    // Filled by loadTaskFolder():
    std::filesystem::path folder;
    std::string referenceSource;
    // Keys the file has that this version does not know (not fatal, but worth showing).
    std::vector<std::string> warnings;

    Tolerance toleranceFor(Dtype t) const;
    std::optional<double> param(std::string_view name) const;
    std::map<std::string, double, std::less<>> symbols() const;
    friend bool operator==(const TaskSpec &, const TaskSpec &) = default;
};

struct TaskError {
    std::string file;    // "diag_matmul/task.json"
    std::string field;   // "inputs[1].shape[0]"; empty for whole-file problems
    std::string problem; // "unknown identifier 'K' at column 1"
    // "<file>: <field>: <problem>"
    std::string message() const;
};

struct TaskSpecResult {
    std::optional<TaskSpec> spec;
    TaskError error;
    bool ok() const { return spec.has_value(); }
};

TaskSpecResult parseTaskSpec(const nlohmann::ordered_json &json, std::string_view file = "task.json");
TaskSpecResult parseTaskSpecText(std::string_view text, std::string_view file = "task.json");
// task.json + the reference (reference.cu, or a torch task's reference.py) + every listed variant's source.
TaskSpecResult loadTaskFolder(const std::filesystem::path &folder);

// The task as task.json (without folder, sources and warnings); parseTaskSpec(toJson(t)) == t.
nlohmann::ordered_json toJson(const TaskSpec &task);

bool isKnownVerdict(std::string_view verdict);

} // namespace kforge::runtime
