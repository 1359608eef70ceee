import Dispatch
import Foundation

/// At most `slots` photo resizes at once, and at most `waiting` more waiting for a slot; any more
/// is refused at once (``PhotoResizeError/busy``), so a burst of requests for large photos cannot
/// take every core and all memory.
public final class ResizePool: @unchecked Sendable {
    private struct Slots {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    public let slots: Int
    public let waiting: Int
    // Guarded by `lock`.
    private var state = Slots()
    private let lock = NSLock()

    public init(slots: Int, waiting: Int) {
        self.slots = max(1, slots)
        self.waiting = max(0, waiting)
    }

    /// The pool every photo answer resizes on: libvips is one per process.
    public static let shared = ResizePool(slots: 2, waiting: 16)

    /// Runs `work` off the caller's thread once a slot is free.
    public func run<T: Sendable>(
        _ work: @escaping @Sendable () throws(PhotoResizeError) -> T
    ) async throws(PhotoResizeError) -> T {
        try await acquire()
        defer { release() }
        let result: Result<T, PhotoResizeError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(PhotoResizeError) { continuation.resume(returning: .success(try work())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    private func acquire() async throws(PhotoResizeError) {
        enum Decision { case run, wait, refuse }
        let decision: Decision = withState { state in
            if state.running < slots {
                state.running += 1
                return .run
            }
            return state.waiters.count < waiting ? .wait : .refuse
        }
        switch decision {
        case .run: return
        case .refuse: throw .busy
        case .wait:
            // The slot is handed over by `release`, which counts it as still running.
            await withCheckedContinuation { continuation in
                let admitted = withState { state in
                    if state.running < slots {
                        state.running += 1
                        return true
                    }
                    state.waiters.append(continuation)
                    return false
                }
                if admitted { continuation.resume() }
            }
        }
    }

    private func withState<T>(_ body: (inout Slots) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = withState { state in
            if state.waiters.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
