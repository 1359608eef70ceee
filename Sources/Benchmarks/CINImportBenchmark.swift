import Datasheets
import Foundation

/// The GDSN CIN case of `bench rules`: generated datasheets written as one Catalogue Item
/// Notification file (`CINWriter`, cycled to the size asked), then imported, streaming.
///
/// - `cin-import-mb`: MB of XML per second through `CINImporter` (parse and map, no rules).
///   Baseline: libxml2's own `xmllint --stream --noout` reading the same file in the same run, the
///   floor for any importer built on libxml2's reader.
/// - `cin-import`: datasheets per second. Baseline: the same datasheets, in the same order, as a
///   JSON Lines file through `JSONLinesImporter`.
/// - `cin-memory`: peak resident set (VmHWM) in MB during the CIN import, after resetting the peak.
struct CINImportBenchmark {
    /// Distinct datasheets, cycled to fill the file.
    var sheets: [Datasheet]
    /// Size of the CIN file, in bytes (at least one datasheet is written).
    var bytes: Int
    /// Where both files go; removed afterwards.
    var directory: URL
    /// The xmllint to run (a name looked up on PATH, or a path).
    var xmllint: String

    func run() throws -> [BenchmarkResult] {
        let stem = directory.appendingPathComponent("itemaudit-bench-cin-\(UInt64.random(in: 0...UInt64.max))")
        let cinFile = stem.appendingPathExtension("xml")
        let jsonlFile = stem.appendingPathExtension("jsonl")
        defer {
            try? FileManager.default.removeItem(at: cinFile)
            try? FileManager.default.removeItem(at: jsonlFile)
        }
        let count = try writeFiles(cin: cinFile, jsonl: jsonlFile)
        let size = Double((try? FileManager.default.attributesOfItem(atPath: cinFile.path)[.size] as? Int) ?? bytes)

        RulesBenchmark.resetPeakMemory()
        let (cinRead, cinSeconds) = try Self.importCount(cinFile, format: .xml)
        let peak = RulesBenchmark.peakMemoryMB()
        guard cinRead == count else {
            throw BenchmarkError(message: "the CIN import read \(cinRead) datasheets of the \(count) written (\(cinFile.path))")
        }
        let xmllintSeconds = try runXmllint(cinFile)
        let (jsonlRead, jsonlSeconds) = try Self.importCount(jsonlFile, format: .jsonl)
        guard jsonlRead == count else {
            throw BenchmarkError(message: "the JSON Lines import read \(jsonlRead) datasheets of the \(count) written")
        }
        return [
            BenchmarkResult(
                name: "cin-import-mb", value: size / cinSeconds / 1e6, unit: "MB/s", baseline: size / xmllintSeconds / 1e6),
            BenchmarkResult(
                name: "cin-import", value: Double(count) / cinSeconds, unit: "datasheets/s",
                baseline: Double(count) / jsonlSeconds),
            BenchmarkResult(name: "cin-memory", value: peak, unit: "MB peak (VmHWM)", baseline: nil),
            BenchmarkResult(name: "cin-file-mb", value: size / 1e6, unit: "MB", baseline: nil),
            BenchmarkResult(name: "cin-datasheets", value: Double(count), unit: "datasheets", baseline: nil),
        ]
    }

    /// Writes the CIN file to `bytes` and the same datasheets, in the same order, as JSON Lines;
    /// returns how many datasheets each holds.
    private func writeFiles(cin: URL, jsonl: URL) throws -> Int {
        guard !sheets.isEmpty else { throw BenchmarkError(message: "no datasheets to write") }
        let cinOut = try Self.output(cin)
        defer { try? cinOut.close() }
        let jsonlOut = try Self.output(jsonl)
        defer { try? jsonlOut.close() }
        let transactions = sheets.enumerated().map { CINWriter.transaction($1, number: $0 + 1).xml }
        let lines = sheets.map { DatasheetJSONWriter.jsonLine($0) + "\n" }
        var cinBuffer = Data(CINWriter.header.utf8)
        var jsonlBuffer = Data()
        var written = cinBuffer.count
        var count = 0
        while written < bytes || count == 0 {
            let transaction = transactions[count % transactions.count]
            cinBuffer.append(contentsOf: transaction.utf8)
            jsonlBuffer.append(contentsOf: lines[count % lines.count].utf8)
            written += transaction.utf8.count
            count += 1
            if cinBuffer.count >= 8 << 20 {
                try cinOut.write(contentsOf: cinBuffer)
                try jsonlOut.write(contentsOf: jsonlBuffer)
                cinBuffer.removeAll(keepingCapacity: true)
                jsonlBuffer.removeAll(keepingCapacity: true)
            }
        }
        cinBuffer.append(contentsOf: CINWriter.footer.utf8)
        try cinOut.write(contentsOf: cinBuffer)
        try jsonlOut.write(contentsOf: jsonlBuffer)
        return count
    }

    private static func output(_ file: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else {
            throw BenchmarkError(message: "cannot create \(file.path) (check that the directory is writable)")
        }
        return handle
    }

    /// Imports `file` (no rules), returning the datasheets read and the seconds it took.
    private static func importCount(_ file: URL, format: DatasheetFormat) throws -> (Int, Double) {
        var read = 0
        let start = DispatchTime.now().uptimeNanoseconds
        try DatasheetImporter.read(path: file.path, format: format) { record in
            if case .datasheet = record { read += 1 }
            return true
        }
        return (read, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Seconds `xmllint --stream --noout FILE` takes; throws when it is missing or finds an error.
    private func runXmllint(_ file: URL) throws -> Double {
        let process = Process()
        if xmllint.contains("/") {
            process.executableURL = URL(fileURLWithPath: xmllint)
            process.arguments = ["--stream", "--noout", file.path]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [xmllint, "--stream", "--noout", file.path]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try process.run()
        } catch {
            throw BenchmarkError(message: "cannot run \(xmllint) (\(error)); install libxml2-utils (tools/setup)")
        }
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(
                message:
                    "\(xmllint) --stream --noout exited \(process.terminationStatus) on the generated CIN file (127: not installed; install libxml2-utils, tools/setup)"
            )
        }
        return seconds
    }
}
