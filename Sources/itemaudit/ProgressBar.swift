import Foundation

/// A one-line progress bar on stderr, redrawn at most every 1 % (nothing when not a terminal).
final class ProgressBar {
    /// A bar that draws only when stderr is a terminal (and `quiet` is false).
    static func onTerminal(quiet: Bool = false) -> ProgressBar {
        ProgressBar(enabled: !quiet && isatty(STDERR_FILENO) == 1)
    }

    private let enabled: Bool
    private var lastPercent = -1

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ done: UInt64, of total: UInt64) {
        guard enabled, total > 0 else { return }
        let percent = Int(done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let filled = percent * 40 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 40 - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percent)% \(done)/\(total)".utf8))
    }

    func finish() {
        guard enabled, lastPercent >= 0 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
