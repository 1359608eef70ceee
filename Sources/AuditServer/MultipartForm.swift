import Foundation

/// The parts of a `multipart/form-data` body (RFC 7578): what a browser sends for a form with a
/// file field. Only what the rules page's upload needs: names, file names and contents.
struct MultipartForm: Sendable {
    /// One field of the form.
    struct Part: Sendable {
        var name: String
        /// Set for a file field.
        var filename: String?
        var content: [UInt8]
    }

    var parts: [Part]

    /// The text of the first field named `name`.
    func text(_ name: String) -> String? {
        parts.first { $0.name == name }.map { String(decoding: $0.content, as: UTF8.self) }
    }

    /// Why a body is not a form this parser reads.
    struct Malformed: Error, Sendable {
        var reason: String
    }

    /// The boundary of a `multipart/form-data; boundary=…` content type, or nil for any other type.
    static func boundary(contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() where piece.lowercased().hasPrefix("boundary=") {
            var value = String(piece.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty || value.utf8.count > 70 ? nil : value
        }
        return nil
    }

    /// Parses `body` split by `boundary`.
    init(body: [UInt8], boundary: String) throws(Malformed) {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        var parts: [Part] = []
        guard var position = Self.find(delimiter, in: body, from: 0) else {
            throw Malformed(reason: "the form has no part (no boundary line)")
        }
        while true {
            position += delimiter.count
            // "--" after the delimiter ends the body.
            if body.count >= position + 2, body[position] == 45, body[position + 1] == 45 { break }
            guard body.count >= position + 2, Array(body[position..<position + 2]) == crlf else {
                throw Malformed(reason: "a boundary line is not followed by a line break")
            }
            position += 2
            guard let headerEnd = Self.find(crlf + crlf, in: body, from: position) else {
                throw Malformed(reason: "a part has no end of headers")
            }
            let headers = String(decoding: body[position..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = Self.find(crlf + delimiter, in: body, from: contentStart) else {
                throw Malformed(reason: "a part is not closed by the boundary")
            }
            let (name, filename) = Self.disposition(headers)
            guard let name else { throw Malformed(reason: "a part has no Content-Disposition name") }
            parts.append(Part(name: name, filename: filename, content: Array(body[contentStart..<next])))
            position = next + 2
        }
        self.parts = parts
    }

    /// The `name` and `filename` of a part's `Content-Disposition: form-data; …` header.
    private static func disposition(_ headers: String) -> (name: String?, filename: String?) {
        for line in headers.split(separator: "\r\n") {
            let pieces = line.split(separator: ":", maxSplits: 1)
            guard pieces.count == 2, pieces[0].lowercased() == "content-disposition" else { continue }
            var name: String?
            var filename: String?
            for parameter in pieces[1].split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                var value = String(pair[1])
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                switch pair[0].lowercased() {
                case "name": name = value
                case "filename": filename = value
                default: break
                }
            }
            return (name, filename)
        }
        return (nil, nil)
    }

    /// The first index of `needle` in `haystack` at or after `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
