import Foundation

/// A file beside the segments holding bytes cut off the log: nothing recovery cuts is destroyed.
///
/// Named `<segment>.quarantine-<offset>` when the bytes held (or may have held) acknowledged events
/// and were cut by an explicit `recover --cut-tail`, and `<segment>.unacknowledged-<offset>` when
/// recovery cut them on its own because they lay past everything ever acknowledged (a torn
/// write). The file holds the bytes exactly as they were, from `offset` of the segment on.
public struct QuarantinedFile: Sendable, Hashable, Codable {
    /// The file name in the log directory.
    public var name: String
    /// Its size in bytes.
    public var bytes: UInt64
    /// True when it may hold acknowledged events (cut by `recover --cut-tail`); false for a torn,
    /// never acknowledged tail cut automatically.
    public var acknowledged: Bool
}

enum Quarantine {
    static let acknowledgedMarker = ".quarantine-"
    static let unacknowledgedMarker = ".unacknowledged-"

    /// The quarantine files in `directory`, by name.
    static func list(in directory: URL) -> [QuarantinedFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name -> QuarantinedFile? in
            let acknowledged = name.contains(acknowledgedMarker)
            guard name.hasPrefix("segment-"), acknowledged || name.contains(unacknowledgedMarker) else { return nil }
            let path = directory.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
            return QuarantinedFile(name: name, bytes: size, acknowledged: acknowledged)
        }
    }

    /// A name for the bytes of `segment` from `offset` that no file has yet.
    static func freeName(in directory: URL, segment: String, offset: UInt64, acknowledged: Bool) -> String {
        let base = segment + (acknowledged ? acknowledgedMarker : unacknowledgedMarker) + String(offset)
        var name = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) {
            attempt += 1
            name = base + "." + String(attempt)
        }
        return name
    }

    /// Moves the bytes of `file` from `offset` to its end into a new quarantine file (synced),
    /// then cuts the segment there. A whole segment (offset 0) is renamed instead.
    /// - Returns: the quarantine file's name, or nil when there was nothing past `offset`.
    static func cut(
        _ file: LogFile, from offset: UInt64, in directory: URL, acknowledged: Bool
    ) throws -> String? {
        let size = try file.size()
        guard size > offset else { return nil }
        let segment = file.url.lastPathComponent
        let name = freeName(in: directory, segment: segment, offset: offset, acknowledged: acknowledged)
        let target = directory.appendingPathComponent(name)
        if offset == 0 {
            guard rename(file.url.path, target.path) == 0 else { throw LogFile.ioError("cannot rename", url: file.url) }
            try LogFile.syncDirectory(directory)
            return name
        }
        let copy = try LogFile.open(target, writable: true, create: true)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var at = offset
        while at < size {
            let count = try buffer.withUnsafeMutableBytes { raw in
                try file.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<Int(min(UInt64(raw.count), size - at))]),
                    at: at)
            }
            guard count > 0 else { break }
            try buffer.withUnsafeBytes {
                try copy.write(UnsafeRawBufferPointer(rebasing: $0[0..<count]), at: at - offset)
            }
            at += UInt64(count)
        }
        try copy.sync()
        try LogFile.syncDirectory(directory)
        try file.truncate(to: offset)
        try file.sync()
        return name
    }
}
