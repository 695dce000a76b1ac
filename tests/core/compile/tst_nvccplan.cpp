// NvccPlan on recorded `nvcc --dryrun --keep --keep-dir .nvcc-steps` output of nvcc 13.0 (data/dryrun_*.txt):
// which steps overlap, what cudafe++ is told, and which plans it refuses so that plain nvcc runs instead.
#include "core/compile/hostpch.h"
#include "core/compile/nvccplan.h"

#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

QString dryrun(const QString &name)
{
    QFile f(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/core/compile/data/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return QString::fromUtf8(f.readAll());
}

QString track(NvccPlan::Track t)
{
    switch (t) {
    case NvccPlan::Track::Host: return u"host"_s;
    case NvccPlan::Track::Device: return u"device"_s;
    case NvccPlan::Track::Tail: return u"tail"_s;
    }
    return {};
}

// "track: name" per step, one a line.
QString dump(const NvccPlan &plan)
{
    QStringList lines;
    for (const NvccPlan::Step &s : plan.steps)
        lines << track(s.track) + u": "_s + s.name;
    return lines.join(u'\n');
}

} // namespace

class TestNvccPlan : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sharedObjectSteps()
    {
        QString why;
        const auto plan = NvccPlan::fromDryrun(dryrun(u"dryrun_shared.txt"_s), &why);
        QVERIFY2(plan, qPrintable(why));
        QCOMPARE(dump(*plan), u"host: rm\n"
                              "host: gcc (preprocessing)\n"
                              "host: cudafe++\n"
                              "device: gcc (preprocessing)\n"
                              "device: cicc\n"
                              "device: ptxas\n"
                              "device: fatbinary\n"
                              "tail: gcc (compiling)\n"
                              "tail: nvlink\n"
                              "tail: fatbinary\n"
                              "tail: gcc (compiling)\n"
                              "tail: g++ (linking)"_s);
        QCOMPARE(plan->steps.at(0).remove, QStringList{u".nvcc-steps/kernel_dlink.reg.c"_s});
        QCOMPARE(plan->moduleIdFile, u".nvcc-steps/candidate.module_id"_s);
        // cudafe++ reads the id that is written first, as cicc does; it no longer makes one.
        const QString &fe = plan->steps.at(2).command;
        QVERIFY(!fe.contains(u"--gen_module_id_file"_s));
        QVERIFY(fe.contains(u"--module_id_file_name \".nvcc-steps/candidate.module_id\""_s));
        QVERIFY(plan->steps.at(4).command.contains(u"--module_id_file_name \".nvcc-steps/candidate.module_id\""_s));
        QVERIFY(plan->steps.at(4).command.startsWith(u"\"$CICC_PATH/cicc\""_s));
        // The variables the commands rely on, unquoted.
        bool cicc = false;
        for (const auto &[name, value] : plan->environment)
            if (name == u"CICC_PATH")
                cicc = value == u"/usr/local/cuda/bin/../nvvm/bin";
        QVERIFY(cicc);
        QVERIFY(plan->steps.last().command.contains(u"-lcublas"_s));
        QVERIFY(plan->messages.isEmpty());
        // The host compile (HostPch's step): cudafe++'s output compiled to an object, not the link stub's.
        QCOMPARE(plan->hostCompile, 7);
        QCOMPARE(plan->hostSource, u".nvcc-steps/candidate.cudafe1.cpp"_s);
        QCOMPARE(plan->sourceName, u"candidate.cu"_s);
    }

    void deviceLinkDroppedWithoutRelocatableCode()
    {
        auto plan = NvccPlan::fromDryrun(dryrun(u"dryrun_shared.txt"_s));
        QVERIFY(plan);
        const QString link = plan->steps.last().command;
        QString why;
        QVERIFY2(plan->dropDeviceLink(&why), qPrintable(why));
        QCOMPARE(dump(*plan), u"host: rm\n"
                              "host: gcc (preprocessing)\n"
                              "host: cudafe++\n"
                              "device: gcc (preprocessing)\n"
                              "device: cicc\n"
                              "device: ptxas\n"
                              "device: fatbinary\n"
                              "tail: gcc (compiling)\n"
                              "tail: g++ (linking)"_s);
        QCOMPARE(plan->hostCompile, 7);
        QStringList before, after;
        QVERIFY(NvccPlan::shellWords(link, &before));
        QVERIFY(NvccPlan::shellWords(plan->steps.last().command, &after));
        before.removeOne(u".nvcc-steps/kernel_dlink.o"_s);
        QCOMPARE(after, before); // the same link, less the device link's object
        QVERIFY(after.contains(u".nvcc-steps/candidate.o"_s));

        QVERIFY(plan->useLinker(u"gold"_s));
        QVERIFY(plan->steps.last().command.startsWith(u"'g++' '-fuse-ld=gold' "_s));
        QStringList fallback;
        QVERIFY(NvccPlan::shellWords(plan->steps.last().fallback, &fallback));
        QCOMPARE(fallback, after); // where gold fails, the link as before
        QVERIFY(!plan->useLinker(u"gold"_s)); // once
    }

    void deviceLinkDroppedForEveryArchitecture()
    {
        // -arch=sm_90 -gencode arch=compute_80,code=sm_80: one nvlink per architecture, all of them dropped
        auto plan = NvccPlan::fromDryrun(dryrun(u"dryrun_two_archs.txt"_s));
        QVERIFY(plan);
        QCOMPARE(dump(*plan).count(u"nvlink"_s), 2);
        QString why;
        QVERIFY2(plan->dropDeviceLink(&why), qPrintable(why));
        QVERIFY2(!dump(*plan).contains(u"nvlink"_s), qPrintable(dump(*plan)));
        QVERIFY(!plan->steps.last().command.contains(u"kernel_dlink.o"_s));
        QCOMPARE(plan->steps.at(plan->hostCompile).name, u"gcc (compiling)"_s);
    }

    void deviceLinkKeptForRelocatableCode()
    {
        QString text = dryrun(u"dryrun_shared.txt"_s);
        text.replace(u"\"$CICC_PATH/cicc\" "_s, u"\"$CICC_PATH/cicc\" --device-c "_s);
        auto plan = NvccPlan::fromDryrun(text);
        QVERIFY(plan);
        const QString before = dump(*plan);
        QString why;
        QVERIFY(!plan->dropDeviceLink(&why));
        QVERIFY2(why.contains(u"relocatable"_s), qPrintable(why));
        QCOMPARE(dump(*plan), before);
        // nvlink reading another object (a library's relocatable code): kept too
        text = dryrun(u"dryrun_shared.txt"_s);
        text.replace(u"-cpu-arch=X86_64 "_s, u"-cpu-arch=X86_64 \"/opt/lib/other.o\" "_s);
        plan = NvccPlan::fromDryrun(text);
        QVERIFY(plan);
        QVERIFY(!plan->dropDeviceLink(&why));
        QVERIFY2(why.contains(u"more than the host object"_s), qPrintable(why));
    }

    void shellWordsRoundTrip_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("plain") << u"gcc -c a.cpp"_s << QStringList{u"gcc"_s, u"-c"_s, u"a.cpp"_s};
        QTest::newRow("quoted") << u"gcc -DX=\"\\\"a b\\\"\" 'it''s' \"-I/x y\""_s
                                << QStringList{u"gcc"_s, u"-DX=\"a b\""_s, u"its"_s, u"-I/x y"_s};
        QTest::newRow("single quote inside") << u"echo \"it's\""_s << QStringList{u"echo"_s, u"it's"_s};
    }

    void shellWordsRoundTrip()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, words);
        QStringList split;
        QVERIFY(NvccPlan::shellWords(command, &split));
        QCOMPARE(split, words);
        QStringList again;
        QVERIFY(NvccPlan::shellWords(NvccPlan::shellCommand(split), &again));
        QCOMPARE(again, words);
    }

    void hostPchPrefixEndsAtTheSourcesFirstLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("end"); // -1: none
        const QByteArray head = "# 1 \"candidate.cu\"\n#pragma GCC diagnostic push\n# 1\nstatic int a;\n# 72\nint b;\n";
        QTest::newRow("headers then source") << head + "# 5 \"candidate.cu\"\nint c;\n" << int(head.size());
        QTest::newRow("another file's marker is not the end")
            << head + "# 5 \"candidate.cuh\"\nint d;\n# 9 \"candidate.cu\" 2\nint c;\n"
            << int(head.size() + QByteArray("# 5 \"candidate.cuh\"\nint d;\n").size());
        QTest::newRow("no return to the source") << head << -1;
        QTest::newRow("first line is not the source") << QByteArray("# 1 \"other.cu\"\nint a;\n# 2 \"candidate.cu\"\n") << -1;
        QTest::newRow("no newline") << QByteArray("# 1 \"candidate.cu\"") << -1;
    }

    void hostPchPrefixEndsAtTheSourcesFirstLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, end);
        const auto found = HostPch::prefixEnd(text, "candidate.cu");
        QCOMPARE(found ? int(*found) : -1, end);
    }

    void hostPchHeaderCommandKeepsEveryFlag()
    {
        const QStringList compile{u"gcc"_s, u"-D__CUDA_ARCH__=900"_s, u"-c"_s, u"-x"_s, u"c++"_s, u"-fPIC"_s, u"-O3"_s,
                                  u"-I/inc"_s, u"-m64"_s, u".nvcc-steps/c.cudafe1.cpp"_s, u"-o"_s, u".nvcc-steps/c.o"_s};
        QCOMPARE(HostPch::headerCommand(compile, u".nvcc-steps/c.cudafe1.cpp"_s, u"/p/prefix.h"_s, u"/p/x.gch"_s),
                 (QStringList{u"gcc"_s, u"-D__CUDA_ARCH__=900"_s, u"-x"_s, u"c++-header"_s, u"-fPIC"_s, u"-O3"_s,
                              u"-I/inc"_s, u"-m64"_s, u"/p/prefix.h"_s, u"-o"_s, u"/p/x.gch"_s}));
        // Shapes it does not know give no command: no header is built.
        QStringList twoInputs = compile;
        twoInputs << u".nvcc-steps/c.cudafe1.cpp"_s;
        QVERIFY(HostPch::headerCommand(twoInputs, u".nvcc-steps/c.cudafe1.cpp"_s, u"h"_s, u"o"_s).isEmpty());
        QStringList otherLanguage = compile;
        otherLanguage[4] = u"c"_s;
        QVERIFY(HostPch::headerCommand(otherLanguage, u".nvcc-steps/c.cudafe1.cpp"_s, u"h"_s, u"o"_s).isEmpty());
        QStringList noOutput = compile.mid(0, compile.size() - 2);
        QVERIFY(HostPch::headerCommand(noOutput, u".nvcc-steps/c.cudafe1.cpp"_s, u"h"_s, u"o"_s).isEmpty());
    }

    void nvccWarningsAreKept()
    {
        const auto plan = NvccPlan::fromDryrun(dryrun(u"dryrun_shared_debug.txt"_s));
        QVERIFY(plan);
        QCOMPARE(plan->messages, u"nvcc warning : '--device-debug (-G)' overrides '--generate-line-info (-lineinfo)'\n"_s);
    }

    void refusesPlansItDoesNotKnow_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("reason");
        // With --threads nvcc redirects tool output to files it prints later: run nvcc itself.
        QTest::newRow("threads") << u"dryrun_threads.txt"_s << u"shell syntax"_s;
        QTest::newRow("ptx only") << u"dryrun_ptx.txt"_s << u"no cudafe++"_s;
        QTest::newRow("empty") << QString() << u"no cudafe++"_s;
    }

    void refusesPlansItDoesNotKnow()
    {
        QFETCH(QString, file);
        QFETCH(QString, reason);
        QString why;
        QVERIFY(!NvccPlan::fromDryrun(file.isEmpty() ? QString() : dryrun(file), &why));
        QVERIFY2(why.contains(reason), qPrintable(why));
    }

    void refusesDeviceStepsThatNeedTheHostOutput()
    {
        QString text = dryrun(u"dryrun_shared.txt"_s);
        text.replace(u"\"$CICC_PATH/cicc\" "_s, u"\"$CICC_PATH/cicc\" -include \".nvcc-steps/candidate.cudafe1.cpp\" "_s);
        QString why;
        QVERIFY(!NvccPlan::fromDryrun(text, &why));
        QVERIFY2(why.contains(u"reads what cudafe++ writes"_s), qPrintable(why));
    }

    void stepNames_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("name");
        QTest::newRow("cicc") << u"\"$CICC_PATH/cicc\" --c++17 x.ii"_s << u"cicc"_s;
        QTest::newRow("ptxas") << u"ptxas -arch=sm_90 -v \"a.ptx\""_s << u"ptxas"_s;
        QTest::newRow("preprocess") << u"gcc -D__X__ -E -x c++ a.cu -o \"a.ii\""_s << u"gcc (preprocessing)"_s;
        QTest::newRow("compile") << u"/opt/gcc/bin/g++-12 -c -x c++ a.cpp"_s << u"g++-12 (compiling)"_s;
        QTest::newRow("link") << u"g++ -shared a.o -o kernel.so"_s << u"g++ (linking)"_s;
    }

    void stepNames()
    {
        QFETCH(QString, command);
        QFETCH(QString, name);
        QCOMPARE(NvccPlan::stepName(command), name);
    }

    void moduleIdHasNvccsForm()
    {
        // nvcc 13.0 named a-b+c.cu "_79e8b2c7_8_a_b_c_cu_a1838a55": 8 hex, name length, name, 8 hex.
        QCOMPARE(NvccPlan::moduleIdText(u"a-b+c.cu"_s, u"79e8b2c7a1838a55ffff"_s), u"_79e8b2c7_8_a_b_c_cu_a1838a55"_s);
        QCOMPARE(NvccPlan::moduleIdText(u"online_warp.cu"_s, u"0123456789abcdef"_s),
                 u"_01234567_14_online_warp_cu_89abcdef"_s);
    }
};

QTEST_GUILESS_MAIN(TestNvccPlan)
#include "tst_nvccplan.moc"
