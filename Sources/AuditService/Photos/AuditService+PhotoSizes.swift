extension AuditService {
    /// A stored photo in one of its served sizes.
    public struct SizedPhoto: Sendable {
        public var bytes: [UInt8]
        public var mediaType: String
    }

    /// The stored photo with this hash at `size`: the stored bytes for `full`, else a copy resized
    /// by libvips on `pool` (a fixed number at once); nil when no photo with this hash is stored.
    /// Whoever asks has been checked already.
    ///
    /// - Throws: ``PhotoResizeError`` when the stored bytes are not JPEG, PNG or HEIC, have too many
    ///   pixels, cannot be decoded, or every resize slot and waiting place is taken.
    public nonisolated func sizedPhoto(
        sha256: String, size: PhotoSize, pool: ResizePool = .shared, pixelLimit: Int = Vips.defaultPixelLimit
    ) async throws(PhotoResizeError) -> SizedPhoto? {
        guard let bytes = photos.read(sha256: sha256) else { return nil }
        guard let format = ImageFormat.sniff(bytes) else { throw .unsupportedFormat }
        guard let edge = size.longestEdge else { return SizedPhoto(bytes: bytes, mediaType: format.mediaType) }
        return try await pool.run { () throws(PhotoResizeError) -> SizedPhoto in
            let resized = try Vips.thumbnail(bytes, longestEdge: edge, pixelLimit: pixelLimit)
            return SizedPhoto(bytes: resized.bytes, mediaType: resized.format.mediaType)
        }
    }
}
