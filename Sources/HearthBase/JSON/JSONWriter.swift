/// Serialises JSON into a byte buffer: whole ``JSONValue``s, or a response built field by field
/// without an intermediate value (the cheaper path for hot, fixed-shape replies and log lines).
///
/// Output is compact, keys keep their order, `/` is not escaped, and strings escape only what
/// RFC 8259 requires (`"`, `\` and control characters). Non-finite doubles, which JSON cannot
/// express, are written as `null`.
///
/// The streaming calls insert commas themselves; they do not check that the calls form a
/// well-nested document, which is the caller's job:
///
///     var writer = JSONWriter()
///     writer.beginObject()
///     writer.key("kind"); writer.string("identitytoolkit#GetOobConfirmationCodeResponse")
///     writer.key("email"); writer.string(email)
///     writer.endObject()
///     let body = writer.bytes
public struct JSONWriter: Sendable {
    public var bytes: [UInt8]
    /// Whether the next value or key needs a comma before it.
    private var needsComma = false

    public init(reservingCapacity capacity: Int = 128) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Continues writing into an existing buffer (for example after a prefix already in it).
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Structure

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object key and the colon; the next call writes its value.
    public mutating func key(_ key: String) {
        separate()
        Self.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Scalars

    public mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &bytes)
        needsComma = true
    }

    public mutating func int(_ value: Int64) {
        separate()
        Self.appendInteger(value, to: &bytes)
        needsComma = true
    }

    public mutating func double(_ value: Double) {
        separate()
        Self.appendDouble(value, to: &bytes)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        Self.appendLiteral(value ? "true" : "false", to: &bytes)
        needsComma = true
    }

    public mutating func null() {
        separate()
        Self.appendLiteral("null", to: &bytes)
        needsComma = true
    }

    /// Writes a whole value (recursively).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Building blocks

    /// Appends `text` as a quoted, escaped JSON string.
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            appendEscaped(utf8, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends the UTF-8 `source` with JSON string escapes, copying unescaped runs in bulk.
    public static func appendEscaped(_ source: some Collection<UInt8>, to bytes: inout [UInt8]) {
        let done: Void? = source.withContiguousStorageIfAvailable { appendEscaped($0, to: &bytes) }
        if done == nil { appendEscaped(Array(source), to: &bytes) }
    }

    private static func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        JSONByteScan.forEachRun(in: buffer) {
            bytes.append(contentsOf: $0)
        } special: { byte in
            forEachEscapeByte(of: byte) { bytes.append($0) }
        }
    }

    /// Produces the escape sequence for a byte that must be escaped (`"`, `\`, control).
    static func forEachEscapeByte(of byte: UInt8, _ emit: (UInt8) -> Void) {
        emit(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): emit(byte)
        case 0x0A: emit(UInt8(ascii: "n"))
        case 0x0D: emit(UInt8(ascii: "r"))
        case 0x09: emit(UInt8(ascii: "t"))
        case 0x08: emit(UInt8(ascii: "b"))
        case 0x0C: emit(UInt8(ascii: "f"))
        default:
            let hex: StaticString = "0123456789abcdef"
            emit(UInt8(ascii: "u"))
            emit(UInt8(ascii: "0"))
            emit(UInt8(ascii: "0"))
            emit(hex.utf8Start[Int(byte >> 4)])
            emit(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    /// The most bytes `text` can take once quoted and escaped (every byte as `\u00XX`).
    public static func maximumEscapedSize(of text: String) -> Int {
        text.utf8.count * 6 + 2
    }

    /// Appends the decimal digits of `value`.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold UInt64.max; fill from the right, then copy.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// Appends the shortest decimal that reads back as `value` (`null` if not finite).
    public static func appendDouble(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            appendLiteral("null", to: &bytes)
            return
        }
        if let exact = Int64(exactly: value), exact.magnitude < 1 << 53, value != 0 || value.sign == .plus {
            appendInteger(exact, to: &bytes)
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    private static func appendLiteral(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}

extension JSONValue {
    /// The compact JSON text of this value.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }
}

extension JSONWriter {
    /// Runs `body` with a writer that appends to `bytes` in place (no copy of what is already
    /// there), for example to format a log line straight into a shared buffer.
    public static func write(into bytes: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(appendingTo: [])
        swap(&writer.bytes, &bytes)
        body(&writer)
        swap(&writer.bytes, &bytes)
    }
}
