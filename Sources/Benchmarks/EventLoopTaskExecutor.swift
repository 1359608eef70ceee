import NIOCore

/// Runs a task's jobs on one NIO event loop: a simulated device whose task prefers the event loop
/// of its own connection sends and is resumed on that one thread, instead of hopping to the
/// concurrency pool and back twice a request (the client shares the machine's two cores with the
/// server it measures, so every hop it saves is left to the server).
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
