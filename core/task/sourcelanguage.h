#pragma once
// The language of a variant's source: a KForge .cu (KF_ENTRY) or, on a torch task, a Python module (ModelNew, or
// the reference's Model). It is read off the source itself, so a variant keeps its language wherever its text
// goes (session, diff, export) without a column of its own.
#include <QString>

namespace kforge {

enum class SourceLanguage { Cuda, Python };

// Python when a line (outside any indentation) imports torch or defines class Model / ModelNew; else CUDA.
SourceLanguage sourceLanguage(const QString &source);
// "py" or "cu": the file extension a variant of this language is written with.
QString sourceExtension(SourceLanguage language);
// "python" or "cuda": the info string of a markdown fence.
QString fenceLanguage(SourceLanguage language);

} // namespace kforge
