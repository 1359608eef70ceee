#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Idle machines of one engine, so a check reuses buffers instead of allocating them per sheet.
///
/// `@unchecked Sendable`: `idle` is read and written only while `mutex` is held, and a machine is
/// handed to one caller at a time (taken out of `idle` until it is put back).
final class MachinePool: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var idle: [Machine] = []
    /// At most this many idle machines are kept (one per thread checking at the same time).
    private let limit = 16

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// An idle machine, or nil when none is left.
    func take() -> Machine? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return idle.popLast()
    }

    /// Returns a machine for the next check.
    func put(_ machine: Machine) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if idle.count < limit { idle.append(machine) }
    }
}
