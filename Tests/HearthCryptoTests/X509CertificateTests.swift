import HearthCrypto
import Testing

@Suite("Self-signed X.509 certificates")
struct X509CertificateTests {
    let key = RS256Tests.sharedKey
    /// 2026-01-01T00:00:00Z and 2026-01-08T00:05:00Z.
    let notBefore: Int64 = 1_767_225_600
    let notAfter: Int64 = 1_767_830_700
    let serial: [UInt8] = [0xF1] + Array(repeating: 0x5A, count: 19)

    func certificate(notAfter: Int64? = nil) throws -> X509Certificate {
        try X509Certificate.selfSigned(
            by: key,
            commonName: "securetoken.system.gserviceaccount.com",
            serialNumber: serial,
            notBefore: notBefore,
            notAfter: notAfter ?? self.notAfter
        )
    }

    @Test("a certificate read back holds the key, verifies with it and keeps its window, serial and names")
    func readBack() throws {
        let parsed = try X509Certificate(pem: try certificate().pemRepresentation)
        #expect(parsed.holds(key.publicKey))
        #expect(!parsed.holds(RS256.PrivateKey.generate().publicKey))
        #expect(parsed.isSelfSigned)
        #expect(parsed.notBefore == notBefore)
        #expect(parsed.notAfter == notAfter)
        // The top bit is cleared, so the serial is a positive integer of the same 20 bytes.
        #expect(parsed.serialNumber == [0x71] + Array(repeating: 0x5A, count: 19))
        #expect(parsed.subjectCommonName == "securetoken.system.gserviceaccount.com")
        #expect(parsed.issuerCommonName == "securetoken.system.gserviceaccount.com")
    }

    @Test("the same key and fields make the same certificate, byte for byte")
    func deterministic() throws {
        #expect(try certificate().pemRepresentation == certificate().pemRepresentation)
    }

    @Test("a certificate with no well-defined end reads 9999-12-31T23:59:59Z")
    func openEnded() throws {
        let parsed = try X509Certificate(
            pem: try certificate(notAfter: X509Certificate.noWellDefinedExpiration).pemRepresentation
        )
        #expect(parsed.notAfter == 253_402_300_799)
    }

    @Test("a changed byte in the signed part breaks the self-signature")
    func tamperedCertificateFailsItsSignature() throws {
        let pem = try certificate().pemRepresentation
        var lines = pem.split(separator: "\n").map(String.init)
        // Line 3 lies inside the to-be-signed part (the subject name and the validity window).
        var characters = Array(lines[3])
        characters[10] = characters[10] == "A" ? "B" : "A"
        lines[3] = String(characters)
        let tampered = try? X509Certificate(pem: lines.joined(separator: "\n") + "\n")
        #expect(tampered?.isSelfSigned != true)
    }

    @Test("a serial of zero or of more than 20 bytes and a reversed window are refused")
    func refusesBadFields() throws {
        for (serial, from, until) in [
            ([UInt8](), notBefore, notAfter), ([0, 0], notBefore, notAfter),
            (Array(repeating: 1, count: 21), notBefore, notAfter), (serial, notAfter, notBefore),
        ] {
            #expect(throws: CryptoError.self) {
                try X509Certificate.selfSigned(
                    by: key,
                    commonName: "x",
                    serialNumber: serial,
                    notBefore: from,
                    notAfter: until
                )
            }
        }
        #expect(throws: CryptoError.self) { try X509Certificate(pem: "-----BEGIN CERTIFICATE-----\nAAAA\n") }
    }

    @Test("the openssl tool reads the same key, window, names and signature constraints")
    func opensslReadsTheCertificate() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        try tool.write(try certificate().pemRepresentation, to: "cert.pem")
        let publicKey = try tool.run(["x509", "-in", "cert.pem", "-noout", "-pubkey"])
        #expect(publicKey.status == 0 && publicKey.output == key.publicKey.pemRepresentation, "\(publicKey.output)")
        let fields = try tool.run([
            "x509", "-in", "cert.pem", "-noout", "-dates", "-subject", "-issuer", "-ext", "basicConstraints,keyUsage",
        ])
        #expect(fields.status == 0, "\(fields.output)")
        #expect(fields.output.contains("notBefore=Jan  1 00:00:00 2026 GMT"), "\(fields.output)")
        #expect(fields.output.contains("notAfter=Jan  8 00:05:00 2026 GMT"), "\(fields.output)")
        #expect(fields.output.contains("subject=CN = securetoken.system.gserviceaccount.com"), "\(fields.output)")
        #expect(fields.output.contains("issuer=CN = securetoken.system.gserviceaccount.com"), "\(fields.output)")
        #expect(fields.output.contains("CA:FALSE") && fields.output.contains("Digital Signature"), "\(fields.output)")
        // The signature checks out with the certificate's own key, as a trust anchor's would.
        let verified = try tool.run([
            "verify", "-check_ss_sig", "-partial_chain", "-attime", "\(notBefore + 60)", "-CAfile", "cert.pem",
            "cert.pem",
        ])
        #expect(verified.status == 0 && verified.output.contains("OK"), "\(verified.output)")
    }
}
