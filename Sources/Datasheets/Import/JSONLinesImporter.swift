/// Imports JSON Lines: one JSON-LD product object per line (blank lines skipped).
///
/// Streams in 1 MiB chunks; memory is bounded by the longest line. A line that is not valid JSON is
/// reported with its file and line and the import goes on with the next line.
public struct JSONLinesImporter: Sendable {
    /// Lines longer than this are reported as malformed rather than buffered.
    public var maximumLineLength = 16 << 20

    /// Creates a value from its parts.
    public init() {}

    /// Reads `path` and calls `body` with each record in file order; stops early when `body` returns false.
    public func read(path: String, _ body: (ImportRecord) -> Bool) throws(ImportIssue) {
        let reader: ChunkReader
        do throws(ImportIssue) { reader = try ChunkReader(path: path) } catch { throw error }
        var pending: [UInt8] = []
        var lineNumber = 0
        var overlong = false
        let flattener = ProductFlattener()
        var stop = false
        // File offsets: where the current chunk starts, and where the pending (partial) line starts.
        var chunkOffset = 0
        var pendingOffset = 0
        func handle(_ line: UnsafeBufferPointer<UInt8>, at lineOffset: Int) {
            lineNumber += 1
            if overlong {
                overlong = false
                stop = !body(
                    .failed(
                        ImportIssue(
                            file: path, line: lineNumber,
                            message: "line longer than \(maximumLineLength) bytes; split the record")))
                return
            }
            var start = 0
            var end = line.count
            while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
            while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x0D || line[end - 1] == 0x09 { end -= 1 }
            if start == end { return }
            stop = !body(
                Self.record(
                    UnsafeBufferPointer(rebasing: line[start..<end]), path, lineNumber, flattener,
                    offset: lineOffset + start))
        }
        try reader.forEachChunk { chunk throws(ImportIssue) in
            var lineStart = 0
            for index in 0..<chunk.count where chunk[index] == 0x0A {
                if pending.isEmpty {
                    handle(UnsafeBufferPointer(rebasing: chunk[lineStart..<index]), at: chunkOffset + lineStart)
                } else {
                    pending.append(contentsOf: chunk[lineStart..<index])
                    pending.withUnsafeBufferPointer { handle($0, at: pendingOffset) }
                    pending.removeAll(keepingCapacity: pending.capacity < 1 << 20)
                }
                lineStart = index + 1
                if stop { return false }
            }
            if pending.isEmpty { pendingOffset = chunkOffset + lineStart }
            if !overlong { pending.append(contentsOf: chunk[lineStart..<chunk.count]) }
            chunkOffset += chunk.count
            if pending.count > maximumLineLength {
                overlong = true
                pending = []
            }
            return true
        }
        if !stop, !pending.isEmpty || overlong { pending.withUnsafeBufferPointer { handle($0, at: pendingOffset) } }
    }

    /// One record's datasheet, or why it cannot be read; `offset` is the file offset of its first
    /// byte (to name a byte that is not UTF-8).
    static func record(
        _ bytes: UnsafeBufferPointer<UInt8>, _ file: String, _ line: Int, _ flattener: ProductFlattener, offset: Int
    ) -> ImportRecord {
        if let bad = UTF8Validator.firstInvalid(in: bytes, base: offset) {
            let before = UnsafeBufferPointer(rebasing: bytes[..<(bad.offset - offset)])
            let badLine = line + before.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            return .failed(
                ImportIssue(
                    file: file, line: badLine, message: UTF8Validator.message(offset: bad.offset, byte: bad.byte)))
        }
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(bytes)
        } catch {
            return .failed(
                ImportIssue(
                    file: file, line: line + error.line - 1,
                    message: "not valid JSON: \(error.message) at column \(error.column); fix or remove the record"))
        }
        let (attributes, issues) = flattener.flatten(value, file: file, line: line)
        if case .object = value {
            return .datasheet(
                Datasheet(uniqueAttributes: attributes, source: SourceLocation(file: file, line: line)),
                issues: issues)
        }
        return .failed(issues.first ?? ImportIssue(file: file, line: line, message: "not a product object"))
    }
}
