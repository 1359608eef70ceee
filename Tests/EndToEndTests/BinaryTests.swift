import Foundation
import Testing

@Suite("itemaudit binary")
struct BinaryTests {
    @Test("--version prints the version and the linked liblz4")
    func version() throws {
        let result = try ItemAuditBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("0."))
        #expect(result.stdout.contains("liblz4 1."))
    }

    @Test("--help shows an example and exits 0")
    func help() throws {
        let result = try ItemAuditBinary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: itemaudit"))
        #expect(result.stdout.contains("Example:"))
    }

    @Test("an unknown option is bad usage: exit 2 and a message on stderr")
    func badUsage() throws {
        let result = try ItemAuditBinary.run(["--no-such-option"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no-such-option"))
    }
}
