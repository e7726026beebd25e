extension JSONValue {
    /// How many arrays and objects may nest; deeper input is rejected before it can exhaust the
    /// stack of the recursive parser.
    public static let maximumDepth = 64

    /// Parses one JSON text (RFC 8259): strict grammar, UTF-8 validated, no trailing data.
    ///
    /// Beyond the grammar: duplicate object keys are rejected (so every reader of the value sees
    /// the same member), `\u` escapes of unpaired surrogates are rejected (a Swift `String` cannot
    /// hold them, and replacing them would make different inputs compare equal), and numbers too
    /// large for a `Double` are rejected rather than turned into infinity.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result =
            bytes.withContiguousStorageIfAvailable { JSONParser.parse($0) }
            ?? Array(bytes).withUnsafeBufferPointer { JSONParser.parse($0) }
        return try result.get()
    }
}

/// A recursive-descent parser over a contiguous buffer; one instance parses one document.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Reused for strings that contain escapes.
    private var scratch: [UInt8] = []

    /// Objects at least this large check for duplicate keys with a set instead of a scan.
    private static let keySetThreshold = 16

    private init(input: UnsafeBufferPointer<UInt8>) { self.input = input }

    static func parse(_ input: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(input: input)
        return Result { () throws(JSONParseError) -> JSONValue in
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.position == input.count else { throw parser.error(.trailingData) }
            return value
        }
    }

    private func error(_ reason: JSONParseError.Reason) -> JSONParseError {
        JSONParseError(reason, at: position)
    }

    /// The error for the byte at `position`, or for the end of input.
    private func unexpected() -> JSONParseError {
        position < input.count ? error(.unexpectedByte(input[position])) : error(.unexpectedEnd)
    }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < input.count else { throw error(.unexpectedEnd) }
        switch input[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw unexpected()
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard input.count - position >= count else { throw error(.unexpectedEnd) }
        let bytes = literal.utf8Start
        for offset in 0..<count where input[position + offset] != bytes[offset] {
            position += offset
            throw unexpected()
        }
        position += count
    }

    // MARK: Containers

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw error(.tooDeep) }
        position += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        if position < input.count && input[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < input.count else { throw error(.unexpectedEnd) }
            switch input[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default:
                throw unexpected()
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw error(.tooDeep) }
        position += 1  // {
        skipWhitespace()
        var members: [JSONObject.Member] = []
        if position < input.count && input[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject(uncheckedMembers: members))
        }
        var keySet: Set<String>? = nil
        members.reserveCapacity(8)
        while true {
            guard position < input.count, input[position] == UInt8(ascii: "\"") else { throw unexpected() }
            let keyOffset = position
            let key = try parseString()
            if members.count < Self.keySetThreshold {
                // Lengths first: most keys differ there, and it is far cheaper than `==`.
                let length = key.utf8.count
                for member in members where member.key.utf8.count == length && member.key == key {
                    throw JSONParseError(.duplicateKey(key), at: keyOffset)
                }
            } else {
                if keySet == nil { keySet = Set(members.map(\.key)) }
                guard keySet!.insert(key).inserted else { throw JSONParseError(.duplicateKey(key), at: keyOffset) }
            }
            skipWhitespace()
            guard position < input.count, input[position] == UInt8(ascii: ":") else { throw unexpected() }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            guard position < input.count else { throw error(.unexpectedEnd) }
            switch input[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return .object(JSONObject(uncheckedMembers: members))
            default:
                throw unexpected()
            }
        }
    }

    // MARK: Strings

    /// Parses the string starting at the opening quote at `position`.
    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position + 1
        // The scan runs on locals: this loop is where most of a parse's time goes.
        let base = input.baseAddress!
        let end = input.count
        var highWord: UInt64 = 0
        var index = JSONByteScan.skipPlainBlocks(base, from: start, to: end, plainHighBits: &highWord)
        var highBits: UInt8 = highWord & JSONByteScan.highBits == 0 ? 0 : 0x80
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                position = index
                let text = try makeString(
                    UnsafeBufferPointer(start: base + start, count: index - start),
                    ascii: highBits < 0x80
                )
                position = index + 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                position = index
                return try parseEscapedString(from: start)
            }
            if byte < 0x20 {
                position = index
                throw error(.controlCharacterInString)
            }
            highBits |= byte
            index += 1
        }
        position = end
        throw error(.unexpectedEnd)
    }

    private func makeString(_ bytes: UnsafeBufferPointer<UInt8>, ascii: Bool) throws(JSONParseError) -> String {
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw error(.invalidUTF8) }
        return text
    }

    /// Continues a string at its first backslash, decoding into `scratch`.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var highBits: UInt8 = 0
        for index in start..<position { highBits |= input[index] }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<position]))
        while position < input.count {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                let ascii = highBits < 0x80
                let result = scratch.withUnsafeBufferPointer { buffer in
                    Result { () throws(JSONParseError) in try makeString(buffer, ascii: ascii) }
                }
                return try result.get()
            case UInt8(ascii: "\\"):
                position += 1
                try appendEscape()
            case 0..<0x20:
                throw error(.controlCharacterInString)
            default:
                highBits |= byte
                scratch.append(byte)
                position += 1
            }
        }
        throw error(.unexpectedEnd)
    }

    /// Decodes the escape whose letter is at `position` into `scratch`.
    private mutating func appendEscape() throws(JSONParseError) {
        guard position < input.count else { throw error(.unexpectedEnd) }
        let decoded: UInt8
        switch input[position] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            position += 1
            appendUTF8(try parseUnicodeEscape())
            return
        default:
            throw error(.invalidEscape)
        }
        scratch.append(decoded)
        position += 1
    }

    /// Parses the hex digits after `\u` (and a following low surrogate escape if needed).
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = position - 2
        let unit = try parseHex4()
        switch unit {
        case 0xD800...0xDBFF:
            guard input.count - position >= 6, input[position] == UInt8(ascii: "\\"),
                input[position + 1] == UInt8(ascii: "u")
            else { throw JSONParseError(.loneSurrogate, at: escapeStart) }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError(.loneSurrogate, at: escapeStart) }
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            return Unicode.Scalar(value)!
        case 0xDC00...0xDFFF:
            throw JSONParseError(.loneSurrogate, at: escapeStart)
        default:
            return Unicode.Scalar(unit)!
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        guard input.count - position >= 4 else { throw error(.unexpectedEnd) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw error(.invalidEscape)
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        for unit in UTF8.encode(scalar)! { scratch.append(unit) }
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var negative = false
        if input[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < input.count, isDigit(input[position]) else { throw numberError() }
        var magnitude: UInt64 = 0
        var overflow = false
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < input.count && isDigit(input[position]) { throw error(.invalidNumber) }
        } else {
            while position < input.count && isDigit(input[position]) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(input[position] &- UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                magnitude = sum
                position += 1
            }
        }
        var integral = true
        if position < input.count && input[position] == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard position < input.count, isDigit(input[position]) else { throw numberError() }
            while position < input.count && isDigit(input[position]) { position += 1 }
        }
        if position < input.count && (input[position] | 0x20) == UInt8(ascii: "e") {
            integral = false
            position += 1
            if position < input.count && (input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-"))
            {
                position += 1
            }
            guard position < input.count, isDigit(input[position]) else { throw numberError() }
            while position < input.count && isDigit(input[position]) { position += 1 }
        }
        if integral && !overflow {
            if !negative && magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative && magnitude <= UInt64(Int64.max) + 1 { return .int(Int64(truncatingIfNeeded: 0 &- magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw JSONParseError(.numberOutOfRange, at: start) }
        return .double(value)
    }

    private func numberError() -> JSONParseError {
        position < input.count ? error(.invalidNumber) : error(.unexpectedEnd)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
