/// A bad command line: printed as one line, and the process exits with status 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A command that could not do its work for a reason it can name (a wrong master key, a
/// database that already holds data): printed as one line, and the process exits with status 1.
struct CommandFailure: Error, Sendable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Splits `--flag value`, `--flag=value` and bare `--switch` arguments against the flags a
/// command declares, so a misspelt flag is an error instead of being ignored.
struct ParsedArguments {
    private(set) var values: [String: String] = [:]
    private(set) var switches: Set<String> = []
    private(set) var positional: [String] = []

    /// - Parameters:
    ///   - valued: flags that take a value (`--port 9099`).
    ///   - switches: flags that take none (`--dev`).
    init(_ arguments: some Sequence<String>, command: String, valued: Set<String>, switches known: Set<String>)
        throws(UsageError)
    {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if valued.contains(name) {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError("hearth \(command): --\(name) needs a value")
                }
                values[name] = value
            } else if known.contains(name) {
                if inlineValue != nil { throw UsageError("hearth \(command): --\(name) takes no value") }
                switches.insert(name)
            } else {
                throw UsageError("hearth \(command): unknown flag --\(name) (see hearth \(command) --help)")
            }
        }
    }

    func value(_ name: String) -> String? { values[name] }

    func flag(_ name: String) -> Bool { switches.contains(name) }

    /// The value of an integer flag within `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>, command: String)
        throws(UsageError) -> Int
    {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "hearth \(command): --\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\""
            )
        }
        return value
    }

    func required(_ name: String, command: String) throws(UsageError) -> String {
        guard let value = values[name], !value.isEmpty else {
            throw UsageError("hearth \(command): --\(name) is required")
        }
        return value
    }
}
