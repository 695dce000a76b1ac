#pragma once
// A few lines of test harness for the Qt-free runtime tests (plain executables: exit 0 pass, 1 fail,
// 77 skip), so they build on a GPU host that has no Qt.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace kforge::runtime::test {

inline int &failures()
{
    static int n = 0;
    return n;
}

inline void report(bool ok, const char *expr, const std::string &detail, const char *file, int line)
{
    if (ok)
        return;
    ++failures();
    std::fprintf(stderr, "FAIL %s:%d: %s%s%s\n", file, line, expr, detail.empty() ? "" : "\n     ", detail.c_str());
}

inline int finish(const char *name)
{
    if (failures() == 0) {
        std::printf("PASS %s\n", name);
        return 0;
    }
    std::printf("FAILED %s: %d check(s)\n", name, failures());
    return 1;
}

[[noreturn]] inline void skip(const std::string &why)
{
    std::printf("SKIP %s\n", why.c_str());
    std::exit(77);
}

} // namespace kforge::runtime::test

#define KF_CHECK(cond) \
    ::kforge::runtime::test::report(static_cast<bool>(cond), #cond, std::string(), __FILE__, __LINE__)
#define KF_CHECK_MSG(cond, detail) \
    ::kforge::runtime::test::report(static_cast<bool>(cond), #cond, (detail), __FILE__, __LINE__)
#define KF_CHECK_CONTAINS(haystack, needle)                                                                    \
    ::kforge::runtime::test::report(std::string(haystack).find(needle) != std::string::npos,                   \
                                    "'" #haystack "' contains '" #needle "'", "got: " + std::string(haystack), \
                                    __FILE__, __LINE__)
