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
        let method = method.rawValue
        // Formatted on the stack, then copied under the writer's lock in one piece.
        let capacity =
            160 + JSONWriter.maximumEscapedSize(of: method) + JSONWriter.maximumEscapedSize(of: path)
            + JSONWriter.maximumEscapedSize(of: remote)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var line = UnsafeByteWriter(buffer)
            line.append(#"{"ts":""#)
            line.appendISO8601(milliseconds: milliseconds)
            line.append(#"","method":"#)
            line.appendQuoted(method)
            line.append(#","path":"#)
            line.appendQuoted(path)
            line.append(#","status":"#)
            line.appendInteger(Int64(status))
            line.append(#","bytes":"#)
            line.appendInteger(Int64(bytes))
            line.append(#","durationMicros":"#)
            line.appendInteger(durationMicros)
            line.append(#","remote":"#)
            line.appendQuoted(remote)
            line.append(UInt8(ascii: "}"))
            writer.appendLine(line.written)
        }
    }
}
