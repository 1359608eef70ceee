import AuditService
import Foundation
import Testing

/// What the photo route resizes: only JPEG, PNG and HEIC by their leading bytes, never more
/// pixels than the cap, and a thumbnail that fits its edge.
@Suite("Photo sizing")
struct PhotoSizingTests {
    /// A 400 x 300 grey JPEG made with libvips (`vips black`, `linear`, `jpegsave --Q 50 --strip`).
    static let jpeg = [UInt8](
        Data(
            base64Encoded:
                "/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAEsAZADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDMooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooA//Z"
        )!)

    @Test("JPEG, PNG and HEIC are recognised by their leading bytes; GIF, WebP, text and an MP4 are not")
    func sniffing() {
        #expect(ImageFormat.sniff(Self.jpeg) == .jpeg)
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0]) == .heic)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]) == nil)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("a photo, honestly".utf8)) == nil)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0]) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil, "too short to be a JPEG")
        #expect(throws: PhotoResizeError.unsupportedFormat) {
            try Vips.thumbnail(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0], longestEdge: 256)
        }
    }

    @Test("a photo over the pixel cap is refused from its header; one under it is resized to fit")
    func cap() throws {
        let size = try Vips.size(of: Self.jpeg)
        #expect(size.width == 400 && size.height == 300)
        #expect(throws: PhotoResizeError.tooManyPixels(width: 400, height: 300, limit: 119_999)) {
            try Vips.thumbnail(Self.jpeg, longestEdge: 256, pixelLimit: 119_999)
        }
        let thumb = try Vips.thumbnail(Self.jpeg, longestEdge: 256, pixelLimit: 120_000)
        #expect(thumb.format == .jpeg)
        let thumbSize = try Vips.size(of: thumb.bytes)
        #expect(thumbSize.width == 256 && thumbSize.height == 192)
        let notEnlarged = try Vips.size(of: try Vips.thumbnail(Self.jpeg, longestEdge: 1280).bytes)
        #expect(notEnlarged.width == 400, "a view is never larger than the photo")
    }

    @Test("the pool runs at most its slots at once and refuses beyond its waiting places")
    func pool() async throws {
        let pool = ResizePool(slots: 1, waiting: 0)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let first = Task {
            try await pool.run { () throws(PhotoResizeError) -> Int in
                started.signal()
                release.wait()
                return 1
            }
        }
        started.wait()
        await #expect(throws: PhotoResizeError.busy) {
            try await pool.run { () throws(PhotoResizeError) -> Int in 2 }
        }
        release.signal()
        #expect(try await first.value == 1)
        #expect(try await pool.run { () throws(PhotoResizeError) -> Int in 3 } == 3, "the slot is free again")
    }
}
