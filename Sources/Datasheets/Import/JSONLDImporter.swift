/// Imports a GS1 Web Vocabulary JSON-LD document: one product object, an array of products, or an
/// object whose `@graph` holds the products.
///
/// Streams: a byte scanner finds where each product starts and ends, so only one product is held in
/// memory at a time (plus the document's `@context`). A product that is not valid JSON is reported
/// with its line and the scan continues with the next.
public struct JSONLDImporter: Sendable {
    /// Creates a value from its parts.
    public init() {}

    /// Reads `path` and calls `body` with each record in document order; stops when `body` returns false.
    public func read(path: String, _ body: (ImportRecord) -> Bool) throws(ImportIssue) {
        let reader = try ChunkReader(path: path)
        var scanner = Scanner()
        var flattener = ProductFlattener()
        var stop = false
        var offset = 0
        try reader.forEachChunk { chunk throws(ImportIssue) in
            for byte in chunk {
                offset += 1
                guard let event = scanner.feed(byte) else { continue }
                switch event {
                case .record(let bytes, let line):
                    let start = offset - bytes.count
                    stop = !body(
                        bytes.withUnsafeBufferPointer {
                            JSONLinesImporter.record($0, path, line, flattener, offset: start)
                        })
                case .header(let bytes):
                    // The document head up to `"@graph": [`; close it to read its @context.
                    if case .success(let head) = Result(catching: { () throws(JSONSyntaxError) in
                        try JSONParser.parse(bytes + Array("[]}".utf8))
                    }) {
                        flattener.learnContext(head["@context"])
                    }
                }
                if stop { return false }
            }
            return true
        }
        if !stop, let problem = scanner.finish() {
            _ = body(.failed(ImportIssue(file: path, line: scanner.line, message: problem)))
        }
    }

    /// Finds product boundaries in a JSON-LD document, one byte at a time.
    struct Scanner {
        enum Event {
            case record([UInt8], line: Int)
            case header([UInt8])
        }

        private enum Mode { case start, array, object, graph }
        private var mode = Mode.start
        private var depth = 0
        private var inString = false
        private var escaped = false
        private var buffer: [UInt8] = []
        private var recording = false
        private var recordLine = 1
        private var lastString: [UInt8] = []
        private var collectingString = false
        private(set) var line = 1

        /// Where records sit: depth 1 in a top-level array, 2 inside `@graph`.
        private var recordDepth: Int { mode == .graph ? 2 : 1 }

        mutating func feed(_ byte: UInt8) -> Event? {
            if byte == 0x0A { line += 1 }
            if mode == .object { buffer.append(byte) } else if recording { buffer.append(byte) }
            if inString {
                if collectingString, !escaped, byte != UInt8(ascii: "\"") { lastString.append(byte) }
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    collectingString = false
                }
                return nil
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                if mode == .object, depth == 1 {
                    collectingString = true
                    lastString.removeAll(keepingCapacity: true)
                }
                if mode != .object, !recording, depth == recordDepth { return startRecord(byte) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if mode == .start {
                    depth = 1
                    if byte == UInt8(ascii: "[") {
                        mode = .array
                    } else {
                        mode = .object
                        buffer = [byte]
                    }
                    return nil
                }
                if mode == .object, depth == 1, byte == UInt8(ascii: "["), lastString == Array("@graph".utf8) {
                    mode = .graph
                    depth = 2
                    let head = buffer.dropLast()
                    buffer = []
                    return .header(Array(head))
                }
                if mode != .object, !recording, depth == recordDepth {
                    depth += 1
                    return startRecord(byte)
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if mode == .object, depth == 0 {
                    let whole = buffer
                    buffer = []
                    mode = .array  // anything after is ignored: nothing sits at depth 1 any more
                    depth = -1
                    return .record(whole, line: 1)
                }
                if recording, depth == recordDepth {
                    recording = false
                    let record = buffer
                    buffer.removeAll(keepingCapacity: true)
                    return .record(record, line: recordLine)
                }
            case UInt8(ascii: ","):
                if recording, depth == recordDepth {
                    // A scalar element ended.
                    recording = false
                    let record = Array(buffer.dropLast())
                    buffer.removeAll(keepingCapacity: true)
                    return .record(record, line: recordLine)
                }
            default:
                if mode == .start, byte > 0x20 {
                    mode = .array
                    depth = 1
                    return startRecord(byte)
                }
                if mode != .object, mode != .start, !recording, depth == recordDepth, byte > 0x20 {
                    return startRecord(byte)
                }
            }
            return nil
        }

        private mutating func startRecord(_ byte: UInt8) -> Event? {
            recording = true
            recordLine = line
            buffer = [byte]
            return nil
        }

        /// A message when the document ended inside a value, else nil.
        mutating func finish() -> String? {
            // An empty document holds no datasheets, like an empty .jsonl or .csv (the importer says so).
            if mode == .start { return nil }
            if inString || depth > 0 || recording {
                return "the document ends inside a value (unbalanced brackets or an unterminated string); fix the file"
            }
            return nil
        }
    }
}
