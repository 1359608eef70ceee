import AuditService
import Foundation
import Testing

/// `ReplayOutput` decides what `replay --out` may write, before anything is touched.
@Suite("replay output: only a new file or an earlier replay's database")
struct ReplayOutputTests {
    static func withScratch(_ body: (URL) throws -> Void) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("replay-output-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try body(scratch)
    }

    static func refused(_ path: URL, data: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try ReplayOutput.check(path: path.path, dataDirectory: data)
        } throws: { error in
            (error as? AuditServiceError)?.code == .outputPath
        }
    }

    @Test("a new file is accepted, stamped when made, and accepted again; anything else is refused")
    func decisions() throws {
        try Self.withScratch { scratch in
            let data = scratch.appendingPathComponent("data")
            try FileManager.default.createDirectory(
                at: data.appendingPathComponent("log"), withIntermediateDirectories: true)
            try Data().write(to: data.appendingPathComponent("log/LOCK"))
            let out = scratch.appendingPathComponent("as-of.sqlite")
            let output = try ReplayOutput.check(path: out.path, dataDirectory: data)
            _ = try output.create()
            #expect(ReplayOutput.isReplayDatabase(out))
            #expect(throws: Never.self) { try ReplayOutput.check(path: out.path, dataDirectory: data) }

            let other = scratch.appendingPathComponent("notes.sqlite")
            try Data("not a database".utf8).write(to: other)
            Self.refused(other, data: data)
            Self.refused(scratch, data: data)
            Self.refused(data.appendingPathComponent("x.sqlite"), data: data)
            // Any folder holding a log is a data directory, whichever --data was given.
            Self.refused(data.appendingPathComponent("deeper/x.sqlite"), data: scratch.appendingPathComponent("else"))
            #expect(DataDirectoryProbe.isDataDirectory(data))
            #expect(!DataDirectoryProbe.isDataDirectory(scratch))
        }
    }
}
