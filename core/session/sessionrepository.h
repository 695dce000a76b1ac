#pragma once
// What every repository of a SessionStore is: a view of one kind of row over the store's connection, made by the
// store and living as long as it; never copied.
namespace kforge {

class SessionStore;

class SessionRepository
{
public:
    explicit SessionRepository(SessionStore &store)
        : m_store(store)
    {
    }
    SessionRepository(const SessionRepository &) = delete;
    SessionRepository &operator=(const SessionRepository &) = delete;

protected:
    ~SessionRepository() = default;

    SessionStore &m_store;
};

} // namespace kforge
