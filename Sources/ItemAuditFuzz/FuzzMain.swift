import Foundation

/// The last input handed to a target, in a shared file mapping: the kernel keeps it when the
/// process crashes, so `tools/fuzz` can save it as a finding (length u32, then the bytes).
final class LastInput: @unchecked Sendable {
    // @unchecked: written by the fuzzing thread only; the watchdog reads `started` under `lock`.
    let capacity: Int
    private let mapping: UnsafeMutableRawPointer
    private let lock = NSLock()
    private var started: Double = 0

    init(path: String, capacity: Int) throws {
        self.capacity = capacity
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0, ftruncate(descriptor, off_t(capacity + 4)) == 0,
            let mapped = mmap(nil, capacity + 4, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            mapped != MAP_FAILED
        else { throw FuzzFailure("cannot map \(path)") }
        close(descriptor)
        mapping = mapped
    }

    func begin(_ input: [UInt8]) {
        let count = min(input.count, capacity)
        mapping.storeBytes(of: UInt32(count).littleEndian, as: UInt32.self)
        input.withUnsafeBytes { (mapping + 4).copyMemory(from: $0.baseAddress!, byteCount: count) }
        lock.withLock { started = Date.timeIntervalSinceReferenceDate }
    }

    func end() { lock.withLock { started = 0 } }

    /// Seconds the current input has been running (0 when none is).
    var running: Double { lock.withLock { started == 0 ? 0 : Date.timeIntervalSinceReferenceDate - started } }
}

struct FuzzFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@main
enum FuzzMain {
    static func main() {
        #if LIBFUZZER
            runLibFuzzer()
        #else
            runHarness()
        #endif
    }

    /// The seeded mutation harness: replays or fuzzes the targets the arguments name.
    static func runHarness() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        func value(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        let seconds = Double(value("--seconds") ?? "10") ?? 10
        let seed = UInt64(value("--seed") ?? "1") ?? 1
        let wanted = value("--target")
        let corpus = value("--corpus").map { URL(fileURLWithPath: $0) }
        let lastPath = value("--last-input") ?? "fuzz-last-input.bin"
        let replay =
            arguments.firstIndex(of: "--replay").map {
                Array(arguments[($0 + 1)...].prefix { !$0.hasPrefix("--") })
            } ?? []
        do {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "itemaudit-fuzz-\(getpid())")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let targets = try FuzzTarget.all(scratch: scratch).filter { wanted == nil || $0.name == wanted }
            guard !targets.isEmpty else {
                throw FuzzFailure("no target named \(wanted ?? "") (see Sources/ItemAuditFuzz)")
            }
            let last = try LastInput(path: lastPath, capacity: 1 << 20)
            startWatchdog(last)
            for target in targets {
                if !replay.isEmpty {
                    for path in replay {
                        run(target, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), last)
                    }
                    print("fuzz \(target.name): replayed \(replay.count) inputs, no crash or hang")
                    continue
                }
                let report = fuzz(target, seconds: seconds, seed: seed, corpus: corpus, last: last)
                print(
                    "fuzz \(target.name): \(report.inputs) inputs in \(String(format: "%.1f", report.seconds)) s (seed \(seed)), slowest \(String(format: "%.3f", report.slowest)) s, peak RSS \(report.peakMB) MB, no crash or hang"
                )
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(2)
        }
    }

    /// A thread that ends the process when one input runs longer than a second (a hang).
    static func startWatchdog(_ last: LastInput) {
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: 0.1)
                if last.running > 1.0 {
                    FileHandle.standardError.write(
                        Data("error: an input ran for more than 1 s (a hang); it is in the last-input file\n".utf8))
                    _exit(3)
                }
            }
        }
        thread.start()
    }

    static func run(_ target: FuzzTarget, _ input: [UInt8], _ last: LastInput) {
        last.begin(input)
        target.run(input)
        last.end()
    }

    /// Peak resident memory in MB so far.
    static var peakMB: Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }

    static func fuzz(
        _ target: FuzzTarget, seconds: Double, seed: UInt64, corpus: URL?, last: LastInput
    ) -> (inputs: Int, seconds: Double, slowest: Double, peakMB: Int) {
        var pool = target.seeds
        if let corpus {
            let folder = corpus.appendingPathComponent(target.name)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? [] {
                if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) {
                    pool.append([UInt8](data))
                }
            }
        }
        let seeds = pool.count
        var mutator = Mutator(
            seed: seed ^ UInt64(truncatingIfNeeded: target.name.hashValue & 0), maximumLength: 64 << 10)
        let start = Date.timeIntervalSinceReferenceDate
        var inputs = 0
        var slowest = 0.0
        for input in pool {
            run(target, input, last)
            inputs += 1
        }
        while Date.timeIntervalSinceReferenceDate - start < seconds {
            let base = pool[mutator.below(pool.count)]
            let other = pool[mutator.below(pool.count)]
            let input = mutator.mutate(base, dictionary: target.dictionary, other: other)
            let began = Date.timeIntervalSinceReferenceDate
            run(target, input, last)
            slowest = max(slowest, Date.timeIntervalSinceReferenceDate - began)
            inputs += 1
            // Without coverage feedback, keep some mutants so edits can pile up.
            if mutator.below(16) == 0 {
                if pool.count < seeds + 256 { pool.append(input) } else { pool[seeds + mutator.below(256)] = input }
            }
            if inputs % 256 == 0 && peakMB > 2048 {
                FileHandle.standardError.write(
                    Data("error: memory passed 2 GB (unbounded memory); the input is in the last-input file\n".utf8)
                )
                _exit(4)
            }
        }
        return (inputs, Date.timeIntervalSinceReferenceDate - start, slowest, peakMB)
    }
}

#if LIBFUZZER
    /// The target libFuzzer drives (`$FUZZ_TARGET`), made before the driver starts.
    nonisolated(unsafe) private var libFuzzerTarget: FuzzTarget?

    /// libFuzzer's driver (libclang_rt.fuzzer, linked by `-sanitize=fuzzer`); SwiftPM's `main` calls it.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// Runs libFuzzer (built by `tools/fuzz --libfuzzer`) on the target named by `$FUZZ_TARGET`.
    func runLibFuzzer() {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "gs1"
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("itemaudit-libfuzzer-\(getpid())")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        libFuzzerTarget = (try? FuzzTarget.all(scratch: scratch))?.first { $0.name == name }
        guard libFuzzerTarget != nil else {
            FileHandle.standardError.write(Data("error: no fuzz target named \(name) (set FUZZ_TARGET)\n".utf8))
            exit(2)
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            libFuzzerTarget?.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        }
        exit(status)
    }
#endif
