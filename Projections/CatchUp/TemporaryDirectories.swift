import Foundation

/// Temporary directories this process made, removed when it exits: where the projections of a
/// read-only data directory are built (see ``ProjectionDatabase``).
enum TemporaryDirectories {
    private static let state = State()

    /// Registers `directory` for removal at exit, and `copy` as the working copy of `original`.
    static func removeAtExit(_ directory: URL, copyOf original: String, at copy: String) {
        state.add(directory.path, original: original, copy: copy)
    }

    /// The working copy of `original` made earlier by this process, if any.
    static func copy(of original: String) -> String? { state.copy(of: original) }

    static func removeAll() {
        for path in state.drain() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The directories and copies, and whether the exit handler is registered.
    final class State: @unchecked Sendable {
        // Safe: every stored property is only read or written while `lock` is held.
        private let lock = NSLock()
        private var directories: [String] = []
        private var copies: [String: String] = [:]
        private var registered = false

        func add(_ directory: String, original: String, copy: String) {
            lock.withLock {
                directories.append(directory)
                copies[original] = copy
                if !registered {
                    registered = true
                    atexit { TemporaryDirectories.removeAll() }
                }
            }
        }

        func copy(of original: String) -> String? { lock.withLock { copies[original] } }

        func drain() -> [String] {
            lock.withLock {
                defer {
                    directories = []
                    copies = [:]
                }
                return directories
            }
        }
    }
}
