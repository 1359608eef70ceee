import Foundation

/// One blobs directory's packs as this process sees them: the index and the one writer, shared by
/// every ``PhotoStore`` of the process on that directory.
final class PhotoPacks: @unchecked Sendable {
    let index: PhotoIndex
    /// A new pack is started once the current one would grow past this many bytes (set before the
    /// first store to change it).
    var packLimit = PhotoPackFormat.packLimit
    private let lock = NSLock()
    private var writerInstance: PhotoPackWriter?

    private init(root: String) { index = PhotoIndex(root: root) }

    /// The last store of this process on the directory is gone: the writer closes the pack cleanly.
    /// (The writer holds the index, never this, so this never runs on its thread.)
    deinit { writerInstance?.close() }

    private struct Weak { weak var packs: PhotoPacks? }
    private static let registry = NSLock()
    nonisolated(unsafe) private static var instances: [String: Weak] = [:]

    /// The packs of `root`, shared in this process.
    static func shared(root: String) -> PhotoPacks {
        let key = URL(fileURLWithPath: root).standardizedFileURL.path
        registry.lock()
        defer { registry.unlock() }
        if let packs = instances[key]?.packs { return packs }
        instances = instances.filter { $0.value.packs != nil }
        let packs = PhotoPacks(root: key)
        instances[key] = Weak(packs: packs)
        return packs
    }

    /// The one writer of these packs in this process (its thread starts with the first store).
    var writer: PhotoPackWriter {
        lock.lock()
        defer { lock.unlock() }
        if let writerInstance { return writerInstance }
        let writer = PhotoPackWriter(index: index, packLimit: packLimit)
        writerInstance = writer
        return writer
    }

    /// Closes the writer, when this process wrote (see ``PhotoPackWriter/close()``).
    func closeWriter() {
        lock.lock()
        let writer = writerInstance
        lock.unlock()
        writer?.close()
    }
}
