#include "views/diff/diffmodel.h"

#include <QHash>

#include <dtl/dtl.hpp>

#include <algorithm>

namespace kforge {

namespace {

QStringList splitLines(const QString &text)
{
    if (text.isEmpty())
        return {};
    QString normalized = text;
    normalized.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    QStringList lines = normalized.split(u'\n');
    if (normalized.endsWith(u'\n'))
        lines.removeLast(); // a final newline ends the last line, it does not start another
    return lines;
}

enum class Op { Common, Delete, Add };
struct Edit {
    Op op;
    int left;  // 0-based index into the left sequence, -1 for Add
    int right; // 0-based index into the right sequence, -1 for Delete
};

// The shortest edit script between two sequences of ids.
std::vector<Edit> editScript(const std::vector<int> &a, const std::vector<int> &b)
{
    std::vector<Edit> out;
    if (a.empty() && b.empty())
        return out;
    dtl::Diff<int, std::vector<int>> diff(a, b);
    diff.compose();
    for (const auto &[value, info] : diff.getSes().getSequence()) {
        Q_UNUSED(value);
        switch (info.type) {
        case dtl::SES_COMMON: out.push_back({Op::Common, int(info.beforeIdx - 1), int(info.afterIdx - 1)}); break;
        case dtl::SES_DELETE: out.push_back({Op::Delete, int(info.beforeIdx - 1), -1}); break;
        case dtl::SES_ADD: out.push_back({Op::Add, -1, int(info.afterIdx - 1)}); break;
        }
    }
    return out;
}

// Ids shared by equal strings of both sides, so dtl compares integers.
std::pair<std::vector<int>, std::vector<int>> intern(const QStringList &a, const QStringList &b)
{
    QHash<QString, int> ids;
    auto idOf = [&ids](const QString &s) {
        auto it = ids.find(s);
        if (it == ids.end())
            it = ids.insert(s, int(ids.size()));
        return it.value();
    };
    std::vector<int> x;
    std::vector<int> y;
    x.reserve(size_t(a.size()));
    y.reserve(size_t(b.size()));
    for (const QString &s : a)
        x.push_back(idOf(s));
    for (const QString &s : b)
        y.push_back(idOf(s));
    return {x, y};
}

struct Token {
    int start;
    int length;
};

// Identifiers and numbers are words; runs of spaces stay together; every other character stands alone.
std::vector<Token> tokenize(const QString &line)
{
    std::vector<Token> tokens;
    int i = 0;
    const int n = int(line.size());
    while (i < n) {
        const QChar c = line.at(i);
        int j = i + 1;
        if (c.isLetterOrNumber() || c == u'_') {
            while (j < n && (line.at(j).isLetterOrNumber() || line.at(j) == u'_' || line.at(j) == u'.'))
                ++j;
        } else if (c.isSpace()) {
            while (j < n && line.at(j).isSpace())
                ++j;
        }
        tokens.push_back({i, j - i});
        i = j;
    }
    return tokens;
}

void addSpan(QList<DiffSpan> *spans, const Token &t)
{
    if (!spans->isEmpty() && spans->last().start + spans->last().length == t.start)
        spans->last().length += t.length;
    else
        spans->append({t.start, t.length});
}

} // namespace

void DiffModel::lineSpans(const QString &left, const QString &right, QList<DiffSpan> *leftSpans, QList<DiffSpan> *rightSpans)
{
    leftSpans->clear();
    rightSpans->clear();
    const std::vector<Token> a = tokenize(left);
    const std::vector<Token> b = tokenize(right);
    QStringList ta;
    QStringList tb;
    for (const Token &t : a)
        ta << left.mid(t.start, t.length);
    for (const Token &t : b)
        tb << right.mid(t.start, t.length);
    const auto [x, y] = intern(ta, tb);
    // Changed spaces (re-indentation) are not marked: they would hide the edits that matter.
    for (const Edit &e : editScript(x, y)) {
        if (e.op == Op::Delete && !ta[e.left].trimmed().isEmpty())
            addSpan(leftSpans, a[size_t(e.left)]);
        else if (e.op == Op::Add && !tb[e.right].trimmed().isEmpty())
            addSpan(rightSpans, b[size_t(e.right)]);
    }
}

double DiffModel::similarity(const QString &left, const QString &right)
{
    const QString l = left.trimmed();
    const QString r = right.trimmed();
    if (l.isEmpty() && r.isEmpty())
        return 1.0;
    if (l.isEmpty() || r.isEmpty())
        return 0.0;
    QList<DiffSpan> ls;
    QList<DiffSpan> rs;
    lineSpans(l, r, &ls, &rs);
    int changed = 0;
    for (const DiffSpan &s : std::as_const(ls))
        changed += s.length;
    for (const DiffSpan &s : std::as_const(rs))
        changed += s.length;
    return 1.0 - double(changed) / double(l.size() + r.size());
}

std::vector<std::pair<int, int>> DiffModel::similarPairs(const std::vector<int> &deleted, const std::vector<int> &added) const
{
    // Weighted longest common subsequence: the order-preserving pairing with the greatest total similarity,
    // counting only pairs similar enough to be read as one line edited.
    constexpr double threshold = 0.5;
    const size_t n = deleted.size();
    const size_t m = added.size();
    std::vector<double> sim(n * m);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < m; ++j)
            sim[i * m + j] = similarity(m_left[deleted[i]], m_right[added[j]]);
    std::vector<double> best((n + 1) * (m + 1), 0.0);
    auto at = [m](size_t i, size_t j) { return i * (m + 1) + j; };
    for (size_t i = 1; i <= n; ++i) {
        for (size_t j = 1; j <= m; ++j) {
            double v = std::max(best[at(i - 1, j)], best[at(i, j - 1)]);
            const double s = sim[(i - 1) * m + (j - 1)];
            if (s >= threshold)
                v = std::max(v, best[at(i - 1, j - 1)] + s);
            best[at(i, j)] = v;
        }
    }
    std::vector<std::pair<int, int>> pairs;
    size_t i = n;
    size_t j = m;
    while (i > 0 && j > 0) {
        const double s = sim[(i - 1) * m + (j - 1)];
        if (s >= threshold && best[at(i, j)] == best[at(i - 1, j - 1)] + s) {
            pairs.emplace_back(int(i - 1), int(j - 1));
            --i;
            --j;
        } else if (best[at(i, j)] == best[at(i - 1, j)]) {
            --i;
        } else {
            --j;
        }
    }
    std::reverse(pairs.begin(), pairs.end());
    return pairs;
}

void DiffModel::setTexts(const QString &left, const QString &right)
{
    m_left = splitLines(left);
    m_right = splitLines(right);
    m_expanded.clear();
    compute();
    layout();
}

void DiffModel::setContext(int lines)
{
    m_context = std::max(0, lines);
    layout();
}

void DiffModel::setFolding(bool enabled)
{
    m_folding = enabled;
    layout();
}

void DiffModel::expandFold(int foldKey)
{
    m_expanded.insert(foldKey);
    layout();
}

void DiffModel::collapseAll()
{
    m_expanded.clear();
    layout();
}

void DiffModel::compute()
{
    m_full.clear();
    m_added = m_removed = m_changed = m_changeBlocks = 0;
    const auto [x, y] = intern(m_left, m_right);
    const std::vector<Edit> script = editScript(x, y);

    std::vector<int> deleted;
    std::vector<int> added;
    auto pushRemoved = [&](int line) {
        DiffRow row;
        row.kind = DiffRow::Removed;
        row.leftLine = line;
        row.left = m_left[line];
        m_full.push_back(row);
        ++m_removed;
    };
    auto pushAdded = [&](int line) {
        DiffRow row;
        row.kind = DiffRow::Added;
        row.rightLine = line;
        row.right = m_right[line];
        m_full.push_back(row);
        ++m_added;
    };
    auto flush = [&] {
        if (deleted.empty() && added.empty())
            return;
        ++m_changeBlocks;
        // Put side by side only lines that resemble each other, in order; the rest are plain removals and
        // additions. Huge blocks fall back to pairing by position.
        std::vector<std::pair<int, int>> pairs; // indices into deleted/added
        if (deleted.size() * added.size() <= 20000) {
            pairs = similarPairs(deleted, added);
        } else {
            for (size_t i = 0; i < std::min(deleted.size(), added.size()); ++i)
                pairs.emplace_back(int(i), int(i));
        }
        size_t d = 0;
        size_t a = 0;
        for (const auto &[pd, pa] : pairs) {
            for (; d < size_t(pd); ++d)
                pushRemoved(deleted[d]);
            for (; a < size_t(pa); ++a)
                pushAdded(added[a]);
            DiffRow row;
            row.kind = DiffRow::Changed;
            row.leftLine = deleted[d];
            row.rightLine = added[a];
            row.left = m_left[deleted[d]];
            row.right = m_right[added[a]];
            lineSpans(row.left, row.right, &row.leftSpans, &row.rightSpans);
            m_full.push_back(row);
            ++m_changed;
            ++d;
            ++a;
        }
        for (; d < deleted.size(); ++d)
            pushRemoved(deleted[d]);
        for (; a < added.size(); ++a)
            pushAdded(added[a]);
        deleted.clear();
        added.clear();
    };
    for (const Edit &e : script) {
        switch (e.op) {
        case Op::Delete: deleted.push_back(e.left); break;
        case Op::Add: added.push_back(e.right); break;
        case Op::Common: {
            flush();
            DiffRow row;
            row.kind = DiffRow::Same;
            row.leftLine = e.left;
            row.rightLine = e.right;
            row.left = m_left[e.left];
            row.right = m_right[e.right];
            m_full.push_back(row);
            break;
        }
        }
    }
    flush();
}

void DiffModel::layout()
{
    m_rows.clear();
    m_changeStarts.clear();
    const int n = int(m_full.size());
    int i = 0;
    while (i < n) {
        if (m_full[size_t(i)].kind != DiffRow::Same) {
            m_changeStarts.push_back(int(m_rows.size()));
            while (i < n && m_full[size_t(i)].kind != DiffRow::Same)
                m_rows.push_back(m_full[size_t(i++)]);
            continue;
        }
        int end = i;
        while (end < n && m_full[size_t(end)].kind == DiffRow::Same)
            ++end;
        // Keep context next to changes only: none before the first change or after the last.
        const int keepBefore = i == 0 ? 0 : m_context;
        const int keepAfter = end == n ? 0 : m_context;
        const int hidden = (end - i) - keepBefore - keepAfter;
        const int foldKey = m_full[size_t(i + keepBefore)].leftLine;
        // Folding a single line would save nothing; identical sources have nothing to focus on.
        if (!m_folding || hidden < 2 || m_changeBlocks == 0 || m_expanded.contains(foldKey)) {
            for (int k = i; k < end; ++k)
                m_rows.push_back(m_full[size_t(k)]);
        } else {
            for (int k = i; k < i + keepBefore; ++k)
                m_rows.push_back(m_full[size_t(k)]);
            DiffRow fold;
            fold.kind = DiffRow::Fold;
            fold.foldedLines = hidden;
            fold.foldKey = foldKey;
            m_rows.push_back(fold);
            for (int k = end - keepAfter; k < end; ++k)
                m_rows.push_back(m_full[size_t(k)]);
        }
        i = end;
    }
}

int DiffModel::nextChange(int row) const
{
    const auto it = std::upper_bound(m_changeStarts.begin(), m_changeStarts.end(), row);
    return it == m_changeStarts.end() ? -1 : *it;
}

int DiffModel::previousChange(int row) const
{
    auto it = std::lower_bound(m_changeStarts.begin(), m_changeStarts.end(), row);
    if (it == m_changeStarts.begin())
        return -1;
    return *(--it);
}

QString DiffModel::dump() const
{
    QString out;
    auto num = [](int line) { return line < 0 ? QStringLiteral("  .") : QStringLiteral("%1").arg(line + 1, 3); };
    for (const DiffRow &r : m_rows) {
        switch (r.kind) {
        case DiffRow::Same: out += u"= " + num(r.leftLine) + u' ' + num(r.rightLine) + u" | " + r.left; break;
        case DiffRow::Changed:
            out += u"~ " + num(r.leftLine) + u' ' + num(r.rightLine) + u" | " + r.left + u" -> " + r.right;
            break;
        case DiffRow::Removed: out += u"- " + num(r.leftLine) + u' ' + num(-1) + u" | " + r.left; break;
        case DiffRow::Added: out += u"+ " + num(-1) + u' ' + num(r.rightLine) + u" | " + r.right; break;
        case DiffRow::Fold: out += QStringLiteral("@ %1 lines folded").arg(r.foldedLines); break;
        }
        out += u'\n';
    }
    return out;
}

} // namespace kforge
