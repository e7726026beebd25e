import HearthBase

/// A mailbox: an address with an optional display name, as in `"Example App" <noreply@example.com>`.
/// Addresses are ASCII (`local@domain`, RFC 5321 limits); display names may be any text
/// without control characters and are encoded when a message is written.
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
    public var displayName: String?
    public var address: String

    /// A checked mailbox.
    public init(address: String, displayName: String? = nil) throws(MailError) {
        guard Self.isValidAddress(address) else { throw MailError.invalidAddress(address) }
        if let displayName, ControlCharacters.occur(in: displayName) {
            throw MailError.invalidAddress(displayName)
        }
        self.address = address
        self.displayName = displayName?.isEmpty == true ? nil : displayName
    }

    /// Reads `address`, `Name <address>` or `"Name" <address>`.
    public init(parsing text: String) throws(MailError) {
        // On UTF-8 bytes: every delimiter is ASCII, which never occurs inside a multi-byte
        // character, and this runs for every message a worker delivers.
        let trimmed = text.trimmingASCIIWhitespace()
        let bytes = trimmed.utf8
        guard bytes.last == UInt8(ascii: ">"), let open = bytes.lastIndex(of: UInt8(ascii: "<")) else {
            try self.init(address: trimmed)
            return
        }
        let address = String(trimmed[bytes.index(after: open)..<bytes.index(before: bytes.endIndex)])
        var name = trimmed[..<open].trimmingASCIIWhitespace()
        let quote = UInt8(ascii: "\"")
        if name.utf8.count >= 2, name.utf8.first == quote, name.utf8.last == quote {
            // A quoted string: a backslash makes the next character literal.
            var unquoted: [UInt8] = []
            unquoted.reserveCapacity(name.utf8.count)
            var isEscaped = false
            for byte in name.utf8.dropFirst().dropLast() {
                if !isEscaped && byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else {
                    unquoted.append(byte)
                    isEscaped = false
                }
            }
            name = String(decoding: unquoted, as: UTF8.self)
        }
        try self.init(address: address, displayName: name)
    }

    /// The domain part, lower-cased. Addresses are ASCII (checked when made), so this works
    /// on bytes: it runs for every message queued.
    public var domain: String {
        withByteBuffer(of: address.utf8) { bytes in
            let start = bytes.lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? 0
            return String(unsafeUninitializedCapacity: bytes.count - start) { output in
                for index in start..<bytes.count {
                    output[index - start] = ASCII.lowercased(bytes[index])
                }
                return bytes.count - start
            }
        }
    }

    /// `address`, or `"Display Name" <address>` with `\` and `"` escaped in the name.
    public var description: String {
        guard let displayName else { return address }
        return withByteBuffer(of: displayName.utf8) { name in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(name.count + address.utf8.count + 8)
            bytes.append(UInt8(ascii: "\""))
            for byte in name {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(contentsOf: "\" <".utf8)
            bytes.append(contentsOf: address.utf8)
            bytes.append(UInt8(ascii: ">"))
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `local@domain` with a dot-atom local part of at most 64 characters and a domain of
    /// letters, digits and hyphens; 254 characters at most. Quoted local parts and
    /// non-ASCII addresses (which need SMTPUTF8) are refused.
    private static let atextSymbols = ByteSet("!#$%&'*+-/=?^_`{|}~".utf8)

    public static func isValidAddress(_ address: String) -> Bool {
        // On one contiguous buffer: this runs for every address of every message.
        withByteBuffer(of: address.utf8, isValidAddress(bytes:))
    }

    private static func isValidAddress(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= 254, let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
        guard (1...64).contains(at) else { return false }
        let dot = UInt8(ascii: ".")
        let hyphen = UInt8(ascii: "-")
        // The local part: atoms of atext joined by single dots.
        var previous = dot
        for byte in bytes[..<at] {
            if byte == dot {
                if previous == dot { return false }
            } else if !isASCIIAlphanumeric(byte) && !atextSymbols.contains(byte) {
                return false
            }
            previous = byte
        }
        if previous == dot { return false }
        // The domain: labels of 1 to 63 letters, digits and inner hyphens.
        var labelLength = 0
        previous = dot
        for byte in bytes[bytes.index(after: at)...] {
            if byte == dot {
                if labelLength == 0 || previous == hyphen { return false }
                labelLength = 0
            } else {
                guard isASCIIAlphanumeric(byte) || byte == hyphen, labelLength > 0 || byte != hyphen else {
                    return false
                }
                labelLength += 1
                if labelLength > 63 { return false }
            }
            previous = byte
        }
        return labelLength > 0 && previous != hyphen
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
