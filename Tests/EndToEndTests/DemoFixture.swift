import Foundation
import TestSupport
import Testing

/// One small seeded demo, made once per test run by the built binary and shared by the end-to-end tests.
///
/// Tests only read it; a test that writes or damages a data directory works on ``copy()``. The
/// directory is removed when the test process exits.
enum DemoFixture {
    /// The demo's data directory, its printed report and the product it showcases.
    struct Demo: Sendable {
        var directory: URL
        var output: ItemAuditBinary.Result
        var gtin: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let arguments = [
        "--seed", "3", "--days", "10", "--products", "150", "--inspectors", "3", "--datasheets", "40", "--quiet",
    ]

    /// Made on first use (a `static let` is initialised once, thread-safely).
    private static let made: Result<Demo, Failure> = make()

    /// The shared demo, or a test failure saying why it could not be made.
    static func demo() throws -> Demo { try made.get() }

    private static func make() -> Result<Demo, Failure> {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("itemaudit-e2e-demo-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)
        atexit { DemoFixture.removeDirectory() }
        do {
            let output = try ItemAuditBinary.run(["demo", "--data", directory.path] + arguments)
            guard output.status == 0 else {
                return .failure(Failure(description: "itemaudit demo exited \(output.status): \(output.stderr)"))
            }
            // The report names its showcase product in "itemaudit product GTIN".
            guard let range = output.stdout.range(of: #"itemaudit product (\d{14})"#, options: .regularExpression)
            else { return .failure(Failure(description: "the demo report names no product:\n\(output.stdout)")) }
            let gtin = String(output.stdout[range].suffix(14))
            return .success(Demo(directory: directory, output: output, gtin: gtin))
        } catch {
            return .failure(Failure(description: "cannot run itemaudit demo: \(error)"))
        }
    }

    private static func removeDirectory() {
        try? FileManager.default.removeItem(
            at: FileManager.default.temporaryDirectory
                .appendingPathComponent("itemaudit-e2e-demo-\(ProcessInfo.processInfo.processIdentifier)"))
    }

    /// A private copy of the demo's data directory, for a test that writes or damages it; remove it afterwards.
    static func copy() throws -> URL {
        let demo = try demo()
        let copy = try scratch().appendingPathComponent("data")
        try copyTolerantOfReaders(from: demo.directory, to: copy)
        return copy
    }

    /// Copies `source` file by file. Other tests read the shared demo while this runs, and SQLite
    /// deletes a `-wal` or `-shm` file when its last reader closes: one gone between listing and
    /// copying is left out (it held no change the database file lacks), any other missing file is an error.
    private static func copyTolerantOfReaders(from source: URL, to destination: URL) throws {
        let files = FileManager.default
        try files.createDirectory(at: destination, withIntermediateDirectories: true)
        let paths = files.enumerator(atPath: source.path)?.compactMap { $0 as? String } ?? []
        for path in paths {
            let from = source.appendingPathComponent(path)
            let to = destination.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: from.path, isDirectory: &isDirectory), isDirectory.boolValue {
                try files.createDirectory(at: to, withIntermediateDirectories: true)
                continue
            }
            do {
                try files.copyItem(at: from, to: to)
            } catch  where (path.hasSuffix("-wal") || path.hasSuffix("-shm")) && !files.fileExists(atPath: from.path) {
                continue
            }
        }
    }

    /// A new empty scratch directory; remove it afterwards.
    static func scratch() throws -> URL {
        try makeScratchDirectory(prefix: "itemaudit-e2e")
    }

    /// Every file under `directory` with its size, one per line, sorted: to show that nothing changed.
    ///
    /// SQLite's `-wal` and `-shm` files are left out: tests read the shared demo in parallel, and
    /// any reader running holds them open (empty of changes) until it exits, as a copy taken then does.
    static func listing(_ directory: URL) -> String {
        let files = (FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? [])
            .filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        return files.sorted().map { path in
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(path).path)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            let isDirectory = (attributes?[.type] as? FileAttributeType) == .typeDirectory
            return isDirectory ? "\(path)/" : "\(path) \(size)"
        }.joined(separator: "\n")
    }

    /// The head hash `verify --format json` prints for `directory`.
    static func headHash(_ directory: URL) throws -> String {
        let verify = try ItemAuditBinary.run(["verify", "--data", directory.path, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        return (object?["headHash"] as? String) ?? "no head hash (exit \(verify.status)): \(verify.stderr)"
    }
}
