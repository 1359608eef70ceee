import AuditService
import Foundation

extension PageLinks {
    /// The address of `page` with the query `parameters` (empty values left out).
    func page(_ page: PageName, _ parameters: [String: String] = [:]) -> String {
        switch self {
        case .server(let basePath):
            return basePath + "/" + page.rawValue + Self.query(parameters)
        case .staticFiles:
            return Self.fileName(page, parameters) + ".html"
        }
    }

    /// The address of table `table` of `page` as CSV.
    func csv(_ page: PageName, table: String, _ parameters: [String: String] = [:]) -> String {
        switch self {
        case .server(let basePath):
            var query = parameters
            query["format"] = "csv"
            query["table"] = table
            return basePath + "/" + page.rawValue + Self.query(query)
        case .staticFiles:
            return Self.fileName(page, parameters) + "-" + table + ".csv"
        }
    }

    /// The address of a stored photo: the server's `/photos/{sha256}` (behind the session), or in a
    /// static report the file ``photoFile(sha256:contentType:)`` names, beside the pages.
    func photo(sha256: String, contentType: String) -> String {
        switch self {
        case .server(let basePath): basePath + "/photos/" + sha256
        case .staticFiles: Self.photoFile(sha256: sha256, contentType: contentType)
        }
    }

    /// `photos/<sha256>.jpg` (`.png`, `.heic`): where a static report keeps a photo.
    public static func photoFile(sha256: String, contentType: String) -> String {
        let ext =
            switch contentType {
            case "image/png": "png"
            case "image/heic": "heic"
            default: "jpg"
            }
        return "photos/" + sha256 + "." + ext
    }

    /// Where the login form posts (the server's route).
    var login: String {
        switch self {
        case .server(let basePath): basePath + "/login"
        case .staticFiles: "login"
        }
    }

    /// Where the logout form posts.
    var logout: String {
        switch self {
        case .server(let basePath): basePath + "/logout"
        case .staticFiles: "logout"
        }
    }

    /// Whether links are files beside the page (no forms can be sent).
    var isStatic: Bool {
        if case .staticFiles = self { return true }
        return false
    }

    /// `?a=1&b=2`, sorted by name, percent-encoded; "" without parameters.
    static func query(_ parameters: [String: String]) -> String {
        let items = parameters.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        guard !items.isEmpty else { return "" }
        return "?" + items.map { "\(encode($0.key))=\(encode($0.value))" }.joined(separator: "&")
    }

    /// `text` with every byte but the unreserved ones (RFC 3986: letters, digits, `-._~`)
    /// written `%XX`. Byte by byte, as a page writes one link per table row.
    static func encode(_ text: String) -> String {
        guard !text.utf8.allSatisfy(isUnreserved) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// A static page's file name without extension: `index` for the dashboard, else the page's
    /// name and its parameters sorted by name (`product-gtin-00041771989804`); a character other
    /// than a letter, digit or `_` is written `~XX` (its UTF-8 bytes in hex). The period and
    /// as-of (`from`, `to`, `as-of`) are left out: one static report has one.
    public static func fileName(_ page: PageName, _ parameters: [String: String]) -> String {
        let items = parameters.filter { !$0.value.isEmpty && !reportWide.contains($0.key) }.sorted { $0.key < $1.key }
        if page == .dashboard, items.isEmpty { return "index" }
        var name = page.rawValue
        for (key, value) in items { name += "-" + safe(key) + "-" + safe(value) }
        return name
    }

    /// The parameters a static report shares across its pages.
    static let reportWide: Set<String> = ["from", "to", "as-of"]

    private static func safe(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "~" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
