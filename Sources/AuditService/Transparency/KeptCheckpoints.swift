import Foundation
import Proofs

/// The checkpoints the log signed, kept in `<data>/checkpoints/` one file per tree size
/// (`<size>.checkpoint`, the signed note as mailed), so any earlier checkpoint can be proven
/// consistent with a later one and a fork shows as two of the same size.
struct KeptCheckpoints {
    let folder: URL

    init(_ directory: DataDirectory) { folder = directory.checkpoints }

    /// The file of the checkpoint of `size`.
    func file(size: Int) -> URL { folder.appendingPathComponent("\(size).checkpoint") }

    /// Every kept checkpoint that reads as one, smallest size first (unreadable files are skipped:
    /// they are named by ``unreadable``).
    func all() -> [(file: URL, checkpoint: SignedCheckpoint)] {
        names().compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path),
                let checkpoint = try? SignedCheckpoint(String(decoding: data, as: UTF8.self))
            else { return nil }
            return (url, checkpoint)
        }.sorted { $0.checkpoint.checkpoint.size < $1.checkpoint.checkpoint.size }
    }

    /// The largest kept checkpoint, or nil when none is kept. Reads the files from the largest
    /// size their names give down to the first that reads as a checkpoint, not every kept one:
    /// `serve` asks each time it signs, and a checkpoint is kept every few seconds.
    func latest() -> (file: URL, checkpoint: SignedCheckpoint)? {
        let names = names()
        let named = names.compactMap { name in Int(name.dropLast(".checkpoint".count)).map { ($0, name) } }
        // Files named otherwise (copied in by hand) are kept checkpoints too: read them all.
        guard named.count == names.count else { return all().last }
        for (_, name) in named.sorted(by: { $0.0 > $1.0 }) {
            let url = folder.appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: url.path),
                let checkpoint = try? SignedCheckpoint(String(decoding: data, as: UTF8.self))
            {
                return (url, checkpoint)
            }
        }
        return nil
    }

    /// The largest size a kept checkpoint's file name gives (nil when none is kept): whether
    /// another writer signed since, without reading any file.
    func latestNamedSize() -> Int? {
        names().compactMap { Int($0.dropLast(".checkpoint".count)) }.max()
    }

    /// Writes `text` as the checkpoint of `size` (through a temporary file and a rename).
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when it cannot be written.
    func keep(_ text: String, size: Int) throws {
        let target = file(size: size)
        let temporary = folder.appendingPathComponent(".\(size).checkpoint.tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot keep the checkpoint (check permissions)", context: ["file": target.path])
        }
    }

    private func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".checkpoint") && !$0.hasPrefix(".")
        }
    }
}

extension DataDirectory {
    /// The name of the kept checkpoints' folder inside a data directory.
    public static let checkpointsName = "checkpoints"

    /// The checkpoints the log signed (``KeptCheckpoints``).
    public var checkpoints: URL { url.appendingPathComponent(Self.checkpointsName, isDirectory: true) }
}
