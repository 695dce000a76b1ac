#include "core/sourcelevel/instructionmix.h"

#include <QCoreApplication>
#include <QHash>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

InstructionMix::Category InstructionMix::classify(const QString &op)
{
    static const QHash<QString, Category> table = [] {
        QHash<QString, Category> t;
        const auto add = [&t](Category c, std::initializer_list<const char16_t *> ops) {
            for (const char16_t *o : ops)
                t.insert(QString::fromUtf16(o), c);
        };
        add(GlobalMemory, {u"LDG", u"STG", u"ATOMG", u"RED", u"REDG", u"LD", u"ST", u"ATOM", u"UTMALDG", u"UTMASTG",
                           u"UBLKCP", u"UTMAPF", u"UTMAREDG", u"CCTL", u"LDGDEPBAR"});
        add(SharedMemory, {u"LDS", u"STS", u"ATOMS", u"LDSM", u"STSM", u"LDGSTS"});
        add(LocalMemory, {u"LDL", u"STL"});
        add(ConstantMemory, {u"LDC", u"ULDC"});
        add(Fp32, {u"FFMA", u"FADD", u"FMUL", u"FMNMX", u"FSETP", u"FSET", u"FSEL", u"MUFU", u"FCHK", u"FSWZADD",
                   u"FFMA32I", u"FADD32I", u"FMUL32I"});
        add(Fp16, {u"HFMA2", u"HADD2", u"HMUL2", u"HSETP2", u"HSET2", u"HMNMX2", u"HFMA2_MMA", u"HADD2_F32"});
        add(Fp64, {u"DFMA", u"DADD", u"DMUL", u"DSETP", u"DMNMX"});
        add(Tensor, {u"HMMA", u"IMMA", u"DMMA", u"BMMA", u"HGMMA", u"IGMMA", u"QGMMA", u"BGMMA", u"WGMMA"});
        add(Integer,
            {u"IMAD",   u"IADD3",  u"IADD",   u"IMUL",  u"LEA",   u"SHF",   u"SHL",    u"SHR",   u"LOP3",   u"LOP",
             u"ISETP",  u"IMNMX",  u"VIMNMX", u"IABS",  u"POPC",  u"FLO",   u"BREV",   u"BMSK",  u"ISCADD", u"IDP",
             u"IDP4A",  u"UIADD3", u"UIMAD",  u"ULOP3", u"USHF",  u"ULEA",  u"UISETP", u"UPOPC", u"UFLO",   u"UBREV",
             u"UIMNMX", u"USGXT",  u"SGXT",   u"UPRMT", u"UBMSK", u"PLOP3", u"UPLOP3"});
        add(Conversion, {u"F2F", u"F2I", u"I2F", u"I2FP", u"F2FP", u"I2I", u"F2IP", u"FRND"});
        add(Warp, {u"SHFL", u"VOTE", u"VOTEU", u"MATCH", u"REDUX", u"WARPSYNC"});
        add(Control, {u"BRA", u"BRX", u"JMP", u"JMX", u"CALL", u"RET", u"EXIT", u"BSSY", u"BSYNC", u"BREAK", u"BPT",
                      u"KILL", u"NOP", u"YIELD", u"NANOSLEEP", u"RPCMOV", u"ACQBULK", u"ELECT", u"ENDCOLLECTIVE"});
        add(Sync, {u"BAR", u"MEMBAR", u"DEPBAR", u"ERRBAR", u"SYNCS", u"ARRIVES", u"FENCE", u"WARPGROUP",
                   u"UCGABAR_ARV", u"UCGABAR_WAIT"});
        add(Move, {u"MOV", u"UMOV", u"S2R", u"S2UR", u"CS2R", u"R2UR", u"SEL", u"USEL", u"PRMT", u"P2R", u"R2P",
                   u"UP2UR", u"UR2UP", u"S2UP", u"B2R", u"R2B", u"SHFL_MOV"});
        return t;
    }();
    return table.value(op, Other);
}

InstructionMix InstructionMix::of(const SassFunction &function)
{
    InstructionMix mix;
    for (const SassInstruction &i : function.instructions) {
        ++mix.counts[classify(i.baseOpcode())];
        ++mix.total;
    }
    return mix;
}

QString InstructionMix::categoryName(Category c)
{
    switch (c) {
    case GlobalMemory: return QCoreApplication::translate("kforge::InstructionMix", "global memory");
    case SharedMemory: return QCoreApplication::translate("kforge::InstructionMix", "shared memory");
    case LocalMemory: return QCoreApplication::translate("kforge::InstructionMix", "local memory");
    case ConstantMemory: return QCoreApplication::translate("kforge::InstructionMix", "constant loads");
    case Fp32: return QCoreApplication::translate("kforge::InstructionMix", "FP32");
    case Fp16: return QCoreApplication::translate("kforge::InstructionMix", "FP16/BF16");
    case Fp64: return QCoreApplication::translate("kforge::InstructionMix", "FP64");
    case Tensor: return QCoreApplication::translate("kforge::InstructionMix", "tensor core");
    case Integer: return QCoreApplication::translate("kforge::InstructionMix", "integer");
    case Conversion: return QCoreApplication::translate("kforge::InstructionMix", "conversion");
    case Warp: return QCoreApplication::translate("kforge::InstructionMix", "warp shuffle/vote");
    case Control: return QCoreApplication::translate("kforge::InstructionMix", "control");
    case Sync: return QCoreApplication::translate("kforge::InstructionMix", "sync");
    case Move: return QCoreApplication::translate("kforge::InstructionMix", "move");
    case Other:
    case CategoryCount: break;
    }
    return QCoreApplication::translate("kforge::InstructionMix", "other");
}

QString InstructionMix::summary() const
{
    QList<Category> order;
    for (int c = 0; c < CategoryCount; ++c) {
        if (counts[c] > 0 && share(Category(c)) >= 0.02)
            order.append(Category(c));
    }
    std::stable_sort(order.begin(), order.end(), [this](Category a, Category b) { return counts[a] > counts[b]; });
    QStringList parts;
    for (Category c : order)
        parts.append(
            QCoreApplication::translate("kforge::InstructionMix", "%1% %2").arg(qRound(100.0 * share(c))).arg(categoryName(c)));
    return QCoreApplication::translate("kforge::InstructionMix", "%n instruction(s): %1", nullptr, total).arg(parts.join(u", "_s));
}

} // namespace kforge
