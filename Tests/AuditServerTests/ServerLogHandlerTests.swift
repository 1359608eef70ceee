import AuditServer
import Foundation
import Logging
import Testing

@Suite struct ServerLogHandlerTests {
    @Test("a line: time, level, label, the metadata sorted (a message's own over the logger's), source, message")
    func lineFormat() throws {
        var pipe: [Int32] = [0, 0]
        #expect(Foundation.pipe(&pipe) == 0)
        defer { close(pipe[0]) }
        var logger = Logger(label: "itemaudit.test") { ServerLogHandler(label: $0, descriptor: pipe[1]) }
        logger[metadataKey: "zeta"] = "1"
        logger[metadataKey: "alpha"] = "2"
        logger.debug("not written: below the level")
        logger.info("hello", metadata: ["zeta": "3"], source: "Here")
        close(pipe[1])
        let text = String(decoding: FileHandle(fileDescriptor: pipe[0]).readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasSuffix(" info itemaudit.test : alpha=2 zeta=3 [Here] hello"), "\(line)")
        // 2026-11-28T06:26:21+0000
        #expect(line.prefix(25).split(separator: " ").first?.count == 24, "\(line)")
    }

    @Test("a value from a request cannot forge a line: control characters in the message and metadata are written out")
    func controlCharactersEscaped() throws {
        var pipe: [Int32] = [0, 0]
        #expect(Foundation.pipe(&pipe) == 0)
        defer { close(pipe[0]) }
        let logger = Logger(label: "itemaudit.test") { ServerLogHandler(label: $0, descriptor: pipe[1]) }
        let forged = "mallory\n2026-01-01T00:00:00+0000 notice itemaudit.serve : user=admin [AuditServer] account unlocked"
        logger.notice("login \(forged)", metadata: ["user": "\(forged)", "bell": "\u{07}\u{1B}[31m\r\t\u{85}"])
        close(pipe[1])
        let text = String(decoding: FileHandle(fileDescriptor: pipe[0]).readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(text)")
        #expect(text.contains("mallory\\n2026"), "\(text)")
        #expect(text.contains("bell=\\u{7}\\u{1B}[31m\\r\\t\\u{85}"), "\(text)")
        #expect(!text.unicodeScalars.dropLast().contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
