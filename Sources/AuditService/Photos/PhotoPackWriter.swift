import AuditLog
import Crypto
import Foundation

/// Appends photos to the packs of one blobs directory from its own thread, in groups: every
/// store waiting when a group starts is written with one write and synced with one `fdatasync`
/// (one file per photo cost two syncs and a new inode each).
///
/// The thread starts with the first store and ends after two idle seconds. The first group
/// repairs the last pack (``PhotoPackFormat``) and reads the index; a lock file keeps other
/// processes from writing the same packs.
final class PhotoPackWriter: @unchecked Sendable {
    /// A store waiting for a group.
    struct Request {
        var bytes: [UInt8]
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
    private var descriptor: Int32 = -1
    private var lockDescriptor: Int32 = -1
    private var pack: UInt32 = 0
    private var end: UInt64 = 0
    /// True when the pack has groups written without a sync (only non-durable stores since).
    private var unsynced = false
    /// A sync failed: nothing written since is known to be on disk, so stores fail until reopened.
    private var failure: AuditServiceError?

    init(index: PhotoIndex, packLimit: UInt64) {
        self.index = index
        self.packLimit = packLimit
        root = index.root
        packsPath = index.packsPath
    }

    deinit {
        if descriptor >= 0 { Foundation.close(descriptor) }
        if lockDescriptor >= 0 { Foundation.close(lockDescriptor) }
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
        guard descriptor >= 0 else { return }
        if failure == nil {
            let marker = PhotoPackFormat.closed(at: end)
            let synced = !unsynced || fdatasync(descriptor) == 0
            if synced, write(marker, at: end), fdatasync(descriptor) == 0 {
                end += UInt64(marker.count)
            }
        }
        releaseFiles()
        index.stopWriting()
    }

    private func loop() {
        while true {
            queue.lock()
            while pending.isEmpty {
                if !queue.wait(until: Date().addingTimeInterval(2)), pending.isEmpty {
                    running = false
                    queue.unlock()
                    return
                }
            }
            let group = pending
            pending.removeAll(keepingCapacity: true)
            committing = true
            queue.unlock()
            commit(group)
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
        if descriptor < 0 {
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
            let digest = SHA256.hash(data: request.bytes)
            let key = PhotoKey(digest: digest)
            let hex = PhotoStore.hex(digest)
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
        var output: [UInt8] = []
        output.reserveCapacity(size)
        var located: [(key: PhotoKey, location: PhotoLocation)] = []
        for photo in photos {
            PhotoPackFormat.appendPhotoHeader(photo.key, count: photo.bytes.count, to: &output)
            let offset = end + UInt64(output.count)
            output += photo.bytes
            located.append((photo.key, PhotoLocation(pack: pack, offset: offset, count: UInt32(photo.bytes.count))))
        }
        PhotoPackFormat.appendCommit(groupStart: end, groupCRC: CRC32C.checksum(output), to: &output)
        guard write(output, at: end) else {
            _ = ftruncate(descriptor, off_t(end))
            return AuditServiceError(
                .dataDirectory, "cannot write the photo (check disk space)",
                context: ["file": packsPath + "/" + PhotoPackFormat.fileName(pack)])
        }
        if durable {
            guard fdatasync(descriptor) == 0 else {
                let error = AuditServiceError(
                    .dataDirectory, "cannot sync the photo store (check the disk; restart to recover)",
                    context: ["file": packsPath + "/" + PhotoPackFormat.fileName(pack)])
                failure = error
                return error
            }
            unsynced = false
        } else {
            unsynced = true
        }
        end += UInt64(output.count)
        index.publish(located, pack: pack, end: end)
        return nil
    }

    /// Takes the lock, repairs the last pack and reads every pack into the index.
    private func open() throws(AuditServiceError) {
        let problem = { (what: String, path: String) in
            AuditServiceError(
                .dataDirectory, "cannot \(what) (check permissions and disk space)", context: ["file": path])
        }
        if mkdir(root, 0o755) == 0 { syncDirectory(URL(fileURLWithPath: root).deletingLastPathComponent().path) }
        if mkdir(packsPath, 0o755) == 0 { syncDirectory(root) }
        let lockPath = packsPath + "/LOCK"
        lockDescriptor = Foundation.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockDescriptor >= 0 else { throw problem("open the photo store's lock", lockPath) }
        guard flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0 else {
            releaseFiles()
            throw AuditServiceError(
                .dataDirectory, "another process is writing photos here (stop it, or use its server)",
                context: ["directory": packsPath])
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packsPath)) ?? []
        let last = names.compactMap(PhotoPackFormat.packNumber).max() ?? 0
        var photos: [PhotoKey: PhotoLocation] = [:]
        for number in 1..<max(last, 1) {
            let path = packsPath + "/" + PhotoPackFormat.fileName(number)
            let file = Foundation.open(path, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else { continue }
            for photo in PhotoPackScan.read(descriptor: file, from: 0).photos {
                photos[photo.key] = PhotoLocation(pack: number, offset: photo.offset, count: photo.count)
            }
            Foundation.close(file)
        }
        guard last > 0 else {
            try startPack(1)
            index.startWriting(photos: photos, pack: pack, end: end)
            return
        }
        let path = packsPath + "/" + PhotoPackFormat.fileName(last)
        descriptor = Foundation.open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            releaseFiles()
            throw problem("open the photo pack", path)
        }
        pack = last
        var scan = PhotoPackScan.read(descriptor: descriptor, from: 0)
        guard scan.isPack else {
            releaseFiles()
            throw AuditServiceError(
                .dataDirectory, "this file is not a photo pack (move it out of the packs folder)",
                context: ["file": path])
        }
        // Only groups since the last clean close can be torn: keep those whose CRC32C holds.
        for group in scan.openGroups {
            let bytes = PhotoPackScan.read(descriptor, at: group.start, count: Int(group.commit - group.start))
            if bytes.count != Int(group.commit - group.start) || CRC32C.checksum(bytes) != group.crc {
                scan.end = group.start
                scan.photos.removeAll { $0.offset >= group.start }
                break
            }
        }
        // A torn tail is cut; a file cut before its magic (a crash as it was made) starts again.
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? UInt64(info.st_size) : 0
        let magic = PhotoPackFormat.magic
        if scan.end < UInt64(magic.count) {
            guard ftruncate(descriptor, 0) == 0, write(magic, at: 0), fdatasync(descriptor) == 0 else {
                releaseFiles()
                throw problem("repair the photo pack", path)
            }
            scan.end = UInt64(magic.count)
        } else if size != scan.end {
            guard ftruncate(descriptor, off_t(scan.end)) == 0, fdatasync(descriptor) == 0 else {
                releaseFiles()
                throw problem("repair the photo pack", path)
            }
        }
        end = scan.end
        for photo in scan.photos {
            photos[photo.key] = PhotoLocation(pack: last, offset: photo.offset, count: photo.count)
        }
        index.startWriting(photos: photos, pack: pack, end: end)
    }

    /// Syncs the current pack, then creates pack `number` and makes it the current one.
    private func startPack(_ number: UInt32) throws(AuditServiceError) {
        let path = packsPath + "/" + PhotoPackFormat.fileName(number)
        if descriptor >= 0 {
            guard !unsynced || fdatasync(descriptor) == 0 else {
                throw AuditServiceError(.dataDirectory, "cannot sync the photo pack", context: ["file": path])
            }
            Foundation.close(descriptor)
            descriptor = -1
        }
        descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0, write(PhotoPackFormat.magic, at: 0), fsync(descriptor) == 0 else {
            throw AuditServiceError(
                .dataDirectory, "cannot create the photo pack (check permissions and disk space)",
                context: ["file": path])
        }
        syncDirectory(packsPath)
        pack = number
        end = UInt64(PhotoPackFormat.magic.count)
        unsynced = false
    }

    private func write(_ bytes: [UInt8], at offset: UInt64) -> Bool {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return false }
            done += result
        }
        return true
    }

    private func syncDirectory(_ path: String) {
        let directory = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return }
        _ = fsync(directory)
        Foundation.close(directory)
    }

    private func releaseFiles() {
        if descriptor >= 0 { Foundation.close(descriptor) }
        if lockDescriptor >= 0 { Foundation.close(lockDescriptor) }
        descriptor = -1
        lockDescriptor = -1
    }
}
