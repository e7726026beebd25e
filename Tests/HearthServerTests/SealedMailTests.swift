import HearthBase
import HearthCore
import HearthHTTP
import HearthStore
import Testing

/// A queued email's code is sealed in the store: whoever reads the database cannot apply it.
@Suite struct SealedMailTests {
    @Test("no value read from the outbox or the codes table applies as the emailed reset code")
    func aCodeReadFromTheStoreCannotBeApplied() throws {
        let app = try TestApplication()
        _ = try app.signUp("ada@example.com")
        let sent = app.client(
            "/v1/accounts:sendOobCode",
            ["requestType": "PASSWORD_RESET", "email": "ada@example.com"]
        )
        #expect(sent.status == 200, "\(sent.text)")
        let listed = app.send(.get, "/emulator/v1/projects/demo-project/oobCodes").json["oobCodes"]?.arrayValue ?? []
        let code = try #require(listed.first?["oobCode"]?.stringValue)

        // Every text and blob the mail and code tables hold, and every oobCode= inside one:
        // what someone who read the file would try.
        let candidates = try app.store.read { transaction in
            var found: Set<String> = []
            for table in ["mail_outbox", "mail_bodies", "mail_templates", "action_codes"] {
                for row in try transaction.connection.query(SQLStatement(oneOff: "SELECT * FROM \(table)"), []) {
                    for value in row.values {
                        let text: String
                        switch value {
                        case .text(let string): text = string
                        case .blob(let bytes): text = String(decoding: bytes, as: UTF8.self)
                        default: continue
                        }
                        found.insert(text)
                        for part in text.split(separator: "oobCode=").dropFirst() {
                            found.insert(String(part.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }))
                        }
                    }
                }
            }
            return found
        }
        #expect(!candidates.contains(code))
        var refused = 0
        for candidate in candidates where !candidate.isEmpty {
            let reset = app.client(
                "/v1/accounts:resetPassword",
                ["oobCode": .string(candidate), "newPassword": "a new password 1"]
            )
            #expect(reset.status == 400, "a stored value was accepted as a code")
            if reset.status == 400 { refused += 1 }
        }
        print("sealed mail: \(candidates.count) stored values tried as the code, \(refused) refused")
        #expect(refused > 0)
        // The code the email (and the development listing) holds still works.
        let reset = app.client(
            "/v1/accounts:resetPassword",
            ["oobCode": .string(code), "newPassword": "a new password 1"]
        )
        #expect(reset.status == 200, "\(reset.text)")
    }
}
