// task.json parsing: a complete good file, a round trip through toJson(), defaults, and broken files whose
// messages must name the file, the field path and the problem.
#include "check.h"
#include "core/runtime/task/taskspec.h"

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace kforge::runtime;
namespace fs = std::filesystem;

namespace {

const char *kMinimal = R"({
  "name": "t", "description": "d", "params": {"N": 8},
  "inputs": [{"name": "X", "dtype": "f32", "shape": ["N"]}, {"name": "Y", "dtype": "f32", "shape": ["N", 2]}],
  "outputs": [{"name": "O", "dtype": "f32", "shape": ["N"]}]
})";

// kMinimal with one substring replaced.
std::string variantOf(const std::string &from, const std::string &to)
{
    std::string s = kMinimal;
    const auto at = s.find(from);
    if (at == std::string::npos) {
        KF_CHECK_MSG(false, "test row does not apply: " + from);
        return s;
    }
    return s.replace(at, from.size(), to);
}

void broken(const std::string &text, const std::string &field, const std::string &problem)
{
    const TaskSpecResult r = parseTaskSpecText(text, "bad/task.json");
    if (r.ok()) {
        KF_CHECK_MSG(false, "parsed although broken, expected " + field + ": " + problem + "\n" + text);
        return;
    }
    KF_CHECK_MSG(r.error.file == "bad/task.json", r.error.message());
    KF_CHECK_MSG(r.error.field == field,
                 "field '" + r.error.field + "', expected '" + field + "' in: " + r.error.message());
    KF_CHECK_MSG(r.error.problem.find(problem) != std::string::npos,
                 "problem '" + r.error.problem + "', expected it to contain '" + problem + "'");
}

void goodFolder()
{
    const TaskSpecResult r = loadTaskFolder(fs::path(KFORGE_TEST_DATA_DIR) / "good_task");
    KF_CHECK_MSG(r.ok(), r.error.message());
    if (!r.ok())
        return;
    const TaskSpec &t = *r.spec;
    KF_CHECK(t.name == "good_task");
    KF_CHECK(t.title == "Scaled sum");
    KF_CHECK(t.params.size() == 3 && t.params[0].first == "N" && t.params[2].first == "alpha");
    KF_CHECK(t.param("alpha") == 0.5);
    KF_CHECK(!t.param("beta"));
    KF_CHECK(t.inputs.size() == 5 && t.outputs.size() == 1);
    KF_CHECK(t.inputs[0].init.kind == InitSpec::Kind::Normal && t.inputs[0].init.a == 1 && t.inputs[0].init.b == 2);
    KF_CHECK(t.inputs[1].dtype == Dtype::F16 && t.inputs[1].init.kind == InitSpec::Kind::Uniform);
    KF_CHECK((t.inputs[1].dims() == std::vector<int64_t>{64, 48}));
    KF_CHECK((t.inputs[2].dims() == std::vector<int64_t>{3, 96}));
    KF_CHECK(t.inputs[2].shape[0].literal && !t.inputs[2].shape[1].literal && t.inputs[2].shape[1].text == "2*M");
    KF_CHECK(t.inputs[2].init.kind == InitSpec::Kind::Integers && t.inputs[2].init.a == -5 && t.inputs[2].init.b == 5);
    KF_CHECK(t.inputs[3].dims() == std::vector<int64_t>{13});
    KF_CHECK(t.inputs[3].init.kind == InitSpec::Kind::Constant && t.inputs[3].init.a == 7);
    KF_CHECK(t.inputs[4].init.kind == InitSpec::Kind::Normal && t.inputs[4].init.a == 0 && t.inputs[4].init.b == 1);
    KF_CHECK(t.inputs[1].sizeBytes() == 64 * 48 * 2);
    KF_CHECK(t.outputs[0].numel() == 64 * 48);
    // Explicit, partly explicit (rtol falls back) and default tolerances.
    KF_CHECK((t.toleranceFor(Dtype::F32) == Tolerance{1e-5, 1e-4}));
    KF_CHECK((t.toleranceFor(Dtype::BF16) == Tolerance{0.1, 0.05}));
    KF_CHECK((t.toleranceFor(Dtype::F16) == Tolerance{1e-2, 1e-2}));
    KF_CHECK((t.toleranceFor(Dtype::F64) == Tolerance{1e-8, 1e-8}));
    KF_CHECK((t.toleranceFor(Dtype::I64) == Tolerance{0, 0}));
    KF_CHECK(t.flops.text == "2*N*M" && t.flops.value == 2.0 * 64 * 48);
    KF_CHECK(t.bytes.value == 4.0 * 64 + 2.0 * 64 * 48 + 4.0 * 64 * 48);
    KF_CHECK(t.timeoutS == 12.5);
    KF_CHECK(!t.degenerate);
    KF_CHECK(t.nvccFlags == std::vector<std::string>{"-lcublas"});
    KF_CHECK(t.variants.size() == 2);
    KF_CHECK(t.variants[0].label == "good" && t.variants[0].expect && t.variants[0].expect->minSpeedup == 1.5);
    KF_CHECK(t.variants[0].nvccFlags == std::vector<std::string>{"-use_fast_math"});
    KF_CHECK(t.variants[1].label == "wrong" && t.variants[1].expect->verdict == "incorrect"
             && !t.variants[1].expect->minSpeedup);
    KF_CHECK_CONTAINS(t.referenceSource, "reference of good_task");
    KF_CHECK_CONTAINS(t.variants[0].source, "fast variant");
    KF_CHECK_CONTAINS(t.variants[1].source, "wrong variant");
    KF_CHECK(t.warnings.empty());

    // toJson() and back gives the same task (folder and sources are not part of task.json).
    TaskSpec bare = t;
    bare.folder.clear();
    bare.referenceSource.clear();
    for (VariantSpec &v : bare.variants)
        v.source.clear();
    const TaskSpecResult again = parseTaskSpec(toJson(bare), "roundtrip");
    KF_CHECK_MSG(again.ok(), again.error.message());
    KF_CHECK_MSG(again.ok() && *again.spec == bare, toJson(bare).dump(1));
    // Through text too (the protocol sends it as one JSON line).
    const TaskSpecResult text = parseTaskSpecText(toJson(bare).dump(), "roundtrip");
    KF_CHECK(text.ok() && *text.spec == bare);
}

void missingFiles()
{
    const fs::path dir = fs::temp_directory_path() / ("kforge-tst-taskspec-" + std::to_string(::getpid()));
    fs::create_directories(dir / "variants");
    const TaskSpecResult none = loadTaskFolder(dir);
    KF_CHECK(!none.ok());
    KF_CHECK_CONTAINS(none.error.message(), "/task.json: cannot read ");

    std::ofstream(dir / "task.json") << variantOf(R"("outputs")", R"("variants": [{"file": "variants/x.cu"}], "outputs")");
    const TaskSpecResult noRef = loadTaskFolder(dir);
    KF_CHECK(!noRef.ok() && noRef.error.file.ends_with("/reference.cu"));
    std::ofstream(dir / "reference.cu") << "// ref\n";
    const TaskSpecResult noVariant = loadTaskFolder(dir);
    KF_CHECK(!noVariant.ok());
    KF_CHECK_MSG(noVariant.error.field == "variants[0].file", noVariant.error.message());
    std::ofstream(dir / "variants" / "x.cu") << "// x\n";
    const TaskSpecResult ok = loadTaskFolder(dir);
    KF_CHECK_MSG(ok.ok(), ok.error.message());
    KF_CHECK(ok.ok() && ok.spec->variants[0].label == "x" && !ok.spec->variants[0].expect);
    fs::remove_all(dir);
}

const char *kTorchTask = R"({
  "kind": "torch", "name": "t", "description": "d", "params": {"B": 4, "D": 8, "alpha": 0.5},
  "inputs": [
    {"name": "x", "dtype": "f32", "shape": ["B", "D"]},
    {"name": "alpha", "value": 0.5, "scalar": "float"},
    {"name": "idx", "dtype": "i64", "shape": ["B"], "init": {"dist": "integers", "low": 0, "high": 8}}
  ],
  "outputs": [{"name": "out", "dtype": "f32", "shape": ["B", "D"]}],
  "init_inputs": [8, 0.1],
  "parameters": [{"name": "layers.0.weight", "dtype": "f32", "shape": ["D", "D"]}],
  "buffers": [{"name": "norm.running_var", "dtype": "f32", "shape": ["D"]},
              {"name": "norm.num_batches_tracked", "dtype": "i64", "shape": []}],
  "flops": null, "bytes": "4*B*D",
  "derived": {"flops": "unavailable"}
})";

void torchTasks()
{
    const TaskSpecResult r = parseTaskSpecText(kTorchTask);
    KF_CHECK_MSG(r.ok(), r.error.message());
    if (!r.ok())
        return;
    const TaskSpec &t = *r.spec;
    KF_CHECK(t.kind == TaskKind::Torch && t.reference == "reference.py" && !t.trainingMode);
    KF_CHECK(t.inputs.size() == 2 && t.inputs[1].name == "idx" && t.inputs[1].init.kind == InitSpec::Kind::Integers
             && t.inputs[1].init.b == 8);
    KF_CHECK(t.scalarArgs.size() == 1 && t.scalarArgs[0].name == "alpha" && t.scalarArgs[0].position == 1
             && t.scalarArgs[0].value == 0.5);
    KF_CHECK(t.parameters.size() == 1 && t.parameters[0].numel() == 64);
    KF_CHECK(t.buffers.size() == 2 && t.buffers[1].shape.empty() && t.buffers[1].numel() == 1);
    KF_CHECK(t.initInputs == nlohmann::ordered_json::array({8, 0.1}));
    KF_CHECK(!t.flops.present() && t.bytes.value == 128);
    KF_CHECK_MSG(t.warnings.empty(), t.warnings.empty() ? "" : t.warnings.front());
    const nlohmann::ordered_json j = toJson(t);
    KF_CHECK(j["kind"] == "torch" && j["inputs"][1]["name"] == "alpha" && j["inputs"][2]["name"] == "idx");
    const TaskSpecResult again = parseTaskSpec(j);
    KF_CHECK_MSG(again.ok() && *again.spec == t, again.ok() ? "differs after toJson" : again.error.message());

    const auto torchBroken = [](const std::string &from, const std::string &to, const std::string &field,
                                const std::string &words) {
        std::string text = kTorchTask;
        const std::size_t at = text.find(from);
        KF_CHECK_MSG(at != std::string::npos, from);
        if (at == std::string::npos)
            return;
        text.replace(at, from.size(), to);
        const TaskSpecResult b = parseTaskSpecText(text);
        KF_CHECK_MSG(!b.ok() && b.error.field == field && b.error.problem.find(words) != std::string::npos,
                     b.ok() ? "parsed: " + from : b.error.message());
    };
    torchBroken(R"("init": {"dist": "integers", "low": 0, "high": 8})", R"("init": {"dist": "normal"})",
                "inputs[2].init", "an integer input needs the range it is drawn from");
    torchBroken(R"("name": "layers.0.weight")", R"("name": "layers..weight")", "parameters[0].name",
                "not a state_dict name");
    torchBroken(R"(["D", "D"])", R"(["D", "Q"])", "parameters[0].shape[1]", "unknown identifier 'Q'");
    torchBroken(R"("derived")", R"("mode": "inference", "derived")", "mode", "expected \"eval\"");
    torchBroken(R"("derived")", R"("reference": "../x.py", "derived")", "reference", "must be a file in the task's folder");
    torchBroken(R"({"name": "alpha", "value": 0.5, "scalar": "float"})", R"({"name": "x", "value": 1})", "inputs[1].name",
                "duplicate argument name 'x'");
    // "forward_args" (an earlier import's name for the inputs) is read the same.
    std::string older = kTorchTask;
    older.replace(older.find(R"("inputs")"), 8, R"("forward_args")");
    const TaskSpecResult o = parseTaskSpecText(older);
    KF_CHECK_MSG(o.ok() && o.spec->inputs == t.inputs && o.spec->scalarArgs == t.scalarArgs,
                 o.ok() ? "differs" : o.error.message());
}

void builtInTasks()
{
    // Every task shipped in resources/tasks parses, with its reference and variants present.
    const fs::path root = fs::path(KFORGE_TEST_SOURCE_DIR) / "resources" / "tasks";
    if (!fs::is_directory(root))
        return;
    int count = 0, torch = 0;
    for (const auto &entry : fs::directory_iterator(root)) {
        if (!fs::exists(entry.path() / "task.json"))
            continue;
        const TaskSpecResult r = loadTaskFolder(entry.path());
        if (r.ok() && r.spec->kind == TaskKind::Torch) {
            // A torch task: the same grammar, its module's fields, and a round trip through toJson.
            ++torch;
            KF_CHECK_MSG(r.spec->warnings.empty(), r.spec->name + ": " + (r.spec->warnings.empty() ? "" : r.spec->warnings.front()));
            KF_CHECK(r.spec->reference == "reference.py" && r.spec->referenceSource.find("class Model") != std::string::npos);
            KF_CHECK(!r.spec->inputs.empty() && !r.spec->outputs.empty());
            const TaskSpecResult again = parseTaskSpec(toJson(*r.spec));
            KF_CHECK_MSG(again.ok() && again.spec->inputs == r.spec->inputs && again.spec->scalarArgs == r.spec->scalarArgs
                             && again.spec->parameters == r.spec->parameters && again.spec->buffers == r.spec->buffers
                             && again.spec->initInputs == r.spec->initInputs,
                         r.spec->name + ": " + (again.ok() ? "differs after toJson" : again.error.message()));
            continue;
        }
        ++count;
        KF_CHECK_MSG(r.ok(), r.error.message());
        if (r.ok()) {
            KF_CHECK_MSG(r.spec->name == entry.path().filename().string(), r.spec->name);
            KF_CHECK_MSG(r.spec->warnings.empty(),
                         r.spec->name + ": " + (r.spec->warnings.empty() ? "" : r.spec->warnings.front()));
        }
    }
    KF_CHECK(torch >= 8);
    std::printf("built-in tasks parsed: %d CUDA, %d torch\n", count, torch);
}

} // namespace

int main()
{
    goodFolder();
    missingFiles();
    builtInTasks();
    torchTasks();

    const TaskSpecResult minimal = parseTaskSpecText(kMinimal);
    KF_CHECK_MSG(minimal.ok(), minimal.error.message());
    KF_CHECK(minimal.ok() && minimal.spec->title == "t" && minimal.spec->timeoutS == 60 && !minimal.spec->flops.present());

    // Unknown keys are kept as warnings, not errors.
    const TaskSpecResult extra = parseTaskSpecText(variantOf(R"("name": "t")", R"("name": "t", "tags": [1])"));
    KF_CHECK(extra.ok() && extra.spec->warnings.size() == 1 && extra.spec->warnings[0] == "tags: unknown field, ignored");

    // Broken files: the field path and the problem.
    broken(R"({"name": "t",)", "", "invalid JSON at line 1, column 13");
    broken("{\n  \"name\": \"t\"\n  \"x\": 1}", "", "invalid JSON at line 3");
    broken("[1, 2]", "", "expected a JSON object at the top level, got an array");
    broken(variantOf(R"("name": "t", )", ""), "name", "missing");
    broken(variantOf(R"("name": "t")", R"("name": "T-1")"), "name", "must be lower-case letters, digits and '_'");
    broken(variantOf(R"("description": "d", )", ""), "description", "missing");
    broken(variantOf(R"(,
  "outputs": [{"name": "O", "dtype": "f32", "shape": ["N"]}])",
                     ""),
           "outputs", "missing");
    broken(variantOf(R"("outputs": [{"name": "O", "dtype": "f32", "shape": ["N"]}])", R"("outputs": [])"), "outputs",
           "at least one output");
    broken(variantOf(R"("dtype": "f32", "shape": ["N", 2])", R"("dtype": "f33", "shape": ["N", 2])"), "inputs[1].dtype",
           "unknown dtype 'f33' (known: f32, f16, bf16, f64, i32, i64, u8)");
    broken(variantOf(R"(["N", 2])", R"(["N*K", 2])"), "inputs[1].shape[0]", "unknown identifier 'K' at column 3");
    broken(variantOf(R"(["N", 2])", R"(["N", "2+"])"), "inputs[1].shape[1]", "unexpected end of expression");
    broken(variantOf(R"(["N", 2])", R"(["N/3", 2])"), "inputs[1].shape[0]", "not an integer");
    broken(variantOf(R"(["N", 2])", R"(["N", 0])"), "inputs[1].shape[1]", "must be at least 1");
    broken(variantOf(R"(["N", 2])", R"(["N", true])"), "inputs[1].shape[1]",
           "expected an integer or an expression string, got a boolean");
    broken(variantOf(R"(["N", 2])", R"("N")"), "inputs[1].shape", "expected an array, got a string");
    broken(variantOf(R"("name": "Y")", R"("name": "X")"), "inputs[1].name", "duplicate tensor name 'X'");
    broken(variantOf(R"({"N": 8})", R"({"N": "eight"})"), "params.N", "expected a number, got a string");
    broken(variantOf(R"({"N": 8})", R"({"N": 8, "max": 2})"), "params.max", "is the name of a function");
    broken(variantOf(R"("shape": ["N", 2]})", R"("shape": ["N", 2], "init": {"dist": "gauss"}})"),
           "inputs[1].init.dist", "unknown distribution 'gauss'");
    broken(variantOf(R"("shape": ["N", 2]})", R"("shape": ["N", 2], "init": {"dist": "integers", "low": 0}})"),
           "inputs[1].init.high", "missing");
    broken(variantOf(R"("shape": ["N", 2]})", R"("shape": ["N", 2], "init": {"dist": "uniform", "low": 2, "high": 1}})"),
           "inputs[1].init.high", "must not be below low");
    broken(variantOf(R"("shape": ["N", 2]})", R"("shape": ["N", 2], "init": {"dist": "normal", "std": -1}})"),
           "inputs[1].init.std", "must not be negative");
    broken(variantOf(R"("shape": ["N", 2]})", R"("shape": ["N", 2], "init": "normal"})"), "inputs[1].init",
           "expected an object, got a string");
    broken(variantOf(R"("outputs")", R"("tolerance": {"f8": {"atol": 1}}, "outputs")"), "tolerance.f8",
           "unknown dtype 'f8'");
    broken(variantOf(R"("outputs")", R"("tolerance": {"f32": {"atol": -1}}, "outputs")"), "tolerance.f32.atol",
           "must not be negative");
    broken(variantOf(R"("outputs")", R"("flops": "2*N*Q", "outputs")"), "flops", "unknown identifier 'Q' at column 5");
    broken(variantOf(R"("outputs")", R"("bytes": [1], "outputs")"), "bytes", "expected an expression string or a number");
    broken(variantOf(R"("outputs")", R"("timeout_s": 0, "outputs")"), "timeout_s", "must be positive");
    broken(variantOf(R"("outputs")", R"("timing": {"ci_target": 0.6}, "outputs")"), "timing.ci_target",
           "expected a number in [0, 0.5]");
    broken(variantOf(R"("outputs")", R"("timing": {"ci_target": "1%"}, "outputs")"), "timing.ci_target",
           "expected a number, got a string");
    broken(variantOf(R"("outputs")", R"("timing": 0.01, "outputs")"), "timing", "expected an object");
    {
        // The task's own timing target: parsed, kept through toJson(), absent unless given.
        const TaskSpecResult t = parseTaskSpecText(variantOf(R"("outputs")", R"("timing": {"ci_target": 0.02}, "outputs")"));
        KF_CHECK_MSG(t.ok() && t.spec->ciTarget == 0.02 && t.spec->warnings.empty(), t.error.message());
        if (t.ok()) {
            KF_CHECK(toJson(*t.spec)["timing"]["ci_target"] == 0.02);
            KF_CHECK(parseTaskSpec(toJson(*t.spec)).spec == t.spec);
        }
        const TaskSpecResult plain = parseTaskSpecText(kMinimal);
        KF_CHECK(plain.ok() && !plain.spec->ciTarget && !toJson(*plain.spec).contains("timing"));
    }
    broken(variantOf(R"("outputs")", R"("degenerate": "yes", "outputs")"), "degenerate", "expected a boolean");
    broken(variantOf(R"("outputs")", R"("nvcc_flags": ["-O3", 2], "outputs")"), "nvcc_flags[1]",
           "expected a string, got a number");
    broken(variantOf(R"("outputs")", R"("variants": [{"label": "x"}], "outputs")"), "variants[0].file", "missing");
    broken(variantOf(R"("outputs")", R"("variants": [{"file": "a.cu", "expect": {"verdict": "fast"}}], "outputs")"),
           "variants[0].expect.verdict", "unknown verdict 'fast'");
    broken(variantOf(R"("outputs")", R"("variants": [{"file": "a.cu", "expect": {"min_speedup": 0}}], "outputs")"),
           "variants[0].expect.min_speedup", "must be positive");

    // "kind": a CUDA task may say so; a PyTorch task (kforge-cli import) is read with its module's fields.
    const TaskSpecResult cuda = parseTaskSpecText(variantOf(R"("name": "t")", R"("kind": "cuda", "name": "t")"));
    KF_CHECK_MSG(cuda.ok() && cuda.spec->warnings.empty(), cuda.ok() ? "warnings" : cuda.error.message());
    KF_CHECK(cuda.ok() && cuda.spec->kind == TaskKind::Cuda && cuda.spec->reference == "reference.cu");
    broken(variantOf(R"("name": "t")", R"("kind": "jax", "name": "t")"), "kind", "unknown kind 'jax' (known: cuda, torch)");
    broken(variantOf(R"("name": "t")", R"("kind": 1, "name": "t")"), "kind", "expected a string, got a number");

    // The one-line message a user sees.
    const TaskSpecResult r = parseTaskSpecText(variantOf(R"(["N", 2])", R"(["N*K", 2])"), "diag_matmul/task.json");
    KF_CHECK_MSG(r.error.message() == "diag_matmul/task.json: inputs[1].shape[0]: unknown identifier 'K' at column 3",
                 r.error.message());
    return test::finish("tst_taskspec");
}
