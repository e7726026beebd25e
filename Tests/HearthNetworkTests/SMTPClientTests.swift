import Foundation
import HearthNetwork
import HearthTestSupport
import Testing

/// `SMTPClient` against a real SMTP server (the test tooling's aiosmtpd sink).
@Suite(.serialized) struct SMTPClientTests {
    let message = Array(
        ("From: a@example.com\r\nTo: b@example.com\r\nSubject: hi\r\nMessage-ID: <1@example.com>\r\n\r\n"
            + "line one\r\n.line starting with a dot\r\n").utf8
    )

    @Test func aMessageIsDeliveredAsWrittenToTheEnvelopeRecipient() throws {
        let sink = try SMTPSink()
        try SMTPClient.send(
            message,
            from: "a@example.com",
            to: ["b@example.com"],
            configuration: SMTPConfiguration(url: sink.url)
        )
        let received = sink.waitForMessages(1)
        #expect(received.count == 1)
        #expect(received.first?["envelopeFrom"] as? String == "a@example.com")
        #expect(received.first?["envelopeTo"] as? [String] == ["b@example.com"])
        #expect(received.first?.header("Subject") == "hi")
        #expect((received.first?["text"] as? String)?.contains("\n.line starting with a dot") == true)
    }

    @Test func aRefusedRecipientIsAPermanentRejection() throws {
        let sink = try SMTPSink(options: ["--reject", "nobody"])
        #expect {
            try SMTPClient.send(
                self.message,
                from: "a@example.com",
                to: ["nobody@example.com"],
                configuration: SMTPConfiguration(url: sink.url)
            )
        } throws: { ($0 as? NetworkError)?.kind == .rejected }
        #expect(sink.messages().isEmpty)
    }

    @Test func aServerThatIsDownIsATransportError() throws {
        let sink = try SMTPSink()
        sink.stop()
        var configuration = SMTPConfiguration(url: sink.url)
        configuration.timeoutMilliseconds = 3_000
        #expect {
            try SMTPClient.send(
                self.message,
                from: "a@example.com",
                to: ["b@example.com"],
                configuration: configuration
            )
        } throws: { ($0 as? NetworkError)?.kind == .transport }
    }

    @Test func credentialsAreSentWithAUTHAndAWrongPasswordIsRetryable() throws {
        let sink = try SMTPSink(options: ["--auth", "hearth:s3cret"])
        var configuration = SMTPConfiguration(url: sink.url, username: "hearth", password: "s3cret", startTLS: .off)
        try SMTPClient.send(message, from: "a@example.com", to: ["b@example.com"], configuration: configuration)
        #expect(sink.waitForMessages(1).count == 1)
        configuration.password = "wrong"
        #expect {
            try SMTPClient.send(
                self.message,
                from: "a@example.com",
                to: ["b@example.com"],
                configuration: configuration
            )
        } throws: { ($0 as? NetworkError)?.kind == .transport }
        // With credentials and no STARTTLS mode given, TLS is required: a plain server is refused.
        configuration = SMTPConfiguration(url: sink.url, username: "hearth", password: "s3cret")
        #expect(throws: NetworkError.self) {
            try SMTPClient.send(
                self.message,
                from: "a@example.com",
                to: ["b@example.com"],
                configuration: configuration
            )
        }
        #expect(sink.messages().count == 1)
    }

    @Test func startTLSAndImplicitTLSCarryTheMessage() throws {
        let certificates = try SelfSignedCertificate()
        let tlsOptions = ["--tls-cert", certificates.certificate, "--tls-key", certificates.key]
        let startTLS = try SMTPSink(options: tlsOptions)
        var configuration = SMTPConfiguration(url: startTLS.url, startTLS: .required)
        configuration.verifyCertificate = false
        try SMTPClient.send(message, from: "a@example.com", to: ["b@example.com"], configuration: configuration)
        #expect(startTLS.waitForMessages(1).count == 1)
        // The certificate is checked unless told otherwise.
        configuration.verifyCertificate = true
        #expect(throws: NetworkError.self) {
            try SMTPClient.send(
                self.message,
                from: "a@example.com",
                to: ["b@example.com"],
                configuration: configuration
            )
        }

        let implicit = try SMTPSink(options: tlsOptions + ["--implicit-tls"])
        configuration = SMTPConfiguration(url: "smtps://127.0.0.1:\(implicit.port)")
        configuration.verifyCertificate = false
        try SMTPClient.send(message, from: "a@example.com", to: ["b@example.com"], configuration: configuration)
        #expect(implicit.waitForMessages(1).count == 1)
    }
}

/// A throw-away self-signed certificate for 127.0.0.1, made with the `openssl` tool.
struct SelfSignedCertificate {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-tls-\(UUID().uuidString)")
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-keyout", key, "-out", certificate,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestHTTPError("openssl could not make a certificate") }
    }
}
