import AuditLog
import Crypto
import Foundation

/// The index of one blobs directory's pack files: a photo's hash to where its bytes are.
///
/// Shared by every ``PhotoStore`` of this process on the directory (``PhotoPacks``) and its
/// writer. It is read from the packs on first use; a process that does not write reads, on a miss,
/// what other processes appended since (a server writes, a report in another process reads). Photos stored one file each under
/// `<blobs>/<first two hex>/<sha256>` by earlier versions are still found.
final class PhotoIndex: @unchecked Sendable {
    /// The blobs directory.
    let root: String
    var packsPath: String { root + "/packs" }

    /// Guards everything below.
    private let lock = NSLock()
    private var locations: [PhotoKey: PhotoLocation] = [:]
    /// How far the index has read: the last pack opened and the offset reached in it.
    private var readPack: UInt32 = 0
    private var readEnd: UInt64 = 0
    /// The record that ends at `readEnd`, as read (empty: nothing to check).
    private var readTail: [UInt8] = []
    /// Set once this process writes: then only the writer adds to the index.
    private var writing = false
    /// Whether the directory holds one-file-per-photo folders (nil: not looked yet).
    private var hasLegacyFolders: Bool?

    init(root: String) { self.root = root }

    /// Where the photo is, reading what was appended since when it is not known yet.
    func location(of key: PhotoKey) -> PhotoLocation? {
        lock.lock()
        defer { lock.unlock() }
        if let location = locations[key] { return location }
        guard !writing else { return nil }
        readNewRecords()
        return locations[key]
    }

    /// Whether the photo is stored, in a pack or as a file of an earlier version.
    func contains(_ key: PhotoKey, hex: String) -> Bool {
        location(of: key) != nil || legacyFileExists(hex)
    }

    /// The photo's bytes, nil when not stored or when they no longer hash to `key` (damaged).
    func read(_ key: PhotoKey, hex: String) -> [UInt8]? {
        if let location = location(of: key) {
            guard let file = try? LogFile.open(packURL(location.pack), writable: false),
                let bytes = try? file.read(count: Int(location.count), at: location.offset),
                bytes.count == Int(location.count), PhotoKey(digest: SHA256.hash(data: bytes)) == key
            else {
                return nil
            }
            return bytes
        }
        guard legacyFileExists(hex), let data = FileManager.default.contents(atPath: legacyPath(hex)) else {
            return nil
        }
        return [UInt8](data)
    }

    /// The writer took over: `photos` are every photo of the packs, read after recovery.
    func startWriting(photos: [PhotoKey: PhotoLocation], pack: UInt32, end: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        writing = true
        locations = photos
        readPack = pack
        readEnd = end
        readTail = []
    }

    /// The writer closed: another process may write these packs now, so misses read again.
    func stopWriting() {
        lock.lock()
        defer { lock.unlock() }
        writing = false
    }

    /// The writer committed `photos` (durable when asked so): they are stored from now on.
    func publish(_ photos: [(key: PhotoKey, location: PhotoLocation)], pack: UInt32, end: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        for photo in photos { locations[photo.key] = photo.location }
        readPack = pack
        readEnd = end
        readTail = []
    }

    /// Reads committed records from where the index stopped, through every newer pack.
    /// Called with the lock held.
    private func readNewRecords() {
        var pack = max(readPack, 1)
        var start = readPack == 0 ? 0 : readEnd
        while true {
            guard let file = try? LogFile.open(packURL(pack), writable: false) else { return }
            if start >= UInt64(readTail.count), !readTail.isEmpty,
                (try? file.read(count: readTail.count, at: start - UInt64(readTail.count))) != readTail
            {
                // A writer cut a torn tail after a crash and wrote on: read the pack anew.
                locations = locations.filter { $0.value.pack != pack }
                start = 0
            }
            let scan = PhotoPackScan.read(file, from: start)
            guard scan.isPack else { return }
            for photo in scan.photos {
                locations[photo.key] = PhotoLocation(pack: pack, offset: photo.offset, count: photo.count)
            }
            readPack = pack
            if scan.end != start { readTail = scan.endRecord }
            readEnd = scan.end
            pack += 1
            start = 0
        }
    }

    /// The file of pack `number`.
    func packURL(_ number: UInt32) -> URL {
        URL(fileURLWithPath: packsPath + "/" + PhotoPackFormat.fileName(number))
    }

    /// `<blobs>/<first two hex>/<sha256>`: where earlier versions put each photo.
    func legacyPath(_ hex: String) -> String { root + "/" + hex.prefix(2) + "/" + hex }

    private func legacyFileExists(_ hex: String) -> Bool {
        lock.lock()
        if hasLegacyFolders == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            hasLegacyFolders = names.contains { $0.utf8.count == 2 && $0.allSatisfy(\.isHexDigit) }
        }
        let look = hasLegacyFolders == true
        lock.unlock()
        return look && access(legacyPath(hex), F_OK) == 0
    }
}
