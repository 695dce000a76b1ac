// NvccPlan on recorded `nvcc --dryrun --keep --keep-dir .nvcc-steps` output of nvcc 13.0 (data/dryrun_*.txt):
// which steps overlap, what cudafe++ is told, and which plans it refuses so that plain nvcc runs instead.
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
