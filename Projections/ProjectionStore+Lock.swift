import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock (`flock`) on `<database>.lock`: one catch-up at a time per file,
/// across processes, so no two runners fold the same events.
final class StoreLock {
    private let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    func unlock() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

extension ProjectionStore {
    /// Waits for and takes the store's write lock; nil for an in-memory store.
    func lockForWriting() throws -> StoreLock? {
        let path = database.path
        guard !path.isEmpty, path != ":memory:" else { return nil }
        let lockPath = path + ".lock"
        let descriptor = openLockFile(lockPath)
        guard descriptor >= 0 else {
            throw ProjectionError(
                .database, "cannot open the lock file \(lockPath) (check permissions)", context: ["file": lockPath])
        }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw ProjectionError(.database, "cannot lock \(lockPath)", context: ["file": lockPath])
        }
        return StoreLock(descriptor: descriptor)
    }
}

private func openLockFile(_ path: String) -> Int32 { open(path, O_RDWR | O_CREAT, 0o644) }
