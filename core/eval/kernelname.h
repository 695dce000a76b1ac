#pragma once
// The one way a kernel's name is shown (prompt, Variants, Compare, charts, report, CLI): the demangled name the
// trace or ptxas gives, cut to what a reader recognises: "colsum_vec4" for
// "(anonymous namespace)::colsum_vec4(float const*, float*, int)", "gemm<128, float>" for
// "void ns::gemm<128, float>(float const*, float*)".
#include <QString>

namespace kforge {

// Rules, in order:
//  - a mangled name ("_Z...") is demangled first; a plain name (extern "C") is kept as it is;
//  - the parameter list (the last top-level "(...)", with any trailing " const" or "&") and a return type
//    (everything up to the last top-level space) are dropped;
//  - qualifiers are dropped: namespaces, "(anonymous namespace)", enclosing classes and functions
//    ("run(float*)::{lambda(int)#1}" -> "{lambda(int)#1}"), at the top level and inside template arguments;
//  - template arguments are kept ("foo<128, float>"), unless the name is then longer than maxLength:
//    then they are shown as "<…>" ("DeviceReduceKernel<…>").
// Brackets of every kind ((), <>, {}, []) nest, and operator names ("operator()", "operator<<") are read as
// names, not brackets. An empty or unreadable name comes back unchanged (trimmed).
QString kernelDisplayName(const QString &name, int maxLength = 72);

} // namespace kforge
