import Foundation
import HearthCore
import HearthCrypto
import Testing

@testable import HearthMail

@Suite struct MIMETests {
    @Test func quotedPrintableKeepsLinesShortAndDecodesToTheOriginal() {
        let samples = [
            "plain ascii line",
            String(repeating: "abcdefghij", count: 30),
            "tab\tand trailing spaces   \nnext=line with = signs\n.leading dot\n",
            "Persian: " + String(repeating: "نشانی ایمیل ", count: 12),
            String(repeating: "é", count: 80) + "\r\nCRLF kept",
        ]
        for sample in samples {
            let encoded = QuotedPrintable.encode(sample)
            let lines = encoded.components(separatedBy: "\r\n")
            #expect(lines.allSatisfy { $0.utf8.count <= 76 }, "\(sample.prefix(20))")
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") && !$0.hasPrefix(".") })
            #expect(encoded.utf8.allSatisfy { $0 < 0x7F })
            #expect(
                decodeQuotedPrintable(encoded) == sample.replacing("\r\n", with: "\n").replacing("\n", with: "\r\n")
            )
        }
        #expect(QuotedPrintable.encode("a=b") == "a=3Db")
    }

    @Test func nonASCIIHeadersBecomeEncodedWordsOfWholeCharacters() {
        let subject = "بازنشانی گذرواژهٔ Example App — " + String(repeating: "😀", count: 30)
        let field = HeaderField.unstructured("Subject", subject)
        let lines = field.dropLast().components(separatedBy: "\r\n")
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" =?UTF-8?B?") })
        #expect(decodeEncodedWords(String(field.dropFirst("Subject: ".count).dropLast())) == subject)
    }

    @Test func longASCIIHeadersFoldAtSpacesAndLineBreaksCannotInjectFields() {
        let long = "Reset your password for " + String(repeating: "Example ", count: 15) + "App"
        let field = HeaderField.unstructured("Subject", long)
        #expect(field.components(separatedBy: "\r\n").dropLast().allSatisfy { $0.utf8.count <= 78 })
        #expect(field.replacing("\r\n ", with: " ") == "Subject: \(long)\r\n")
        let injected = HeaderField.unstructured("Subject", "Hello\r\nBcc: victim@example.com")
        #expect(injected == "Subject: Hello  Bcc: victim@example.com\r\n")
        let encodedLookalike = HeaderField.unstructured("Subject", "=?UTF-8?B?SGk=?=")
        #expect(encodedLookalike.hasPrefix("Subject: =?UTF-8?B?PT9VVEYtOD9CP1NHaz0/PQ==?="))
    }

    @Test func displayNamesAreQuotedOrEncoded() throws {
        let quoted = HeaderField.mailbox(
            "From",
            try MailAddress(address: "a@example.com", displayName: "Ex \"Co\" \\ Ltd")
        )
        #expect(quoted == "From: \"Ex \\\"Co\\\" \\\\ Ltd\" <a@example.com>\r\n")
        let encoded = HeaderField.mailbox("To", try MailAddress(address: "a@example.com", displayName: "Ünïcode <x>"))
        #expect(encoded == "To: =?UTF-8?B?\(Base64.encode(Array("Ünïcode <x>".utf8)))?= <a@example.com>\r\n")
        #expect(HeaderField.mailbox("To", try MailAddress(address: "a@example.com")) == "To: a@example.com\r\n")
    }

    @Test func datesAreWrittenAsRFC5322() {
        #expect(MailDate.format(milliseconds: 0) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(MailDate.format(milliseconds: 1_751_362_200_999) == "Tue, 01 Jul 2025 09:30:00 +0000")
        #expect(MailDate.format(milliseconds: 951_782_400_000) == "Tue, 29 Feb 2000 00:00:00 +0000")
    }

    @Test func aMessageIsMultipartAlternativeWithCRLFLinesAndTheSameBytesEveryTime() throws {
        let message = MIMEMessage(
            from: try MailAddress(address: "noreply@example.com", displayName: "Example App"),
            to: try MailAddress(address: "ada@example.com", displayName: "آدا"),
            replyTo: nil,
            subject: "Sign in to Example App",
            dateMilliseconds: 1_751_362_200_000,
            messageID: "<abc@example.com>",
            language: "en",
            text: "Hello,\n\n" + String(repeating: "long line ", count: 40) + "\n",
            html: "<p>" + String(repeating: "<b>long</b> html ", count: 200) + "</p>"
        )
        let bytes = message.render()
        #expect(bytes == message.render())
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.replacing("\r\n", with: "").contains("\n"))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
        let head = text.components(separatedBy: "\r\n\r\n")[0]
        for field in [
            "Date: Tue, 01 Jul 2025 09:30:00 +0000", "Message-ID: <abc@example.com>", "MIME-Version: 1.0",
            "Content-Language: en", "Subject: Sign in to Example App", "Content-Type: multipart/alternative;",
        ] {
            #expect(head.contains(field), "\(field)")
        }
        let boundary = try #require(head.split(separator: "boundary=\"").last?.split(separator: "\"").first)
        let parts = text.components(separatedBy: "--\(boundary)")
        #expect(parts.count == 4 && parts[3] == "--\r\n")
        #expect(parts[1].contains("Content-Type: text/plain; charset=utf-8"))
        #expect(parts[2].contains("Content-Type: text/html; charset=utf-8"))
    }

    @Test func theShorterTransferEncodingIsChosen() {
        #expect(MIMEMessage.transferEncoded("Plain English text.").encoding == "quoted-printable")
        let persian = MIMEMessage.transferEncoded(String(repeating: "نشانی ایمیل ورود ", count: 20))
        #expect(persian.encoding == "base64")
        #expect(persian.encoded.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 76 })
    }

    private func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let input = Array(text.replacing("=\r\n", with: "").utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "="), index + 2 < input.count + 1,
                let value = UInt8(String(decoding: input[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func decodeEncodedWords(_ value: String) -> String {
        var bytes: [UInt8] = []
        for word in value.components(separatedBy: "\r\n ") {
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?="))
            bytes += Base64.decode(word.dropFirst(10).dropLast(2)) ?? []
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension MIMETests {
    @Test func aLongEncodedDisplayNameIsFoldedBeforeTheAddress() throws {
        let name = String(repeating: "نام ", count: 20)
        let field = HeaderField.mailbox(
            "To",
            try MailAddress(address: "someone.with.a.long.address@example.com", displayName: name)
        )
        let lines = field.dropLast().components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(
            lines.last == " <someone.with.a.long.address@example.com>"
                || lines.last?.hasSuffix("?= <someone.with.a.long.address@example.com>") == true
        )
    }
}
