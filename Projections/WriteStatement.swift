import GRDB
import GRDBSQLite

/// A prepared write statement bound through the SQLite C API: the hot path of a rebuild.
///
/// GRDB's `StatementArguments` allocate per call; folds that write hundreds of thousands of
/// rows per second bind values in place instead. Prepared once per run, valid only while the
/// `Database` that made it is in use.
///
/// Executing queues it on a ``WriteQueue``: it runs on the database's thread, after what was
/// queued before.
struct WriteStatement {
    private let queue: WriteQueue
    /// The statement's number in ``queue``.
    private let number: Int

    init(_ db: Database, _ sql: String, queue: WriteQueue) throws {
        self.queue = queue
        number = queue.register(try db.makeStatement(sql: sql))
    }

    /// Queues the statement with `values` bound to its parameters in order; a failure to run it
    /// is thrown by a later call.
    @inline(__always)
    func execute(_ values: SQLValue...) throws {
        try queue.enqueue(number, values)
    }

    /// Binds `values` to the parameters of `statement` in order, runs it and resets it, now.
    static func run(_ statement: Statement, _ values: UnsafeBufferPointer<SQLValue>) throws {
        let handle = statement.sqliteStatement
        let code = bind(handle, values, from: 0)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw ProjectionError(
                .database,
                "cannot write the projection database: \(String(cString: sqlite3_errstr(code))) (check the disk, then run itemaudit replay again)",
                // Read through SQLite: GRDB's `sql` may only be read on the database's own thread.
                context: ["sql": sqlite3_sql(handle).map { String(cString: $0) } ?? ""])
        }
    }

    /// Binds `values[offset...]`, then steps: text is bound in place (`SQLITE_STATIC`, no copy and
    /// no allocation inside SQLite), so the step runs inside every text's `withUTF8` scope.
    private static func bind(_ handle: OpaquePointer, _ values: UnsafeBufferPointer<SQLValue>, from offset: Int)
        -> Int32
    {
        var offset = offset
        while offset < values.count {
            let index = Int32(offset + 1)
            switch values[offset] {
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .null: sqlite3_bind_null(handle, index)
            case .text(var text):
                return text.withUTF8 { utf8 in
                    // A zero-length text still needs a non-null pointer, or SQLite binds NULL.
                    let base = UnsafeRawPointer(utf8.baseAddress ?? emptyText.utf8Start)
                    sqlite3_bind_text(
                        handle, index, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count), nil)
                    return bind(handle, values, from: offset + 1)
                }
            }
            offset += 1
        }
        return sqlite3_step(handle)
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
    /// A domain code (a status, a reason) as its number.
    static func code<Code: RawRepresentable>(_ value: Code) -> SQLValue where Code.RawValue == Int {
        .integer(Int64(value.rawValue))
    }
    /// An optional domain code as its number, or NULL.
    static func code<Code: RawRepresentable>(_ value: Code?) -> SQLValue where Code.RawValue == Int {
        value.map { .integer(Int64($0.rawValue)) } ?? .null
    }
}

/// The bytes of an empty text (SQLite reads none of them, but needs a pointer).
private let emptyText: StaticString = ""
