import AuditLog
import Foundation

/// What reading a pack's records from some offset found (``PhotoPackFormat``).
struct PhotoPackScan {
    /// Photos followed by a valid commit: the key, and where the bytes are.
    var photos: [(key: PhotoKey, offset: UInt64, count: UInt32)] = []
    /// The offset after the last valid commit or closed record: where the next record goes.
    var end: UInt64
    /// The bytes of that record (empty when `end` follows the magic): a reader checks them later
    /// to see that the pack was not cut and written again since.
    var endRecord: [UInt8] = []
    /// The groups after the last closed record (the only ones a crash can have torn).
    var openGroups: [(start: UInt64, commit: UInt64, crc: UInt32)] = []
    /// False when the file does not start as a pack.
    var isPack = true

    /// Reads the records of the pack `file` from `start` (0: the file's beginning) up to its end
    /// or the first record that is cut short or not valid.
    static func read(_ file: LogFile, from start: UInt64) -> PhotoPackScan {
        guard let size = try? file.size() else { return PhotoPackScan(end: start) }
        var offset = start
        if start == 0 {
            let magic = PhotoPackFormat.magic
            guard size >= UInt64(magic.count) else { return PhotoPackScan(end: 0) }  // cut as it was made
            guard (try? file.read(count: magic.count, at: 0)) == magic else {
                return PhotoPackScan(end: 0, isPack: false)
            }
            offset = UInt64(magic.count)
        }
        var scan = PhotoPackScan(end: offset)
        var group: [(key: PhotoKey, offset: UInt64, count: UInt32)] = []
        var groupStart = offset
        while offset < size {
            guard let header = try? file.read(count: Int(min(37, size - offset)), at: offset), let tag = header.first
            else { break }
            if tag == PhotoPackFormat.photoTag, header.count == PhotoPackFormat.photoHeaderSize {
                let count = PhotoPackFormat.field(UInt32.self, header, at: 1)
                let bytesAt = offset + UInt64(PhotoPackFormat.photoHeaderSize)
                guard bytesAt + UInt64(count) <= size else { break }
                group.append((PhotoKey(digest: header[5..<37]), bytesAt, count))
                offset = bytesAt + UInt64(count)
            } else if tag == PhotoPackFormat.commitTag, header.count >= PhotoPackFormat.commitSize {
                guard PhotoPackFormat.field(UInt32.self, header, at: 13) == CRC32C.checksum(Array(header[0..<13])),
                    PhotoPackFormat.field(UInt64.self, header, at: 1) == groupStart
                else { break }
                scan.photos += group
                group.removeAll()
                scan.openGroups.append((groupStart, offset, PhotoPackFormat.field(UInt32.self, header, at: 9)))
                offset += UInt64(PhotoPackFormat.commitSize)
                scan.end = offset
                scan.endRecord = Array(header[0..<PhotoPackFormat.commitSize])
                groupStart = offset
            } else if tag == PhotoPackFormat.closedTag, header.count >= PhotoPackFormat.closedSize {
                guard PhotoPackFormat.field(UInt32.self, header, at: 9) == CRC32C.checksum(Array(header[0..<9])),
                    PhotoPackFormat.field(UInt64.self, header, at: 1) == offset, group.isEmpty
                else { break }
                scan.openGroups.removeAll()
                offset += UInt64(PhotoPackFormat.closedSize)
                scan.end = offset
                scan.endRecord = Array(header[0..<PhotoPackFormat.closedSize])
                groupStart = offset
            } else {
                break
            }
        }
        return scan
    }
}
