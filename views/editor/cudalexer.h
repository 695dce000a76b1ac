#pragma once
// The C++ lexer taught CUDA: qualifiers, built-in variables and intrinsics (KeywordSet2 style) and CUDA and
// KForge ABI types (GlobalClass style), so a kernel reads like a kernel.
#include <Qsci/qscilexercpp.h>

namespace kforge {

class CudaLexer : public QsciLexerCPP
{
    Q_OBJECT
public:
    explicit CudaLexer(QObject *parent = nullptr);

    const char *language() const override;
    // 1: C++ keywords; 2: CUDA qualifiers, built-ins and intrinsics; 3: doc keywords; 4: CUDA and ABI types.
    const char *keywords(int set) const override;
    QString description(int style) const override;

    // The style a CUDA keyword (set 2) and a CUDA type (set 4) get.
    static constexpr int cudaKeywordStyle = KeywordSet2;
    static constexpr int cudaTypeStyle = GlobalClass;
};

} // namespace kforge
