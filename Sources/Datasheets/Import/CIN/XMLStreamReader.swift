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
///
/// Nothing is copied out of libxml2 unless the caller asks: an element's name comes as the
/// caller's `Name`, made once per distinct name (`makeName`) and found again by libxml2's interned
/// pointer; attributes are walked only when the caller wants them, and text is appended as bytes.
/// A file of millions of elements then costs no Swift string or dictionary per element.
final class XMLStreamReader<Name> {
    /// One node of the document, in document order.
    enum Node {
        /// An element opens; `isEmpty` for `<a/>` (no `end` follows). Its attributes are read with
        /// `nextAttribute()` before the next call to `next()`.
        case start(Name, isEmpty: Bool)
        /// Character data (text or CDATA) inside the current element: `appendText(to:)` copies it.
        case text
        /// An element closes.
        case end(Name)
    }

    /// Elements nested deeper than this are refused (GDSN messages stay well under 40 levels).
    static var maximumDepth: Int { 128 }

    private let reader: OpaquePointer
    private let file: String
    // The reader is used by one caller at a time and never hands these out, so the run-time
    // exclusivity checks (a class's stored properties get them on every access) are skipped.
    @exclusivity(unchecked) private var node = itemaudit_xml_node()
    @exclusivity(unchecked) private var names: NameTable
    /// The open elements (written `<a>`, not `<a/>`) with libxml2's pointer to each name: an end
    /// element is the node that opened, so its name comes back as the same pointer.
    @exclusivity(unchecked) private var open: [(pointer: UnsafePointer<CChar>?, name: Name)] = []

    /// Opens `path` (`-`: standard input); throws naming the file when it cannot be opened.
    /// `makeName` turns an element's local name into the caller's `Name`, once per distinct name.
    init(path: String, makeName: @escaping (String) -> Name) throws(ImportIssue) {
        file = path
        names = NameTable(makeName: makeName)
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
            if let line = XMLDocumentType.line(path: path) { throw XMLDocumentType.refused(file: path, line: line) }
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
            let status = itemaudit_xml_reader_next_node(reader, &node)
            if status == 0 { return nil }
            if status < 0 { throw syntaxError() }
            switch node.kind {
            case ITEMAUDIT_XML_DOCUMENT_TYPE_OR_ENTITY:
                throw XMLDocumentType.refused(file: file, line: line)
            case ITEMAUDIT_XML_ELEMENT:
                if Int(node.depth) >= Self.maximumDepth {
                    throw ImportIssue(
                        file: file, line: line,
                        message: "elements nested deeper than \(Self.maximumDepth) levels; this is not a GDSN message")
                }
                let name = names.name(node.local_name)
                let isEmpty = node.is_empty == 1
                if !isEmpty { open.append((node.local_name, name)) }
                return .start(name, isEmpty: isEmpty)
            case ITEMAUDIT_XML_TEXT:
                return .text
            case ITEMAUDIT_XML_END_ELEMENT:
                if let opened = open.popLast(), opened.pointer == node.local_name { return .end(opened.name) }
                return .end(names.name(node.local_name))
            default:
                continue
            }
        }
    }

    /// On a `.start`: moves to the element's next attribute (the first, the first time); false
    /// when there is none left. Then `moveToElement()` if there was any.
    func nextAttribute() -> Bool { itemaudit_xml_reader_move_to_next_attribute(reader) == 1 }

    /// After `nextAttribute()` returned true: whether that attribute's local name is `name`,
    /// compared as bytes.
    func attributeNameIs(_ name: StaticString) -> Bool {
        guard let local = itemaudit_xml_reader_local_name(reader) else { return false }
        let count = name.utf8CodeUnitCount
        let matches = name.withUTF8Buffer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { strncmp(local, $0.baseAddress!, count) == 0 }
        }
        return matches && local[count] == 0
    }

    /// After `nextAttribute()` returned true: that attribute's value.
    func attributeValue() -> String {
        guard let value = itemaudit_xml_reader_value(reader) else { return "" }
        return String(cString: value)
    }

    /// After `nextAttribute()` returned false for an element that had attributes: back on the element.
    func moveToElement() { itemaudit_xml_reader_move_to_element(reader) }

    /// On a `.text`: appends the text's UTF-8 bytes to `buffer`.
    func appendText(to buffer: inout [UInt8]) {
        guard let value = itemaudit_xml_reader_value(reader) else { return }
        buffer.append(contentsOf: UnsafeRawBufferPointer(start: value, count: strlen(value)))
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
            return XMLDocumentType.refused(file: file, line: Int(errorLine))
        }
        while message.last == "\n" || message.last == " " { message.removeLast() }
        return ImportIssue(
            file: file, line: errorLine > 0 ? Int(errorLine) : line,
            message: "not well-formed XML at column \(column): \(message); fix the file from there (items before it were read)")
    }

    /// Element names seen so far, found by libxml2's pointer to the name (libxml2 interns names in
    /// its dictionary, so one name comes back as one pointer) and confirmed by its bytes, so a
    /// pointer that ever meant another name cannot return the wrong one. Open addressing over a
    /// power-of-two table; emptied when half full, so a file of endless distinct names stays bounded.
    private struct NameTable {
        struct Entry {
            var pointer: UnsafePointer<CChar>
            var bytes: [CChar]
            var name: Name
        }

        static var capacity: Int { 1024 }
        let makeName: (String) -> Name
        var slots: [Entry?] = Array(repeating: nil, count: Self.capacity)
        var count = 0

        init(makeName: @escaping (String) -> Name) { self.makeName = makeName }

        mutating func name(_ pointer: UnsafePointer<CChar>?) -> Name {
            guard let pointer else { return makeName("") }
            let mask = Self.capacity - 1
            var slot = Int(truncatingIfNeeded: ((UInt(bitPattern: pointer) >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 54) & mask
            while let entry = slots[slot] {
                if entry.pointer == pointer, entry.bytes.withUnsafeBufferPointer({ strcmp($0.baseAddress!, pointer) == 0 }) {
                    return entry.name
                }
                slot = (slot + 1) & mask
            }
            let string = String(cString: pointer)
            let name = makeName(string)
            if count >= Self.capacity / 2 {
                slots = Array(repeating: nil, count: Self.capacity)
                count = 0
                slot = Int(truncatingIfNeeded: ((UInt(bitPattern: pointer) >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 54) & mask
            }
            let length = strlen(pointer)
            slots[slot] = Entry(
                pointer: pointer, bytes: Array(UnsafeBufferPointer(start: pointer, count: length + 1)), name: name)
            count += 1
            return name
        }
    }
}

/// The refusal of a document type declaration, and the look at a file's prolog that finds one.
enum XMLDocumentType {
    /// The refusal of a document type declaration (or entities), the same wherever it is found.
    static func refused(file: String, line: Int) -> ImportIssue {
        ImportIssue(
            file: file, line: line,
            message:
                "the XML declares a document type (<!DOCTYPE …>) or entities, which GDSN messages never do and ItemAudit refuses (nothing was fetched or expanded); remove the declaration"
        )
    }

    /// The line of a `<!DOCTYPE` in the prolog of a file, if there is one. libxml2 reports the
    /// document type node only after parsing the internal subset, so the prolog is looked at first:
    /// a declaration is refused before any of it is parsed.
    static func line(path: String) -> Int? {
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
}
