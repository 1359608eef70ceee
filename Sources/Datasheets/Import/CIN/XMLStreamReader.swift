import CLibXML2Shim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A safe pull reader over libxml2's `xmlTextReader` (through the C target CLibXML2Shim, so that
/// Swift never imports libxml2's headers and the system ICU headers they include): one node at a
/// time, so memory is bounded by the deepest open element, never by the file.
///
/// Safe by construction: no network (`XML_PARSE_NONET`), no entity substitution (no `NOENT`), no
/// external DTD loading (no `DTDLOAD`), and a document type declaration is refused outright, since
/// GDSN messages never carry one and it is how entity expansion attacks arrive. Depth is bounded.
/// A final class because it owns the libxml2 reader, freed exactly once in `deinit`.
final class XMLStreamReader {
    /// One node of the document, in document order.
    enum Node {
        /// An element opens; `attributes` by local name; `isEmpty` for `<a/>` (no `end` follows).
        case start(name: String, attributes: [String: String], isEmpty: Bool)
        /// Character data (text or CDATA) inside the current element.
        case text(String)
        /// An element closes.
        case end(name: String)
    }

    /// Elements nested deeper than this are refused (GDSN messages stay well under 40 levels).
    static let maximumDepth = 128

    private let reader: OpaquePointer
    private let file: String

    /// Opens `path` (`-`: standard input); throws naming the file when it cannot be opened.
    init(path: String) throws(ImportIssue) {
        file = path
        // The shim opens with no network, no entity substitution, no DTD loading, and CDATA as text.
        let opened: OpaquePointer?
        if path == "-" {
            opened = itemaudit_xml_reader_open_fd(STDIN_FILENO)
        } else {
            guard access(path, R_OK) == 0 else {
                throw ImportIssue(
                    file: path, line: 0,
                    message: "cannot open the file (\(String(cString: strerror(errno)))); check the path and permissions")
            }
            if let line = Self.documentTypeLine(path: path) { throw Self.documentTypeRefused(file: path, line: line) }
            opened = itemaudit_xml_reader_open_file(path)
        }
        guard let opened else {
            throw ImportIssue(file: path, line: 0, message: "cannot open the file as XML; check the path and permissions")
        }
        reader = opened
    }

    deinit { itemaudit_xml_reader_free(reader) }

    /// The line the reader is on (1-based), for naming where a record starts.
    var line: Int { Int(itemaudit_xml_reader_line(reader)) }

    /// The next node, nil at the end of the document; throws an issue with file, line and column
    /// for a syntax error, a document type declaration or too deep a nesting.
    func next() throws(ImportIssue) -> Node? {
        while true {
            let status = itemaudit_xml_reader_read(reader)
            if status == 0 { return nil }
            if status < 0 { throw syntaxError() }
            switch itemaudit_xml_reader_node_kind(reader) {
            case ITEMAUDIT_XML_DOCUMENT_TYPE_OR_ENTITY:
                throw Self.documentTypeRefused(file: file, line: line)
            case ITEMAUDIT_XML_ELEMENT:
                if Int(itemaudit_xml_reader_depth(reader)) >= Self.maximumDepth {
                    throw ImportIssue(
                        file: file, line: line,
                        message: "elements nested deeper than \(Self.maximumDepth) levels; this is not a GDSN message")
                }
                let name = string(itemaudit_xml_reader_local_name(reader))
                let isEmpty = itemaudit_xml_reader_is_empty_element(reader) == 1
                var attributes: [String: String] = [:]
                if itemaudit_xml_reader_move_to_next_attribute(reader) == 1 {
                    repeat {
                        attributes[string(itemaudit_xml_reader_local_name(reader))] = string(itemaudit_xml_reader_value(reader))
                    } while itemaudit_xml_reader_move_to_next_attribute(reader) == 1
                    itemaudit_xml_reader_move_to_element(reader)
                }
                return .start(name: name, attributes: attributes, isEmpty: isEmpty)
            case ITEMAUDIT_XML_TEXT:
                return .text(string(itemaudit_xml_reader_value(reader)))
            case ITEMAUDIT_XML_END_ELEMENT:
                return .end(name: string(itemaudit_xml_reader_local_name(reader)))
            default:
                continue
            }
        }
    }

    /// The refusal of a document type declaration (or entities), the same wherever it is found.
    static func documentTypeRefused(file: String, line: Int) -> ImportIssue {
        ImportIssue(
            file: file, line: line,
            message:
                "the XML declares a document type (<!DOCTYPE …>) or entities, which GDSN messages never do and ItemAudit refuses (nothing was fetched or expanded); remove the declaration"
        )
    }

    /// The line of a `<!DOCTYPE` in the prolog of a file, if there is one. libxml2 reports the
    /// document type node only after parsing the internal subset, so the prolog is looked at first:
    /// a declaration is refused before any of it is parsed.
    static func documentTypeLine(path: String) -> Int? {
        guard let reader = try? ChunkReader(path: path, chunkSize: 1 << 16) else { return nil }
        var found: Int?
        try? reader.forEachChunk { chunk in
            let marker = Array("<!DOCTYPE".utf8)
            var line = 1
            var index = 0
            while index < chunk.count {
                let byte = chunk[index]
                if byte == 0x0A { line += 1 }
                if byte == UInt8(ascii: "<"), index + 1 < chunk.count {
                    let next = chunk[index + 1]
                    // The root element starts: the prolog is over.
                    if next != UInt8(ascii: "?") && next != UInt8(ascii: "!") { return false }
                    if index + marker.count <= chunk.count,
                        zip(marker, chunk[index..<(index + marker.count)]).allSatisfy({ $0 == $1 })
                    {
                        found = line
                        return false
                    }
                }
                index += 1
            }
            return false
        }
        return found
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// The parser's last error as an issue with its line and column.
    private func syntaxError() -> ImportIssue {
        var errorLine: Int32 = 0
        var column: Int32 = 0
        var fromParser: Int32 = 0
        var text: UnsafePointer<CChar>?
        guard itemaudit_xml_last_error(&errorLine, &column, &fromParser, &text) == 1 else {
            return ImportIssue(file: file, line: line, message: "not well-formed XML; fix the file and send it again")
        }
        var message = text.map { String(cString: $0) } ?? "not well-formed XML"
        if fromParser == 1, message.lowercased().contains("entity") {
            // Standard input is not looked at before parsing: an entity error there is the same refusal.
            return Self.documentTypeRefused(file: file, line: Int(errorLine))
        }
        while message.last == "\n" || message.last == " " { message.removeLast() }
        return ImportIssue(
            file: file, line: errorLine > 0 ? Int(errorLine) : line,
            message: "not well-formed XML at column \(column): \(message); fix the file from there (items before it were read)")
    }
}
