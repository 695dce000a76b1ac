#pragma once
// Incremental server-sent-events parser: bytes in any chunking, complete events out. Bytes are kept until a
// line is complete, so a UTF-8 character or a "data:" split across network reads is never cut.
#include <QByteArray>
#include <vector>

namespace kforge {

struct SseEvent {
    QByteArray event; // empty means the default type, "message"
    QByteArray data;  // the data lines joined with '\n'
    QByteArray id;
};

class SseParser
{
public:
    // A line or event larger than this is not a chat stream: the parser stops and reports overflow.
    static constexpr qsizetype kMaxEventBytes = 16 * 1024 * 1024;

    void feed(const char *data, qsizetype size, std::vector<SseEvent> &out);
    // End of the body: an event still being assembled is delivered (servers sometimes omit the last blank line).
    void finish(std::vector<SseEvent> &out);

    qint64 commentCount() const { return m_comments; } // keep-alives such as ": OPENROUTER PROCESSING"
    bool overflowed() const { return m_overflow; }

private:
    void line(const char *begin, qsizetype size, std::vector<SseEvent> &out);
    void dispatch(std::vector<SseEvent> &out);

    QByteArray m_partial;   // an incomplete line carried over to the next feed()
    bool m_skipLf = false;  // the last feed ended in '\r': a '\n' that follows belongs to it
    bool m_started = false; // past a possible byte order mark
    SseEvent m_event;
    bool m_hasData = false;
    qint64 m_comments = 0;
    bool m_overflow = false;
};

} // namespace kforge
