// The diagnostics and ptxas resource parsers on outputs recorded from nvcc 13.0 (tests/core/compile/data:
// each <case>.cu was compiled with the Compiler's flags, its output saved as <case>.log).
#include "core/compile/diagnosticparser.h"
#include "core/compile/ptxasresourceparser.h"

#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/core/compile/data/") + name;
}

QString read(const QString &name)
{
    QFile f(dataFile(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return QString::fromUtf8(f.readAll());
}

// "severity file:line:column tool | message's first line" for every diagnostic, one per line.
QString dump(const QList<Diagnostic> &list)
{
    QStringList lines;
    for (const Diagnostic &d : list)
        lines << u"%1 %2:%3:%4 %5 | %6"_s.arg(d.severityName(), d.file)
                     .arg(d.line)
                     .arg(d.column)
                     .arg(d.tool, d.message.section(u'\n', 0, 0));
    return lines.join(u'\n');
}

} // namespace

class TestDiagnosticParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void diagnostics_data();
    void diagnostics();
    void instantiationContextJoinsTheError();
    void continuationLines();
    void columnsNeedTheSource();
    void resources_data();
    void resources();
    void deviceFunctionsAreNotKernels();
    void olderPtxasFormat();
    void demangle();
    void jsonRoundTrip();
};

void TestDiagnosticParser::diagnostics_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");

    QTest::newRow("EDG errors; columns only where the excerpt is the source line")
        << u"undefined_identifiers"_s << uR"(error undefined_identifiers.cu:2:0 nvcc | identifier "y" is undefined
error undefined_identifiers.cu:3:18 nvcc | return value type does not match the function type
error undefined_identifiers.cu:4:0 nvcc | identifier "undefined_fn" is undefined)"_s;
    QTest::newRow("EDG error with caret column")
        << u"member_of_int"_s
        << uR"(error member_of_int.cu:5:23 nvcc | expression must have class type but it has type "int")"_s;
    QTest::newRow("EDG warning with number, error, notes")
        << u"template_instantiation"_s
        << uR"(warning template_instantiation.cu:5:9 nvcc | variable "unused" was declared but never referenced
error template_instantiation.cu:6:37 nvcc | no operator "+" matches these operands
note template_instantiation.cu:6:37 nvcc | built-in operator+(<promoted arithmetic>, <promoted arithmetic>) does not match because argument #1 does not match parameter
note template_instantiation.cu:6:37 nvcc | built-in operator+(<pointer to object>, <ptrdiff_t>) does not match because argument #1 does not match parameter
note template_instantiation.cu:6:37 nvcc | built-in operator+(<ptrdiff_t>, <pointer to object>) does not match because argument #1 does not match parameter)"_s;
    QTest::newRow("gcc preprocessor: missing include")
        << u"missing_include"_s << uR"(error missing_include.cu:2:10 gcc | nonexistent.h: No such file or directory)"_s;
    QTest::newRow("gcc preprocessor: #error")
        << u"preprocessor_error"_s << uR"(error preprocessor_error.cu:4:2 gcc | #error "SOMETHING must be defined")"_s;
    QTest::newRow("ptxas error")
        << u"too_much_shared"_s
        << uR"(error :0:0 ptxas | Entry function '_Z3bigPf' uses too much shared data (0x13880 bytes, 0xc000 max))"_s;
    QTest::newRow("linker: undefined reference")
        << u"undefined_reference"_s << uR"(error :0:0 ld | undefined reference to `missing_thing' (in function kf_entry)
error :0:0 ld | ld returned 1 exit status)"_s;
    QTest::newRow("nvcc driver error") << u"unsupported_arch"_s
                                       << uR"(error :0:0 nvcc | Unsupported gpu architecture 'sm_99')"_s;
    QTest::newRow("clean build: resource report only") << u"two_kernels"_s << QString();
    QTest::newRow("spills are not diagnostics") << u"spills"_s << QString();
}

void TestDiagnosticParser::diagnostics()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    const QString log = read(name + u".log"_s);
    QHash<QString, QString> sources;
    if (QFile::exists(dataFile(name + u".cu"_s)))
        sources.insert(name + u".cu"_s, read(name + u".cu"_s));
    QCOMPARE(dump(DiagnosticParser::parse(log, sources)), expected);
}

void TestDiagnosticParser::instantiationContextJoinsTheError()
{
    const auto list = DiagnosticParser::parse(read(u"template_instantiation.log"_s));
    QCOMPARE(list.size(), 5);
    QVERIFY2(list.at(1).message.contains(u"detected during instantiation of \"void add(T *, int) [with T=Foo]\" at line 9"),
             qPrintable(list.at(1).message));
    QVERIFY(!list.at(4).message.contains(u"detected during"));
    QCOMPARE(list.at(0).code, u"177-D"_s);
    QCOMPARE(list.at(2).code, u"3328-D"_s);
}

void TestDiagnosticParser::continuationLines()
{
    const auto list = DiagnosticParser::parse(read(u"template_instantiation.log"_s));
    QCOMPARE(list.at(1).message.section(u'\n', 1, 1), u"operand types are: Foo + int"_s);
}

void TestDiagnosticParser::columnsNeedTheSource()
{
    // Without the source the printed excerpt cannot be checked, so no column is claimed.
    const auto list = DiagnosticParser::parse(read(u"member_of_int.log"_s));
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.at(0).line, 5);
    QCOMPARE(list.at(0).column, 0);
}

void TestDiagnosticParser::resources_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    // name regs barriers smem stack spill-stores spill-loads
    QTest::newRow("two kernels, one templated") << u"two_kernels"_s << uR"(void tk<3>(float*) sm_90 r8 b0 s0 st0 ss0 sl0
scale(float const*, float*, int) sm_90 r12 b1 s1024 st0 ss0 sl0)"_s;
    QTest::newRow("launch bounds force spills") << u"spills"_s << uR"(usec(float*) sm_90 r8 b0 s0 st0 ss0 sl0
rec(int*) sm_90 r34 b0 s0 st0 ss0 sl0
heavy(float*, float const*, int) sm_90 r32 b0 s0 st624 ss664 sl748)"_s;
    QTest::newRow("reported even when ptxas fails")
        << u"too_much_shared"_s << uR"(big(float*) sm_90 r10 b1 s80000 st0 ss0 sl0)"_s;
}

void TestDiagnosticParser::resources()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QStringList lines;
    for (const KernelResources &r : PtxasResourceParser::parse(read(name + u".log"_s)))
        lines << u"%1 %2 r%3 b%4 s%5 st%6 ss%7 sl%8"_s.arg(r.name, r.arch)
                     .arg(r.registers)
                     .arg(r.barriers)
                     .arg(r.sharedBytes)
                     .arg(r.stackBytes)
                     .arg(r.spillStoreBytes)
                     .arg(r.spillLoadBytes);
    QCOMPARE(lines.join(u'\n'), expected);
}

void TestDiagnosticParser::deviceFunctionsAreNotKernels()
{
    // deep(int, int) has its own "Function properties" block with a stack frame and spills; it must not
    // be attributed to the kernel compiled before it.
    const auto list = PtxasResourceParser::parse(read(u"spills.log"_s));
    for (const auto &r : list)
        QVERIFY2(!r.mangledName.contains(u"deep"), qPrintable(r.name));
    QCOMPARE(list.at(1).mangledName, u"_Z3recPi"_s);
    QCOMPARE(list.at(1).stackBytes, 0);
}

void TestDiagnosticParser::olderPtxasFormat()
{
    // CUDA 11/12 print constant memory and leave out "used N barriers".
    const QString log = uR"(ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_80'
ptxas info    : Function properties for _Z6kernelPf
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 40 registers, 2048 bytes smem, 360 bytes cmem[0], 8 bytes cmem[2]
)"_s;
    const auto list = PtxasResourceParser::parse(log);
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.at(0).name, u"kernel(float*)"_s);
    QCOMPARE(list.at(0).arch, u"sm_80"_s);
    QCOMPARE(list.at(0).registers, 40);
    QCOMPARE(list.at(0).sharedBytes, 2048);
    QCOMPARE(list.at(0).constantBytes, 368);
    QCOMPARE(list.at(0).stackBytes, 8);
    QVERIFY(list.at(0).spills());
}

void TestDiagnosticParser::demangle()
{
    QCOMPARE(PtxasResourceParser::demangle(u"_Z5scalePKfPfi"_s), u"scale(float const*, float*, int)"_s);
    QCOMPARE(PtxasResourceParser::demangle(u"kf_entry"_s), u"kf_entry"_s);
    QCOMPARE(PtxasResourceParser::demangle(u"_Znot_valid"_s), u"_Znot_valid"_s);
}

void TestDiagnosticParser::jsonRoundTrip()
{
    const auto diags = DiagnosticParser::parse(read(u"template_instantiation.log"_s));
    QCOMPARE(Diagnostic::listFromJson(Diagnostic::listToJson(diags)), diags);
    const auto res = PtxasResourceParser::parse(read(u"spills.log"_s));
    QCOMPARE(KernelResources::listFromJson(KernelResources::listToJson(res)), res);
}

QTEST_GUILESS_MAIN(TestDiagnosticParser)
#include "tst_diagnosticparser.moc"
