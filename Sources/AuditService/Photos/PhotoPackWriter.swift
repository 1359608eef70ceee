import AuditLog
import Crypto
import Foundation

/// Appends photos to the packs of one blobs directory from its own thread, in groups: every
/// store waiting when a group starts is written with one write and synced with one `fdatasync`
/// (one file per photo cost two syncs and a new inode each).
///
/// While stores keep coming (the last group was written less than ``busySpan`` ago), a group
/// waits up to ``gatherWindow`` for more, up to ``gatherLimit``, before it is written: each sync
/// costs the kernel and the virtual disk a fixed price, and with 64 devices uploading, syncing
/// small groups took more of the server's CPU than anything else the photos cost (more than
/// writing their bytes). A store that finds the writer idle is written at once. So is a lone
/// caller's, which awaits each store before the next, so that waiting could never add to its
/// group: after ``loneGroups`` groups of one store in a row, groups stop waiting until one holds
/// more (the demo's generator stores its photos one by one, and would wait the whole window for
/// each).
///
/// The thread starts with the first store and ends after two idle seconds. The first group
/// repairs the last pack (``PhotoPackFormat``) and reads the index; a lock file keeps other
/// processes from writing the same packs.
final class PhotoPackWriter: @unchecked Sendable {
    /// A store waiting for a group.
    struct Request {
        var bytes: [UInt8]
        /// The 32 bytes of their SHA-256, hashed by the caller (on its own thread, not in the group).
        var digest: [UInt8]
        /// The hash the client named, when it named one.
        var expected: String?
        var contentType: String
        var durable: Bool
        var complete: @Sendable (Result<PhotoStore.Receipt, AuditServiceError>) -> Void
    }

    private let index: PhotoIndex
    private let packLimit: UInt64
    private let root: String
    private let packsPath: String

    /// Guards `pending`, `running` and `committing`; `close()` holds it while it touches the files.
    private let queue = NSCondition()
    private var pending: [Request] = []
    private var running = false
    private var committing = false

    // The open pack: touched by the thread while committing, or by close() while it is not.
    private var file: LogFile?
    private var lockFile: LogFile?
    private var pack: UInt32 = 0
    private var end: UInt64 = 0
    /// True when the pack has groups written without a sync (only non-durable stores since).
    private var unsynced = false
    /// A sync failed: nothing written since is known to be on disk, so stores fail until reopened.
    private var failure: AuditServiceError?

    /// The longest a group waits for more stores while stores keep coming.
    static let gatherWindow: TimeInterval = 0.001
    /// A group written this recently means stores keep coming.
    static let busySpan: Duration = .milliseconds(5)
    /// A group this large is written without waiting longer.
    static let gatherLimit = 16

    /// Groups of one store in a row after which a lone caller is assumed (one such group among
    /// many devices' uploads is chance, and must not stop the gathering).
    static let loneGroups = 4

    /// Whether the next group waits for more stores: while stores keep coming, unless the last
    /// ``loneGroups`` groups held one store each.
    static func gathers(singleStoreGroupsInARow: Int, sinceLastWrite: Duration) -> Bool {
        singleStoreGroupsInARow < loneGroups && sinceLastWrite < busySpan
    }

    init(index: PhotoIndex, packLimit: UInt64) {
        self.index = index
        self.packLimit = packLimit
        root = index.root
        packsPath = index.packsPath
    }

    /// Queues a store; `request.complete` is called once its group is written (and synced, when durable).
    func submit(_ request: Request) {
        queue.lock()
        pending.append(request)
        if !running {
            running = true
            let thread = Thread { [self] in loop() }
            thread.name = "PhotoStore writer"
            thread.start()
        }
        queue.signal()
        queue.unlock()
    }

    /// Waits for queued stores, syncs, marks the pack closed (so the next open checks nothing)
    /// and releases the files.
    func close() {
        queue.lock()
        defer { queue.unlock() }
        while !pending.isEmpty || committing { queue.wait() }
        guard let file else { return }
        if failure == nil {
            // Synced before the marker is written: the marker vouches for every group before it.
            let marker = PhotoPackFormat.closed(at: end)
            let synced = !unsynced || (try? file.sync()) != nil
            if synced, (try? marker.withUnsafeBytes { try file.write($0, at: end) }) != nil, (try? file.sync()) != nil {
                end += UInt64(marker.count)
            }
        }
        releaseFiles()
        index.stopWriting()
    }

    private func loop() {
        var lastWritten: ContinuousClock.Instant?
        var singleStoreGroups = 0
        while true {
            queue.lock()
            while pending.isEmpty {
                if !queue.wait(until: Date().addingTimeInterval(2)), pending.isEmpty {
                    running = false
                    queue.unlock()
                    return
                }
            }
            if let lastWritten,
                Self.gathers(
                    singleStoreGroupsInARow: singleStoreGroups, sinceLastWrite: ContinuousClock.now - lastWritten)
            {
                let deadline = Date().addingTimeInterval(Self.gatherWindow)
                while pending.count < Self.gatherLimit, queue.wait(until: deadline) {}
            }
            let group = pending
            pending.removeAll(keepingCapacity: true)
            committing = true
            queue.unlock()
            commit(group)
            lastWritten = ContinuousClock.now
            singleStoreGroups = group.count == 1 ? singleStoreGroups + 1 : 0
            queue.lock()
            committing = false
            queue.broadcast()
            queue.unlock()
        }
    }

    /// Hashes, writes and syncs one group, then answers each store.
    private func commit(_ group: [Request]) {
        if let failure {
            for request in group { request.complete(.failure(failure)) }
            return
        }
        if file == nil {
            do {
                try open()
            } catch {
                for request in group { request.complete(.failure(error)) }
                return
            }
        }
        var results: [Result<PhotoStore.Receipt, AuditServiceError>] = []
        var records: [(key: PhotoKey, request: Int)] = []
        var seen = Set<PhotoKey>()
        for (position, request) in group.enumerated() {
            let key = PhotoKey(digest: request.digest)
            let hex = PhotoStore.hex(request.digest)
            if let expected = request.expected, expected != hex {
                results.append(
                    .failure(
                        AuditServiceError(
                            .photoRejected,
                            "the bytes hash to \(hex), not \(expected) (the upload was damaged; send it again)")))
                continue
            }
            let isNew = !seen.contains(key) && !index.contains(key, hex: hex)
            if isNew {
                seen.insert(key)
                records.append((key, position))
            }
            results.append(
                .success(
                    PhotoStore.Receipt(
                        sha256: hex, byteCount: request.bytes.count, contentType: request.contentType, isNew: isNew)))
        }
        if !records.isEmpty {
            let durable = records.contains { group[$0.request].durable }
            if let error = append(records.map { ($0.key, group[$0.request].bytes) }, durable: durable) {
                for record in records { results[record.request] = .failure(error) }
            }
        }
        for (request, result) in zip(group, results) { request.complete(result) }
    }

    /// Writes the photos as one group; nil when done, else the error every one of them gets.
    private func append(
        _ photos: [(key: PhotoKey, bytes: [UInt8])], durable: Bool
    ) -> AuditServiceError? {
        let size = photos.reduce(PhotoPackFormat.commitSize) { $0 + PhotoPackFormat.photoHeaderSize + $1.bytes.count }
        if end > UInt64(PhotoPackFormat.magic.count), end + UInt64(size) > packLimit {
            do { try startPack(pack + 1) } catch { return error }
        }
        guard let file else { return Self.problem("write the photo", index.packURL(pack), nil) }
        var output = ByteWriter(capacity: size)
        var located: [(key: PhotoKey, location: PhotoLocation)] = []
        for photo in photos {
            PhotoPackFormat.appendPhotoHeader(photo.key, count: photo.bytes.count, to: &output)
            let offset = end + UInt64(output.bytes.count)
            output.bytes += photo.bytes
            located.append((photo.key, PhotoLocation(pack: pack, offset: offset, count: UInt32(photo.bytes.count))))
        }
        PhotoPackFormat.appendCommit(groupStart: end, groupCRC: CRC32C.checksum(output.bytes), to: &output)
        do {
            try output.bytes.withUnsafeBytes { try file.write($0, at: end) }
        } catch {
            _ = try? file.truncate(to: end)
            return Self.problem("write the photo", file.url, error)
        }
        if durable {
            do {
                try file.sync()
            } catch {
                // After a failed fdatasync what reached the disk is unknown: stop until reopened.
                failure = Self.problem("sync the photo store (restart to recover)", file.url, error)
                return failure
            }
            unsynced = false
        } else {
            unsynced = true
        }
        end += UInt64(output.bytes.count)
        index.publish(located, pack: pack, end: end)
        return nil
    }

    /// Takes the lock, repairs the last pack and reads every pack into the index.
    private func open() throws(AuditServiceError) {
        let packsURL = URL(fileURLWithPath: packsPath)
        let rootURL = URL(fileURLWithPath: root)
        if mkdir(root, 0o755) == 0 { try? LogFile.syncDirectory(rootURL.deletingLastPathComponent()) }
        if mkdir(packsPath, 0o755) == 0 { try? LogFile.syncDirectory(rootURL) }
        let lockURL = packsURL.appendingPathComponent("LOCK")
        do {
            let lock = try LogFile.open(lockURL, writable: true, create: true)
            guard try lock.tryLockExclusive() else {
                throw AuditServiceError(
                    .dataDirectory, "another process is writing photos here (stop it, or use its server)",
                    context: ["directory": packsPath])
            }
            lockFile = lock
        } catch let error as AuditServiceError {
            throw error
        } catch {
            throw Self.problem("lock the photo store", lockURL, error)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? []
        let last = names.compactMap(PhotoPackFormat.packNumber).max() ?? 0
        var photos: [PhotoKey: PhotoLocation] = [:]
        for number in 1..<max(last, 1) {
            guard let earlier = try? LogFile.open(index.packURL(number), writable: false) else { continue }
            for photo in PhotoPackScan.read(earlier, from: 0).photos {
                photos[photo.key] = PhotoLocation(pack: number, offset: photo.offset, count: photo.count)
            }
        }
        guard last > 0 else {
            try startPack(1)
            index.startWriting(photos: photos, pack: pack, end: end)
            return
        }
        let url = index.packURL(last)
        do {
            let current = try LogFile.open(url, writable: true)
            var scan = PhotoPackScan.read(current, from: 0)
            guard scan.isPack else {
                releaseFiles()
                throw AuditServiceError(
                    .dataDirectory, "this file is not a photo pack (move it out of the packs folder)",
                    context: ["file": url.path])
            }
            // Only groups since the last clean close can be torn: keep those whose CRC32C holds.
            for group in scan.openGroups {
                let bytes = try current.read(count: Int(group.commit - group.start), at: group.start)
                if bytes.count != Int(group.commit - group.start) || CRC32C.checksum(bytes) != group.crc {
                    scan.end = group.start
                    scan.photos.removeAll { $0.offset >= group.start }
                    break
                }
            }
            // A torn tail is cut; a file cut before its magic (a crash as it was made) starts again.
            let magic = PhotoPackFormat.magic
            if scan.end < UInt64(magic.count) {
                try current.truncate(to: 0)
                try magic.withUnsafeBytes { try current.write($0, at: 0) }
                try current.sync()
                scan.end = UInt64(magic.count)
            } else if try current.size() != scan.end {
                try current.truncate(to: scan.end)
                try current.sync()
            }
            file = current
            pack = last
            end = scan.end
            for photo in scan.photos {
                photos[photo.key] = PhotoLocation(pack: last, offset: photo.offset, count: photo.count)
            }
        } catch let error as AuditServiceError {
            throw error
        } catch {
            releaseFiles()
            throw Self.problem("open and repair the photo pack", url, error)
        }
        index.startWriting(photos: photos, pack: pack, end: end)
    }

    /// Syncs the current pack, then creates pack `number` and makes it the current one.
    private func startPack(_ number: UInt32) throws(AuditServiceError) {
        let url = index.packURL(number)
        do {
            if let file, unsynced { try file.sync() }
            file = nil
            let next = try LogFile.open(url, writable: true, create: true)
            try next.truncate(to: 0)
            try PhotoPackFormat.magic.withUnsafeBytes { try next.write($0, at: 0) }
            try next.sync()
            try LogFile.syncDirectory(URL(fileURLWithPath: packsPath))
            file = next
        } catch {
            throw Self.problem("start the photo pack", url, error)
        }
        pack = number
        end = UInt64(PhotoPackFormat.magic.count)
        unsynced = false
    }

    /// An error naming the file, with what the system said (the log's file errors say how to fix it).
    private static func problem(_ what: String, _ url: URL, _ error: (any Error)?) -> AuditServiceError {
        let reason = (error as? EventLogError)?.message ?? error.map { "\($0)" } ?? "the file is not open"
        return AuditServiceError(.dataDirectory, "cannot \(what): \(reason)", context: ["file": url.path])
    }

    private func releaseFiles() {
        file = nil
        lockFile = nil
    }
}
