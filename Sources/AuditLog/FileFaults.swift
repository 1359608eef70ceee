import Foundation

/// A fault hook in the file layer for tests: writes under a directory fail as on a full disk
/// once a byte budget is spent (a short write, then ENOSPC), the way a real full disk behaves.
enum FileFaults {
    private static let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private static var budgets: [String: Int] = [:]

    /// From now on, writes to files under `directory` may add `bytes` more bytes in all, then fail.
    static func diskFull(under directory: URL, after bytes: Int) {
        lock.withLock { budgets[directory.standardizedFileURL.path + "/"] = bytes }
    }

    /// Removes the fault for `directory`.
    static func clear(under directory: URL) {
        lock.withLock { _ = budgets.removeValue(forKey: directory.standardizedFileURL.path + "/") }
    }

    /// How many of `count` bytes a write to `url` may write (nil: no fault applies), spending them.
    static func allowance(for url: URL, count: Int) -> Int? {
        lock.withLock {
            guard !budgets.isEmpty else { return nil }
            let path = url.standardizedFileURL.path
            guard let key = budgets.keys.first(where: { path.hasPrefix($0) }), let budget = budgets[key] else {
                return nil
            }
            let allowed = min(budget, count)
            budgets[key] = budget - allowed
            return allowed
        }
    }
}
