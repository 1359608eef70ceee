import Foundation
import Logging
import NIOConcurrencyHelpers

/// The server's log lines on standard output, as swift-log's `StreamLogHandler` writes them
/// (`time level label : key=value … [source] message`), with the metadata formatted only when a
/// line is written.
///
/// `StreamLogHandler` formats its metadata again whenever a key is set, and Hummingbird sets a
/// request id on every request's logger: every request would pay for formatting metadata that, at
/// the server's usual level, no line prints.
public struct ServerLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let descriptor: Int32
    private static let output = NIOLock()

    /// A handler for the logger named `label`, writing to standard output (or `descriptor`).
    public init(label: String, descriptor: Int32 = STDOUT_FILENO) {
        self.label = label
        self.descriptor = descriptor
    }

    /// A handler for the logger named `label`, writing to standard output.
    public init(label: String) { self.init(label: label, descriptor: STDOUT_FILENO) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        let pairs = merged.sorted { $0.key < $1.key }.map { "\(Self.escaped($0.key))=\(Self.escaped("\($0.value)"))" }
            .joined(separator: " ")
        let text =
            "\(Self.timestamp()) \(event.level) \(label) :\(pairs.isEmpty ? "" : " " + pairs) [\(event.source)] \(Self.escaped("\(event.message)"))\n"
        // One write per line, unbuffered: lines of concurrent requests never interleave.
        let bytes = Array(text.utf8)
        Self.output.withLock {
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
                if result <= 0 { break }
                written += result
            }
        }
    }

    /// `text` with every control character written out (`\n`, `\u{1B}`), so a value from a request
    /// cannot end the line and forge the next one, nor drive a terminal.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
