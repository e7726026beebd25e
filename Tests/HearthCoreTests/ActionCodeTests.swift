import HearthCore
import HearthCrypto
import Testing

@Suite struct ActionCodeTests {
    @Test func codesAre51Base64URLCharactersAndNeverRepeat() {
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let (code, _) = ActionCode.generate(expiringAtMilliseconds: 1_780_000_000_000)
            #expect(code.utf8.count == 51)
            #expect(Base64URL.decode(code)?.count == 38)  // 6 bytes of expiry time, 32 random
            #expect(seen.insert(code).inserted)
        }
    }

    @Test func theStorageKeyIsTheExpiryPrefixThenTheHashOfTheWholeCode() throws {
        let milliseconds: Int64 = 0x0123_4567_89AB
        let (code, key) = ActionCode.generate(expiringAtMilliseconds: milliseconds)
        #expect(key == ActionCode.storageKey(code))
        #expect(Array(key.prefix(6)) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
        #expect(Array(key.dropFirst(6)) == SHA256.hash(Array(code.utf8)))
        #expect(Array(try #require(Base64URL.decode(code)).prefix(6)) == Array(key.prefix(6)))
    }

    @Test func codesExpiringLaterSortAfterEarlierOnes() {
        let keys = (0..<200).map { step in
            ActionCode.generate(expiringAtMilliseconds: 1_780_000_000_000 + Int64(step) * 7).key
        }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func theBoundSeparatesCodesExpiringBeforeAGivenTimeFromTheRest() {
        let bound = ActionCode.keyBound(expiringBefore: 1_780_000_000_000)
        for offset: Int64 in [-86_400_000, -1] {
            let key = ActionCode.generate(expiringAtMilliseconds: 1_780_000_000_000 + offset).key
            #expect(key.lexicographicallyPrecedes(bound))
        }
        for offset: Int64 in [0, 1, 86_400_000] {
            let key = ActionCode.generate(expiringAtMilliseconds: 1_780_000_000_000 + offset).key
            #expect(!key.lexicographicallyPrecedes(bound))
        }
    }

    @Test func anyStringHasAKeyAndOnlyTheExactCodeHasItsKey() {
        let (code, key) = ActionCode.generate(expiringAtMilliseconds: 1_780_000_000_000)
        for other in ["", "short", "!!!!!!!!not base64", String(code.dropLast()), code + "A", code.uppercased()] {
            #expect(ActionCode.storageKey(other).count == 38)
            #expect(ActionCode.storageKey(other) != key)
        }
    }
}
