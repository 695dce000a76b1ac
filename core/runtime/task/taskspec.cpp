#include "core/runtime/task/taskspec.h"

#include "core/runtime/task/expression.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

// Thrown inside the parser only, caught in parseTaskSpec(): keeps the field checks linear.
struct Failure {
    std::string field;
    std::string problem;
};

std::string join(const std::string &path, std::string_view key)
{
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string index(const std::string &path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

std::string typeName(const Json &j)
{
    if (j.is_number())
        return "a number";
    if (j.is_string())
        return "a string";
    if (j.is_boolean())
        return "a boolean";
    if (j.is_array())
        return "an array";
    if (j.is_object())
        return "an object";
    return "null";
}

bool isIdentifier(std::string_view s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

bool isTaskName(std::string_view s)
{
    if (s.empty())
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

class Reader
{
public:
    explicit Reader(std::vector<std::string> &warnings)
        : m_warnings(warnings)
    {
    }

    const Json &require(const Json &obj, const std::string &path, std::string_view key)
    {
        const auto it = obj.find(key);
        if (it == obj.end())
            throw Failure{join(path, key), "missing"};
        return *it;
    }

    const Json *optional(const Json &obj, std::string_view key)
    {
        const auto it = obj.find(key);
        return it == obj.end() || it->is_null() ? nullptr : &*it;
    }

    std::string string(const Json &j, const std::string &path)
    {
        if (!j.is_string())
            throw Failure{path, "expected a string, got " + typeName(j)};
        return j.get<std::string>();
    }

    double number(const Json &j, const std::string &path)
    {
        if (!j.is_number())
            throw Failure{path, "expected a number, got " + typeName(j)};
        const double v = j.get<double>();
        if (!std::isfinite(v))
            throw Failure{path, "not a finite number"};
        return v;
    }

    const Json &object(const Json &j, const std::string &path)
    {
        if (!j.is_object())
            throw Failure{path, "expected an object, got " + typeName(j)};
        return j;
    }

    const Json &array(const Json &j, const std::string &path)
    {
        if (!j.is_array())
            throw Failure{path, "expected an array, got " + typeName(j)};
        return j;
    }

    std::vector<std::string> strings(const Json &j, const std::string &path)
    {
        std::vector<std::string> out;
        array(j, path);
        for (std::size_t i = 0; i < j.size(); ++i)
            out.push_back(string(j[i], index(path, i)));
        return out;
    }

    void warnUnknown(const Json &obj, const std::string &path, std::initializer_list<std::string_view> known)
    {
        for (const auto &[key, value] : obj.items()) {
            bool found = false;
            for (std::string_view k : known)
                found = found || k == key;
            if (!found)
                m_warnings.push_back(join(path, key) + ": unknown field, ignored");
        }
    }

private:
    std::vector<std::string> &m_warnings;
};

double evalFormula(const std::string &text, const TaskSpec &task, const std::string &path)
{
    const ExpressionResult r = evaluateExpression(text, task.symbols());
    if (!r.ok())
        throw Failure{path, r.error};
    return r.value;
}

ShapeDim parseDim(Reader &rd, const Json &j, const TaskSpec &task, const std::string &path)
{
    ShapeDim d;
    double v = 0;
    if (j.is_number()) {
        v = rd.number(j, path);
        d.literal = true;
    } else if (j.is_string()) {
        d.text = j.get<std::string>();
        v = evalFormula(d.text, task, path);
    } else {
        throw Failure{path, "expected an integer or an expression string, got " + typeName(j)};
    }
    if (v != std::floor(v))
        throw Failure{path, "not an integer (" + std::to_string(v) + ")"};
    if (v < 1)
        throw Failure{path, "must be at least 1, got " + std::to_string(static_cast<long long>(v))};
    if (v > 9.0e15)
        throw Failure{path, "too large"};
    d.value = static_cast<int64_t>(v);
    if (d.literal)
        d.text = std::to_string(d.value);
    return d;
}

InitSpec parseInit(Reader &rd, const Json &j, Dtype dtype, const std::string &path)
{
    rd.object(j, path);
    const std::string dist = rd.string(rd.require(j, path, "dist"), join(path, "dist"));
    InitSpec s;
    const auto num = [&](std::string_view key, std::optional<double> fallback) {
        if (const Json *v = rd.optional(j, key))
            return rd.number(*v, join(path, key));
        if (!fallback)
            throw Failure{join(path, key), "missing"};
        return *fallback;
    };
    if (dist == "normal") {
        s = {InitSpec::Kind::Normal, num("mean", 0.0), num("std", 1.0)};
        if (s.b < 0)
            throw Failure{join(path, "std"), "must not be negative"};
        rd.warnUnknown(j, path, {"dist", "mean", "std"});
    } else if (dist == "uniform") {
        s = {InitSpec::Kind::Uniform, num("low", 0.0), num("high", 1.0)};
        if (!(s.a <= s.b))
            throw Failure{join(path, "high"), "must not be below low"};
        rd.warnUnknown(j, path, {"dist", "low", "high"});
    } else if (dist == "integers") {
        s = {InitSpec::Kind::Integers, num("low", std::nullopt), num("high", std::nullopt)};
        if (s.a != std::floor(s.a))
            throw Failure{join(path, "low"), "must be an integer"};
        if (s.b != std::floor(s.b))
            throw Failure{join(path, "high"), "must be an integer"};
        if (!(s.a < s.b))
            throw Failure{join(path, "high"), "must be above low (high is exclusive)"};
        if (dtype == Dtype::U8 && (s.a < 0 || s.b > 256))
            throw Failure{path, "u8 integers must lie in [0, 256)"};
        if (dtype == Dtype::I32 && (s.a < -2147483648.0 || s.b > 2147483648.0))
            throw Failure{path, "i32 integers must lie in the i32 range"};
        if (std::abs(s.a) > 9.0e15 || std::abs(s.b) > 9.0e15)
            throw Failure{path, "integer bounds beyond 2^53 are not supported"};
        rd.warnUnknown(j, path, {"dist", "low", "high"});
    } else if (dist == "constant") {
        s = {InitSpec::Kind::Constant, num("value", std::nullopt), 0};
        rd.warnUnknown(j, path, {"dist", "value"});
    } else {
        throw Failure{join(path, "dist"),
                      "unknown distribution '" + dist + "' (known: normal, uniform, integers, constant)"};
    }
    return s;
}

// A tensor's "dtype" and "shape" (at most 8 dimensions over the params, under 1 TB).
void parseDtypeAndShape(Reader &rd, const Json &j, const TaskSpec &task, const std::string &path, TensorSpec &t)
{
    const std::string dt = rd.string(rd.require(j, path, "dtype"), join(path, "dtype"));
    const auto dtype = dtypeFromName(dt);
    if (!dtype)
        throw Failure{join(path, "dtype"), "unknown dtype '" + dt + "' (known: " + dtypeNameList() + ")"};
    t.dtype = *dtype;
    const std::string shapePath = join(path, "shape");
    const Json &shape = rd.array(rd.require(j, path, "shape"), shapePath);
    if (shape.size() > 8)
        throw Failure{shapePath, "at most 8 dimensions"};
    double numel = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        t.shape.push_back(parseDim(rd, shape[i], task, index(shapePath, i)));
        numel *= static_cast<double>(t.shape.back().value);
    }
    if (numel * static_cast<double>(dtypeSize(t.dtype)) > 1.0e12)
        throw Failure{shapePath, "tensor larger than 1 TB"};
}

TensorSpec parseTensor(Reader &rd, const Json &j, const TaskSpec &task, const std::string &path, bool input,
                       std::set<std::string> &names)
{
    rd.object(j, path);
    TensorSpec t;
    t.name = rd.string(rd.require(j, path, "name"), join(path, "name"));
    if (!isIdentifier(t.name))
        throw Failure{join(path, "name"), "'" + t.name + "' is not an identifier"};
    if (!names.insert(t.name).second)
        throw Failure{join(path, "name"), "duplicate tensor name '" + t.name + "'"};
    parseDtypeAndShape(rd, j, task, path, t);
    if (input) {
        if (const Json *init = rd.optional(j, "init"))
            t.init = parseInit(rd, *init, t.dtype, join(path, "init"));
        rd.warnUnknown(j, path, {"name", "dtype", "shape", "init"});
    } else {
        rd.warnUnknown(j, path, {"name", "dtype", "shape"});
    }
    return t;
}

Formula parseFormula(Reader &rd, const Json &j, const TaskSpec &task, const std::string &path)
{
    Formula f;
    if (j.is_number()) {
        f.value = rd.number(j, path);
        std::ostringstream s;
        s.precision(17);
        s << f.value;
        f.text = s.str();
    } else if (j.is_string()) {
        f.text = j.get<std::string>();
        f.value = evalFormula(f.text, task, path);
    } else {
        throw Failure{path, "expected an expression string or a number, got " + typeName(j)};
    }
    if (f.value < 0)
        throw Failure{path, "must not be negative"};
    return f;
}

VariantSpec parseVariant(Reader &rd, const Json &j, const std::string &path)
{
    rd.object(j, path);
    VariantSpec v;
    v.file = rd.string(rd.require(j, path, "file"), join(path, "file"));
    if (v.file.empty())
        throw Failure{join(path, "file"), "empty"};
    if (std::filesystem::path(v.file).is_absolute())
        throw Failure{join(path, "file"), "must be relative to the task folder"};
    if (const Json *l = rd.optional(j, "label"))
        v.label = rd.string(*l, join(path, "label"));
    else
        v.label = std::filesystem::path(v.file).stem().string();
    if (const Json *e = rd.optional(j, "expect")) {
        const std::string ep = join(path, "expect");
        rd.object(*e, ep);
        VariantExpect ex;
        if (const Json *verdict = rd.optional(*e, "verdict")) {
            ex.verdict = rd.string(*verdict, join(ep, "verdict"));
            if (!isKnownVerdict(ex.verdict))
                throw Failure{join(ep, "verdict"),
                              "unknown verdict '" + ex.verdict
                                  + "' (known: correct, incorrect, crashed, cuda_error, timeout, load_error)"};
        }
        if (const Json *ms = rd.optional(*e, "min_speedup")) {
            ex.minSpeedup = rd.number(*ms, join(ep, "min_speedup"));
            if (*ex.minSpeedup <= 0)
                throw Failure{join(ep, "min_speedup"), "must be positive"};
        }
        rd.warnUnknown(*e, ep, {"verdict", "min_speedup"});
        v.expect = ex;
    }
    if (const Json *f = rd.optional(j, "nvcc_flags"))
        v.nvccFlags = rd.strings(*f, join(path, "nvcc_flags"));
    rd.warnUnknown(j, path, {"file", "label", "expect", "nvcc_flags"});
    return v;
}

// A torch task's forward argument given as a value ({"name", "value"}, the import may add "scalar": its type).
ScalarArg parseScalarArg(Reader &rd, const Json &j, const std::string &path, std::size_t position,
                         std::set<std::string> &names)
{
    ScalarArg a;
    a.name = rd.string(rd.require(j, path, "name"), join(path, "name"));
    if (!isIdentifier(a.name))
        throw Failure{join(path, "name"), "'" + a.name + "' is not an identifier"};
    if (!names.insert(a.name).second)
        throw Failure{join(path, "name"), "duplicate argument name '" + a.name + "'"};
    a.position = position;
    a.value = j.at("value");
    rd.warnUnknown(j, path, {"name", "value", "scalar"});
    return a;
}

// A torch task's integer tensor needs the range it is drawn from: a forward that indexes with it (embedding,
// gather) is only meaningful for values it accepts, and the judge does not guess them. (bool, i16 and i8, which
// the import writes, are not Dtypes yet.)
void requireIntegerRange(const Json &j, const TensorSpec &t, const std::string &path)
{
    const bool integer = t.dtype == Dtype::I32 || t.dtype == Dtype::I64 || t.dtype == Dtype::U8;
    if (integer && (!j.contains("init") || t.init.kind != InitSpec::Kind::Integers))
        throw Failure{join(path, "init"), "an integer input needs the range it is drawn from: "
                                          "{\"dist\": \"integers\", \"low\": L, \"high\": H}"};
}

// A parameter or buffer of a torch task's module: its state_dict name (dotted), dtype and shape over the params.
TensorSpec parseStateTensor(Reader &rd, const Json &j, const TaskSpec &task, const std::string &path,
                            std::set<std::string> &names)
{
    rd.object(j, path);
    TensorSpec t;
    t.name = rd.string(rd.require(j, path, "name"), join(path, "name"));
    std::size_t start = 0;
    for (;;) { // every dotted part an identifier or an index ("layers.0.weight")
        const std::size_t dot = t.name.find('.', start);
        const std::string part = t.name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!isIdentifier(part) && (part.empty() || part.find_first_not_of("0123456789") != std::string::npos))
            throw Failure{join(path, "name"), "'" + t.name + "' is not a state_dict name"};
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    if (!names.insert(t.name).second)
        throw Failure{join(path, "name"), "duplicate state entry '" + t.name + "'"};
    parseDtypeAndShape(rd, j, task, path, t);
    rd.warnUnknown(j, path, {"name", "dtype", "shape"});
    return t;
}

// The fields only a torch task has: reference, init_inputs, parameters, buffers, mode, derived.
void parseModuleFields(Reader &rd, const Json &j, TaskSpec &t)
{
    t.reference = "reference.py";
    if (const Json *r = rd.optional(j, "reference"))
        t.reference = rd.string(*r, "reference");
    if (t.reference.empty() || t.reference.find("..") != std::string::npos || t.reference.front() == '/')
        throw Failure{"reference", "'" + t.reference + "' must be a file in the task's folder"};
    if (const Json *init = rd.optional(j, "init_inputs"))
        t.initInputs = rd.array(*init, "init_inputs");
    std::set<std::string> state;
    for (const auto &[key, list] : {std::pair{"parameters", &t.parameters}, std::pair{"buffers", &t.buffers}}) {
        if (const Json *a = rd.optional(j, key)) {
            rd.array(*a, key);
            for (std::size_t i = 0; i < a->size(); ++i)
                list->push_back(parseStateTensor(rd, (*a)[i], t, index(key, i), state));
        }
    }
    if (const Json *m = rd.optional(j, "mode")) {
        const std::string mode = rd.string(*m, "mode");
        if (mode != "eval" && mode != "train")
            throw Failure{"mode", "'" + mode + "': expected \"eval\" (the default) or \"train\""};
        t.trainingMode = mode == "train";
    }
    if (const Json *d = rd.optional(j, "derived"))
        t.derived = *d;
}

// The "params" object: named numbers the shapes and formulas use, never the name of a formula's function.
void parseTaskParams(Reader &rd, const Json &params, TaskSpec &t)
{
    rd.object(params, "params");
    for (const auto &[key, value] : params.items()) {
        const std::string p = "params." + key;
        if (!isIdentifier(key))
            throw Failure{p, "'" + key + "' is not an identifier"};
        if (key == "min" || key == "max" || key == "ceil" || key == "floor")
            throw Failure{p, "'" + key + "' is the name of a function"};
        t.params.emplace_back(key, rd.number(value, p));
    }
}

// The inputs and the outputs, their names unique across both lists.
void parseTaskTensors(Reader &rd, const Json &j, TaskSpec &t)
{
    const bool torch = t.kind == TaskKind::Torch;
    std::set<std::string> names;
    // A torch task may call them "forward_args" (an earlier import's name) and may list values among them.
    const char *inputsKey = torch && !j.contains("inputs") && j.contains("forward_args") ? "forward_args" : "inputs";
    const Json &inputs = rd.array(rd.require(j, "", inputsKey), inputsKey);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (torch && inputs[i].is_object() && inputs[i].contains("value")) {
            t.scalarArgs.push_back(parseScalarArg(rd, inputs[i], index(inputsKey, i), i, names));
            continue;
        }
        t.inputs.push_back(parseTensor(rd, inputs[i], t, index(inputsKey, i), true, names));
        if (torch)
            requireIntegerRange(inputs[i], t.inputs.back(), index(inputsKey, i));
    }
    const Json &outputs = rd.array(rd.require(j, "", "outputs"), "outputs");
    if (outputs.empty())
        throw Failure{"outputs", "a task needs at least one output"};
    for (std::size_t i = 0; i < outputs.size(); ++i)
        t.outputs.push_back(parseTensor(rd, outputs[i], t, index("outputs", i), false, names));
}

// The "tolerance" object: per dtype name, atol and rtol (each >= 0) over that dtype's defaults.
void parseToleranceTable(Reader &rd, const Json &tol, TaskSpec &t)
{
    rd.object(tol, "tolerance");
    for (const auto &[key, value] : tol.items()) {
        const std::string p = "tolerance." + key;
        const auto dtype = dtypeFromName(key);
        if (!dtype)
            throw Failure{p, "unknown dtype '" + key + "' (known: " + dtypeNameList() + ")"};
        rd.object(value, p);
        Tolerance tt = defaultTolerance(*dtype);
        if (const Json *a = rd.optional(value, "atol"))
            tt.atol = rd.number(*a, p + ".atol");
        if (const Json *r = rd.optional(value, "rtol"))
            tt.rtol = rd.number(*r, p + ".rtol");
        if (tt.atol < 0)
            throw Failure{p + ".atol", "must not be negative"};
        if (tt.rtol < 0)
            throw Failure{p + ".rtol", "must not be negative"};
        rd.warnUnknown(value, p, {"atol", "rtol"});
        t.tolerance[*dtype] = tt;
    }
}

TaskSpec parse(const Json &j, std::vector<std::string> &warnings)
{
    Reader rd(warnings);
    if (!j.is_object())
        throw Failure{"", "expected a JSON object at the top level, got " + typeName(j)};
    // "kind": "cuda" (the default) or "torch" (kforge-cli import: reference.py, no reference.cu; the same
    // grammar, and the module's fields: docs/torch-tasks.md).
    TaskSpec t;
    if (const Json *kind = rd.optional(j, "kind")) {
        const std::string k = rd.string(*kind, "kind");
        if (k == "torch")
            t.kind = TaskKind::Torch;
        else if (k != "cuda")
            throw Failure{"kind", "unknown kind '" + k + "' (known: cuda, torch)"};
    }
    const bool torch = t.kind == TaskKind::Torch;
    t.name = rd.string(rd.require(j, "", "name"), "name");
    if (!isTaskName(t.name))
        throw Failure{"name", "'" + t.name + "' must be lower-case letters, digits and '_'"};
    t.title = rd.optional(j, "title") ? rd.string(j["title"], "title") : t.name;
    t.description = rd.string(rd.require(j, "", "description"), "description");

    if (const Json *params = rd.optional(j, "params"))
        parseTaskParams(rd, *params, t);
    parseTaskTensors(rd, j, t);
    if (const Json *tol = rd.optional(j, "tolerance"))
        parseToleranceTable(rd, *tol, t);
    // null: the import could not derive it (docs/torch-tasks.md says why in "derived").
    if (const Json *f = rd.optional(j, "flops"); f && !(torch && f->is_null()))
        t.flops = parseFormula(rd, *f, t, "flops");
    if (const Json *b = rd.optional(j, "bytes"); b && !(torch && b->is_null()))
        t.bytes = parseFormula(rd, *b, t, "bytes");
    if (const Json *ts = rd.optional(j, "timeout_s")) {
        t.timeoutS = rd.number(*ts, "timeout_s");
        if (t.timeoutS <= 0)
            throw Failure{"timeout_s", "must be positive"};
    }
    if (const Json *timing = rd.optional(j, "timing")) {
        rd.object(*timing, "timing");
        if (const Json *c = rd.optional(*timing, "ci_target")) {
            t.ciTarget = rd.number(*c, "timing.ci_target");
            if (!(*t.ciTarget >= 0 && *t.ciTarget <= 0.5))
                throw Failure{"timing.ci_target", "expected a number in [0, 0.5] (0.01: each median within 1%)"};
        }
        rd.warnUnknown(*timing, "timing", {"ci_target"});
    }
    if (const Json *d = rd.optional(j, "degenerate")) {
        if (!d->is_boolean())
            throw Failure{"degenerate", "expected a boolean, got " + typeName(*d)};
        t.degenerate = d->get<bool>();
    }
    if (const Json *f = rd.optional(j, "nvcc_flags"))
        t.nvccFlags = rd.strings(*f, "nvcc_flags");
    if (const Json *vs = rd.optional(j, "variants")) {
        rd.array(*vs, "variants");
        for (std::size_t i = 0; i < vs->size(); ++i)
            t.variants.push_back(parseVariant(rd, (*vs)[i], index("variants", i)));
    }
    if (torch) {
        parseModuleFields(rd, j, t);
        rd.warnUnknown(j, "",
                       {"kind", "name", "title", "description", "params", "inputs", "forward_args", "outputs",
                        "tolerance", "flops", "bytes", "timeout_s", "timing", "degenerate", "nvcc_flags", "variants",
                        "reference", "init_inputs", "parameters", "buffers", "mode", "derived"});
        return t;
    }
    rd.warnUnknown(j, "",
                   {"kind", "name", "title", "description", "params", "inputs", "outputs", "tolerance", "flops",
                    "bytes", "timeout_s", "timing", "degenerate", "nvcc_flags", "variants"});
    return t;
}

std::optional<std::string> readFile(const std::filesystem::path &p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// "line 3, column 7" from a byte offset (nlohmann reports bytes read so far).
std::string position(std::string_view text, std::size_t byte)
{
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col > 1 ? col - 1 : 1);
}

Json shapeJson(const std::vector<ShapeDim> &shape)
{
    Json a = Json::array();
    for (const ShapeDim &d : shape) {
        if (d.literal)
            a.push_back(d.value);
        else
            a.push_back(d.text);
    }
    return a;
}

} // namespace

std::string_view initKindName(InitSpec::Kind k)
{
    switch (k) {
    case InitSpec::Kind::Normal: return "normal";
    case InitSpec::Kind::Uniform: return "uniform";
    case InitSpec::Kind::Integers: return "integers";
    case InitSpec::Kind::Constant: return "constant";
    }
    return "?";
}

int64_t TensorSpec::numel() const
{
    int64_t n = 1;
    for (const ShapeDim &d : shape)
        n *= d.value;
    return n;
}

std::vector<int64_t> TensorSpec::dims() const
{
    std::vector<int64_t> out;
    for (const ShapeDim &d : shape)
        out.push_back(d.value);
    return out;
}

Tolerance TaskSpec::toleranceFor(Dtype t) const
{
    const auto it = tolerance.find(t);
    return it == tolerance.end() ? defaultTolerance(t) : it->second;
}

std::optional<double> TaskSpec::param(std::string_view name) const
{
    for (const auto &[k, v] : params)
        if (k == name)
            return v;
    return std::nullopt;
}

std::map<std::string, double, std::less<>> TaskSpec::symbols() const
{
    return {params.begin(), params.end()};
}

std::string TaskError::message() const
{
    std::string m = file;
    if (!field.empty())
        m += (m.empty() ? "" : ": ") + field;
    if (!problem.empty())
        m += (m.empty() ? "" : ": ") + problem;
    return m;
}

bool isKnownVerdict(std::string_view v)
{
    return v == "correct" || v == "incorrect" || v == "crashed" || v == "cuda_error" || v == "timeout" || v == "load_error";
}

TaskSpecResult parseTaskSpec(const nlohmann::ordered_json &json, std::string_view file)
{
    TaskSpecResult r;
    std::vector<std::string> warnings;
    try {
        TaskSpec t = parse(json, warnings);
        t.warnings = std::move(warnings);
        r.spec = std::move(t);
    } catch (const Failure &f) {
        r.error = {std::string(file), f.field, f.problem};
    } catch (const nlohmann::json::exception &e) {
        // Only reachable through a type the checks above missed; still a message, never a crash.
        r.error = {std::string(file), "", e.what()};
    }
    return r;
}

TaskSpecResult parseTaskSpecText(std::string_view text, std::string_view file)
{
    nlohmann::ordered_json j;
    try {
        j = nlohmann::ordered_json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error &e) {
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> the tail.
        if (const auto colon = what.find(": "); colon != std::string::npos)
            what = what.substr(colon + 2);
        TaskSpecResult r;
        r.error = {std::string(file), "", "invalid JSON at " + position(text, e.byte) + ": " + what};
        return r;
    }
    return parseTaskSpec(j, file);
}

TaskSpecResult loadTaskFolder(const std::filesystem::path &folder)
{
    const std::string label = (folder.filename().empty() ? folder.parent_path().filename() : folder.filename()).string();
    const std::filesystem::path jsonPath = folder / "task.json";
    const std::string jsonLabel = label + "/task.json";
    TaskSpecResult r;
    const auto text = readFile(jsonPath);
    if (!text) {
        r.error = {jsonLabel, "", "cannot read " + jsonPath.string()};
        return r;
    }
    r = parseTaskSpecText(*text, jsonLabel);
    if (!r.ok())
        return r;
    TaskSpec &t = *r.spec;
    t.folder = folder;
    const auto ref = readFile(folder / t.reference);
    if (!ref) {
        r.error = {label + "/" + t.reference, "", "cannot read " + (folder / t.reference).string()};
        r.spec.reset();
        return r;
    }
    t.referenceSource = *ref;
    for (std::size_t i = 0; i < t.variants.size(); ++i) {
        const auto src = readFile(folder / t.variants[i].file);
        if (!src) {
            r.error = {jsonLabel, index("variants", i) + ".file", "cannot read " + (folder / t.variants[i].file).string()};
            r.spec.reset();
            return r;
        }
        t.variants[i].source = *src;
    }
    return r;
}

nlohmann::ordered_json toJson(const TaskSpec &t)
{
    Json j;
    if (t.kind == TaskKind::Torch)
        j["kind"] = "torch";
    j["name"] = t.name;
    j["title"] = t.title;
    j["description"] = t.description;
    Json params = Json::object();
    for (const auto &[k, v] : t.params)
        params[k] = v;
    j["params"] = params;
    const auto tensors = [](const std::vector<TensorSpec> &list, bool input) {
        Json a = Json::array();
        for (const TensorSpec &s : list) {
            Json o;
            o["name"] = s.name;
            o["dtype"] = std::string(dtypeName(s.dtype));
            o["shape"] = shapeJson(s.shape);
            if (input) {
                Json init;
                init["dist"] = std::string(initKindName(s.init.kind));
                switch (s.init.kind) {
                case InitSpec::Kind::Normal:
                    init["mean"] = s.init.a;
                    init["std"] = s.init.b;
                    break;
                case InitSpec::Kind::Uniform:
                case InitSpec::Kind::Integers:
                    init["low"] = s.init.a;
                    init["high"] = s.init.b;
                    break;
                case InitSpec::Kind::Constant: init["value"] = s.init.a; break;
                }
                o["init"] = init;
            }
            a.push_back(o);
        }
        return a;
    };
    Json inputs = tensors(t.inputs, true);
    for (const ScalarArg &a : t.scalarArgs) // in position order, so each lands where it was
        inputs.insert(inputs.begin() + static_cast<std::ptrdiff_t>(std::min(a.position, inputs.size())),
                      Json{{"name", a.name}, {"value", a.value}});
    j["inputs"] = inputs;
    j["outputs"] = tensors(t.outputs, false);
    Json tol = Json::object();
    for (const auto &[dtype, tt] : t.tolerance)
        tol[std::string(dtypeName(dtype))] = Json{{"atol", tt.atol}, {"rtol", tt.rtol}};
    j["tolerance"] = tol;
    if (t.flops.present())
        j["flops"] = t.flops.text;
    if (t.bytes.present())
        j["bytes"] = t.bytes.text;
    j["timeout_s"] = t.timeoutS;
    if (t.ciTarget)
        j["timing"] = Json{{"ci_target", *t.ciTarget}};
    j["degenerate"] = t.degenerate;
    j["nvcc_flags"] = t.nvccFlags;
    Json variants = Json::array();
    for (const VariantSpec &v : t.variants) {
        Json o;
        o["file"] = v.file;
        o["label"] = v.label;
        if (v.expect) {
            Json e;
            e["verdict"] = v.expect->verdict;
            if (v.expect->minSpeedup)
                e["min_speedup"] = *v.expect->minSpeedup;
            o["expect"] = e;
        }
        if (!v.nvccFlags.empty())
            o["nvcc_flags"] = v.nvccFlags;
        variants.push_back(o);
    }
    j["variants"] = variants;
    if (t.kind == TaskKind::Torch) {
        j["reference"] = t.reference;
        j["init_inputs"] = t.initInputs;
        j["parameters"] = tensors(t.parameters, false);
        j["buffers"] = tensors(t.buffers, false);
        j["mode"] = t.trainingMode ? "train" : "eval";
        if (!t.derived.is_null())
            j["derived"] = t.derived;
    }
    return j;
}

} // namespace kforge::runtime
