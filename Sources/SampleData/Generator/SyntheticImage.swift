/// A small grayscale PNG whose pixels are given bytes: a synthetic photo that a browser can draw
/// (the generator's photos are unique noise, eight pixels wide).
///
/// The image data is one stored (uncompressed) deflate block, so no compressor is needed; the
/// chunks carry the CRC-32 and the zlib stream the Adler-32 the format asks for.
enum SyntheticImage {
    /// A PNG of `pixels` (one byte each, gray levels) in rows of `width` (the last row is padded
    /// with black).
    static func png(pixels: [UInt8], width: Int = 8) -> [UInt8] {
        let height = max(1, (pixels.count + width - 1) / width)
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (width + 1))
        for row in 0..<height {
            raw.append(0)  // filter: none
            for column in 0..<width {
                let index = row * width + column
                raw.append(index < pixels.count ? pixels[index] : 0)
            }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 0, 0, 0, 0]  // 8-bit grayscale, deflate, no filter method, no interlace
        var zlib: [UInt8] = [0x78, 0x01, 0x01]  // zlib header; one final stored block
        let length = UInt16(raw.count)
        zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        zlib += raw
        zlib += bigEndian(adler32(raw))
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// CRC-32 (ISO-HDLC, the PNG and zlib one; not the log's CRC-32C).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
