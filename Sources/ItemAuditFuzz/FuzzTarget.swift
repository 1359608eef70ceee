import Foundation

/// One thing the fuzzer feeds bytes to: a name, seed inputs, tokens worth inserting, and the
/// function under test (it must return or throw for every input; a crash or a hang is a finding).
struct FuzzTarget: Sendable {
    var name: String
    var seeds: [[UInt8]]
    var dictionary: [[UInt8]]
    var run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `tools/fuzz` runs them.
    static func all(scratch: URL) throws -> [FuzzTarget] {
        [gs1, commandJSON, rules] + datasheets(scratch: scratch) + [try logFrames(scratch: scratch), signedHeaders]
    }
}

extension Array where Element == UInt8 {
    init(_ text: String) { self = Array(text.utf8) }
}

/// A scratch file the importers and the log read from (they take paths).
struct ScratchFile: Sendable {
    let url: URL

    func write(_ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    }
}
