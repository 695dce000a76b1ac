#include "core/llm/sseparser.h"

#include <cstring>

namespace kforge {

void SseParser::feed(const char *data, qsizetype size, std::vector<SseEvent> &out)
{
    if (m_overflow || size <= 0)
        return;
    const char *p = data;
    const char *end = data + size;
    if (m_skipLf) {
        m_skipLf = false;
        if (*p == '\n')
            ++p;
    }
    if (!m_started) {
        // A UTF-8 byte order mark may start the stream; it can itself be split across feeds.
        static constexpr char bom[] = "\xEF\xBB\xBF";
        while (p < end && m_partial.size() < 3 && *p == bom[m_partial.size()])
            m_partial.append(*p++);
        if (p == end && m_partial.size() < 3)
            return;
        if (m_partial.size() != 3) {
            // Not a BOM after all: those bytes are the start of the first line.
            m_started = true;
        } else {
            m_partial.clear();
            m_started = true;
        }
    }
    while (p < end) {
        const char *eol = p;
        while (eol < end && *eol != '\n' && *eol != '\r')
            ++eol;
        if (eol == end) {
            if (m_partial.size() + (end - p) > kMaxEventBytes) {
                m_overflow = true;
                return;
            }
            m_partial.append(p, end - p);
            return;
        }
        if (m_partial.isEmpty()) {
            line(p, eol - p, out);
        } else {
            m_partial.append(p, eol - p);
            const QByteArray whole = std::exchange(m_partial, {});
            line(whole.constData(), whole.size(), out);
        }
        if (m_overflow)
            return;
        p = eol + 1;
        if (*eol == '\r') {
            if (p < end) {
                if (*p == '\n')
                    ++p;
            } else {
                m_skipLf = true;
            }
        }
    }
}

void SseParser::finish(std::vector<SseEvent> &out)
{
    if (m_overflow)
        return;
    if (!m_partial.isEmpty()) {
        const QByteArray rest = std::exchange(m_partial, {});
        line(rest.constData(), rest.size(), out);
    }
    dispatch(out);
}

void SseParser::line(const char *begin, qsizetype size, std::vector<SseEvent> &out)
{
    if (size == 0) {
        dispatch(out);
        return;
    }
    if (*begin == ':') {
        ++m_comments;
        return;
    }
    const char *colon = static_cast<const char *>(std::memchr(begin, ':', size_t(size)));
    const qsizetype nameLen = colon ? colon - begin : size;
    const char *value = colon ? colon + 1 : begin + size;
    qsizetype valueLen = begin + size - value;
    if (valueLen > 0 && *value == ' ') {
        ++value;
        --valueLen;
    }
    const auto is = [&](const char *name) {
        return qsizetype(std::strlen(name)) == nameLen && std::memcmp(begin, name, size_t(nameLen)) == 0;
    };
    if (is("data")) {
        if (m_event.data.size() + valueLen + 1 > kMaxEventBytes) {
            m_overflow = true;
            return;
        }
        if (m_hasData)
            m_event.data.append('\n');
        m_event.data.append(value, valueLen);
        m_hasData = true;
    } else if (is("event")) {
        m_event.event = QByteArray(value, valueLen);
    } else if (is("id")) {
        m_event.id = QByteArray(value, valueLen);
    }
    // "retry" and unknown fields are ignored, as the specification says.
}

void SseParser::dispatch(std::vector<SseEvent> &out)
{
    if (m_hasData)
        out.push_back(std::move(m_event));
    m_event = SseEvent{};
    m_hasData = false;
}

} // namespace kforge
