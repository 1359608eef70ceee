import AuditService
import Testing

/// The one CSV writer: RFC 4180 quoting, and values a spreadsheet would run as formulas written as text.
@Suite("CSV")
struct CSVTests {
    @Test(
        "a value starting with =, +, -, @, a tab or a carriage return gets a leading ', then is quoted if it must be",
        arguments: [
            ("=1+1", "'=1+1"),
            (#"=HYPERLINK("http://x","y")"#, #""'=HYPERLINK(""http://x"",""y"")""#),
            ("+1+2", "'+1+2"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "\"'\r=1\""),
            ("-", "'-"),
            ("-inf", "'-inf"),
            ("=\u{301}1", "'=\u{301}1"),
        ])
    func formulas(value: String, written: String) {
        #expect(CSV.field(value) == written)
    }

    @Test(
        "numbers, signed or not, and ordinary text are written as they are",
        arguments: ["-12.5", "+3", "-.5", "+3e2", "-1E-3", "0", "06412345100088", "Kahvi = coffee", "a@b", ""])
    func values(value: String) {
        #expect(CSV.field(value) == value)
        #expect(!CSV.runsAsFormula(value))
    }

    @Test("a comma, a quote or a line break (CRLF too) is quoted, quotes doubled, combining marks kept")
    func quoting() {
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("one\ntwo") == "\"one\ntwo\"")
        // "\r\n" is one Character: found and kept by its bytes.
        #expect(CSV.field("one\r\ntwo") == "\"one\r\ntwo\"")
        // A quote with a combining mark is one Character, and still a quote to a CSV reader.
        #expect(CSV.field("x\"\u{301}y") == "\"x\"\"\u{301}y\"")
        #expect(CSV.record(["gtin", "a,b", "=1", "-1"]) == "gtin,\"a,b\",'=1,-1")
    }
}
