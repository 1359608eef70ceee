import Foundation

/// CPU time (user and system) this process has used so far, for the benches' per-item CPU figures.
enum ProcessCPU {
    /// Seconds of CPU used so far by this process.
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
