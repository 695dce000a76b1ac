#pragma once
// How a kernel's SASS divides into kinds of work: memory by space, arithmetic by type, control, sync.
// Static counts (instructions in the listing, not executed ones): what the assembly panel shows per kernel
// so "the fast one uses LDG.128 and HFMA2" is visible without reading every line.
#include "core/sourcelevel/sasslisting.h"

#include <QString>
#include <array>

namespace kforge {

struct InstructionMix {
    enum Category {
        GlobalMemory,   // LDG/STG/ATOMG/RED, TMA, generic LD/ST
        SharedMemory,   // LDS/STS/ATOMS/LDSM, async copies into shared (LDGSTS)
        LocalMemory,    // LDL/STL: spills and local arrays
        ConstantMemory, // LDC/ULDC
        Fp32,           // FFMA/FADD/FMUL/MUFU...
        Fp16,           // HFMA2/HADD2/HMUL2... (bf16 too)
        Fp64,
        Tensor,     // HMMA/IMMA/HGMMA...
        Integer,    // IMAD/IADD3/LOP3/SHF/ISETP... and uniform-datapath integer ops
        Conversion, // F2F/I2F/F2I/F2FP...
        Warp,       // SHFL/VOTE/MATCH/REDUX
        Control,    // BRA/EXIT/BSSY/BSYNC/CALL/RET...
        Sync,       // BAR/MEMBAR/DEPBAR/SYNCS...
        Move,       // MOV/S2R/CS2R/SEL/PRMT/P2R...
        Other,
        CategoryCount
    };
    std::array<int, CategoryCount> counts{};
    int total = 0;

    static Category classify(const QString &baseOpcode);
    static InstructionMix of(const SassFunction &function);
    static QString categoryName(Category c); // translated, short: "global memory"
    // "312 instructions: 18% global memory, 40% FP32, ..." (the largest categories first, under 2% left out).
    QString summary() const;
    int count(Category c) const { return counts[c]; }
    double share(Category c) const { return total > 0 ? double(counts[c]) / total : 0.0; }
};

} // namespace kforge
