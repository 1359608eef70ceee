import Foundation
import GRDB
import GRDBSQLite

/// A read statement stepped with SQLite's own calls, for queries that read tens of thousands of
/// narrow index rows in order and count them in Swift: no `Row` and no `String` per row.
///
/// A column's bytes stay valid until the next ``next()`` of the same stream, so two streams can be
/// merged while one holds its current row.
struct RowStream {
    private let handle: OpaquePointer
    private let connection: OpaquePointer?

    /// Runs `body` with the cached statement for `sql`, its `?` parameters bound to `arguments`;
    /// the statement is reset afterwards, whatever happens.
    static func read<Result>(
        _ db: Database, sql: String, arguments: [Int64], _ body: (inout RowStream) throws -> Result
    ) throws -> Result {
        let statement = try db.cachedStatement(sql: sql)
        var stream = RowStream(handle: statement.sqliteStatement, connection: db.sqliteConnection)
        sqlite3_reset(stream.handle)
        defer { sqlite3_reset(stream.handle) }
        for (index, value) in arguments.enumerated() { sqlite3_bind_int64(stream.handle, Int32(index + 1), value) }
        return try body(&stream)
    }

    /// Steps to the next row; false after the last.
    mutating func next() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
    }

    /// The integer in `column` of the current row.
    @inline(__always)
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The text in `column` of the current row, as bytes valid until the next ``next()`` (empty for NULL).
    @inline(__always)
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        // The text first, then its length (the order SQLite documents).
        guard let text = sqlite3_column_text(handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// The text in `column` of the current row as a `String`.
    func text(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }
}

/// Text compared as SQLite's `BINARY` collation orders it (bytes, then length): the order of the
/// indexes the passes read, so two ordered streams can be merged.
@inline(__always)
func binaryOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    let common = min(a.count, b.count)
    if common > 0, let left = a.baseAddress, let right = b.baseAddress {
        let order = memcmp(left, right, common)
        if order != 0 { return Int(order) }
    }
    return a.count - b.count
}

/// Whether two texts hold the same bytes: one `memcmp`, where `elementsEqual` steps through
/// generic code byte by byte (most of a coverage pass's own time).
@inline(__always)
func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count && binaryOrder(a, b) == 0
}

/// Like ``sameBytes(_:_:)``, with `b` held in an array (the previous row's text, kept).
@inline(__always)
func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
    b.withUnsafeBufferPointer { sameBytes(a, $0) }
}
