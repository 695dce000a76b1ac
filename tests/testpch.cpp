// The translation unit that builds the Qt Test suites' precompiled header (tests/CMakeLists.txt).
