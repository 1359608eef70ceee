import Testing

@testable import PostgresLog

@Suite("Splitting migration scripts into statements")
struct SQLScriptTests {
    @Test func semicolonsInsideQuotesDollarQuotesAndCommentsDoNotSplit() {
        let script = """
            -- a comment; with a semicolon
            CREATE TABLE t (x text DEFAULT 'a;b');
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'no; never';
            END;
            $$;
            /* block; comment */ SELECT "odd;name" FROM t;
            """
        let statements = SQLScript.statements(script)
        #expect(statements.count == 3)
        #expect(statements[0].hasSuffix("DEFAULT 'a;b')"))
        #expect(statements[1].contains("END;\n$$"))
        #expect(statements[2].hasSuffix("FROM t"))
    }

    @Test func theEmbeddedMigrationsSplitIntoWholeStatements() {
        for migration in Migrations.all {
            let statements = SQLScript.statements(migration.sql)
            #expect(!statements.isEmpty)
            for statement in statements {
                let code = statement.split(separator: "\n").filter { !$0.drop { $0 == " " }.hasPrefix("--") }
                let head = code.first?.split(separator: " ").first.map(String.init) ?? ""
                #expect(["CREATE", "INSERT", "ALTER", "COMMENT"].contains(head), "\(statement)")
            }
        }
    }
}
