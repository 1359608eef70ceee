/// The image formats a stored photo may have, recognised by their leading bytes only (never by a
/// name or a declared type), before any decoder sees the bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    case png
    case heic

    /// The format the bytes start with; nil for anything else (GIF, WebP, text, an MP4).
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        switch PhotoStore.detectType(bytes) {
        case "image/jpeg"?: .jpeg
        case "image/png"?: .png
        case "image/heic"?: .heic
        default: nil
        }
    }

    /// The media type of this format's bytes.
    public var mediaType: String { "image/" + rawValue }

    /// The format a resized copy is written in: PNG keeps a PNG's transparency; a HEIC becomes
    /// a JPEG, which every browser shows.
    var resized: ImageFormat { self == .png ? .png : .jpeg }

    /// libvips' save suffix (with its options) for a resized copy in this format.
    var saveSuffix: String { self == .png ? ".png" : ".jpg[Q=80]" }
}
