import COpenSSL

extension EVPKey {
    /// Generates a P-256 key pair.
    static func generateP256() -> EVPKey {
        generate(algorithm: "EC") { context in
            EVP_PKEY_CTX_set_group_name(context, "P-256")
        }
    }

    /// Generates an RSA key pair with public exponent 65537 (OpenSSL's default).
    static func generateRSA(bits: Int) -> EVPKey {
        generate(algorithm: "RSA") { context in
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits))
        }
    }

    /// Key generation fails only when the library is broken or memory runs out, so it stops the process.
    private static func generate(algorithm: String, configure: (OpaquePointer) -> Int32) -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            preconditionFailure("\(algorithm) key generation unavailable: \(OpenSSLErrorQueue.drain() ?? "")")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) == 1, EVP_PKEY_generate(context, &key) == 1,
            let key
        else {
            preconditionFailure("\(algorithm) key generation failed: \(OpenSSLErrorQueue.drain() ?? "no detail")")
        }
        return EVPKey(taking: key)
    }

    /// Builds a P-256 public key from its affine coordinates (32 bytes each). OpenSSL rejects points that are
    /// not on the curve.
    static func p256PublicKey(x: [UInt8], y: [UInt8], operation: String) throws -> EVPKey {
        precondition(x.count == 32 && y.count == 32)
        let point: [UInt8] = [0x04] + x + y  // SEC 1 uncompressed encoding
        let names = [OSSL_PKEY_PARAM_GROUP_NAME, OSSL_PKEY_PARAM_PUB_KEY, "P-256"]
        return try publicKey(algorithm: "EC", names: names, operation: operation) { builder, names in
            // The builder reads the point when it converts, so the point must be live until then.
            point.withUnsafeBytes { point in
                guard OSSL_PARAM_BLD_push_utf8_string(builder, names[0], names[2], 0) == 1,
                    OSSL_PARAM_BLD_push_octet_string(builder, names[1], point.baseAddress, point.count) == 1
                else {
                    return nil
                }
                return OSSL_PARAM_BLD_to_param(builder)
            }
        }
    }

    /// Builds an RSA public key from its big-endian modulus and public exponent.
    static func rsaPublicKey(modulus: [UInt8], exponent: [UInt8], operation: String) throws -> EVPKey {
        guard let n = bigNumber(modulus), let e = bigNumber(exponent) else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        defer {
            BN_free(n)
            BN_free(e)
        }
        let names = [OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E]
        return try publicKey(algorithm: "RSA", names: names, operation: operation) { builder, names in
            guard OSSL_PARAM_BLD_push_BN(builder, names[0], n) == 1,
                OSSL_PARAM_BLD_push_BN(builder, names[1], e) == 1
            else {
                return nil
            }
            return OSSL_PARAM_BLD_to_param(builder)
        }
    }

    private static func bigNumber(_ bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
    }

    /// NUL-terminated copies of `strings` that stay valid for the whole of `body`, unlike the temporary
    /// pointers Swift makes when a `String` is passed straight to a `const char *` parameter.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>]) throws -> R) rethrows -> R
    {
        let copies = strings.map { string -> UnsafeMutablePointer<CChar> in
            let utf8 = Array(string.utf8CString)
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
            copy.initialize(from: utf8, count: utf8.count)
            return copy
        }
        defer {
            for copy in copies { copy.deallocate() }
        }
        return try body(copies.map { UnsafePointer($0) })
    }

    /// `EVP_PKEY_fromdata` with the parameters `build` pushes onto a builder and converts (with
    /// `OSSL_PARAM_BLD_to_param`), followed by OpenSSL's public-key check.
    ///
    /// `build` receives `names` as C strings that stay valid until the key exists: the builder keeps the name
    /// and value pointers until it converts, and the converted `OSSL_PARAM` array still points at the names.
    private static func publicKey(
        algorithm: String,
        names: [String],
        operation: String,
        build: (OpaquePointer, [UnsafePointer<CChar>]) -> UnsafeMutablePointer<OSSL_PARAM>?
    ) throws -> EVPKey {
        try withCStrings(names) { names in
            try publicKey(algorithm: algorithm, operation: operation) { build($0, names) }
        }
    }

    private static func publicKey(
        algorithm: String,
        operation: String,
        build: (OpaquePointer) -> UnsafeMutablePointer<OSSL_PARAM>?
    ) throws -> EVPKey {
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard let parameters = build(builder) else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        defer { EVP_PKEY_CTX_free(context) }
        // EVP_PKEY_PUBLIC_KEY, spelled out: Swift cannot import that macro because it nests other macros.
        let selection = Int32(
            OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS
                | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS
        )
        var key: OpaquePointer? = nil
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, selection, parameters) == 1,
            let key
        else {
            throw CryptoError.openSSL(.invalidKey, operation)
        }
        let result = EVPKey(taking: key)
        guard result.passesPublicCheck() else {
            throw CryptoError(.invalidKey, operation: operation, detail: "OpenSSL's public key check failed")
        }
        return result
    }
}
