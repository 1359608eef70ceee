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
