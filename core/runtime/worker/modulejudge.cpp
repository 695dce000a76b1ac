#include "core/runtime/worker/modulejudge.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/worker/moduleweights.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <stdexcept>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kWeightAlign = 256;

Json signatureTensor(const TensorSpec &t)
{
    Json shape = Json::array();
    for (const ShapeDim &d : t.shape)
        shape.push_back(d.value);
    return Json{{"dtype", std::string(dtypeName(t.dtype))}, {"shape", shape}};
}

// Element sizes of the module host's dtype names; 0 for a name it does not have.
std::size_t stateElementSize(const std::string &name)
{
    if (const std::optional<Dtype> d = dtypeFromName(name))
        return dtypeSize(*d);
    if (name == "i16")
        return 2;
    if (name == "i8" || name == "bool")
        return 1;
    return 0;
}

template <typename T>
T loadRaw(const char *p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T>
void storeRaw(char *p, T v)
{
    std::memcpy(p, &v, sizeof v);
}

std::vector<double> decodeState(const char *p, std::size_t n, Dtype t)
{
    std::vector<double> out(n);
    const std::size_t size = dtypeSize(t);
    for (std::size_t i = 0; i < n; ++i, p += size) {
        switch (t) {
        case Dtype::F32: out[i] = loadRaw<float>(p); break;
        case Dtype::F64: out[i] = loadRaw<double>(p); break;
        case Dtype::F16: out[i] = __half2float(loadRaw<__half>(p)); break;
        case Dtype::BF16: out[i] = __bfloat162float(loadRaw<__nv_bfloat16>(p)); break;
        case Dtype::I32: out[i] = loadRaw<int32_t>(p); break;
        case Dtype::I64: out[i] = static_cast<double>(loadRaw<int64_t>(p)); break;
        case Dtype::U8: out[i] = static_cast<unsigned char>(*p); break;
        }
    }
    return out;
}

// Floating types only (the others are never moved).
void encodeState(const std::vector<double> &values, char *p, Dtype t)
{
    const std::size_t size = dtypeSize(t);
    for (double v : values) {
        switch (t) {
        case Dtype::F32: storeRaw(p, static_cast<float>(v)); break;
        case Dtype::F64: storeRaw(p, v); break;
        case Dtype::F16: storeRaw(p, __float2half_rn(static_cast<float>(v))); break;
        case Dtype::BF16: storeRaw(p, __float2bfloat16_rn(static_cast<float>(v))); break;
        default: return;
        }
        p += size;
    }
}

} // namespace

Json moduleSignature(const TaskSpec &task)
{
    Json args = Json::array();
    std::size_t tensor = 0;
    const std::size_t total = task.inputs.size() + task.scalarArgs.size();
    for (std::size_t position = 0; position < total; ++position) {
        const ScalarArg *scalar = nullptr;
        for (const ScalarArg &s : task.scalarArgs)
            if (s.position == position)
                scalar = &s;
        if (scalar)
            args.push_back(Json{{"value", scalar->value}});
        else if (tensor < task.inputs.size())
            args.push_back(signatureTensor(task.inputs[tensor++]));
    }
    Json outputs = Json::array();
    for (const TensorSpec &t : task.outputs)
        outputs.push_back(signatureTensor(t));
    return Json{{"args", args}, {"outputs", outputs}};
}

Json moduleInit(const TaskSpec &task, bool reference, const Json &referenceInitArgs)
{
    Json init{{"class", reference ? "Model" : "ModelNew"}, {"seed", 0}, {"mode", task.trainingMode ? "train" : "eval"}};
    if (reference)
        init["init_args"] = task.initInputs.is_array() && !task.initInputs.empty() ? task.initInputs : Json(nullptr);
    else
        init["init_args"] = referenceInitArgs.is_array() ? referenceInitArgs : Json::array();
    return init;
}

JudgeWeights::JudgeWeights(const Json &state, bool allocate)
{
    std::size_t offset = 0;
    for (const Json &s : state.is_array() ? state : Json::array()) {
        Entry e;
        e.name = s.value("name", std::string());
        e.dtypeName = s.value("dtype", std::string());
        e.dtype = dtypeFromName(e.dtypeName);
        std::size_t numel = 1;
        for (const Json &d : s.value("shape", Json::array())) {
            e.shape.push_back(d.get<long long>());
            numel *= static_cast<std::size_t>(std::max(0LL, d.get<long long>()));
        }
        const std::size_t size = stateElementSize(e.dtypeName);
        if (size == 0)
            throw std::runtime_error("the reference's state entry \"" + e.name + "\" has dtype " + e.dtypeName
                                     + ", which the judge cannot lend");
        e.bytes = numel * size;
        e.offset = offset;
        offset += (std::max<std::size_t>(e.bytes, 1) + kWeightAlign - 1) / kWeightAlign * kWeightAlign;
        m_entries.push_back(std::move(e));
    }
    m_bytes = m_entries.empty() ? 0 : offset;
    if (m_entries.empty() || !allocate)
        return;
    m_buffer = DeviceBuffer(offset);
    KF_CUDA(cudaMemset(m_buffer.get(), 0, offset));
    cudaIpcMemHandle_t h;
    KF_CUDA(cudaIpcGetMemHandle(&h, m_buffer.get()));
    m_handle = host::toHex(&h, sizeof h);
}

Json JudgeWeights::bufferJson() const
{
    return Json{{"id", kBufferId}, {"handle", m_handle}, {"bytes", m_buffer.bytes()}};
}

Json JudgeWeights::stateRequest(const char *direction) const
{
    Json entries = Json::array();
    for (const Entry &e : m_entries)
        entries.push_back(
            Json{{"name", e.name}, {"dtype", e.dtypeName}, {"shape", e.shape}, {"ref", Json::array({kBufferId, e.offset})}});
    return Json{{"op", "state"}, {"direction", direction}, {"entries", entries}};
}

std::string JudgeWeights::download() const
{
    std::string bytes(m_buffer.bytes(), '\0');
    if (!bytes.empty())
        KF_CUDA(cudaMemcpy(bytes.data(), m_buffer.get(), bytes.size(), cudaMemcpyDeviceToHost));
    return bytes;
}

Json JudgeWeights::moveFrom(const std::string &initial, uint64_t seed)
{
    Json report;
    const std::string bytes = moved(initial, seed, report);
    if (!bytes.empty())
        KF_CUDA(cudaMemcpy(m_buffer.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
    return report;
}

std::string JudgeWeights::moved(const std::string &initial, uint64_t seed, Json &report) const
{
    if (initial.size() != m_bytes)
        throw std::runtime_error("the reference's exported state has " + std::to_string(initial.size())
                                 + " bytes, the judge's layout " + std::to_string(m_bytes));
    std::vector<StateEntry> values;
    for (const Entry &e : m_entries) {
        StateEntry s;
        s.name = e.name;
        s.dtype = e.dtype.value_or(Dtype::U8); // a type the judge lacks: integer-like, kept
        if (e.dtype)
            s.values = decodeState(initial.data() + e.offset, e.bytes / dtypeSize(*e.dtype), *e.dtype);
        values.push_back(std::move(s));
    }
    const std::vector<WeightMove> moves = moveWeights(values, seed);
    std::string out = initial;
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].dtype && isFloating(*m_entries[i].dtype))
            encodeState(values[i].values, out.data() + m_entries[i].offset, *m_entries[i].dtype);
    report = weightsReport(moves, seed);
    return out;
}

std::optional<uint64_t> JudgeWeights::offsetOf(const TensorSpec &declared) const
{
    for (const Entry &e : m_entries)
        if (e.name == declared.name)
            return e.dtype == declared.dtype && e.bytes == declared.sizeBytes() ? std::optional<uint64_t>(e.offset)
                                                                                : std::nullopt;
    return std::nullopt;
}

std::string JudgeWeights::mismatch(const TaskSpec &task) const
{
    for (const std::vector<TensorSpec> *list : {&task.parameters, &task.buffers})
        for (const TensorSpec &t : *list)
            if (!offsetOf(t)) {
                for (const Entry &e : m_entries)
                    if (e.name == t.name)
                        return "the task declares \"" + t.name + "\" as " + std::string(dtypeName(t.dtype)) + " of "
                               + std::to_string(t.sizeBytes()) + " bytes, the reference's is " + e.dtypeName + " of "
                               + std::to_string(e.bytes) + " bytes";
                return "the task declares \"" + t.name + "\", which the reference's state does not have";
            }
    return {};
}

} // namespace kforge::runtime
