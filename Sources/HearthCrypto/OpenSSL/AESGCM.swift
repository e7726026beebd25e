import COpenSSL

/// AES-256-GCM authenticated encryption, used to keep private keys encrypted at rest.
///
/// The sealed format is `nonce (12) ‖ ciphertext ‖ tag (16)`. Every `seal` draws a fresh random nonce; with
/// random 96-bit nonces one key should seal well under 2³² messages (NIST SP 800-38D §8.3), far beyond what
/// key-at-rest encryption needs.
public enum AESGCM {
    /// The key length in bytes.
    public static let keyByteCount = 32
    /// The nonce length in bytes.
    public static let nonceByteCount = 12
    /// The tag length in bytes.
    public static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext` (and authenticates `associatedData`) under a 32-byte `key`.
    /// - Returns: `nonce ‖ ciphertext ‖ tag`.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = []) -> [UInt8] {
        precondition(key.count == keyByteCount, "AES-256-GCM needs a 32-byte key")
        precondition(plaintext.count <= Int(Int32.max) - 64, "AES-256-GCM plaintext too large for one call")
        let total = nonceByteCount + plaintext.count + tagByteCount
        return [UInt8](unsafeUninitializedCapacity: total) { box, initialized in
            let box = UnsafeMutableRawBufferPointer(box)
            let nonce = UnsafeMutableRawBufferPointer(rebasing: box[0..<nonceByteCount])
            SecureRandom.fill(nonce)

            guard let context = EVP_CIPHER_CTX_new() else {
                preconditionFailure("EVP_CIPHER_CTX_new failed: \(OpenSSLErrorQueue.drain() ?? "out of memory")")
            }
            defer { EVP_CIPHER_CTX_free(context) }

            let ciphertext = box.baseAddress!.advanced(by: nonceByteCount).assumingMemoryBound(to: UInt8.self)
            var written: Int32 = 0
            var finalWritten: Int32 = 0
            let status = key.withUnsafeBufferPointer { key in
                EVP_EncryptInit_ex2(
                    context,
                    Cipher.aes256GCM.pointer,
                    key.baseAddress,
                    nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    nil
                ) == 1
                    && addAssociatedData(associatedData, to: context, encrypting: true)
                    && plaintext.withUnsafeBufferPointer { plaintext in
                        plaintext.isEmpty
                            || EVP_EncryptUpdate(
                                context,
                                ciphertext,
                                &written,
                                plaintext.baseAddress,
                                Int32(plaintext.count)
                            ) == 1
                    }
                    && EVP_EncryptFinal_ex(context, ciphertext + Int(written), &finalWritten) == 1
                    && EVP_CIPHER_CTX_ctrl(
                        context,
                        EVP_CTRL_AEAD_GET_TAG,
                        Int32(tagByteCount),
                        box.baseAddress! + nonceByteCount + plaintext.count
                    ) == 1
            }
            precondition(
                status && Int(written) + Int(finalWritten) == plaintext.count,
                "AES-256-GCM encryption failed: \(OpenSSLErrorQueue.drain() ?? "no detail")"
            )
            initialized = total
        }
    }

    /// Checks and decrypts a box made by `seal`.
    /// - Throws: `CryptoError` of kind `.authenticationFailure` when the key, the associated data or any byte of
    ///   the box is wrong, `.invalidInput` when the box is too short to hold a nonce and a tag.
    public static func open(_ box: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        precondition(key.count == keyByteCount, "AES-256-GCM needs a 32-byte key")
        let operation = "AES-256-GCM open"
        guard box.count >= nonceByteCount + tagByteCount else {
            throw CryptoError(.invalidInput, operation: operation, detail: "sealed box shorter than nonce and tag")
        }
        let ciphertextCount = box.count - nonceByteCount - tagByteCount
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        defer { EVP_CIPHER_CTX_free(context) }

        // EVP_CTRL_AEAD_SET_TAG takes a mutable pointer, so the expected tag goes through a local copy.
        var tag = Array(box[(box.count - tagByteCount)...])
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        var plaintext = [UInt8](repeating: 0, count: ciphertextCount)
        let initialised = box.withUnsafeBufferPointer { box in
            key.withUnsafeBufferPointer { key in
                EVP_DecryptInit_ex2(context, Cipher.aes256GCM.pointer, key.baseAddress, box.baseAddress, nil) == 1
                    && addAssociatedData(associatedData, to: context, encrypting: false)
                    && plaintext.withUnsafeMutableBufferPointer { plaintext in
                        ciphertextCount == 0
                            || EVP_DecryptUpdate(
                                context,
                                plaintext.baseAddress,
                                &written,
                                box.baseAddress! + nonceByteCount,
                                Int32(ciphertextCount)
                            ) == 1
                    }
                    && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), &tag) == 1
            }
        }
        guard initialised else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        // The tag is checked here; on mismatch the plaintext decrypted so far is dropped, never returned.
        // GCM's final step writes no bytes; a scratch buffer keeps the output pointer valid for empty input.
        let authentic = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { scratch in
            EVP_DecryptFinal_ex(context, scratch.baseAddress, &finalWritten) == 1
        }
        guard authentic, finalWritten == 0 else {
            OpenSSLErrorQueue.clear()
            throw CryptoError(.authenticationFailure, operation: operation, detail: "tag mismatch")
        }
        return plaintext
    }

    private static func addAssociatedData(_ data: [UInt8], to context: OpaquePointer, encrypting: Bool) -> Bool {
        guard !data.isEmpty else { return true }
        var ignored: Int32 = 0
        return data.withUnsafeBufferPointer { data in
            if encrypting {
                EVP_EncryptUpdate(context, nil, &ignored, data.baseAddress, Int32(data.count)) == 1
            } else {
                EVP_DecryptUpdate(context, nil, &ignored, data.baseAddress, Int32(data.count)) == 1
            }
        }
    }
}
