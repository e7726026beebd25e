public import HearthBase

/// One JSON line per answered request:
/// `{"ts":"…","method":"POST","path":"/v1/accounts:lookup","status":200,"bytes":312,"durationMicros":85,"remote":"127.0.0.1"}`.
///
/// The path is logged without its query string (it may carry `key=`, `oobCode=` and other
/// values that do not belong in logs); bodies and headers such as `Authorization` are never
/// logged. Lines go through a ``LogWriter``, so logging costs no system call per request.
public struct AccessLog: Sendable {
    public var writer: LogWriter
    public var clock: any Clock

    public init(writer: LogWriter = .standardOutput, clock: any Clock = SystemClock()) {
        self.writer = writer
        self.clock = clock
    }

    func record(method: HTTPMethod, path: String, status: Int, bytes: Int, durationMicros: Int64, remote: String) {
        let milliseconds = clock.nowMilliseconds()
        writer.appendLine { line in
            line.appendLiteral(#"{"ts":""#)
            Timestamp.appendISO8601(milliseconds: milliseconds, to: &line)
            line.appendLiteral(#"","method":"#)
            JSONWriter.appendQuoted(method.rawValue, to: &line)
            line.appendLiteral(#","path":"#)
            JSONWriter.appendQuoted(path, to: &line)
            line.appendLiteral(#","status":"#)
            JSONWriter.appendInteger(Int64(status), to: &line)
            line.appendLiteral(#","bytes":"#)
            JSONWriter.appendInteger(Int64(bytes), to: &line)
            line.appendLiteral(#","durationMicros":"#)
            JSONWriter.appendInteger(durationMicros, to: &line)
            line.appendLiteral(#","remote":"#)
            JSONWriter.appendQuoted(remote, to: &line)
            line.append(UInt8(ascii: "}"))
        }
    }
}

extension [UInt8] {
    /// Appends a literal's bytes without going through `String.UTF8View`'s generic path.
    mutating func appendLiteral(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
