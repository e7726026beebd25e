import HearthCrypto
import Testing

@Suite struct SHA256Tests {
    @Test func matchesTheFIPS180Examples() {
        #expect(
            Hex.encode(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(
            Hex.encode(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        )
        #expect(
            Hex.encode(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
    }

    @Test func hashesAMillionAs() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(Hex.encode(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func acceptsAnyCollectionOfBytes() {
        let expected = SHA256.hash(Array("abc".utf8))
        #expect(SHA256.hash("abc".utf8) == expected)
        #expect(SHA256.hash(Array("xabcx".utf8).dropFirst().dropLast()) == expected)
        #expect(SHA256.hash(Array("abc".utf8).lazy.map { $0 }) == expected)
    }
}

@Suite struct HMACSHA256Tests {
    /// RFC 4231 §4.2–4.8 (test case 5 is truncated to 128 bits by the RFC).
    static let vectors: [(key: [UInt8], data: [UInt8], mac: String)] = [
        (
            [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), [UInt8](repeating: 0xCD, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0x0C, count: 20), Array("Test With Truncation".utf8),
            "a3b6167473100ee06e0c796c2955552b"
        ),
        (
            [UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xAA, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8
            ),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test(arguments: 0..<7)
    func matchesRFC4231TestCase(_ index: Int) {
        let vector = Self.vectors[index]
        let mac = HMACSHA256.authenticationCode(key: vector.key, message: vector.data)
        #expect(mac.count == 32)
        // Case 5 publishes only the first 128 bits.
        let published = Hex.decode(vector.mac)!
        #expect(Array(mac.prefix(published.count)) == published, "RFC 4231 test case \(index + 1)")
    }

    @Test func acceptsAnEmptyKeyAndAnEmptyMessage() {
        // RFC 2104 pads an empty key with zeros; this value is HMAC-SHA256("", "").
        let mac = HMACSHA256.authenticationCode(key: [], message: [UInt8]())
        #expect(Hex.encode(mac) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func differentKeysGiveDifferentTags() {
        let message = Array("message".utf8)
        #expect(
            HMACSHA256.authenticationCode(key: [1], message: message)
                != HMACSHA256.authenticationCode(key: [2], message: message)
        )
    }
}
