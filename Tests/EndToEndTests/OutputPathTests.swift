import Foundation
import Testing

/// Commands that write or delete a path the user names never destroy what is there: `replay --out`
/// replaces only an earlier `replay --out` database, `demo --data` only an earlier demo.
@Suite("output paths: nothing the user named is destroyed")
struct OutputPathTests {
    static func replay(_ data: URL, out: String) throws -> ItemAuditBinary.Result {
        try ItemAuditBinary.run(["replay", "--until", "10", "--out", out, "--data", data.path, "--quiet"])
    }

    @Test("replay --out refuses a directory, the data directory, anything inside one, and a file it did not make")
    func replayOutRefuses() throws {
        let data = try DemoFixture.copy()
        let scratch = data.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("folder")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("inner"), withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: folder.appendingPathComponent("inner/file.txt"))
        let csv = scratch.appendingPathComponent("inspectors.csv")
        try Data("inspector,days\ni1,3\n".utf8).write(to: csv)
        let foreignDatabase = scratch.appendingPathComponent("other.sqlite")
        try FileManager.default.copyItem(at: data.appendingPathComponent("projections.sqlite"), to: foreignDatabase)
        let link = scratch.appendingPathComponent("link.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: data.appendingPathComponent("new.sqlite").path)
        let listing = DemoFixture.listing(scratch)
        for target in [
            link.path,
            folder.path, data.path, data.appendingPathComponent("log/segment-00000001.log").path,
            data.appendingPathComponent("log").path, data.appendingPathComponent("as-of.sqlite").path,
            data.appendingPathComponent("projections.sqlite").path, csv.path, foreignDatabase.path,
        ] {
            let result = try Self.replay(data, out: target)
            BadInputTests.expectError(result, status: 2, mentioning: ["--out", "nothing was changed"])
        }
        #expect(DemoFixture.listing(scratch) == listing, "a refused --out changed files")
        let verify = try ItemAuditBinary.run(["verify", "--data", data.path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("replay --out creates a new file and replaces its own earlier output")
    func replayOutReplacesItsOwn() throws {
        let data = try DemoFixture.copy()
        let scratch = data.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("as-of.sqlite").path
        let first = try Self.replay(data, out: out)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try Self.replay(data, out: out)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test("demo --data naming a file is refused with one clear line, the file untouched")
    func demoDataFile() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: file)
        let result = try ItemAuditBinary.run(["demo", "--data", file.path, "--days", "1", "--products", "10"])
        BadInputTests.expectError(result, status: 2, mentioning: [file.path, "not a directory"])
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        for arguments in [["generate"], ["record", "-"]] {
            let other = try ItemAuditBinary.run(arguments + ["--data", file.path], stdin: Data())
            BadInputTests.expectError(other, status: 2, mentioning: [file.path, "not a directory"])
            #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        }
    }

    @Test("bench replay never generates into, or rebuilds in, a directory it did not make")
    func benchReplayDirectories() throws {
        try BadInputTests.unchanged { data in
            for option in ["--keep", "--existing"] {
                let result = try ItemAuditBinary.run(["bench", "replay", "--events", "1000", option, data.path])
                BadInputTests.expectError(result, status: 2, mentioning: [data.path, "nothing was changed"])
            }
        }
    }
}
