#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in fixed-size chunks with POSIX `read`, so memory stays bounded whatever the file size.
///
/// A final class because it owns a file descriptor that is closed exactly once, in `deinit`.
final class ChunkReader {
    private let descriptor: Int32
    private var buffer: [UInt8]

    /// Opens a file (`-`: standard input); throws an `ImportIssue` naming the file when it cannot be opened.
    init(path: String, chunkSize: Int = 1 << 20) throws(ImportIssue) {
        descriptor = path == "-" ? dup(STDIN_FILENO) : open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ImportIssue(
                file: path, line: 0,
                message: "cannot open the file (\(String(cString: strerror(errno)))); check the path and permissions")
        }
        buffer = [UInt8](repeating: 0, count: chunkSize)
    }

    deinit { close(descriptor) }

    /// Calls `body` with each chunk until the end of the file or until `body` returns false.
    func forEachChunk(_ body: (UnsafeBufferPointer<UInt8>) throws(ImportIssue) -> Bool) throws(ImportIssue) {
        let capacity = buffer.count
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, capacity) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportIssue(file: "", line: 0, message: "read failed: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            let keepGoing = try buffer.withUnsafeBufferPointer { whole throws(ImportIssue) in
                try body(UnsafeBufferPointer(rebasing: whole[0..<count]))
            }
            if !keepGoing { return }
        }
    }
}
