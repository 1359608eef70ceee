import Foundation
import Proofs
import Testing

/// Our trees agree with an independent implementation, pymerkle (PyPI), on seeded random trees
/// up to 100,000 leaves: the roots, each inclusion proof's leaf hash and sibling hashes, and our
/// consistency proofs verified against pymerkle's roots (pymerkle's consistency proofs have
/// another shape than RFC 9162's, so their hashes are not compared one by one). Runs
/// tools/proofs/pymerkle-agreement.py; fails when pymerkle is not installed (tools/setup).
@Suite struct PymerkleAgreementTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/proofs/pymerkle-agreement.py")

    struct Request: Encodable {
        var seed: UInt64
        var size: Int
        var sizes: [Int]
        var inclusion: [[Int]]
        var consistency: [[Int]]
    }

    struct Answer: Decodable {
        struct Consistency: Decodable { var path: [String] }
        var roots: [String: String]
        var inclusion: [[String]]
        var consistency: [Consistency]
    }

    /// Leaf i's data: the first i % 33 bytes of SHA-256(0x00 ‖ "seed:i"), as the script makes it.
    static func leafData(seed: UInt64, index: Int) -> [UInt8] {
        Array(MerkleHash.leaf(Array("\(seed):\(index)".utf8)).prefix(index % 33))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func ask(_ request: Request) throws -> Answer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(request))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "pymerkle-agreement.py failed: \(message)")
        return try JSONDecoder().decode(Answer.self, from: data)
    }

    @Test(arguments: [(UInt64(1), 1), (2, 7), (3, 256), (4, 257), (5, 1000), (6, 4097), (7, 100_000)])
    func rootsAndProofsAgreeWithPymerkle(seed: UInt64, size: Int) throws {
        var generator = MerkleProofPlanTests.Generator(state: seed)
        let tree = MerkleTree(leafData: (0..<size).map { Self.leafData(seed: seed, index: $0) })
        let tiled = TiledTree(size: size, blockHashes: TiledTree.blockRoots(tree.leafHashes)) {
            Array(tree.leafHashes[$0])
        }
        var request = Request(seed: seed, size: size, sizes: [0, size], inclusion: [], consistency: [])
        for _ in 0..<20 {
            let newSize = 1 + generator.below(size)
            request.inclusion.append([generator.below(newSize), newSize])
            let oldSize = 1 + generator.below(newSize)
            request.consistency.append([oldSize, newSize])
            request.sizes += [oldSize, newSize]
        }
        let answer = try Self.ask(request)
        for size in request.sizes {
            #expect(answer.roots["\(size)"] == Self.hex(try tiled.root(size: size)), "root of \(size)")
        }
        for (query, path) in zip(request.inclusion, answer.inclusion) {
            let (index, size) = (query[0], query[1])
            // The stored-tile tree answers (fast at 100,000 leaves); the in-memory one must agree.
            let ours = try tiled.inclusionProof(index: index, size: size)
            #expect(path.first == Self.hex(tree.leafHashes[index]), "leaf \(index)")
            #expect(Array(path.dropFirst()) == ours.map(Self.hex), "inclusion of \(index) in \(size)")
            if size <= 5000 { #expect(try tree.inclusionProof(index: index, size: size) == ours) }
        }
        for query in request.consistency {
            let (old, new) = (query[0], query[1])
            let proof = try MerkleProofPlan.consistency(from: old, to: new).hashes(tree.leafHashes)
            #expect(proof == (try tiled.consistencyProof(from: old, to: new)))
            let oldRoot = try #require(answer.roots["\(old)"].flatMap(Self.bytes))
            let newRoot = try #require(answer.roots["\(new)"].flatMap(Self.bytes))
            try MerkleVerification.verifyConsistency(
                oldSize: old, newSize: new, oldRoot: oldRoot, newRoot: newRoot, proof: proof)
        }
        #expect(answer.consistency.count == request.consistency.count)
    }

    static func bytes(_ hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
