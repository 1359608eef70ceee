import Datasheets
import Foundation
import Rules

/// `itemaudit bench rules`: every built-in rule set on generated ~70-attribute datasheets, one core.
///
/// - `check`: datasheets checked per second (engine only, datasheets already in memory). Baseline:
///   Foundation `JSONSerialization` merely parsing the same datasheets as JSON lines, per second.
/// - `import-check`: a JSON Lines file imported (streaming) and checked, datasheets per second.
///   Baseline: `JSONSerialization` parsing the same file's lines (no flattening, no checking).
/// - `import-check-mb`: the same in MB of JSON per second; `memory`: peak resident set (VmHWM) in MB
///   during the streaming import and check, after resetting the peak.
/// - `cin-*`: the same generated datasheets as a GDSN CIN file (`CINImportBenchmark`).
public struct RulesBenchmark: Sendable {
    /// Distinct generated datasheets to check (cycled).
    public var datasheets: Int
    /// Size of the JSON Lines file for `import-check`, in bytes.
    public var importBytes: Int
    /// Where the temporary file goes; removed afterwards.
    public var directory: URL
    /// Size of the GDSN CIN file for the `cin-*` figures, in bytes.
    public var cinBytes: Int
    /// The xmllint the CIN import is compared with.
    public var xmllint: String

    /// Creates the benchmark; `importBytes` or `cinBytes` of 1 << 30 is the 1 GB run.
    public init(
        datasheets: Int = 5000, importBytes: Int = 64 << 20, directory: URL = FileManager.default.temporaryDirectory,
        cinBytes: Int = 64 << 20, xmllint: String = "xmllint"
    ) {
        self.datasheets = datasheets
        self.importBytes = importBytes
        self.directory = directory
        self.cinBytes = cinBytes
        self.xmllint = xmllint
    }

    /// Runs it and returns the results (throws when the rules do not compile or the file cannot be written).
    public func run() throws -> [BenchmarkResult] {
        let engine = try BuiltInRuleSets.engine()
        var results: [BenchmarkResult] = []
        var lines: [String] = []
        do {
            var generator = DatasheetGenerator(seed: 20_261_122, defectRate: 0.1)
            let sheets = (0..<datasheets).map { _ in generator.next() }
            lines = sheets.map(DatasheetJSONWriter.jsonLine)
            let checkRate = Self.rate(minimumSeconds: 2) { budget in
                var count = 0
                var failures = 0
                while count < budget {
                    for sheet in sheets {
                        if engine.check(sheet).verdict == .failure { failures += 1 }
                    }
                    count += sheets.count
                }
                return (count, failures)
            }
            let lineData = lines.map { Data($0.utf8) }
            let parseRate = Self.rate(minimumSeconds: 1) { budget in
                var count = 0
                var objects = 0
                while count < budget {
                    for data in lineData where (try? JSONSerialization.jsonObject(with: data)) != nil { objects += 1 }
                    count += lineData.count
                }
                return (count, objects)
            }
            results.append(BenchmarkResult(name: "check", value: checkRate, unit: "datasheets/s", baseline: parseRate))
        }
        let file = directory.appendingPathComponent("itemaudit-bench-\(UInt64.random(in: 0...UInt64.max)).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.write(lines: lines, bytes: importBytes, to: file)
        lines = []
        let size = Double((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? importBytes)
        Self.resetPeakMemory()
        var imported = 0
        var failed = 0
        let start = DispatchTime.now().uptimeNanoseconds
        try DatasheetImporter.read(path: file.path, format: .jsonl) { record in
            if case .datasheet(let sheet, _) = record {
                imported += 1
                if engine.check(sheet).verdict == .failure { failed += 1 }
            }
            return true
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let peak = Self.peakMemoryMB()
        let baselineRate = try Self.foundationParseRate(file: file, limitBytes: min(importBytes, 256 << 20))
        results.append(
            BenchmarkResult(
                name: "import-check", value: Double(imported) / seconds, unit: "datasheets/s", baseline: baselineRate))
        results.append(
            BenchmarkResult(name: "import-check-mb", value: size / seconds / 1e6, unit: "MB/s", baseline: nil))
        results.append(BenchmarkResult(name: "memory", value: peak, unit: "MB peak (VmHWM)", baseline: nil))
        results.append(
            BenchmarkResult(name: "import-check-datasheets", value: Double(imported), unit: "datasheets", baseline: nil)
        )
        _ = failed
        // The same datasheets again (same seed) rather than kept from above, so the JSON Lines
        // figures' peak memory does not carry them.
        var generator = DatasheetGenerator(seed: 20_261_122, defectRate: 0.1)
        let sheets = (0..<datasheets).map { _ in generator.next() }
        results += try CINImportBenchmark(sheets: sheets, bytes: cinBytes, directory: directory, xmllint: xmllint).run()
        return results
    }

    /// Runs `body` with growing budgets until it takes `minimumSeconds`; returns items per second.
    static func rate(minimumSeconds: Double, _ body: (Int) -> (count: Int, sink: Int)) -> Double {
        var budget = 1000
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            let (count, sink) = body(budget)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if seconds >= minimumSeconds || budget > 1 << 30 {
                return sink >= 0 ? Double(count) / seconds : 0
            }
            budget = Int(Double(budget) * min(100, max(2, minimumSeconds * 1.2 / max(seconds, 1e-6))))
        }
    }

    /// Writes `lines` cycled to `bytes` bytes, in 8 MiB writes.
    static func write(lines: [String], bytes: Int, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else {
            throw BenchmarkError(message: "cannot create \(file.path) (check that the directory is writable)")
        }
        defer { try? handle.close() }
        var written = 0
        var buffer = Data()
        buffer.reserveCapacity(9 << 20)
        var index = 0
        while written < bytes {
            buffer.append(contentsOf: lines[index % lines.count].utf8)
            buffer.append(0x0A)
            index += 1
            if buffer.count >= 8 << 20 {
                try handle.write(contentsOf: buffer)
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try handle.write(contentsOf: buffer) }
    }

    /// Lines per second Foundation's JSONSerialization parses from the first `limitBytes` of the file.
    static func foundationParseRate(file: URL, limitBytes: Int) throws -> Double {
        guard let handle = try? FileHandle(forReadingFrom: file) else {
            throw BenchmarkError(message: "cannot read \(file.path)")
        }
        defer { try? handle.close() }
        let data = handle.readData(ofLength: limitBytes)
        let start = DispatchTime.now().uptimeNanoseconds
        var count = 0
        var lineStart = data.startIndex
        for index in data.indices where data[index] == 0x0A {
            if (try? JSONSerialization.jsonObject(with: data[lineStart..<index])) != nil { count += 1 }
            lineStart = index + 1
        }
        return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Resets the kernel's peak-RSS counter (Linux: writing 5 to /proc/self/clear_refs).
    static func resetPeakMemory() {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
    }

    /// VmHWM from /proc/self/status, in MB (0 where there is no /proc).
    static func peakMemoryMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
            return digits / 1024
        }
        return 0
    }
}

/// A benchmark that could not run: what went wrong and what to do.
public struct BenchmarkError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public var message: String
    /// The message.
    public var description: String { message }
}
