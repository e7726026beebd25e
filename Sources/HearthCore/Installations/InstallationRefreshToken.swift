import HearthBase
import HearthCrypto

/// Installation refresh tokens: 32 random bytes, base64url, behind a version prefix (`3_`,
/// as Firebase's own tokens carry one). Only their SHA-256 is stored; a presented token is
/// hashed and compared in constant time.
public enum InstallationRefreshToken {
    static let prefix = "3_"

    /// A new token and the hash to store for it.
    public static func generate() -> (token: String, hash: [UInt8]) {
        let token = prefix + Base64URL.encode(SecureRandom.bytes(count: 32))
        return (token, hash(token))
    }

    public static func hash(_ token: String) -> [UInt8] {
        SHA256.hash(utf8Of: token)
    }

    /// Whether `presented` is the token whose hash is `storedHash` (constant time).
    public static func matches(_ presented: String, storedHash: [UInt8]) -> Bool {
        equalDigests(hash(presented), storedHash)
    }

    /// `constantTimeEquals` for two byte arrays. The token path runs this on every call, and
    /// the generic version, not specialised across the module boundary, cost ~7% of a token
    /// request in the benchmark's profile (it walks a `Zip2Sequence` through witness tables).
    static func equalDigests(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var difference: UInt8 = 0
                for index in 0..<a.count { difference |= a[index] ^ b[index] }
                return difference == 0
            }
        }
    }

    /// The longest refresh token accepted from a header (ours are 45 characters).
    static let maximumLength = 512

    /// The refresh token of an `Authorization: FIS_v2 <token>` header (scheme matched without
    /// regard to case, blanks around the token ignored), or `nil` when the header is missing
    /// or has another form. Parsed by hand: it runs on every token call.
    public static func fromAuthorization(_ header: String?) -> String? {
        guard var header else { return nil }
        return header.withUTF8 { bytes -> String? in
            let scheme = "fis_v2".utf8
            guard bytes.count > scheme.count, bytes[scheme.count] == 0x20 || bytes[scheme.count] == 0x09 else {
                return nil
            }
            for (index, expected) in scheme.enumerated() {
                guard ASCII.lowercased(bytes[index]) == expected else { return nil }
            }
            var start = scheme.count
            var end = bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            guard start < end, end - start <= maximumLength else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }
}
