#include "core/runtime/task/expression.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

namespace kforge::runtime {
namespace {

// Recursive descent straight to a value: the formulas are tiny and evaluated once per task.
//   expr   := term (('+' | '-') term)*
//   term   := unary (('*' | '/') unary)*
//   unary  := '-' unary | '+' unary | primary
//   primary:= number | ident | ident '(' expr (',' expr)* ')' | '(' expr ')'
class Parser
{
public:
    Parser(std::string_view text, const ExpressionLookup &lookup)
        : m_text(text)
        , m_lookup(lookup)
    {
    }

    ExpressionResult run()
    {
        skipSpace();
        if (m_pos >= m_text.size())
            return {0, "empty expression"};
        const double v = expr();
        if (m_error.empty()) {
            skipSpace();
            if (m_pos < m_text.size())
                fail("unexpected '" + std::string(1, m_text[m_pos]) + "'");
        }
        if (m_error.empty() && !std::isfinite(v))
            m_error = "the result is not a finite number";
        return {m_error.empty() ? v : 0, m_error};
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }

    bool accept(char c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    void fail(const std::string &what)
    {
        if (m_error.empty())
            m_error = what + " at column " + std::to_string(m_pos + 1);
    }

    double expr()
    {
        double v = term();
        while (m_error.empty()) {
            if (accept('+'))
                v += term();
            else if (accept('-'))
                v -= term();
            else
                break;
        }
        return v;
    }

    double term()
    {
        double v = unary();
        while (m_error.empty()) {
            if (accept('*')) {
                v *= unary();
            } else if (accept('/')) {
                skipSpace();
                const std::size_t at = m_pos;
                const double d = unary();
                if (m_error.empty() && d == 0) {
                    m_pos = at;
                    fail("division by zero");
                    return 0;
                }
                v /= d;
            } else {
                break;
            }
        }
        return v;
    }

    double unary()
    {
        if (++m_depth > 200) {
            fail("expression nested too deeply");
            return 0;
        }
        double v;
        if (accept('-'))
            v = -unary();
        else if (accept('+'))
            v = unary();
        else
            v = primary();
        --m_depth;
        return v;
    }

    double primary()
    {
        skipSpace();
        if (m_pos >= m_text.size()) {
            fail("unexpected end of expression");
            return 0;
        }
        const char c = m_text[m_pos];
        if (c == '(') {
            ++m_pos;
            const double v = expr();
            if (m_error.empty() && !accept(')'))
                fail("expected ')'");
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
            return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_')
            return identifier();
        fail("unexpected '" + std::string(1, c) + "'");
        return 0;
    }

    double number()
    {
        const char *begin = m_text.data() + m_pos;
        const char *end = m_text.data() + m_text.size();
        double v = 0;
        const auto [ptr, ec] = std::from_chars(begin, end, v, std::chars_format::general);
        if (ec == std::errc::result_out_of_range) {
            fail("number out of range");
            return 0;
        }
        if (ec != std::errc() || ptr == begin) {
            fail("malformed number");
            return 0;
        }
        m_pos += static_cast<std::size_t>(ptr - begin);
        return v;
    }

    double identifier()
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
            ++m_pos;
        const std::string_view name = m_text.substr(start, m_pos - start);
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '(')
            return call(name, start);
        if (auto v = m_lookup ? m_lookup(name) : std::nullopt)
            return *v;
        m_pos = start;
        fail("unknown identifier '" + std::string(name) + "'");
        return 0;
    }

    double call(std::string_view name, std::size_t start)
    {
        ++m_pos; // '('
        std::vector<double> args;
        if (!accept(')')) {
            do {
                args.push_back(expr());
                if (!m_error.empty())
                    return 0;
            } while (accept(','));
            if (!accept(')')) {
                fail("expected ',' or ')'");
                return 0;
            }
        }
        const auto arity = [&](std::size_t lo, std::size_t hi) {
            if (args.size() >= lo && args.size() <= hi)
                return true;
            const std::size_t end = m_pos;
            m_pos = start;
            fail(std::string(name) + "() takes " + (lo == hi ? std::to_string(lo) : "at least " + std::to_string(lo))
                 + (lo == 1 && hi == 1 ? " argument" : " arguments") + ", got " + std::to_string(args.size()));
            m_pos = end;
            return false;
        };
        if (name == "min" || name == "max") {
            if (!arity(2, SIZE_MAX))
                return 0;
            double v = args[0];
            for (double a : args)
                v = name == "min" ? std::min(v, a) : std::max(v, a);
            return v;
        }
        if (name == "ceil" || name == "floor") {
            if (!arity(1, 1))
                return 0;
            return name == "ceil" ? std::ceil(args[0]) : std::floor(args[0]);
        }
        m_pos = start;
        fail("unknown function '" + std::string(name) + "' (known: min, max, ceil, floor)");
        return 0;
    }

    std::string_view m_text;
    const ExpressionLookup &m_lookup;
    std::size_t m_pos = 0;
    int m_depth = 0;
    std::string m_error;
};

} // namespace

ExpressionResult evaluateExpression(std::string_view text, const ExpressionLookup &lookup)
{
    return Parser(text, lookup).run();
}

ExpressionResult evaluateExpression(std::string_view text, const std::map<std::string, double, std::less<>> &vars)
{
    const ExpressionLookup lookup = [&vars](std::string_view name) -> std::optional<double> {
        const auto it = vars.find(name);
        if (it == vars.end())
            return std::nullopt;
        return it->second;
    };
    return evaluateExpression(text, lookup);
}

} // namespace kforge::runtime
