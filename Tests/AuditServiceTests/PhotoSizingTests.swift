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

    /// A 480 x 360 HEIC made with libvips (`heifsave --compression hevc --Q 30`) from a gradient.
    static let heic = [UInt8](
        Data(
            base64Encoded: """
                AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAYRtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAA
                AAAAAA5waXRtAAAAAAABAAAANGlsb2MAAAAAREAAAgABAAAAAAGoAAEAAAAAAAADGwACAAAAAATDAAEAAAAAAAAAvgAAADhp
                aW5mAAAAAAACAAAAFWluZmUCAAAAAAEAAGh2YzEAAAAAFWluZmUCAAABAAIAAEV4aWYAAAAAw2lwcnAAAAClaXBjbwAAAHlo
                dmNDAQNwAAAAAAAAAAAAP/AA/P34+AAADwMgAAEAGEABDAH//wNwAAADAJAAAAMAAAMAP7oCQCEAAQAsQgEBA3AAAAMAkAAA
                AwAAAwA/oA8IBaWW6kkprm4EBAwIAAADAAgAAAMACEAiAAEAB0QBwXKwYkAAAAAUaXNwZQAAAAAAAAHgAAABaAAAABBwaXhp
                AAAAAAMICAgAAAAWaXBtYQAAAAAAAAABAAEDgQKDAAAAGmlyZWYAAAAAAAAADmNkc2MAAgABAAEAAAPhbWRhdAAAAxcoAa8Z
                MIlnmCe2+Pd8+epZ70oJ7hIeTJdWS9sdd67icocyguDvomulcRu0dCALAtIhme8wcui+s8A+ohWehTmdMlQIuCvjgCyHZPQQ
                8G1n4YB4wbQzRFQZ62Zx7rd1zrg5bmdtME2j8b3Uv9zPWPcB74kt7lg/psqCwLZrEThDgRLalqPHOzX7RfHSJQIIy6hwcFxv
                vCsD/z5zX6fmPbZhxqDTGWUzvDvpuy8c5TNbRkuLhNrgPX6hwMbp/HXLmwXvz6wKWHLfN+ScCxLXrRkt1E5VsAnLv0b9Mkio
                19zTNrSVcZJpc4ToZUx4E4QdV+0cMaCYpHXu4M3l8sw8qUmp0dLB8RFw5ryK1w4xobSH43SGJmIYDh/CUlwFuNTBtcCcelYc
                wZvnb8g1m8GUcmQRBGljuzJ4XoeEtvB1xm7lxsx/HNfFWE918IqnQT8kSVvsFKN/GSFhEdN03aiJ+vswwWLWuDP3fEPZaR0O
                syOcOdyDwuYZVRt0gtMCsIuVbn4rDCvspUYpW+Rrc6/bbzhitseZSyJnUev2SPS5REea1gUqLw84mAScmyccVYj/aoioavoE
                wR/+Fa7QcDgpnMoiiNvByhWvP5HTyC9Z1qT8JEXcv+IF6NI6u/xmZUT7I3uLcOfvwi+YUNwZoPWZ9It+xO4eaNjfCtj4M4i+
                bTn74zwZTqctut05MuFb+WJPiksOhgKCeDxnRL0ihEJ9vinfZjr4XskWOlhavByDfXJaYNbeKZxe/ZxirwGtUqBJDIZgKyIs
                UXO9b1EzmvrSK2Yn4P16ClhfLcMuj+fUD7v5oqsaeq0cOIQHYnYf0/fEB1kXJ4lps13ClpKljAJQ4ewB9mXotDrXCyNwloWO
                X3RF4df7cTtC9Ip8ofQwNDJq7PG4DT4D6h3/Pc7GNp6+NDPYlr2uz6TPszSx6AcnH9xXJSVGfTFb9IdqRaWOFE+k9dAlHwY2
                LLSaCY6BHm5y4FYs5XjV+E3NL4TDLeQxU1N4EnWjCMTX/dx2VzkRy4hvkVg7odMy4H5oEEstyXeDul42hsF6ci3zwAAAAAZF
                eGlmAABJSSoACAAAAAYAEgEDAAEAAAABAAAAGgEFAAEAAABWAAAAGwEFAAEAAABeAAAAKAEDAAEAAAACAAAAEwIDAAEAAAAB
                AAAAaYcEAAEAAABmAAAAAAAAAEgAAAABAAAASAAAAAEAAAAGAACQBwAEAAAAMDIxMAGRBwAEAAAAAQIDAACgBwAEAAAAMDEw
                MAGgAwABAAAA//8AAAKgBAABAAAA4AEAAAOgBAABAAAAaAEAAAAAAAA=
                """, options: .ignoreUnknownCharacters)!)

    /// A 400 x 300 grey PNG made with libvips (`black`, `linear`, `pngsave --compression 9 --strip`).
    static let png = [UInt8](
        Data(
            base64Encoded: """
                iVBORw0KGgoAAAANSUhEUgAAAZAAAAEsCAIAAABi1XKVAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAC8UlEQVR42u3UQREAAAzC
                MHTiXwg6tksk9NEU4IhIABgWgGEBhgVgWACGBRgWgGEBGBZgWACGBWBYgGEBGBaAYQGGBWBYAIYFGBaAYQEYFmBYAIYFYFiA
                YQEYFoBhAYYFYFiAYQEYFoBhAYYFYFgAhgUYFoBhARgWYFgAhgVgWIBhARgWgGEBhgVgWACGBRgWgGEBGBZgWACGBWBYgGEB
                GBaAYQGGBWBYgGEBGBaAYQGGBWBYAIYFGBaAYQEYFmBYAIYFYFiAYQEYFoBhAYYFYFgAhgUYFoBhARgWYFgAhgVgWIBhARgW
                gGEBhgVgWIBhARgWgGEBhgVgWACGBRgWgGEBGBZgWACGBWBYgGEBGBaAYQGGBWBYAIYFGBaAYQEYFmBYAIYFYFiAYQEYFoBh
                AYYFYFiAYQEYFoBhAYYFYFgAhgUYFoBhARgWYFgAhgVgWIBhARgWgGEBhgVgWACGBRgWgGEBGBZgWACGBWBYgGEBGBaAYQGG
                BWBYgGEBGBaAYQGGBWBYAIYFGBaAYQEYFmBYAIYFYFiAYQEYFoBhAYYFYFgAhgUYFoBhARgWYFgAhgVgWIBhARgWgGEBhgVg
                WIBhARgWgGEBhgVgWACGBRgWgGEBGBZgWACGBWBYgGEBGBaAYQGGBWBYAIYFGBaAYQEYFmBYAIYFYFiAYQEYFoBhAYYFYFiA
                YQEYFoBhAYYFYFgAhgUYFoBhARgWYFgAhgVgWIBhARgWgGEBhgVgWACGBRgWgGEBGBZgWACGBWBYgGEBGBaAYQGGBWBYgGEB
                GBaAYQGGBWBYAIYFGBaAYQEYFmBYAIYFYFiAYQEYFoBhAYYFYFgAhgUYFoBhARgWYFgAhgVgWIBhARgWYFgSAIYFYFiAYQEY
                FoBhAYYFYFgAhgUYFoBhARgWYFgAhgVgWIBhARgWgGEBhgVgWACGBRgWgGEBGBZgWACGBWBYgGEBGBZgWACGBWBYgGEBGBaA
                YQGGBWBYAIYFGBaAYQEYFvDZALDqf3NBUNOBAAAAAElFTkSuQmCC
                """, options: .ignoreUnknownCharacters)!)

    @Test("a HEIC is resized into a JPEG (its loader is not blocked as untrusted); a PNG stays a PNG")
    func heicAndPNG() throws {
        #expect(ImageFormat.sniff(Self.heic) == .heic)
        let fromHEIC = try Vips.thumbnail(Self.heic, longestEdge: 256)
        #expect(fromHEIC.format == .jpeg && ImageFormat.sniff(fromHEIC.bytes) == .jpeg)
        let heicSize = try Vips.size(of: fromHEIC.bytes)
        #expect(heicSize.width == 256 && heicSize.height == 192, "\(heicSize)")
        let fromPNG = try Vips.thumbnail(Self.png, longestEdge: 256)
        #expect(fromPNG.format == .png && ImageFormat.sniff(fromPNG.bytes) == .png)
        let pngSize = try Vips.size(of: fromPNG.bytes)
        #expect(pngSize.width == 256 && pngSize.height == 192, "\(pngSize)")
    }

    @Test("bytes that start like a JPEG but are not one fail with libvips' reason, not a crash")
    func damaged() {
        let truncated = Array(Self.jpeg.prefix(300))
        #expect(throws: PhotoResizeError.self) { try Vips.thumbnail(truncated, longestEdge: 256) }
        let fake = [UInt8]([0xFF, 0xD8, 0xFF, 0xE0]) + [UInt8](repeating: 7, count: 200)
        do {
            _ = try Vips.thumbnail(fake, longestEdge: 256)
            Issue.record("filler behind JPEG magic bytes was resized")
        } catch {
            guard case .failed(let reason) = error else {
                Issue.record("expected .failed, got \(error)")
                return
            }
            #expect(!reason.isEmpty && !reason.contains("\n"), "\(reason)")
        }
    }

    @Test("the pool runs at most its slots at once, queues up to its waiting places and refuses beyond")
    func pool() async throws {
        // The test waits by suspending, never by blocking one of the few cooperative threads (the
        // suite runs tests in parallel; blocked threads starve the tasks they wait for). Only the
        // work itself blocks, on the global queue the pool runs it on.
        for waiting in [0, 1] {
            let pool = ResizePool(slots: 1, waiting: waiting)
            let (events, signal) = AsyncStream<Int>.makeStream()
            var next = events.makeAsyncIterator()
            let release = DispatchSemaphore(value: 0)
            let first = Task {
                try await pool.run { () throws(PhotoResizeError) -> Int in
                    signal.yield(1)
                    release.wait()
                    return 1
                }
            }
            #expect(await next.next() == 1)
            if waiting == 0 {
                await #expect(throws: PhotoResizeError.busy) {
                    try await pool.run { () throws(PhotoResizeError) -> Int in 2 }
                }
                release.signal()
            } else {
                let second = Task {
                    try await pool.run { () throws(PhotoResizeError) -> Int in
                        signal.yield(2)
                        return 2
                    }
                }
                try await Task.sleep(for: .milliseconds(50))
                signal.yield(0)
                #expect(await next.next() == 0, "the second waited for the slot")
                release.signal()
                #expect(try await second.value == 2)
                #expect(await next.next() == 2)
            }
            #expect(try await first.value == 1)
            #expect(try await pool.run { () throws(PhotoResizeError) -> Int in 3 } == 3, "the slot is free again")
            signal.finish()
        }
    }
}
