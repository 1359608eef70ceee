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
}
