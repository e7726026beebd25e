import Synchronization

/// One SQL statement with `?` placeholders, in the text each backend runs. Made once, as a
/// `static let` or file-level `let` beside the code that runs it; each connection prepares it
/// the first time it runs it and keeps it prepared for the connection's life.
///
/// A connection finds its prepared copy by `identity`, a number handed out in order from one
/// process-wide counter: an index into an array, where finding it by text would hash the whole
/// text on every run. The numbers are never reused (an object's address would be, once it is
/// freed), and they stay dense, so the arrays stay as short as the number of statements made.
/// That is also why a statement must be made once: each one made adds a slot to the cache of
/// every connection that runs it. (A class rather than a struct: passing one around costs a
/// reference, not copies of its two texts.)
///
/// Text built per call (an import's last, shorter batch; tests' ad-hoc queries) is a
/// `SQLStatement(oneOff:)`: a connection prepares it, runs it and drops it, so it adds nothing
/// to any cache. Several `;`-separated statements without parameters, as migrations are, go to
/// `SQLConnection.executeScript` instead.
public final class SQLStatement: Sendable {
    /// Where a queue's claim chooses its rows: on PostgreSQL it locks them, passing over rows
    /// another transaction holds; SQLite writes one transaction at a time and has no such clause.
    static let lockingChosenRows = "/*locking chosen rows*/"

    /// Where connections keep this statement prepared; `nil` for a one-off.
    let identity: Int?
    /// The text SQLite prepares.
    let sqlite: String
    /// The text PostgreSQL prepares: each `?` numbered (`$1`, `$2`, ...), as its server wants.
    let postgres: String

    private static let statementsMade = Atomic<Int>(0)

    /// A statement whose text is the same on both backends except where
    /// `SQLStatement.lockingChosenRows` marks the locking clause.
    public convenience init(_ text: String) {
        self.init(
            sqlite: text.replacing(Self.lockingChosenRows, with: ""),
            postgres: text.replacing(Self.lockingChosenRows, with: "FOR UPDATE SKIP LOCKED")
        )
    }

    /// A statement written differently for each backend, both with `?` placeholders.
    public init(sqlite: String, postgres: String) {
        identity = Self.statementsMade.wrappingAdd(1, ordering: .relaxed).oldValue
        self.sqlite = sqlite
        self.postgres = Self.numberingPlaceholders(postgres)
    }

    /// A statement whose text was built at run time, run once and not kept by any connection.
    public init(oneOff text: String) {
        identity = nil
        sqlite = text
        postgres = Self.numberingPlaceholders(text)
    }

    /// `sql` with each `?` outside quotes and comments numbered `$1`, `$2`, ...
    private static func numberingPlaceholders(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        var inLineComment = false
        for character in sql {
            if inLineComment {
                if character == "\n" { inLineComment = false }
            } else if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "-", output.last == "-" {
                inLineComment = true
            } else if character == "?" {
                number += 1
                output += "$\(number)"
                continue
            }
            output.append(character)
        }
        return output
    }
}

extension SQLStatement {
    /// Ends the open transaction, keeping its changes.
    static let commit = SQLStatement("COMMIT")
    /// Ends the open transaction, undoing its changes.
    static let rollback = SQLStatement("ROLLBACK")
}
