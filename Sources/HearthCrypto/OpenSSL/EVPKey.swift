import COpenSSL

/// Owns one `EVP_PKEY` (public or private) and performs the OpenSSL side of key handling: PEM import and
/// export, parameter access, public-key extraction. Signing and verification go through
/// `SHA256SignatureContext`.
///
/// `@unchecked Sendable`: the key is never modified after `init`. OpenSSL 3 allows concurrent read-only use
/// of one `EVP_PKEY` from many threads (its internal caches are locked); per-operation state lives in
/// per-call contexts, never in the key.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    // MARK: Inspection

    /// Whether the key's type is `name` (`"EC"`, `"RSA"`), as `EVP_PKEY_is_a` decides.
    func isA(_ name: String) -> Bool {
        EVP_PKEY_is_a(pointer, name) == 1
    }

    /// The key size in bits (the modulus for RSA, the field for EC).
    var bits: Int {
        Int(EVP_PKEY_get_bits(pointer))
    }

    /// The largest signature the key can produce, in bytes.
    var maximumSignatureSize: Int {
        Int(EVP_PKEY_get_size(pointer))
    }

    /// The EC group's name (`"prime256v1"` for P-256), or `nil` for keys without a named group.
    var groupName: String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 80) { buffer -> String? in
            var length = 0
            guard EVP_PKEY_get_group_name(pointer, buffer.baseAddress, buffer.count, &length) == 1 else {
                OpenSSLErrorQueue.clear()
                return nil
            }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// A big-number parameter (`"n"`, `"e"`, `"qx"`, `"qy"`) as big-endian bytes: minimal when `paddedTo` is
    /// `nil`, otherwise left-padded to exactly that many bytes.
    func bigNumberParameter(_ name: String, paddedTo width: Int? = nil) -> [UInt8]? {
        var number: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { BN_free(number) }
        let minimal = (Int(BN_num_bits(number)) + 7) / 8
        let count = width ?? minimal
        guard minimal <= count else { return nil }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = Int(BN_bn2binpad(number, buffer.baseAddress, Int32(count))) == count ? count : 0
        }
    }

    // MARK: PEM

    /// Parses a private key in PEM (PKCS#8 `PRIVATE KEY`, or the traditional `EC PRIVATE KEY` /
    /// `RSA PRIVATE KEY`). Encrypted PEM is refused rather than prompting on the terminal.
    static func privateKey(pem: String, operation: String) throws -> EVPKey {
        try withMemoryBIO(reading: pem, operation: operation) { bio in
            // Without a callback OpenSSL would read a passphrase from the controlling terminal.
            let refusePassphrase:
                @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?)
                    -> Int32 = { _, _, _, _ in 0 }
            guard let key = PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, nil) else {
                throw CryptoError.openSSL(.invalidKey, operation)
            }
            return EVPKey(taking: key)
        }
    }

    /// Parses a public key in PEM (`PUBLIC KEY`, i.e. X.509 SubjectPublicKeyInfo).
    static func publicKey(pem: String, operation: String) throws -> EVPKey {
        try withMemoryBIO(reading: pem, operation: operation) { bio in
            guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) else {
                throw CryptoError.openSSL(.invalidKey, operation)
            }
            return EVPKey(taking: key)
        }
    }

    /// The private key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    var privateKeyPEM: String {
        writePEM("PKCS#8 PEM export") { bio in
            PEM_write_bio_PKCS8PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        }
    }

    /// The public key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    var publicKeyPEM: String {
        writePEM("SPKI PEM export") { bio in
            PEM_write_bio_PUBKEY(bio, pointer)
        }
    }

    private static func withMemoryBIO<R>(
        reading text: String,
        operation: String,
        _ body: (OpaquePointer) throws -> R
    ) throws -> R {
        var text = text
        return try text.withUTF8 { utf8 in
            guard utf8.count <= Int(Int32.max), let bio = BIO_new_mem_buf(utf8.baseAddress, Int32(utf8.count)) else {
                throw CryptoError(.invalidKey, operation: operation, detail: "PEM text too large")
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    private func writePEM(_ operation: String, _ write: (OpaquePointer) -> Int32) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else {
            preconditionFailure("BIO_new failed: \(OpenSSLErrorQueue.drain() ?? "out of memory")")
        }
        defer { BIO_free(bio) }
        // Writing a well-formed in-memory key only fails when memory runs out.
        precondition(write(bio) == 1, "\(operation) failed: \(OpenSSLErrorQueue.drain() ?? "no detail")")
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = COpenSSL_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    // MARK: Public key

    /// A public-only copy of this key (a DER SubjectPublicKeyInfo round trip, which works for every key type).
    func publicOnly() -> EVPKey {
        let length = i2d_PUBKEY(pointer, nil)
        precondition(length > 0, "i2d_PUBKEY failed: \(OpenSSLErrorQueue.drain() ?? "no detail")")
        var der = [UInt8](repeating: 0, count: Int(length))
        let key: OpaquePointer? = der.withUnsafeMutableBufferPointer { der in
            var cursor = der.baseAddress
            guard i2d_PUBKEY(pointer, &cursor) == length else { return nil }
            var reader = UnsafePointer(der.baseAddress)
            return d2i_PUBKEY(nil, &reader, Int(length))
        }
        guard let key else {
            preconditionFailure("public key extraction failed: \(OpenSSLErrorQueue.drain() ?? "no detail")")
        }
        return EVPKey(taking: key)
    }

    /// Runs an OpenSSL public-key validation (`EVP_PKEY_public_check`): point on the curve for EC, sane
    /// modulus and exponent for RSA.
    func passesPublicCheck() -> Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { EVP_PKEY_CTX_free(context) }
        let valid = EVP_PKEY_public_check(context) == 1
        if !valid { OpenSSLErrorQueue.clear() }
        return valid
    }
}
