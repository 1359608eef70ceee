import CVipsShim

/// Image resizing over the system libvips, opened on first use (CVipsShim).
///
/// Only what the photo route needs: an image's size from its header, and a shrunk copy. libvips
/// is started once per process with its untrusted loaders blocked; every call sniffs the bytes
/// first, so no decoder but JPEG's, PNG's and HEIC's ever sees them.
public enum Vips {
    /// The most pixels a photo may have to be decoded: a 48-megapixel phone's photos and then some;
    /// a small file claiming more (a decompression bomb) is refused from its header.
    public static let defaultPixelLimit = 64_000_000

    /// Whether libvips started (once, on first use).
    private static let started: Bool = itemaudit_vips_start() == 0

    /// The image's width and height, read from its header without decoding it.
    public static func size(of bytes: [UInt8]) throws(PhotoResizeError) -> (width: Int, height: Int) {
        guard ImageFormat.sniff(bytes) != nil else { throw .unsupportedFormat }
        guard started else { throw .failed("libvips 8.13 or later (Debian: libvips42) could not be opened or started") }
        var width: Int32 = 0
        var height: Int32 = 0
        var error = [CChar](repeating: 0, count: errorCapacity)
        let status = bytes.withUnsafeBytes {
            itemaudit_vips_header_size($0.baseAddress, $0.count, &width, &height, &error, error.count)
        }
        guard status == 0 else { throw .failed(message(error)) }
        return (Int(width), Int(height))
    }

    /// The image shrunk to fit `longestEdge` on both sides (never enlarged), turned upright, without
    /// its metadata (a phone's location), as a JPEG (a PNG stays a PNG); refused over `pixelLimit`.
    public static func thumbnail(
        _ bytes: [UInt8], longestEdge: Int, pixelLimit: Int = defaultPixelLimit
    ) throws(PhotoResizeError) -> (bytes: [UInt8], format: ImageFormat) {
        guard let format = ImageFormat.sniff(bytes) else { throw .unsupportedFormat }
        let (width, height) = try size(of: bytes)
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= pixelLimit,
            width <= pixelLimit, height <= pixelLimit
        else { throw .tooManyPixels(width: width, height: height, limit: pixelLimit) }
        var output: UnsafeMutableRawPointer?
        var outputLength = 0
        var error = [CChar](repeating: 0, count: errorCapacity)
        let status = bytes.withUnsafeBytes { source in
            format.resized.saveSuffix.withCString { suffix in
                itemaudit_vips_thumbnail(
                    source.baseAddress, source.count, Int32(longestEdge), suffix, &output, &outputLength, &error,
                    error.count)
            }
        }
        guard status == 0, let output else { throw .failed(message(error)) }
        defer { itemaudit_vips_free(output) }
        return ([UInt8](UnsafeRawBufferPointer(start: output, count: outputLength)), format.resized)
    }

    /// How much of libvips' message is kept: its first line, short (it is shown to the client).
    private static let errorCapacity = 200

    /// libvips' message for the failure as the shim copied it.
    private static func message(_ error: [CChar]) -> String {
        let line = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return line.isEmpty ? "unreadable image" : line
    }
}
