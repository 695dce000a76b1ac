#pragma once
// Late answers to asynchronous requests (a task folder loading, a session history read, an export plan, a key
// lookup, an nvcc probe): only the answer to the owner's latest request is delivered, and none once the owner (or
// the guard, its member) is gone or has dropped what was in flight. The one idiom for it in KForge:
//
//     m_reads.deliver(this, QtConcurrent::run(read, path), [this](const History &h) { show(h); });
//     m_credentials->lookup(endpoint, this, m_keyLookups.bind([this](const ApiKeyLookup &key) { use(key); }));
//     m_reads.drop(); // the session closed: what is still being read is for nobody
//
// Why a watcher and not QFuture::then(context, ...): on Qt 6.4, our minimum, the continuation that then(context, f)
// installs starts with Q_ASSERT(context) and runs on the thread that finishes the work (Qt 6.4.2's qfuture_impl.h,
// Continuation::create with a context), so an owner destroyed while its work runs aborts every build with asserts on
// (the dev and asan presets); newer qtbase cancels the continuation instead (QtPrivate::watchContinuation). A
// QFutureWatcher parented to the owner dies with it on every Qt 6, and its finished() always arrives through the
// event loop, never inside the call that attached it. So every future reaches its owner through whenFinished()
// or LateResultGuard::deliver(), never through .then(context, ...).
#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <type_traits>
#include <utility>

namespace kforge {

// Calls `done(result)` (`done()` for a QFuture<void>) in `owner`'s thread once `future` has finished, from the event
// loop; never when `owner` was destroyed first or the future was cancelled without a result.
template <typename T, typename Done>
void whenFinished(QObject *owner, const QFuture<T> &future, Done &&done)
{
    auto *watcher = new QFutureWatcher<T>(owner);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner, [watcher, done = std::forward<Done>(done)]() mutable {
        watcher->deleteLater();
        if constexpr (std::is_void_v<T>) {
            done();
        } else {
            if (watcher->future().resultCount() == 0)
                return; // cancelled: nothing to deliver
            done(watcher->result());
        }
    });
    watcher->setFuture(future);
}

// The latest of an owner's requests of one kind. Not copyable: a copy would share the tickets.
class LateResultGuard
{
public:
    LateResultGuard() = default;
    LateResultGuard(const LateResultGuard &) = delete;
    LateResultGuard &operator=(const LateResultGuard &) = delete;

    // Starts a request and wraps what takes its answer: the callable returned calls `deliver` with whatever it is
    // given while this request is still the latest and the guard exists, and does nothing otherwise. Every request
    // started before is stale from now on.
    template <typename Deliver>
    auto bind(Deliver &&deliver)
    {
        const quint64 ticket = ++*m_latest;
        return [latest = std::weak_ptr<quint64>(m_latest), ticket,
                deliver = std::forward<Deliver>(deliver)](auto &&...answer) mutable {
            if (const std::shared_ptr<quint64> now = latest.lock(); now && *now == ticket)
                deliver(std::forward<decltype(answer)>(answer)...);
        };
    }

    // A request whose answer is `future`'s result: `deliver(result)` runs in `owner`'s thread from the event loop, if
    // it is still the latest request and `owner` still exists (whenFinished()).
    template <typename T, typename Deliver>
    void deliver(QObject *owner, const QFuture<T> &future, Deliver &&deliver)
    {
        whenFinished(owner, future, bind(std::forward<Deliver>(deliver)));
    }

    // Drops the answers of every request started so far (what they were for is gone: the session closed, another
    // one was opened).
    void drop() { ++*m_latest; }

private:
    std::shared_ptr<quint64> m_latest = std::make_shared<quint64>(0);
};

} // namespace kforge
