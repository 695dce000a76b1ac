#include "core/task/sourcelanguage.h"

#include <QRegularExpression>

namespace kforge {

SourceLanguage sourceLanguage(const QString &source)
{
    // At the start of a line: a .cu quoting Python in a comment does not match, a load_inline ModelNew (CUDA in a
    // Python string) does.
    static const QRegularExpression python(
        QStringLiteral("^(import\\s+torch\\b|from\\s+torch\\b|class\\s+ModelNew\\b|class\\s+Model\\s*\\()"),
        QRegularExpression::MultilineOption);
    return python.match(source).hasMatch() ? SourceLanguage::Python : SourceLanguage::Cuda;
}

QString sourceExtension(SourceLanguage language)
{
    return language == SourceLanguage::Python ? QStringLiteral("py") : QStringLiteral("cu");
}

QString fenceLanguage(SourceLanguage language)
{
    return language == SourceLanguage::Python ? QStringLiteral("python") : QStringLiteral("cuda");
}

} // namespace kforge
