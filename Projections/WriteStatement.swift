import GRDB
import GRDBSQLite

/// A prepared write statement bound through the SQLite C API: the hot path of a rebuild.
///
/// GRDB's `StatementArguments` allocate per call; folds that write hundreds of thousands of
/// rows per second bind values in place instead. Prepared once per run, valid only while the
/// `Database` that made it is in use.
struct WriteStatement {
    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// Binds `values` to the parameters in order, runs the statement and resets it.
    func execute(_ values: SQLValue...) throws {
        let handle = self.handle
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                var text = text
                text.withUTF8 { utf8 in
                    _ = sqlite3_bind_text(handle, index, utf8.baseAddress, Int32(utf8.count), transient)
                }
            case .null: sqlite3_bind_null(handle, index)
            }
        }
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw ProjectionError(
                .database,
                "cannot write the projection database: \(String(cString: sqlite3_errstr(code))) (check the disk, then run itemaudit replay again)",
                context: ["sql": statement.sql])
        }
    }
}

/// A value to bind.
enum SQLValue {
    case integer(Int64)
    case text(String)
    case null

    static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    static func optional(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
    static func optional(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
    static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}

/// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
