import COpenSSL

/// An X.509 certificate (RFC 5280), owning one OpenSSL `X509`.
///
/// Hearth makes only one kind: a self-signed certificate that carries an RS256 public key to
/// verifiers which expect keys as certificates (Google's `robot/v1/metadata/x509` documents).
/// Parsing is there to read such a certificate back (tests, operators' tools).
///
/// `@unchecked Sendable`: the certificate is never modified after it is made or parsed, and
/// OpenSSL allows concurrent read-only use of one `X509`.
public final class X509Certificate: @unchecked Sendable {
    private let pointer: OpaquePointer

    /// The `notAfter` of a certificate without a well-defined expiration date, 9999-12-31T23:59:59Z
    /// (RFC 5280 §4.1.2.5).
    public static let noWellDefinedExpiration: Int64 = 253_402_300_799

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// Makes a version 3 certificate for `key`'s public key, signed with `key` (SHA-256 with RSA), whose
    /// subject and issuer are both `CN=<commonName>`. It is an end-entity certificate for signatures
    /// only: `basicConstraints` `CA:FALSE` and `keyUsage` `digitalSignature`, both critical.
    ///
    /// PKCS#1 v1.5 signatures are deterministic, so the same arguments make the same certificate, byte
    /// for byte.
    /// - Parameters:
    ///   - serialNumber: The serial as big-endian bytes: 1 to 20 bytes, not all zero; the top bit is
    ///     cleared so the integer is positive.
    ///   - notBefore: Unix seconds; the certificate is valid from this instant.
    ///   - notAfter: Unix seconds, at least `notBefore`; the last instant it is valid.
    /// - Throws: `CryptoError` of kind `.invalidInput` for a bad serial or window, `.libraryFailure` when
    ///   OpenSSL fails.
    public static func selfSigned(
        by key: RS256.PrivateKey,
        commonName: String,
        serialNumber: [UInt8],
        notBefore: Int64,
        notAfter: Int64
    ) throws -> X509Certificate {
        let operation = "self-signed X.509 certificate"
        var serial = serialNumber
        if !serial.isEmpty { serial[0] &= 0x7F }
        guard (1...20).contains(serial.count), serial.contains(where: { $0 != 0 }) else {
            throw CryptoError(.invalidInput, operation: operation, detail: "serial must be 1 to 20 bytes, not zero")
        }
        guard notBefore <= notAfter, notAfter <= noWellDefinedExpiration, notBefore >= 0 else {
            throw CryptoError(.invalidInput, operation: operation, detail: "validity window is not ordered")
        }
        guard let made = X509_new() else { throw CryptoError.openSSL(.libraryFailure, operation) }
        let certificate = X509Certificate(taking: made)
        let x509 = certificate.pointer

        func require(_ result: Int32, _ step: String) throws {
            guard result == 1 else {
                throw CryptoError(
                    .libraryFailure,
                    operation: operation,
                    detail: "\(step): \(OpenSSLErrorQueue.drain() ?? "")"
                )
            }
        }
        // Version field 2 is X.509 v3 (the field counts from 0).
        try require(X509_set_version(x509, 2), "version")
        try require(setSerialNumber(serial, of: x509), "serial number")
        guard ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter)) != nil
        else { throw CryptoError.openSSL(.libraryFailure, operation) }
        try require(setName(commonName, of: x509), "subject and issuer")
        try require(X509_set_pubkey(x509, key.publicKey.key.pointer), "public key")
        for (nid, value) in [
            (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
        ] {
            guard let extensionField = X509V3_EXT_nconf_nid(nil, nil, nid, value) else {
                throw CryptoError.openSSL(.libraryFailure, operation)
            }
            defer { X509_EXTENSION_free(extensionField) }
            try require(X509_add_ext(x509, extensionField, -1), "extension")
        }
        // X509_sign answers the signature's length, 0 on failure.
        guard X509_sign(x509, key.key.pointer, MessageDigest.sha256.pointer) > 0 else {
            throw CryptoError.openSSL(.libraryFailure, operation)
        }
        return certificate
    }

    private static func setSerialNumber(_ serial: [UInt8], of x509: OpaquePointer) -> Int32 {
        guard let number = BN_bin2bn(serial, Int32(serial.count), nil) else { return 0 }
        defer { BN_free(number) }
        return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509)) == nil ? 0 : 1
    }

    private static func setName(_ commonName: String, of x509: OpaquePointer) -> Int32 {
        guard let name = X509_NAME_new() else { return 0 }
        defer { X509_NAME_free(name) }
        let added = Array(commonName.utf8).withUnsafeBufferPointer { bytes in
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, bytes.baseAddress, Int32(bytes.count), -1, 0)
        }
        // Both setters copy the name.
        guard added == 1, X509_set_subject_name(x509, name) == 1 else { return 0 }
        return X509_set_issuer_name(x509, name)
    }

    /// Parses one PEM certificate (`-----BEGIN CERTIFICATE-----`).
    /// - Throws: `CryptoError` of kind `.invalidInput` when the text holds no certificate.
    public convenience init(pem: String) throws {
        let operation = "X.509 certificate from PEM"
        var text = pem
        let parsed: OpaquePointer? = text.withUTF8 { utf8 in
            guard utf8.count <= Int(Int32.max), let bio = BIO_new_mem_buf(utf8.baseAddress, Int32(utf8.count)) else {
                return nil
            }
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
        guard let parsed else { throw CryptoError.openSSL(.invalidInput, operation) }
        self.init(taking: parsed)
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`, base64 lines of 64 characters, final newline).
    public var pemRepresentation: String {
        guard let bio = BIO_new(BIO_s_mem()) else {
            preconditionFailure("BIO_new failed: \(OpenSSLErrorQueue.drain() ?? "out of memory")")
        }
        defer { BIO_free(bio) }
        // Writing a well-formed in-memory certificate only fails when memory runs out.
        precondition(PEM_write_bio_X509(bio, pointer) == 1, "PEM export: \(OpenSSLErrorQueue.drain() ?? "")")
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = COpenSSL_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    // MARK: Inspection

    /// The serial number, big-endian, minimal.
    public var serialNumber: [UInt8] {
        guard let number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(pointer), nil) else {
            OpenSSLErrorQueue.clear()
            return []
        }
        defer { BN_free(number) }
        let count = (Int(BN_num_bits(number)) + 7) / 8
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = Int(BN_bn2bin(number, buffer.baseAddress))
        }
    }

    /// The first instant the certificate is valid, in Unix seconds.
    public var notBefore: Int64? { Self.unixSeconds(X509_get0_notBefore(pointer)) }

    /// The last instant the certificate is valid, in Unix seconds.
    public var notAfter: Int64? { Self.unixSeconds(X509_get0_notAfter(pointer)) }

    /// The subject's common name.
    public var subjectCommonName: String? { Self.commonName(X509_get_subject_name(pointer)) }

    /// The issuer's common name.
    public var issuerCommonName: String? { Self.commonName(X509_get_issuer_name(pointer)) }

    /// Whether the certificate carries exactly this public key.
    public func holds(_ key: RS256.PublicKey) -> Bool {
        guard let own = X509_get0_pubkey(pointer) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        return EVP_PKEY_eq(own, key.key.pointer) == 1
    }

    /// Whether the certificate's signature verifies with the public key it carries.
    public var isSelfSigned: Bool {
        guard let own = X509_get0_pubkey(pointer) else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let valid = X509_verify(pointer, own) == 1
        if !valid { OpenSSLErrorQueue.clear() }
        return valid
    }

    private static func unixSeconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time, let epoch = ASN1_TIME_set(nil, 0) else { return nil }
        defer { ASN1_TIME_free(epoch) }
        var days: Int32 = 0
        var seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, epoch, time) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return Int64(days) * 86_400 + Int64(seconds)
    }

    private static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
            let data = X509_NAME_ENTRY_get_data(entry), let bytes = ASN1_STRING_get0_data(data)
        else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))), as: UTF8.self)
    }
}
