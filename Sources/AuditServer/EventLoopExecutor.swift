import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// Makes NIO's event loops Swift Concurrency's global executor for this process, so a request's
/// handler runs on the thread that reads and writes its connection instead of hopping to the
/// concurrency pool and back. Call it once, first thing in `itemaudit serve`.
///
/// Not with the PostgreSQL log: its client waits on futures of these same event loops, which an
/// event loop must not do. Blocking work (photos, bcrypt, reports) already goes to
/// `NIOThreadPool`, never to the event loops.
/// - Returns: whether the event loops took over (false when something else already had).
@discardableResult
public func runTasksOnEventLoops() -> Bool {
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}

/// Runs a task's jobs on one NIO event loop. A connection's task that prefers its channel's event
/// loop is resumed there after every wait, even when a thread outside the event loops (the log's
/// writer, the photo writer) wakes it; NIO's global executor would pick either loop, and writes
/// from the other one go to the channel's loop as a cross-thread job. The server's connections
/// and `bench serve`'s simulated devices both use it.
package final class EventLoopTaskExecutor: TaskExecutor {
    package let eventLoop: any EventLoop

    package init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A server's connections, each handled by a task that prefers its channel's event loop when
/// `pinned` (see ``ServerConfiguration/handlesOnEventLoops``).
struct EventLoopPinnedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let pinned: Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        guard pinned else { return await base.handle(value: value, logger: logger) }
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}
