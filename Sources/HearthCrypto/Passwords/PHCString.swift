/// An Argon2id hash in the PHC string format:
/// `$argon2id$v=19$m=<KiB>,t=<iterations>,p=<lanes>$<salt>$<hash>`, salt and hash in unpadded standard base64.
///
/// Parsing is strict (one spelling per value: fixed member order, decimal without leading zeros) and bounds
/// every parameter, because the string comes from storage and an absurd cost in it would otherwise turn one
/// sign-in into a denial of service.
struct PHCString: Hashable {
    var memoryKiB: UInt32
    var iterations: UInt32
    var parallelism: UInt32
    var salt: [UInt8]
    var hash: [UInt8]

    static let identifier = "argon2id"
    /// Argon2 version 1.3, the only one libargon2 produces by default.
    static let version: UInt32 = 0x13

    static let maximumMemoryKiB: UInt32 = 1 << 20  // 1 GiB
    static let maximumIterations: UInt32 = 32
    static let maximumParallelism: UInt32 = 64
    static let saltByteRange = 8...64
    static let hashByteRange = 16...64

    /// Whether the cost parameters are within the bounds above (and Argon2's own: at least 8 KiB per lane).
    static func parametersAreAcceptable(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32) -> Bool {
        (1...maximumParallelism).contains(parallelism)
            && (1...maximumIterations).contains(iterations)
            && memoryKiB <= maximumMemoryKiB
            && UInt64(memoryKiB) >= 8 * UInt64(parallelism)
    }

    init(memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32, salt: [UInt8], hash: [UInt8]) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
        self.salt = salt
        self.hash = hash
    }

    /// Parses and bounds-checks a PHC string; `nil` for anything else.
    init?(parsing text: String) {
        guard text.utf8.count <= 512 else { return nil }
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == Self.identifier, fields[2] == "v=\(Self.version)"
        else {
            return nil
        }
        let parameters = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard parameters.count == 3,
            let memoryKiB = Self.number(parameters[0], prefix: "m="),
            let iterations = Self.number(parameters[1], prefix: "t="),
            let parallelism = Self.number(parameters[2], prefix: "p="),
            Self.parametersAreAcceptable(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism),
            let salt = Base64.decodeUnpadded(fields[4]), Self.saltByteRange.contains(salt.count),
            let hash = Base64.decodeUnpadded(fields[5]), Self.hashByteRange.contains(hash.count)
        else {
            return nil
        }
        self.init(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism, salt: salt, hash: hash)
    }

    /// The PHC string.
    var encoded: String {
        "$\(Self.identifier)$v=\(Self.version)$m=\(memoryKiB),t=\(iterations),p=\(parallelism)"
            + "$\(Base64.encodeUnpadded(salt))$\(Base64.encodeUnpadded(hash))"
    }

    /// `prefix` followed by a decimal `UInt32` with no sign and no leading zeros.
    private static func number(_ field: Substring, prefix: String) -> UInt32? {
        guard field.hasPrefix(prefix) else { return nil }
        let digits = field.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.count <= 10, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            digits.first != "0" || digits.count == 1
        else {
            return nil
        }
        return UInt32(digits)
    }
}
