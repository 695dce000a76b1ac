#include "core/runtime/task/dtype.h"

namespace kforge::runtime {

std::string_view dtypeName(Dtype t)
{
    switch (t) {
    case Dtype::F32: return "f32";
    case Dtype::F16: return "f16";
    case Dtype::BF16: return "bf16";
    case Dtype::F64: return "f64";
    case Dtype::I32: return "i32";
    case Dtype::I64: return "i64";
    case Dtype::U8: return "u8";
    }
    return "?";
}

std::optional<Dtype> dtypeFromName(std::string_view name)
{
    for (Dtype t : kAllDtypes)
        if (dtypeName(t) == name)
            return t;
    return std::nullopt;
}

std::size_t dtypeSize(Dtype t)
{
    switch (t) {
    case Dtype::F64:
    case Dtype::I64: return 8;
    case Dtype::F32:
    case Dtype::I32: return 4;
    case Dtype::F16:
    case Dtype::BF16: return 2;
    case Dtype::U8: return 1;
    }
    return 0;
}

bool isFloating(Dtype t)
{
    return t == Dtype::F32 || t == Dtype::F16 || t == Dtype::BF16 || t == Dtype::F64;
}

Tolerance defaultTolerance(Dtype t)
{
    switch (t) {
    case Dtype::F64: return {1e-8, 1e-8};
    case Dtype::F32: return {1e-4, 1e-4};
    case Dtype::F16: return {1e-2, 1e-2};
    case Dtype::BF16: return {2e-2, 2e-2};
    case Dtype::I32:
    case Dtype::I64:
    case Dtype::U8: return {0, 0};
    }
    return {};
}

std::string dtypeNameList()
{
    std::string s;
    for (Dtype t : kAllDtypes) {
        if (!s.empty())
            s += ", ";
        s += dtypeName(t);
    }
    return s;
}

} // namespace kforge::runtime
