/// Why a byte sequence is not acceptable JSON, and where the parser stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case unexpectedEnd
        /// A byte that cannot start or continue the value expected here.
        case unexpectedByte(UInt8)
        /// A number that breaks the RFC 8259 grammar (leading zero, lone `-`, `1.`, `1e`).
        case invalidNumber
        /// A number too large for a `Double` (`1e400`).
        case numberOutOfRange
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape
        /// A `\u` escape of half a UTF-16 surrogate pair without its other half.
        case loneSurrogate
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        case invalidUTF8
        /// Arrays and objects nested deeper than ``JSONValue/maximumDepth``.
        case tooDeep
        case duplicateKey(String)
        /// Something other than whitespace after the value.
        case trailingData
    }

    public var reason: Reason
    /// The byte offset where the problem was found.
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch reason {
        case .unexpectedEnd: what = "Unexpected end of input"
        case .unexpectedByte(let byte):
            if byte >= 0x21 && byte < 0x7F {
                what = "Unexpected token '\(Character(Unicode.Scalar(byte)))'"
            } else {
                what = "Unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
            }
        case .invalidNumber: what = "Invalid number"
        case .numberOutOfRange: what = "Number out of range"
        case .invalidEscape: what = "Invalid escape sequence in string"
        case .loneSurrogate: what = "Unpaired UTF-16 surrogate in \\u escape"
        case .controlCharacterInString: what = "Unescaped control character in string"
        case .invalidUTF8: what = "Invalid UTF-8 in string"
        case .tooDeep: what = "Nesting deeper than \(JSONValue.maximumDepth) levels"
        case .duplicateKey(let key): what = "Duplicate key \"\(key.prefix(64))\""
        case .trailingData: what = "Unexpected data after the JSON value"
        }
        return "\(what) at byte \(offset)."
    }
}
