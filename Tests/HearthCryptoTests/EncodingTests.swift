import HearthCrypto
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct Base64Tests {
    /// RFC 4648 §10.
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    @Test func encodesTheRFC4648VectorsWithPadding() {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func usesThePlusAndSlashAlphabet() {
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(Base64.decode("+/+/") == [0xFB, 0xFF, 0xBF])
        #expect(Base64.decode("-_-_") == nil)
    }

    @Test func acceptsMissingPadding() {
        #expect(Base64.decode("Zm9vYg") == Array("foob".utf8))
        #expect(Base64.decode("Zm9vYmE") == Array("fooba".utf8))
    }

    @Test func rejectsMalformedInput() {
        let bad = [
            "Z", "Zm9vY", "Zg=", "Zg===", "Zm8==", "=", "==", "====", "Zg==Zg==", "Zm9v\n", "Zm 9v", "Zm9v!",
            "Zh==", "Zm9=",  // non-zero unused bits: "Zg==" and "Zm8=" are the only spellings
            "Zm9vYg=", "Zm9vYmE==",
        ]
        for input in bad {
            #expect(Base64.decode(input) == nil, "accepted \(input)")
        }
    }

    @Test func roundTripsEveryLengthUpTo300Bytes() {
        for length in 0...300 {
            let bytes = SecureRandom.bytes(count: length)
            let encoded = Base64.encode(bytes)
            #expect(encoded.utf8.count == (length + 2) / 3 * 4)
            #expect(Base64.decode(encoded) == bytes)
        }
    }

    @Test func encodesNonContiguousSequences() {
        #expect(Base64.encode("foobar".utf8.lazy.map { $0 }) == "Zm9vYmFy")
    }
}

@Suite struct Base64URLTests {
    @Test func encodesWithoutPaddingInTheURLAlphabet() {
        for (plain, encoded) in Base64Tests.vectors {
            let unpadded = String(encoded.prefix { $0 != "=" })
            #expect(Base64URL.encode(Array(plain.utf8)) == unpadded)
            #expect(Base64URL.decode(unpadded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    }

    @Test func toleratesCorrectTrailingPadding() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
    }

    @Test func rejectsMalformedInput() {
        let bad = [
            "Z", "Zm9vY", "Zg=", "Zg===", "Zm8==", "=", "Zg==Zg", "+/+/", "Zm9v/", "Zm9v ", "Zm9v.", "Zh", "Zm9",
            "é",
        ]
        for input in bad {
            #expect(Base64URL.decode(input) == nil, "accepted \(input)")
        }
    }

    @Test func decodesSubstringsWithoutCopyingTheirBase() {
        let token = "header.Zm9vYmFy.signature"
        let middle = token.split(separator: ".")[1]
        #expect(Base64URL.decode(middle) == Array("foobar".utf8))
    }

    @Test func roundTripsEveryLengthUpTo300Bytes() {
        for length in 0...300 {
            let bytes = SecureRandom.bytes(count: length)
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == bytes)
        }
    }
}

@Suite struct HexTests {
    @Test func encodesLowerCaseAndDecodesEitherCase() {
        #expect(Hex.encode([0x00, 0x01, 0xAB, 0xFF]) == "0001abff")
        #expect(Hex.decode("0001abff") == [0x00, 0x01, 0xAB, 0xFF])
        #expect(Hex.decode("0001ABFF") == [0x00, 0x01, 0xAB, 0xFF])
        #expect(Hex.encode([]) == "")
        #expect(Hex.decode("") == [])
    }

    @Test func rejectsOddLengthsAndNonHexCharacters() {
        for input in ["0", "abc", "0g", "zz", " 00", "00 ", "+1", "0x00"] {
            #expect(Hex.decode(input) == nil, "accepted \(input)")
        }
    }

    @Test func roundTripsRandomBytes() {
        let bytes = SecureRandom.bytes(count: 1000)
        #expect(Hex.decode(Hex.encode(bytes)) == bytes)
    }
}

@Suite struct ConstantTimeEqualsTests {
    @Test func equalSequencesCompareEqual() {
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
        #expect(constantTimeEquals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(constantTimeEquals([1, 2, 3] as [UInt8], ([0, 1, 2, 3] as [UInt8]).dropFirst()))
    }

    @Test func anyDifferenceComparesUnequal() {
        let base = SecureRandom.bytes(count: 32)
        for index in [0, 15, 31] {
            var other = base
            other[index] ^= 0x01
            #expect(!constantTimeEquals(base, other))
        }
    }

    @Test func differentLengthsCompareUnequalEvenWithACommonPrefix() {
        #expect(!constantTimeEquals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!constantTimeEquals([1, 2] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!constantTimeEquals([] as [UInt8], [0] as [UInt8]))
    }
}

@Suite struct SecureRandomTests {
    @Test func returnsTheRequestedNumberOfBytes() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        #expect(SecureRandom.bytes(count: 1).count == 1)
        #expect(SecureRandom.bytes(count: 100_000).count == 100_000)
    }

    @Test func successiveCallsDiffer() {
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test func everyByteValueAppearsInALargeSample() {
        // With 64 KiB of uniform bytes the chance that some value is missing is about 256 · e^-256.
        var seen = Set<UInt8>()
        for byte in SecureRandom.bytes(count: 65_536) { seen.insert(byte) }
        #expect(seen.count == 256)
    }

    /// A forked child inherits the parent's block of random bytes; it must discard it, or parent
    /// and child would hand out the same bytes. The child draws 16 bytes and sends them back.
    @Test func aForkedChildDoesNotRepeatItsParentsBytes() throws {
        _ = SecureRandom.bytes(count: 16)  // the block is drawn and partly used
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let child = fork()
        if child == 0 {
            let bytes = SecureRandom.bytes(count: 16)
            _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, 16) }
            _exit(0)
        }
        try #require(child > 0)
        close(fds[1])
        defer { close(fds[0]) }
        let parents = SecureRandom.bytes(count: 16)
        var childs = [UInt8](repeating: 0, count: 16)
        let count = childs.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, 16) }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        #expect(count == 16)
        #expect(childs != parents)
    }

    /// Small requests come out of a 4 KiB block drawn at once: across many blocks and from several
    /// threads at a time no two 16-byte values repeat (a byte handed out twice would make them), and
    /// the bytes are not all zero (the block is wiped as it is used, so a read of used bytes would be).
    @Test func smallRequestsFromManyThreadsNeverRepeat() async {
        let values = await withTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<5_000).map { index in SecureRandom.bytes(count: index % 7 == 0 ? 33 : 16) } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(values.map { $0.prefix(16) }).count == values.count)
        #expect(values.allSatisfy { $0.contains { $0 != 0 } })
    }
}
