#pragma once
// Element types of task tensors (task.json names "f32", "f16", ...): their sizes and default tolerances.
// The numeric values match kf_dtype in kforge/kernel.h, so a Dtype can be passed to a kernel as is.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kforge::runtime {

enum class Dtype { F32 = 0, F16 = 1, BF16 = 2, F64 = 3, I32 = 4, I64 = 5, U8 = 6 };

inline constexpr Dtype kAllDtypes[] = {Dtype::F32, Dtype::F16, Dtype::BF16, Dtype::F64,
                                       Dtype::I32, Dtype::I64, Dtype::U8};

struct Tolerance {
    double atol = 0;
    double rtol = 0;
    friend bool operator==(const Tolerance &, const Tolerance &) = default;
};

std::string_view dtypeName(Dtype t);
std::optional<Dtype> dtypeFromName(std::string_view name);
std::size_t dtypeSize(Dtype t);
bool isFloating(Dtype t);
// f64 1e-8/1e-8, f32 1e-4/1e-4, f16 1e-2/1e-2, bf16 2e-2/2e-2, integers exact.
Tolerance defaultTolerance(Dtype t);
// "f32, f16, bf16, f64, i32, i64, u8", for messages.
std::string dtypeNameList();

} // namespace kforge::runtime
