#include "core/optimizer/prompttemplate.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <memory>
#include <vector>

namespace kforge {

namespace {

struct Node {
    enum Kind { Text, Variable, Section, Inverted } kind = Text;
    QString text; // Text: the text; otherwise the key
    int line = 0;
    std::vector<Node> children;
};

bool isBlank(QStringView s)
{
    for (QChar c : s)
        if (c != QLatin1Char(' ') && c != QLatin1Char('\t') && c != QLatin1Char('\r'))
            return false;
    return true;
}

class Parser
{
public:
    explicit Parser(const QString &text)
        : m_text(text)
    {
    }

    bool parse(std::vector<Node> *out, QString *error)
    {
        struct Open {
            std::vector<Node> *nodes;
            QString key;
            int line;
        };
        std::vector<Open> stack{{out, {}, 0}};
        qsizetype pos = 0;
        while (pos < m_text.size()) {
            const qsizetype open = m_text.indexOf(QLatin1String("{{"), pos);
            if (open < 0) {
                appendText(*stack.back().nodes, pos, m_text.size());
                break;
            }
            const qsizetype close = m_text.indexOf(QLatin1String("}}"), open + 2);
            const int line = lineOf(open);
            if (close < 0) {
                *error = PromptTemplate::tr("line %1: \"{{\" without \"}}\"").arg(line);
                return false;
            }
            const QString tag = m_text.mid(open + 2, close - open - 2).trimmed();
            qsizetype textEnd = open;
            qsizetype next = close + 2;
            const QChar sigil = tag.isEmpty() ? QChar() : tag.front();
            const bool structural = sigil == QLatin1Char('#') || sigil == QLatin1Char('^') || sigil == QLatin1Char('/')
                                    || sigil == QLatin1Char('!');
            if (structural) {
                // A tag alone on its line: drop the line's indentation and its newline.
                // (lastIndexOf with from == -1 would search from the end: a tag at offset 0 starts its line.)
                const qsizetype lineStart = open == 0 ? 0 : m_text.lastIndexOf(QLatin1Char('\n'), open - 1) + 1;
                qsizetype lineEnd = m_text.indexOf(QLatin1Char('\n'), next);
                if (lineEnd < 0)
                    lineEnd = m_text.size();
                if (isBlank(QStringView(m_text).mid(lineStart, open - lineStart))
                    && isBlank(QStringView(m_text).mid(next, lineEnd - next))) {
                    textEnd = lineStart;
                    next = lineEnd < m_text.size() ? lineEnd + 1 : lineEnd;
                }
            }
            appendText(*stack.back().nodes, pos, textEnd);
            pos = next;
            const QString key = structural ? tag.mid(1).trimmed() : tag;
            if (sigil == QLatin1Char('!'))
                continue;
            if (key.isEmpty()) {
                *error = PromptTemplate::tr("line %1: empty tag").arg(line);
                return false;
            }
            if (sigil == QLatin1Char('#') || sigil == QLatin1Char('^')) {
                auto &nodes = *stack.back().nodes;
                nodes.push_back(Node{sigil == QLatin1Char('#') ? Node::Section : Node::Inverted, key, line, {}});
                stack.push_back({&nodes.back().children, key, line});
            } else if (sigil == QLatin1Char('/')) {
                if (stack.size() == 1 || stack.back().key != key) {
                    *error = stack.size() == 1
                                 ? PromptTemplate::tr("line %1: {{/%2}} closes no section").arg(line).arg(key)
                                 : PromptTemplate::tr("line %1: {{/%2}} closes {{#%3}} of line %4")
                                       .arg(line)
                                       .arg(key, stack.back().key)
                                       .arg(stack.back().line);
                    return false;
                }
                stack.pop_back();
            } else {
                stack.back().nodes->push_back(Node{Node::Variable, key, line, {}});
            }
        }
        if (stack.size() > 1) {
            *error = PromptTemplate::tr("line %1: {{#%2}} is never closed").arg(stack.back().line).arg(stack.back().key);
            return false;
        }
        return true;
    }

private:
    void appendText(std::vector<Node> &nodes, qsizetype from, qsizetype to)
    {
        if (to > from)
            nodes.push_back(Node{Node::Text, m_text.mid(from, to - from), 0, {}});
    }
    int lineOf(qsizetype pos) const { return int(QStringView(m_text).left(pos).count(QLatin1Char('\n'))) + 1; }

    const QString &m_text;
};

class Renderer
{
public:
    bool render(const std::vector<Node> &nodes, std::vector<QVariant> &stack, QString &out, QString *error)
    {
        for (const Node &n : nodes) {
            switch (n.kind) {
            case Node::Text: out += n.text; break;
            case Node::Variable: {
                const QVariant v = lookup(stack, n.text);
                if (!v.isValid()) {
                    *error = PromptTemplate::tr("line %1: no value for {{%2}}").arg(n.line).arg(n.text);
                    return false;
                }
                out += toText(v);
                break;
            }
            case Node::Section:
            case Node::Inverted: {
                const QVariant v = lookup(stack, n.text);
                const bool truthy = isTruthy(v);
                if (n.kind == Node::Inverted) {
                    if (!truthy && !render(n.children, stack, out, error))
                        return false;
                    break;
                }
                if (!truthy)
                    break;
                const bool list = v.typeId() == QMetaType::QVariantList || v.typeId() == QMetaType::QStringList;
                const QVariantList items = list ? v.toList() : QVariantList{v};
                for (const QVariant &item : items) {
                    stack.push_back(item);
                    const bool ok = render(n.children, stack, out, error);
                    stack.pop_back();
                    if (!ok)
                        return false;
                }
                break;
            }
            }
        }
        return true;
    }

private:
    static QVariant member(const QVariant &scope, const QString &key)
    {
        if (scope.typeId() == QMetaType::QVariantMap) {
            const QVariantMap m = scope.toMap();
            const auto it = m.constFind(key);
            return it == m.cend() ? QVariant() : *it;
        }
        if (scope.typeId() == QMetaType::QVariantHash) {
            const QVariantHash h = scope.toHash();
            const auto it = h.constFind(key);
            return it == h.cend() ? QVariant() : *it;
        }
        return {};
    }

    static QVariant lookup(const std::vector<QVariant> &stack, const QString &key)
    {
        if (key == QLatin1String("."))
            return stack.back();
        const QStringList parts = key.split(QLatin1Char('.'));
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            QVariant v = member(*it, parts.first());
            if (!v.isValid())
                continue;
            for (qsizetype i = 1; i < parts.size() && v.isValid(); ++i)
                v = member(v, parts[i]);
            return v;
        }
        return {};
    }

    static bool isTruthy(const QVariant &v)
    {
        if (!v.isValid() || v.isNull())
            return false;
        switch (v.typeId()) {
        case QMetaType::Bool: return v.toBool();
        case QMetaType::QString: return !v.toString().isEmpty();
        case QMetaType::QVariantList: return !v.toList().isEmpty();
        case QMetaType::QStringList: return !v.toStringList().isEmpty();
        default: return true;
        }
    }

    static QString toText(const QVariant &v)
    {
        if (v.typeId() == QMetaType::QStringList)
            return v.toStringList().join(QLatin1String(", "));
        if (v.typeId() == QMetaType::Double)
            return QString::number(v.toDouble(), 'g', 6);
        return v.toString();
    }
};

QString readFile(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = PromptTemplate::tr("cannot read %1: %2").arg(path, f.errorString());
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

} // namespace

QString PromptTemplate::overrideFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QLatin1String("/prompts");
}

QString PromptTemplate::loadBuiltIn(const QString &name, QString *error)
{
    const QString path = QLatin1String(":/kforge/prompts/") + name + QLatin1String(".md");
    if (!QFile::exists(path)) {
        if (error)
            *error = tr("there is no prompt template named \"%1\"").arg(name);
        return {};
    }
    return readFile(path, error);
}

QString PromptTemplate::load(const QString &name, QString *error, QString *origin)
{
    for (const QString &dir : QStandardPaths::standardLocations(QStandardPaths::AppDataLocation)) {
        const QString path = dir + QLatin1String("/prompts/") + name + QLatin1String(".md");
        if (QFile::exists(path)) {
            if (origin)
                *origin = path;
            return readFile(path, error);
        }
    }
    if (origin)
        *origin = QLatin1String(":/kforge/prompts/") + name + QLatin1String(".md");
    return loadBuiltIn(name, error);
}

QString PromptTemplate::render(const QString &text, const QVariantMap &context, QString *error)
{
    std::vector<Node> nodes;
    QString message;
    if (!Parser(text).parse(&nodes, &message)) {
        if (error)
            *error = message;
        return {};
    }
    std::vector<QVariant> stack{QVariant(context)};
    QString out;
    out.reserve(text.size() * 2);
    if (!Renderer().render(nodes, stack, out, &message)) {
        if (error)
            *error = message;
        return {};
    }
    return out;
}

} // namespace kforge
