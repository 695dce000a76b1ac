#include "core/export/nvccflags.h"

#include <QFileInfo>
#include <QSet>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// Options whose value may come as the next token.
bool takesValue(const QString &opt)
{
    static const QSet<QString> withValue = {
        u"-Xptxas"_s,
        u"--ptxas-options"_s,
        u"-Xcompiler"_s,
        u"--compiler-options"_s,
        u"-Xlinker"_s,
        u"--linker-options"_s,
        u"-Xnvlink"_s,
        u"--nvlink-options"_s,
        u"-maxrregcount"_s,
        u"--maxrregcount"_s,
        u"-std"_s,
        u"--std"_s,
        u"-D"_s,
        u"-U"_s,
        u"--default-stream"_s,
        u"-arch"_s,
        u"--gpu-architecture"_s,
        u"-code"_s,
        u"--gpu-code"_s,
        u"-gencode"_s,
        u"--generate-code"_s,
        u"-o"_s,
        u"--output-file"_s,
        u"-I"_s,
        u"-L"_s,
        u"-l"_s,
        u"-x"_s,
        u"-ccbin"_s,
        u"--compiler-bindir"_s,
        u"-include"_s,
        u"-isystem"_s,
    };
    return withValue.contains(opt);
}

QString optionName(const QString &token)
{
    const qsizetype eq = token.indexOf(u'=');
    return eq > 0 ? token.left(eq) : token;
}

bool isArchOption(const QString &name)
{
    static const QSet<QString> arch = {u"-arch"_s,      u"--gpu-architecture"_s, u"-code"_s,
                                       u"--gpu-code"_s, u"-gencode"_s,           u"--generate-code"_s};
    return arch.contains(name);
}

// -Xcompiler / -Xptxas values are comma lists; drop the parts the generated build provides itself.
QString filterSubOptions(const QString &name, const QString &value)
{
    QStringList keep;
    for (const QString &part : value.split(u',', Qt::SkipEmptyParts)) {
        const QString p = part.trimmed();
        const bool host = name == u"-Xcompiler"_s || name == u"--compiler-options"_s;
        const bool ptxas = name == u"-Xptxas"_s || name == u"--ptxas-options"_s;
        if (host && (p == u"-fPIC"_s || p == u"-fpic"_s || p.startsWith(u"-fvisibility"_s)))
            continue;
        if (ptxas && (p == u"-v"_s || p == u"--verbose"_s))
            continue;
        keep << p;
    }
    return keep.join(u',');
}

} // namespace

NvccFlags::Translated NvccFlags::translate(const QStringList &flags)
{
    Translated t;
    for (qsizetype i = 0; i < flags.size(); ++i) {
        const QString token = flags[i].trimmed();
        if (token.isEmpty())
            continue;
        QString name = optionName(token);
        QString value;
        QString written = token;
        bool separate = false;
        if (token.contains(u'=') && takesValue(name)) {
            value = token.mid(name.size() + 1);
        } else if (takesValue(token) && i + 1 < flags.size()) {
            value = flags[i + 1].trimmed();
            written = token + u' ' + value;
            separate = true;
            ++i;
        } else if (token.startsWith(u"-l"_s) && token.size() > 2 && !token.startsWith(u"-lineinfo"_s)) {
            name = u"-l"_s;
            value = token.mid(2);
        } else if ((token.startsWith(u"-I"_s) || token.startsWith(u"-L"_s) || token.startsWith(u"-D"_s)
                    || token.startsWith(u"-U"_s))
                   && token.size() > 2 && !token.startsWith(u"--"_s)) {
            name = token.left(2);
            value = token.mid(2);
        }

        if (name == u"-l"_s || name == u"--library"_s) {
            if (!t.libraries.contains(value))
                t.libraries << value;
            continue;
        }
        if (isArchOption(name) || name == u"-o"_s || name == u"--output-file"_s || name == u"-c"_s || name == u"--compile"_s
            || name == u"-shared"_s || name == u"--shared"_s || name == u"-ccbin"_s || name == u"--compiler-bindir"_s
            || name == u"-I"_s || name == u"-L"_s || name == u"-isystem"_s || name == u"-x"_s || name == u"--resource-usage"_s
            || name == u"-Xlinker"_s || name == u"--linker-options"_s || name == u"-Xnvlink"_s
            || name == u"--nvlink-options"_s || name == u"-cubin"_s || name == u"-ptx"_s || name == u"-fatbin"_s) {
            t.ignored << written;
            continue;
        }
        if (name == u"-Xcompiler"_s || name == u"--compiler-options"_s || name == u"-Xptxas"_s
            || name == u"--ptxas-options"_s) {
            const QString kept = filterSubOptions(name, value);
            if (kept.isEmpty()) {
                t.ignored << written;
                continue;
            }
            t.compile << QStringList{name, kept};
            continue;
        }
        if (!value.isEmpty() && separate)
            t.compile << QStringList{token, value};
        else
            t.compile << QStringList{token};
    }
    return t;
}

QString NvccFlags::cmakeLibrary(const QString &library)
{
    static const QSet<QString> toolkit = {
        u"cublas"_s,      u"cublasLt"_s, u"cufft"_s, u"cufftw"_s,     u"curand"_s, u"cusolver"_s,
        u"cusparse"_s,    u"cupti"_s,    u"nvrtc"_s, u"nvToolsExt"_s, u"nvtx3"_s,  u"nvml"_s,
        u"cuda_driver"_s, u"cudart"_s,   u"nppc"_s,  u"nvjpeg"_s,     u"cufile"_s,
    };
    if (library == u"cuda"_s)
        return u"CUDA::cuda_driver"_s;
    if (toolkit.contains(library))
        return u"CUDA::"_s + library;
    return library;
}

QString NvccFlags::joined(const QStringList &group)
{
    if (group.size() < 2)
        return group.value(0);
    const QString &name = group.front();
    if (name == u"-D"_s || name == u"-U"_s)
        return name + group.at(1);
    // nvcc takes every option that has a value in the --option=value form too.
    return name + u'=' + group.at(1);
}

QStringList NvccFlags::portable(const QStringList &command)
{
    QString toolkit; // "/usr/local/cuda" of "/usr/local/cuda/bin/nvcc"
    if (!command.isEmpty() && command.front().startsWith(u'/') && command.front().endsWith(u"/bin/nvcc"_s))
        toolkit = command.front().chopped(int(qsizetype(sizeof("/bin/nvcc") - 1)));
    const auto path = [&toolkit](const QString &p) -> QString {
        if (!p.startsWith(u'/'))
            return p;
        if (!toolkit.isEmpty() && (p == toolkit || p.startsWith(toolkit + u'/')))
            return u"$CUDA_HOME"_s + p.mid(toolkit.size());
        // KForge's kernel ABI headers (core/runtime/include, or where an installation keeps kforge/kernel.h).
        if (p.endsWith(u"/core/runtime/include"_s) || QFileInfo::exists(p + u"/kforge/kernel.h"_s))
            return u"include"_s;
        return u"…/"_s + QFileInfo(p).fileName();
    };
    static const QStringList joinedPrefixes = {u"-I"_s,
                                               u"-L"_s,
                                               u"-isystem"_s,
                                               u"-rpath="_s,
                                               u"-ccbin="_s,
                                               u"--compiler-bindir="_s,
                                               u"--include-path="_s,
                                               u"--library-path="_s};
    QStringList out;
    for (qsizetype i = 0; i < command.size(); ++i) {
        const QString &token = command.at(i);
        if (i == 0 && token.endsWith(u"/nvcc"_s)) {
            out << u"nvcc"_s;
            continue;
        }
        QString mapped = path(token);
        for (const QString &prefix : joinedPrefixes)
            if (token.size() > prefix.size() && token.startsWith(prefix)) {
                mapped = prefix + path(token.mid(prefix.size()));
                break;
            }
        out << mapped;
    }
    return out;
}

QString NvccFlags::cmakeCudaOption(const QStringList &group)
{
    QString text = joined(group);
    // Characters that mean something inside a generator expression or to the CMake parser.
    text.replace(u"\\"_s, u"\\\\"_s).replace(u"\""_s, u"\\\""_s);
    text.replace(u">"_s, u"$<ANGLE-R>"_s).replace(u","_s, u"$<COMMA>"_s).replace(u";"_s, u"$<SEMICOLON>"_s);
    return u"\"$<$<COMPILE_LANGUAGE:CUDA>:"_s + text + u">\""_s;
}

} // namespace kforge
