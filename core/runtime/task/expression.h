#pragma once
// The little arithmetic language of task.json shapes and FLOP/byte formulas: numbers, identifiers
// (the task's params), + - * /, parentheses, unary minus, and min(a, b, ...), max(a, b, ...), ceil(x),
// floor(x). Evaluated in double precision; errors name the column and the problem.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kforge::runtime {

struct ExpressionResult {
    double value = 0;
    std::string error; // empty on success, e.g. "unknown identifier 'K' at column 3"
    bool ok() const { return error.empty(); }
};

using ExpressionLookup = std::function<std::optional<double>(std::string_view name)>;

ExpressionResult evaluateExpression(std::string_view text, const ExpressionLookup &lookup);
ExpressionResult evaluateExpression(std::string_view text, const std::map<std::string, double, std::less<>> &vars);

} // namespace kforge::runtime
