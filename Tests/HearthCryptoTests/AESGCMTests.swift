import HearthCrypto
import Testing

@Suite struct AESGCMTests {
    let key = SecureRandom.bytes(count: 32)

    @Test func sealedBoxesOpenWithTheSameKeyAndAssociatedData() throws {
        for length in [0, 1, 15, 16, 17, 1000] {
            let plaintext = SecureRandom.bytes(count: length)
            let box = AESGCM.seal(plaintext, key: key, associatedData: Array("key-id-1".utf8))
            #expect(box.count == 12 + length + 16)
            #expect(try AESGCM.open(box, key: key, associatedData: Array("key-id-1".utf8)) == plaintext)
        }
        let box = AESGCM.seal(Array("no associated data".utf8), key: key)
        #expect(try AESGCM.open(box, key: key) == Array("no associated data".utf8))
    }

    @Test func everySealUsesAFreshNonce() {
        let plaintext = Array("same plaintext".utf8)
        let first = AESGCM.seal(plaintext, key: key)
        let second = AESGCM.seal(plaintext, key: key)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(first != second)
    }

    @Test func opensTheGCMSpecificationTestCase16() throws {
        // McGrew & Viega, "The Galois/Counter Mode of Operation", test case 16 (AES-256, with AAD).
        let key = [UInt8](hex: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let nonce = [UInt8](hex: "cafebabefacedbaddecaf888")
        let plaintext = [UInt8](
            hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
        )
        let associatedData = [UInt8](hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let ciphertext = [UInt8](
            hex: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
        )
        let tag = [UInt8](hex: "76fc6ece0f4e1768cddf8853bb2d551b")
        #expect(try AESGCM.open(nonce + ciphertext + tag, key: key, associatedData: associatedData) == plaintext)
    }

    @Test func opensTheGCMSpecificationTestCase14() throws {
        // Test case 14: zero key, zero nonce, one zero block.
        let box =
            [UInt8](repeating: 0, count: 12) + [UInt8](hex: "cea7403d4d606b6e074ec5d3baf39d18")
            + [UInt8](hex: "d0d1c8a799996bf0265b98b5d48ab919")
        #expect(try AESGCM.open(box, key: [UInt8](repeating: 0, count: 32)) == [UInt8](repeating: 0, count: 16))
    }

    @Test func flippingAnyBitOfTheBoxIsDetected() {
        let box = AESGCM.seal(Array("private key PEM".utf8), key: key, associatedData: [7])
        for index in [0, 11, 12, 20, box.count - 16, box.count - 1] {
            var tampered = box
            tampered[index] ^= 0x01
            #expect(throws: CryptoError.self, "undetected change at byte \(index)") {
                try AESGCM.open(tampered, key: key, associatedData: [7])
            }
        }
    }

    @Test func wrongKeyOrAssociatedDataIsAnAuthenticationFailure() {
        let box = AESGCM.seal(Array("secret".utf8), key: key, associatedData: [1])
        let wrongKey = SecureRandom.bytes(count: 32)
        for (key, associatedData) in [(wrongKey, [UInt8]([1])), (key, [2]), (key, [])] {
            do {
                _ = try AESGCM.open(box, key: key, associatedData: associatedData)
                Issue.record("opened with the wrong key or associated data")
            } catch let error as CryptoError {
                #expect(error.kind == .authenticationFailure)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test func truncatedBoxesAreInvalidInput() {
        for length in [0, 12, 27] {
            do {
                _ = try AESGCM.open([UInt8](repeating: 0, count: length), key: key)
                Issue.record("opened a \(length)-byte box")
            } catch let error as CryptoError {
                #expect(error.kind == .invalidInput)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}
