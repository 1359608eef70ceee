import Foundation

/// A file descriptor with positioned reads and writes that report errors as ``EventLogError``
/// (package: the photo store's packs use it too).
package final class LogFile: @unchecked Sendable {
    // @unchecked: `descriptor` never changes after init; pread/pwrite/fdatasync are safe to
    // call from several threads on one descriptor, and only the log's writer thread writes.
    package let descriptor: Int32
    package let url: URL

    private init(descriptor: Int32, url: URL) {
        self.descriptor = descriptor
        self.url = url
    }

    deinit { _ = Foundation.close(descriptor) }

    /// Opens an existing file for reading (and writing when `writable`).
    package static func open(_ url: URL, writable: Bool, create: Bool = false) throws -> LogFile {
        var flags = writable ? O_RDWR : O_RDONLY
        if create { flags |= O_CREAT }
        let descriptor = Foundation.open(url.path, flags | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ioError("cannot open", url: url) }
        return LogFile(descriptor: descriptor, url: url)
    }

    /// The file's current size in bytes.
    package func size() throws -> UInt64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.ioError("cannot stat", url: url) }
        return UInt64(info.st_size)
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns how many it read (fewer at the end).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        var done = 0
        while done < buffer.count {
            let result = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if result < 0 {
                if errno == EINTR { continue }
                throw Self.ioError("cannot read", url: url, offset: offset)
            }
            if result == 0 { break }
            done += result
        }
        return done
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    package func read(count: Int, at offset: UInt64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        bytes.removeLast(count - done)
        return bytes
    }

    /// Writes all of `bytes` at `offset`.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        var done = 0
        var limit = bytes.count
        if let allowed = FileFaults.allowance(for: url, count: bytes.count) { limit = allowed }
        while done < bytes.count {
            if done == limit {
                errno = ENOSPC
                throw Self.ioError("cannot write", url: url, offset: offset + UInt64(done))
            }
            let result = pwrite(descriptor, bytes.baseAddress! + done, limit - done, off_t(offset) + off_t(done))
            if result < 0 {
                if errno == EINTR { continue }
                throw Self.ioError("cannot write", url: url, offset: offset + UInt64(done))
            }
            done += result
        }
    }

    /// Makes written data durable (fdatasync).
    package func sync() throws {
        while fdatasync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw Self.ioError("cannot sync", url: url)
        }
    }

    /// Cuts the file to `length` bytes.
    package func truncate(to length: UInt64) throws {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw Self.ioError("cannot truncate", url: url, offset: length)
        }
    }

    /// Takes the exclusive writer lock without waiting; false when another holder has it.
    package func tryLockExclusive() throws -> Bool {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw Self.ioError("cannot lock", url: url)
    }

    /// Releases a lock taken with ``tryLockExclusive()``.
    func unlock() { _ = flock(descriptor, LOCK_UN) }

    /// Syncs a directory so a file created or renamed in it survives a crash.
    package static func syncDirectory(_ url: URL) throws {
        let file = try open(url, writable: false)
        guard fsync(file.descriptor) == 0 || errno == EINVAL else { throw ioError("cannot sync directory", url: url) }
    }

    /// An error naming the file and what the system said; ENOSPC and EDQUOT are `diskFull`.
    static func ioError(_ action: String, url: URL, offset: UInt64? = nil) -> EventLogError {
        let code = errno
        let reason = String(cString: strerror(code))
        var context = ["file": url.path, "errno": String(code)]
        if let offset { context["offset"] = String(offset) }
        if code == ENOSPC || code == EDQUOT {
            return EventLogError(
                .diskFull,
                "\(action) \(url.lastPathComponent): \(reason) (free disk space and retry; the log is intact)",
                context: context)
        }
        return EventLogError(
            .io, "\(action) \(url.lastPathComponent): \(reason) (check the disk and permissions, then retry)",
            context: context)
    }
}
