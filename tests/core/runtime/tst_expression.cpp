// The shape/formula language: precedence, functions, identifiers, and errors that point at the column.
#include "check.h"
#include "core/runtime/task/expression.h"

#include <algorithm>
#include <cmath>

using namespace kforge::runtime;

namespace {

const std::map<std::string, double, std::less<>> kVars{{"N", 4096}, {"M", 1024}, {"K", 3}, {"batch_size", 8}};

void value(const char *text, double expected)
{
    const ExpressionResult r = evaluateExpression(text, kVars);
    KF_CHECK_MSG(r.ok() && std::abs(r.value - expected) <= 1e-9 * std::max(1.0, std::abs(expected)),
                 std::string(text) + " -> " + (r.ok() ? std::to_string(r.value) : r.error) + ", expected "
                     + std::to_string(expected));
}

void error(const char *text, const char *expectedError)
{
    const ExpressionResult r = evaluateExpression(text, kVars);
    KF_CHECK_MSG(!r.ok() && r.error == expectedError,
                 std::string(text) + " -> " + (r.ok() ? "ok " + std::to_string(r.value) : "'" + r.error + "'")
                     + ", expected error '" + expectedError + "'");
}

} // namespace

int main()
{
    value("42", 42);
    value("1.5e3", 1500);
    value(".5", 0.5);
    value("N", 4096);
    value("batch_size", 8);
    value("N*M", 4096.0 * 1024);
    value("1 + 2 * 3", 7);
    value("(1 + 2) * 3", 9);
    value("10 - 4 - 3", 3);
    value("64 / 4 / 2", 8);
    value("-N + 1", -4095);
    value("--3", 3);
    value("-(2 - 5) * +2", 6);
    value("2 * -3", -6);
    value("4*N + 8*N*M", 4.0 * 4096 + 8.0 * 4096 * 1024);
    value("min(N, M)", 1024);
    value("max(N, M, 5000)", 5000);
    value("ceil(N / 1000)", 5);
    value("floor(N / 1000)", 4);
    value("ceil(7/2)*2", 8);
    value("  min( K , 2 )  ", 2);
    value("2*K*K*K*batch_size", 2.0 * 27 * 8);
    value("7 / 2", 3.5);

    error("", "empty expression");
    error("   ", "empty expression");
    error("N * X", "unknown identifier 'X' at column 5");
    error("1 +", "unexpected end of expression at column 4");
    error("(1 + 2", "expected ')' at column 7");
    error("1 + 2)", "unexpected ')' at column 6");
    error("2 $ 3", "unexpected '$' at column 3");
    error("N / (M - 1024)", "division by zero at column 5");
    error("sqrt(4)", "unknown function 'sqrt' (known: min, max, ceil, floor) at column 1");
    error("min(1)", "min() takes at least 2 arguments, got 1 at column 1");
    error("ceil(1, 2)", "ceil() takes 1 argument, got 2 at column 1");
    error("min(1,)", "unexpected ')' at column 7");
    error("2N", "unexpected 'N' at column 2");
    error("1e999", "number out of range at column 1");
    error("1e300 * 1e300", "the result is not a finite number");

    // A lookup that is not a map: the worker resolves identifiers lazily.
    const ExpressionResult lazy = evaluateExpression("X * 2", [](std::string_view name) -> std::optional<double> {
        if (name == "X")
            return 21.0;
        return std::nullopt;
    });
    KF_CHECK(lazy.ok() && lazy.value == 42);
    KF_CHECK(!evaluateExpression("X", ExpressionLookup()).ok());

    std::string deep(300, '(');
    deep += "1" + std::string(300, ')');
    KF_CHECK(evaluateExpression(deep, kVars).error.starts_with("expression nested too deeply"));
    KF_CHECK(!evaluateExpression(std::string(300, '-') + "1", kVars).ok());
    value("((((1))))", 1);
    return test::finish("tst_expression");
}
