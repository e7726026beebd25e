/// Structured server messages, one JSON object per line:
/// `{"ts":"2025-01-31T09:30:00.123Z","level":"info","msg":"listening","port":9099}`.
///
/// Fields follow `ts`, `level` and `msg` in the order given; a field that reuses one of those
/// three names is written with a leading underscore so that every line stays a valid object
/// with unique keys. Lines go through a ``LogWriter`` (standard output by default), shared with
/// the HTTP access log.
public struct Log: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var writer: LogWriter
    /// Messages below this level are skipped before any formatting.
    public var minimumLevel: Level
    public var clock: any Clock

    public init(writer: LogWriter = .standardOutput, minimumLevel: Level = .info, clock: any Clock = SystemClock()) {
        self.writer = writer
        self.minimumLevel = minimumLevel
        self.clock = clock
    }

    public func debug(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, JSONValue> = [:]) {
        log(.debug, message(), fields)
    }

    public func info(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, JSONValue> = [:]) {
        log(.info, message(), fields)
    }

    public func warning(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, JSONValue> = [:]) {
        log(.warning, message(), fields)
    }

    public func error(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, JSONValue> = [:]) {
        log(.error, message(), fields)
    }

    public func log(
        _ level: Level,
        _ message: @autoclosure () -> String,
        _ fields: KeyValuePairs<String, JSONValue> = [:]
    ) {
        guard level >= minimumLevel else { return }
        let milliseconds = clock.nowMilliseconds()
        let text = message()
        writer.appendLine { bytes in
            bytes.append(contentsOf: #"{"ts":""#.utf8)
            Timestamp.appendISO8601(milliseconds: milliseconds, to: &bytes)
            bytes.append(contentsOf: #"","level":""#.utf8)
            bytes.append(contentsOf: level.name.utf8)
            bytes.append(contentsOf: #"","msg":"#.utf8)
            JSONWriter.appendQuoted(text, to: &bytes)
            for (key, value) in fields {
                bytes.append(UInt8(ascii: ","))
                switch key {
                case "ts", "level", "msg": JSONWriter.appendQuoted("_" + key, to: &bytes)
                default: JSONWriter.appendQuoted(key, to: &bytes)
                }
                bytes.append(UInt8(ascii: ":"))
                JSONWriter.write(into: &bytes) { $0.value(value) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
