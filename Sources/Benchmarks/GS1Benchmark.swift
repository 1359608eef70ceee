import Foundation
import GS1
import Seeded

/// `bench gs1`: parse and fully validate a realistic mix of scanned codes.
///
/// The mix (seeded, 1,000 distinct inputs): 25 % EAN-13 alone, 25 % (01)(17)(10) as GS1-128
/// scans (`]C1`, GS separators), 25 % (01)(3103)(15)(21) bracketed, 25 % Digital Link URIs.
/// Baseline, measured in the same run on the same inputs: a straightforward Foundation
/// parse — NSRegularExpression to split bracketed strings and URIs, a per-AI regular
/// expression built from the Syntax Dictionary format for each value, a mod-10 check digit on
/// Strings, and req/ex not checked (so the baseline does less work than `ScannedCode`).
public enum GS1Benchmark {
    /// Runs both parsers for about `seconds` each, on one core; returns `parse` (inputs/s).
    public static func run(seconds: Double = 1.0) -> [BenchmarkResult] {
        let inputs = mix(count: 1000, seed: 0x6751)
        var invalid = 0
        for input in inputs where !ScannedCode(input).isValid { invalid += 1 }
        precondition(invalid == 0, "the benchmark mix must be valid")
        let ours = measure(seconds: seconds) { index in ScannedCode(inputs[index % inputs.count]).isValid }
        let baseline = BaselineParser()
        let theirs = measure(seconds: seconds) { index in baseline.parse(inputs[index % inputs.count]) }
        return [BenchmarkResult(name: "parse", value: ours, unit: "inputs/s", baseline: theirs)]
    }

    /// Calls `body` in batches until `seconds` have passed; returns calls per second.
    static func measure(seconds: Double, _ body: (Int) -> Bool) -> Double {
        var count = 0
        var accepted = 0
        let clock = ContinuousClock()
        let start = clock.now
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<1000 {
                if body(count) { accepted += 1 }
                count += 1
            }
            elapsed = clock.now - start
        } while elapsed < .seconds(seconds)
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // `accepted` keeps the work observable so the optimiser cannot drop it.
        return accepted >= 0 ? Double(count) / secondsElapsed : 0
    }

    /// A deterministic mix of valid inputs.
    public static func mix(count: Int, seed: UInt64) -> [String] {
        var random = SeededRandom(seed: seed)
        func next(_ bound: Int) -> Int { random.next(bound) }
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(next(10))) }) }
        func gtin(_ length: Int) -> String {
            let body = (length == 14 ? "0" : "") + "64" + digits(length - 3 - (length == 14 ? 1 : 0))
            return body + String(GTIN.checkDigit(for: body) ?? 0)
        }
        func date() -> String {
            let month = 1 + next(12)
            let day = 1 + next(28)
            return String(format: "%02d%02d%02d", 20 + next(10), month, day)
        }
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
        func lot() -> String { String((0..<(3 + next(8))).map { _ in letters[next(letters.count)] }) }
        return (0..<count).map { index in
            switch index % 4 {
            case 0: return gtin(13)
            case 1: return "]C101" + gtin(14) + "17" + date() + "10" + lot()
            case 2: return "(01)" + gtin(14) + "(3103)" + digits(6) + "(15)" + date() + "(21)" + lot()
            default: return "https://id.gs1.org/01/" + gtin(14) + "/10/" + lot() + "?17=" + date()
            }
        }
    }
}
