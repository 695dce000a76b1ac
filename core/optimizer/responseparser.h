#pragma once
// Splits a model's answer into analysis, design and code, tolerant of how real models write: headings in
// English or Chinese (分析/性能分析, 设计/算法设计, 代码/实现), numbered or not, as markdown headings, bold lines
// or "Label:" lines; <think> blocks; several code fences (the one defining KF_ENTRY, or for a torch task a
// ```python block defining class ModelNew, wins; ambiguity is reported); missing parts; an answer cut off
// inside its code block.
#include "core/optimizer/parsedresponse.h"

#include <QCoreApplication>

namespace kforge {

class ResponseParser
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ResponseParser)

public:
    // `hitTokenLimit`: the endpoint reported the answer as cut at max tokens.
    static ParsedResponse parse(const QString &answer, bool hitTokenLimit = false);

    enum class Part { None, Analysis, Design, Code };
    // Which part a heading's text names, e.g. "2. Algorithm Design:" -> Design, "性能分析" -> Analysis.
    static Part classifyHeading(const QString &title);
};

} // namespace kforge
